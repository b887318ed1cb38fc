/* deps_yaml.h - one pass over a YAML lockfile's events, keeping only the
 * mapping keys above each scalar (deps_yaml.c): what the pnpm and yarn
 * parsers (deps_pnpm.c, deps_yarn.c) are written on.  Private to
 * src/parse.
 */
#ifndef EP_DEPS_YAML_H
#define EP_DEPS_YAML_H

#include <stddef.h>

#include "parse_error.h"

#define YW_KEYS 6		/* mapping keys kept above a scalar */
#define YW_MAX_DEPTH 1000

/* One scalar and where it sits: key[0] is its top-level key, key[1] the
 * key below that, ... (depth of them). */
struct ypath {
	unsigned depth;
	const char *key[YW_KEYS];
	const char *value;	/* the scalar (a key itself when is_key) */
	size_t vlen;
	int is_key;
	int in_seq;		/* an item of a sequence */
	unsigned line;
};

typedef int yw_fn(void *ctx, const struct ypath *p);

/* Walk every scalar of the first document (a mapping at the top): fn is
 * called for each; a negative return stops the walk (err then holds the
 * scalar's place, and fn may have set its message).  What follows the
 * first document is not read.  Returns 0, or -1 with err. */
int deps_yaml_walk(const char *buf, size_t len, yw_fn *fn, void *ctx, struct parse_error *err);

#define YW_DOCS_LINES 4

/* The documents of a YAML stream, as deps_yaml_walk_doc counts them. */
struct yw_docs {
	unsigned n;		/* documents in the stream */
	unsigned line[YW_DOCS_LINES];	/* where the first ones start (1-based) */
};

/* deps_yaml_walk over document number doc (0: the first) only; the
 * others are parsed but not walked.  docs: NULL stops after document
 * doc, as deps_yaml_walk does; else the whole stream is read (a syntax
 * error anywhere fails) and *docs counts its documents (pnpm-lock.yaml
 * of pnpm 11 and later is two: deps_pnpm.c). */
int deps_yaml_walk_doc(const char *buf, size_t len, unsigned doc, yw_fn *fn, void *ctx,
		       struct yw_docs *docs, struct parse_error *err);

/* deps_yaml_walk_doc through libyaml alone, never the fast path for the
 * lockfile writers' subset (deps_yaml.c): what fuzz_yamlfast holds the
 * fast path to. */
int deps_yaml_walk_libyaml(const char *buf, size_t len, unsigned doc, yw_fn *fn, void *ctx,
			   struct yw_docs *docs, struct parse_error *err);

#endif
