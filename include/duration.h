/* duration.h - "30s", "500ms", "2m", "1m30s": the durations --wait and
 * --interval take.  Pure string parsing: no I/O, safe to fuzz.
 *
 * The syntax is that of Go's time.ParseDuration (which docker compose's
 * healthcheck intervals use), without a sign and with the units ms, s, m
 * and h only: one or more groups of a decimal number (a fraction allowed:
 * "1.5s") and a unit, with no space.  A bare number is refused: "30"
 * could mean 30 ms (as --timeout takes) or 30 seconds (as sleep(1) and
 * timeout(1) take), and a wait that is a thousand times off is worse than
 * a usage error.
 */
#ifndef EP_DURATION_H
#define EP_DURATION_H

#include <stddef.h>

enum duration_error {
	DURATION_OK,
	DURATION_SYNTAX,	/* not NUMBER UNIT [NUMBER UNIT...] */
	DURATION_NO_UNIT,	/* a number without a unit ("30") */
	DURATION_NEGATIVE,	/* a leading '-' */
	DURATION_ZERO,		/* under half a millisecond */
	DURATION_TOO_LONG,	/* over max_ms */
};

/* Parse the len bytes at s into whole milliseconds (rounded to the
 * nearest) in *ms, at most max_ms.  *ms is set only on DURATION_OK. */
enum duration_error duration_parse(const char *s, size_t len, long max_ms,
				   long *ms);

#endif
