/* runner.h - run planned checks on a small thread pool under one deadline.
 *
 * Results come back in plan order whatever order the threads finish in.
 * A check still running at the deadline is reported by what it published
 * (run_publish), else as an error ("timed out"); its thread is abandoned
 * (its late result is discarded).  runner_run returns at the deadline
 * whatever a check does.  It kills no process: what a check started is
 * the caller's to end (main calls spawn_kill_all).  Without any worker
 * thread the checks run one by one on the calling thread, each result
 * noting why.
 */
#ifndef EP_RUNNER_H
#define EP_RUNNER_H

#include "probe.h"
#include "result.h"

/* Run every check of plan; results is an array of plan->n entries that
 * the caller releases with result_release.  threads: 0 for the default.
 * Returns how many checks were abandoned at the deadline: while that is
 * not 0, a worker may still be reading spec, so the caller must not free
 * it (it exits instead). */
size_t runner_run(const struct spec *spec, const struct plan *plan,
		double deadline_ms, unsigned threads, struct result *results);

/* The same for the n checks of plan that which lists (indexes into
 * plan->checks), as --wait runs again the checks that waiting can change:
 * results[i] is check which[i]'s.  Each call has a memo of its own
 * (run_once), so that it looks at the machine afresh. */
size_t runner_run_some(const struct spec *spec, const struct plan *plan,
		       const size_t *which, size_t n, double deadline_ms,
		       unsigned threads, struct result *results);

/* Wait, without a bound, until the worker threads of every run have
 * ended, abandoned ones included: then spec and plan may be freed.  For a
 * caller that outlives its runs (tests); main exits instead. */
void runner_drain(void);

#endif
