/* parse/duration.c - see duration.h.
 *
 * Go's rule (time.ParseDuration, src/time/format.go): a sequence of
 * decimal numbers, each with an optional fraction and a unit suffix; the
 * number may be "1", "1.5", ".5" or "1." but not "." alone.  Units here:
 * ms, s, m, h (Go's ns, us and µs are below what a wait can use).
 */
#include "duration.h"

#include <string.h>

/* Longer than any wait we accept: past it, the sum stops growing, so that
 * no input can overflow. */
#define DURATION_CEILING_MS 1e12

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The unit at s (n bytes left): its length in *len and its size in ms,
 * or 0 when there is none. */
static double unit_ms(const char *s, size_t n, size_t *len)
{
	static const struct { const char *name; double ms; } units[] = {
		{ "ms", 1 }, { "s", 1000 }, { "m", 60000 }, { "h", 3600000 },
	};
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t k = strlen(units[i].name);

		if (k <= n && !memcmp(s, units[i].name, k)) {
			*len = k;
			return units[i].ms;
		}
	}
	return 0;
}

/* One number at s[*i], its value in *v; 0, or -1 when there is none. */
static int number(const char *s, size_t len, size_t *i, double *v)
{
	double x = 0, scale = 1;
	size_t digits = 0;

	for (; *i < len && is_digit(s[*i]); (*i)++, digits++)
		if (x < DURATION_CEILING_MS)
			x = x * 10 + (s[*i] - '0');
	if (*i < len && s[*i] == '.') {
		for ((*i)++; *i < len && is_digit(s[*i]); (*i)++, digits++) {
			scale /= 10;
			x += (s[*i] - '0') * scale;
		}
	}
	*v = x;
	return digits ? 0 : -1;
}

enum duration_error duration_parse(const char *s, size_t len, long max_ms,
				   long *ms)
{
	double total = 0;
	size_t i = 0;

	if (len && s[0] == '-')
		return DURATION_NEGATIVE;
	if (!len)
		return DURATION_SYNTAX;
	while (i < len) {
		double v, unit;
		size_t ulen;

		if (number(s, len, &i, &v) < 0)
			return DURATION_SYNTAX;
		if (i == len)
			return DURATION_NO_UNIT;
		unit = unit_ms(s + i, len - i, &ulen);
		if (!unit)
			return DURATION_SYNTAX;
		i += ulen;
		if (total < DURATION_CEILING_MS)
			total += v * unit;
	}
	total += 0.5;		/* to the nearest millisecond */
	if (total < 1)
		return DURATION_ZERO;
	if (total >= (double)max_ms + 1)
		return DURATION_TOO_LONG;
	*ms = (long)total;
	return DURATION_OK;
}
