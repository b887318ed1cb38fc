/* dotenv.h - parse .env files exactly as the npm dotenv package does.
 *
 * The reference is dotenv's default parse() of dotenv 16 to 18 (checked
 * against 18.0.10): one multi-line regular expression run over the whole
 * file.  dotenv_parse() gives the same keys and values for any UTF-8 input,
 * and also records where each key came from, what dotenv would silently
 * drop or misread, and which keys may be pieces of a secret.  One
 * deliberate difference: a key named __proto__, which a JavaScript object
 * swallows, is kept as an entry and reported as an issue.
 *
 * Values are secrets: nothing in this module prints, logs or copies a value
 * into a message, and issue messages hold no key either (an issue points
 * at its entry; the caller decides whether the key may be shown).
 */
#ifndef EP_DOTENV_H
#define EP_DOTENV_H

#include <stddef.h>

/* Where a key starts, relative to text dotenv did not read as written.
 * A key there may be a piece of a secret (the base64 tail of a private key
 * pasted without quotes, "Q2FiAjw=", parses as the key Q2FiAjw), so its
 * name must never be shown. */
enum dotenv_place {
	DOTENV_PLACE_CLEAN,	/* anywhere else */
	DOTENV_PLACE_AFTER,	/* on the line right after a line dotenv skipped,
				 * or after a value it did not read as written
				 * (a broken quote, a value from a later line) */
	DOTENV_PLACE_INSIDE,	/* inside a multi-line value written without
				 * (closed) quotes, between its -----BEGIN
				 * first line and its -----END line: a piece of
				 * that value, not a key the author meant */
};

struct dotenv_entry {
	char *key;		/* [A-Za-z0-9_.-]+; in one block with every key
				 * and value of the file, owned by struct dotenv */
	char *value;		/* NUL-terminated, may hold NUL bytes.
				 * SECRET: never put it in a message */
	size_t value_len;
	unsigned line, col;	/* 1-based position of the key; col in bytes */
	enum dotenv_place place;
	char quote;		/* the quote (' " `) around the value as
				 * written, stripped; 0: none */
};

/* What an issue is about. */
enum dotenv_issue_kind {
	DOTENV_SKIPPED,		/* dotenv skips the line: nothing of it reaches
				 * the program (a line that is not KEY=VALUE) */
	DOTENV_MISREAD,		/* dotenv reads an entry here, but not as the
				 * file seems to mean it: it keeps the quotes of
				 * an unterminated quote or of text after the
				 * closing quote, takes the value from a later
				 * line, keeps one line of a multi-line value
				 * written without quotes, or (a JavaScript
				 * quirk) drops the key __proto__ */
};

/* Something dotenv would silently ignore or read differently from what the
 * file seems to say. */
struct dotenv_issue {
	enum dotenv_issue_kind kind;
	unsigned line, col;	/* 1-based; col in bytes */
	size_t entry;		/* DOTENV_MISREAD: the index in entries of the
				 * key concerned; DOTENV_SKIPPED: SIZE_MAX */
	char *message;		/* owned; lowercase, holds neither value nor
				 * key text (name the key from entry) */
};

/* A comment line written like an assignment ("# SENTRY_DSN=..."): a key
 * the file mentions but dotenv does not read.  Only the name is kept. */
struct dotenv_mention {
	char *key;		/* owned */
	unsigned line;
};

struct dotenv {
	struct dotenv_entry *entries;	/* every assignment in file order,
					 * duplicates included */
	size_t n;
	struct dotenv_issue *issues;	/* in file order */
	size_t nissues;
	struct dotenv_mention *commented;	/* in file order */
	size_t ncommented;
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

/* Make *d (overwritten) of n entries another reader found (compose's
 * .env reader, composeenv.h): their keys and values are copied; no issue,
 * no comment.  Freed with dotenv_release(). */
void dotenv_from_entries(struct dotenv *d, const struct dotenv_entry *v, size_t n);

/* The entry that wins for key (the last assignment, as in dotenv), or NULL.
 * O(1) (a hash table).  The pointer is valid until dotenv_release(). */
const struct dotenv_entry *dotenv_get(const struct dotenv *d, const char *key);

/* 1 when entries[i] is overridden by a later entry with the same key. */
int dotenv_is_shadowed(const struct dotenv *d, size_t i);

/* 1 when the key of e must not be shown by name: it starts where a piece
 * of a secret could (e->place), or looks like data rather than a variable
 * name (over 64 bytes, or over 24 without an underscore: a line of a
 * pasted private key).  Show it as "(a N-character name on line L)". */
int dotenv_key_hidden(const struct dotenv_entry *e);

/* 1 when a comment line of d assigns key ("# KEY=..."). */
int dotenv_mentions(const struct dotenv *d, const char *key);

/* Free everything *d owns (values are wiped first) and zero it. */
void dotenv_release(struct dotenv *d);

#endif
