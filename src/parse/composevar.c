/* composevar.c - see composevar.h */
#include "composevar.h"

#include <string.h>

/* Nesting (${A:-${B:-${C}}}) is unbounded in compose-go; here a text
 * nested deeper than this is refused rather than recursed into. */
#define SUBST_DEPTH 64

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

/* What compose-go's pattern matches at a '$' (template.go DefaultPattern,
 * "\$(?i:(?P<escaped>\$)|(?P<named>[_a-z][_a-z0-9]*)|{(?:(?P<braced>
 * [_a-z][_a-z0-9]*(?::?[-+?](.*))?)}|(?P<invalid>)))", leftmost-first as
 * Go's regexp matches). */
enum match_kind {
	MATCH_NONE,		/* no match: the '$' stays as written
				 * (TestUnescaped: "a $ string", "^REGEX$") */
	MATCH_ESCAPED,		/* "$$" */
	MATCH_NAMED,		/* "$NAME" */
	MATCH_BRACED,		/* "${NAME}" or "${NAME<op>...}" */
	MATCH_INVALID,		/* "${" that no braced form follows */
};

struct match {
	enum match_kind kind;
	size_t len;		/* of the whole match, from the '$' */
	size_t name_len;	/* NAME's, for NAMED and BRACED */
	const char *op;		/* BRACED: the operator after NAME (':' of
				 * ":-"), or NULL for "${NAME}" */
};

/* The end of the line a scan is in and the last '}' in it, so that the
 * greedy (.*) of each match costs nothing more on the same line: line
 * NULL until the first is looked for. */
struct line_cache {
	const char *line_end, *last_close;
};

/* The last '}' in [q, end) before a newline, or NULL; lc (or NULL)
 * remembers it for the next q on the same line. */
static const char *last_close(const char *q, const char *end, struct line_cache *lc)
{
	const char *nl, *stop, *c;

	if (lc && lc->line_end && q < lc->line_end)
		return lc->last_close && lc->last_close >= q ? lc->last_close : NULL;
	nl = memchr(q, '\n', (size_t)(end - q));
	stop = nl ? nl : end;
	c = memrchr(q, '}', (size_t)(stop - q));
	if (lc) {
		lc->line_end = stop;
		lc->last_close = c;
	}
	return c;
}

/* The pattern at s[0] == '$', end the end of the text. */
static struct match match_at(const char *s, const char *end, struct line_cache *lc)
{
	struct match m = { MATCH_NONE, 0, 0, NULL };
	const char *p = s + 1, *q, *close;

	if (p < end && *p == '$') {
		m.kind = MATCH_ESCAPED;
		m.len = 2;
	} else if (p < end && var_char(*p, 1)) {
		for (q = p; q < end && var_char(*q, 0); q++)
			;
		m.kind = MATCH_NAMED;
		m.name_len = (size_t)(q - p);
		m.len = 1 + m.name_len;
	} else if (p < end && *p == '{') {
		m.kind = MATCH_INVALID;
		m.len = 2;
		for (q = ++p; q < end && var_char(*q, q == p); q++)
			;
		if (q == p)
			return m;
		m.name_len = (size_t)(q - p);
		if (q < end && ((*q && strchr("-+?", *q)) ||
				(*q == ':' && q + 1 < end && q[1] && strchr("-+?", q[1])))) {
			/* (.*) is greedy and '.' stops at a newline: the
			 * match ends at the last '}' before one */
			close = last_close(q, end, lc);
			if (close) {
				m.kind = MATCH_BRACED;
				m.op = q;
				m.len = (size_t)(close + 1 - s);
			}
		} else if (q < end && *q == '}') {
			m.kind = MATCH_BRACED;
			m.len = (size_t)(q + 1 - s);
		}
	}
	return m;
}

/* template.go getFirstBraceClosingIndex: every '{' opens (and the byte
 * after it is skipped), every '}' closes; the index of the '}' that
 * closes the first, or -1.  What a greedy match took past its own '}' is
 * then the text after it. */
static long brace_closing(const char *s, size_t n)
{
	long open = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] == '}' && --open == 0)
			return (long)i;
		if (s[i] == '{') {
			open++;
			i++;
		}
	}
	return -1;
}

/* One braced match [s, s+n) into out (template.go
 * DefaultReplacementAppliedFunc): cut at its first closing brace, and the
 * operator's rule (withRequired, withDefaultWhenAbsence,
 * withDefaultWhenPresence) applied to what is before it.  compose-go then
 * substitutes the rest as a template of its own and appends it; the rest
 * ends where the match did, so the caller scanning on from *used is the
 * same, without a recursion per sibling. */
static int subst_braced(struct subst *x, const char *s, size_t n,
			struct buf *out, unsigned depth, size_t *used)
{
	long close = brace_closing(s, n);
	const char *name, *v, *op, *arg;
	size_t arg_len;
	struct match m;
	int colon, set;

	if (close >= 0)
		n = (size_t)close + 1;
	*used = n;
	m = match_at(s, s + n, NULL);
	if (m.kind != MATCH_BRACED)
		return fail(x, COMPOSEVAR_SYNTAX, NULL, 0, NULL, 0);
	name = s + 2;
	v = x->lookup(x->ctx, name, m.name_len);
	if (!m.op) {
		buf_puts(out, v ? v : "");
		return 0;
	}
	op = m.op;
	colon = *op == ':';
	op += colon;
	arg = op + 1;
	arg_len = (size_t)(s + m.len - 1 - arg);
	set = v && (!colon || *v);
	switch (*op) {
	case '-':
		if (set)
			buf_puts(out, v);
		else if (subst(x, arg, arg_len, out, depth + 1) < 0)
			return -1;
		break;
	case '+':
		/* unset or (':+') empty: the value, that is nothing */
		if (set && subst(x, arg, arg_len, out, depth + 1) < 0)
			return -1;
		break;
	default:	/* '?' */
		if (!set) {
			/* compose-go substitutes the message before it fails
			 * (withRequired: Substitute(errorMessage)), so what
			 * fails in the message fails first ("${A:?${B?}}", B
			 * unset: B is named); the message is then given as
			 * written, never with the values it would take in */
			struct buf msg = BUF_INIT;
			int rc = subst(x, arg, arg_len, &msg, depth + 1);

			if (msg.s)
				explicit_bzero(msg.s, msg.len);
			buf_release(&msg);
			if (rc < 0)
				return -1;
			return fail(x, COMPOSEVAR_UNSET, name, m.name_len, arg, arg_len);
		}
		buf_puts(out, v);
		break;
	}
	return 0;
}

static int subst(struct subst *x, const char *s, size_t n, struct buf *out,
		 unsigned depth)
{
	const char *p = s, *end = s + n;
	struct line_cache lc = { NULL, NULL };

	if (depth > SUBST_DEPTH)
		return fail(x, COMPOSEVAR_SYNTAX, NULL, 0, NULL, 0);
	while (p < end) {
		const char *dollar = memchr(p, '$', (size_t)(end - p));
		struct match m;

		if (!dollar) {
			buf_add(out, p, (size_t)(end - p));
			break;
		}
		buf_add(out, p, (size_t)(dollar - p));
		m = match_at(dollar, end, &lc);
		switch (m.kind) {
		case MATCH_NONE:
			buf_putc(out, '$');
			p = dollar + 1;
			continue;
		case MATCH_ESCAPED:
			buf_putc(out, '$');
			break;
		case MATCH_NAMED: {
			const char *v = x->lookup(x->ctx, dollar + 1, m.name_len);

			buf_puts(out, v ? v : "");
			break;
		}
		case MATCH_BRACED:
			if (subst_braced(x, dollar, m.len, out, depth, &m.len) < 0)
				return -1;
			break;
		default:
			return fail(x, COMPOSEVAR_SYNTAX, NULL, 0, NULL, 0);
		}
		p = dollar + m.len;
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
