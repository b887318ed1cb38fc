/* span.c - lines and words of a text that need not end in a NUL, for the
 * line-oriented parsers of /proc and /etc (sandbox.c, sudoers.c): every
 * scan is bounded by the length given, never by a terminator. */
#include "span.h"

#include <string.h>

/* The next line of buf[0..len) from *pos (without its '\n'): 1, or 0 at
 * the end. */
int span_next_line(const char *buf, size_t len, size_t *pos, struct span *line)
{
	const char *nl;

	if (*pos >= len)
		return 0;
	line->p = buf + *pos;
	nl = memchr(line->p, '\n', len - *pos);
	line->n = nl ? (size_t)(nl - line->p) : len - *pos;
	*pos += line->n + 1;
	return 1;
}

int span_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Split a line into at most max whitespace-separated words; returns how
 * many (words past max are not counted). */
size_t span_words(struct span line, struct span *w, size_t max)
{
	size_t i = 0, n = 0;

	while (n < max) {
		while (i < line.n && span_blank(line.p[i]))
			i++;
		if (i >= line.n)
			break;
		w[n].p = line.p + i;
		while (i < line.n && !span_blank(line.p[i]))
			i++;
		w[n].n = (size_t)(line.p + i - w[n].p);
		n++;
	}
	return n;
}

int span_is(struct span s, const char *word)
{
	size_t n = strlen(word);

	return s.n == n && !memcmp(s.p, word, n);
}

/* A whole span of digits in base (10 or 16), at most max_digits of them:
 * 0, or -1. */
int span_number(struct span s, int base, size_t max_digits,
		       unsigned long long *out)
{
	unsigned long long v = 0;
	size_t i;

	if (!s.n || s.n > max_digits)
		return -1;
	for (i = 0; i < s.n; i++) {
		int c = (unsigned char)s.p[i], d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -1;
		v = v * (unsigned)base + (unsigned)d;
	}
	*out = v;
	return 0;
}
