/* runner.c - checks on worker threads under one deadline.
 *
 * The threads are pool.h's (pool_start), but the deadline is the
 * runner's: the calling thread takes no job, it waits for the jobs or the
 * deadline, whichever comes first, and then joins the idle workers and
 * detaches (pool_detach) those still stuck in a check.  Each job owns a private result while it runs; the worker hands it over
 * under the lock when it finishes.  A check that may block publishes, also
 * under the lock, what it would report if cut off (run_publish).  At the
 * deadline the main thread marks every unfinished job abandoned and
 * reports it by what it published, or as timed out: a worker that finishes
 * later frees its own result instead of touching the caller's array.  The
 * run (struct run: the jobs, the memo, the workers) is reference-counted
 * so that an abandoned worker can still use it after runner_run has
 * returned.
 *
 * The runner starts no process and kills none: children belong to the
 * probe that starts them (spawn_run kills at its own deadline) and, past
 * the run's deadline, to main (spawn_kill_all).
 *
 * When not one worker thread can be started (RLIMIT_NPROC, a cgroup's
 * pids.max), the checks run one after another on the calling thread,
 * under the same deadline: a check whose turn comes after it is not run,
 * and every result says why.
 */
#include "runner.h"
#include "pool.h"
#include "util.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum job_state { JOB_WAITING, JOB_RUNNING, JOB_DONE, JOB_ABANDONED };

struct run_job {
	const struct check *check;
	enum job_state state;
	double started_ms;	/* when it went RUNNING */
	struct result res;	/* valid when DONE */
	struct result partial;	/* RUNNING: what run_publish last gave */
	int has_partial;
	struct run_ctx ctx;	/* this check's */
	struct run *run;
};

struct memo_entry {
	char *key;
	void *value;
	void (*release)(void *);
	int ready;
};

/* Lives in the run, so it is freed with it, after the last worker. */
struct run_memo {
	pthread_mutex_t *lock;	/* the run's */
	pthread_cond_t ready;	/* broadcast when a value is ready */
	struct memo_entry *v;
	size_t n, cap;
};

struct run {
	pthread_mutex_t lock;
	pthread_cond_t cv;	/* signalled when a job is done */
	struct run_job *jobs;
	size_t njobs, next, ndone;
	int stop;
	unsigned refs;		/* the caller plus every live worker */
	struct run_memo memo;
	struct worker *workers;	/* freed with the run: a detached worker uses its own */
};

struct worker {
	struct pool_thread thread;
	struct run *run;
	int exited;		/* under run->lock */
};

#define RUNNER_MAX_THREADS 8

/* Workers of every run not yet ended, for runner_drain. */
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t live_cv = PTHREAD_COND_INITIALIZER;
static unsigned live_workers;

static void live_workers_add(int n)
{
	pthread_mutex_lock(&live_lock);
	live_workers += (unsigned)n;
	if (!live_workers)
		pthread_cond_broadcast(&live_cv);
	pthread_mutex_unlock(&live_lock);
}

void runner_drain(void)
{
	pthread_mutex_lock(&live_lock);
	while (live_workers)
		pthread_cond_wait(&live_cv, &live_lock);
	pthread_mutex_unlock(&live_lock);
}

static void run_unref(struct run *p)
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
	for (left = 0; left < p->njobs; left++)
		if (p->jobs[left].has_partial)
			result_release(&p->jobs[left].partial);
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
	r->attempts = 1;	/* this run's; --wait adds the earlier ones */
}

void run_publish(const struct run_ctx *ctx, const struct result *r)
{
	struct run_job *job = ctx->job;
	struct result copy, old;
	int had, stored;

	if (!job)
		return;
	result_copy(&copy, r);
	/* decided under the lock: the runner may take the partial (and
	 * clear has_partial) the moment it is released */
	pthread_mutex_lock(&job->run->lock);
	old = job->partial;
	had = job->has_partial;
	stored = job->state == JOB_RUNNING;
	job->has_partial = stored;
	if (stored)
		job->partial = copy;
	pthread_mutex_unlock(&job->run->lock);
	if (had)
		result_release(&old);
	if (!stored)
		result_release(&copy);
}

static void run_one(struct run *p, struct run_job *job)
{
	struct result r;
	double t0 = clock_ms();

	result_start(&r, job->check);
	job->check->probe->run(&job->ctx, job->check, &r);
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

/* The next job to run, marked RUNNING, or NULL.  Under p->lock. */
static struct run_job *job_take(struct run *p)
{
	struct run_job *job;

	if (p->stop || p->next >= p->njobs)
		return NULL;
	job = &p->jobs[p->next++];
	job->state = JOB_RUNNING;
	job->started_ms = clock_ms();
	return job;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct run *p = w->run;

	for (;;) {
		struct run_job *job;

		pthread_mutex_lock(&p->lock);
		job = job_take(p);
		if (!job)
			w->exited = 1;
		pthread_mutex_unlock(&p->lock);
		if (!job)
			break;
		run_one(p, job);
	}
	run_unref(p);
	live_workers_add(-1);
	return NULL;
}

static void timed_out(struct result *r, const struct check *c, int started,
		      double ran_ms)
{
	result_start(r, c);
	r->duration_ms = started ? ran_ms : 0;
	if (started)
		result_set(r, STATUS_ERROR, "timed out: still running at the deadline");
	else
		result_set(r, STATUS_ERROR, "not run: the deadline passed before it "
			   "could start");
	r->reason = started ? REASON_TIMEOUT : REASON_NOT_RUN;
	result_hint(r, "raise the deadline with --timeout=MS");
}

/* The result of a job the deadline cut off, under p->lock: what it
 * published, else the runner's own words. */
static void cut_off(struct result *r, struct run_job *job, double deadline_ms)
{
	double ran = deadline_ms - job->started_ms;

	if (ran < 0)
		ran = 0;
	if (job->state != JOB_RUNNING || !job->has_partial) {
		timed_out(r, job->check, job->state == JOB_RUNNING, ran);
		return;
	}
	*r = job->partial;
	job->has_partial = 0;
	r->duration_ms = ran;
	if (!r->message)
		result_set(r, STATUS_ERROR, "timed out: still running at the "
			   "deadline");
	/* a pass published (a port known to listen, its holder not yet
	 * named) stays a pass: the deadline cost it only detail */
	if (r->status == STATUS_PASS || r->status == STATUS_SKIP)
		return;
	if (r->reason == REASON_NONE)
		r->reason = REASON_TIMEOUT;
	if (!r->hint)
		result_hint(r, "raise the deadline with --timeout=MS");
}

/* No worker thread: every job on this thread, in plan order, while the
 * deadline allows; err is why no thread started. */
static void run_inline(struct run *p, double deadline_ms, int err,
		       struct result *results)
{
	size_t i;

	for (i = 0; i < p->njobs; i++) {
		struct run_job *job = &p->jobs[i];

		if (clock_ms() < deadline_ms) {
			pthread_mutex_lock(&p->lock);
			job_take(p);
			pthread_mutex_unlock(&p->lock);
			run_one(p, job);
			results[i] = job->res;
			if (job->has_partial)
				result_release(&job->partial);
			job->has_partial = 0;
		} else {
			timed_out(&results[i], job->check, 0, 0);
			result_hint(&results[i], "no worker thread could be started "
				    "(%s), so the checks ran one at a time and this "
				    "one never got its turn: raise the limit on "
				    "processes (ulimit -u, the cgroup's pids.max) or "
				    "the deadline (--timeout=MS)", strerror(err));
		}
		result_note(&results[i], "run on the main thread: no worker thread "
			    "could be started (%s)", strerror(err));
	}
}

/* A run of the n checks of plan that which lists (NULL: all of them,
 * n being plan->n), in that order. */
static struct run *run_new(const struct spec *spec, const struct plan *plan,
			     const size_t *which, size_t n, double deadline_ms)
{
	struct run *p = xcalloc(1, sizeof(*p));
	pthread_condattr_t ca;
	size_t i;

	pthread_mutex_init(&p->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&p->cv, &ca);
	pthread_condattr_destroy(&ca);
	pthread_cond_init(&p->memo.ready, NULL);
	p->memo.lock = &p->lock;
	p->njobs = n;
	p->jobs = xcalloc(n, sizeof(*p->jobs));
	for (i = 0; i < n; i++) {
		struct run_job *job = &p->jobs[i];

		job->check = &plan->checks[which ? which[i] : i];
		job->run = p;
		/* a workspace's check reads its own model; the memo is
		 * the run's */
		job->ctx.spec = job->check->spec ? job->check->spec : spec;
		job->ctx.memo = &p->memo;
		job->ctx.deadline_ms = deadline_ms;
		job->ctx.check = job->check;
		job->ctx.job = job;
	}
	p->refs = 1;
	return p;
}

/* Start up to n workers; how many started, and the first error in *err. */
static size_t workers_start(struct run *p, size_t n, int *err)
{
	size_t i, started = 0;

	*err = 0;
	p->workers = xcalloc(n, sizeof(*p->workers));
	for (i = 0; i < n; i++) {
		struct worker *w = &p->workers[i];
		int rc;

		w->run = p;
		pthread_mutex_lock(&p->lock);
		p->refs++;
		pthread_mutex_unlock(&p->lock);
		live_workers_add(1);
		rc = pool_start(&w->thread, worker_main, w);
		if (rc) {
			live_workers_add(-1);
			pthread_mutex_lock(&p->lock);
			p->refs--;
			pthread_mutex_unlock(&p->lock);
			w->exited = -1;	/* never started */
			if (!*err)
				*err = rc;
			continue;
		}
		started++;
	}
	return started;
}

/* Wait for every job or the deadline, then fill results: what is done,
 * and for the rest what the deadline cut off.  Returns how many were
 * abandoned.  Takes and leaves p->lock held. */
static size_t run_collect(struct run *p, double deadline_ms,
			   struct result *results)
{
	struct timespec ts;
	size_t i, abandoned = 0;

	ts.tv_sec = (time_t)(deadline_ms / 1000);
	ts.tv_nsec = (long)((deadline_ms - (double)ts.tv_sec * 1000) * 1e6);
	pthread_mutex_lock(&p->lock);
	while (p->ndone < p->njobs) {
		if (pthread_cond_timedwait(&p->cv, &p->lock, &ts) == ETIMEDOUT)
			break;
	}
	p->stop = 1;
	for (i = 0; i < p->njobs; i++) {
		struct run_job *job = &p->jobs[i];

		if (job->state == JOB_DONE) {
			results[i] = job->res;
			continue;
		}
		cut_off(&results[i], job, deadline_ms);
		job->state = JOB_ABANDONED;
		abandoned++;
	}
	return abandoned;
}

size_t runner_run(const struct spec *spec, const struct plan *plan,
		double deadline_ms, unsigned threads, struct result *results)
{
	return runner_run_some(spec, plan, NULL, plan->n, deadline_ms, threads,
			       results);
}

size_t runner_run_some(const struct spec *spec, const struct plan *plan,
		       const size_t *which, size_t n, double deadline_ms,
		       unsigned threads, struct result *results)
{
	struct run *p;
	size_t i, nworkers, abandoned;
	int err;

	if (!n)
		return 0;
	if (!threads)
		threads = RUNNER_MAX_THREADS;
	nworkers = n < threads ? n : threads;
	p = run_new(spec, plan, which, n, deadline_ms);
	if (!workers_start(p, nworkers, &err)) {
		run_inline(p, deadline_ms, err, results);
		run_unref(p);
		return 0;
	}
	abandoned = run_collect(p, deadline_ms, results);
	/* With every job finished or abandoned no worker takes new work:
	 * join the idle ones, leave the stuck ones to finish on their own. */
	for (i = 0; i < nworkers; i++) {
		struct worker *w = &p->workers[i];

		if (w->exited < 0)
			continue;
		if (w->exited || p->ndone == p->njobs) {
			pthread_mutex_unlock(&p->lock);
			pool_join(&w->thread);
			pthread_mutex_lock(&p->lock);
		} else {
			pool_detach(&w->thread);
		}
	}
	pthread_mutex_unlock(&p->lock);
	run_unref(p);
	return abandoned;
}
