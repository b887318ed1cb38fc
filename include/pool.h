/* pool.h - the one place threads are started (besides the signal
 * watcher, src/cli/signals.c).
 *
 * Two shapes, for the three users:
 *
 *   pool_run     a team over items: fn(arg, worker, item) for every item,
 *                on at most nthreads threads, the calling thread one of
 *                them, joined before it returns (the ports scan's phases,
 *                the deps probe's many small reads).
 *   pool_start   one thread beside the caller, pool_join'ed when its work
 *                is wanted, or pool_detach'ed when the caller will not
 *                wait for it (the runner's workers, a check stuck past
 *                the deadline; the deps probe's lockfile parse).
 *
 * A thread the system will not give (RLIMIT_NPROC, a cgroup's pids.max)
 * is never an error of its own: pool_run does the work with fewer
 * threads, the caller's alone at worst; pool_start returns the errno
 * value, and the caller does the work itself (or, as the runner does,
 * says why it could not).
 *
 * Every thread starts with every signal blocked, so that a signal for the
 * process is never delivered to a worker: the main thread or the signal
 * watcher takes it.
 *
 * The pool owns no memory past a call: what fn reads and writes is the
 * caller's, and so is the rule for sharing it.
 */
#ifndef EP_POOL_H
#define EP_POOL_H

#include <pthread.h>
#include <stddef.h>

/* More threads than this are not started by one pool_run. */
#define POOL_MAX_THREADS 16

/* Call fn(arg, worker, i) once for every i in 0 .. nitems-1, on up to
 * nthreads threads (0 counts as 1): the calling thread is worker 0, the
 * others 1 .. (how many started - 1).  Items are claimed in order, chunk
 * at a time (0 counts as 1), so the items claimed are always a prefix of
 * 0 .. nitems-1 and each claimed item is run; no thread is started for
 * want of a chunk.  fn returning non-zero ends the claims: the chunks
 * claimed already still run to their end, no later item is started.
 * Returns how many threads ran, the caller's included (at least 1). */
unsigned pool_run(unsigned nthreads, size_t nitems, size_t chunk,
		  int (*fn)(void *arg, unsigned worker, size_t item), void *arg);

/* One thread beside the caller. */
struct pool_thread {
	pthread_t id;
	int started;	/* from a pool_start that worked to pool_join/pool_detach */
};

/* Start fn(arg) on a thread of its own.  Returns 0, or an errno value
 * when no thread could be started: fn has not run then, and the caller
 * may run it itself.  t is the caller's, and must be kept until
 * pool_join or pool_detach; arg must live until fn is done with it. */
int pool_start(struct pool_thread *t, void *(*fn)(void *arg), void *arg);

/* Wait for t's fn to return.  A t that never started (or was joined or
 * detached already) returns at once, so that a caller can always join. */
void pool_join(struct pool_thread *t);

/* Leave t's thread to end on its own, not waited for: what its fn uses
 * must then outlive it (the runner's reference count).  No-op on a t that
 * never started. */
void pool_detach(struct pool_thread *t);

#endif
