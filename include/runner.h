/* runner.h - run planned checks on a small thread pool under one deadline.
 *
 * Results come back in plan order whatever order the threads finish in.
 * A check still running at the deadline is reported as an error ("timed
 * out"); its thread is abandoned (its late result is discarded) and every
 * child process still alive is killed before runner_run returns.
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

#endif
