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

#include <stdint.h>
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

/* ---- the walk over events, whoever produces them ---- */

/* Where an event starts (0-based, as libyaml's marks). */
struct yw_mark {
	unsigned line, col;
};

struct yw_walk {
	struct yw_level *lv;
	size_t n, cap;
	yw_fn *fn;
	void *ctx;
	struct parse_error *err;
};

static void yw_error(struct parse_error *err, const struct yw_mark *m, const char *msg)
{
	parse_error_set(err, m ? m->line + 1 : 0, m ? m->col + 1 : 0, "%s", msg);
}

/* A mapping (map) or sequence starts at m. */
static int yw_open(struct yw_walk *w, int map, const struct yw_mark *m)
{
	size_t i;

	if (w->n == 0 && !map) {
		yw_error(w->err, m, "expected a mapping at the top");
		return -1;
	}
	if (w->n >= YW_MAX_DEPTH) {
		yw_error(w->err, m, "nested too deeply");
		return -1;
	}
	if (w->n && w->lv[w->n - 1].map)
		w->lv[w->n - 1].want_key = 1;	/* the value of a key */
	if (w->n == w->cap) {
		grow(&w->lv, sizeof(*w->lv), &w->cap, w->n + 1);
		for (i = w->n; i < w->cap; i++) {
			w->lv[i].key = NULL;
			w->lv[i].keycap = 0;
		}
	}
	w->lv[w->n].map = map;
	w->lv[w->n].want_key = 1;
	w->lv[w->n].has_key = 0;
	w->n++;
	return 0;
}

/* A scalar (or an alias: value "") at m, line its line kept within the
 * text. */
static int yw_scalar(struct yw_walk *w, const char *v, size_t vlen, unsigned line,
		     const struct yw_mark *m)
{
	struct yw_level *lv = w->lv;
	size_t n = w->n, i;
	struct ypath p;

	if (!n) {
		yw_error(w->err, m, "expected a mapping at the top");
		return -1;
	}
	memset(&p, 0, sizeof(p));
	p.is_key = lv[n - 1].map && lv[n - 1].want_key;
	p.in_seq = !lv[n - 1].map;
	p.line = line;
	p.value = v;
	p.vlen = vlen;
	/* the keys of the mappings above, the level itself included for a
	 * value */
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
	if (w->fn(w->ctx, &p) < 0) {
		yw_error(w->err, m, "");
		return -1;
	}
	return 0;
}

static void yw_release(struct yw_walk *w)
{
	size_t i;

	for (i = 0; i < w->cap; i++)
		free(w->lv[i].key);
	free(w->lv);
}

/* ---- the fast path: the YAML lockfile writers' own subset ----
 *
 * yarn writes yarn.lock and node_modules/.yarn-state.yml itself, one
 * line at a time (berry's stringifySyml in @yarnpkg/parsers syml.ts;
 * NodeModulesLinker.ts persistNodeModules), and pnpm writes its lockfiles
 * with js-yaml's dump (@pnpm/lockfile.fs write.ts: lineWidth 1000,
 * noCompatMode, noRefs), both in a small subset of YAML: comments, "key:"
 * and "key: value" lines, "- value" items, plain or quoted scalars on one
 * line, one-line flow collections of scalars ("{integrity: sha512-...}",
 * "[x64]", "{}"), and "---" between documents (pnpm 11 and later).
 * libyaml takes a quarter of a yarn audit's time on such a text (UTF-8
 * decoding a character at a time, an allocation per token); this reads it
 * straight.
 *
 * It is a whole-text decision: a first pass only looks (fy_scan with emit
 * 0), and anything outside the subset (a tab, a CR, a byte outside
 * printable ASCII, a nested flow collection, an anchor, a tag, a block or
 * multi-line scalar, an escape other than \" \\ \/ \b \f \n \r \t, "...",
 * an empty document, a compact sequence, a key of 1,000 bytes or more)
 * hands the whole text to libyaml.  When the text is in the subset the
 * second pass produces libyaml's events, marks and document lines
 * included: fuzz_yamlfast holds the two walks to the same calls. */

#define FY_DEPTH 64
#define FY_KEY_MAX 1000		/* libyaml: a simple key's ':' at most 1024 bytes
				 * past its start (yaml_parser_stale_simple_keys) */

struct fy {
	struct yw_walk *w;
	int emit;		/* the second pass */
	int on;			/* emitting: the second pass, in the document asked for */
	unsigned want;		/* the document asked for */
	struct yw_docs *docs;	/* NULL: not counted */
	struct buf tmp;		/* the scalar, unescaped and NUL-terminated */
	unsigned ind[FY_DEPTH];
	char seq[FY_DEPTH];
	size_t n;		/* blocks open */
};

enum { FY_OK = 0, FY_FN = -1, FY_OUT = -2 };

/* Where a scalar stands: a block key (then ':' and a blank), a block
 * value (then blanks and maybe a comment: the line's end), a flow key
 * (then ": "), a flow value (then the caller's ',' or closer). */
enum fy_at { FY_KEY, FY_VAL, FY_FKEY, FY_FVAL };

static int fy_plain_start(char c)
{
	/* what cannot start a plain scalar (libyaml scanner.c,
	 * yaml_parser_fetch_next_token), '-', '?' and ':' too: the subset
	 * leaves them to libyaml */
	return c > ' ' && c < 0x7f && !strchr("-?:,[]{}#&*!|>'\"%@`", c);
}

/* The bytes a plain scalar's scan stops at (scanner.c
 * yaml_parser_scan_plain_scalar): every other byte of a line is text. */
enum { FY_STOP_BLOCK = 1, FY_STOP_FLOW = 2 };
static const unsigned char fy_stop[256] = {
	[' '] = FY_STOP_BLOCK | FY_STOP_FLOW, [':'] = FY_STOP_BLOCK | FY_STOP_FLOW,
	['#'] = FY_STOP_BLOCK | FY_STOP_FLOW, [','] = FY_STOP_FLOW, ['['] = FY_STOP_FLOW,
	[']'] = FY_STOP_FLOW, ['{'] = FY_STOP_FLOW, ['}'] = FY_STOP_FLOW,
};

/* From j, past the words of s..e that hold none of the bytes c1, c2, c3,
 * eight bytes at a time (a checksum or a resolution is a hundred): Bit
 * Twiddling Hacks' haszero of the word xor each.  Returns where a
 * byte-at-a-time scan goes on. */
static size_t fy_text(const char *s, size_t j, size_t e, char c1, char c2, char c3)
{
	const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
	const uint64_t k1 = ones * (unsigned char)c1, k2 = ones * (unsigned char)c2,
		       k3 = ones * (unsigned char)c3;

	for (; j + 8 <= e; j += 8) {
		uint64_t x, a, b, c;

		memcpy(&x, s + j, 8);
		a = x ^ k1;
		b = x ^ k2;
		c = x ^ k3;
		if (((a - ones) & ~a & highs) | ((b - ones) & ~b & highs) | ((c - ones) & ~c & highs))
			break;
	}
	return j;
}

/* One scalar of line s..e from *i: its text in f->tmp when emitting, *i
 * past it (past the ':' of a key).  FY_OUT when what follows is not what
 * at says. */
static int fy_scalar(struct fy *f, const char *s, size_t e, size_t *i, enum fy_at at)
{
	int flow = at == FY_FKEY || at == FY_FVAL, key = at == FY_KEY || at == FY_FKEY;
	size_t j = *i, st, k0 = *i;	/* k0: where a key starts, quote included */
	int keep = f->on;	/* the first pass only looks: no copy */

	f->tmp.len = 0;
	if (s[j] == '"' || s[j] == '\'') {
		char q = s[j++];

		for (;;) {
			if (j >= e)
				return FY_OUT;	/* over the line: multi-line */
			if (s[j] == q) {
				if (q == '\'' && j + 1 < e && s[j + 1] == '\'') {
					if (keep)
						buf_putc(&f->tmp, '\'');
					j += 2;
					continue;
				}
				j++;
				break;
			}
			if (q == '"' && s[j] == '\\') {
				const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t", *k;

				if (j + 1 >= e || !(k = strchr(from, s[j + 1])) || !*k)
					return FY_OUT;
				if (keep)
					buf_putc(&f->tmp, to[k - from]);
				j += 2;
				continue;
			}
			st = j;
			j = fy_text(s, j, e, q, q == '"' ? '\\' : q, q);
			while (j < e && s[j] != q && (q != '"' || s[j] != '\\'))
				j++;
			if (keep)
				buf_add(&f->tmp, s + st, j - st);
		}
		if (key) {
			if (j >= e || s[j] != ':' || (j + 1 < e && s[j + 1] != ' ') ||
			    (flow && j + 1 == e) || j - k0 >= FY_KEY_MAX)
				return FY_OUT;
			*i = j + 1;
			return FY_OK;
		}
		if (flow) {
			*i = j;
			return FY_OK;
		}
	} else {
		size_t last;
		unsigned char stop = flow ? FY_STOP_FLOW : FY_STOP_BLOCK;

		if (!fy_plain_start(s[j]))
			return FY_OUT;
		/* to ": ", ':' at the end, " #", and in a flow collection to
		 * ',', ']' or '}' (scanner.c yaml_parser_scan_plain_scalar);
		 * last: past the text, trailing blanks left out */
		st = last = j;
		for (;;) {
			size_t from = j;

			if (!flow)
				j = fy_text(s, j, e, ' ', ':', '#');
			while (j < e && !(fy_stop[(unsigned char)s[j]] & stop))
				j++;
			if (j > from)
				last = j;	/* no blank skipped */
			if (j >= e)
				break;
			if (s[j] == ':' && (j + 1 == e || s[j + 1] == ' '))
				break;
			if (s[j] == '#' && s[j - 1] == ' ')
				break;
			if (flow) {
				if (s[j] == ',' || s[j] == ']' || s[j] == '}')
					break;
				/* libyaml 0.2.5 fails "x:" before one of
				 * ",?[]{}" in a flow; older ones did not */
				if (s[j] == '[' || s[j] == '{' || s[j] == ':')
					if (s[j] != ':' || strchr(",?[]{}", s[j + 1]))
						return FY_OUT;
			}
			if (s[j] != ' ')
				last = j + 1;
			j++;
		}
		if (key) {
			if (j >= e || s[j] != ':' || j - k0 >= FY_KEY_MAX || (flow && j + 1 == e))
				return FY_OUT;
			if (keep)
				buf_add(&f->tmp, s + st, last - st);
			*i = j + 1;
			return FY_OK;
		}
		if (j < e && (s[j] == ':' || (flow && s[j] == '#')))
			return FY_OUT;	/* "mapping values are not allowed" */
		if (keep)
			buf_add(&f->tmp, s + st, last - st);
		if (flow) {
			*i = last;
			return FY_OK;
		}
		j = last;
	}
	/* a block value: blanks, then maybe a comment */
	while (j < e && s[j] == ' ')
		j++;
	if (j < e && (s[j] != '#' || s[j - 1] != ' '))
		return FY_OUT;
	*i = e;
	return FY_OK;
}

static int fy_emit(struct fy *f, unsigned line, unsigned col)
{
	struct yw_mark m = { line, col };

	if (!f->on)
		return FY_OK;
	buf_putc(&f->tmp, 0);	/* NUL-terminated, also when empty */
	f->tmp.len--;
	return yw_scalar(f->w, f->tmp.s, f->tmp.len, line + 1, &m) < 0 ? FY_FN : FY_OK;
}

static int fy_emit_open(struct fy *f, int seq, unsigned line, unsigned col)
{
	struct yw_mark m = { line, col };

	return f->on && yw_open(f->w, !seq, &m) < 0 ? FY_FN : FY_OK;
}

static void fy_emit_close(struct fy *f)
{
	if (f->on && f->w->n)
		f->w->n--;
}

/* A block mapping or sequence at column ind. */
static int fy_open(struct fy *f, int seq, unsigned ind, unsigned line)
{
	if (f->n == FY_DEPTH)
		return FY_OUT;
	f->ind[f->n] = ind;
	f->seq[f->n++] = (char)seq;
	return fy_emit_open(f, seq, line, ind);
}

static void fy_close_to(struct fy *f, size_t n)
{
	while (f->n > n) {
		f->n--;
		fy_emit_close(f);
	}
}

/* A one-line flow collection of scalars from s[*i] ('{' or '['), then the
 * line's end. */
static int fy_flow(struct fy *f, const char *s, size_t e, size_t *i, unsigned line)
{
	int seq = s[*i] == '[';
	char close = seq ? ']' : '}';
	size_t j = *i + 1, k;
	int rc;

	if ((rc = fy_emit_open(f, seq, line, (unsigned)*i)))
		return rc;
	for (;;) {
		while (j < e && s[j] == ' ')
			j++;
		if (j >= e)
			return FY_OUT;	/* over the line */
		if (s[j] == close)
			break;
		if (!seq) {
			k = j;
			if ((rc = fy_scalar(f, s, e, &j, FY_FKEY)) || (rc = fy_emit(f, line, (unsigned)k)))
				return rc;
			while (j < e && s[j] == ' ')
				j++;
			if (j >= e || s[j] == ',' || s[j] == close)
				return FY_OUT;	/* an empty value */
		}
		k = j;
		if ((rc = fy_scalar(f, s, e, &j, FY_FVAL)) || (rc = fy_emit(f, line, (unsigned)k)))
			return rc;
		while (j < e && s[j] == ' ')
			j++;
		if (j < e && s[j] == close)
			break;
		if (j >= e || s[j] != ',' || j + 1 >= e || s[j + 1] != ' ')
			return FY_OUT;	/* ",]" too: libyaml takes it, the subset not */
		j++;
		while (j < e && s[j] == ' ')
			j++;
		if (j < e && s[j] == close)
			return FY_OUT;
	}
	fy_emit_close(f);
	j++;
	while (j < e && s[j] == ' ')
		j++;
	if (j < e && (s[j] != '#' || s[j - 1] != ' '))
		return FY_OUT;
	*i = e;
	return FY_OK;
}

/* A value from s[*i] to the line's end: a scalar or a flow collection. */
static int fy_value(struct fy *f, const char *s, size_t e, size_t *i, unsigned line)
{
	size_t k = *i;
	int rc;

	if (s[k] == '{' || s[k] == '[')
		return fy_flow(f, s, e, i, line);
	if ((rc = fy_scalar(f, s, e, i, FY_VAL)))
		return rc;
	return fy_emit(f, line, (unsigned)k);
}

/* A document starts: its number and first line. */
static void fy_doc(struct fy *f, unsigned *ndoc, unsigned line)
{
	if (f->docs) {
		if (*ndoc < YW_DOCS_LINES)
			f->docs->line[*ndoc] = line + 1;
		f->docs->n = *ndoc + 1;
	}
	f->on = f->emit && *ndoc == f->want;
	++*ndoc;
}

/* How many bytes of s..s+n are printable ASCII, from the first: eight at
 * a time while none is another (a line is some 40; memchr per line cost
 * more in its calls).  The test of a word is the two of Bit Twiddling
 * Hacks: a byte below ' ' (hasless) or above '~' (hasmore) sets its high
 * bit, and a byte of 0x80 or more has it already. */
static size_t fy_printable(const char *s, size_t n)
{
	const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
	size_t e = 0;

	for (; e + 8 <= n; e += 8) {
		uint64_t x;

		memcpy(&x, s + e, 8);
		if (((x - ones * ' ') | (x + ones * (127 - '~')) | x) & highs)
			break;
	}
	while (e < n && (unsigned char)(s[e] - ' ') < 0x7f - ' ')
		e++;
	return e;
}

/* One pass over the text: FY_OK, FY_FN (fn stopped the walk; only when
 * emitting) or FY_OUT (not in the subset; only when not emitting, since
 * the first pass found none). */
static int fy_scan(struct fy *f, const char *buf, size_t len)
{
	const char *s = buf, *end = buf + len;
	unsigned line = 0, pline = 0, pcol = 0, ndoc = 0;
	int pending = 0, any = 0, marker = 0, rc;

	f->n = 0;
	f->on = 0;
	for (; s < end; line++) {
		const char *nl;
		size_t e, i = 0, k;
		int item;

		/* the line's end, and every byte of it printable ASCII */
		e = fy_printable(s, (size_t)(end - s));
		if (s + e < end && s[e] != '\n')
			return FY_OUT;
		nl = s + e < end ? s + e : NULL;
		while (i < e && s[i] == ' ')
			i++;
		if (i == e || s[i] == '#')
			goto next;	/* blank or a comment */
		if (i == 0 && e >= 3 && !memcmp(s, "---", 3)) {
			/* a document ends, another starts (pnpm 11's
			 * lockfile is two: yamlDocuments.ts) */
			if (e > 3 || (ndoc && !any) || (ndoc == 0 && marker))
				return FY_OUT;
			if (pending) {
				f->tmp.len = 0;
				if ((rc = fy_emit(f, pline, pcol)))
					return rc;
				pending = 0;
			}
			fy_close_to(f, 0);
			if (f->on && !f->docs)
				return FY_OK;	/* past the one asked for */
			marker = 1;
			any = 0;
			fy_doc(f, &ndoc, line);
			goto next;
		}
		if (i == 0 && e >= 3 && !memcmp(s, "...", 3))
			return FY_OUT;	/* a document end */
		item = s[i] == '-' && (i + 1 == e || s[i + 1] == ' ');
		if (!any) {
			if (i || item)
				return FY_OUT;
			if (!marker)
				fy_doc(f, &ndoc, line);
			any = 1;
			marker = 0;
			if ((rc = fy_open(f, 0, 0, line)))
				return rc;
		} else if (pending && i > f->ind[f->n - 1]) {
			/* the block of the key above */
			if ((rc = fy_open(f, item, (unsigned)i, line)))
				return rc;
			pending = 0;
		} else {
			if (pending) {	/* the key above has no value */
				f->tmp.len = 0;
				if ((rc = fy_emit(f, pline, pcol)))
					return rc;
				pending = 0;
			}
			k = f->n;
			while (k > 0 && f->ind[k - 1] > i)
				k--;
			if (!k || f->ind[k - 1] != i || f->seq[k - 1] != item)
				return FY_OUT;
			fy_close_to(f, k);
		}
		if (item) {
			i += 2;
			while (i < e && s[i] == ' ')
				i++;
			if (i >= e)
				return FY_OUT;	/* "-" alone: a nested block */
			if ((rc = fy_value(f, s, e, &i, line)))
				return rc;
			goto next;
		}
		k = i;
		if ((rc = fy_scalar(f, s, e, &i, FY_KEY)) || (rc = fy_emit(f, line, (unsigned)k)))
			return rc;
		k = i;		/* past the ':' */
		while (i < e && s[i] == ' ')
			i++;
		if (i == e || s[i] == '#') {
			/* a block below, or nothing: libyaml's empty scalar is
			 * marked at the end of the ':' (parser.c
			 * yaml_parser_parse_block_mapping_value) */
			pending = 1;
			pline = line;
			pcol = (unsigned)k;
			goto next;
		}
		if ((rc = fy_value(f, s, e, &i, line)))
			return rc;
next:
		s = nl ? nl + 1 : end;
	}
	if (!any)
		return FY_OUT;	/* no document, or an empty one */
	if (pending) {
		f->tmp.len = 0;
		if ((rc = fy_emit(f, pline, pcol)))
			return rc;
	}
	fy_close_to(f, 0);
	return FY_OK;
}

/* The walk in the subset, or FY_OUT with nothing called. */
static int fy_walk(struct yw_walk *w, const char *buf, size_t len, unsigned doc,
		   struct yw_docs *docs)
{
	struct fy f;
	int rc;

	memset(&f, 0, sizeof(f));
	f.w = w;
	f.want = doc;
	rc = fy_scan(&f, buf, len);
	if (rc == FY_OK) {
		f.emit = 1;
		f.docs = docs;
		rc = fy_scan(&f, buf, len);
	}
	buf_release(&f.tmp);
	return rc;
}

/* ---- libyaml ---- */

static struct yw_mark yw_mark_of(const yaml_mark_t *m)
{
	struct yw_mark r = { (unsigned)m->line, (unsigned)m->column };

	return r;
}

int deps_yaml_walk(const char *buf, size_t len, yw_fn *fn, void *ctx,
		   struct parse_error *err)
{
	return deps_yaml_walk_doc(buf, len, 0, fn, ctx, NULL, err);
}

static int walk(const char *buf, size_t len, unsigned doc, yw_fn *fn, void *ctx,
		struct yw_docs *docs, struct parse_error *err, int fast)
{
	yaml_parser_t parser;
	struct yw_walk w;
	int rc = -1, done = 0;
	struct yw_end end;
	unsigned seen = 0;	/* documents started so far */
	int in_doc = 0;		/* inside document number doc */

	memset(err, 0, sizeof(*err));
	if (docs)
		memset(docs, 0, sizeof(*docs));
	memset(&w, 0, sizeof(w));
	w.fn = fn;
	w.ctx = ctx;
	w.err = err;
	if (fast) {
		rc = fy_walk(&w, buf, len, doc, docs);
		if (rc != FY_OUT) {
			yw_release(&w);
			return rc == FY_OK ? 0 : -1;
		}
		rc = -1;
	}
	yw_end_init(&end, buf, len);
	if (!yaml_parser_initialize(&parser)) {
		parse_error_msg(err, "cannot start the YAML parser");
		return -1;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
	while (!done) {
		yaml_event_t ev;
		struct yw_mark m;

		if (!yaml_parser_parse(&parser, &ev)) {
			m = yw_mark_of(&parser.problem_mark);
			yw_error(err, &m, parser.problem ? parser.problem : "malformed YAML");
			goto out;
		}
		if (!in_doc && ev.type != YAML_DOCUMENT_START_EVENT &&
		    ev.type != YAML_STREAM_END_EVENT) {
			yaml_event_delete(&ev);	/* another document's */
			continue;
		}
		m = yw_mark_of(&ev.start_mark);
		switch (ev.type) {
		case YAML_DOCUMENT_START_EVENT:
			if (docs) {
				if (seen < YW_DOCS_LINES)
					docs->line[seen] = m.line + 1;
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
			if (yw_open(&w, ev.type == YAML_MAPPING_START_EVENT, &m) < 0) {
				yaml_event_delete(&ev);
				goto out;
			}
			break;
		case YAML_MAPPING_END_EVENT:
		case YAML_SEQUENCE_END_EVENT:
			if (!w.n)	/* libyaml pairs them; never below the top */
				break;
			w.n--;
			if (!w.n && !docs)
				done = 1;
			break;
		case YAML_SCALAR_EVENT:
		case YAML_ALIAS_EVENT:
			/* an empty value at the end of a text without a
			 * final newline: a mark past its last line */
			if (yw_scalar(&w, ev.type == YAML_SCALAR_EVENT ?
				      (const char *)ev.data.scalar.value : "",
				      ev.type == YAML_SCALAR_EVENT ? ev.data.scalar.length : 0,
				      yw_line(&end, m.line + 1), &m) < 0) {
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
	yw_release(&w);
	yaml_parser_delete(&parser);
	return rc;
}

int deps_yaml_walk_doc(const char *buf, size_t len, unsigned doc, yw_fn *fn, void *ctx,
		       struct yw_docs *docs, struct parse_error *err)
{
	return walk(buf, len, doc, fn, ctx, docs, err, 1);
}

int deps_yaml_walk_libyaml(const char *buf, size_t len, unsigned doc, yw_fn *fn, void *ctx,
			   struct yw_docs *docs, struct parse_error *err)
{
	return walk(buf, len, doc, fn, ctx, docs, err, 0);
}
