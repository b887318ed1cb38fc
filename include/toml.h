/* toml.h - a TOML 1.0 document as a tree, parsed from a buffer.
 *
 * Pure: toml_parse takes bytes and a length and returns a tree or an
 * error with line:column; it makes no system call, so a fuzzer and the
 * conformance runner (tests/unit/test_toml.c, every TOML 1.0 case of
 * toml-lang/toml-test) call it as the loaders do.  Used for
 * pyproject.toml, uv.lock and poetry.lock.
 *
 * Hostile input is bounded: nesting (arrays, inline tables, and the
 * parts of one key) is capped by limits.max_depth and the number of
 * values by limits.max_values, so a short file cannot make a deep
 * recursion or a huge tree; the caller caps the input size.  Lookups in a
 * table are O(1) on average (a hash index once a table grows), so a table
 * of 100,000 keys parses in linear time.
 *
 * The whole tree (values, keys, strings, arrays) lives in a few large
 * blocks that the root owns: one toml_free of the root releases it at
 * once, and a value inside the tree is never freed on its own.
 */
#ifndef EP_TOML_H
#define EP_TOML_H

#include <stddef.h>

#include "parse_error.h"

enum toml_type {
	TOML_TABLE,
	TOML_ARRAY,
	TOML_STRING,
	TOML_INTEGER,
	TOML_FLOAT,
	TOML_BOOL,
	TOML_DATETIME,		/* offset date-time, text as RFC 3339 */
	TOML_DATETIME_LOCAL,	/* local date-time */
	TOML_DATE_LOCAL,
	TOML_TIME_LOCAL,
};

struct toml_value;
struct toml_arena;
struct strmap;

/* One key of a table; key may hold NUL bytes ("\u0000" is a valid key). */
struct toml_kv {
	char *key;
	size_t klen;
	unsigned line, col;	/* where the key (its first part) was written */
	struct toml_value *val;
};

struct toml_value {
	enum toml_type type;
	unsigned line, col;	/* 1-based; col in bytes */
	unsigned flags;		/* the parser's own (defined, frozen, ...) */
	/* STRING: the decoded text (NUL-terminated; len excludes it, and the
	 * text may itself hold NUL bytes); the date and time types: the text
	 * with 'T' and 'Z' as separators */
	char *str;
	size_t len;
	long long i;		/* INTEGER */
	double f;		/* FLOAT */
	int b;			/* BOOL */
	/* ARRAY: items[0..n); TABLE: kv[0..n) in the order written */
	struct toml_value **items;
	struct toml_kv *kv;
	size_t n, cap;
	struct strmap *index;	/* TABLE: key -> kv index, once n > 8 */
	struct toml_arena *arena;	/* the root's: the tree's memory; else NULL */
};

struct toml_limits {
	unsigned max_depth;	/* nested arrays and inline tables with the
				 * parts of the keys inside them, and the
				 * parts of one dotted key or header: a tree
				 * is at most 4 * max_depth + 1 deep */
	size_t max_values;	/* every value, table and array */
};

/* 128 levels and 4 million values: far above any real pyproject or
 * lockfile, far below what would hurt. */
extern const struct toml_limits toml_default_limits;

/* Parse buf[0..len) (UTF-8, as TOML requires) into *root, a TABLE that
 * the caller frees with toml_free; the tree copies what it keeps of buf.
 * Returns 0, or -1 with err filled and *root NULL.  lim NULL:
 * toml_default_limits. */
int toml_parse(const char *buf, size_t len, const struct toml_limits *lim,
	       struct toml_value **root, struct parse_error *err);
/* Free a tree toml_parse returned, all of it (NULL: nothing).  Any other
 * value is part of its root's tree: nothing happens. */
void toml_free(struct toml_value *root);

/* The value of key in table t (NULL when t is not a table or has none). */
const struct toml_value *toml_get(const struct toml_value *t, const char *key);
/* The text of a STRING value, or NULL for any other value (and NULL). */
const char *toml_str(const struct toml_value *v);
/* "string", "integer", ... as toml-test names them. */
const char *toml_type_name(enum toml_type t);

#endif
