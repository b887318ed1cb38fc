/* dotenv.h - parse .env files exactly as the npm dotenv package does.
 *
 * The reference is dotenv's default parse() (18.x, unchanged in substance
 * since 15.0): one multi-line regular expression applied over the whole
 * file.  dotenv_parse() reproduces its results byte for byte for UTF-8
 * input, and also records where each key came from and which lines dotenv
 * would silently drop or misread.
 *
 * Values are secrets: nothing in this module prints, logs or copies a value
 * into a message.  Issue messages name at most the key of a parsed entry.
 */
#ifndef EP_DOTENV_H
#define EP_DOTENV_H

#include <stddef.h>

struct dotenv_entry {
	char *key;		/* owned; [A-Za-z0-9_.-]+ */
	char *value;		/* owned, NUL-terminated, may hold NUL bytes.
				 * SECRET: never put it in a message */
	size_t value_len;
	unsigned line, col;	/* 1-based position of the key; col in bytes */
};

/* Something dotenv would silently ignore or read differently from what the
 * file seems to say: a line that is not KEY=VALUE, an unterminated quote,
 * a value taken from a later line, a key JavaScript drops. */
struct dotenv_issue {
	unsigned line, col;	/* 1-based; col in bytes */
	char *message;		/* owned; lowercase, no value text */
};

struct dotenv {
	struct dotenv_entry *entries;	/* every assignment in file order,
					 * duplicates included */
	size_t n;
	struct dotenv_issue *issues;	/* in file order */
	size_t nissues;
	/* private: indexes into entries of the winning (last) assignment of
	 * each key, sorted by key, for dotenv_get() */
	size_t *by_key;
	size_t nkeys;
};

/* Parse len bytes of buf (NUL bytes included: buf need not be terminated)
 * into *out, which is overwritten.  Never fails; the caller owns *out and
 * frees it with dotenv_release().  buf may be NULL when len is 0.  Line
 * ends may be LF, CRLF or CR; line and col count CRLF and a lone CR as one
 * line break, as dotenv does. */
void dotenv_parse(const char *buf, size_t len, struct dotenv *out);

/* The entry that wins for key (the last assignment, as in dotenv), or NULL.
 * O(log n).  The pointer is valid until dotenv_release(). */
const struct dotenv_entry *dotenv_get(const struct dotenv *d, const char *key);

/* 1 when entries[i] is overridden by a later entry with the same key. */
int dotenv_is_shadowed(const struct dotenv *d, size_t i);

/* Free everything *d owns (values are wiped first) and zero it. */
void dotenv_release(struct dotenv *d);

#endif
