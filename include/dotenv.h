/* dotenv.h - parse .env files exactly as the npm dotenv package does.
 *
 * The reference is dotenv's default parse() of dotenv 16 to 18 (checked
 * against 18.0.10): one multi-line regular expression run over the whole
 * file.  dotenv_parse() gives the same keys and values for any UTF-8 input,
 * and also records where each key came from and what dotenv would silently
 * drop or misread.  One deliberate difference: a key named __proto__, which
 * a JavaScript object swallows, is kept as an entry and reported as an
 * issue.
 *
 * Values are secrets: nothing in this module prints, logs or copies a value
 * into a message.  Issue messages name at most the key of a parsed entry.
 */
#ifndef EP_DOTENV_H
#define EP_DOTENV_H

#include <stddef.h>

struct dotenv_entry {
	char *key;		/* [A-Za-z0-9_.-]+; in one block with every key
				 * and value of the file, owned by struct dotenv */
	char *value;		/* NUL-terminated, may hold NUL bytes.
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
	/* private: a hash table of entry index + 1 of the winning (last)
	 * assignment of each key, for dotenv_get() */
	size_t *slots;
	size_t nslots;
};

/* Parse len bytes of buf (NUL bytes included: buf need not be terminated)
 * into *out, which is overwritten.  Never fails; the caller owns *out and
 * frees it with dotenv_release().  buf may be NULL when len is 0.  Line
 * ends may be LF, CRLF or CR; line and col count CRLF and a lone CR as one
 * line break, as dotenv does. */
void dotenv_parse(const char *buf, size_t len, struct dotenv *out);

/* The entry that wins for key (the last assignment, as in dotenv), or NULL.
 * O(1) (a hash table).  The pointer is valid until dotenv_release(). */
const struct dotenv_entry *dotenv_get(const struct dotenv *d, const char *key);

/* 1 when entries[i] is overridden by a later entry with the same key. */
int dotenv_is_shadowed(const struct dotenv *d, size_t i);

/* Free everything *d owns (values are wiped first) and zero it. */
void dotenv_release(struct dotenv *d);

#endif
