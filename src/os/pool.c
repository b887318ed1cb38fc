/* pool.c - see pool.h
 *
 * In os/, the layer of the machine's resources: a thread, like a child
 * process, is one (RLIMIT_NPROC counts both), and the ports scan, itself
 * in os/, is one of the users.  Not in util/: util is below the pure
 * parsers, which start no thread (tests/integration/layers.sh).
 *
 * pool_run claims with two atomics, not a lock: next is fetched and added
 * a chunk at a time, so the claims are a prefix; stop is read before each
 * claim, so a claim may still slip in beside a stop (harmless: a claimed
 * chunk runs whole, and the users' answers do not depend on how far past
 * the stop the claims went).
 */
#include "pool.h"

#include <signal.h>
#include <stdatomic.h>

struct team {
	int (*fn)(void *arg, unsigned worker, size_t item);
	void *arg;
	size_t n, chunk;
	atomic_size_t next;
	atomic_int stop;
};

struct member {
	struct team *team;
	unsigned worker;
	struct pool_thread t;
};

static void team_work(struct team *tm, unsigned worker)
{
	while (!atomic_load(&tm->stop)) {
		size_t i = atomic_fetch_add(&tm->next, tm->chunk), end;

		if (i >= tm->n)
			break;
		end = tm->n - i > tm->chunk ? i + tm->chunk : tm->n;
		for (; i < end; i++)
			if (tm->fn(tm->arg, worker, i))
				atomic_store(&tm->stop, 1);
	}
}

static void *member_main(void *arg)
{
	struct member *m = arg;

	team_work(m->team, m->worker);
	return NULL;
}

unsigned pool_run(unsigned nthreads, size_t nitems, size_t chunk,
		  int (*fn)(void *arg, unsigned worker, size_t item), void *arg)
{
	struct member ms[POOL_MAX_THREADS];
	struct team tm;
	size_t chunks;
	unsigned i, ran = 1;

	tm.fn = fn;
	tm.arg = arg;
	tm.n = nitems;
	tm.chunk = chunk ? chunk : 1;
	atomic_init(&tm.next, 0);
	atomic_init(&tm.stop, 0);
	chunks = nitems / tm.chunk + (nitems % tm.chunk != 0);
	if (nthreads > POOL_MAX_THREADS)
		nthreads = POOL_MAX_THREADS;
	if (nthreads > chunks)
		nthreads = (unsigned)chunks;
	/* the workers are numbered as they start, so 0 .. ran-1 are used */
	for (i = 1; i < nthreads; i++) {
		struct member *m = &ms[ran - 1];

		m->team = &tm;
		m->worker = ran;
		if (pool_start(&m->t, member_main, m) == 0)
			ran++;
	}
	team_work(&tm, 0);
	for (i = 0; i + 1 < ran; i++)
		pool_join(&ms[i].t);
	return ran;
}

int pool_start(struct pool_thread *t, void *(*fn)(void *arg), void *arg)
{
	sigset_t all, old;
	int rc;

	/* the new thread inherits the mask it is created under */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&t->id, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	t->started = rc == 0;
	return rc;
}

void pool_join(struct pool_thread *t)
{
	if (t->started)
		pthread_join(t->id, NULL);
	t->started = 0;
}

void pool_detach(struct pool_thread *t)
{
	if (t->started)
		pthread_detach(t->id);
	t->started = 0;
}
