/* pep440.c - PEP 440 versions and specifiers, pyenv's .python-version;
 * see pep440.h.  The grammar and the operator rules follow the `packaging`
 * library (packaging.version.VERSION_PATTERN, packaging.specifiers). */
#include "pep440.h"
#include "util.h"
#include "versions.h"

#include <stdlib.h>
#include <string.h>

#define MAX_RELEASE 32
#define MAX_LOCAL 32

/* A decimal number as written with its leading zeros dropped, so n == 0 is
 * zero.  Numbers compare as digit strings: no size limit, no overflow. */
struct num {
	const char *s;
	size_t n;
};

struct local_seg {
	const char *s;
	size_t n;
	int numeric;
};

enum { PRE_NONE = -1, PRE_A, PRE_B, PRE_RC };

/* A parsed version.  It points into the text it was parsed from, which
 * must outlive it. */
struct pver {
	struct num epoch;
	struct num rel[MAX_RELEASE];
	unsigned nrel;
	int pre;			/* PRE_* */
	struct num pre_n;
	int has_post, has_dev;
	struct num post, dev;
	struct local_seg local[MAX_LOCAL];
	unsigned nlocal;
	int wildcard;			/* a specifier's "3.11.*" */
};

static const struct num num_zero = { NULL, 0 };

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static char to_lower(char c)
{
	return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

static int is_alnum(char c)
{
	c = to_lower(c);
	return is_digit(c) || (c >= 'a' && c <= 'z');
}

static int is_sep(char c)
{
	return c == '-' || c == '_' || c == '.';
}

static const char *digits_end(const char *p, const char *end)
{
	while (p < end && is_digit(*p))
		p++;
	return p;
}

static struct num mknum(const char *p, const char *q)
{
	struct num n;

	while (p < q && *p == '0')
		p++;
	n.s = p;
	n.n = (size_t)(q - p);
	return n;
}

static int ncmp(struct num a, struct num b)
{
	return versions_numcmp(a.s, a.n, b.s, b.n);
}

/* Length of word when p starts with it (case-insensitively), else 0. */
static size_t starts_with(const char *p, const char *end, const char *word)
{
	size_t i, n = strlen(word);

	if ((size_t)(end - p) < n)
		return 0;
	for (i = 0; i < n; i++)
		if (to_lower(p[i]) != word[i])
			return 0;
	return n;
}

/* ---- parsing: VERSION_PATTERN, with the regex engine's backtracking ---- */

/* The ways "[-_.]?([0-9]+)?" can match at p, in the order a backtracking
 * regex engine tries them (greediest first): where each ends and the
 * number it holds.  Returns how many (1 to 3). */
static int opt_number(const char *p, const char *end, const char *stop[3],
		      struct num val[3])
{
	const char *q;
	int k = 0;

	if (p < end && is_sep(*p)) {
		q = digits_end(p + 1, end);
		if (q > p + 1) {
			stop[k] = q;
			val[k++] = mknum(p + 1, q);
		}
		stop[k] = p + 1;
		val[k++] = num_zero;
	} else {
		q = digits_end(p, end);
		if (q > p) {
			stop[k] = q;
			val[k++] = mknum(p, q);
		}
	}
	stop[k] = p;
	val[k++] = num_zero;
	return k;
}

static int parse_tail(const char *p, const char *end, int stage,
		      struct pver *v);

static const struct {
	const char *text;
	int kind;
} pre_labels[] = {
	{ "alpha", PRE_A }, { "a", PRE_A }, { "beta", PRE_B }, { "b", PRE_B },
	{ "preview", PRE_RC }, { "pre", PRE_RC }, { "c", PRE_RC },
	{ "rc", PRE_RC },
};

/* (?:[-_.]?(alpha|a|beta|b|preview|pre|c|rc)[-_.]?[0-9]*)? */
static int parse_pre(const char *p, const char *end, struct pver *v)
{
	const char *q = p, *stop[3];
	struct num val[3];
	size_t i, n;
	int k, j;

	if (q < end && is_sep(*q))
		q++;
	for (i = 0; i < ARRAY_SIZE(pre_labels); i++) {
		n = starts_with(q, end, pre_labels[i].text);
		if (!n)
			continue;
		k = opt_number(q + n, end, stop, val);
		for (j = 0; j < k; j++) {
			v->pre = pre_labels[i].kind;
			v->pre_n = val[j];
			if (parse_tail(stop[j], end, 1, v))
				return 1;
		}
		break;
	}
	v->pre = PRE_NONE;
	v->pre_n = num_zero;
	return parse_tail(p, end, 1, v);
}

/* (?:-[0-9]+|[-_.]?(post|rev|r)[-_.]?[0-9]*)? */
static int parse_post(const char *p, const char *end, struct pver *v)
{
	static const char *const labels[] = { "post", "rev", "r" };
	const char *q, *stop[3];
	struct num val[3];
	size_t i, n;
	int k, j;

	v->has_post = 1;
	if (p < end && *p == '-') {
		q = digits_end(p + 1, end);
		if (q > p + 1) {
			v->post = mknum(p + 1, q);
			if (parse_tail(q, end, 2, v))
				return 1;
		}
	}
	q = p;
	if (q < end && is_sep(*q))
		q++;
	for (i = 0; i < ARRAY_SIZE(labels); i++) {
		n = starts_with(q, end, labels[i]);
		if (!n)
			continue;
		k = opt_number(q + n, end, stop, val);
		for (j = 0; j < k; j++) {
			v->post = val[j];
			if (parse_tail(stop[j], end, 2, v))
				return 1;
		}
		break;
	}
	v->has_post = 0;
	v->post = num_zero;
	return parse_tail(p, end, 2, v);
}

/* (?:[-_.]?dev[-_.]?[0-9]*)? */
static int parse_dev(const char *p, const char *end, struct pver *v)
{
	const char *q = p, *stop[3];
	struct num val[3];
	size_t n;
	int k, j;

	if (q < end && is_sep(*q))
		q++;
	n = starts_with(q, end, "dev");
	if (n) {
		k = opt_number(q + n, end, stop, val);
		v->has_dev = 1;
		for (j = 0; j < k; j++) {
			v->dev = val[j];
			if (parse_tail(stop[j], end, 3, v))
				return 1;
		}
	}
	v->has_dev = 0;
	v->dev = num_zero;
	return parse_tail(p, end, 3, v);
}

/* (?:\+[a-z0-9]+(?:[-_.][a-z0-9]+)*)? and the end of the text */
static int parse_local(const char *p, const char *end, struct pver *v)
{
	v->nlocal = 0;
	if (p == end)
		return 1;
	if (*p != '+')
		return 0;
	p++;
	for (;;) {
		const char *q = p;
		struct local_seg *seg;

		while (q < end && is_alnum(*q))
			q++;
		if (q == p || v->nlocal == MAX_LOCAL)
			return 0;
		seg = &v->local[v->nlocal++];
		seg->numeric = digits_end(p, q) == q;
		if (seg->numeric) {
			struct num n = mknum(p, q);

			seg->s = n.s;
			seg->n = n.n;
		} else {
			seg->s = p;
			seg->n = (size_t)(q - p);
		}
		if (q == end)
			return 1;
		if (!is_sep(*q))
			return 0;
		p = q + 1;
	}
}

/* Match the rest of the pattern from stage on: 1 when it matches to the
 * end of the text, with v filled in. */
static int parse_tail(const char *p, const char *end, int stage,
		      struct pver *v)
{
	switch (stage) {
	case 0:
		return parse_pre(p, end, v);
	case 1:
		return parse_post(p, end, v);
	case 2:
		return parse_dev(p, end, v);
	default:
		return parse_local(p, end, v);
	}
}

/* Parse s[0..len) (surrounding whitespace allowed) into *v.  With
 * allow_wildcard, "X.Y.*" (release numbers only) is accepted too.
 * Returns 0 or -1. */
static int pver_parse(const char *s, size_t len, int allow_wildcard,
		      struct pver *v)
{
	const char *p, *end, *q;

	memset(v, 0, sizeof(*v));
	v->pre = PRE_NONE;
	versions_trim(&s, &len);
	p = s;
	end = s + len;
	if (p < end && to_lower(*p) == 'v')
		p++;
	q = digits_end(p, end);
	if (q > p && q < end && *q == '!') {
		v->epoch = mknum(p, q);
		p = q + 1;
	}
	for (;;) {
		q = digits_end(p, end);
		if (q == p || v->nrel == MAX_RELEASE)
			return -1;
		v->rel[v->nrel++] = mknum(p, q);
		p = q;
		if (end - p >= 2 && p[0] == '.' && is_digit(p[1]))
			p++;
		else
			break;
	}
	if (allow_wildcard && end - p == 2 && p[0] == '.' && p[1] == '*') {
		v->wildcard = 1;
		return 0;
	}
	return parse_tail(p, end, 0, v) ? 0 : -1;
}

/* ---- ordering (packaging's _cmpkey) ---- */

/* Compare the first n release numbers, the shorter padded with zeros. */
static int release_cmp(const struct pver *a, const struct pver *b, unsigned n)
{
	unsigned i;
	int c;

	for (i = 0; i < n; i++) {
		c = ncmp(i < a->nrel ? a->rel[i] : num_zero,
			 i < b->nrel ? b->rel[i] : num_zero);
		if (c)
			return c;
	}
	return 0;
}

static unsigned max_rel(const struct pver *a, const struct pver *b)
{
	return a->nrel > b->nrel ? a->nrel : b->nrel;
}

/* 1.0.dev0 < 1.0a0 < 1.0b0 < 1.0rc0 < 1.0 */
static int pre_rank(const struct pver *v)
{
	if (v->pre == PRE_NONE && !v->has_post && v->has_dev)
		return -1;
	return v->pre == PRE_NONE ? 3 : v->pre;
}

static int seg_cmp(const struct local_seg *a, const struct local_seg *b)
{
	size_t i;

	if (a->numeric != b->numeric)
		return a->numeric ? 1 : -1;	/* numbers sort above words */
	if (a->numeric)
		return versions_numcmp(a->s, a->n, b->s, b->n);
	for (i = 0; i < a->n && i < b->n; i++) {
		char x = to_lower(a->s[i]), y = to_lower(b->s[i]);

		if (x != y)
			return x < y ? -1 : 1;
	}
	return a->n == b->n ? 0 : (a->n < b->n ? -1 : 1);
}

static int local_cmp(const struct pver *a, const struct pver *b)
{
	unsigned i;
	int c;

	for (i = 0; i < a->nlocal && i < b->nlocal; i++) {
		c = seg_cmp(&a->local[i], &b->local[i]);
		if (c)
			return c;
	}
	return a->nlocal == b->nlocal ? 0 : (a->nlocal < b->nlocal ? -1 : 1);
}

static int pver_cmp(const struct pver *a, const struct pver *b, int with_local)
{
	int c, ra = pre_rank(a), rb = pre_rank(b);

	if ((c = ncmp(a->epoch, b->epoch)) != 0)
		return c;
	if ((c = release_cmp(a, b, max_rel(a, b))) != 0)
		return c;
	if (ra != rb)
		return ra < rb ? -1 : 1;
	if (ra >= PRE_A && ra <= PRE_RC && (c = ncmp(a->pre_n, b->pre_n)) != 0)
		return c;
	if (a->has_post != b->has_post)
		return a->has_post ? 1 : -1;
	if ((c = ncmp(a->post, b->post)) != 0)
		return c;
	if (a->has_dev != b->has_dev)
		return a->has_dev ? -1 : 1;
	if ((c = ncmp(a->dev, b->dev)) != 0)
		return c;
	return with_local ? local_cmp(a, b) : 0;
}

static int is_prerelease(const struct pver *v)
{
	return v->pre != PRE_NONE || v->has_dev;
}

/* Same epoch, and the first n release numbers equal (zero padded). */
static int prefix_eq(const struct pver *a, const struct pver *b, unsigned n)
{
	return ncmp(a->epoch, b->epoch) == 0 && release_cmp(a, b, n) == 0;
}

static int base_eq(const struct pver *a, const struct pver *b)
{
	return prefix_eq(a, b, max_rel(a, b));
}

static void put_num(struct buf *b, struct num n)
{
	if (n.n)
		buf_add(b, n.s, n.n);
	else
		buf_putc(b, '0');
}

/* The normalised form, as str(packaging.version.Version) prints it. */
static void pver_format(const struct pver *v, struct buf *b)
{
	static const char *const pre[] = { "a", "b", "rc" };
	unsigned i;
	size_t j;

	if (v->epoch.n) {
		put_num(b, v->epoch);
		buf_putc(b, '!');
	}
	for (i = 0; i < v->nrel; i++) {
		if (i)
			buf_putc(b, '.');
		put_num(b, v->rel[i]);
	}
	if (v->pre != PRE_NONE) {
		buf_puts(b, pre[v->pre]);
		put_num(b, v->pre_n);
	}
	if (v->has_post) {
		buf_puts(b, ".post");
		put_num(b, v->post);
	}
	if (v->has_dev) {
		buf_puts(b, ".dev");
		put_num(b, v->dev);
	}
	for (i = 0; i < v->nlocal; i++) {
		buf_putc(b, i ? '.' : '+');
		if (v->local[i].numeric) {
			put_num(b, (struct num){ v->local[i].s, v->local[i].n });
			continue;
		}
		for (j = 0; j < v->local[i].n; j++)
			buf_putc(b, to_lower(v->local[i].s[j]));
	}
}

/* ---- specifiers ---- */

enum op { OP_ARB, OP_COMPAT, OP_EQ, OP_NE, OP_LE, OP_GE, OP_LT, OP_GT };

static const struct {
	const char *text;
	enum op op;
} ops[] = {
	{ "===", OP_ARB }, { "~=", OP_COMPAT }, { "==", OP_EQ },
	{ "!=", OP_NE }, { "<=", OP_LE }, { ">=", OP_GE }, { "<", OP_LT },
	{ ">", OP_GT },
};

/* The version the user gave, as written and as parsed. */
struct candidate {
	const char *raw;
	size_t len;
	struct pver v;
};

static int op_eq(const struct pver *c, const struct pver *s)
{
	if (s->wildcard)
		return prefix_eq(c, s, s->nrel);
	return pver_cmp(c, s, s->nlocal != 0) == 0;
}

/* The operator rules of packaging.specifiers.Specifier. */
static int op_eval(enum op op, const struct pver *c, const struct pver *s)
{
	switch (op) {
	case OP_EQ:
		return op_eq(c, s);
	case OP_NE:
		return !op_eq(c, s);
	case OP_COMPAT:		/* ~=2.2.1 is >=2.2.1, ==2.2.* */
		return pver_cmp(c, s, 0) >= 0 && prefix_eq(c, s, s->nrel - 1);
	case OP_LE:
		return pver_cmp(c, s, 0) <= 0;
	case OP_GE:
		return pver_cmp(c, s, 0) >= 0;
	case OP_LT:		/* <3.1 must not admit 3.1.dev0 */
		if (pver_cmp(c, s, 1) >= 0)
			return 0;
		return !(!is_prerelease(s) && is_prerelease(c) && base_eq(c, s));
	case OP_GT:		/* >3.1 must not admit 3.1.post1 nor 3.1+local */
		if (pver_cmp(c, s, 1) <= 0)
			return 0;
		if (!s->has_post && c->has_post && base_eq(c, s))
			return 0;
		return !(c->nlocal && base_eq(c, s));
	case OP_ARB:
		break;
	}
	return 0;
}

static int ci_equal(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t i;

	if (alen != blen)
		return 0;
	for (i = 0; i < alen; i++)
		if (to_lower(a[i]) != to_lower(b[i]))
			return 0;
	return 1;
}

/* "===": string equality, with the version as written or normalised. */
static int arbitrary_eq(const struct candidate *c, const char *s, size_t n)
{
	struct buf norm = BUF_INIT;
	int eq;

	pver_format(&c->v, &norm);
	eq = ci_equal(c->raw, c->len, s, n) ||
	     ci_equal(norm.s, norm.len, s, n);
	buf_release(&norm);
	return eq;
}

static int has_space(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (versions_isspace((unsigned char)s[i]))
			return 1;
	return 0;
}

static int clause_error(char *err, size_t errlen, const char *s, size_t n,
			const char *why)
{
	char q[VERSIONS_QUOTE_MAX];

	versions_err(err, errlen, "'%s': %s",
		     versions_quote(q, sizeof(q), s, n), why);
	return -1;
}

/* Check that version s[0..n) suits op; returns 0 or -1 with err. */
static int clause_version_ok(enum op op, const char *clause, size_t clen,
			     const char *s, size_t n, struct pver *v,
			     char *err, size_t errlen)
{
	if (pver_parse(s, n, op == OP_EQ || op == OP_NE, v) < 0) {
		if (has_space(s, n))
			return clause_error(err, errlen, clause, clen,
				"not a PEP 440 clause (separate clauses with ',')");
		if (n >= 2 && s[n - 2] == '.' && s[n - 1] == '*')
			return clause_error(err, errlen, clause, clen,
				"'.*' only follows release numbers, after == or !=");
		return clause_error(err, errlen, clause, clen,
				    "not a PEP 440 version in the clause");
	}
	if (v->nlocal && op != OP_EQ && op != OP_NE)
		return clause_error(err, errlen, clause, clen,
			"a local version (+...) only goes with == and !=");
	if (op == OP_COMPAT && v->nrel < 2)
		return clause_error(err, errlen, clause, clen,
			"'~=' needs at least two release numbers, as in ~=3.11");
	return 0;
}

/* Evaluate one clause against c: 1, 0, or -1 with err. */
static int clause_eval(const char *s, size_t n, const struct candidate *c,
		       char *err, size_t errlen)
{
	const char *clause = s, *vs;
	size_t i, vn, clen = n, k = 0;
	struct pver v;

	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		k = starts_with(s, s + n, ops[i].text);
		if (k)
			break;
	}
	if (i == ARRAY_SIZE(ops))
		return clause_error(err, errlen, clause, clen,
			"expected an operator (==, !=, <=, >=, <, >, ~=, ===)");
	vs = s + k;
	vn = n - k;
	versions_trim(&vs, &vn);
	if (ops[i].op == OP_ARB) {
		size_t j;

		for (j = 0; j < vn; j++)
			if (vs[j] == ';' || vs[j] == ')' ||
			    versions_isspace((unsigned char)vs[j]))
				return clause_error(err, errlen, clause, clen,
					"'===' takes one word");
		return arbitrary_eq(c, vs, vn);
	}
	if (clause_version_ok(ops[i].op, clause, clen, vs, vn, &v, err, errlen) < 0)
		return -1;
	return op_eval(ops[i].op, &c->v, &v);
}

int pep440_check(const char *specifier, const char *version,
		 char *err, size_t errlen)
{
	struct candidate c;
	const char *p = specifier, *end;
	char q[VERSIONS_QUOTE_MAX];
	int result = 1;

	c.raw = version ? version : "";
	c.len = strlen(c.raw);
	versions_trim(&c.raw, &c.len);
	if (pver_parse(c.raw, c.len, 0, &c.v) < 0) {
		versions_err(err, errlen, "'%s': not a PEP 440 version",
			     versions_quote(q, sizeof(q), c.raw, c.len));
		return -1;
	}
	if (!p)
		return 1;
	end = p + strlen(p);
	/* every clause is checked, so that a bad one is never hidden behind
	 * an earlier one that fails */
	while (p <= end) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *s = p;
		size_t n = (size_t)((comma ? comma : end) - p);
		int r;

		versions_trim(&s, &n);
		if (n) {
			r = clause_eval(s, n, &c, err, errlen);
			if (r < 0)
				return -1;
			if (!r)
				result = 0;
		}
		if (!comma)
			break;
		p = comma + 1;
	}
	return result;
}

int pep440_compare(const char *a, const char *b, int *cmp)
{
	struct pver va, vb;

	if (!a || !b || pver_parse(a, strlen(a), 0, &va) < 0 ||
	    pver_parse(b, strlen(b), 0, &vb) < 0)
		return -1;
	*cmp = pver_cmp(&va, &vb, 1);
	return 0;
}

int pep440_normalize(const char *v, char *buf, size_t size)
{
	struct pver pv;
	struct buf b = BUF_INIT;
	int rc = -1;

	if (v && pver_parse(v, strlen(v), 0, &pv) == 0) {
		pver_format(&pv, &b);
		if (b.len < size) {
			memcpy(buf, buf_str(&b), b.len + 1);
			rc = 0;
		}
	}
	buf_release(&b);
	return rc;
}

int pep440_python_output(const char *out, size_t len, char *buf, size_t buflen)
{
	const char *p = out, *w;
	size_t n = len;
	struct pver v;

	versions_trim(&p, &n);
	if (n >= 7 && memcmp(p, "Python ", 7) == 0) {
		p += 7;
		n -= 7;
		versions_trim(&p, &n);
	}
	w = p;
	while ((size_t)(p - w) < n && *p && !versions_isspace((unsigned char)*p))
		p++;
	n = (size_t)(p - w);
	if (n && w[n - 1] == '+')	/* "3.13.0a0+" from a source build */
		n--;
	if (!n || n >= buflen || pver_parse(w, n, 0, &v) < 0)
		return -1;
	memcpy(buf, w, n);
	buf[n] = '\0';
	return 0;
}

/* ---- pyenv ---- */

/* pyenv's CPython names: "3.11", "3.11.7", "3.13.0rc1", "3.14-dev",
 * "3.13t", "python-3.12".  ver[0..len) is the version part. */
struct cpython_name {
	const char *ver;
	size_t len;
	int dev;
};

static int cpython_name_parse(const char *s, size_t len, struct cpython_name *c)
{
	static const char *const pre[] = { "rc", "a", "b" };
	const char *p, *end;
	size_t i;

	if (len > 7 && memcmp(s, "python-", 7) == 0)
		s += 7, len -= 7;
	c->dev = len > 4 && memcmp(s + len - 4, "-dev", 4) == 0;
	if (c->dev)
		len -= 4;
	if (len > 1 && s[len - 1] == 't' && is_digit(s[len - 2]))
		len--;			/* free-threaded build */
	c->ver = s;
	c->len = len;
	p = s;
	end = s + len;
	for (;;) {
		const char *q = digits_end(p, end);

		if (q == p)
			return -1;
		p = q;
		if (p < end && *p == '.')
			p++;
		else
			break;
	}
	if (p == end)
		return 0;
	for (i = 0; i < ARRAY_SIZE(pre); i++) {
		size_t k = strlen(pre[i]);

		if ((size_t)(end - p) > k && memcmp(p, pre[i], k) == 0 &&
		    digits_end(p + k, end) == end)
			return 0;
	}
	return -1;
}

static enum pyenv_kind pyenv_classify(const char *s, size_t len)
{
	struct cpython_name c;

	if ((len == 2 && memcmp(s, "..", 2) == 0) || memchr(s, '/', len))
		return PYENV_IGNORED;
	if (len == 6 && memcmp(s, "system", 6) == 0)
		return PYENV_SYSTEM;
	if (cpython_name_parse(s, len, &c) == 0)
		return PYENV_CPYTHON;
	return PYENV_OTHER;
}

int pyenv_parse(const char *buf, size_t len, struct pyenv_file *out,
		struct parse_error *err)
{
	struct versions_line ln = { NULL, 0, 0 };
	size_t pos = 0;

	memset(out, 0, sizeof(*out));
	if (versions_text(buf, len, err) < 0)
		return -1;
	while (versions_next_line(buf, len, &pos, &ln)) {
		/* pyenv reads lines with bash's `read`: IFS plus '\r' */
		const char *w = ln.s;
		size_t n = versions_next_word(&w, ln.s + ln.len);
		struct pyenv_entry *e;

		if (!n || *w == '#')
			continue;
		grow(&out->v, sizeof(*out->v), &out->cap, out->n + 1);
		e = &out->v[out->n++];
		e->name = xstrndup(w, n);
		e->line = ln.no;
		e->col = (unsigned)(w - ln.s) + 1;
		e->kind = pyenv_classify(w, n);
	}
	return 0;
}

int pyenv_matches(const struct pyenv_entry *e, const char *found)
{
	struct cpython_name c;
	struct pver f, want;

	if (!found || pver_parse(found, strlen(found), 0, &f) < 0)
		return -1;
	if (e->kind == PYENV_SYSTEM)
		return 1;
	if (e->kind != PYENV_CPYTHON ||
	    cpython_name_parse(e->name, strlen(e->name), &c) < 0 ||
	    pver_parse(c.ver, c.len, 0, &want) < 0)
		return -1;
	if (c.dev)		/* "3.14-dev": a build of the 3.14 branch */
		return prefix_eq(&f, &want, want.nrel);
	if (want.pre != PRE_NONE || want.nrel >= 3)
		return pver_cmp(&f, &want, 0) == 0;
	/* "pyenv latest" never picks a pre-release for a prefix */
	return prefix_eq(&f, &want, want.nrel) && !is_prerelease(&f);
}

void pyenv_release(struct pyenv_file *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		free(f->v[i].name);
	free(f->v);
	memset(f, 0, sizeof(*f));
}
