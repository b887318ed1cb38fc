/* ytree.h - a YAML document as a small tree whose every node knows its
 * line and column, built with libyaml's event parser.
 *
 * Aliases are expanded by copying, under a budget on the total number of
 * nodes and on the bytes of scalar text, so a "billion laughs" file (or
 * one large anchored scalar aliased many times) fails with an error
 * instead of exhausting memory.  Anchors are found through a hash index,
 * so many aliases cost no more than many nodes.  Only the first document
 * of a stream is read.
 */
#ifndef EP_YTREE_H
#define EP_YTREE_H

#include <stddef.h>

#include "parse_error.h"

enum ynode_kind { YNODE_SCALAR, YNODE_SEQ, YNODE_MAP };

struct ynode {
	enum ynode_kind kind;
	unsigned line, col;	/* 1-based position of the node's first character */
	int plain;		/* scalar written without quotes (3000, not "3000") */
	char *tag;		/* an explicit local tag ("!reset", "!override"), or
				 * NULL: compose's override files use them */
	char *text;		/* scalar text, NUL-terminated (SCALAR only) */
	size_t len;
	/* SEQ: items[0..n); MAP: items[2i] is a key, items[2i+1] its value */
	struct ynode **items;
	size_t n;
};

#define YTREE_MAX_NODES 100000
#define YTREE_MAX_TEXT (8 * 1024 * 1024)	/* bytes of scalar text, copies included */

/* Parse buf into *root (caller frees with ynode_free).  An empty document
 * gives *root == NULL and returns 0.  Returns -1 and fills err otherwise. */
int ytree_parse(const char *buf, size_t len, size_t max_nodes,
		struct ynode **root, struct parse_error *err);
/* Every document of a stream (compose-go reads each document of a compose
 * file as one more file over the ones before): *docs[0..*ndocs), each
 * freed with ynode_free and the array with free; none for an empty
 * stream.  max_nodes counts all of them.  0, or -1 with err filled. */
int ytree_parse_docs(const char *buf, size_t len, size_t max_nodes,
		     struct ynode ***docs, size_t *ndocs, struct parse_error *err);
void ynode_free(struct ynode *n);

/* What a parse cost, for tests that hold it linear: anchors defined,
 * aliases resolved, and the hash slots looked at for both. */
struct ytree_stats {
	size_t anchors, aliases, anchor_probes;
};
/* ytree_parse, also filling *stats (may be NULL). */
int ytree_parse_stats(const char *buf, size_t len, size_t max_nodes,
		      struct ynode **root, struct parse_error *err,
		      struct ytree_stats *stats);

/* The value for key in a MAP node, or NULL (also when map is not a MAP).
 * When a key appears twice, the first wins (loaders that care about
 * duplicates check the keys they know). */
const struct ynode *ynode_get(const struct ynode *map, const char *key);
/* 1 when n is NULL or a plain scalar that YAML's core schema reads as
 * null: "", ~, null, Null, NULL ("key:" with nothing after it). */
int ynode_is_null(const struct ynode *n);
/* Number of pairs in a MAP (items / 2), of items in a SEQ, else 0. */
size_t ynode_count(const struct ynode *n);
const char *ynode_kind_name(enum ynode_kind k);

#endif
