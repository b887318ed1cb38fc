/* runner.c - checks on a thread pool under one deadline.
 *
 * Each job owns a private result while it runs; the worker hands it over
 * under the lock when it finishes.  At the deadline the main thread marks
 * every unfinished job abandoned and reports it as timed out: a worker
 * that finishes later frees its own result instead of touching the
 * caller's array.  The pool is reference-counted so that an abandoned
 * worker can still use it after runner_run has returned.
 */
#include "runner.h"
#include "spawnrun.h"
#include "util.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum job_state { JOB_WAITING, JOB_RUNNING, JOB_DONE, JOB_ABANDONED };

struct job {
	const struct check *check;
	enum job_state state;
	struct result res;	/* valid when DONE */
};

struct memo_entry {
	char *key;
	void *value;
	void (*release)(void *);
	int ready;
};

/* Lives in the pool, so it is freed with it, after the last worker. */
struct run_memo {
	pthread_mutex_t *lock;	/* the pool's */
	pthread_cond_t ready;	/* broadcast when a value is ready */
	struct memo_entry *v;
	size_t n, cap;
};

struct pool {
	pthread_mutex_t lock;
	pthread_cond_t cv;	/* signalled when a job is done */
	struct run_ctx ctx;
	struct job *jobs;
	size_t njobs, next, ndone;
	int stop;
	unsigned refs;		/* the caller plus every live worker */
	struct run_memo memo;
	struct worker *workers;	/* freed with the pool: a detached worker uses its own */
};

struct worker {
	pthread_t thread;
	struct pool *pool;
	int exited;		/* under pool->lock */
};

#define RUNNER_MAX_THREADS 8

static void pool_unref(struct pool *p)
{
	unsigned left;

	pthread_mutex_lock(&p->lock);
	left = --p->refs;
	pthread_mutex_unlock(&p->lock);
	if (left)
		return;
	for (left = 0; left < p->memo.n; left++) {
		struct memo_entry *m = &p->memo.v[left];

		if (m->ready && m->release)
			m->release(m->value);
		free(m->key);
	}
	free(p->memo.v);
	free(p->workers);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->cv);
	pthread_cond_destroy(&p->memo.ready);
	free(p->jobs);
	free(p);
}

void *run_once(const struct run_ctx *ctx, const char *key,
	       void *(*make)(const struct run_ctx *ctx, const void *arg),
	       const void *arg, void (*release)(void *value))
{
	struct run_memo *memo = ctx->memo;
	size_t i;
	void *value;

	pthread_mutex_lock(memo->lock);
	for (i = 0; i < memo->n; i++)
		if (!strcmp(memo->v[i].key, key))
			break;
	if (i < memo->n) {
		while (!memo->v[i].ready)
			pthread_cond_wait(&memo->ready, memo->lock);
		value = memo->v[i].value;
		pthread_mutex_unlock(memo->lock);
		return value;
	}
	grow(&memo->v, sizeof(*memo->v), &memo->cap, memo->n + 1);
	memset(&memo->v[memo->n], 0, sizeof(memo->v[0]));
	memo->v[memo->n].key = xstrdup(key);
	memo->v[memo->n].release = release;
	memo->n++;
	pthread_mutex_unlock(memo->lock);

	value = make(ctx, arg);

	pthread_mutex_lock(memo->lock);
	for (i = 0; i < memo->n; i++)	/* the array may have moved */
		if (!strcmp(memo->v[i].key, key))
			break;
	memo->v[i].value = value;
	memo->v[i].ready = 1;
	pthread_cond_broadcast(&memo->ready);
	pthread_mutex_unlock(memo->lock);
	return value;
}

static void result_start(struct result *r, const struct check *c)
{
	memset(r, 0, sizeof(*r));
	r->id = xstrdup(c->id);
	r->title = xstrdup(c->title);
	r->probe = c->probe->name;
	r->source = c->source;
	r->workspace = c->workspace;
}

static void run_one(struct pool *p, struct job *job)
{
	struct result r;
	struct run_ctx ctx = p->ctx;
	double t0 = clock_ms();

	/* a workspace's check reads its own model; the memo is the run's */
	if (job->check->spec)
		ctx.spec = job->check->spec;
	result_start(&r, job->check);
	job->check->probe->run(&ctx, job->check, &r);
	if (!r.message) {
		result_set(&r, STATUS_ERROR, "the probe reported nothing");
		r.reason = REASON_PROBE_ERROR;
	}
	r.duration_ms = clock_ms() - t0;

	pthread_mutex_lock(&p->lock);
	if (job->state == JOB_ABANDONED) {
		pthread_mutex_unlock(&p->lock);
		result_release(&r);
		return;
	}
	job->res = r;
	job->state = JOB_DONE;
	p->ndone++;
	pthread_cond_signal(&p->cv);
	pthread_mutex_unlock(&p->lock);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct pool *p = w->pool;

	for (;;) {
		struct job *job = NULL;

		pthread_mutex_lock(&p->lock);
		if (!p->stop && p->next < p->njobs) {
			job = &p->jobs[p->next++];
			job->state = JOB_RUNNING;
		}
		if (!job)
			w->exited = 1;
		pthread_mutex_unlock(&p->lock);
		if (!job)
			break;
		run_one(p, job);
	}
	pool_unref(p);
	return NULL;
}

static void timed_out(struct result *r, const struct check *c, int started,
		      double budget_ms)
{
	result_start(r, c);
	/* the deadline counts from the program's start: loading a large spec
	 * may use it all before the runner gets a turn */
	if (budget_ms < 0)
		budget_ms = 0;
	r->duration_ms = started ? budget_ms : 0;
	if (started)
		result_set(r, STATUS_ERROR, "timed out: still running at the deadline");
	else
		result_set(r, STATUS_ERROR, "not run: the deadline passed before it "
			   "could start");
	r->reason = started ? REASON_TIMEOUT : REASON_NOT_RUN;
	result_hint(r, "raise the deadline with --timeout=MS");
}

size_t runner_run(const struct spec *spec, const struct plan *plan,
		double deadline_ms, unsigned threads, struct result *results)
{
	struct pool *p;
	struct worker *workers;
	pthread_condattr_t ca;
	struct timespec ts;
	double start = clock_ms();
	size_t i, nworkers;

	size_t abandoned = 0;

	if (!plan->n)
		return 0;
	if (!threads)
		threads = RUNNER_MAX_THREADS;
	nworkers = plan->n < threads ? plan->n : threads;

	p = xcalloc(1, sizeof(*p));
	pthread_mutex_init(&p->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&p->cv, &ca);
	pthread_condattr_destroy(&ca);
	pthread_cond_init(&p->memo.ready, NULL);
	p->memo.lock = &p->lock;
	p->ctx.spec = spec;
	p->ctx.memo = &p->memo;
	p->ctx.deadline_ms = deadline_ms;
	p->njobs = plan->n;
	p->jobs = xcalloc(plan->n, sizeof(*p->jobs));
	for (i = 0; i < plan->n; i++)
		p->jobs[i].check = &plan->checks[i];
	p->refs = 1;

	workers = p->workers = xcalloc(nworkers, sizeof(*workers));
	for (i = 0; i < nworkers; i++) {
		workers[i].pool = p;
		p->refs++;
		if (pthread_create(&workers[i].thread, NULL, worker_main, &workers[i])) {
			p->refs--;
			workers[i].exited = -1;	/* never started */
		}
	}

	ts.tv_sec = (time_t)(deadline_ms / 1000);
	ts.tv_nsec = (long)((deadline_ms - (double)ts.tv_sec * 1000) * 1e6);
	pthread_mutex_lock(&p->lock);
	while (p->ndone < p->njobs) {
		int rc = pthread_cond_timedwait(&p->cv, &p->lock, &ts);

		if (rc == ETIMEDOUT)
			break;
	}
	p->stop = 1;
	for (i = 0; i < p->njobs; i++) {
		struct job *job = &p->jobs[i];

		if (job->state == JOB_DONE) {
			results[i] = job->res;
			continue;
		}
		timed_out(&results[i], job->check, job->state == JOB_RUNNING,
			  deadline_ms - start);
		job->state = JOB_ABANDONED;
		abandoned++;
	}
	/* a check that overran may have a child blocked in spawn_run: kill
	 * every group now, so nothing outlives the deadline or this call */
	if (abandoned)
		spawn_kill_all();
	/* With every job finished or abandoned no worker takes new work:
	 * join the idle ones, leave the stuck ones to finish on their own. */
	for (i = 0; i < nworkers; i++) {
		if (workers[i].exited < 0)
			continue;
		if (workers[i].exited || p->ndone == p->njobs) {
			pthread_mutex_unlock(&p->lock);
			pthread_join(workers[i].thread, NULL);
			pthread_mutex_lock(&p->lock);
		} else {
			pthread_detach(workers[i].thread);
		}
	}
	pthread_mutex_unlock(&p->lock);
	pool_unref(p);
	return abandoned;
}
