/* gitignore.c - see gitignore.h
 *
 * The behaviour follows git's dir.c and wildmatch.c (git 2.39), including
 * their corners: a pattern's leading literal part is compared before the
 * glob matcher sees the rest (so "foo**" acts like a "**" at a component
 * start), a class never matches '/' under WM_PATHNAME, an unterminated
 * class or unknown [:name:] makes the whole pattern fail, a trailing
 * backslash never matches, [[:space:]] is git's " \t\n\r".
 */
#include "gitignore.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* Rule flags */
#define GI_NEGATED	(1u << 0)	/* "!pattern" */
#define GI_DIRONLY	(1u << 1)	/* "pattern/" */
#define GI_BASENAME	(1u << 2)	/* no '/' inside: any depth */
#define GI_ENDSWITH	(1u << 3)	/* "*literal": a suffix compare does */

struct gi_file {
	char *source;
	char *base;		/* "" or "a/b", no trailing slash */
	size_t baselen;
};

struct gi_rule {
	char *text;		/* the line as written (after trimming) */
	char *pat;		/* less '!', trailing '/' and anchoring '/' */
	size_t len;		/* strlen(pat) */
	size_t prefix;		/* length of pat's glob-free head */
	unsigned flags;
	unsigned line;
	size_t file;		/* index into gitignore.files */
};

struct gitignore {
	struct gi_file *files;
	size_t nfiles, files_cap;
	struct gi_rule *rules;	/* in increasing precedence */
	size_t nrules, rules_cap;
};

/* ------------------------------------------------------------------ */
/* wildmatch                                                           */

#define WM_PATHNAME	1u	/* '*', '?' and classes do not match '/' */

enum {
	WM_CONTINUE = -1,	/* internal: a star took a component, go on */
	WM_MATCH = 0,
	WM_NOMATCH,
	WM_ABORT_ALL,		/* no shorter text can match either: stop */
	WM_ABORT_TO_STARSTAR,	/* only an enclosing "**" may try further */
};

/*
 * Bounds that keep hostile patterns from eating the deadline or the stack
 * (a step costs tens of nanoseconds: the whole budget is some 5 ms).  A
 * real pattern needs about its stars times the path's length in steps, a
 * few hundred; one pattern may take WM_MAX_STEPS, all the patterns tried
 * for one path GI_MAX_STEPS.  The depth is the number of star groups in
 * play, each of which consumes text or is a "**" + "/".
 */
#define WM_MAX_STEPS	(1ul << 14)
#define GI_MAX_STEPS	(1ul << 18)
#define WM_MAX_DEPTH	1024u

struct budget {
	unsigned long steps_left;
	int exhausted;
};

struct wm {
	const unsigned char *pattern;	/* start: is a "**" at its start? */
	unsigned flags;
	unsigned depth;
	unsigned long steps_left;	/* this pattern's own share */
	struct budget *budget;
};

static int wm_run(struct wm *w, const unsigned char *p, const unsigned char *t);

static int is_glob_special(unsigned char c)
{
	return c == '*' || c == '?' || c == '[' || c == '\\';
}

/* The [:name:] classes over git's own locale-free ctype: ASCII only, and
 * its space is " \t\n\r" (no \v or \f). */
enum {
	CC_ALNUM = 1 << 0, CC_ALPHA = 1 << 1, CC_BLANK = 1 << 2,
	CC_CNTRL = 1 << 3, CC_DIGIT = 1 << 4, CC_GRAPH = 1 << 5,
	CC_LOWER = 1 << 6, CC_PRINT = 1 << 7, CC_PUNCT = 1 << 8,
	CC_SPACE = 1 << 9, CC_UPPER = 1 << 10, CC_XDIGIT = 1 << 11,
};

static const struct {
	const char *name;
	unsigned bit;
} class_names[] = {
	{ "alnum", CC_ALNUM }, { "alpha", CC_ALPHA }, { "blank", CC_BLANK },
	{ "cntrl", CC_CNTRL }, { "digit", CC_DIGIT }, { "graph", CC_GRAPH },
	{ "lower", CC_LOWER }, { "print", CC_PRINT }, { "punct", CC_PUNCT },
	{ "space", CC_SPACE }, { "upper", CC_UPPER }, { "xdigit", CC_XDIGIT },
};

static unsigned char_classes(unsigned char c)
{
	unsigned m = 0;

	if (c >= 'A' && c <= 'Z')
		m |= CC_UPPER | CC_ALPHA | CC_ALNUM;
	if (c >= 'a' && c <= 'z')
		m |= CC_LOWER | CC_ALPHA | CC_ALNUM;
	if (c >= '0' && c <= '9')
		m |= CC_DIGIT | CC_ALNUM | CC_XDIGIT;
	if ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))
		m |= CC_XDIGIT;
	if (c > ' ' && c < 0x7f)
		m |= CC_GRAPH | CC_PRINT | ((m & CC_ALNUM) ? 0 : CC_PUNCT);
	if (c == ' ')
		m |= CC_PRINT | CC_BLANK | CC_SPACE;
	if (c == '\t')
		m |= CC_BLANK | CC_SPACE;
	if (c == '\n' || c == '\r')
		m |= CC_SPACE;
	if (c < ' ' || c == 0x7f)
		m |= CC_CNTRL;
	return m;
}

/*
 * A "[:name:]" inside a bracket expression, *pp at its '['.  Returns 1 or 0
 * (t a member or not) with *pp moved to the ']' that ends it; 2 when this
 * is no class name at all, so the '[' is an ordinary member (*pp unmoved);
 * -1 when the expression is malformed.
 */
static int wm_named_class(const unsigned char **pp, unsigned char t)
{
	const unsigned char *s = *pp + 2, *q = s;
	size_t n, i;

	while (*q && *q != ']')
		q++;
	if (!*q)
		return -1;
	if (q == s || q[-1] != ':')
		return 2;
	n = (size_t)(q - s - 1);
	for (i = 0; i < ARRAY_SIZE(class_names); i++) {
		if (strlen(class_names[i].name) == n &&
		    !memcmp(class_names[i].name, s, n)) {
			*pp = q;
			return !!(char_classes(t) & class_names[i].bit);
		}
	}
	return -1;
}

/*
 * The bracket expression at *pp ('[') against the text byte t.  Returns 1
 * when t matches it, 0 when not, -1 when it is malformed; on 0 or 1 *pp is
 * left at the closing ']'.  The first member may itself be ']'; a '-'
 * between two members makes a range; '!' or '^' first negates.
 */
static int wm_bracket(const unsigned char **pp, unsigned char t)
{
	const unsigned char *p = *pp + 1;
	unsigned char c, prev = 0;
	int negated = 0, hit = 0, r;

	if (*p == '!' || *p == '^') {
		negated = 1;
		p++;
	}
	c = *p;
	do {
		if (!c)
			return -1;
		if (c == '\\') {
			c = *++p;
			if (!c)
				return -1;
			hit |= t == c;
		} else if (c == '-' && prev && p[1] && p[1] != ']') {
			c = *++p;
			if (c == '\\') {
				c = *++p;
				if (!c)
					return -1;
			}
			hit |= t >= prev && t <= c;
			c = 0;		/* a range's end starts no new range */
		} else if (c == '[' && p[1] == ':') {
			r = wm_named_class(&p, t);
			if (r < 0)
				return -1;
			if (r == 2) {
				hit |= t == '[';
			} else {
				hit |= r;
				c = 0;
			}
		} else {
			hit |= t == c;
		}
		prev = c;
		c = *++p;
	} while (c != ']');
	*pp = p;
	return hit != negated;
}

/*
 * A run of stars at *pp matched against the text at *tp.  Returns a final
 * WM_* answer for the whole remaining pattern, or WM_CONTINUE with *pp and
 * *tp both left on a '/' when a single star simply took the rest of a path
 * component.
 */
static int wm_star(struct wm *w, const unsigned char **pp,
		   const unsigned char **tp)
{
	const unsigned char *p = *pp, *t = *tp, *slash;
	int pathname = w->flags & WM_PATHNAME;
	int at_start = p == w->pattern || p[-1] == '/';
	int cross, r;
	unsigned char c;

	if (p[1] != '*') {
		p++;
		cross = !pathname;
	} else {
		while (*p == '*')
			p++;
		if (!pathname) {
			cross = 1;
		} else if (at_start && (!*p || *p == '/' ||
					(p[0] == '\\' && p[1] == '/'))) {
			/* "**" as a whole component: first try it as no
			 * directory at all, so that a/<**>/b matches a/b */
			if (*p == '/' && wm_run(w, p + 1, t) == WM_MATCH)
				return WM_MATCH;
			cross = 1;
		} else {
			cross = 0;	/* "**" inside a component is a '*' */
		}
	}

	if (!*p) {
		if (!cross && strchr((const char *)t, '/'))
			return WM_NOMATCH;
		return WM_MATCH;
	}
	if (!cross && *p == '/') {
		slash = (const unsigned char *)strchr((const char *)t, '/');
		if (!slash)
			return WM_NOMATCH;
		*pp = p;
		*tp = slash;
		return WM_CONTINUE;
	}

	for (c = *t; c; c = *++t) {
		if (!is_glob_special(*p)) {
			/* the star's share must end just before the literal */
			while ((c = *t) && (cross || c != '/') && c != *p)
				t++;
			if (c != *p)
				return WM_NOMATCH;
		}
		r = wm_run(w, p, t);
		if (r != WM_NOMATCH) {
			if (!cross || r != WM_ABORT_TO_STARSTAR)
				return r;
		} else if (!cross && c == '/') {
			return WM_ABORT_TO_STARSTAR;
		}
	}
	return WM_ABORT_ALL;
}

static int wm_seq(struct wm *w, const unsigned char *p, const unsigned char *t)
{
	int pathname = w->flags & WM_PATHNAME;
	int r;

	for (; *p; p++, t++) {
		if (!*t && *p != '*')
			return WM_ABORT_ALL;
		switch (*p) {
		case '\\':
			/* the next byte as is; a trailing '\' never matches */
			p++;
			if (*t != *p)
				return WM_NOMATCH;
			break;
		case '?':
			if (pathname && *t == '/')
				return WM_NOMATCH;
			break;
		case '[':
			r = wm_bracket(&p, *t);
			if (r < 0)
				return WM_ABORT_ALL;
			if (!r || (pathname && *t == '/'))
				return WM_NOMATCH;
			break;
		case '*':
			r = wm_star(w, &p, &t);
			if (r != WM_CONTINUE)
				return r;
			break;
		default:
			if (*t != *p)
				return WM_NOMATCH;
			break;
		}
	}
	return *t ? WM_NOMATCH : WM_MATCH;
}

static int wm_run(struct wm *w, const unsigned char *p, const unsigned char *t)
{
	int r;

	if (!w->steps_left || !w->budget->steps_left ||
	    w->depth >= WM_MAX_DEPTH) {
		w->budget->exhausted = 1;
		return WM_ABORT_ALL;
	}
	w->steps_left--;
	w->budget->steps_left--;
	w->depth++;
	r = wm_seq(w, p, t);
	w->depth--;
	return r;
}

/* 1 when the NUL-terminated pattern matches the whole text */
static int wildmatch(const char *pattern, const char *text, unsigned flags,
		     struct budget *b)
{
	struct wm w = { (const unsigned char *)pattern, flags, 0,
			WM_MAX_STEPS, b };

	return wm_run(&w, w.pattern, (const unsigned char *)text) == WM_MATCH;
}

/* ------------------------------------------------------------------ */
/* parsing                                                             */

/* Cut unescaped trailing spaces (spaces only: a tab stays). */
static void trim_trailing_spaces(char *s)
{
	char *p, *cut = NULL;

	for (p = s; *p; p++) {
		if (*p == ' ') {
			if (!cut)
				cut = p;
			continue;
		}
		if (*p == '\\' && !*++p)
			return;
		cut = NULL;
	}
	if (cut)
		*cut = '\0';
}

static size_t simple_length(const char *s)
{
	size_t n = 0;

	while (s[n] && !is_glob_special((unsigned char)s[n]))
		n++;
	return n;
}

/* Parse one line (text, already trimmed; ownership passes to g). */
static void add_rule(struct gitignore *g, char *text, size_t file,
		     unsigned line)
{
	struct gi_rule r = { .text = text, .line = line, .file = file };
	const char *s = text;
	size_t len;

	if (*s == '!') {
		r.flags |= GI_NEGATED;
		s++;
	}
	len = strlen(s);
	if (len && s[len - 1] == '/') {
		len--;
		r.flags |= GI_DIRONLY;
	}
	if (!memchr(s, '/', len))
		r.flags |= GI_BASENAME;
	r.prefix = simple_length(s);
	if (r.prefix > len)
		r.prefix = len;
	if (*s == '*' && !s[1 + simple_length(s + 1)])
		r.flags |= GI_ENDSWITH;
	if (!(r.flags & GI_BASENAME) && *s == '/') {
		/* anchoring: the base directory stands in front */
		s++;
		len--;
		r.prefix--;
	}
	if (!len) {
		/* "", "!", "/", "//": git keeps them, they never match */
		free(text);
		return;
	}
	r.pat = xstrndup(s, len);
	r.len = len;
	grow(&g->rules, sizeof(*g->rules), &g->rules_cap, g->nrules + 1);
	g->rules[g->nrules++] = r;
}

struct gitignore *gitignore_new(void)
{
	return xcalloc(1, sizeof(struct gitignore));
}

void gitignore_add(struct gitignore *g, const char *buf, size_t len,
		   const char *base, const char *source)
{
	const char *p, *end, *eol, *nul;
	struct gi_file *f;
	size_t n, file = g->nfiles;
	unsigned line = 1;
	char *text;

	if (!buf)
		len = 0;
	grow(&g->files, sizeof(*g->files), &g->files_cap, g->nfiles + 1);
	f = &g->files[g->nfiles++];
	if (!base || !strcmp(base, "."))
		base = "";
	n = strlen(base);
	while (n && base[n - 1] == '/')
		n--;
	f->base = xstrndup(base, n);
	f->baselen = n;
	f->source = xstrdup(source ? source : "");

	if (!len)
		return;
	p = buf;
	end = buf + len;
	if (len >= 3 && !memcmp(p, "\xef\xbb\xbf", 3))
		p += 3;
	while (p < end) {
		eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;	/* git adds the missing final newline */
		n = (size_t)(eol - p);
		if (n && *p != '#') {
			if (p[n - 1] == '\r')
				n--;
			nul = memchr(p, '\0', n); /* git sees a C string */
			if (nul)
				n = (size_t)(nul - p);
			text = xstrndup(p, n);
			trim_trailing_spaces(text);
			add_rule(g, text, file, line);
		}
		line++;
		p = eol < end ? eol + 1 : end;
	}
}

/* ------------------------------------------------------------------ */
/* matching                                                            */

static int rule_matches(const struct gi_rule *r, const char *name,
			size_t namelen, const char *basename, size_t baselen,
			struct budget *b)
{
	if (r->flags & GI_BASENAME) {
		if (r->prefix == r->len)
			return r->len == baselen &&
			       !memcmp(r->pat, basename, baselen);
		if (r->flags & GI_ENDSWITH)
			return r->len - 1 <= baselen &&
			       !memcmp(r->pat + 1,
				       basename + baselen - (r->len - 1),
				       r->len - 1);
		return wildmatch(r->pat, basename, 0, b);
	}
	/* The literal head is compared first and the glob matcher only sees
	 * the rest, as git does; this is not just speed: "a**" then starts
	 * the glob text, where "**" may cross directories. */
	if (r->prefix) {
		if (r->prefix > namelen || memcmp(r->pat, name, r->prefix))
			return 0;
		if (r->prefix == r->len)
			return namelen == r->len;
	}
	return wildmatch(r->pat + r->prefix, name + r->prefix, WM_PATHNAME,
			 b);
}

/*
 * The highest-precedence rule matching path (pathlen bytes, NUL-terminated
 * there), or NULL.  Only rules of files whose directory holds the path
 * apply; a path relative to that directory is what anchored patterns see.
 */
static const struct gi_rule *last_match(const struct gitignore *g,
					const char *path, size_t pathlen,
					int is_dir, struct budget *b)
{
	const char *basename = strrchr(path, '/');
	size_t i, blen;

	basename = basename ? basename + 1 : path;
	blen = pathlen - (size_t)(basename - path);
	for (i = g->nrules; i-- > 0;) {
		const struct gi_rule *r = &g->rules[i];
		const struct gi_file *f = &g->files[r->file];
		const char *name = path;

		if (f->baselen) {
			if (pathlen <= f->baselen || path[f->baselen] != '/' ||
			    memcmp(path, f->base, f->baselen))
				continue;
			name = path + f->baselen + 1;
		}
		if ((r->flags & GI_DIRONLY) && !is_dir)
			continue;
		if (rule_matches(r, name, pathlen - (size_t)(name - path),
				 basename, blen, b))
			return r;
	}
	return NULL;
}

int gitignore_match(const struct gitignore *g, const char *path, int is_dir,
		    struct gitignore_match *m)
{
	const struct gi_rule *r = NULL;
	struct budget b = { GI_MAX_STEPS, 0 };
	size_t len = strlen(path), i;
	char *copy;

	if (m)
		memset(m, 0, sizeof(*m));
	while (len && path[len - 1] == '/') {
		len--;
		is_dir = 1;
	}
	if (!len)
		return 0;
	copy = xstrndup(path, len);

	/* A directory git excludes is never entered, so its .gitignore and
	 * every path under it stay excluded: check each parent directory,
	 * outermost first, with the rules of the files above it. */
	for (i = 1; i < len; i++) {
		if (copy[i] != '/')
			continue;
		copy[i] = '\0';
		r = last_match(g, copy, i, 1, &b);
		copy[i] = '/';
		if (r && !(r->flags & GI_NEGATED))
			break;
		r = NULL;
	}
	if (!r)
		r = last_match(g, copy, len, is_dir, &b);
	free(copy);
	if (m)
		m->incomplete = b.exhausted;
	if (!r)
		return 0;
	if (m) {
		m->source = g->files[r->file].source;
		m->line = r->line;
		m->negated = !!(r->flags & GI_NEGATED);
		m->pattern = r->text;
	}
	return !(r->flags & GI_NEGATED);
}

void gitignore_free(struct gitignore *g)
{
	size_t i;

	if (!g)
		return;
	for (i = 0; i < g->nrules; i++) {
		free(g->rules[i].text);
		free(g->rules[i].pat);
	}
	for (i = 0; i < g->nfiles; i++) {
		free(g->files[i].source);
		free(g->files[i].base);
	}
	free(g->rules);
	free(g->files);
	free(g);
}
