/* composevar.c - see composevar.h */
#include "composevar.h"

#include <string.h>

#define SUBST_DEPTH 8		/* ${A:-${B:-${C}}} */

struct subst {
	composevar_lookup lookup;
	void *ctx;
	struct composevar_error *err;
};

/* [_a-z][_a-z0-9]*, case-insensitive (template.go substitutionNamed) */
static int var_char(char ch, int first)
{
	return ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (!first && ch >= '0' && ch <= '9');
}

/* The '}' that closes the "${" before s, nested braces counted, or NULL. */
static const char *brace_end(const char *s, const char *end)
{
	unsigned depth = 1;

	for (; s < end; s++) {
		if (s[0] == '$' && s + 1 < end && s[1] == '{') {
			depth++;
			s++;
		} else if (*s == '}' && --depth == 0) {
			return s;
		}
	}
	return NULL;
}

/* Remember the first failure. */
static int fail(struct subst *x, enum composevar_status st, const char *name,
		size_t n, const char *msg, size_t msg_len)
{
	if (x->err->status == COMPOSEVAR_OK) {
		x->err->status = st;
		x->err->name = name;
		x->err->name_len = n;
		x->err->msg = msg;
		x->err->msg_len = msg_len;
	}
	return -1;
}

static int subst(struct subst *x, const char *s, size_t n, struct buf *out,
		 unsigned depth);

/* One "${...}" body [s, s+n) into out (template.go: withRequired,
 * withDefaultWhenAbsence, withDefaultWhenPresence). */
static int subst_braced(struct subst *x, const char *s, size_t n,
			struct buf *out, unsigned depth)
{
	size_t k = 0;
	const char *v, *op;
	int colon, set;

	while (k < n && var_char(s[k], k == 0))
		k++;
	if (k == 0)
		return fail(x, COMPOSEVAR_SYNTAX, NULL, 0, NULL, 0);
	v = x->lookup(x->ctx, s, k);
	if (k == n) {
		buf_puts(out, v ? v : "");
		return 0;
	}
	op = s + k;
	colon = *op == ':';
	op += colon;
	if (op >= s + n || !strchr("-?+", *op))
		return fail(x, COMPOSEVAR_SYNTAX, NULL, 0, NULL, 0);
	set = v && (!colon || *v);
	switch (*op) {
	case '-':
		if (set) {
			buf_puts(out, v);
			return 0;
		}
		break;
	case '+':
		if (!set)
			return 0;
		break;
	case '?':
		if (!set)
			return fail(x, COMPOSEVAR_UNSET, s, k, op + 1,
				    (size_t)(s + n - op - 1));
		buf_puts(out, v);
		return 0;
	}
	op++;
	return subst(x, op, (size_t)(s + n - op), out, depth + 1);
}

static int subst(struct subst *x, const char *s, size_t n, struct buf *out,
		 unsigned depth)
{
	const char *p = s, *end = s + n;

	if (depth > SUBST_DEPTH)
		return fail(x, COMPOSEVAR_SYNTAX, NULL, 0, NULL, 0);
	while (p < end) {
		const char *dollar = memchr(p, '$', (size_t)(end - p));

		if (!dollar) {
			buf_add(out, p, (size_t)(end - p));
			break;
		}
		buf_add(out, p, (size_t)(dollar - p));
		p = dollar + 1;
		if (p < end && *p == '$') {
			buf_putc(out, '$');
			p++;
		} else if (p < end && *p == '{') {
			const char *close = brace_end(p + 1, end);

			if (!close)
				return fail(x, COMPOSEVAR_SYNTAX, NULL, 0, NULL, 0);
			if (subst_braced(x, p + 1, (size_t)(close - p - 1), out,
					 depth) < 0)
				return -1;
			p = close + 1;
		} else if (p < end && var_char(*p, 1)) {
			const char *name = p, *v;

			while (p < end && var_char(*p, 0))
				p++;
			v = x->lookup(x->ctx, name, (size_t)(p - name));
			buf_puts(out, v ? v : "");
		} else {
			return fail(x, COMPOSEVAR_SYNTAX, NULL, 0, NULL, 0);
		}
	}
	return 0;
}

int composevar_subst(const char *s, size_t n, composevar_lookup lookup,
		     void *ctx, struct buf *out, struct composevar_error *err)
{
	struct subst x = { lookup, ctx, err };

	memset(err, 0, sizeof(*err));
	return subst(&x, s, n, out, 0);
}
