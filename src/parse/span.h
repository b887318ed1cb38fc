/* span.h - a piece of a text, and the few ways the line-oriented parsers
 * (sandbox.c, sudoers.c) cut one.  Private to src/parse/. */
#ifndef EP_SPAN_H
#define EP_SPAN_H

#include <stddef.h>

struct span {
	const char *p;
	size_t n;
};

/* The next line of buf[0..len) from *pos (without its '\n'): 1, or 0 at
 * the end. */
int span_next_line(const char *buf, size_t len, size_t *pos, struct span *line);
/* Space, tab, CR, VT or FF. */
int span_blank(char c);
/* Split a line into at most max whitespace-separated words; returns how
 * many (words past max are not counted). */
size_t span_words(struct span line, struct span *w, size_t max);
/* 1 when s is word exactly. */
int span_is(struct span s, const char *word);
/* A whole span of digits in base (10 or 16), at most max_digits of them:
 * 0, or -1. */
int span_number(struct span s, int base, size_t max_digits,
		unsigned long long *out);

#endif
