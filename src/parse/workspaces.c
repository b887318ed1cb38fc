/* workspaces.c - the pure part of workspace discovery (workspaces.h): the
 * glob matcher, brace expansion, and the go.work and [tool.uv.workspace]
 * readers.  Buffers in, values or error values out; no system call, so
 * that the fuzzer and the table-driven tests reach every line.
 */
#include "workspaces.h"
#include "util.h"
#include "versions.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *key, *label;
} kinds[WS_KIND_COUNT] = {
	[WS_NPM] = { "npm", "package.json workspaces" },
	[WS_PNPM] = { "pnpm", "pnpm-workspace.yaml packages" },
	[WS_GO] = { "go", "go.work use" },
	[WS_UV] = { "uv", "pyproject.toml [tool.uv.workspace]" },
};

const char *ws_kind_key(enum ws_kind k)
{
	return (unsigned)k < WS_KIND_COUNT ? kinds[k].key : "?";
}

const char *ws_kind_label(enum ws_kind k)
{
	return (unsigned)k < WS_KIND_COUNT ? kinds[k].label : "?";
}

void ws_patterns_add(struct ws_patterns *p, const char *text, size_t len,
		     int negate, unsigned line, unsigned col)
{
	struct ws_pattern *w;

	grow(&p->v, sizeof(*p->v), &p->cap, p->n + 1);
	w = &p->v[p->n++];
	w->text = xstrndup(text, len);
	w->negate = negate;
	w->line = line;
	w->col = col;
}

void ws_patterns_release(struct ws_patterns *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		free(p->v[i].text);
	free(p->v);
	memset(p, 0, sizeof(*p));
}

/* ---- the glob ------------------------------------------------------- */

int ws_glob_is_wild(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] == '*' || s[i] == '?' || s[i] == '[')
			return 1;
	return 0;
}

/* One segment of a path or pattern: s[0..n). */
struct seg {
	const char *s;
	size_t n;
};

#define SEGS_MAX 64

/* Split p on '/' (empty segments and "." dropped) into v; the count, or
 * SEGS_MAX + 1 when there are too many. */
static size_t split(const char *p, struct seg *v)
{
	size_t n = 0;

	while (*p) {
		size_t len = strcspn(p, "/");

		if (len && !(len == 1 && p[0] == '.')) {
			if (n == SEGS_MAX)
				return SEGS_MAX + 1;
			v[n].s = p;
			v[n++].n = len;
		}
		p += len;
		p += *p == '/';
	}
	return n;
}

/* One pattern segment against one name: fnmatch(3), with a wildcard never
 * matching a leading '.' (FNM_PERIOD: the globs' dot: false). */
static int seg_match(struct seg pat, struct seg name)
{
	char p[256], s[256];

	if (pat.n >= sizeof(p) || name.n >= sizeof(s))
		return 0;
	if (!ws_glob_is_wild(pat.s, pat.n))
		return pat.n == name.n && !memcmp(pat.s, name.s, pat.n);
	memcpy(p, pat.s, pat.n);
	p[pat.n] = '\0';
	memcpy(s, name.s, name.n);
	s[name.n] = '\0';
	return fnmatch(p, s, FNM_PERIOD) == 0;
}

static int is_globstar(struct seg s)
{
	return s.n == 2 && s.s[0] == '*' && s.s[1] == '*';
}

/* The classic wildcard walk, over segments instead of characters: "**"
 * is the star (any run of segments, none included), and on a mismatch the
 * last "**" takes one more segment.  A "**" never takes a name that starts
 * with '.', and no earlier one could take it either, so that ends the
 * match.  Linear in the segments for each "**" backtrack: no recursion. */
int ws_glob_match(const char *pattern, const char *path)
{
	struct seg pv[SEGS_MAX], sv[SEGS_MAX];
	size_t np = split(pattern, pv), ns = split(path, sv);
	size_t i = 0, j = 0, star = (size_t)-1, mark = 0;

	if (np > SEGS_MAX || ns > SEGS_MAX)
		return 0;
	while (j < ns) {
		if (i < np && is_globstar(pv[i])) {
			star = i++;
			mark = j;
		} else if (i < np && seg_match(pv[i], sv[j])) {
			i++;
			j++;
		} else if (star != (size_t)-1 && sv[mark].s[0] != '.') {
			i = star + 1;
			j = ++mark;
		} else {
			return 0;
		}
	}
	while (i < np && is_globstar(pv[i]))
		i++;
	return i == np;
}

/* ---- braces ----------------------------------------------------------- */

/* The first brace group of p with a top-level comma: *open and *close
 * index its braces.  0 when there is none. */
static int brace_group(const char *p, size_t *open, size_t *close)
{
	size_t i, j;

	for (i = 0; p[i]; i++) {
		int depth = 0, comma = 0;

		if (p[i] != '{')
			continue;
		for (j = i; p[j]; j++) {
			if (p[j] == '{')
				depth++;
			else if (p[j] == '}' && --depth == 0)
				break;
			else if (p[j] == ',' && depth == 1)
				comma = 1;
		}
		if (p[j] && comma) {
			*open = i;
			*close = j;
			return 1;
		}
	}
	return 0;
}

struct strvec {
	char **v;
	size_t n, cap, max;
	int over;
};

static void sv_push(struct strvec *sv, char *s)
{
	if (sv->n == sv->max) {
		sv->over = 1;
		free(s);
		return;
	}
	grow(&sv->v, sizeof(*sv->v), &sv->cap, sv->n + 1);
	sv->v[sv->n++] = s;
}

static void expand(const char *p, struct strvec *sv, unsigned depth)
{
	size_t open, close, i, start;
	int d = 0;

	if (sv->over)
		return;
	if (depth > 8 || !brace_group(p, &open, &close)) {
		sv_push(sv, xstrdup(p));
		return;
	}
	/* each top-level alternative between the braces, in order */
	for (i = start = open + 1; i <= close && !sv->over; i++) {
		if (p[i] == '{')
			d++;
		else if (p[i] == '}' && d)
			d--;
		else if ((p[i] == ',' && !d) || i == close) {
			struct buf b = BUF_INIT;

			buf_add(&b, p, open);
			buf_add(&b, p + start, i - start);
			buf_puts(&b, p + close + 1);
			expand(buf_str(&b), sv, depth + 1);
			buf_release(&b);
			start = i + 1;
		}
	}
}

size_t ws_brace_expand(const char *pattern, size_t max, char ***out)
{
	struct strvec sv = { NULL, 0, 0, max, 0 };
	size_t i;

	expand(pattern, &sv, 0);
	if (sv.over || !sv.n) {
		for (i = 0; i < sv.n; i++)
			free(sv.v[i]);
		free(sv.v);
		*out = NULL;
		return 0;
	}
	*out = sv.v;
	return sv.n;
}

/* ---- workspace directory names ---------------------------------------- */

int ws_dir_valid(const char *dir)
{
	struct seg v[SEGS_MAX];
	size_t n, i;

	if (!*dir || *dir == '/' || strlen(dir) > 200)
		return 0;
	if (strspn(dir, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		   "0123456789._@+-/") != strlen(dir) || strstr(dir, "//"))
		return 0;
	n = split(dir, v);
	if (!n || n > SEGS_MAX)
		return 0;
	for (i = 0; i < n; i++)
		if (v[i].n == 2 && v[i].s[0] == '.' && v[i].s[1] == '.')
			return 0;
	/* "./x" and "x/." are written otherwise: a normalised name only */
	return strncmp(dir, "./", 2) && strcmp(dir, ".") &&
	       (strlen(dir) < 2 || strcmp(dir + strlen(dir) - 2, "/.")) &&
	       dir[strlen(dir) - 1] != '/';
}

const char *ws_dir_sample(const char *dir)
{
	static const char *const words[] = {
		"templates", "template", "examples", "example", "starters", "starter",
	};
	struct seg v[SEGS_MAX];
	size_t n, i, j;

	n = split(dir, v);
	for (i = 0; i < n && i < SEGS_MAX; i++)
		for (j = 0; j < ARRAY_SIZE(words); j++)
			if (v[i].n == strlen(words[j]) && !memcmp(v[i].s, words[j], v[i].n))
				return words[j];
	return NULL;
}

/* ---- go.work ------------------------------------------------------------
 *
 * golang.org/x/mod/modfile (the parser go itself uses): a file of lines,
 * "//" comments, tokens separated by blanks, a directive either on one
 * line ("use ./a") or as a block ("use (" ... ")"); a token may be quoted
 * with "..." (Go escapes) or `...`.  go.work's use takes one directory a
 * line (modfile/work.go parseDirective "use").  Other directives (go,
 * toolchain, godebug, replace) are not ours. */

struct gotok {
	const char *s;
	size_t n;
	unsigned col;
	int quoted;
};

/* The tokens of one line (comment cut), at most max: the count, or -1
 * with msg when a quote never closes. */
static int go_tokens(const char *s, size_t len, struct gotok *t, int max,
		     char *msg, size_t msglen, unsigned *bad)
{
	size_t i = 0;
	int n = 0;

	while (i < len) {
		size_t start;

		while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
			i++;
		if (i >= len || (s[i] == '/' && i + 1 < len && s[i + 1] == '/'))
			break;
		start = i;
		if (s[i] == '"' || s[i] == '`') {
			char q = s[i++];

			while (i < len && s[i] != q) {
				if (q == '"' && s[i] == '\\')
					i++;
				i++;
			}
			if (i >= len) {
				versions_err(msg, msglen, "unterminated quoted string");
				*bad = (unsigned)start + 1;
				return -1;
			}
			i++;
		} else {
			while (i < len && s[i] != ' ' && s[i] != '\t' && s[i] != '\r' &&
			       !(s[i] == '/' && i + 1 < len && s[i + 1] == '/'))
				i++;
		}
		if (n < max) {
			t[n].s = s + start;
			t[n].n = i - start;
			t[n].col = (unsigned)start + 1;
			t[n].quoted = s[start] == '"' || s[start] == '`';
		}
		n++;
	}
	return n;
}

/* Add one use path (a token) to out; -1 with msg for an escape we do not
 * read (go would: only the plain path is ours). */
static int go_use(const struct gotok *t, unsigned line, struct ws_patterns *out,
		  char *msg, size_t msglen)
{
	const char *s = t->s;
	size_t n = t->n;

	if (t->quoted) {
		s++;
		n -= 2;
		if (t->s[0] == '"' && memchr(s, '\\', n)) {
			versions_err(msg, msglen, "escape sequences in a use path "
				     "are not supported");
			return -1;
		}
	}
	if (!n) {
		versions_err(msg, msglen, "empty use path");
		return -1;
	}
	if (out->n < WS_PATTERNS_MAX)
		ws_patterns_add(out, s, n, 0, line, t->col);
	return 0;
}

int ws_gowork_parse(const char *buf, size_t len, struct ws_patterns *out,
		    struct parse_error *e)
{
	struct versions_line ln = { NULL, 0, 0 };
	size_t pos = 0;
	unsigned block = 0;	/* the line a use block opened on, or 0 */
	struct gotok t[4];

	memset(out, 0, sizeof(*out));
	e->line = e->col = 0;
	if (versions_text(buf, len, e) < 0)
		return -1;
	while (versions_next_line(buf, len, &pos, &ln)) {
		unsigned bad = 0;
		int n = go_tokens(ln.s, ln.len, t, 4, e->msg, sizeof(e->msg), &bad);

		e->line = ln.no;
		if (n < 0) {
			e->col = bad;
			goto fail;
		}
		if (!n)
			continue;
		if (block) {
			if (n == 1 && t[0].n == 1 && t[0].s[0] == ')' && !t[0].quoted) {
				block = 0;
				continue;
			}
			if (n > 1) {
				e->col = t[1].col;
				versions_err(e->msg, sizeof(e->msg), "a use line names one "
					     "directory");
				goto fail;
			}
			e->col = t[0].col;
			if (go_use(&t[0], ln.no, out, e->msg, sizeof(e->msg)) < 0)
				goto fail;
			continue;
		}
		if (t[0].quoted || t[0].n != 3 || memcmp(t[0].s, "use", 3))
			continue;	/* go, toolchain, replace, ...: not ours */
		if (n == 2 && t[1].n == 1 && t[1].s[0] == '(' && !t[1].quoted) {
			block = ln.no;
			continue;
		}
		e->col = n > 1 ? t[1].col : t[0].col;
		if (n != 2) {
			versions_err(e->msg, sizeof(e->msg), "usage: use local/dir");
			goto fail;
		}
		if (go_use(&t[1], ln.no, out, e->msg, sizeof(e->msg)) < 0)
			goto fail;
	}
	if (block) {
		e->line = block;
		e->col = 1;
		versions_err(e->msg, sizeof(e->msg), "use block never closed (expected ')')");
		goto fail;
	}
	return 0;
fail:
	ws_patterns_release(out);
	return -1;
}

/* ---- pyproject.toml [tool.uv.workspace] ----------------------------------
 *
 * A scanner, not a TOML parser: it steps over values (strings of the four
 * kinds, arrays and inline tables, nested) so that a '[' inside one is
 * never taken for a table header, and reads two keys of one table.  The
 * document is not validated beyond that: what uv would refuse elsewhere
 * is uv's to say. */

struct tscan {
	const char *s;
	size_t len, i;
	/* the position of offset pos_at, kept so that the positions of an
	 * array's strings, asked in order, cost one pass over the file, not
	 * one each (fuzz_workspaces: 30,000 members took seconds) */
	size_t pos_at;
	unsigned pos_line, pos_col;	/* 0: none yet */
};

/* text_pos of offset at, going on from the last one asked. */
static void ts_pos(struct tscan *t, size_t at, unsigned *line, unsigned *col)
{
	unsigned l, c;

	if (!t->pos_line || at < t->pos_at) {
		t->pos_at = 0;
		t->pos_line = t->pos_col = 1;
	}
	text_pos(t->s + t->pos_at, t->len - t->pos_at, at - t->pos_at, &l, &c);
	t->pos_col = l == 1 ? t->pos_col + c - 1 : c;
	t->pos_line += l - 1;
	t->pos_at = at < t->len ? at : t->len;
	*line = t->pos_line;
	*col = t->pos_col;
}

static void ts_ws(struct tscan *t, int newlines)
{
	while (t->i < t->len) {
		char c = t->s[t->i];

		if (c == ' ' || c == '\t' || (newlines && (c == '\n' || c == '\r'))) {
			t->i++;
		} else if (c == '#' && newlines) {
			while (t->i < t->len && t->s[t->i] != '\n')
				t->i++;
		} else {
			break;
		}
	}
}

/* Step over a string at t->i; with out, its text (basic strings without
 * escapes, literal strings) into *out.  0, or -1 (unterminated, or an
 * escape when out is wanted). */
static int ts_string(struct tscan *t, char **out)
{
	char q = t->s[t->i];
	int ml = t->i + 2 < t->len && t->s[t->i + 1] == q && t->s[t->i + 2] == q;
	size_t start;

	t->i += ml ? 3 : 1;
	start = t->i;
	while (t->i < t->len) {
		char c = t->s[t->i];

		if (q == '"' && c == '\\') {
			if (out)
				return -1;
			t->i += 2;
			continue;
		}
		if (!ml && c == '\n')
			return -1;
		if (c == q && (!ml || (t->i + 2 < t->len && t->s[t->i + 1] == q &&
				       t->s[t->i + 2] == q))) {
			if (out)
				*out = xstrndup(t->s + start, t->i - start);
			t->i += ml ? 3 : 1;
			return 0;
		}
		t->i++;
	}
	return -1;
}

/* Step over one value (nested arrays and tables with a depth count):
 * 0, or -1 when it never ends. */
static int ts_value(struct tscan *t)
{
	int depth = 0;

	do {
		ts_ws(t, depth > 0);
		if (t->i >= t->len)
			return depth ? -1 : 0;
		switch (t->s[t->i]) {
		case '"':
		case '\'':
			if (ts_string(t, NULL) < 0)
				return -1;
			break;
		case '[':
		case '{':
			depth++;
			t->i++;
			break;
		case ']':
		case '}':
			if (!depth)
				return 0;
			depth--;
			t->i++;
			break;
		case '\n':
			return depth ? -1 : 0;
		default:
			t->i++;
		}
	} while (depth > 0 || (t->i < t->len && t->s[t->i] != '\n' &&
			       t->s[t->i] != '#' && t->s[t->i] != ','));
	return 0;
}

/* The array of strings at t->i into out (negate as given).  0, or -1 with
 * *bad the offset at fault. */
static int ts_string_array(struct tscan *t, struct ws_patterns *out, int negate,
			   size_t *bad)
{
	ts_ws(t, 0);
	*bad = t->i;
	if (t->i >= t->len || t->s[t->i] != '[')
		return -1;
	t->i++;
	for (;;) {
		size_t at;
		char *text = NULL;
		unsigned line, col;

		ts_ws(t, 1);
		*bad = at = t->i;
		if (t->i >= t->len)
			return -1;
		if (t->s[t->i] == ']') {
			t->i++;
			return 0;
		}
		if ((t->s[t->i] != '"' && t->s[t->i] != '\'') ||
		    ts_string(t, &text) < 0)
			return -1;
		ts_pos(t, at, &line, &col);
		if (out->n < WS_PATTERNS_MAX)
			ws_patterns_add(out, text, strlen(text), negate, line, col);
		free(text);
		ts_ws(t, 1);
		*bad = t->i;
		if (t->i < t->len && t->s[t->i] == ',')
			t->i++;
		else if (t->i >= t->len || t->s[t->i] != ']')
			return -1;
	}
}

/* A key at t->i: its bare or quoted text in key (size n).  0, or -1. */
static int ts_key(struct tscan *t, char *key, size_t n)
{
	size_t k = 0;

	while (t->i < t->len && t->s[t->i] != '=' && t->s[t->i] != '\n') {
		char c = t->s[t->i++];

		if (c == ' ' || c == '\t' || c == '"' || c == '\'')
			continue;
		if (k + 1 < n)
			key[k++] = c;
	}
	key[k] = '\0';
	if (t->i >= t->len || t->s[t->i] != '=')
		return -1;
	t->i++;
	return 0;
}

int ws_uv_parse(const char *buf, size_t len, struct ws_patterns *out,
		struct parse_error *e)
{
	struct tscan t = { buf, len, 0, 0, 0, 0 };
	int in_table = 0, in_uv = 0, found = 0;

	memset(out, 0, sizeof(*out));
	e->line = e->col = 0;
	while (t.i < len) {
		char key[64];
		size_t bad;

		ts_ws(&t, 1);
		if (t.i >= len)
			break;
		if (buf[t.i] == '[') {
			size_t end = t.i;
			char name[64];
			size_t k = 0;

			while (end < len && buf[end] != '\n')
				end++;
			/* "[tool.uv.workspace]", blanks and quotes aside;
			 * "[[...]]" is an array of tables, never ours */
			for (t.i++; t.i < end && buf[t.i] != ']'; t.i++)
				if (!strchr(" \t\"'", buf[t.i]) && k + 1 < sizeof(name))
					name[k++] = buf[t.i];
			name[k] = '\0';
			in_table = !strcmp(name, "tool.uv.workspace");
			in_uv = !strcmp(name, "tool.uv");
			found |= in_table;
			t.i = end;
			continue;
		}
		if (ts_key(&t, key, sizeof(key)) < 0) {
			/* not a key/value line: not TOML, and not ours to say */
			while (t.i < len && buf[t.i] != '\n')
				t.i++;
			continue;
		}
		/* [tool.uv] workspace.members = [...] is the same key */
		if (in_uv && !strncmp(key, "workspace.", 10)) {
			memmove(key, key + 10, strlen(key + 10) + 1);
			found |= !strcmp(key, "members") || !strcmp(key, "exclude");
		} else if (!in_table) {
			key[0] = '\0';
		}
		if (!strcmp(key, "members") || !strcmp(key, "exclude")) {
			if (ts_string_array(&t, out, key[0] == 'e', &bad) < 0) {
				text_pos(buf, len, bad, &e->line, &e->col);
				versions_err(e->msg, sizeof(e->msg), "'%s' in [tool.uv.workspace] "
					     "expects an array of strings", key);
				ws_patterns_release(out);
				return -1;
			}
			continue;
		}
		if (ts_value(&t) < 0)
			break;		/* a value that never ends: not ours */
	}
	return found;
}
