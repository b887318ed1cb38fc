/* semver.c - node-semver 7.x versions, ranges and satisfies, by hand.
 *
 * node-semver does not parse a range with a grammar: it rewrites the text
 * through a pipeline of regular expressions (build-metadata strip, hyphen
 * ranges, whitespace trims, caret/tilde/x-range desugaring, star removal,
 * ">=0.0.0" removal) and only then parses what is left as plain comparators.
 * Its canonical text, its loose-mode quirks and its error cases all fall out
 * of that pipeline, so this file runs the same stages in the same order,
 * each one a hand-written linear scan over the text, rather than a grammar
 * of its own that would drift from npm on odd input.
 *
 * The regular expressions node-semver uses are its "safe" variants: every
 * \s* or \s+ becomes \s{0,1} or \s{1,1} (harmless, the range's whitespace
 * is collapsed first), digit runs are capped at 256 and letter-digit-hyphen
 * runs at 250.  The caps are reproduced where they change an answer.
 *
 * Where a regular expression could match in more than one way, the way the
 * JavaScript engine picks (greedy, first alternative first) is the one
 * reproduced.  The only place that matters is loose mode, where the patch
 * number may lend its last digit to a prerelease that has no "-":
 * "1.2.34.5" is 1.2.3-4.5 (see xp_match).
 */
#include "semver.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SV_MAX_LENGTH 256		/* longest version string */
#define SV_MAX_SAFE 9007199254740991ULL	/* Number.MAX_SAFE_INTEGER */
#define SV_MAX_DIGITS 256		/* \d{1,256} in the safe regexes */
#define SV_MAX_RUN 250			/* [a-zA-Z0-9-]{0,250} likewise */

/* A captured group, or p == NULL for one that did not take part (what
 * JavaScript hands the replacer as undefined). */
struct str {
	const char *p;
	size_t n;
};

/* ---- characters ---- */

static int is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static int is_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* [a-zA-Z0-9-]: the characters of prerelease and build identifiers. */
static int is_idc(int c)
{
	return is_digit(c) || is_alpha(c) || c == '-';
}

/* Bytes of the JavaScript whitespace character (what \s matches and trim()
 * removes, Unicode spaces included) at s[i], or 0.  Input is UTF-8. */
static size_t ws_len(const char *s, size_t n, size_t i)
{
	const unsigned char *u = (const unsigned char *)s + i;
	size_t left = n - i;

	if (i >= n)
		return 0;
	if (u[0] == ' ' || (u[0] >= '\t' && u[0] <= '\r'))
		return 1;
	if (u[0] < 0x80)
		return 0;
	if (left >= 2 && u[0] == 0xc2 && u[1] == 0xa0)		/* U+00A0 */
		return 2;
	if (left < 3)
		return 0;
	if (u[0] == 0xe1 && u[1] == 0x9a && u[2] == 0x80)	/* U+1680 */
		return 3;
	if (u[0] == 0xe2 && u[1] == 0x80 &&			/* U+2000-200A, */
	    ((u[2] >= 0x80 && u[2] <= 0x8a) ||			/* U+2028/9, */
	     u[2] == 0xa8 || u[2] == 0xa9 || u[2] == 0xaf))	/* U+202F */
		return 3;
	if (u[0] == 0xe2 && u[1] == 0x81 && u[2] == 0x9f)	/* U+205F */
		return 3;
	if (u[0] == 0xe3 && u[1] == 0x80 && u[2] == 0x80)	/* U+3000 */
		return 3;
	if (u[0] == 0xef && u[1] == 0xbb && u[2] == 0xbf)	/* U+FEFF */
		return 3;
	return 0;
}

/* String.prototype.trim(): [*a, *b) is s without surrounding whitespace. */
static void js_trim(const char *s, size_t n, size_t *a, size_t *b)
{
	size_t i = 0, w, end;

	while ((w = ws_len(s, n, i)))
		i += w;
	*a = end = i;
	while (i < n) {
		if ((w = ws_len(s, n, i))) {
			i += w;
		} else {
			i++;
			end = i;
		}
	}
	*b = end;
}

/* The length JavaScript would report (UTF-16 code units) for UTF-8 text;
 * a byte that is not valid UTF-8 counts as one (it decodes to U+FFFD). */
static size_t js_length(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, units = 0, k, j;

	while (i < n) {
		if (u[i] < 0x80)
			k = 1;
		else if (u[i] >= 0xc2 && u[i] <= 0xdf)
			k = 2;
		else if (u[i] >= 0xe0 && u[i] <= 0xef)
			k = 3;
		else if (u[i] >= 0xf0 && u[i] <= 0xf4)
			k = 4;
		else
			k = 1;
		for (j = 1; j < k; j++)
			if (i + j >= n || (u[i + j] & 0xc0) != 0x80)
				break;
		if (j < k)
			k = 1;
		units += k == 4 ? 2 : 1;
		i += k;
	}
	return units;
}

/* ---- numbers ---- */

/* The value of a digit string, saturated at 2^53 (everything that big is
 * rejected or treated alike by node-semver). */
static unsigned long long digits_value(const char *s, size_t n)
{
	unsigned long long v = 0;

	while (n && *s == '0') {
		s++;
		n--;
	}
	if (n > 16)
		return SV_MAX_SAFE + 1;
	while (n--)
		v = v * 10 + (unsigned long long)(*s++ - '0');
	return v > SV_MAX_SAFE ? SV_MAX_SAFE + 1 : v;
}

static int all_digits(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!is_digit(s[i]))
			return 0;
	return n > 0;
}

/* +s for a digit string, as a double (strtod rounds as JavaScript does). */
static double digits_double(const char *s, size_t n)
{
	char tmp[SV_MAX_DIGITS + 8];

	if (n >= sizeof(tmp))
		n = sizeof(tmp) - 1;	/* callers never pass more than 257 */
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	return strtod(tmp, NULL);
}

/* Append the decimal digits of v (printf is the slow part otherwise). */
static void add_ull(struct buf *out, unsigned long long v)
{
	char tmp[24];
	size_t i = sizeof(tmp);

	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	buf_add(out, tmp + i, sizeof(tmp) - i);
}

/* Append String(v) for an integral double v >= 1, as JavaScript writes it:
 * the shortest digits that read back as v, padded with zeros below 1e21,
 * in exponent form from 1e21 on. */
static void js_number(struct buf *out, double v)
{
	char tmp[64], digits[32] = "0";	/* defined even if no digit is found */
	int prec, exp = 0, nd = 0;
	const char *e;
	size_t i;

	if (v <= 9007199254740992.0) {	/* 2^53: exact as an integer */
		add_ull(out, (unsigned long long)v);
		return;
	}
	for (prec = 1; prec <= 17; prec++) {
		snprintf(tmp, sizeof(tmp), "%.*e", prec - 1, v);
		if (strtod(tmp, NULL) == v)
			break;
	}
	e = strchr(tmp, 'e');
	for (i = 0; tmp + i < e && nd < 30; i++)
		if (is_digit(tmp[i]))
			digits[nd++] = tmp[i];
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	if (e)
		exp = (int)strtol(e + 1, NULL, 10);
	if (exp < 21) {
		buf_add(out, digits, (size_t)nd);
		for (i = (size_t)nd; i < (size_t)exp + 1; i++)
			buf_putc(out, '0');
		return;
	}
	buf_putc(out, digits[0]);
	if (nd > 1) {
		buf_putc(out, '.');
		buf_add(out, digits + 1, (size_t)nd - 1);
	}
	buf_printf(out, "e+%d", exp);
}

/* Append `${+s + 1}`: node-semver bumps captured digit strings this way. */
static void add_plus1(struct buf *out, struct str s)
{
	js_number(out, digits_double(s.p, s.n) + 1.0);
}

/* ---- the version-shaped pieces of node-semver's regexes ---- */

enum xp_kind {
	XP_FULL,	/* FULLPLAIN:  v?MAIN(-PRE)?(+BUILD)? */
	XP_LOOSE,	/* LOOSEPLAIN: [v=\s]*MAIN(PRE)?(+BUILD)?, loose parts */
	XP_RANGE,	/* XRANGEPLAIN(LOOSE): [v=\s]*X(.X(.X(PRE)?(+BUILD)?)?)? */
};

struct xp {
	size_t start, end;	/* the whole match, prefix included */
	struct str M, m, p, pr;	/* pr without its "-" */
};

static size_t id_run(const char *s, size_t n, size_t i)
{
	size_t j = i;

	while (j < n && is_idc(s[j]))
		j++;
	return j - i;
}

/* Whether a whole run of identifier characters is one prerelease
 * identifier: \d{0,256}[a-zA-Z-][a-zA-Z0-9-]{0,250}, or a number (strict:
 * 0|[1-9]\d{0,256}, loose: \d{1,256}).  Matching only part of a run never
 * helps: nothing that may follow an identifier is an identifier character. */
static int id_ok(const char *s, size_t n, int loose)
{
	size_t d = 0;

	while (d < n && is_digit(s[d]))
		d++;
	if (d == n) {
		if (loose)
			return n >= 1 && n <= SV_MAX_DIGITS;
		return n == 1 || (s[0] != '0' && n <= SV_MAX_DIGITS + 1);
	}
	return d <= SV_MAX_DIGITS && n - d - 1 <= SV_MAX_RUN;
}

/* A numeric (or, in x-ranges, "x", "X" or "*") identifier at s[i]: its length, 0 if
 * none.  Greedy, capped as the safe regexes cap it. */
static size_t num_len(const char *s, size_t n, size_t i, int loose,
		      int allow_x)
{
	size_t len = 1, cap = loose ? SV_MAX_DIGITS : SV_MAX_DIGITS + 1;

	if (i >= n)
		return 0;
	if (allow_x && (s[i] == 'x' || s[i] == 'X' || s[i] == '*'))
		return 1;
	if (!is_digit(s[i]))
		return 0;
	if (!loose && s[i] == '0')
		return 1;
	while (i + len < n && len < cap && is_digit(s[i + len]))
		len++;
	return len;
}

/* The prerelease at s[i], if any: strict "-" then identifiers, loose an
 * optional "-" (taken when what follows is an identifier; "1.2.3-" is
 * 1.2.3-- in loose mode because the "-" is then the identifier).  Returns
 * the end; *pr is set, or left NULL when there is none. */
static size_t pre_match(const char *s, size_t n, size_t i, int loose,
			struct str *pr)
{
	size_t r, start, j;

	pr->p = NULL;
	pr->n = 0;
	if (!loose) {
		if (i >= n || s[i] != '-')
			return i;
		r = id_run(s, n, i + 1);
		if (!r || !id_ok(s + i + 1, r, 0))
			return i;
		start = i + 1;
		j = start + r;
	} else {
		r = id_run(s, n, i);
		if (!r)
			return i;
		if (s[i] == '-' && r > 1 && id_ok(s + i + 1, r - 1, 1))
			start = i + 1;
		else if (id_ok(s + i, r, 1))
			start = i;
		else
			return i;
		j = i + r;
	}
	while (j < n && s[j] == '.') {
		r = id_run(s, n, j + 1);
		if (!r || !id_ok(s + j + 1, r, loose))
			break;
		j += 1 + r;
	}
	pr->p = s + start;
	pr->n = j - start;
	return j;
}

/* Build metadata at s[i]: "+" and dot-separated identifiers.  Returns the
 * end (i when there is none). */
static size_t build_match(const char *s, size_t n, size_t i)
{
	size_t r, j;

	if (i >= n || s[i] != '+')
		return i;
	r = id_run(s, n, i + 1);
	if (!r || r > SV_MAX_RUN)
		return i;
	j = i + 1 + r;
	while (j < n && s[j] == '.') {
		r = id_run(s, n, j + 1);
		if (!r || r > SV_MAX_RUN)
			break;
		j += 1 + r;
	}
	return j;
}

/* Match one version-shaped piece at s[pos].  alt 0 is the regex's first
 * (greedy) choice; alt 1 is the only other choice that can end elsewhere:
 * in loose mode, when the patch digits are followed by nothing the greedy
 * match could take as a prerelease, the regex backtracks to give the last
 * patch digit to a prerelease ("1.2.34.5" -> patch 3, prerelease 4.5).
 * Returns 0 with *x filled, or -1. */
static int xp_match(const char *s, size_t n, size_t pos, enum xp_kind kind,
		    int loose, int alt, struct xp *x)
{
	size_t i = pos, w, l;
	int allow_x = kind == XP_RANGE;

	memset(x, 0, sizeof(*x));
	x->start = pos;
	if (kind == XP_FULL) {
		if (i < n && s[i] == 'v')
			i++;
	} else {
		for (;;) {
			if ((w = ws_len(s, n, i)))
				i += w;
			else if (i < n && (s[i] == 'v' || s[i] == '='))
				i++;
			else
				break;
		}
	}
	if (!(l = num_len(s, n, i, loose, allow_x)))
		return -1;
	x->M.p = s + i;
	x->M.n = l;
	i += l;
	if (i < n && s[i] == '.' && (l = num_len(s, n, i + 1, loose, allow_x))) {
		x->m.p = s + i + 1;
		x->m.n = l;
		i += 1 + l;
		if (i < n && s[i] == '.' &&
		    (l = num_len(s, n, i + 1, loose, allow_x))) {
			x->p.p = s + i + 1;
			x->p.n = l;
			i += 1 + l;
		}
	}
	if (!x->p.p) {
		if (kind != XP_RANGE || alt)
			return -1;
		x->end = i;
		return 0;
	}
	if (alt) {
		if (!loose || x->p.n < 2 || !is_digit(x->p.p[0]) ||
		    pre_match(s, n, i, loose, &x->pr) != i)
			return -1;
		x->p.n--;
		i--;
	}
	i = pre_match(s, n, i, loose, &x->pr);
	if (alt && !x->pr.p)
		return -1;
	x->end = build_match(s, n, i);
	return 0;
}

/* Match a piece that must run to the end of s (a regex ending in $). */
static int xp_whole(const char *s, size_t n, size_t pos, enum xp_kind kind,
		    int loose, struct xp *x)
{
	int alt;

	for (alt = 0; alt < 2; alt++)
		if (!xp_match(s, n, pos, kind, loose, alt, x) && x->end == n)
			return 1;
	return 0;
}

/* ---- versions ---- */

void semver_release(struct semver *v)
{
	free(v->pre);
	free(v->ids);
	v->pre = NULL;
	v->ids = NULL;
	v->nids = 0;
	v->major = v->minor = v->patch = 0;
}

/* Fill *out from a matched version; -1 when a number is past 2^53-1. */
static int version_from_xp(const struct xp *x, struct semver *out)
{
	struct buf b = BUF_INIT;
	size_t i, j, k, nids = 0, *offs;
	const char *pr = x->pr.p;

	out->major = digits_value(x->M.p, x->M.n);
	out->minor = digits_value(x->m.p, x->m.n);
	out->patch = digits_value(x->p.p, x->p.n);
	if (out->major > SV_MAX_SAFE || out->minor > SV_MAX_SAFE ||
	    out->patch > SV_MAX_SAFE) {
		out->major = out->minor = out->patch = 0;
		return -1;
	}
	if (!pr)
		return 0;
	for (i = 0; i < x->pr.n; i++)
		nids += pr[i] == '.';
	nids++;
	out->ids = xcalloc(nids, sizeof(*out->ids));
	offs = xcalloc(nids, sizeof(*offs));
	for (i = 0, k = 0; i <= x->pr.n; i = j + 1, k++) {
		struct semver_id *id = &out->ids[k];

		for (j = i; j < x->pr.n && pr[j] != '.'; j++)
			;
		if (k)
			buf_putc(&b, '.');
		offs[k] = b.len;
		/* node-semver: /^[0-9]+$/ and below MAX_SAFE_INTEGER. */
		if (all_digits(pr + i, j - i) &&
		    digits_value(pr + i, j - i) < SV_MAX_SAFE) {
			id->is_num = 1;
			id->num = digits_value(pr + i, j - i);
			add_ull(&b, id->num);
		} else {
			buf_add(&b, pr + i, j - i);
		}
		id->len = b.len - offs[k];
	}
	out->nids = nids;
	out->pre = buf_detach(&b);
	for (k = 0; k < nids; k++)
		out->ids[k].s = out->pre + offs[k];
	free(offs);
	return 0;
}

int semver_parse_mem(const char *s, size_t len, unsigned opts,
		     struct semver *out)
{
	int loose = (opts & SEMVER_LOOSE) != 0;
	struct semver empty = SEMVER_INIT;
	struct xp x;
	size_t a, b;

	*out = empty;
	if (js_length(s, len) > SV_MAX_LENGTH)
		return -1;
	js_trim(s, len, &a, &b);
	if (!xp_whole(s + a, b - a, 0, loose ? XP_LOOSE : XP_FULL, loose, &x))
		return -1;
	return version_from_xp(&x, out);
}

int semver_parse(const char *s, unsigned opts, struct semver *out)
{
	return semver_parse_mem(s, strlen(s), opts, out);
}

static int cmp_ull(unsigned long long a, unsigned long long b)
{
	return a < b ? -1 : a > b;
}

/* node-semver's compareIdentifiers(). */
static int id_compare(const struct semver_id *a, const struct semver_id *b)
{
	int anum, bnum, c;
	size_t n;

	if (a->is_num && b->is_num)
		return cmp_ull(a->num, b->num);
	anum = a->is_num || all_digits(a->s, a->len);
	bnum = b->is_num || all_digits(b->s, b->len);
	if (anum && bnum) {
		/* Both digit strings, one at least 2^53-1: JavaScript compares
		 * them as doubles, so huge neighbours can compare equal. */
		double da = a->is_num ? (double)a->num :
				digits_double(a->s, a->len);
		double db = b->is_num ? (double)b->num :
				digits_double(b->s, b->len);
		return da == db ? 0 : da < db ? -1 : 1;
	}
	if (anum)
		return -1;
	if (bnum)
		return 1;
	n = a->len < b->len ? a->len : b->len;
	c = memcmp(a->s, b->s, n);
	if (c)
		return c < 0 ? -1 : 1;
	return cmp_ull(a->len, b->len);
}

static int id_identical(const struct semver_id *a, const struct semver_id *b)
{
	if (a->is_num != b->is_num)
		return 0;
	if (a->is_num)
		return a->num == b->num;
	return a->len == b->len && !memcmp(a->s, b->s, a->len);
}

int semver_compare(const struct semver *a, const struct semver *b)
{
	size_t i;
	int c;

	if ((c = cmp_ull(a->major, b->major)) ||
	    (c = cmp_ull(a->minor, b->minor)) ||
	    (c = cmp_ull(a->patch, b->patch)))
		return c;
	if (a->nids && !b->nids)
		return -1;
	if (!a->nids && b->nids)
		return 1;
	for (i = 0;; i++) {
		if (i >= a->nids && i >= b->nids)
			return 0;
		if (i >= b->nids)
			return 1;
		if (i >= a->nids)
			return -1;
		if (!id_identical(&a->ids[i], &b->ids[i]))
			return id_compare(&a->ids[i], &b->ids[i]);
	}
}

/* Append the normalised text of v (SemVer.format()). */
static void add_version(struct buf *out, const struct semver *v)
{
	add_ull(out, v->major);
	buf_putc(out, '.');
	add_ull(out, v->minor);
	buf_putc(out, '.');
	add_ull(out, v->patch);
	if (v->pre) {
		buf_putc(out, '-');
		buf_puts(out, v->pre);
	}
}

char *semver_format(const struct semver *v, char *buf, size_t size)
{
	struct buf b = BUF_INIT;

	add_version(&b, v);
	if (size) {
		size_t n = b.len < size - 1 ? b.len : size - 1;

		memcpy(buf, buf_str(&b), n);
		buf[n] = '\0';
	}
	buf_release(&b);
	return buf;
}

/* ---- comparators ---- */

enum cmp_op { OP_ANY, OP_EQ, OP_LT, OP_LE, OP_GT, OP_GE };

struct comparator {
	enum cmp_op op;
	struct semver v;	/* unused for OP_ANY */
	char *value;		/* canonical text, "" for OP_ANY; owned */
	int poison;		/* testing it throws in node-semver */
};

/* ^((?:<|>)?=?)\s{0,1}(FULLPLAIN|LOOSEPLAIN)$|^$ against t.  *oplen is
 * the operator's length, *vpos where the version starts.  Taking the
 * operator greedily is enough: a shorter one leaves a "=" that only the
 * loose version prefix accepts, and it then matches the same way. */
static int cmp_match(const char *t, size_t n, int loose, size_t *oplen,
		     size_t *vpos)
{
	struct xp x;
	size_t i = 0;

	*oplen = *vpos = 0;
	if (!n)
		return 1;
	if (t[i] == '<' || t[i] == '>')
		i++;
	if (i < n && t[i] == '=')
		i++;
	*oplen = i;
	i += ws_len(t, n, i);
	*vpos = i;
	return xp_whole(t, n, i, loose ? XP_LOOSE : XP_FULL, loose, &x);
}

static const char *op_text(enum cmp_op op)
{
	switch (op) {
	case OP_LT:
		return "<";
	case OP_LE:
		return "<=";
	case OP_GT:
		return ">";
	case OP_GE:
		return ">=";
	default:
		return "";
	}
}

static void comparator_release(struct comparator *c)
{
	semver_release(&c->v);
	free(c->value);
	c->value = NULL;
}

/* new Comparator(t, opts): 0 with *c filled, or -1 (node-semver throws). */
static int comparator_parse(const char *t, size_t n, int loose, int incpr,
			    struct comparator *c)
{
	size_t oplen, vpos, vlen;
	struct semver empty = SEMVER_INIT;
	struct buf b = BUF_INIT;

	c->op = OP_ANY;
	c->v = empty;
	c->value = NULL;
	c->poison = 0;
	if (!cmp_match(t, n, loose, &oplen, &vpos))
		return -1;
	if (!n) {
		c->value = xstrdup("");
		return 0;
	}
	if (oplen == 0 || (oplen == 1 && t[0] == '='))
		c->op = OP_EQ;
	else if (t[0] == '<')
		c->op = oplen == 2 ? OP_LE : OP_LT;
	else
		c->op = oplen == 2 ? OP_GE : OP_GT;
	if (semver_parse_mem(t + vpos, n - vpos, loose ? SEMVER_LOOSE : 0,
			     &c->v))
		return -1;
	buf_puts(&b, op_text(c->op));
	add_version(&b, &c->v);
	vlen = b.len - strlen(op_text(c->op));
	/* With includePrerelease, node-semver's compare() parses this version
	 * again from its normalised text, which loose mode can make one
	 * character longer ("1.2.3beta" -> "1.2.3-beta"): past 256 that
	 * throws out of satisfies(). */
	c->poison = incpr && vlen > SV_MAX_LENGTH;
	c->value = buf_detach(&b);
	return 0;
}

static int comparator_test(const struct comparator *c, const struct semver *v)
{
	int r;

	if (c->op == OP_ANY)
		return 1;
	r = semver_compare(v, &c->v);
	switch (c->op) {
	case OP_LT:
		return r < 0;
	case OP_LE:
		return r <= 0;
	case OP_GT:
		return r > 0;
	case OP_GE:
		return r >= 0;
	default:
		return r == 0;
	}
}

/* ---- the range pipeline, one stage a function ---- */

struct rctx {
	int loose, incpr;
	struct buf t1, t2, t3;	/* scratch for desugar(), reused */
};

static int is_x(struct str s)
{
	return !s.p || !s.n ||
	       (s.n == 1 && (s.p[0] == 'x' || s.p[0] == 'X' || s.p[0] == '*'));
}

static int is_zero(struct str s)
{
	return s.p && s.n == 1 && s.p[0] == '0';
}

static void add(struct buf *b, struct str s)
{
	buf_add(b, s.p ? s.p : "", s.n);
}

/* range.trim().replace(/\s+/g, ' '): after this the only whitespace left
 * is single ASCII spaces, which every later stage relies on. */
static void collapse_ws(const char *s, size_t n, struct buf *out)
{
	size_t a, b, i, w;
	int space = 0;

	js_trim(s, n, &a, &b);
	for (i = a; i < b;) {
		if ((w = ws_len(s, b, i))) {
			space = 1;
			i += w;
			continue;
		}
		if (space)
			buf_putc(out, ' ');
		space = 0;
		buf_putc(out, s[i++]);
	}
}

/* range.replace(/\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*\/g, ''): build
 * metadata goes before anything else looks at the range. */
static void strip_build(const char *s, size_t n, struct buf *out)
{
	size_t i = 0, r;

	while (i < n) {
		if (s[i] == '+' && (r = id_run(s, n, i + 1))) {
			i += 1 + r;
			while (i < n && s[i] == '.' && (r = id_run(s, n, i + 1)))
				i += 1 + r;
			continue;
		}
		buf_putc(out, s[i++]);
	}
}

/* The comparators node-semver's replacements write, one shape each, so
 * that caret, tilde, x-range and hyphen ranges say them the same way. */

enum part { PART_MAJOR, PART_MINOR, PART_PATCH, PART_NONE };

/* "M.m.p" with the parts before k as written, part k plus one when bump
 * is set, and the parts after it 0. */
static void put_parts(struct buf *out, const struct xp *x, enum part k, int bump)
{
	const struct str *v[3] = { &x->M, &x->m, &x->p };
	unsigned i;

	for (i = 0; i < 3; i++) {
		if (i)
			buf_putc(out, '.');
		if (i < (unsigned)k)
			add(out, *v[i]);
		else if (i == (unsigned)k && bump)
			add_plus1(out, *v[i]);
		else
			buf_putc(out, '0');
	}
}

/* ">=M.0.0<z>" for M.x, ">=M.m.0<z>" for M.m.x, ">=M.m.p[-pr]" for a
 * whole version (z is "-0" under includePrerelease, else ""). */
static void put_from(struct buf *out, const struct xp *x, const char *z)
{
	enum part k = is_x(x->m) ? PART_MINOR : is_x(x->p) ? PART_PATCH : PART_NONE;

	buf_puts(out, ">=");
	put_parts(out, x, k, 0);
	if (k != PART_NONE) {
		buf_puts(out, z);
	} else if (x->pr.p) {
		buf_putc(out, '-');
		add(out, x->pr);
	}
}

/* Below the next release of part k: "<(M+1).0.0-0", "<M.(m+1).0-0" or
 * "<M.m.(p+1)-0". */
static void put_below(struct buf *out, const struct xp *x, enum part k)
{
	buf_putc(out, '<');
	put_parts(out, x, k, 1);
	buf_puts(out, "-0");
}

/* The HYPHENRANGE replacement: "A - B" with exactly one space either side
 * of the "-" (after whitespace collapsing), the whole string. */
static void hyphen_text(const char *s, const struct xp *f, const struct xp *t,
			const struct rctx *c, struct buf *out)
{
	struct buf b = BUF_INIT;
	struct str from = { s + f->start, f->end - f->start };
	struct str to = { s + t->start, t->end - t->start };
	const char *z = c->incpr ? "-0" : "";
	size_t a, e;

	if (is_x(f->M)) {
		;
	} else if (is_x(f->m) || is_x(f->p)) {
		put_from(&b, f, z);
	} else {
		buf_puts(&b, ">=");
		add(&b, from);
		if (!f->pr.p)
			buf_puts(&b, z);
	}
	buf_putc(&b, ' ');
	if (is_x(t->M)) {
		;
	} else if (is_x(t->m)) {
		put_below(&b, t, PART_MAJOR);
	} else if (is_x(t->p)) {
		put_below(&b, t, PART_MINOR);
	} else if (t->pr.p) {
		buf_puts(&b, "<=");
		put_parts(&b, t, PART_NONE, 0);
		buf_putc(&b, '-');
		add(&b, t->pr);
	} else if (c->incpr) {
		put_below(&b, t, PART_PATCH);
	} else {
		buf_puts(&b, "<=");
		add(&b, to);
	}
	js_trim(b.s, b.len, &a, &e);
	buf_add(out, b.s + a, e - a);
	buf_release(&b);
}

/* ^\s{0,1}(XRANGEPLAIN)\s{1,1}-\s{1,1}(XRANGEPLAIN)\s{0,1}$.  Returns 1
 * and writes the replacement when it matches. */
static int hyphen_replace(const char *s, size_t n, const struct rctx *c,
			  struct buf *out)
{
	struct xp f, t;
	size_t i = 0, k, e;
	int a1, a2;

	if (n && s[0] == ' ')
		i = 1;
	for (a1 = 0; a1 < 2; a1++) {
		if (xp_match(s, n, i, XP_RANGE, c->loose, a1, &f))
			continue;
		k = f.end;
		if (k + 3 > n || s[k] != ' ' || s[k + 1] != '-' ||
		    s[k + 2] != ' ')
			continue;
		for (a2 = 0; a2 < 2; a2++) {
			if (xp_match(s, n, k + 3, XP_RANGE, c->loose, a2, &t))
				continue;
			e = t.end;
			if (e == n || (e + 1 == n && s[e] == ' ')) {
				hyphen_text(s, &f, &t, c, out);
				return 1;
			}
		}
	}
	return 0;
}

/* node-semver's trimComparatorWhitespace(): drop the one space between an
 * operator and the version it applies to ("> 1.2.3" -> ">1.2.3").  The
 * walk back over each version's prefix covers text no other walk covers,
 * so this is linear. */
static void trim_cmp_ws(const char *s, size_t n, struct buf *out)
{
	size_t vs, ps, oe, pos = 0;

	for (vs = 0; vs < n; vs++) {
		if (!is_digit(s[vs]) && s[vs] != 'x' && s[vs] != 'X' &&
		    s[vs] != '*')
			continue;
		ps = vs;
		while (ps > 0 && (s[ps - 1] == 'v' || s[ps - 1] == '=' ||
				  s[ps - 1] == ' '))
			ps--;
		if (ps > 0 && (s[ps - 1] == '<' || s[ps - 1] == '>')) {
			oe = ps;
			if (oe < n && s[oe] == '=')
				oe++;
		} else {
			oe = ps;
			if (oe < n && s[oe] == ' ')
				oe++;
			if (oe < n && s[oe] == '=') {
				oe++;
			} else {
				if (!(ps < n && s[ps] == ' ') ||
				    !(ps + 1 < n && s[ps + 1] == ' '))
					continue;
				oe = ps + 1;
			}
		}
		if (oe < n && s[oe] == ' ') {
			buf_add(out, s + pos, oe - pos);
			pos = oe + 1;
		}
	}
	buf_add(out, s + pos, n - pos);
}

/* TILDETRIM (\s{0,1})~>?\s{1,1} -> $1~ and CARETTRIM (\s{0,1})\^\s{1,1}
 * -> $1^, both global.  Note "~> 1" loses its ">" too. */
static void op_trim(const char *s, size_t n, struct buf *out)
{
	size_t i = 0;

	while (i < n) {
		if (s[i] == '~' && i + 2 < n && s[i + 1] == '>' &&
		    s[i + 2] == ' ') {
			buf_putc(out, '~');
			i += 3;
		} else if (s[i] == '~' && i + 1 < n && s[i + 1] == ' ') {
			buf_putc(out, '~');
			i += 2;
		} else {
			buf_putc(out, s[i++]);
		}
	}
}

static void caret_trim(const char *s, size_t n, struct buf *out)
{
	size_t i = 0;

	while (i < n) {
		if (s[i] == '^' && i + 1 < n && s[i + 1] == ' ') {
			buf_putc(out, '^');
			i += 2;
		} else {
			buf_putc(out, s[i++]);
		}
	}
}

typedef void token_fn(const char *t, size_t n, const struct rctx *c,
		      struct buf *out);

/* s.split(/\s+/).map(fn).join(' '), JavaScript's split included: leading
 * or trailing whitespace gives an empty first or last token. */
static void map_tokens(const char *s, size_t n, token_fn *fn,
		       const struct rctx *c, struct buf *out)
{
	size_t i = 0, start = 0;
	int first = 1;

	for (;;) {
		if (i < n && s[i] != ' ') {
			i++;
			continue;
		}
		if (!first)
			buf_putc(out, ' ');
		first = 0;
		fn(s + start, i - start, c, out);
		if (i >= n)
			break;
		while (i < n && s[i] == ' ')
			i++;
		start = i;
	}
}

/* replaceCaret() on one token: ^X.Y.Z and its partial forms. */
static void caret_one(const char *t, size_t n, const struct rctx *c,
		      struct buf *out)
{
	const char *z = c->incpr ? "-0" : "";
	struct xp x;

	if (!n || t[0] != '^' || !xp_whole(t, n, 1, XP_RANGE, c->loose, &x)) {
		buf_add(out, t, n);
		return;
	}
	if (is_x(x.M))
		return;
	put_from(out, &x, z);
	buf_putc(out, ' ');
	/* up to the next change of the left-most non-zero part */
	if (is_x(x.m) || !is_zero(x.M))
		put_below(out, &x, PART_MAJOR);
	else if (is_x(x.p) || !is_zero(x.m))
		put_below(out, &x, PART_MINOR);
	else
		put_below(out, &x, PART_PATCH);
}

/* replaceTilde() on one token: ~X.Y.Z, ~>X.Y.Z and partial forms. */
static void tilde_one(const char *t, size_t n, const struct rctx *c,
		      struct buf *out)
{
	const char *z = c->incpr ? "-0" : "";
	size_t i = 1;
	struct xp x;

	if (n >= 2 && t[0] == '~' && t[1] == '>')
		i = 2;
	if (!n || t[0] != '~' || !xp_whole(t, n, i, XP_RANGE, c->loose, &x)) {
		buf_add(out, t, n);
		return;
	}
	if (is_x(x.M))
		return;
	put_from(out, &x, z);
	buf_putc(out, ' ');
	if (is_x(x.m))
		put_below(out, &x, PART_MAJOR);
	else
		put_below(out, &x, PART_MINOR);
}

/* replaceXRange() on one token: x-ranges, partials and partial
 * comparators (">1.2" -> ">=1.3.0", "<=1" -> "<2.0.0-0"). */
static void xrange_one(const char *t, size_t n, const struct rctx *c,
		       struct buf *out)
{
	char g[3] = "";
	const char *pr = c->incpr ? "-0" : "";
	size_t i = 0, gl;
	struct xp x;
	int xM, xm, xp;

	if (i < n && (t[i] == '<' || t[i] == '>'))
		i++;
	if (i < n && t[i] == '=')
		i++;
	gl = i;
	memcpy(g, t, gl);
	g[gl] = '\0';
	i += ws_len(t, n, i);
	if (!xp_whole(t, n, i, XP_RANGE, c->loose, &x) ||
	    (is_x(x.M) && !is_x(x.m)) ||
	    (is_x(x.m) && x.p.p && !is_x(x.p))) {
		/* no match, or invalidXRangeOrder: left as it is */
		buf_add(out, t, n);
		return;
	}
	xM = is_x(x.M);
	xm = xM || is_x(x.m);
	xp = xm || is_x(x.p);
	if (!strcmp(g, "=") && xp)
		g[0] = '\0';
	if (xM) {
		buf_puts(out, !strcmp(g, ">") || !strcmp(g, "<") ?
			 "<0.0.0-0" : "*");
	} else if (g[0] && xp) {
		struct buf M = BUF_INIT, m = BUF_INIT;

		add(&M, x.M);
		if (xm)
			buf_putc(&m, '0');
		else
			add(&m, x.m);
		if (!strcmp(g, ">")) {
			g[1] = '=';
			g[2] = '\0';
			if (xm) {
				M.len = 0;
				add_plus1(&M, x.M);
			} else {
				m.len = 0;
				add_plus1(&m, x.m);
			}
		} else if (!strcmp(g, "<=")) {
			g[1] = '\0';
			if (xm) {
				M.len = 0;
				add_plus1(&M, x.M);
			} else {
				m.len = 0;
				add_plus1(&m, x.m);
			}
		}
		if (!strcmp(g, "<"))
			pr = "-0";
		buf_puts(out, g);
		buf_add(out, buf_str(&M), M.len);
		buf_putc(out, '.');
		buf_add(out, buf_str(&m), m.len);
		buf_puts(out, ".0");
		buf_puts(out, pr);
		buf_release(&M);
		buf_release(&m);
	} else if (xp) {
		/* M.x (xm) or M.m.x */
		put_from(out, &x, pr);
		buf_putc(out, ' ');
		if (xm)
			put_below(out, &x, PART_MAJOR);
		else
			put_below(out, &x, PART_MINOR);
	} else {
		buf_add(out, t, n);
	}
}

/* replaceStars(): the first (<|>)?=?\s{0,1}\* is removed, wherever it is. */
static void strip_star(const char *s, size_t n, struct buf *out)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		j = i;
		if (s[j] == '<' || s[j] == '>')
			j++;
		if (j < n && s[j] == '=')
			j++;
		if (j < n && s[j] == ' ')
			j++;
		if (j < n && s[j] == '*') {
			buf_add(out, s, i);
			buf_add(out, s + j + 1, n - j - 1);
			return;
		}
	}
	buf_add(out, s, n);
}

/* parseComparator(): caret, tilde, x-range and star desugaring of one
 * space-free piece of the range, appended to out. */
static void desugar(const char *s, size_t n, struct rctx *c, struct buf *out)
{
	size_t a, b;

	c->t1.len = c->t2.len = c->t3.len = 0;
	caret_one(s, n, c, &c->t1);
	js_trim(buf_str(&c->t1), c->t1.len, &a, &b);
	map_tokens(buf_str(&c->t1) + a, b - a, tilde_one, c, &c->t2);
	map_tokens(buf_str(&c->t2), c->t2.len, xrange_one, c, &c->t3);
	js_trim(buf_str(&c->t3), c->t3.len, &a, &b);
	strip_star(buf_str(&c->t3) + a, b - a, out);
}

/* ---- comparator sets ---- */

struct cset {
	struct comparator *c;
	size_t n;
};

struct semver_range {
	struct cset *set;
	size_t n;
};

static void cset_release(struct cset *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		comparator_release(&s->c[i]);
	free(s->c);
	s->c = NULL;
	s->n = 0;
}

static int is_null_set(const struct comparator *c)
{
	return !strcmp(c->value, "<0.0.0-0");
}

static size_t hash_str(const char *s)
{
	size_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* Collects one alternative's comparators the way the end of parseRange()
 * keeps them, but as they come, so that a flood of duplicates costs no
 * memory: the first null set ("<0.0.0-0") replaces the whole set,
 * duplicates go (first place kept, like a JavaScript Map), and "" (any)
 * goes when anything else is left.  Every comparator must still be parsed:
 * an invalid one later on makes the whole range invalid. */
struct cset_builder {
	struct comparator *c;
	size_t n, cap;
	size_t *tab, tcap;	/* open addressing over c[], by value */
	struct comparator null;
	int have_null;
};

#define NO_SLOT ((size_t)-1)

static size_t *csb_slot(struct cset_builder *b, const char *value)
{
	size_t h;

	for (h = hash_str(value) & (b->tcap - 1); b->tab[h] != NO_SLOT;
	     h = (h + 1) & (b->tcap - 1))
		if (!strcmp(b->c[b->tab[h]].value, value))
			break;
	return &b->tab[h];
}

static void csb_rehash(struct cset_builder *b)
{
	size_t i;

	free(b->tab);
	b->tcap = b->tcap ? b->tcap * 2 : 16;
	b->tab = xmalloc(b->tcap * sizeof(*b->tab));
	for (i = 0; i < b->tcap; i++)
		b->tab[i] = NO_SLOT;
	for (i = 0; i < b->n; i++)
		*csb_slot(b, b->c[i].value) = i;
}

/* Takes over *c. */
static void csb_add(struct cset_builder *b, struct comparator *c)
{
	size_t *slot;

	if (b->have_null || is_null_set(c)) {
		if (b->have_null) {
			comparator_release(c);
		} else {
			b->null = *c;
			b->have_null = 1;
		}
		return;
	}
	if (2 * (b->n + 1) > b->tcap)
		csb_rehash(b);
	slot = csb_slot(b, c->value);
	if (*slot != NO_SLOT) {
		comparator_release(c);
		return;
	}
	grow(&b->c, sizeof(*b->c), &b->cap, b->n + 1);
	*slot = b->n;
	b->c[b->n++] = *c;
}

static void csb_clear(struct cset_builder *b)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		comparator_release(&b->c[i]);
	free(b->c);
	free(b->tab);
	if (b->have_null)
		comparator_release(&b->null);
	memset(b, 0, sizeof(*b));
}

/* Hands the finished set to *out (exactly sized) and empties b. */
static void csb_finish(struct cset_builder *b, struct cset *out)
{
	size_t i;

	if (b->have_null) {
		struct comparator null = b->null;

		b->have_null = 0;	/* so that csb_clear leaves it alone */
		csb_clear(b);
		out->c = xmalloc(sizeof(*out->c));
		out->c[0] = null;
		out->n = 1;
		return;
	}
	if (b->n > 1) {
		for (i = 0; i < b->n && b->c[i].value[0]; i++)
			;
		if (i < b->n) {
			comparator_release(&b->c[i]);
			memmove(&b->c[i], &b->c[i + 1],
				(b->n - i - 1) * sizeof(*b->c));
			b->n--;
		}
	}
	out->n = b->n;
	out->c = b->n ? xrealloc(b->c, b->n * sizeof(*b->c)) : NULL;
	if (!b->n)
		free(b->c);
	free(b->tab);
	memset(b, 0, sizeof(*b));
}

/* parseRange() on one "||" alternative (already trimmed).  Returns 0 with
 * *out filled (possibly empty in loose mode), or -1 when a comparator is
 * invalid. */
static int parse_part(const char *s, size_t n, struct rctx *c,
		      struct cset *out)
{
	struct buf a = BUF_INIT, b = BUF_INIT, j = BUF_INIT;
	struct cset_builder csb;
	struct comparator cmp;
	size_t i, start, oplen, vpos;
	const char *gte0 = c->incpr ? ">=0.0.0-0" : ">=0.0.0";
	int first = 1, err = 0;

	memset(&csb, 0, sizeof(csb));
	out->c = NULL;
	out->n = 0;
	strip_build(s, n, &a);
	if (hyphen_replace(buf_str(&a), a.len, c, &b)) {
		a.len = 0;
		buf_add(&a, buf_str(&b), b.len);
	}
	b.len = 0;
	trim_cmp_ws(buf_str(&a), a.len, &b);
	a.len = 0;
	op_trim(buf_str(&b), b.len, &a);
	b.len = 0;
	caret_trim(buf_str(&a), a.len, &b);

	/* range.split(' ').map(parseComparator).join(' ') */
	for (i = 0, start = 0; i <= b.len; i++) {
		if (i < b.len && b.s[i] != ' ')
			continue;
		if (!first)
			buf_putc(&j, ' ');
		first = 0;
		desugar(buf_str(&b) + start, i - start, c, &j);
		start = i + 1;
	}

	/* .split(/\s+/), replaceGTE0, the loose filter, new Comparator() */
	for (i = 0, start = 0; !err; ) {
		const char *t = buf_str(&j) + start;
		size_t tn;

		while (i < j.len && j.s[i] != ' ')
			i++;
		tn = buf_str(&j) + i - t;
		if (tn == strlen(gte0) && !memcmp(t, gte0, tn))
			tn = 0;
		if (!c->loose || cmp_match(t, tn, 1, &oplen, &vpos)) {
			if (comparator_parse(t, tn, c->loose, c->incpr, &cmp)) {
				comparator_release(&cmp);
				err = 1;
			} else {
				csb_add(&csb, &cmp);
			}
		}
		if (i >= j.len)
			break;
		while (i < j.len && j.s[i] == ' ')
			i++;
		start = i;
	}
	buf_release(&a);
	buf_release(&b);
	buf_release(&j);
	if (err) {
		csb_clear(&csb);
		return -1;
	}
	csb_finish(&csb, out);
	return 0;
}

void semver_range_free(struct semver_range *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->n; i++)
		cset_release(&r->set[i]);
	free(r->set);
	free(r);
}

static int is_any_set(const struct cset *s)
{
	return s->n == 1 && !s->c[0].value[0];
}

/* What the Range constructor does with its alternatives, as they come:
 * null sets go when anything else is left (the first is kept in case all
 * are null), and once one alternative is "any" the whole range is that
 * one.  Later alternatives are still parsed, for their errors, but
 * nothing more is kept.  Takes over *set. */
struct range_builder {
	struct semver_range *r;
	size_t cap;
	struct cset first_null;
	int seen, have_any;
};

static void rb_add(struct range_builder *b, struct cset *set)
{
	struct semver_range *r = b->r;
	size_t i;

	if (!set->n)
		return;
	if (is_null_set(&set->c[0])) {
		if (!b->seen++)
			b->first_null = *set;
		else
			cset_release(set);
		return;
	}
	b->seen++;
	if (b->have_any) {
		cset_release(set);
		return;
	}
	if (is_any_set(set)) {
		for (i = 0; i < r->n; i++)
			cset_release(&r->set[i]);
		r->n = 0;
		b->have_any = 1;
	}
	grow(&r->set, sizeof(*r->set), &b->cap, r->n + 1);
	r->set[r->n++] = *set;
}

struct semver_range *semver_range_parse_mem(const char *s, size_t len,
					    unsigned opts)
{
	struct rctx c = { (opts & SEMVER_LOOSE) != 0,
			  (opts & SEMVER_INCLUDE_PRERELEASE) != 0,
			  BUF_INIT, BUF_INIT, BUF_INIT };
	struct range_builder rb;
	struct buf raw = BUF_INIT;
	size_t i = 0, start = 0, a, b;
	const char *p;
	int err = 0;

	memset(&rb, 0, sizeof(rb));
	rb.r = xcalloc(1, sizeof(*rb.r));
	collapse_ws(s, len, &raw);
	p = buf_str(&raw);
	for (;;) {
		struct cset set;

		/* raw.split('||') */
		while (i < raw.len && !(p[i] == '|' && i + 1 < raw.len &&
					p[i + 1] == '|'))
			i++;
		js_trim(p + start, i - start, &a, &b);
		if (parse_part(p + start + a, b - a, &c, &set)) {
			err = 1;
			break;
		}
		rb_add(&rb, &set);
		if (i >= raw.len)
			break;
		i += 2;
		start = i;
	}
	buf_release(&raw);
	buf_release(&c.t1);
	buf_release(&c.t2);
	buf_release(&c.t3);
	if (!err && !rb.r->n && rb.first_null.n) {
		grow(&rb.r->set, sizeof(*rb.r->set), &rb.cap, 1);
		rb.r->set[rb.r->n++] = rb.first_null;
	} else {
		cset_release(&rb.first_null);
	}
	if (err || !rb.r->n) {
		semver_range_free(rb.r);
		return NULL;
	}
	rb.r->set = xrealloc(rb.r->set, rb.r->n * sizeof(*rb.r->set));
	return rb.r;
}

struct semver_range *semver_range_parse(const char *s, unsigned opts)
{
	return semver_range_parse_mem(s, strlen(s), opts);
}

char *semver_range_format(const struct semver_range *r)
{
	struct buf b = BUF_INIT;
	size_t i, k;

	for (i = 0; i < r->n; i++) {
		if (i)
			buf_puts(&b, "||");
		for (k = 0; k < r->set[i].n; k++) {
			if (k)
				buf_putc(&b, ' ');
			buf_puts(&b, r->set[i].c[k].value);
		}
	}
	if (!b.len)
		buf_putc(&b, '*');
	return buf_detach(&b);
}

/* testSet(): every comparator holds, and a prerelease version is only let
 * in by a comparator with a prerelease on the same major.minor.patch.
 * Returns -1 where node-semver would throw (see comparator.poison). */
static int set_test(const struct cset *s, const struct semver *v, int incpr)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		if (s->c[i].poison)
			return -1;
		if (!comparator_test(&s->c[i], v))
			return 0;
	}
	if (!v->nids || incpr)
		return 1;
	for (i = 0; i < s->n; i++) {
		const struct semver *a = &s->c[i].v;

		if (s->c[i].op == OP_ANY || !a->nids)
			continue;
		if (a->major == v->major && a->minor == v->minor &&
		    a->patch == v->patch)
			return 1;
	}
	return 0;
}

int semver_satisfies(const struct semver *v, const struct semver_range *r,
		     unsigned opts)
{
	size_t i;
	int t;

	for (i = 0; i < r->n; i++) {
		t = set_test(&r->set[i], v,
			     (opts & SEMVER_INCLUDE_PRERELEASE) != 0);
		if (t)
			return t > 0;	/* node-semver's throw: not satisfied */
	}
	return 0;
}

int semver_satisfies_str(const char *version, const char *range,
			 unsigned opts)
{
	struct semver_range *r = semver_range_parse(range, opts);
	struct semver v;
	int ok = 0;

	if (!r)
		return 0;
	if (!semver_parse(version, opts, &v)) {
		ok = semver_satisfies(&v, r, opts);
		semver_release(&v);
	}
	semver_range_free(r);
	return ok;
}

/* ---- intersects (node-semver classes/comparator.js intersects,
 * classes/range.js intersects and isSatisfiable), without options: what
 * arborist override-set.js getEdgeRule asks ---- */

/* new Range(c.value).test(v): one comparator as a set */
static int one_test(const struct comparator *c, const struct semver *v)
{
	struct cset s;

	s.c = (struct comparator *)c;
	s.n = 1;
	return set_test(&s, v, 0) > 0;
}

static int op_gt(enum cmp_op op)
{
	return op == OP_GT || op == OP_GE;
}

static int op_lt(enum cmp_op op)
{
	return op == OP_LT || op == OP_LE;
}

static int comparator_intersects(const struct comparator *a, const struct comparator *b)
{
	int r;

	if (a->op == OP_ANY || a->op == OP_EQ) {
		if (a->op == OP_ANY)
			return 1;
		return one_test(b, &a->v);
	}
	if (b->op == OP_ANY || b->op == OP_EQ)
		return b->op == OP_ANY || one_test(a, &b->v);
	if (!strncmp(a->value, "<0.0.0", 6) || !strncmp(b->value, "<0.0.0", 6))
		return 0;
	if ((op_gt(a->op) && op_gt(b->op)) || (op_lt(a->op) && op_lt(b->op)))
		return 1;
	r = semver_compare(&a->v, &b->v);
	if (r == 0 && (a->op == OP_GE || a->op == OP_LE) && (b->op == OP_GE || b->op == OP_LE))
		return 1;
	return (r < 0 && op_gt(a->op) && op_lt(b->op)) || (r > 0 && op_lt(a->op) && op_gt(b->op));
}

static int set_satisfiable(const struct cset *s)
{
	size_t i, j;

	for (i = s->n; i-- > 1;)
		for (j = 0; j < i; j++)
			if (!comparator_intersects(&s->c[i], &s->c[j]))
				return 0;
	return 1;
}

int semver_range_intersects(const struct semver_range *a, const struct semver_range *b)
{
	size_t i, j, k, l;
	int all;

	for (i = 0; i < a->n; i++) {
		if (!set_satisfiable(&a->set[i]))
			continue;
		for (j = 0; j < b->n; j++) {
			if (!set_satisfiable(&b->set[j]))
				continue;
			all = 1;
			for (k = 0; all && k < a->set[i].n; k++)
				for (l = 0; all && l < b->set[j].n; l++)
					all = comparator_intersects(&a->set[i].c[k], &b->set[j].c[l]);
			if (all)
				return 1;
		}
	}
	return 0;
}
