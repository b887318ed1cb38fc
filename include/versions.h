/* versions.h - package.json "packageManager", and the small pieces that the
 * version-file parsers (nvmrc.h, pep440.h, toolversions.h, gomod.h) share.
 *
 * Every parser here takes a buffer and a length, never prints, never exits,
 * and reports an error as a value: a struct parse_error (parse_error.h), a
 * message (lowercase, the subject quoted, no file name: the caller prefixes
 * "file:line:col: ") plus the line and column it is about.  pkgmanager_parse
 * judges one value, not a text, and says only what is wrong (err, errlen).  Quoted repository text in a message is already made
 * printable (see versions_quote), and cut short when long.
 */
#ifndef EP_VERSIONS_H
#define EP_VERSIONS_H

#include <stddef.h>

#include "parse_error.h"

/* package.json "packageManager", as corepack reads it: "pnpm@9.1.0",
 * "yarn@4.1.1+sha512.abc...".  All three strings belong to the struct. */
struct pkgmanager {
	char *name;		/* "pnpm" */
	char *version;		/* "9.1.0": exact semver, without the "+..." */
	char *hash;		/* "sha512.abc...", or NULL when not given */
};

/* Parse value[0..len) into *out.  Returns 0, or -1 with a message in err
 * (and *out left empty) when the value is not "name@X.Y.Z[-pre][+hash]". */
int pkgmanager_parse(const char *value, size_t len, struct pkgmanager *out,
		     char *err, size_t errlen);
void pkgmanager_release(struct pkgmanager *pm);

/* ---- shared by the version-file parsers ---- */

/* snprintf into err (when err is not NULL and errlen > 0): for the
 * checks of one value that report a message without a place. */
void versions_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Refuse buf unless it is text (no NUL byte, valid UTF-8): returns 0, or -1
 * with e filled (e may be NULL). */
int versions_text(const char *buf, size_t len, struct parse_error *e);

/* A printable copy of s[0..len) for an error message, in dst (size n):
 * bytes outside printable ASCII become '?', and text cut short ends in
 * "..." (when n leaves room for it).  Returns dst. */
const char *versions_quote(char *dst, size_t n, const char *s, size_t len);
#define VERSIONS_QUOTE_MAX 48

/* One physical line of a buffer: s[0..len) without its '\n'. */
struct versions_line {
	const char *s;
	size_t len;
	unsigned no;		/* 1-based */
};

/* Step *pos through buf[0..len) one line at a time.  Returns 1 with *out
 * filled, 0 at the end.  A last line without '\n' is still a line. */
int versions_next_line(const char *buf, size_t len, size_t *pos,
		       struct versions_line *out);

/* ASCII whitespace as shell `read` and sed's [[:space:]] see it. */
int versions_isspace(int c);

/* What separates the words of a line in .tool-versions, .python-version
 * and go.mod: space and tab, and the CR of a CRLF line. */
int versions_isblank(int c);

/* The next word of *pp[0..end): leaves *pp on its first byte and returns
 * its length, 0 at the end of the line. */
size_t versions_next_word(const char **pp, const char *end);

/* 1 when s[0..len) starts with prefix. */
int versions_starts(const char *s, size_t len, const char *prefix);

/* Trim leading and trailing whitespace of *s / *len in place. */
void versions_trim(const char **s, size_t *len);

/* Compare two strings of decimal digits by value (leading zeros ignored,
 * no overflow whatever their length): <0, 0, >0. */
int versions_numcmp(const char *a, size_t alen, const char *b, size_t blen);

/* 1 when s is 1 to 39 of the characters a version or a tool name may
 * hold ([A-Za-z0-9.+_-]): safe to name in a hint or a command's argv. */
int versions_token_safe(const char *s);

#endif
