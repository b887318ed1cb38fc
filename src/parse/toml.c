/* toml.c - see toml.h: a recursive-descent TOML 1.0 parser.
 *
 * Which tables may be extended, and how, follows the TOML 1.0
 * specification's "Table" and "Array of Tables" sections as tomli (the
 * parser of Python's tomllib, which pip and uv's Python tooling use)
 * enforces them, with flags on the tables themselves:
 *   DEFINED  the table was defined by a [header], or by dotted keys of a
 *            section that has ended: no [header] may define it again and
 *            no dotted key may reach into it;
 *   FROZEN   an inline table or a value array: nothing may be added to it
 *            or below it;
 *   AOT      an array made by [[header]]s, which a header may append to.
 * Tables that dotted keys create or walk through stay open for the rest
 * of their section and become DEFINED at the next header (tomli's
 * "pending" flags).
 */
#include "toml.h"
#include "strmap.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	F_DEFINED = 1 << 0,
	F_FROZEN = 1 << 1,
	F_AOT = 1 << 2,
	F_PENDING = 1 << 3,	/* on the pending list of this section */
};

#define INDEX_FROM 8		/* a table gets a hash index past this */
#define KEY_SHOWN 40		/* bytes of a key quoted in a message */
#define KEY_INLINE 4		/* parts of a key held without a malloc */
#define ARENA_FIRST 4096	/* the first block of a tree's memory */
#define ARENA_MAX (1024 * 1024)	/* blocks double up to this size */

const struct toml_limits toml_default_limits = { 128, 4u * 1024 * 1024 };

/* One part of a dotted key: a bare key points into the input, a quoted
 * one into the tree's memory (decoded); neither is NUL-terminated. */
struct key_part {
	const char *s;
	size_t len;
	unsigned line, col;
	const char *at;		/* where it was written */
};

/* A dotted key: its parts in inl, or on the heap past KEY_INLINE of them
 * (key_init, key_release; not to be copied). */
struct key {
	struct key_part *v;
	size_t n, cap;
	struct key_part inl[KEY_INLINE];
};

/* The memory of one tree: blocks of growing size that values, keys,
 * strings and arrays are cut from in turn, and that toml_free releases
 * at once.  A 2,000-package uv.lock is some 40,000 values and as many
 * keys and strings: a malloc and a free for each cost more than parsing
 * them, and a parse on a thread of its own grows its malloc heap a page
 * (a system call) at a time. */
struct arena_block {
	struct arena_block *next;	/* the block before */
	size_t size, used;	/* bytes of data */
	max_align_t data[];
};

/* A table's index, in the tree's memory; its slots are malloc'd. */
struct arena_index {
	struct strmap map;
	struct arena_index *next;	/* the one made before */
};

struct toml_arena {
	struct arena_block *last;
	size_t next_size;
	struct arena_index *indexes;	/* the newest first */
};

struct parser {
	const char *p, *end, *buf;
	unsigned line;
	const char *line_start;
	const struct toml_limits *lim;
	size_t nvalues;
	unsigned depth;
	struct toml_value **pending;	/* tables dotted keys opened */
	size_t npending, pending_cap;
	struct toml_arena *arena;	/* the tree's memory */
	struct buf scratch;	/* a string, key or number being decoded */
	struct parse_error *err;
	int failed;
};

/* ---- errors ---- */

static void fail_record(struct parser *ps, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Record the first error, at the byte `at`.  Its line is counted from
 * the start (once, on failure): `at` may be a line or more behind the
 * cursor, at the start of a multi-line string. */
static void fail_record(struct parser *ps, const char *at, const char *fmt, ...)
{
	va_list ap;
	const char *ls = ps->buf;
	unsigned line = 1;
	const char *q;

	if (ps->failed)
		return;
	ps->failed = 1;
	if (at > ps->end)
		at = ps->end;
	for (q = ps->buf; q < at; q++)
		if (*q == '\n') {
			line++;
			ls = q + 1;
		}
	ps->err->line = line;
	ps->err->col = (unsigned)(at - ls) + 1;
	va_start(ap, fmt);
	vsnprintf(ps->err->msg, sizeof(ps->err->msg), fmt, ap);
	va_end(ap);
}

/* -1, in the macro itself: the analyser does not follow a variadic call,
 * and every caller's error path depends on this value */
#define fail_at(ps, at, ...) (fail_record((ps), (at), __VA_ARGS__), -1)
#define fail(ps, ...) fail_at((ps), (ps)->p, __VA_ARGS__)

/* A key for a message: at most KEY_SHOWN bytes, non-printing as '?'. */
static const char *shown(const char *s, size_t len, char *out, size_t size)
{
	size_t i, n = len < KEY_SHOWN ? len : KEY_SHOWN;

	if (n >= size)
		n = size - 1;
	while (n && n < len && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;	/* cut on a character boundary */
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		out[i] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	out[n] = 0;
	return out;
}

/* ---- the tree's memory ---- */

static struct toml_arena *arena_new(void)
{
	struct toml_arena *a = xcalloc(1, sizeof(*a));

	a->next_size = ARENA_FIRST;
	return a;
}

/* n bytes aligned for any type, from the newest block or a new one; a
 * block's unused tail stays unused. */
static void *arena_alloc(struct toml_arena *a, size_t n)
{
	const size_t align = _Alignof(max_align_t);
	struct arena_block *b = a->last;
	void *p;

	n = (n + align - 1) & ~(align - 1);
	if (!b || b->size - b->used < n) {
		size_t size = a->next_size > n ? a->next_size : n;

		b = xmalloc(sizeof(*b) + size);
		b->next = a->last;
		b->size = size;
		b->used = 0;
		a->last = b;
		if (a->next_size < ARENA_MAX)
			a->next_size *= 2;
	}
	p = (char *)b->data + b->used;
	b->used += n;
	return p;
}

/* s[0..len) as a NUL-terminated string of the tree (s may hold NULs). */
static char *arena_strndup(struct toml_arena *a, const char *s, size_t len)
{
	char *d = arena_alloc(a, len + 1);

	if (len)
		memcpy(d, s, len);
	d[len] = 0;
	return d;
}

/* Room for need elements of elem bytes in *v (capacity *cap): a larger
 * copy when it is short, the old one left unused (at most as much as
 * the array itself, summed over its doublings). */
static void *arena_grow(struct toml_arena *a, void *v, size_t elem, size_t *cap,
			size_t need)
{
	size_t c = *cap;
	void *nv;

	if (need <= c)
		return v;
	c = c ? c : 4;
	while (c < need)
		c *= 2;
	nv = arena_alloc(a, c * elem);
	if (*cap)
		memcpy(nv, v, *cap * elem);
	*cap = c;
	return nv;
}

static void arena_free(struct toml_arena *a)
{
	struct arena_block *b, *prev;
	struct arena_index *x;

	for (x = a->indexes; x; x = x->next)
		strmap_release(&x->map);
	for (b = a->last; b; b = prev) {
		prev = b->next;
		free(b);
	}
	free(a);
}

/* ---- values ---- */

static struct toml_value *value_new(struct parser *ps, enum toml_type type,
				    const char *at)
{
	struct toml_value *v;

	if (++ps->nvalues > ps->lim->max_values) {
		fail_record(ps, at, "too many values (more than %zu)", ps->lim->max_values);
		return NULL;
	}
	v = arena_alloc(ps->arena, sizeof(*v));
	memset(v, 0, sizeof(*v));
	v->type = type;
	v->line = ps->line;
	v->col = (unsigned)(at - ps->line_start) + 1;
	return v;
}

void toml_free(struct toml_value *root)
{
	if (root && root->arena)
		arena_free(root->arena);	/* root is in it */
}

static size_t table_find(const struct toml_value *t, const char *key, size_t len)
{
	size_t i;

	if (t->index)
		return strmap_get(t->index, key, len);
	for (i = 0; i < t->n; i++)
		if (t->kv[i].klen == len && !memcmp(t->kv[i].key, key, len))
			return i;
	return STRMAP_NONE;
}

static struct toml_value *table_lookup(const struct toml_value *t,
				       const struct key_part *k)
{
	size_t i = table_find(t, k->s, k->len);

	return i == STRMAP_NONE ? NULL : t->kv[i].val;
}

/* Add key k (copied) with value v to t; the caller checked it is new. */
static void table_add(struct parser *ps, struct toml_value *t, const struct key_part *k,
		      struct toml_value *v)
{
	struct toml_arena *a = ps->arena;
	struct toml_kv *kv;
	size_t i;

	t->kv = arena_grow(a, t->kv, sizeof(*t->kv), &t->cap, t->n + 1);
	kv = &t->kv[t->n];
	kv->key = arena_strndup(a, k->s, k->len);
	kv->klen = k->len;
	kv->line = k->line;
	kv->col = k->col;
	kv->val = v;
	t->n++;
	if (t->n == INDEX_FROM + 1) {
		struct arena_index *x = arena_alloc(a, sizeof(*x));

		memset(x, 0, sizeof(*x));
		x->next = a->indexes;
		a->indexes = x;
		t->index = &x->map;
		for (i = 0; i < t->n; i++)
			strmap_put(t->index, t->kv[i].key, t->kv[i].klen, i);
	} else if (t->index) {
		strmap_put(t->index, kv->key, kv->klen, t->n - 1);
	}
}

static void array_add(struct parser *ps, struct toml_value *a, struct toml_value *v)
{
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): an array of pointers */
	a->items = arena_grow(ps->arena, a->items, sizeof(*a->items), &a->cap, a->n + 1);
	a->items[a->n++] = v;
}

const struct toml_value *toml_get(const struct toml_value *t, const char *key)
{
	size_t i;

	if (!t || t->type != TOML_TABLE)
		return NULL;
	i = table_find(t, key, strlen(key));
	return i == STRMAP_NONE ? NULL : t->kv[i].val;
}

const char *toml_str(const struct toml_value *v)
{
	return v && v->type == TOML_STRING ? v->str : NULL;
}

const char *toml_type_name(enum toml_type t)
{
	static const char *const names[] = {
		[TOML_TABLE] = "table", [TOML_ARRAY] = "array",
		[TOML_STRING] = "string", [TOML_INTEGER] = "integer",
		[TOML_FLOAT] = "float", [TOML_BOOL] = "bool",
		[TOML_DATETIME] = "datetime",
		[TOML_DATETIME_LOCAL] = "datetime-local",
		[TOML_DATE_LOCAL] = "date-local",
		[TOML_TIME_LOCAL] = "time-local",
	};

	return (unsigned)t < ARRAY_SIZE(names) ? names[t] : "?";
}

/* ---- the cursor ---- */

static int at_end(const struct parser *ps)
{
	return ps->p >= ps->end;
}

static int peek(const struct parser *ps, size_t ahead)
{
	return ps->p + ahead < ps->end ? (unsigned char)ps->p[ahead] : -1;
}

static void skip_ws(struct parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t'))
		ps->p++;
}

/* At a newline (LF or CRLF)?  Returns its length, 0 when not. */
static int newline_len(const struct parser *ps)
{
	if (peek(ps, 0) == '\n')
		return 1;
	if (peek(ps, 0) == '\r' && peek(ps, 1) == '\n')
		return 2;
	return 0;
}

static void take_newline(struct parser *ps, int n)
{
	ps->p += n;
	ps->line++;
	ps->line_start = ps->p;
}

/* A character TOML allows in a comment or a string besides tab: no other
 * control character, no DEL.  The input is valid UTF-8 already. */
static int control_char(unsigned char c)
{
	return (c < 0x20 && c != '\t') || c == 0x7f;
}

static int comment(struct parser *ps)
{
	ps->p++;	/* '#' */
	while (ps->p < ps->end && *ps->p != '\n') {
		if (*ps->p == '\r' && peek(ps, 1) == '\n')
			break;
		if (control_char((unsigned char)*ps->p))
			return fail(ps, "control character 0x%02x in a comment",
				    (unsigned char)*ps->p);
		ps->p++;
	}
	return 0;
}

/* After a key/value pair or a header: blanks, a comment, then the end of
 * the line (or of the file). */
static int end_of_line(struct parser *ps, const char *what)
{
	int n;

	skip_ws(ps);
	if (peek(ps, 0) == '#' && comment(ps) < 0)
		return -1;
	if (at_end(ps))
		return 0;
	n = newline_len(ps);
	if (!n)
		return fail(ps, "expected the end of the line after %s", what);
	take_newline(ps, n);
	return 0;
}

/* Blanks, newlines and comments (inside an array). */
static int skip_ws_nl(struct parser *ps)
{
	for (;;) {
		int n;

		skip_ws(ps);
		if (peek(ps, 0) == '#') {
			if (comment(ps) < 0)
				return -1;
			continue;
		}
		n = newline_len(ps);
		if (!n)
			return 0;
		take_newline(ps, n);
	}
}

/* ---- strings ---- */

static void put_utf8(struct buf *b, unsigned long cp)
{
	char u[4];
	size_t n;

	if (cp < 0x80) {
		u[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		u[0] = (char)(0xc0 | (cp >> 6));
		u[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		u[0] = (char)(0xe0 | (cp >> 12));
		u[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		u[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		u[0] = (char)(0xf0 | (cp >> 18));
		u[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		u[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		u[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	buf_add(b, u, n);
}

/* After a backslash in a basic string: one escape into b. */
static int escape(struct parser *ps, struct buf *b)
{
	const char *at = ps->p - 1;
	int c = peek(ps, 0), ndigits = 0, i;
	unsigned long cp = 0;

	switch (c) {
	case 'b': buf_putc(b, '\b'); break;
	case 't': buf_putc(b, '\t'); break;
	case 'n': buf_putc(b, '\n'); break;
	case 'f': buf_putc(b, '\f'); break;
	case 'r': buf_putc(b, '\r'); break;
	case '"': buf_putc(b, '"'); break;
	case '\\': buf_putc(b, '\\'); break;
	case 'u': ndigits = 4; break;
	case 'U': ndigits = 8; break;
	default:
		return fail_at(ps, at, "invalid escape sequence in a string");
	}
	ps->p++;
	if (!ndigits)
		return 0;
	for (i = 0; i < ndigits; i++) {
		int h = hex_digit(peek(ps, 0));

		if (h < 0)
			return fail_at(ps, at, "\\%c expects %d hex digits", c, ndigits);
		cp = cp * 16 + (unsigned long)h;
		ps->p++;
	}
	if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return fail_at(ps, at, "escape is not a Unicode scalar value");
	put_utf8(b, cp);
	return 0;
}

/* One character of a string's body, with the checks every kind shares. */
static int string_char(struct parser *ps, struct buf *b, int multi)
{
	unsigned char c = (unsigned char)*ps->p;
	int n;

	if (multi && (n = newline_len(ps))) {
		buf_putc(b, '\n');
		take_newline(ps, n);
		return 0;
	}
	if (c == '\n' || c == '\r')
		return fail(ps, multi ? "bare carriage return in a string" :
			    "a single-line string ends at the end of the line");
	if (control_char(c))
		return fail(ps, "control character 0x%02x in a string", c);
	buf_putc(b, (char)c);
	ps->p++;
	return 0;
}

/* Multi-line basic: a backslash at the end of a line eats every blank and
 * newline up to the next character. */
static int line_ending_backslash(struct parser *ps)
{
	const char *q = ps->p + 1;

	while (q < ps->end && (*q == ' ' || *q == '\t'))
		q++;
	if (q >= ps->end || !(*q == '\n' || (*q == '\r' && q + 1 < ps->end &&
					     q[1] == '\n')))
		return 0;
	ps->p = q;
	for (;;) {
		int n = newline_len(ps);

		if (n)
			take_newline(ps, n);
		else if (peek(ps, 0) == ' ' || peek(ps, 0) == '\t')
			ps->p++;
		else
			return 1;
	}
}

/* The end of the run of plain characters at p: none of q, a backslash, a
 * control character or DEL.  A lockfile is mostly strings (URLs,
 * hashes): eight bytes at a time while a whole word is plain.  Each test
 * on a word (a byte equal to c; a byte below 0x20) is exact as a whole,
 * and the bytes of the word it stops at are looked at one by one. */
static const char *plain_run(const char *p, const char *end, char q)
{
	const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
	const uint64_t wq = ones * (unsigned char)q, wb = ones * '\\', wdel = ones * 0x7f;

	while (end - p >= 8) {
		uint64_t w, x, y, z;

		memcpy(&w, p, 8);
		x = w ^ wq;
		y = w ^ wb;
		z = w ^ wdel;
		if ((((x - ones) & ~x) | ((y - ones) & ~y) | ((z - ones) & ~z) |
		     ((w - ones * 0x20) & ~w)) & highs)
			break;
		p += 8;
	}
	while (p < end && *p != q && *p != '\\' && (unsigned char)*p >= 0x20 && *p != 0x7f)
		p++;
	return p;
}

/* A string of any kind at ps->p (its opening quote): the text into *out. */
static int parse_string(struct parser *ps, struct buf *out, int allow_multi)
{
	const char *start = ps->p;
	const char q = *ps->p;
	int multi = peek(ps, 1) == q && peek(ps, 2) == q;
	int basic = q == '"';

	if (multi && !allow_multi)
		return fail(ps, "a key cannot be a multi-line string");
	ps->p += multi ? 3 : 1;
	if (multi) {
		int n = newline_len(ps);

		if (n)	/* a newline right after the opening quotes is trimmed */
			take_newline(ps, n);
	}
	for (;;) {
		if (at_end(ps))
			return fail_at(ps, start, "unterminated string");
		if (*ps->p == q) {
			size_t run = 0;

			if (!multi) {
				ps->p++;
				return 0;
			}
			while (peek(ps, run) == q)
				run++;
			if (run >= 3) {
				if (run > 5)
					return fail(ps, "too many quotes at the end of a "
						    "multi-line string");
				buf_add(out, ps->p, run - 3);
				ps->p += run;
				return 0;
			}
			buf_add(out, ps->p, run);
			ps->p += run;
			continue;
		}
		if (!multi && (*ps->p == '\n' || *ps->p == '\r'))
			return fail_at(ps, start, "unterminated string (a single-line "
				       "string ends at the end of its line)");
		if (basic && *ps->p == '\\') {
			if (multi && line_ending_backslash(ps))
				continue;
			ps->p++;
			if (escape(ps, out) < 0)
				return -1;
			continue;
		}
		{
			/* a run of plain characters is copied at once */
			const char *run = plain_run(ps->p, ps->end, q);

			if (run > ps->p) {
				buf_add(out, ps->p, (size_t)(run - ps->p));
				ps->p = run;
				continue;
			}
		}
		if (string_char(ps, out, multi) < 0)
			return -1;
	}
}

/* ---- keys ---- */

static int bare_key_char(int c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-';
}

static void key_init(struct key *k)
{
	k->v = k->inl;
	k->n = 0;
	k->cap = KEY_INLINE;
}

static void key_release(struct key *k)
{
	if (k->v != k->inl)
		free(k->v);
	key_init(k);
}

static struct key_part *key_push(struct key *k)
{
	if (k->n == k->cap) {
		struct key_part *v = xmalloc(2 * k->cap * sizeof(*v));

		memcpy(v, k->v, k->n * sizeof(*v));
		if (k->v != k->inl)
			free(k->v);
		k->v = v;
		k->cap *= 2;
	}
	return &k->v[k->n++];
}

/* A dotted key at ps->p into k (key_init'ed; the caller releases it). */
static int parse_key(struct parser *ps, struct key *k)
{
	for (;;) {
		struct key_part *part;
		const char *at = ps->p, *s;
		size_t len;
		int c = peek(ps, 0);

		if (k->n >= ps->lim->max_depth)
			return fail(ps, "key has too many parts (more than %u)",
				    ps->lim->max_depth);
		/* in an inline table a key's parts nest as deep as the tables
		 * around it: they count with them, here and for what nests in
		 * the value (fuzz_toml: 127 levels of tables with 127-part
		 * keys made a tree 16,000 levels deep of 32 KB) */
		if (ps->depth + k->n >= ps->lim->max_depth)
			return fail(ps, "nested too deeply (more than %u levels)",
				    ps->lim->max_depth);
		if (c == '"' || c == '\'') {
			ps->scratch.len = 0;
			if (parse_string(ps, &ps->scratch, 0) < 0)
				return -1;
			len = ps->scratch.len;
			s = arena_strndup(ps->arena, ps->scratch.s, len);
		} else if (bare_key_char(c)) {
			while (bare_key_char(peek(ps, 0)))
				ps->p++;
			s = at;
			len = (size_t)(ps->p - at);
		} else {
			return fail(ps, c < 0 || c == '\n' || c == '\r' ? "expected a key" :
				    "invalid character in a key (quote it)");
		}
		part = key_push(k);
		part->len = len;
		part->s = s;
		part->line = ps->line;
		part->col = (unsigned)(at - ps->line_start) + 1;
		part->at = at;
		skip_ws(ps);
		if (peek(ps, 0) != '.')
			return 0;
		ps->p++;
		skip_ws(ps);
	}
}

/* ---- numbers, dates and times ---- */

static int is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* Digits with single underscores between them, into b; 0 or -1. */
static int digits(struct parser *ps, struct buf *b, int (*ok)(int), const char *what)
{
	if (!ok(peek(ps, 0)))
		return fail(ps, "expected a digit in %s", what);
	for (;;) {
		buf_putc(b, *ps->p++);
		if (peek(ps, 0) == '_') {
			if (!ok(peek(ps, 1)))
				return fail(ps, "an underscore in %s must be between digits",
					    what);
			ps->p++;
		} else if (!ok(peek(ps, 0))) {
			return 0;
		}
	}
}

static int is_hex(int c) { return hex_digit(c) >= 0; }
static int is_oct(int c) { return c >= '0' && c <= '7'; }
static int is_bin(int c) { return c == '0' || c == '1'; }

static int radix_integer(struct parser *ps, struct toml_value *v)
{
	struct buf *b = &ps->scratch;
	int kind = peek(ps, 1), base = kind == 'x' ? 16 : kind == 'o' ? 8 : 2;
	unsigned long long u;
	char *end;

	ps->p += 2;
	b->len = 0;
	if (digits(ps, b, base == 16 ? is_hex : base == 8 ? is_oct : is_bin,
		   "an integer") < 0)
		return -1;
	errno = 0;
	u = strtoull(b->s, &end, base);
	if (errno || u > (unsigned long long)9223372036854775807LL)
		return fail(ps, "integer out of range (64 bits)");
	v->type = TOML_INTEGER;
	v->i = (long long)u;
	return 0;
}

static int special_float(struct parser *ps, struct toml_value *v, int sign)
{
	if (ps->end - ps->p >= 3 && !memcmp(ps->p, "inf", 3)) {
		v->f = sign < 0 ? -INFINITY : INFINITY;
	} else if (ps->end - ps->p >= 3 && !memcmp(ps->p, "nan", 3)) {
		v->f = sign < 0 ? -NAN : NAN;
	} else {
		return fail(ps, "expected a value");
	}
	ps->p += 3;
	v->type = TOML_FLOAT;
	return 0;
}

/* A decimal integer or a float; the sign is already in b. */
static int decimal(struct parser *ps, struct toml_value *v, struct buf *b)
{
	const char *first = ps->p;
	int is_float = 0;
	char *end;

	if (digits(ps, b, is_digit, "a number") < 0)
		return -1;
	if (*first == '0' && ps->p - first > 1)
		return fail_at(ps, first, "leading zeros are not allowed in a number");
	if (peek(ps, 0) == '.') {
		is_float = 1;
		buf_putc(b, *ps->p++);
		if (digits(ps, b, is_digit, "a fraction") < 0)
			return -1;
	}
	if (peek(ps, 0) == 'e' || peek(ps, 0) == 'E') {
		is_float = 1;
		buf_putc(b, *ps->p++);
		if (peek(ps, 0) == '+' || peek(ps, 0) == '-')
			buf_putc(b, *ps->p++);
		if (digits(ps, b, is_digit, "an exponent") < 0)
			return -1;
	}
	errno = 0;
	if (is_float) {
		v->type = TOML_FLOAT;
		v->f = strtod(b->s, &end);
		return 0;
	}
	v->type = TOML_INTEGER;
	v->i = strtoll(b->s, &end, 10);
	if (errno == ERANGE)
		return fail_at(ps, first, "integer out of range (64 bits)");
	return 0;
}

static int two_digits(const char *s)
{
	return is_digit((unsigned char)s[0]) && is_digit((unsigned char)s[1]) ?
	       (s[0] - '0') * 10 + (s[1] - '0') : -1;
}

static int days_in(int year, int month)
{
	static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int leap = (year % 4 == 0 && year % 100) || year % 400 == 0;

	return month == 2 && leap ? 29 : days[month - 1];
}

/* YYYY-MM-DD at ps->p into b. */
static int date_part(struct parser *ps, struct buf *b)
{
	const char *s = ps->p;
	int y, m, d;

	if (ps->end - s < 10 || !is_digit(s[0]) || !is_digit(s[1]) || s[4] != '-' ||
	    s[7] != '-' || (y = two_digits(s) * 100 + two_digits(s + 2)) < 0 ||
	    two_digits(s + 2) < 0 || (m = two_digits(s + 5)) < 0 ||
	    (d = two_digits(s + 8)) < 0)
		return fail(ps, "invalid date (expected YYYY-MM-DD)");
	if (m < 1 || m > 12 || d < 1 || d > days_in(y, m))
		return fail(ps, "invalid date: no such day");
	buf_add(b, s, 10);
	ps->p += 10;
	return 0;
}

/* HH:MM:SS[.frac] at ps->p into b. */
static int time_part(struct parser *ps, struct buf *b)
{
	const char *s = ps->p;
	int h, m, sec;

	if (ps->end - s < 8 || s[2] != ':' || s[5] != ':' ||
	    (h = two_digits(s)) < 0 || (m = two_digits(s + 3)) < 0 ||
	    (sec = two_digits(s + 6)) < 0)
		return fail(ps, "invalid time (expected HH:MM:SS)");
	if (h > 23 || m > 59 || sec > 60)
		return fail(ps, "invalid time: out of range");
	buf_add(b, s, 8);
	ps->p += 8;
	if (peek(ps, 0) == '.') {
		buf_putc(b, *ps->p++);
		if (!is_digit(peek(ps, 0)))
			return fail(ps, "expected digits after the decimal point of a time");
		while (is_digit(peek(ps, 0)))
			buf_putc(b, *ps->p++);
	}
	return 0;
}

static int offset_part(struct parser *ps, struct buf *b)
{
	const char *s = ps->p;
	int h, m;

	if (*s == 'Z' || *s == 'z') {
		buf_putc(b, 'Z');
		ps->p++;
		return 0;
	}
	if (ps->end - s < 6 || s[3] != ':' || (h = two_digits(s + 1)) < 0 ||
	    (m = two_digits(s + 4)) < 0)
		return fail(ps, "invalid time offset (expected Z or +HH:MM)");
	if (h > 23 || m > 59)
		return fail(ps, "invalid time offset: out of range");
	buf_add(b, s, 6);
	ps->p += 6;
	return 0;
}

static int datetime(struct parser *ps, struct toml_value *v)
{
	struct buf *b = &ps->scratch;

	b->len = 0;
	if (peek(ps, 2) == ':') {
		if (time_part(ps, b) < 0)
			return -1;
		v->type = TOML_TIME_LOCAL;
		goto out;
	}
	if (date_part(ps, b) < 0)
		return -1;
	v->type = TOML_DATE_LOCAL;
	/* a space joins a time only when one follows: "1979-05-27 # x" is a date */
	if (peek(ps, 0) == 'T' || peek(ps, 0) == 't' ||
	    (peek(ps, 0) == ' ' && is_digit(peek(ps, 1)) && is_digit(peek(ps, 2)) &&
	     peek(ps, 3) == ':')) {
		ps->p++;
		buf_putc(b, 'T');
		if (time_part(ps, b) < 0)
			return -1;
		v->type = TOML_DATETIME_LOCAL;
		if (peek(ps, 0) == 'Z' || peek(ps, 0) == 'z' || peek(ps, 0) == '+' ||
		    peek(ps, 0) == '-') {
			if (offset_part(ps, b) < 0)
				return -1;
			v->type = TOML_DATETIME;
		}
	}
out:
	v->len = b->len;
	v->str = arena_strndup(ps->arena, b->s, b->len);
	return 0;
}

static int number_or_date(struct parser *ps, struct toml_value *v)
{
	struct buf *b = &ps->scratch;
	int c = peek(ps, 0);

	if (is_digit(c) && is_digit(peek(ps, 1)) &&
	    ((is_digit(peek(ps, 2)) && is_digit(peek(ps, 3)) && peek(ps, 4) == '-') ||
	     peek(ps, 2) == ':'))
		return datetime(ps, v);
	if (c == '0' && (peek(ps, 1) == 'x' || peek(ps, 1) == 'o' || peek(ps, 1) == 'b'))
		return radix_integer(ps, v);
	b->len = 0;
	if (c == '+' || c == '-') {
		buf_putc(b, (char)c);
		ps->p++;
		if (peek(ps, 0) == 'i' || peek(ps, 0) == 'n')
			return special_float(ps, v, c == '-' ? -1 : 1);
	}
	if (c == 'i' || c == 'n')
		return special_float(ps, v, 1);
	return decimal(ps, v, b);
}

/* ---- arrays, inline tables, values ---- */

static struct toml_value *parse_value(struct parser *ps);
static int insert_keyval(struct parser *ps, struct toml_value *t,
			 struct key *k, struct toml_value *v, int dotted_pending);

static int enter(struct parser *ps)
{
	if (++ps->depth > ps->lim->max_depth)
		return fail(ps, "nested too deeply (more than %u levels)",
			    ps->lim->max_depth);
	return 0;
}

static int parse_array(struct parser *ps, struct toml_value *a)
{
	ps->p++;	/* '[' */
	for (;;) {
		struct toml_value *item;

		if (skip_ws_nl(ps) < 0)
			return -1;
		if (peek(ps, 0) == ']') {
			ps->p++;
			return 0;
		}
		if (!(item = parse_value(ps)))
			return -1;
		array_add(ps, a, item);
		if (skip_ws_nl(ps) < 0)
			return -1;
		if (peek(ps, 0) == ',') {
			ps->p++;
			continue;
		}
		if (peek(ps, 0) == ']') {
			ps->p++;
			return 0;
		}
		return fail(ps, at_end(ps) ? "unterminated array" :
			    "expected ',' or ']' in an array");
	}
}

/* { k = v, ... } on one line, no trailing comma (TOML 1.0). */
static int parse_inline_table(struct parser *ps, struct toml_value *t)
{
	ps->p++;	/* '{' */
	skip_ws(ps);
	if (peek(ps, 0) == '}') {
		ps->p++;
		return 0;
	}
	for (;;) {
		struct key k;
		struct toml_value *v;

		key_init(&k);
		skip_ws(ps);
		if (parse_key(ps, &k) < 0) {
			key_release(&k);
			return -1;
		}
		if (peek(ps, 0) != '=') {
			key_release(&k);
			return fail(ps, "expected '=' after a key");
		}
		ps->p++;
		skip_ws(ps);
		/* the value sits under the key's other parts: they count
		 * towards the depth of what nests in it */
		ps->depth += (unsigned)k.n - 1;
		v = parse_value(ps);
		ps->depth -= (unsigned)k.n - 1;
		if (!v) {
			key_release(&k);
			return -1;
		}
		if (insert_keyval(ps, t, &k, v, 0) < 0) {
			key_release(&k);
			return -1;
		}
		key_release(&k);
		skip_ws(ps);
		if (peek(ps, 0) == ',') {
			ps->p++;
			skip_ws(ps);
			if (peek(ps, 0) == '}')
				return fail(ps, "trailing comma in an inline table");
			continue;
		}
		if (peek(ps, 0) == '}') {
			ps->p++;
			return 0;
		}
		return fail(ps, newline_len(ps) ? "an inline table must be on one line" :
			    "expected ',' or '}' in an inline table");
	}
}

/* A value that is no TOML value (>=3.10): name it, and what it needs. */
static int bare_word(struct parser *ps)
{
	char word[KEY_SHOWN + 1];
	size_t n = 0;

	while (ps->p + n < ps->end && n < 24 && ps->p[n] != ' ' && ps->p[n] != '\t' &&
	       ps->p[n] != '\n' && ps->p[n] != '\r' && ps->p[n] != '#' && ps->p[n] != ',')
		n++;
	while (n && ps->p + n < ps->end && ((unsigned char)ps->p[n] & 0xc0) == 0x80)
		n--;	/* cut on a character boundary */
	shown(ps->p, n, word, sizeof(word));
	return fail(ps, "invalid value '%s' (a string must be quoted: \"%s\")", word, word);
}

static struct toml_value *parse_value(struct parser *ps)
{
	struct toml_value *v;
	int c = peek(ps, 0), rc;

	if (!(v = value_new(ps, TOML_STRING, ps->p)))
		return NULL;
	switch (c) {
	case '"':
	case '\'':
		ps->scratch.len = 0;
		rc = parse_string(ps, &ps->scratch, 1);
		if (rc == 0) {
			v->len = ps->scratch.len;
			v->str = arena_strndup(ps->arena, ps->scratch.s, v->len);
		}
		break;
	case '[':
		v->type = TOML_ARRAY;
		rc = enter(ps) < 0 ? -1 : parse_array(ps, v);
		ps->depth--;
		v->flags |= F_FROZEN;
		break;
	case '{':
		v->type = TOML_TABLE;
		rc = enter(ps) < 0 ? -1 : parse_inline_table(ps, v);
		ps->depth--;
		v->flags |= F_FROZEN | F_DEFINED;
		break;
	case 't':
	case 'f': {
		const char *word = c == 't' ? "true" : "false";
		size_t n = strlen(word);

		v->type = TOML_BOOL;
		if ((size_t)(ps->end - ps->p) >= n && !memcmp(ps->p, word, n) &&
		    !bare_key_char(peek(ps, n))) {
			v->b = c == 't';
			ps->p += n;
			rc = 0;
		} else {
			rc = fail(ps, "expected a value");
		}
		break;
	}
	default:
		if (is_digit(c) || c == '+' || c == '-' || c == 'i' || c == 'n')
			rc = number_or_date(ps, v);
		else if (c < 0 || c == '\n' || c == '\r' || c == '#')
			rc = fail(ps, "expected a value");
		else
			rc = bare_word(ps);
	}
	return rc < 0 ? NULL : v;	/* v stays in the tree's memory, unused */
}

/* ---- tables ---- */

static void pending_add(struct parser *ps, struct toml_value *t)
{
	if (t->flags & F_PENDING)
		return;
	t->flags |= F_PENDING;
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): an array of pointers */
	grow(&ps->pending, sizeof(*ps->pending), &ps->pending_cap, ps->npending + 1);
	ps->pending[ps->npending++] = t;
}

/* A header ends the section: what its dotted keys opened is now defined. */
static void pending_close(struct parser *ps)
{
	size_t i;

	for (i = 0; i < ps->npending; i++)
		ps->pending[i]->flags = (ps->pending[i]->flags & ~(unsigned)F_PENDING) |
					F_DEFINED;
	ps->npending = 0;
}

static struct toml_value *new_table(struct parser *ps, struct toml_value *parent,
				    const struct key_part *k)
{
	struct toml_value *t = value_new(ps, TOML_TABLE, ps->p);

	if (!t)
		return NULL;
	t->line = k->line;
	t->col = k->col;
	table_add(ps, parent, k, t);
	return t;
}

/* Key k = v into table t (on error v stays unused in the tree's memory).  Dotted keys
 * open tables on the way; in a section (dotted_pending) they may not
 * enter a table defined elsewhere, and they become defined at the next
 * header. */
static int insert_keyval(struct parser *ps, struct toml_value *t,
			 struct key *k, struct toml_value *v, int dotted_pending)
{
	char name[KEY_SHOWN + 1];
	size_t i;

	for (i = 0; i + 1 < k->n; i++) {
		struct toml_value *child = table_lookup(t, &k->v[i]);

		if (!child) {
			if (!(child = new_table(ps, t, &k->v[i])))
				return -1;
		} else if (child->type != TOML_TABLE || (child->flags & F_FROZEN) ||
			   (child->flags & F_DEFINED)) {
			return fail_at(ps, k->v[i].at,
				       child->type == TOML_TABLE ?
				       "dotted key '%s' reaches into a table defined elsewhere" :
				       "dotted key '%s' reaches into a value that is not a table",
				       shown(k->v[i].s, k->v[i].len, name, sizeof(name)));
		}
		if (dotted_pending)
			pending_add(ps, child);
		t = child;
	}
	if (t->flags & F_FROZEN)
		return fail(ps, "cannot add a key to an inline table");
	if (table_lookup(t, &k->v[k->n - 1])) {
		const struct key_part *last = &k->v[k->n - 1];

		return fail_at(ps, last->at, "duplicate key '%s'",
			       shown(last->s, last->len, name, sizeof(name)));
	}
	{
		/* the key/value pair is where its key starts, not its last part */
		struct key_part last = k->v[k->n - 1];

		last.line = k->v[0].line;
		last.col = k->v[0].col;
		table_add(ps, t, &last, v);
	}
	return 0;
}

/* The table a [header] or [[header]] at ps->p names: *current. */
static int parse_header(struct parser *ps, struct toml_value *root,
			struct toml_value **current)
{
	char name[KEY_SHOWN + 1];
	struct key k;
	const char *at = ps->p;
	int aot = peek(ps, 1) == '[';
	struct toml_value *t = root, *child;
	const struct key_part *last;
	size_t i;
	int rc = -1;

	key_init(&k);
	pending_close(ps);
	ps->p += aot ? 2 : 1;
	skip_ws(ps);
	if (parse_key(ps, &k) < 0)
		goto out;
	if (peek(ps, 0) != ']' || (aot && peek(ps, 1) != ']')) {
		fail_record(ps, ps->p, aot ? "expected ']]' after the table name" :
			    "expected ']' after the table name");
		goto out;
	}
	ps->p += aot ? 2 : 1;
	for (i = 0; i + 1 < k.n; i++) {
		child = table_lookup(t, &k.v[i]);
		if (!child) {
			if (!(child = new_table(ps, t, &k.v[i])))
				goto out;
		} else if (child->type == TOML_ARRAY && (child->flags & F_AOT)) {
			child = child->items[child->n - 1];
		} else if (child->type != TOML_TABLE || (child->flags & F_FROZEN)) {
			fail_record(ps, at, "'%s' is not a table that can be extended",
				    shown(k.v[i].s, k.v[i].len, name, sizeof(name)));
			goto out;
		}
		t = child;
	}
	last = &k.v[k.n - 1];
	child = table_lookup(t, last);
	if (aot) {
		struct toml_value *elem;

		if (!child) {
			if (!(child = value_new(ps, TOML_ARRAY, at)))
				goto out;
			child->flags = F_AOT | F_DEFINED;
			table_add(ps, t, last, child);
		} else if (child->type != TOML_ARRAY || !(child->flags & F_AOT)) {
			fail_record(ps, at, "'%s' is already defined and is not an array of "
				    "tables", shown(last->s, last->len, name, sizeof(name)));
			goto out;
		}
		if (!(elem = value_new(ps, TOML_TABLE, at)))
			goto out;
		elem->flags = F_DEFINED;
		array_add(ps, child, elem);
		*current = elem;
	} else {
		if (!child) {
			if (!(child = new_table(ps, t, last)))
				goto out;
		} else if (child->type != TOML_TABLE || (child->flags & (F_DEFINED | F_FROZEN))) {
			fail_record(ps, at, "table '%s' is defined twice",
				    shown(last->s, last->len, name, sizeof(name)));
			goto out;
		}
		child->flags |= F_DEFINED;
		child->line = ps->line;
		child->col = (unsigned)(at - ps->line_start) + 1;
		*current = child;
	}
	rc = end_of_line(ps, "a table header");
out:
	key_release(&k);
	return rc;
}

static int parse_keyval_line(struct parser *ps, struct toml_value *current)
{
	struct key k;
	struct toml_value *v;
	int rc = -1;

	key_init(&k);
	if (parse_key(ps, &k) < 0)
		goto out;
	if (peek(ps, 0) != '=') {
		fail_record(ps, ps->p, "expected '=' after a key");
		goto out;
	}
	ps->p++;
	skip_ws(ps);
	if (!(v = parse_value(ps)))
		goto out;
	if (insert_keyval(ps, current, &k, v, 1) < 0)
		goto out;
	rc = end_of_line(ps, "a value");
out:
	key_release(&k);
	return rc;
}

static int parse_document(struct parser *ps, struct toml_value *root)
{
	struct toml_value *current = root;

	while (!at_end(ps)) {
		int c, n;

		skip_ws(ps);
		c = peek(ps, 0);
		if (c < 0)
			break;
		if ((n = newline_len(ps))) {
			take_newline(ps, n);
			continue;
		}
		if (c == '#') {
			if (end_of_line(ps, "a comment") < 0)
				return -1;
			continue;
		}
		if (c == '[') {
			if (parse_header(ps, root, &current) < 0)
				return -1;
			continue;
		}
		if (parse_keyval_line(ps, current) < 0)
			return -1;
	}
	return 0;
}

int toml_parse(const char *buf, size_t len, const struct toml_limits *lim,
	       struct toml_value **root, struct parse_error *err)
{
	struct parser ps;
	const char *what;
	unsigned line, col;
	int rc;

	memset(err, 0, sizeof(*err));
	*root = NULL;
	/* TOML is UTF-8; text_check also refuses NUL, which TOML forbids */
	if (text_check(buf, len, &line, &col, &what) < 0) {
		parse_error_set(err, line, col, "%s (TOML must be UTF-8 text)", what);
		return -1;
	}
	memset(&ps, 0, sizeof(ps));
	ps.buf = ps.p = ps.line_start = buf;
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		ps.p = ps.line_start = buf + 3;	/* a byte-order mark */
	ps.end = buf + len;
	ps.line = 1;
	ps.lim = lim ? lim : &toml_default_limits;
	ps.err = err;
	ps.arena = arena_new();
	if (!(*root = value_new(&ps, TOML_TABLE, buf))) {
		arena_free(ps.arena);
		return -1;
	}
	(*root)->flags = F_DEFINED;
	(*root)->arena = ps.arena;
	rc = parse_document(&ps, *root);
	free(ps.pending);
	buf_release(&ps.scratch);
	if (rc < 0) {
		toml_free(*root);
		*root = NULL;
	}
	return rc;
}
