/* deps_yaml.c - the one pass over a YAML lockfile that pnpm's and yarn's
 * parsers share (deps_yaml.h; deps_pnpm.c and deps_yarn.c use it).
 *
 * Lockfiles run to megabytes, so they are not built into a ytree: one
 * pass over libyaml's events keeps only the mapping keys above the
 * current scalar.  Aliases are never expanded (an alias is one empty
 * value), so a "billion laughs" lockfile costs nothing, and nesting is
 * capped.
 */
#include "deps_yaml.h"
#include "deps.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

struct yw_level {
	int map;		/* a mapping (else a sequence) */
	int want_key;		/* mapping: the next scalar is a key */
	int has_key;		/* mapping: key holds its current key */
	char *key;		/* the level's key buffer, kept for the next
				 * mapping at this depth (one allocation a
				 * depth, not one a key) */
	size_t keycap;
};

/* The end of the text as text_yaml_end says it, computed once and only
 * when needed: a mark past the last line (libyaml's stream end after a
 * text without a final newline) or an error. */
struct yw_end {
	const char *buf;
	size_t len;
	unsigned floor;		/* 1 + the text's '\n's: never above its last line */
	int known;
	unsigned line, col;
};

static void yw_end_init(struct yw_end *e, const char *buf, size_t len)
{
	size_t i;
	unsigned n = 1;

	memset(e, 0, sizeof(*e));
	e->buf = buf;
	e->len = len;
	/* a plain count, which the compiler vectorizes: memchr per line
	 * cost more in its calls than in its scanning (a lockfile of 20,000
	 * short lines) */
	for (i = 0; i < len; i++)
		n += buf[i] == '\n';
	e->floor = n;
}

static void yw_end_get(struct yw_end *e)
{
	if (!e->known)
		text_yaml_end(e->buf, e->len, &e->line, &e->col);
	e->known = 1;
}

/* A scalar's line, kept within the text: every '\n' is a line break of
 * text_yaml_end's, so a line up to floor needs no count of the others */
static unsigned yw_line(struct yw_end *e, unsigned line)
{
	if (line <= e->floor)
		return line;
	yw_end_get(e);
	return line > e->line ? e->line : line;
}

static void level_set_key(struct yw_level *l, const char *v, size_t n)
{
	n = strnlen(v, n);	/* as xstrndup copied it */
	if (n + 1 > l->keycap) {
		free(l->key);
		l->keycap = n + 1 > 64 ? n + 1 : 64;
		l->key = xmalloc(l->keycap);
	}
	memcpy(l->key, v, n);
	l->key[n] = 0;
	l->has_key = 1;
}

static void yw_error(struct parse_error *err, const yaml_mark_t *m, const char *msg)
{
	parse_error_set(err, m ? (unsigned)m->line + 1 : 0,
			m ? (unsigned)m->column + 1 : 0, "%s", msg);
}

int deps_yaml_walk(const char *buf, size_t len, yw_fn *fn, void *ctx,
		   struct parse_error *err)
{
	return deps_yaml_walk_doc(buf, len, 0, fn, ctx, NULL, err);
}

int deps_yaml_walk_doc(const char *buf, size_t len, unsigned doc, yw_fn *fn, void *ctx,
		       struct yw_docs *docs, struct parse_error *err)
{
	yaml_parser_t parser;
	struct yw_level *lv = NULL;
	size_t n = 0, cap = 0, i;
	int rc = -1, done = 0;
	struct yw_end end;
	unsigned seen = 0;	/* documents started so far */
	int in_doc = 0;		/* inside document number doc */

	memset(err, 0, sizeof(*err));
	if (docs)
		memset(docs, 0, sizeof(*docs));
	yw_end_init(&end, buf, len);
	if (!yaml_parser_initialize(&parser)) {
		parse_error_msg(err, "cannot start the YAML parser");
		return -1;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
	while (!done) {
		yaml_event_t ev;
		struct ypath p;

		if (!yaml_parser_parse(&parser, &ev)) {
			yw_error(err, &parser.problem_mark, parser.problem ? parser.problem :
				 "malformed YAML");
			goto out;
		}
		if (!in_doc && ev.type != YAML_DOCUMENT_START_EVENT &&
		    ev.type != YAML_STREAM_END_EVENT) {
			yaml_event_delete(&ev);	/* another document's */
			continue;
		}
		switch (ev.type) {
		case YAML_DOCUMENT_START_EVENT:
			if (docs) {
				if (seen < YW_DOCS_LINES)
					docs->line[seen] = (unsigned)ev.start_mark.line + 1;
				docs->n = seen + 1;
			}
			in_doc = seen++ == doc;
			if (!in_doc && seen > doc + 1 && !docs)
				done = 1;	/* past the one asked for */
			break;
		case YAML_DOCUMENT_END_EVENT:
			if (in_doc && !docs)
				done = 1;
			in_doc = 0;
			break;
		case YAML_MAPPING_START_EVENT:
		case YAML_SEQUENCE_START_EVENT:
			if (n == 0 && ev.type != YAML_MAPPING_START_EVENT) {
				yw_error(err, &ev.start_mark, "expected a mapping at the top");
				yaml_event_delete(&ev);
				goto out;
			}
			if (n >= YW_MAX_DEPTH) {
				yw_error(err, &ev.start_mark, "nested too deeply");
				yaml_event_delete(&ev);
				goto out;
			}
			if (n && lv[n - 1].map)
				lv[n - 1].want_key = 1;	/* the value of a key */
			if (n == cap) {
				grow(&lv, sizeof(*lv), &cap, n + 1);
				for (i = n; i < cap; i++) {
					lv[i].key = NULL;
					lv[i].keycap = 0;
				}
			}
			lv[n].map = ev.type == YAML_MAPPING_START_EVENT;
			lv[n].want_key = 1;
			lv[n].has_key = 0;
			n++;
			break;
		case YAML_MAPPING_END_EVENT:
		case YAML_SEQUENCE_END_EVENT:
			if (!n)		/* libyaml pairs them; never below the top */
				break;
			n--;
			if (!n && !docs)
				done = 1;
			break;
		case YAML_SCALAR_EVENT:
		case YAML_ALIAS_EVENT:
			if (!n) {
				yw_error(err, &ev.start_mark, "expected a mapping at the top");
				yaml_event_delete(&ev);
				goto out;
			}
			memset(&p, 0, sizeof(p));
			p.is_key = lv[n - 1].map && lv[n - 1].want_key;
			p.in_seq = !lv[n - 1].map;
			/* an empty value at the end of a text without a
			 * final newline: a mark past its last line */
			p.line = yw_line(&end, (unsigned)ev.start_mark.line + 1);
			if (ev.type == YAML_SCALAR_EVENT) {
				p.value = (const char *)ev.data.scalar.value;
				p.vlen = ev.data.scalar.length;
			} else {
				p.value = "";
			}
			/* the keys of the mappings above, the level itself included
			 * for a value */
			for (i = 0; i < n && p.depth < YW_KEYS; i++) {
				if (!lv[i].map)
					continue;
				if (i == n - 1 && p.is_key)
					break;
				p.key[p.depth++] = lv[i].has_key ? lv[i].key : "";
			}
			if (lv[n - 1].map) {
				if (p.is_key)
					level_set_key(&lv[n - 1], p.value, p.vlen);
				lv[n - 1].want_key = !p.is_key;
			}
			if (fn(ctx, &p) < 0) {
				yw_error(err, &ev.start_mark, "");
				yaml_event_delete(&ev);
				goto out;
			}
			break;
		case YAML_STREAM_END_EVENT:
			done = 1;
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
	}
	rc = 0;
out:
	if (rc < 0) {
		yw_end_get(&end);
		if (err->line > end.line) {
			err->line = end.line;
			err->col = end.col;
		}
	}
	for (i = 0; i < cap; i++)
		free(lv[i].key);
	free(lv);
	yaml_parser_delete(&parser);
	return rc;
}
