/* ytree.c - see ytree.h */
#include "ytree.h"
#include "strmap.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

struct anchor {
	char *name;
	struct ynode *node;	/* borrowed: owned by the tree */
};

struct builder {
	yaml_parser_t parser;
	const char *buf;	/* the input, for reader errors' offsets */
	size_t len;
	size_t nodes, max_nodes;
	size_t bytes;		/* scalar text held, copies included */
	struct anchor *anchors;
	size_t nanchors, anchors_cap;
	struct strmap anchor_index;	/* name -> latest index in anchors */
	size_t naliases;
	struct parse_error *err;
	unsigned depth;
	unsigned end_line, end_col;	/* text_yaml_end: where marks past
					 * the end go */
};

#define YTREE_MAX_DEPTH 200

static void set_err(struct builder *b, const yaml_mark_t *m, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_err(struct builder *b, const yaml_mark_t *m, const char *fmt, ...)
{
	va_list ap;

	b->err->line = m ? (unsigned)m->line + 1 : 0;
	b->err->col = m ? (unsigned)m->column + 1 : 0;
	if (m && b->err->line > b->end_line) {
		b->err->line = b->end_line;
		b->err->col = b->end_col;
	}
	va_start(ap, fmt);
	vsnprintf(b->err->msg, sizeof(b->err->msg), fmt, ap);
	va_end(ap);
}

/* Scalar text counts too: one large anchored scalar copied by many
 * aliases must not grow past what a spec could reasonably hold. */
static int text_budget(struct builder *b, size_t len, const yaml_mark_t *m)
{
	if (len > YTREE_MAX_TEXT - b->bytes) {
		set_err(b, m, "aliases expand to more than %d MiB of text",
			YTREE_MAX_TEXT / (1024 * 1024));
		return -1;
	}
	b->bytes += len;
	return 0;
}

static struct ynode *node_new(struct builder *b, enum ynode_kind kind,
			      const yaml_mark_t *m)
{
	struct ynode *n;

	if (++b->nodes > b->max_nodes) {
		set_err(b, m, "too many nodes (more than %zu, aliases included)",
			b->max_nodes);
		return NULL;
	}
	n = xcalloc(1, sizeof(*n));
	n->kind = kind;
	n->line = (unsigned)m->line + 1;
	n->col = (unsigned)m->column + 1;
	/* a node at the end of a text without a final newline (the empty
	 * value of a last "? key") has its mark on a line after the last */
	if (n->line > b->end_line) {
		n->line = b->end_line;
		n->col = b->end_col;
	}
	return n;
}

void ynode_free(struct ynode *n)
{
	size_t i;

	if (!n)
		return;
	for (i = 0; i < n->n; i++)
		ynode_free(n->items[i]);
	free(n->items);
	free(n->text);
	free(n->tag);
	free(n);
}

/* Deep copy for alias expansion; every copied node counts in the budget. */
static struct ynode *node_copy(struct builder *b, const struct ynode *src,
			       const yaml_mark_t *m)
{
	struct ynode *n = node_new(b, src->kind, m);
	size_t i;

	if (!n)
		return NULL;
	n->line = src->line;
	n->col = src->col;
	n->plain = src->plain;
	/* a long tag aliased many times counts like scalar text */
	if ((src->text && text_budget(b, src->len, m) < 0) ||
	    (src->tag && text_budget(b, strlen(src->tag), m) < 0)) {
		ynode_free(n);
		return NULL;
	}
	n->tag = src->tag ? xstrdup(src->tag) : NULL;
	if (src->text) {
		n->text = xstrndup(src->text, src->len);
		n->len = src->len;
	}
	if (src->n) {
		/* NOLINTNEXTLINE(bugprone-sizeof-expression): an array of pointers */
		n->items = xcalloc(src->n, sizeof(*n->items));
		for (i = 0; i < src->n; i++) {
			n->items[i] = node_copy(b, src->items[i], m);
			if (!n->items[i]) {
				n->n = i;
				ynode_free(n);
				return NULL;
			}
		}
		n->n = src->n;
	}
	return n;
}

static void add_anchor(struct builder *b, const yaml_char_t *name, struct ynode *n)
{
	if (!name)
		return;
	grow(&b->anchors, sizeof(*b->anchors), &b->anchors_cap, b->nanchors + 1);
	b->anchors[b->nanchors].name = xstrdup((const char *)name);
	b->anchors[b->nanchors].node = n;
	/* a redefined anchor: the latest wins */
	strmap_put(&b->anchor_index, b->anchors[b->nanchors].name,
		   strlen(b->anchors[b->nanchors].name), b->nanchors);
	b->nanchors++;
}

/* Indexed, not scanned: 50,000 aliases of 50,000 anchors would otherwise
 * cost 2.5e9 comparisons (issue 8), which no node budget bounds. */
static struct ynode *find_anchor(struct builder *b, const char *name)
{
	size_t i = strmap_get(&b->anchor_index, name, strlen(name));

	b->naliases++;
	return i == STRMAP_NONE ? NULL : b->anchors[i].node;
}

static int next_event(struct builder *b, yaml_event_t *ev)
{
	if (yaml_parser_parse(&b->parser, ev))
		return 0;
	if (b->parser.error == YAML_READER_ERROR) {
		/* the reader reports a byte offset, not a mark */
		unsigned line, col;
		yaml_mark_t m = { 0, 0, 0 };

		text_pos(b->buf, b->len, b->parser.problem_offset, &line, &col);
		m.line = line - 1;
		m.column = col - 1;
		set_err(b, &m, "%s", b->parser.problem ? b->parser.problem :
			"unreadable YAML");
		return -1;
	}
	set_err(b, &b->parser.problem_mark, "%s%s%s",
		b->parser.problem ? b->parser.problem : "malformed YAML",
		b->parser.context ? " " : "",
		b->parser.context ? b->parser.context : "");
	return -1;
}

static struct ynode *build_node(struct builder *b, yaml_event_t *ev);

/* Keep a local tag ("!reset"); the standard "tag:yaml.org,2002:" ones
 * (!!str, ...) say nothing a loader here needs. */
static void set_tag(struct ynode *n, const yaml_char_t *tag)
{
	if (tag && tag[0] == '!')
		n->tag = xstrdup((const char *)tag);
}

/* Read children until the matching end event. */
static int build_children(struct builder *b, struct ynode *parent,
			  yaml_event_type_t end)
{
	size_t cap = 0;

	if (++b->depth > YTREE_MAX_DEPTH) {
		yaml_mark_t m = { 0, parent->line - 1, parent->col - 1 };
		set_err(b, &m, "nesting deeper than %d levels", YTREE_MAX_DEPTH);
		return -1;
	}
	for (;;) {
		yaml_event_t ev;
		struct ynode *child;

		if (next_event(b, &ev) < 0)
			return -1;
		if (ev.type == end) {
			yaml_event_delete(&ev);
			break;
		}
		child = build_node(b, &ev);
		yaml_event_delete(&ev);
		if (!child)
			return -1;
		/* NOLINTNEXTLINE(bugprone-sizeof-expression): an array of pointers */
		grow(&parent->items, sizeof(*parent->items), &cap, parent->n + 1);
		parent->items[parent->n++] = child;
	}
	b->depth--;
	return 0;
}

static struct ynode *build_node(struct builder *b, yaml_event_t *ev)
{
	struct ynode *n = NULL, *target;

	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		if (text_budget(b, ev->data.scalar.length, &ev->start_mark) < 0)
			return NULL;
		n = node_new(b, YNODE_SCALAR, &ev->start_mark);
		if (!n)
			return NULL;
		n->text = xstrndup((const char *)ev->data.scalar.value,
				   ev->data.scalar.length);
		n->len = ev->data.scalar.length;
		n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
		set_tag(n, ev->data.scalar.tag);
		add_anchor(b, ev->data.scalar.anchor, n);
		return n;
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT:
		n = node_new(b, ev->type == YAML_SEQUENCE_START_EVENT ?
				YNODE_SEQ : YNODE_MAP, &ev->start_mark);
		if (!n)
			return NULL;
		set_tag(n, ev->type == YAML_SEQUENCE_START_EVENT ?
			ev->data.sequence_start.tag : ev->data.mapping_start.tag);
		if (build_children(b, n, ev->type == YAML_SEQUENCE_START_EVENT ?
				   YAML_SEQUENCE_END_EVENT : YAML_MAPPING_END_EVENT) < 0) {
			ynode_free(n);
			return NULL;
		}
		/* anchored after completion: an alias inside its own
		 * anchor is not resolvable, which keeps recursion out */
		add_anchor(b, ev->type == YAML_SEQUENCE_START_EVENT ?
			   ev->data.sequence_start.anchor :
			   ev->data.mapping_start.anchor, n);
		return n;
	case YAML_ALIAS_EVENT:
		target = find_anchor(b, (const char *)ev->data.alias.anchor);
		if (!target) {
			set_err(b, &ev->start_mark, "unknown alias '*%s'",
				(const char *)ev->data.alias.anchor);
			return NULL;
		}
		return node_copy(b, target, &ev->start_mark);
	default:
		set_err(b, &ev->start_mark, "unexpected YAML event");
		return NULL;
	}
}

/* Every document of buf into *docs[0..*ndocs) (an empty stream: none),
 * or with many 0 at most one ("only one YAML document is allowed" at the
 * second).  Anchors live for the whole stream, as go-yaml's parser keeps
 * them across Decode calls (compose-go decodes a file document by
 * document with one decoder).  Returns 0, or -1 with err filled and no
 * document. */
static int parse_docs(const char *buf, size_t len, size_t max_nodes, int many,
		      struct ynode ***docs, size_t *ndocs, struct parse_error *err,
		      struct ytree_stats *stats)
{
	struct builder b;
	yaml_event_t ev;
	int rc = -1;
	size_t i, cap = 0;

	memset(&b, 0, sizeof(b));
	b.max_nodes = max_nodes;
	b.err = err;
	b.buf = buf;
	b.len = len;
	text_yaml_end(buf, len, &b.end_line, &b.end_col);
	*docs = NULL;
	*ndocs = 0;
	memset(err, 0, sizeof(*err));
	if (!yaml_parser_initialize(&b.parser)) {
		parse_error_msg(err, "cannot initialise the YAML parser");
		return -1;
	}
	yaml_parser_set_input_string(&b.parser, (const unsigned char *)buf, len);
	for (;;) {
		struct ynode *root;

		if (next_event(&b, &ev) < 0)
			goto fail;
		if (ev.type == YAML_STREAM_END_EVENT) {
			yaml_event_delete(&ev);
			rc = 0;
			goto out;
		}
		if (ev.type == YAML_STREAM_START_EVENT) {
			yaml_event_delete(&ev);
			continue;
		}
		if (ev.type != YAML_DOCUMENT_START_EVENT) {
			set_err(&b, &ev.start_mark, "unexpected YAML event");
			yaml_event_delete(&ev);
			goto fail;
		}
		/* a second document is an error where one is expected (a
		 * typo'd ---) */
		if (*ndocs && !many) {
			set_err(&b, &ev.start_mark, "only one YAML document is allowed");
			yaml_event_delete(&ev);
			goto fail;
		}
		yaml_event_delete(&ev);
		if (next_event(&b, &ev) < 0)
			goto fail;
		root = build_node(&b, &ev);
		yaml_event_delete(&ev);
		if (!root)
			goto fail;
		/* NOLINTNEXTLINE(bugprone-sizeof-expression): an array of pointers */
		grow(docs, sizeof(**docs), &cap, *ndocs + 1);
		(*docs)[(*ndocs)++] = root;
		/* the document end */
		if (next_event(&b, &ev) < 0)
			goto fail;
		yaml_event_delete(&ev);
	}
fail:
	for (i = 0; i < *ndocs; i++)
		ynode_free((*docs)[i]);
	free(*docs);
	*docs = NULL;
	*ndocs = 0;
out:
	if (stats) {
		stats->anchors = b.nanchors;
		stats->aliases = b.naliases;
		stats->anchor_probes = b.anchor_index.probes;
	}
	strmap_release(&b.anchor_index);
	for (i = 0; i < b.nanchors; i++)
		free(b.anchors[i].name);
	free(b.anchors);
	yaml_parser_delete(&b.parser);
	return rc;
}

int ytree_parse(const char *buf, size_t len, size_t max_nodes,
		struct ynode **root, struct parse_error *err)
{
	return ytree_parse_stats(buf, len, max_nodes, root, err, NULL);
}

int ytree_parse_stats(const char *buf, size_t len, size_t max_nodes,
		      struct ynode **root, struct parse_error *err,
		      struct ytree_stats *stats)
{
	struct ynode **docs;
	size_t n;
	int rc = parse_docs(buf, len, max_nodes, 0, &docs, &n, err, stats);

	*root = n ? docs[0] : NULL;
	free(docs);
	return rc;
}

int ytree_parse_docs(const char *buf, size_t len, size_t max_nodes,
		     struct ynode ***docs, size_t *ndocs, struct parse_error *err)
{
	return parse_docs(buf, len, max_nodes, 1, docs, ndocs, err, NULL);
}

const struct ynode *ynode_get(const struct ynode *map, const char *key)
{
	size_t i, klen = strlen(key);

	if (!map || map->kind != YNODE_MAP)
		return NULL;
	for (i = 0; i + 1 < map->n; i += 2) {
		const struct ynode *k = map->items[i];

		if (k->kind == YNODE_SCALAR && k->len == klen &&
		    !memcmp(k->text, key, klen))
			return map->items[i + 1];
	}
	return NULL;
}

int ynode_is_null(const struct ynode *n)
{
	return !n || (n->kind == YNODE_SCALAR && n->plain &&
		      (!n->len || !strcmp(n->text, "~") || !strcmp(n->text, "null") ||
		       !strcmp(n->text, "Null") || !strcmp(n->text, "NULL")));
}

size_t ynode_count(const struct ynode *n)
{
	if (!n)
		return 0;
	return n->kind == YNODE_MAP ? n->n / 2 : n->kind == YNODE_SEQ ? n->n : 0;
}

const char *ynode_kind_name(enum ynode_kind k)
{
	switch (k) {
	case YNODE_SCALAR:
		return "a scalar";
	case YNODE_SEQ:
		return "a list";
	case YNODE_MAP:
		return "a mapping";
	}
	return "?";
}
