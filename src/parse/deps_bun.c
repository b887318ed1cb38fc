/* deps_bun.c - bun.lock, bun's text lockfile (bun >= 1.2), as a set of
 * packages and workspaces (see deps.h); and the two small rules bun uses
 * to judge an installed package.json.  Pure: bytes in, values out.
 *
 * bun reads bun.lock with its package.json parser (src/install/lockfile.zig
 * loadFromBytes: JSON.parsePackageJSONUTF8, src/json_parser.zig:
 * JSONLikeParser(.{ .is_json, .allow_comments, .allow_trailing_commas })),
 * which is JavaScript's lexer in JSON mode, not JSON: cJSON refuses what bun
 * writes itself (a comma after the last member).  So bun.lock is read here
 * by a small reader of that dialect, as bun 1.4.5 (tests/managers) was seen
 * to accept and refuse it (tests/unit/test_deps_bun.c has a row for each):
 *   accepted  // and block comments; a comma after the last member or item;
 *             'single' or "double" quoted strings and keys; the escapes
 *             \" \' \\ \/ \b \f \n \r \t \v \xHH \uXXXX (a lone surrogate
 *             too); numbers with a leading '-', hex 0x, octal 0o and
 *             legacy 0NN, binary 0b, '_' separators, ".5", "5.", exponents;
 *             a UTF-8 byte order mark; whatever follows the document once
 *             its next token is whole (bun's lexer reads one token ahead);
 *             duplicate keys, the first one winning (Expr.get)
 *   refused   unquoted keys, `backquoted` strings, '+', NaN, Infinity,
 *             undefined, an empty item ([1,,2], {,}), a control character
 *             or a line break inside a string, other escapes (\q, \0,
 *             \u{41}, a backslash before a line break), an unterminated
 *             comment or string anywhere, including just after the document
 * Then bun.lock's own rules (src/install/lockfile/bun.lock.rs
 * parse_into_binary_lockfile), each with bun's message where it has one.
 */
#include "deps.h"
#include "semver.h"
#include "util.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the reader of bun's JSON dialect ---- */

enum jt { JT_NULL, JT_BOOL, JT_NUM, JT_STR, JT_ARR, JT_OBJ };

#define J_NONE SIZE_MAX
#define J_DEPTH 256

struct jnode {
	enum jt t;
	unsigned line, col;	/* where the value starts */
	unsigned kline, kcol;	/* where its key starts (a member) */
	char *key;		/* a member's key, or NULL */
	char *s;		/* JT_STR */
	size_t slen;
	double num;
	int b;
	size_t first, last, next, n;	/* children; the next sibling */
};

struct jr {
	const char *p, *start, *end;
	struct jnode *v;
	size_t n, cap;
	struct parse_error *err;
	int failed;
	unsigned depth;
	/* the last place turned into a line and column: nodes come in the
	 * text's order, so each is counted from the one before (text_pos
	 * from the start for each would make a big file quadratic) */
	const char *pos_at;
	unsigned pos_line, pos_col;
};

/* text_pos's line and column of at, counted on from the last one asked. */
static void jr_pos(struct jr *r, const char *at, unsigned *line, unsigned *col)
{
	const char *p;

	if (!r->pos_at || at < r->pos_at) {
		r->pos_at = r->start;
		r->pos_line = r->pos_col = 1;
	}
	for (p = r->pos_at; p < at && p < r->end; p++) {
		if (*p == '\n')
			r->pos_line++, r->pos_col = 1;
		else if (((unsigned char)*p & 0xc0) != 0x80)
			r->pos_col++;
	}
	r->pos_at = p;
	*line = r->pos_line;
	*col = r->pos_col;
}

static void jr_fail_at(struct jr *r, const char *at, const char *msg, const char *arg)
{
	unsigned line, col;

	if (r->failed)
		return;
	r->failed = 1;
	jr_pos(r, at, &line, &col);
	parse_error_set(r->err, line, col, "%s%s", msg, arg ? arg : "");
}

static size_t jr_node(struct jr *r, enum jt t, const char *at)
{
	struct jnode *j;

	grow(&r->v, sizeof(*r->v), &r->cap, r->n + 1);
	j = &r->v[r->n];
	memset(j, 0, sizeof(*j));
	j->t = t;
	j->first = j->last = j->next = J_NONE;
	jr_pos(r, at, &j->line, &j->col);
	return r->n++;
}

static void jr_release(struct jr *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		free(r->v[i].key);
		free(r->v[i].s);
	}
	free(r->v);
	r->v = NULL;
	r->n = r->cap = 0;
}

/* Whitespace and comments (js_lexer: ASCII blanks, NBSP, the BOM, LS,
 * PS); an unterminated block comment is bun's error. */
static void jr_skip(struct jr *r)
{
	while (r->p < r->end && !r->failed) {
		unsigned char c = (unsigned char)*r->p;

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') {
			r->p++;
		} else if (c == 0xc2 && r->end - r->p >= 2 && (unsigned char)r->p[1] == 0xa0) {
			r->p += 2;
		} else if (c == 0xef && r->end - r->p >= 3 && (unsigned char)r->p[1] == 0xbb &&
			   (unsigned char)r->p[2] == 0xbf) {
			r->p += 3;
		} else if (c == 0xe2 && r->end - r->p >= 3 && (unsigned char)r->p[1] == 0x80 &&
			   ((unsigned char)r->p[2] == 0xa8 || (unsigned char)r->p[2] == 0xa9)) {
			r->p += 3;
		} else if (c == '/' && r->end - r->p >= 2 && r->p[1] == '/') {
			while (r->p < r->end && *r->p != '\n')
				r->p++;
		} else if (c == '/' && r->end - r->p >= 2 && r->p[1] == '*') {
			const char *at = r->p;

			r->p += 2;
			while (r->p < r->end && !(*r->p == '*' && r->end - r->p >= 2 && r->p[1] == '/'))
				r->p++;
			if (r->p >= r->end) {
				jr_fail_at(r, at, "expected \"*/\" to terminate multi-line comment",
					   NULL);
				return;
			}
			r->p += 2;
		} else {
			return;
		}
	}
}

static void put_utf8(struct buf *b, unsigned long c)
{
	if (c < 0x80) {
		buf_putc(b, (char)c);
	} else if (c < 0x800) {
		buf_putc(b, (char)(0xc0 | (c >> 6)));
		buf_putc(b, (char)(0x80 | (c & 0x3f)));
	} else {
		buf_putc(b, (char)(0xe0 | (c >> 12)));
		buf_putc(b, (char)(0x80 | ((c >> 6) & 0x3f)));
		buf_putc(b, (char)(0x80 | (c & 0x3f)));
	}
}

static int hexn(const char *p, const char *end, int n, unsigned long *out)
{
	int i;

	*out = 0;
	if (end - p < n)
		return -1;
	for (i = 0; i < n; i++) {
		int d = hex_digit((unsigned char)p[i]);

		if (d < 0)
			return -1;
		*out = *out * 16 + (unsigned long)d;
	}
	return 0;
}

/* A quoted string at r->p into *out (NUL-terminated, *len bytes). */
static int jr_string(struct jr *r, char **out, size_t *len)
{
	const char *at = r->p;
	char q = *r->p++;
	struct buf b = BUF_INIT;
	unsigned long c;

	for (;;) {
		if (r->p >= r->end || *r->p == '\n' || *r->p == '\r') {
			jr_fail_at(r, at, "unterminated string literal", NULL);
			goto bad;
		}
		if (*r->p == q) {
			r->p++;
			break;
		}
		if ((unsigned char)*r->p < 0x20) {
			jr_fail_at(r, r->p, "syntax error: a control character in a string", NULL);
			goto bad;
		}
		if (*r->p != '\\') {
			buf_putc(&b, *r->p++);
			continue;
		}
		if (r->end - r->p < 2) {
			jr_fail_at(r, at, "unterminated string literal", NULL);
			goto bad;
		}
		switch (r->p[1]) {
		case '"': case '\'': case '\\': case '/':
			buf_putc(&b, r->p[1]);
			r->p += 2;
			break;
		case 'b': buf_putc(&b, '\b'); r->p += 2; break;
		case 'f': buf_putc(&b, '\f'); r->p += 2; break;
		case 'n': buf_putc(&b, '\n'); r->p += 2; break;
		case 'r': buf_putc(&b, '\r'); r->p += 2; break;
		case 't': buf_putc(&b, '\t'); r->p += 2; break;
		case 'v': buf_putc(&b, '\v'); r->p += 2; break;
		case 'x':
			if (hexn(r->p + 2, r->end, 2, &c) < 0)
				goto bad_escape;
			put_utf8(&b, c);
			r->p += 4;
			break;
		case 'u':
			if (hexn(r->p + 2, r->end, 4, &c) < 0)
				goto bad_escape;
			put_utf8(&b, c);	/* a lone surrogate as its 3 bytes */
			r->p += 6;
			break;
		default:
			goto bad_escape;
		}
	}
	*len = b.len;
	*out = b.s ? buf_detach(&b) : xstrdup("");
	return 0;
bad_escape:
	jr_fail_at(r, r->p, "syntax error: an escape bun does not read", NULL);
bad:
	buf_release(&b);
	return -1;
}

static int digit_in(char c, int base)
{
	int d = hex_digit((unsigned char)c);

	return d >= 0 && d < base && (base == 16 || (c >= '0' && c <= '9'));
}

/* A number as JavaScript's lexer reads one (a '-' before it is the
 * parser's, which JSON mode allows; '+' it refuses). */
static int jr_number(struct jr *r, double *out)
{
	const char *at = r->p;
	int neg = 0, base = 10;
	char tmp[128] = { 0 };
	size_t k = 0;

	if (*r->p == '-') {
		neg = 1;
		r->p++;
	}
	if (r->end - r->p >= 2 && r->p[0] == '0' &&
	    (r->p[1] == 'x' || r->p[1] == 'X' || r->p[1] == 'o' || r->p[1] == 'O' ||
	     r->p[1] == 'b' || r->p[1] == 'B')) {
		base = (r->p[1] | 0x20) == 'x' ? 16 : (r->p[1] | 0x20) == 'o' ? 8 : 2;
		r->p += 2;
	} else if (r->end - r->p >= 2 && r->p[0] == '0' && r->p[1] >= '0' && r->p[1] <= '7') {
		base = 8;	/* legacy octal: 02 */
		r->p++;
	}
	if (base != 10) {
		double v = 0;
		const char *d0 = r->p;

		while (r->p < r->end && (digit_in(*r->p, base) || (*r->p == '_' && r->p > d0))) {
			if (*r->p != '_')
				v = v * base + hex_digit((unsigned char)*r->p);
			r->p++;
		}
		if (r->p == d0) {
			jr_fail_at(r, at, "syntax error: a number without digits", NULL);
			return -1;
		}
		*out = neg ? -v : v;
		return 0;
	}
	while (r->p < r->end && k < sizeof(tmp) - 1 &&
	       ((*r->p >= '0' && *r->p <= '9') || *r->p == '_' || *r->p == '.' ||
		*r->p == 'e' || *r->p == 'E' ||
		((*r->p == '+' || *r->p == '-') && k && (tmp[k - 1] == 'e' || tmp[k - 1] == 'E')))) {
		if (*r->p != '_')
			tmp[k++] = *r->p;
		r->p++;
	}
	tmp[k] = 0;
	if (!k || !strcmp(tmp, ".") || tmp[0] == 'e' || tmp[0] == 'E') {
		jr_fail_at(r, at, "syntax error: a number without digits", NULL);
		return -1;
	}
	{
		char *e;
		double v = strtod(tmp, &e);

		if (*e) {
			jr_fail_at(r, at, "syntax error: a malformed number", NULL);
			return -1;
		}
		*out = neg ? -v : v;
	}
	return 0;
}

static size_t jr_value(struct jr *r);

static void jr_link(struct jr *r, size_t parent, size_t child)
{
	if (r->v[parent].last == J_NONE)
		r->v[parent].first = child;
	else
		r->v[r->v[parent].last].next = child;
	r->v[parent].last = child;
	r->v[parent].n++;
}

/* What the lexer found where a key or a value was expected, for bun's
 * "expected string but found X". */
static const char *found_what(const struct jr *r, char *buf, size_t size)
{
	size_t n = 0;

	if (r->p >= r->end)
		return "end of file";
	while (r->p + n < r->end && n < 20 &&
	       ((r->p[n] >= 'a' && r->p[n] <= 'z') || (r->p[n] >= 'A' && r->p[n] <= 'Z') ||
		(r->p[n] >= '0' && r->p[n] <= '9') || r->p[n] == '_' || r->p[n] == '$'))
		n++;
	if (!n && ((unsigned char)*r->p < 0x20 || *r->p == 0x7f || (unsigned char)*r->p >= 0x80)) {
		snprintf(buf, size, "byte 0x%02x", (unsigned char)*r->p);
		return buf;
	}
	if (!n)
		n = 1;
	snprintf(buf, size, "\"%.*s\"", (int)n, r->p);
	return buf;
}

/* '{' or '[' at r->p: members or items, a comma after the last allowed. */
static size_t jr_container(struct jr *r, int obj)
{
	size_t self = jr_node(r, obj ? JT_OBJ : JT_ARR, r->p);
	char close = obj ? '}' : ']';
	char what[32];

	if (++r->depth > J_DEPTH) {
		jr_fail_at(r, r->p, "nested more than 256 deep", NULL);
		return J_NONE;
	}
	r->p++;
	for (;;) {
		const char *kat;
		char *key = NULL;
		size_t klen, child;
		unsigned key_line = 0, key_col = 0;

		jr_skip(r);
		if (r->failed)
			return J_NONE;
		if (r->p < r->end && *r->p == close) {
			r->p++;
			break;
		}
		kat = r->p;
		if (obj) {
			if (r->p >= r->end || (*r->p != '"' && *r->p != '\'')) {
				jr_fail_at(r, r->p, "expected string but found ",
					   found_what(r, what, sizeof(what)));
				return J_NONE;
			}
			jr_pos(r, kat, &key_line, &key_col);
			if (jr_string(r, &key, &klen) < 0)
				return J_NONE;
			jr_skip(r);
			if (r->p >= r->end || *r->p != ':') {
				free(key);
				jr_fail_at(r, r->p, "expected \":\" but found ",
					   found_what(r, what, sizeof(what)));
				return J_NONE;
			}
			r->p++;
			jr_skip(r);
		}
		child = jr_value(r);
		if (child == J_NONE) {
			free(key);
			return J_NONE;
		}
		r->v[child].key = key;
		if (obj) {
			/* the key was before its value: counted again from the
			 * start only if it is behind the last place asked */
			r->v[child].kline = key_line;
			r->v[child].kcol = key_col;
		}
		jr_link(r, self, child);
		jr_skip(r);
		if (r->failed)
			return J_NONE;
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			continue;
		}
		if (r->p < r->end && *r->p == close) {
			r->p++;
			break;
		}
		jr_fail_at(r, r->p, obj ? "expected \"}\" but found " : "expected \"]\" but found ",
			   found_what(r, what, sizeof(what)));
		return J_NONE;
	}
	r->depth--;
	return self;
}

static int word_at(const struct jr *r, const char *w)
{
	size_t n = strlen(w);
	char c;

	if ((size_t)(r->end - r->p) < n || memcmp(r->p, w, n))
		return 0;
	c = r->p + n < r->end ? r->p[n] : 0;
	return !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		 c == '_' || c == '$');
}

static size_t jr_value(struct jr *r)
{
	size_t self;
	char what[32];

	jr_skip(r);
	if (r->failed)
		return J_NONE;
	if (r->p >= r->end) {
		jr_fail_at(r, r->p, "unexpected end of file", NULL);
		return J_NONE;
	}
	switch (*r->p) {
	case '{':
		return jr_container(r, 1);
	case '[':
		return jr_container(r, 0);
	case '"':
	case '\'':
		self = jr_node(r, JT_STR, r->p);
		if (jr_string(r, &r->v[self].s, &r->v[self].slen) < 0)
			return J_NONE;
		return self;
	default:
		break;
	}
	if (*r->p == '-' || *r->p == '.' || (*r->p >= '0' && *r->p <= '9')) {
		self = jr_node(r, JT_NUM, r->p);
		return jr_number(r, &r->v[self].num) < 0 ? J_NONE : self;
	}
	if (word_at(r, "true") || word_at(r, "false")) {
		self = jr_node(r, JT_BOOL, r->p);
		r->v[self].b = *r->p == 't';
		r->p += r->v[self].b ? 4 : 5;
		return self;
	}
	if (word_at(r, "null")) {
		self = jr_node(r, JT_NULL, r->p);
		r->p += 4;
		return self;
	}
	jr_fail_at(r, r->p, "unexpected ", found_what(r, what, sizeof(what)));
	return J_NONE;
}

/* The document: one value; of what follows, the next token must be whole
 * (bun's lexer has read it before the parser returns). */
static size_t jr_parse(struct jr *r)
{
	size_t root = jr_value(r);

	if (root == J_NONE)
		return J_NONE;
	jr_skip(r);
	if (!r->failed && r->p < r->end && (*r->p == '"' || *r->p == '\'')) {
		char *s;
		size_t n;

		if (jr_string(r, &s, &n) == 0)
			free(s);
	}
	return r->failed ? J_NONE : root;
}

/* An object's first member named key (bun's Expr.get), or NULL. */
static const struct jnode *jget(const struct jr *r, const struct jnode *o, const char *key)
{
	size_t i;

	if (!o || o->t != JT_OBJ)
		return NULL;
	for (i = o->first; i != J_NONE; i = r->v[i].next)
		if (!strcmp(r->v[i].key, key))
			return &r->v[i];
	return NULL;
}

static const struct jnode *jkid(const struct jr *r, const struct jnode *a, size_t k)
{
	size_t i;

	for (i = a->first; i != J_NONE && k; i = r->v[i].next)
		k--;
	return i == J_NONE ? NULL : &r->v[i];
}

static const struct jnode *jnext(const struct jr *r, const struct jnode *j)
{
	return j->next == J_NONE ? NULL : &r->v[j->next];
}

static const struct jnode *jfirst(const struct jr *r, const struct jnode *j)
{
	return j->first == J_NONE ? NULL : &r->v[j->first];
}

/* ---- bun.lock ---- */

static int fail_at(struct parse_error *e, unsigned line, unsigned col, const char *msg,
		   const char *arg)
{
	char *clean = arg ? text_clean(arg) : NULL;	/* the file's text */

	parse_error_set(e, line, col, "%s%s%s%s", msg, arg ? " '" : "", arg ? clean : "",
			arg ? "'" : "");
	free(clean);
	return -1;
}

static int fail_node(struct parse_error *e, const struct jnode *j, const char *msg)
{
	return fail_at(e, j->line, j->col, msg, NULL);
}

static int fail_key(struct parse_error *e, const struct jnode *j, const char *msg)
{
	return fail_at(e, j->kline ? j->kline : j->line, j->kline ? j->kcol : j->col, msg, NULL);
}

/* The four groups a workspace or package lists (bun.lock.rs
 * WORKSPACE_DEPENDENCY_GROUPS), in its order. */
static const char *const groups[] = {
	"dependencies", "devDependencies", "optionalDependencies", "peerDependencies"
};

/* A workspace's dependency groups into w.  strict (bun.lock.rs
 * parse_append_dependencies): each group an object of strings, else an
 * error; else (a package.json, which bun warns about and installs the
 * rest of) what is not a string is left out. */
static int read_ws_deps(const struct jr *r, const struct jnode *o, struct bun_workspace *w,
			int strict, struct parse_error *e)
{
	size_t g;

	for (g = 0; g < ARRAY_SIZE(groups); g++) {
		const struct jnode *grp = jget(r, o, groups[g]), *d;

		if (!grp)
			continue;
		if (grp->t != JT_OBJ) {
			if (strict)
				return fail_node(e, grp, "expected an object");
			continue;
		}
		for (d = jfirst(r, grp); d; d = jnext(r, d)) {
			struct bun_dep *bd;

			if (d->t != JT_STR) {
				if (strict)
					return fail_node(e, d, "expected a string");
				continue;
			}
			grow(&w->deps, sizeof(*w->deps), &w->deps_cap, w->ndeps + 1);
			bd = &w->deps[w->ndeps++];
			bd->name = xstrdup(d->key);
			bd->spec = xstrdup(d->s);
			bd->group = (unsigned)g;
			bd->line = d->kline;
		}
	}
	return 0;
}

static int read_workspaces(const struct jr *r, const struct jnode *root, struct bun_lock *l,
			   struct parse_error *e)
{
	const struct jnode *wso = jget(r, root, "workspaces"), *w;
	int have_root = 0;

	if (!wso || wso->t != JT_OBJ)
		return fail_at(e, wso ? wso->line : root->line, wso ? wso->col : root->col,
			       "missing a workspaces object property", NULL);
	for (w = jfirst(r, wso); w; w = jnext(r, w)) {
		const struct jnode *name, *ver;
		struct bun_workspace *bw;

		if (w->t != JT_OBJ)
			return fail_node(e, w, "expected an object");
		name = jget(r, w, "name");
		/* a workspace is a folder of the repository (bun globs them from
		 * package.json's workspaces, below the root) */
		if (*w->key && !path_is_relative_inside(w->key))
			return fail_key(e, w, "invalid workspace path");
		if (!*w->key) {
			if (have_root++)
				return fail_key(e, w, "duplicate root package");
		} else if (!name || name->t != JT_STR) {
			return fail_node(e, name ? name : w, "expected a string name property");
		}
		if (name && name->t != JT_STR)
			return fail_node(e, name, "expected a string");
		ver = jget(r, w, "version");
		if (*w->key && ver) {
			struct semver sv;

			if (ver->t != JT_STR)
				return fail_node(e, ver, "expected a string version property");
			if (semver_parse(ver->s, SEMVER_LOOSE, &sv) < 0)
				return fail_node(e, ver, "invalid semver version");
			semver_release(&sv);
		}
		if (*w->key && strmap_get(&l->ws_names, name->s, strlen(name->s)) != STRMAP_NONE)
			return fail_at(e, w->kline, w->kcol, "duplicate workspace name", name->s);
		grow(&l->ws, sizeof(*l->ws), &l->ws_cap, l->nws + 1);
		bw = &l->ws[l->nws++];
		memset(bw, 0, sizeof(*bw));
		bw->path = xstrdup(w->key);
		bw->name = name && name->t == JT_STR ? xstrdup(name->s) : NULL;
		if (*w->key) {
			strmap_put(&l->ws_names, bw->name, strlen(bw->name), l->nws - 1);
			strmap_put(&l->ws_paths, bw->path, strlen(bw->path), l->nws - 1);
		}
		bw->version = ver && ver->t == JT_STR ? xstrdup(ver->s) : NULL;
		bw->line = w->kline;
		if (read_ws_deps(r, w, bw, 1, e) < 0)
			return -1;
	}
	if (!have_root)
		return fail_node(e, wso, "expected root package");
	return 0;
}

/* bun's Negatable(os or cpu) from a string or an array of strings
 * ("darwin", ["darwin", "linux"], "!win32", "none"): 1 when here matches
 * (npm's rule: any positive entry must name it, no negated one may). */
static int negatable_allows(const struct jr *r, const struct jnode *v, const char *here)
{
	const struct jnode *k;
	int positives = 0, hit = 0;

	if (!v || !here || !*here)
		return 1;
	if (v->t == JT_STR) {
		if (!strcmp(v->s, "none"))
			return 0;
		if (v->s[0] == '!')
			return strcmp(v->s + 1, here) != 0;
		return !strcmp(v->s, here);
	}
	if (v->t != JT_ARR)
		return 1;
	for (k = jfirst(r, v); k; k = jnext(r, k)) {
		if (k->t != JT_STR)
			continue;
		if (k->s[0] == '!') {
			if (!strcmp(k->s + 1, here))
				return 0;
		} else {
			positives++;
			hit |= !strcmp(k->s, here) || !strcmp(k->s, "any");
		}
	}
	return !positives || hit;
}

/* A resolution's kind from its text (bun's Resolution.fromTextLockfile:
 * the prefixes it knows; a version, else a tarball path or URL). */
static enum bun_kind res_kind(const char *res)
{
	struct semver sv;

	if (!strncmp(res, "workspace:", 10))
		return BUN_WORKSPACE;
	if (!strncmp(res, "root:", 5))
		return BUN_ROOT;
	if (!strncmp(res, "file:", 5))
		return BUN_FOLDER;
	if (!strncmp(res, "link:", 5))
		return BUN_LINK;
	if (!strncmp(res, "git+", 4) || !strncmp(res, "github:", 7) || !strncmp(res, "git:", 4))
		return BUN_GIT;
	if (!strncmp(res, "http://", 7) || !strncmp(res, "https://", 8))
		return BUN_TARBALL;
	if (semver_parse(res, 0, &sv) == 0) {
		semver_release(&sv);
		return BUN_NPM;
	}
	return BUN_TARBALL;
}

/* dependency.zig splitNameAndVersion: "name@res", a scoped name's own '@'
 * not the split.  "@root:" has no name. */
static int split_name(const char *s, char **name, const char **res)
{
	const char *at;

	if (!strncmp(s, "@root:", 6)) {
		*name = xstrdup("");
		*res = s + 1;
		return 0;
	}
	at = strchr(s + (*s == '@'), '@');
	if (!at || at == s)
		return -1;
	*name = xstrndup(s, (size_t)(at - s));
	*res = at + 1;
	return 0;
}

/* Where the hoisted linker puts a package: its key's names, the first a
 * workspace's name or a package at the top ("a/@s/b" ->
 * "node_modules/a/node_modules/@s/b"; "w/c" -> "packages/w/node_modules/c"
 * when w is a workspace: Tree.zig roots a workspace's own node_modules in
 * its folder). */
static char *install_path(const struct bun_lock *l, const char *key)
{
	struct buf b = BUF_INIT;
	const char *p = key;
	int first = 1;

	while (*p) {
		const char *seg = p, *end;

		end = strchr(p, '/');
		if (*p == '@' && end)
			end = strchr(end + 1, '/');
		if (!end)
			end = p + strlen(p);
		if (first && *end) {
			size_t i = strmap_get((struct strmap *)&l->ws_names, seg, (size_t)(end - seg));

			if (i != STRMAP_NONE) {
				buf_printf(&b, "%s/", l->ws[i].path);
				p = end + 1;
				first = 0;
				continue;
			}
		}
		buf_puts(&b, first ? "node_modules/" : (b.len && b.s[b.len - 1] == '/') ?
			 "node_modules/" : "/node_modules/");
		buf_add(&b, seg, (size_t)(end - seg));
		first = 0;
		p = *end ? end + 1 : end;
	}
	return buf_detach(&b);
}

/* A key whose every name is a folder name: no empty, "." or ".." part,
 * no backslash (bun.lock.rs find_resolution walks keys by '/'; a path
 * made of one must stay in node_modules). */
static int safe_key(const char *k)
{
	const char *p = k;

	if (!*k || strchr(k, '\\'))
		return 0;
	while (*p) {
		const char *end = strchr(p, '/');
		size_t n = end ? (size_t)(end - p) : strlen(p);

		if (!n || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return 0;
		p += n;
		if (*p && !*++p)
			return 0;
	}
	return 1;
}

static int info_object(struct parse_error *e, const struct jnode *pkg,
		       const struct jnode *info)
{
	if (!info)
		return fail_key(e, pkg, "missing dependencies object");
	if (info->t != JT_OBJ)
		return fail_node(e, info, "expected an object");
	return 0;
}

/* One entry of "packages" (bun.lock.rs: the per-kind tuples, written by
 * Stringifier.saveFromBinary):
 *   npm        [ "name@version", registry, INFO, integrity ]
 *   tarball    [ "name@path-or-url", INFO, integrity? ]
 *   folder     [ "name@file:path", INFO ]      link [ "name@link:path", INFO ]
 *   git        [ "name@git+repo" or "name@github:u/r", INFO, .bun-tag, integrity? ]
 *   workspace  [ "name@workspace:path" ]       root [ "name@root:", { bin } ] */
static int read_package(const struct jr *r, const struct jnode *pkg, struct bun_lock *l,
			const struct bun_platform *here, size_t *info_out, struct parse_error *e)
{
	const struct jnode *res0, *info = NULL, *tag = NULL;
	struct bun_pkg *bp;
	const char *res;
	char *name;
	enum bun_kind kind;

	if (pkg->t != JT_ARR)
		return fail_key(e, pkg, "expected an array");
	if (!(res0 = jfirst(r, pkg)))
		return fail_key(e, pkg, "missing package info");
	if (res0->t != JT_STR)
		return fail_node(e, res0, "expected a string");
	if (split_name(res0->s, &name, &res) < 0)
		return fail_node(e, res0, "invalid package resolution");
	kind = res_kind(res);
	switch (kind) {
	case BUN_NPM: {
		const struct jnode *reg = jkid(r, pkg, 1), *integ = jkid(r, pkg, 3);

		if (!reg || reg->t != JT_STR) {
			free(name);
			return reg ? fail_node(e, reg, "expected a string") :
				     fail_key(e, pkg, "missing npm registry");
		}
		info = jkid(r, pkg, 2);
		if (info_object(e, pkg, info) < 0 || !integ || integ->t != JT_STR) {
			free(name);
			if (e->msg[0])
				return -1;
			return integ ? fail_node(e, integ, "expected a string") :
				       fail_key(e, pkg, "missing integrity");
		}
		break;
	}
	case BUN_TARBALL:
	case BUN_FOLDER:
	case BUN_LINK:
	case BUN_GIT:
		info = jkid(r, pkg, 1);
		if (info_object(e, pkg, info) < 0) {
			free(name);
			return -1;
		}
		tag = jkid(r, pkg, 2);
		if (kind == BUN_GIT && (!tag || tag->t != JT_STR)) {
			free(name);
			return tag ? fail_node(e, tag, "expected a string") :
				     fail_key(e, pkg, "missing git dependency tag");
		}
		if (tag && tag->t != JT_STR)
			tag = NULL;
		if (kind != BUN_TARBALL && kind != BUN_GIT)
			tag = NULL;
		break;
	case BUN_ROOT:
		info = jkid(r, pkg, 1);
		if (!info || info->t != JT_OBJ) {
			free(name);
			return info ? fail_node(e, info, "expected an object") :
				      fail_key(e, pkg, "missing package binaries object");
		}
		break;
	case BUN_WORKSPACE:
		/* a workspace's key must name a workspace of "workspaces" */
		if (l->version > 0 &&
		    strmap_get(&l->ws_paths, res + 10, strlen(res + 10)) == STRMAP_NONE) {
			free(name);
			return fail_at(e, res0->line, res0->col, "unknown workspace", res + 10);
		}
		break;
	}
	if (!safe_key(pkg->key)) {
		free(name);
		return fail_key(e, pkg, "invalid package path");
	}
	if (strmap_get(&l->index, pkg->key, strlen(pkg->key)) != STRMAP_NONE) {
		free(name);
		return fail_key(e, pkg, "duplicate package path");
	}
	grow(&l->pkgs, sizeof(*l->pkgs), &l->pkgs_cap, l->npkgs + 1);
	bp = &l->pkgs[l->npkgs++];
	memset(bp, 0, sizeof(*bp));
	bp->key = xstrdup(pkg->key);
	strmap_put(&l->index, bp->key, strlen(bp->key), l->npkgs - 1);
	bp->name = name;
	bp->resolution = xstrdup(res);
	bp->kind = kind;
	bp->line = pkg->kline;
	if (tag && tag->slen)
		bp->tag = xstrdup(tag->s);
	/* bun.lock.rs: os, cpu and libc are read for every kind but a
	 * workspace; a package whose os, cpu or libc rules this machine out
	 * is not installed (lockfile/Package/Meta.zig isDisabled: "!arch.isMatch
	 * or !os.isMatch or !libc.isMatch"; npm.zig Libc.current is glibc on
	 * every Linux, so a "musl" package is left out there) */
	*info_out = kind == BUN_ROOT || kind == BUN_WORKSPACE || !info ?
			    J_NONE : (size_t)(info - r->v);
	if (info && kind != BUN_WORKSPACE && here &&
	    (!negatable_allows(r, jget(r, info, "os"), here->os) ||
	     !negatable_allows(r, jget(r, info, "cpu"), here->cpu) ||
	     !negatable_allows(r, jget(r, info, "libc"), here->libc)))
		bp->other_platform = 1;
	return 0;
}

static int read_version(const struct jr *r, const struct jnode *root, struct bun_lock *l,
			struct parse_error *e)
{
	const struct jnode *v = jget(r, root, "lockfileVersion");

	if (!v)
		return fail_at(e, root->line, root->col, "missing lockfile version", NULL);
	/* an integer from 0 to u32 max, else "Invalid lockfile version" */
	if (v->t != JT_NUM || v->num < 0 || v->num > 4294967295.0 || v->num != floor(v->num))
		return fail_node(e, v, "invalid lockfile version");
	l->version = (unsigned long)v->num;
	l->version_line = v->line;
	v = jget(r, root, "configVersion");
	l->config_version = -1;
	if (v) {
		if (v->t != JT_NUM || v->num < 0 || v->num > 1000 || v->num != floor(v->num))
			return fail_node(e, v, "invalid \"configVersion\": expected a number");
		l->config_version = (int)v->num;
	}
	return 0;
}

/* The length of key[0..len) without its last package name ("@s/b" is
 * one name), counted from the end: 0 when one name is all there is. */
static size_t drop_last_name(const char *key, size_t len)
{
	size_t s1 = len, s0;

	while (s1 > 0 && key[s1 - 1] != '/')
		s1--;
	if (!s1)
		return 0;
	s1--;		/* key[s1] is the '/' before the last part */
	s0 = s1;
	while (s0 > 0 && key[s0 - 1] != '/')
		s0--;
	/* the part before it a scope: "@s/b" is the last name */
	if (key[s0] == '@')
		return s0 ? s0 - 1 : 0;
	return s1;
}

/* The package dependency name resolves to from prefix ("a/@s/b" + "/d",
 * then "a/d", then "d"), or STRMAP_NONE.  bun.lock.rs PkgMap
 * find_resolution: up the key by package names. */
static size_t resolve_at(const struct bun_lock *l, const char *prefix, const char *name)
{
	struct buf k = BUF_INIT;
	size_t plen = strlen(prefix), at = STRMAP_NONE;

	for (;;) {
		buf_release(&k);
		if (plen)
			buf_printf(&k, "%.*s/", (int)plen, prefix);
		buf_puts(&k, name);
		at = strmap_get((struct strmap *)&l->index, buf_str(&k), k.len);
		if (at != STRMAP_NONE || !plen)
			break;
		plen = drop_last_name(prefix, plen);
	}
	buf_release(&k);
	return at;
}

/* Does it resolve at all (a workspace's name does, at the top)? */
static int resolves(const struct bun_lock *l, const char *prefix, const char *name)
{
	return resolve_at(l, prefix, name) != STRMAP_NONE ||
	       strmap_get((struct strmap *)&l->ws_names, name, strlen(name)) != STRMAP_NONE;
}

/* Is name among info's "optionalPeers"? */
static int optional_peer(const struct jr *r, const struct jnode *info, const char *name)
{
	const struct jnode *op = jget(r, info, "optionalPeers"), *k;

	for (k = op && op->t == JT_ARR ? jfirst(r, op) : NULL; k; k = jnext(r, k))
		if (k->t == JT_STR && !strcmp(k->s, name))
			return 1;
	return 0;
}

/* Each package's edges but its devDependencies, as places in l->pkgs
 * (an edge that does not resolve is left out). */
static void collect_edges(const struct jr *r, struct bun_lock *l, const size_t *infos)
{
	size_t i, g;

	if (!infos)	/* no packages */
		return;
	for (i = 0; i < l->npkgs; i++) {
		struct bun_pkg *p = &l->pkgs[i];
		const struct jnode *info = infos[i] == J_NONE ? NULL : &r->v[infos[i]];
		size_t cap = 0;

		for (g = 0; info && g < ARRAY_SIZE(groups); g++) {
			const struct jnode *grp = g == 1 ? NULL : jget(r, info, groups[g]), *d;

			for (d = grp && grp->t == JT_OBJ ? jfirst(r, grp) : NULL; d; d = jnext(r, d)) {
				size_t at;

				/* a peer named in "optionalPeers" (bun.lock.rs: an
				 * optional peer's Behavior) does not make bun install
				 * its package: bun 1.3.1 and 1.4.5 leave out what
				 * only such edges reach (t3-env's ioredis, vue, react
				 * 18 of unstorage, @vercel/analytics: "(no changes)") */
				if (g == 3 && optional_peer(r, info, d->key))
					continue;
				at = resolve_at(l, p->key, d->key);
				if (at == STRMAP_NONE)
					continue;
				{
					size_t c0 = cap;

					grow(&p->edges, sizeof(*p->edges), &cap, p->nedges + 1);
					if (cap != c0)
						p->edge_peer = xrealloc(p->edge_peer, cap);
				}
				p->edge_peer[p->nedges] = g == 3;
				p->edges[p->nedges++] = at;
			}
		}
	}
}

static void add_user(struct bun_pkg *p, size_t user, size_t *cap)
{
	grow(&p->users, sizeof(*p->users), cap, p->nusers + 1);
	p->users[p->nusers++] = user;
}

/* The package workspace i's dependency name resolves to: its own folder
 * first (a workspace's own node_modules, bun.lock's "WS/name" key), then
 * the root's; STRMAP_NONE when neither has it. */
static size_t ws_dep_at(const struct bun_lock *l, size_t i, const char *name)
{
	size_t at = STRMAP_NONE;

	if (i && l->ws[i].name)
		at = resolve_at(l, l->ws[i].name, name);
	return at != STRMAP_NONE ? at : resolve_at(l, "", name);
}

/* Each package's users: the reverse of the edges, and the workspaces
 * whose dependencies resolve to it (by bun.lock's keys, as bun does). */
static void collect_users(struct bun_lock *l)
{
	size_t *cap = xcalloc(l->npkgs ? l->npkgs : 1, sizeof(*cap));
	size_t i, j;

	for (i = 0; i < l->npkgs; i++)
		for (j = 0; j < l->pkgs[i].nedges; j++)
			add_user(&l->pkgs[l->pkgs[i].edges[j]], i, &cap[l->pkgs[i].edges[j]]);
	for (i = 0; i < l->nws; i++) {
		const struct bun_workspace *w = &l->ws[i];

		for (j = 0; j < w->ndeps; j++) {
			size_t at = ws_dep_at(l, i, w->deps[j].name);

			if (at != STRMAP_NONE)
				add_user(&l->pkgs[at], l->npkgs + i, &cap[at]);
		}
	}
	free(cap);
}

/* Does package at, or package or workspace user, have a dependency (not
 * a peer) on a package named name? */
static int provides(const struct bun_lock *l, size_t user, const char *name)
{
	size_t k;

	if (user >= l->npkgs) {
		const struct bun_workspace *w = &l->ws[user - l->npkgs];

		for (k = 0; k < w->ndeps; k++)
			if (w->deps[k].group != 3 && !strcmp(w->deps[k].name, name))
				return 1;
		return 0;
	}
	for (k = 0; k < l->pkgs[user].nedges; k++)
		if (!l->pkgs[user].edge_peer[k] &&
		    !strcmp(l->pkgs[l->pkgs[user].edges[k]].name, name))
			return 1;
	return 0;
}

/* isolated_install.zig installIsolatedPackages: a peer is resolved by
 * going up the node's parents (the package itself first) for a
 * dependency of that name, and only when none has one is bun.lock's
 * resolution of the peer used ("choose the current best version").  The
 * parents are per path; bun.lock gives the users: when the package or
 * every user has one, bun.lock's resolution of the peer is not what is
 * installed (t3-env: lucide-react's react 18, keyed
 * "lucide-react/react", while the workspace using it has react 19). */
static int peer_provided(const struct bun_lock *l, size_t at, const char *name)
{
	const struct bun_pkg *p = &l->pkgs[at];
	size_t k;

	if (provides(l, at, name))
		return 1;
	if (!p->nusers)
		return 0;
	for (k = 0; k < p->nusers; k++)
		if (!provides(l, p->users[k], name))
			return 0;
	return 1;
}

void deps_bun_dev_only(struct bun_lock *l)
{
	unsigned char *reach = xcalloc(l->npkgs ? l->npkgs : 1, 1);
	size_t *stack = xmalloc((l->npkgs ? l->npkgs : 1) * sizeof(*stack));
	size_t n = 0, i, j;

#define REACH(at)                                                           \
	do {                                                                \
		size_t at_ = (at);                                          \
		if (at_ != STRMAP_NONE && !reach[at_]) {                    \
			reach[at_] = 1;                                     \
			stack[n++] = at_;                                   \
		}                                                           \
	} while (0)
	for (i = 0; i < l->npkgs; i++)
		if (l->pkgs[i].kind == BUN_WORKSPACE || l->pkgs[i].kind == BUN_ROOT)
			REACH(i);
	for (i = 0; i < l->nws; i++) {
		const struct bun_workspace *w = &l->ws[i];

		for (j = 0; j < w->ndeps; j++) {
			size_t at = STRMAP_NONE;

			if (w->deps[j].group == 1)
				continue;
			if (i && w->name)
				at = resolve_at(l, w->name, w->deps[j].name);
			if (at == STRMAP_NONE)
				at = resolve_at(l, "", w->deps[j].name);
			REACH(at);
		}
	}
	while (n) {
		const struct bun_pkg *p = &l->pkgs[stack[--n]];

		for (j = 0; j < p->nedges; j++)
			REACH(p->edges[j]);
	}
	for (i = 0; i < l->npkgs; i++)
		l->pkgs[i].dev_only = !reach[i];
	/* Tree.zig processSubtree (method .filter): a dependency whose
	 * package isDisabled (isResolvedDependencyDisabled) is skipped, so it
	 * gets no place in the tree and its own dependencies are never
	 * walked: what only such packages reach is not installed either
	 * (@oxc-resolver/binding-wasm32-wasi, cpu "none", and the
	 * @napi-rs/wasm-runtime, @emnapi/... it alone needs) */
	memset(reach, 0, l->npkgs ? l->npkgs : 1);
	n = 0;
	for (i = 0; i < l->npkgs; i++)
		if (l->pkgs[i].kind == BUN_WORKSPACE || l->pkgs[i].kind == BUN_ROOT)
			REACH(i);
	for (i = 0; i < l->nws; i++) {
		const struct bun_workspace *w = &l->ws[i];

		for (j = 0; j < w->ndeps; j++) {
			size_t at = ws_dep_at(l, i, w->deps[j].name);

			if (at != STRMAP_NONE && !l->pkgs[at].other_platform)
				REACH(at);
		}
	}
	while (n) {
		size_t at = stack[--n];
		const struct bun_pkg *p = &l->pkgs[at];

		for (j = 0; j < p->nedges; j++)
			if (!l->pkgs[p->edges[j]].other_platform &&
			    !(l->isolated && p->edge_peer[j] &&
			      peer_provided(l, at, l->pkgs[p->edges[j]].name)))
				REACH(p->edges[j]);
	}
#undef REACH
	for (i = 0; i < l->npkgs; i++)
		l->pkgs[i].platform_only = !reach[i] && !l->pkgs[i].other_platform;
	free(stack);
	free(reach);
}

/* Edges bun may leave unresolved (bun.lock.rs may_stay_unresolved:
 * optional and peer ones), or that it strips (a catalog: reference). */
static int may_stay_unresolved(unsigned group, const char *spec)
{
	return group == 2 || group == 3 || !strncmp(spec, "catalog:", 8);
}

/* Every edge must find its package, else bun refuses the lockfile
 * ("Failed to resolve prod dependency 'x' for package 'y'"). */
static int check_resolutions(const struct jr *r, const struct bun_lock *l,
			     const size_t *infos, struct parse_error *e)
{
	size_t i, j, g;

	for (i = 0; i < l->nws; i++) {
		const struct bun_workspace *w = &l->ws[i];

		for (j = 0; j < w->ndeps; j++) {
			const struct bun_dep *d = &w->deps[j];
			char what[64];

			if (may_stay_unresolved(d->group, d->spec) ||
			    (i && w->name && resolves(l, w->name, d->name)) ||
			    resolves(l, "", d->name))
				continue;
			snprintf(what, sizeof(what), "failed to resolve %s%s dependency",
				 i ? "" : "root ", d->group == 1 ? "dev" : "prod");
			return fail_at(e, d->line, 1, what, d->name);
		}
	}
	for (i = 0; infos && i < l->npkgs; i++) {
		const struct jnode *info = infos[i] == J_NONE ? NULL : &r->v[infos[i]];

		if (!info)
			continue;
		for (g = 0; g < ARRAY_SIZE(groups); g++) {
			const struct jnode *grp = jget(r, info, groups[g]), *d;

			for (d = grp && grp->t == JT_OBJ ? jfirst(r, grp) : NULL; d; d = jnext(r, d)) {
				struct buf what = BUF_INIT;
				char *clean;

				if (d->t != JT_STR || may_stay_unresolved((unsigned)g, d->s) ||
				    resolves(l, l->pkgs[i].key, d->key))
					continue;
				clean = text_clean(l->pkgs[i].key);
				buf_printf(&what, "failed to resolve %s dependency",
					   g == 1 ? "dev" : "prod");
				fail_at(e, d->kline, d->kcol, buf_str(&what), d->key);
				/* bun: "... for package 'KEY'" */
				{
					size_t n = strlen(e->msg);

					snprintf(e->msg + n, sizeof(e->msg) - n, " for package '%s'",
						 clean);
				}
				free(clean);
				buf_release(&what);
				return -1;
			}
		}
	}
	return 0;
}

int deps_bun_parse(const char *buf, size_t len, const struct bun_platform *here,
		   struct bun_lock *l, struct parse_error *err)
{
	struct jr r;
	size_t root, infos_cap = 0;
	const struct jnode *rt, *pk, *p;
	size_t *infos = NULL;	/* each package's info object in r.v, or J_NONE */
	int rc = -1;

	memset(err, 0, sizeof(*err));
	memset(l, 0, sizeof(*l));
	l->config_version = -1;
	memset(&r, 0, sizeof(r));
	r.start = r.p = buf;
	r.end = buf + len;
	r.err = err;
	if (len == 0) {
		/* json_parser.zig: an empty source is an empty object */
		parse_error_set(err, 1, 1, "missing lockfile version");
		return -1;
	}
	root = jr_parse(&r);
	if (root == J_NONE)
		goto out;
	rt = &r.v[root];
	if (read_version(&r, rt, l, err) < 0)
		goto out;
	if (l->version > BUN_LOCK_VERSION_MAX) {
		parse_error_set(err, l->version_line, 0, "unsupported lockfile version %u",
				l->version);
		rc = 1;
		goto out;
	}
	if (read_workspaces(&r, rt, l, err) < 0)
		goto out;
	pk = jget(&r, rt, "packages");
	if (pk && pk->t != JT_OBJ) {
		fail_node(err, pk, "expected an object");
		goto out;
	}
	for (p = pk ? jfirst(&r, pk) : NULL; p; p = jnext(&r, p)) {
		size_t info = J_NONE;

		if (read_package(&r, p, l, here, &info, err) < 0)
			goto out;
		grow(&infos, sizeof(*infos), &infos_cap, l->npkgs);
		infos[l->npkgs - 1] = info;
	}
	/* before bun.lock.rs's resolution pass, as bun does: a version 0
	 * lockfile lists workspaces' dependencies differently */
	if (l->version > 0 && check_resolutions(&r, l, infos, err) < 0)
		goto out;
	collect_edges(&r, l, infos);
	collect_users(l);
	deps_bun_dev_only(l);
	for (root = 0; root < l->npkgs; root++)
		l->pkgs[root].path = install_path(l, l->pkgs[root].key);
	rc = 0;
out:
	free(infos);
	jr_release(&r);
	if (rc < 0)
		bun_lock_release(l);
	return rc;
}

void bun_lock_release(struct bun_lock *l)
{
	size_t i;

	for (i = 0; i < l->npkgs; i++) {
		free(l->pkgs[i].key);
		free(l->pkgs[i].path);
		free(l->pkgs[i].name);
		free(l->pkgs[i].resolution);
		free(l->pkgs[i].tag);
		free(l->pkgs[i].edges);
		free(l->pkgs[i].edge_peer);
		free(l->pkgs[i].users);
	}
	free(l->pkgs);
	for (i = 0; i < l->nws; i++)
		bun_workspace_release(&l->ws[i]);
	free(l->ws);
	strmap_release(&l->index);
	strmap_release(&l->ws_names);
	strmap_release(&l->ws_paths);
	memset(l, 0, sizeof(*l));
	l->config_version = -1;
}

/* ---- what bun reads of an installed package ---- */

int deps_bun_package_json(const char *buf, size_t len, char **name, char **version)
{
	struct parse_error e;
	struct jr r;
	size_t root;
	const struct jnode *n, *v;

	*name = *version = NULL;
	memset(&r, 0, sizeof(r));
	r.start = r.p = buf;
	r.end = buf + len;
	r.err = &e;
	root = len ? jr_parse(&r) : J_NONE;
	if (root == J_NONE) {
		jr_release(&r);
		return -1;
	}
	n = jget(&r, &r.v[root], "name");
	v = jget(&r, &r.v[root], "version");
	if (n && n->t == JT_STR)
		*name = xstrdup(n->s);
	if (v && v->t == JT_STR)
		*version = xstrdup(v->s);
	jr_release(&r);
	return 0;
}

/* PackageInstall.zig verifyPackageJSONNameAndVersion: the versions without
 * their build tags ("+..."), else the installed one after any leading
 * blanks, 'v' and '=' against the whole wanted one. */
int deps_bun_version_matches(const char *found, const char *want)
{
	const char *fp = strrchr(found, '+'), *wp = strrchr(want, '+');
	size_t fl = fp ? (size_t)(fp - found) : strlen(found);
	size_t wl = wp ? (size_t)(wp - want) : strlen(want);

	if (fl == wl && !memcmp(found, want, fl))
		return 1;
	while (*found && strchr(" \t\n\r\v\fv=", *found))
		found++;
	if (!*found)
		return 0;
	return !strcmp(found, want);
}

/* ---- package.json against bun.lock ---- */

int deps_bun_manifest(const char *buf, size_t len, struct bun_workspace *w, char **linker,
		      struct parse_error *err)
{
	struct jr r;
	size_t root;
	const struct jnode *rt, *n, *v, *ws, *nl;
	int rc = -1;

	memset(err, 0, sizeof(*err));
	memset(w, 0, sizeof(*w));
	if (linker)
		*linker = NULL;
	memset(&r, 0, sizeof(r));
	r.start = r.p = buf;
	r.end = buf + len;
	r.err = err;
	if (!len) {
		w->path = xstrdup("");
		return 0;	/* bun: an empty file is an empty object */
	}
	root = jr_parse(&r);
	if (root == J_NONE)
		goto out;
	rt = &r.v[root];
	n = jget(&r, rt, "name");
	v = jget(&r, rt, "version");
	w->path = xstrdup("");
	w->name = n && n->t == JT_STR ? xstrdup(n->s) : NULL;
	w->version = v && v->t == JT_STR ? xstrdup(v->s) : NULL;
	read_ws_deps(&r, rt, w, 0, err);
	/* package.json "workspaces": { "nodeLinker": "isolated" } */
	ws = jget(&r, rt, "workspaces");
	nl = jget(&r, ws, "nodeLinker");
	if (linker && nl && nl->t == JT_STR)
		*linker = xstrdup(nl->s);
	rc = 0;
out:
	jr_release(&r);
	return rc;
}

void bun_workspace_release(struct bun_workspace *w)
{
	size_t j;

	for (j = 0; j < w->ndeps; j++) {
		free(w->deps[j].name);
		free(w->deps[j].spec);
	}
	free(w->deps);
	free(w->path);
	free(w->name);
	free(w->version);
	memset(w, 0, sizeof(*w));
}

/* A workspace's dependencies but its peers, by name (the first of a name
 * kept: a name in two groups is one dependency to bun). */
static void index_deps(const struct bun_workspace *w, struct strmap *m)
{
	size_t i;

	for (i = 0; i < w->ndeps; i++)
		if (w->deps[i].group != 3 &&
		    strmap_get(m, w->deps[i].name, strlen(w->deps[i].name)) == STRMAP_NONE)
			strmap_put(m, w->deps[i].name, strlen(w->deps[i].name), i);
}

static const struct bun_dep *find_dep(const struct bun_workspace *w, struct strmap *m,
				      const char *name)
{
	size_t i = strmap_get(m, name, strlen(name));

	return i == STRMAP_NONE ? NULL : &w->deps[i];
}

/* The package a workspace's dependency is locked to: "WS/name" first for
 * a member, then "name" (bun.lock.rs: the workspace's node_modules, else
 * the root's). */
static const struct bun_pkg *locked_for(const struct bun_lock *l, const struct bun_workspace *lw,
					const char *name)
{
	struct buf key = BUF_INIT;
	const struct bun_pkg *hit = NULL;
	size_t i, pass;

	for (pass = 0; pass < 2 && !hit; pass++) {
		buf_release(&key);
		if (pass == 0 && (!*lw->path || !lw->name))
			continue;
		if (pass == 0)
			buf_printf(&key, "%s/%s", lw->name, name);
		else
			buf_puts(&key, name);
		i = strmap_get((struct strmap *)&l->index, buf_str(&key), key.len);
		if (i != STRMAP_NONE)
			hit = &l->pkgs[i];
	}
	buf_release(&key);
	return hit;
}

/* A changed range that the locked package still satisfies: "^3.0.0" for
 * 3.0.1, "npm:is-number@^6" for is-number 6.0.0, a dist-tag ("latest")
 * for any (bun keeps what bun.lock resolved it to). */
static int still_satisfied(const struct bun_pkg *p, const char *spec)
{
	const char *range = spec;
	struct semver_range *sr;
	int ok;

	if (!p || p->kind != BUN_NPM)
		return 0;
	if (!strncmp(spec, "npm:", 4)) {
		const char *at = strchr(spec + 4 + (spec[4] == '@'), '@');

		if (!at || (size_t)(at - spec - 4) != strlen(p->name) ||
		    memcmp(spec + 4, p->name, strlen(p->name)))
			return 0;
		range = at + 1;
	}
	sr = semver_range_parse(range, SEMVER_LOOSE);
	if (!sr) {
		/* a dist-tag: letters, digits, '-', '.', '_' and no ':' or '/' */
		return *range && !strpbrk(range, ":/ <>=^~|*") && !strchr("0123456789", *range);
	}
	{
		struct semver v;

		ok = semver_parse(p->resolution, SEMVER_LOOSE, &v) == 0;
		if (ok) {
			ok = semver_satisfies(&v, sr, SEMVER_LOOSE);
			semver_release(&v);
		}
	}
	semver_range_free(sr);
	return ok;
}

/* bun install --frozen-lockfile re-reads every package.json, resolves it
 * against bun.lock and refuses ("lockfile had changes, but lockfile is
 * frozen", PackageManager install_with_manager) when the result is not
 * the lockfile.  What changes it, as bun 1.4.5 answered row by row
 * (tests/integration/deps_bun.sh): a member workspace renamed; a
 * dependency added or removed (dependencies, devDependencies and
 * optionalDependencies together: one moved from a group to another is
 * not a change, nor is a peer); a range the locked version no longer
 * satisfies, or a changed specifier of another kind.  Not a change: the
 * root's name, any version field, a range still satisfied, a dist-tag. */
int deps_bun_manifest_stale(const struct bun_lock *l, size_t ws, const struct bun_workspace *m,
			    struct buf *why)
{
	const struct bun_workspace *lw = &l->ws[ws];
	const char *where = *lw->path ? lw->path : "the root";
	struct strmap lm = STRMAP_INIT, mm = STRMAP_INIT;
	size_t i;
	int stale = 0;

	if (*lw->path && (!m->name || !lw->name || strcmp(m->name, lw->name))) {
		buf_printf(why, "%s/package.json's name is %s%s%s, bun.lock has ", lw->path,
			   m->name ? "'" : "", m->name ? m->name : "none", m->name ? "'" : "");
		buf_printf(why, "'%s'", lw->name ? lw->name : "");
		return 1;
	}
	index_deps(lw, &lm);
	index_deps(m, &mm);
	for (i = 0; i < m->ndeps && !stale; i++) {
		const struct bun_dep *d = &m->deps[i], *ld;

		if (d->group == 3)
			continue;
		if (!(ld = find_dep(lw, &lm, d->name))) {
			buf_printf(why, "%s depends on '%s' (%s), which bun.lock does not list", where,
				   d->name, d->spec);
			stale = 1;
		} else if (strcmp(ld->spec, d->spec) &&
			   !still_satisfied(locked_for(l, lw, d->name), d->spec)) {
			buf_printf(why, "%s asks for '%s' %s, bun.lock has %s", where, d->name,
				   d->spec, ld->spec);
			stale = 1;
		}
	}
	for (i = 0; i < lw->ndeps && !stale; i++)
		if (lw->deps[i].group != 3 && !find_dep(m, &mm, lw->deps[i].name)) {
			buf_printf(why, "%s no longer depends on '%s', which bun.lock lists", where,
				   lw->deps[i].name);
			stale = 1;
		}
	strmap_release(&lm);
	strmap_release(&mm);
	return stale;
}

void deps_bun_regroup(struct bun_workspace *lw, const struct bun_workspace *m)
{
	struct strmap mm = STRMAP_INIT;
	size_t i;

	index_deps(m, &mm);
	for (i = 0; i < lw->ndeps; i++) {
		const struct bun_dep *d;

		if (lw->deps[i].group == 3)
			continue;
		d = find_dep(m, &mm, lw->deps[i].name);
		if (d)
			lw->deps[i].group = d->group;
	}
	strmap_release(&mm);
}
