/* parse_error.c - the one error value of the parsers: parse_error.h. */
#include <stdarg.h>
#include <stdio.h>

#include "parse_error.h"

static void vset(struct parse_error *e, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
static void vset(struct parse_error *e, const char *fmt, va_list ap)
{
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
}

void parse_error_set(struct parse_error *e, unsigned line, unsigned col,
		     const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return;
	e->line = line;
	e->col = col;
	va_start(ap, fmt);
	vset(e, fmt, ap);
	va_end(ap);
}

void parse_error_msg(struct parse_error *e, const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return;
	va_start(ap, fmt);
	vset(e, fmt, ap);
	va_end(ap);
}
