/* gemreq.c - see gemreq.h: Gem::Version and Gem::Requirement
 * (rubygems lib/rubygems/version.rb, requirement.rb) for what Bundler's
 * ruby directive needs: Bundler::RubyVersion#diff asks every requirement
 * string to be satisfied by RUBY_VERSION (matches?: Gem::Requirement
 * .create(req).satisfied_by?(Gem::Version.create(version))).
 */
#include "gemreq.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GEM_SEGS 16		/* segments of a version kept; more: refused */
#define GEM_TEXT 64		/* a version's text */

/* A version's segments: numbers, or strings (a prerelease part), in
 * order; canonical: trailing zeros of the release part and of the
 * prerelease part dropped (version.rb canonical_segments). */
struct gemver {
	size_t n;
	int is_str[GEM_SEGS];
	unsigned long long num[GEM_SEGS];
	char str[GEM_SEGS][GEM_TEXT];
};

/* Gem::Version::VERSION_PATTERN, [0-9]+(\.[0-9a-zA-Z]+)*(-[0-9A-Za-z-]+
 * (\.[0-9A-Za-z-]+)*)?: the length of s's match from its start. */
static size_t gemver_match(const char *s, size_t len)
{
	size_t i = 0, k;

	while (i < len && isdigit((unsigned char)s[i]))
		i++;
	if (!i)
		return 0;
	for (;;) {		/* (\.[0-9a-zA-Z]+)* */
		for (k = i + 1; i < len && s[i] == '.' && k < len && isalnum((unsigned char)s[k]);)
			k++;
		if (k == i + 1 || i >= len || s[i] != '.')
			break;
		i = k;
	}
	if (i < len && s[i] == '-') {	/* (-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)? */
		k = i + 1;
		while (k < len && (isalnum((unsigned char)s[k]) || s[k] == '-'))
			k++;
		if (k > i + 1) {
			i = k;
			for (;;) {
				for (k = i + 1; i < len && s[i] == '.' && k < len &&
				     (isalnum((unsigned char)s[k]) || s[k] == '-');)
					k++;
				if (k == i + 1 || i >= len || s[i] != '.')
					break;
				i = k;
			}
		}
	}
	return i;
}

/* A version: the whole of s must match the pattern; each '-' is ".pre."
 * (version.rb initialize), then the segments are the runs of digits and
 * of letters (_segments: scan(/[0-9]+|[a-z]+/i)). */
static int gemver_parse(const char *s, size_t len, struct gemver *v)
{
	size_t i;

	memset(v, 0, sizeof(*v));
	if (!len || gemver_match(s, len) != len)
		return -1;
	for (i = 0; i < len;) {
		if (s[i] == '-') {	/* ".pre." */
			if (v->n == GEM_SEGS)
				return -1;
			v->is_str[v->n] = 1;
			memcpy(v->str[v->n++], "pre", 4);
			i++;
			continue;
		}
		if (!isalnum((unsigned char)s[i])) {
			i++;
			continue;
		}
		if (v->n == GEM_SEGS)
			return -1;
		if (isdigit((unsigned char)s[i])) {
			unsigned long long x = 0;

			for (; i < len && isdigit((unsigned char)s[i]); i++) {
				if (x > (~0ULL - 9) / 10)
					return -1;
				x = x * 10 + (unsigned long long)(s[i] - '0');
			}
			v->num[v->n++] = x;
		} else {
			size_t n = 0;

			for (; i < len && isalpha((unsigned char)s[i]); i++, n++) {
				if (n + 1 >= GEM_TEXT)
					return -1;
				v->str[v->n][n] = s[i];
			}
			v->is_str[v->n++] = 1;
		}
	}
	return 0;
}

/* canonical_segments: trailing zeros of each part dropped */
static void gemver_canonical(const struct gemver *v, struct gemver *c)
{
	size_t rel, i;

	memset(c, 0, sizeof(*c));
	for (rel = 0; rel < v->n && !v->is_str[rel]; rel++)
		;
	for (i = rel; i > 0 && v->num[i - 1] == 0; i--)
		;
	memcpy(c->is_str, v->is_str, i * sizeof(c->is_str[0]));
	memcpy(c->num, v->num, i * sizeof(c->num[0]));
	c->n = i;
	{
		size_t end = v->n;

		while (end > rel && !v->is_str[end - 1] && v->num[end - 1] == 0)
			end--;
		for (i = rel; i < end; i++) {
			c->is_str[c->n] = v->is_str[i];
			c->num[c->n] = v->num[i];
			memcpy(c->str[c->n], v->str[i], GEM_TEXT);
			c->n++;
		}
	}
}

/* version.rb <=>: segment by segment, a missing one 0; a string (a
 * prerelease) below a number; strings by their bytes */
static int gemver_cmp(const struct gemver *a, const struct gemver *b)
{
	struct gemver x, y;
	size_t i, lim;

	gemver_canonical(a, &x);
	gemver_canonical(b, &y);
	lim = x.n > y.n ? x.n : y.n;
	for (i = 0; i < lim; i++) {
		int xs = i < x.n && x.is_str[i], ys = i < y.n && y.is_str[i];
		unsigned long long xn = i < x.n ? x.num[i] : 0, yn = i < y.n ? y.num[i] : 0;

		if (xs && ys) {
			int c = strcmp(x.str[i], y.str[i]);

			if (c)
				return c < 0 ? -1 : 1;
			continue;
		}
		if (xs != ys)
			return xs ? -1 : 1;
		if (xn != yn)
			return xn < yn ? -1 : 1;
	}
	return 0;
}

/* release: the prerelease segments dropped */
static void gemver_release(const struct gemver *v, struct gemver *r)
{
	size_t i;

	*r = *v;
	for (i = 0; i < r->n && !r->is_str[i]; i++)
		;
	r->n = i;
}

/* bump: prerelease segments dropped, then the last one unless it is the
 * only one, then the last incremented */
static void gemver_bump(const struct gemver *v, struct gemver *b)
{
	gemver_release(v, b);
	if (b->n > 1)
		b->n--;
	if (b->n)
		b->num[b->n - 1]++;
}

enum gem_op { OP_EQ, OP_NE, OP_GT, OP_LT, OP_GE, OP_LE, OP_TWIDDLE };

/* One requirement: requirement.rb PATTERN, "\s*(=|!=|>|<|>=|<=|~>)?\s*
 * VERSION\s*". */
static int req_parse(const char *s, size_t len, enum gem_op *op, struct gemver *v)
{
	static const struct {
		const char *text;
		enum gem_op op;
	} ops[] = {
		{ "~>", OP_TWIDDLE }, { ">=", OP_GE }, { "<=", OP_LE }, { "!=", OP_NE },
		{ "=", OP_EQ }, { ">", OP_GT }, { "<", OP_LT },
	};
	size_t i;

	while (len && isspace((unsigned char)*s))
		s++, len--;
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	*op = OP_EQ;
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		size_t n = strlen(ops[i].text);

		if (len >= n && !memcmp(s, ops[i].text, n)) {
			*op = ops[i].op;
			s += n;
			len -= n;
			break;
		}
	}
	while (len && isspace((unsigned char)*s))
		s++, len--;
	return gemver_parse(s, len, v);
}

static int req_holds(enum gem_op op, const struct gemver *v, const struct gemver *r)
{
	int c = gemver_cmp(v, r);
	struct gemver rel, bump;

	switch (op) {
	case OP_EQ:
		return c == 0;
	case OP_NE:
		return c != 0;
	case OP_GT:
		return c > 0;
	case OP_LT:
		return c < 0;
	case OP_GE:
		return c >= 0;
	case OP_LE:
		return c <= 0;
	case OP_TWIDDLE:
		gemver_release(v, &rel);
		gemver_bump(r, &bump);
		return c >= 0 && gemver_cmp(&rel, &bump) < 0;
	}
	return 0;
}

/* At most 60 bytes of s[0..n), a byte outside printable ASCII as '?':
 * the message names text from a repository. */
static void quote_into(char *out, size_t outlen, const char *s, size_t n)
{
	size_t i;

	if (n > 60)
		n = 60;
	if (n >= outlen)
		n = outlen - 1;
	for (i = 0; i < n; i++)
		out[i] = s[i] >= ' ' && s[i] < 0x7f ? s[i] : '?';
	out[n] = 0;
}

int gem_req_check(const char *reqs, const char *version, char *err, size_t errlen)
{
	char q[64];

	struct gemver v, r;
	const char *p = reqs;
	int all = 1, any = 0;

	if (gemver_parse(version, strlen(version), &v) < 0) {
		quote_into(q, sizeof(q), version, strlen(version));
		snprintf(err, errlen, "'%s' is not a RubyGems version", q);
		return -1;
	}
	for (;;) {
		size_t n = strcspn(p, ",");
		enum gem_op op;

		if (req_parse(p, n, &op, &r) < 0) {
			quote_into(q, sizeof(q), p, n);
			snprintf(err, errlen, "Illformed requirement [\"%s\"]", q);
			return -1;
		}
		any = 1;
		if (!req_holds(op, &v, &r))
			all = 0;
		if (!p[n])
			break;
		p += n + 1;
	}
	return any && all;
}

int gem_req_exact(const char *reqs, char *out, size_t outlen)
{
	const char *p = reqs;

	for (;;) {
		size_t n = strcspn(p, ",");
		enum gem_op op;
		struct gemver r;
		const char *s = p;
		size_t k = n;

		if (req_parse(p, n, &op, &r) == 0 && op == OP_EQ) {
			while (k && (isspace((unsigned char)*s) || *s == '='))
				s++, k--;
			while (k && isspace((unsigned char)s[k - 1]))
				k--;
			if (k < outlen) {
				memcpy(out, s, k);
				out[k] = 0;
				return 1;
			}
		}
		if (!p[n])
			return 0;
		p += n + 1;
	}
}
