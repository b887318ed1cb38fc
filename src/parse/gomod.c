/* gomod.c - go.mod "go" / "toolchain" lines and Go versions; see gomod.h */
#include "gomod.h"
#include "util.h"
#include "versions.h"

#include <stdlib.h>
#include <string.h>

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* ---- Go versions, after Go's internal/gover ---- */

struct span {
	const char *s;
	size_t n;
};

struct gover {
	struct span major, minor, patch, kind, pre;
};

/* A decimal number without a leading zero ("0" itself is fine). */
static int cut_int(const char **p, const char *end, struct span *out)
{
	const char *q = *p;

	while (q < end && is_digit(*q))
		q++;
	if (q == *p || (**p == '0' && q - *p != 1))
		return -1;
	out->s = *p;
	out->n = (size_t)(q - *p);
	*p = q;
	return 0;
}

/* gover's cmpInt: an absent number ("") sorts below every number. */
static int cmp_int(struct span a, struct span b)
{
	if (!a.n || !b.n)
		return (a.n != 0) - (b.n != 0);
	return versions_numcmp(a.s, a.n, b.s, b.n);
}

static int cmp_str(struct span a, struct span b)
{
	size_t n = a.n < b.n ? a.n : b.n;
	int c = n ? memcmp(a.s, b.s, n) : 0;

	if (c)
		return c < 0 ? -1 : 1;
	return a.n == b.n ? 0 : (a.n < b.n ? -1 : 1);
}

/* gover.parse: "1", "1.21", "1.21.3", "1.21rc1".  Returns 0 or -1. */
static int gover_parse(const char *s, size_t len, struct gover *v)
{
	static const struct span zero = { "0", 1 };
	const char *p = s, *end = s + len, *k;

	memset(v, 0, sizeof(*v));
	if (cut_int(&p, end, &v->major) < 0)
		return -1;
	if (p == end) {			/* "1" is 1.0.0 */
		v->minor = v->patch = zero;
		return 0;
	}
	if (*p++ != '.' || cut_int(&p, end, &v->minor) < 0)
		return -1;
	if (p == end) {
		/* before 1.21, "1.20" was the name of 1.20.0 */
		struct span v21 = { "21", 2 };

		if (cmp_int(v->minor, v21) < 0)
			v->patch = zero;
		return 0;
	}
	if (*p == '.') {
		p++;
		return cut_int(&p, end, &v->patch) == 0 && p == end ? 0 : -1;
	}
	for (k = p; p < end && !is_digit(*p); p++)
		if (*p < 'a' || *p > 'z')
			return -1;
	if (p == k)
		return -1;
	v->kind.s = k;
	v->kind.n = (size_t)(p - k);
	if (p == end)
		return 0;
	return cut_int(&p, end, &v->pre) == 0 && p == end ? 0 : -1;
}

static int gover_cmp(const struct gover *a, const struct gover *b)
{
	int c;

	if ((c = cmp_int(a->major, b->major)) != 0 ||
	    (c = cmp_int(a->minor, b->minor)) != 0 ||
	    (c = cmp_int(a->patch, b->patch)) != 0 ||
	    (c = cmp_str(a->kind, b->kind)) != 0)	/* "" < beta < rc */
		return c;
	return cmp_int(a->pre, b->pre);
}

/* Find the version in `go version` output, a toolchain name or a bare
 * version, and parse it. */
static int gover_find(const char *s, struct gover *v)
{
	size_t len, n;

	if (!s)
		return -1;
	len = strlen(s);
	versions_trim(&s, &len);
	if (versions_starts(s, len, "go version ")) {
		s += 11, len -= 11;
		versions_trim(&s, &len);
	}
	if (versions_starts(s, len, "devel ")) {	/* "devel go1.23-abcdef Tue ..." */
		s += 6, len -= 6;
		versions_trim(&s, &len);
	}
	if (versions_starts(s, len, "go"))
		s += 2, len -= 2;
	/* gover.FromToolchain: a suffix after '-', '+' or a blank goes */
	for (n = 0; n < len; n++)
		if (s[n] == '-' || s[n] == '+' || versions_isspace((unsigned char)s[n]))
			break;
	return gover_parse(s, n, v);
}

int goversion_at_least(const char *found, const char *min)
{
	struct gover f, m;

	if (gover_find(found, &f) < 0 || gover_find(min, &m) < 0)
		return -1;
	return gover_cmp(&f, &m) >= 0;
}

/* ---- go.mod ---- */

/* Cut a "//" comment off the line, minding "..." and `...` strings. */
static void cut_comment(struct versions_line *ln)
{
	size_t i;
	char quote = 0;

	for (i = 0; i < ln->len; i++) {
		char c = ln->s[i];

		if (quote) {
			if (c == '\\' && quote == '"')
				i++;
			else if (c == quote)
				quote = 0;
		} else if (c == '"' || c == '`') {
			quote = c;
		} else if (c == '/' && i + 1 < ln->len && ln->s[i + 1] == '/') {
			ln->len = i;
			return;
		}
	}
}

/* Split a line into at most 3 words; returns how many (3 means "more"). */
static unsigned split_words(const struct versions_line *ln, struct span w[3])
{
	const char *p = ln->s, *end = ln->s + ln->len;
	unsigned n = 0;
	size_t len;

	while (n < 3 && (len = versions_next_word(&p, end))) {
		w[n].s = p;
		w[n].n = len;
		n++;
		p += len;
	}
	return n;
}

/* modfile.GoVersionRE: ^([1-9][0-9]*)\.(0|[1-9][0-9]*)(\.(0|[1-9][0-9]*))?([a-z]+[0-9]+)?$ */
static int go_line_version_ok(struct span v)
{
	const char *p = v.s, *end = v.s + v.n, *q;
	struct span n;

	if (p == end || *p == '0' || cut_int(&p, end, &n) < 0)
		return 0;
	if (p == end || *p++ != '.' || cut_int(&p, end, &n) < 0)
		return 0;
	if (p < end && *p == '.') {
		p++;
		if (cut_int(&p, end, &n) < 0)
			return 0;
	}
	if (p == end)
		return 1;
	for (q = p; p < end && *p >= 'a' && *p <= 'z'; p++)
		;
	if (p == q || p == end)
		return 0;
	while (p < end && is_digit(*p))
		p++;
	return p == end;
}

/* modfile.ToolchainRE: ^default$|^go1($|\.) */
static int toolchain_ok(struct span v)
{
	if (v.n == 7 && memcmp(v.s, "default", 7) == 0)
		return 1;
	return versions_starts(v.s, v.n, "go1") && (v.n == 3 || v.s[3] == '.');
}

struct directive {
	const char *verb;
	const char *usage;
	int (*valid)(struct span);
	const char *format;
};

static const struct directive dir_go = {
	"go", "go 1.23", go_line_version_ok, "1.23.0"
};
static const struct directive dir_toolchain = {
	"toolchain", "toolchain go1.23.0", toolchain_ok, "go1.23.0 or default"
};

/* One "go" or "toolchain" line with its words; stores into *val. */
static int take_directive(const struct directive *d, const struct span *w,
			  unsigned nw, const struct versions_line *ln,
			  char **val, unsigned *vline, unsigned *vcol,
			  struct parse_error *e)
{
	char q[VERSIONS_QUOTE_MAX];
	unsigned col = (unsigned)(w[0].s - ln->s) + 1;

	if (*val) {
		parse_error_set(e, ln->no, col, "repeated %s statement (first "
				"on line %u)", d->verb, *vline);
		return -1;
	}
	if (nw == 2 && w[1].n == 1 && w[1].s[0] == '(') {
		parse_error_set(e, ln->no, col, "'%s' cannot be a block", d->verb);
		return -1;
	}
	if (nw != 2) {
		parse_error_set(e, ln->no, col, "'%s' expects exactly one "
				"argument (usage: %s)", d->verb, d->usage);
		return -1;
	}
	col = (unsigned)(w[1].s - ln->s) + 1;
	if (!d->valid(w[1])) {
		parse_error_set(e, ln->no, col, "invalid %s version '%s': must "
				"match format %s", d->verb,
				versions_quote(q, sizeof(q), w[1].s, w[1].n),
				d->format);
		return -1;
	}
	*val = xstrndup(w[1].s, w[1].n);
	*vline = ln->no;
	*vcol = col;
	return 0;
}

static int is_word(struct span w, const char *word)
{
	return w.n == strlen(word) && memcmp(w.s, word, w.n) == 0;
}

int gomod_parse(const char *buf, size_t len, struct gomod *out,
		struct parse_error *e)
{
	struct versions_line ln = { NULL, 0, 0 };
	size_t pos = 0;
	int in_block = 0, rc = 0;

	memset(out, 0, sizeof(*out));
	if (versions_text(buf, len, e) < 0)
		return -1;
	while (rc == 0 && versions_next_line(buf, len, &pos, &ln)) {
		struct span w[3];
		unsigned nw;

		cut_comment(&ln);
		nw = split_words(&ln, w);
		if (!nw)
			continue;
		if (in_block) {
			in_block = !(nw == 1 && is_word(w[0], ")"));
			continue;
		}
		if (is_word(w[0], "go"))
			rc = take_directive(&dir_go, w, nw, &ln, &out->go,
					    &out->go_line, &out->go_col, e);
		else if (is_word(w[0], "toolchain"))
			rc = take_directive(&dir_toolchain, w, nw, &ln,
					    &out->toolchain,
					    &out->toolchain_line,
					    &out->toolchain_col, e);
		else if ((nw == 2 && is_word(w[1], "(")) ||
			 (nw == 1 && w[0].n > 1 && w[0].s[w[0].n - 1] == '('))
			in_block = 1;	/* "require (" ... ")" */
	}
	if (rc)
		gomod_release(out);
	return rc;
}

void gomod_release(struct gomod *m)
{
	free(m->go);
	free(m->toolchain);
	memset(m, 0, sizeof(*m));
}
