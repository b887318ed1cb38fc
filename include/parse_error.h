/* parse_error.h - the one error value of the parsers (src/parse/).
 *
 * A parser that fails returns -1 (or NULL) and fills one of these: where
 * the text went wrong and what is wrong there.  The message follows
 * STYLE.md (lowercase, the subject quoted, no full stop) and names no
 * file: the caller knows which file it gave and prefixes "file:line:col: ".
 * line and col are 1-based, col counted in bytes; 0 when the error has no
 * place in the text (the whole value is wrong, or the file is empty).
 */
#ifndef EP_PARSE_ERROR_H
#define EP_PARSE_ERROR_H

struct parse_error {
	unsigned line, col;
	char msg[256];
};

/* Fill e (when e is not NULL): the place and the message, cut to fit. */
void parse_error_set(struct parse_error *e, unsigned line, unsigned col,
		     const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Set e's message (line and col untouched): for parsers that learn the
 * place after the message, and for text already formatted elsewhere. */
void parse_error_msg(struct parse_error *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
