/* fuzz_composevar.c - compose's variable interpolation
 * (src/parse/composevar.c), which every string of a compose file passes
 * through with the .env's values.
 *
 * Input: the text to interpolate, then (after the first NUL) the
 * variables, one NAME=VALUE a line (a line without '=' sets nothing).
 * Invariants: the same answer twice; a text without '$' comes back as
 * it is; an error names a variable or message inside the text, and a
 * syntax error is the only failure when no variable is set and no ':?'
 * or '?' is written; with OK the output holds no more bytes than the
 * text plus every value once per '$' of the text.
 */
#include "fuzz.h"
#include "composevar.h"

#include <stdlib.h>
#include <string.h>

struct vars {
	const uint8_t *p;
	size_t n;
	size_t longest;
	char *value;		/* the last answer, NUL-terminated */
};

static const char *lookup(void *ctx, const char *name, size_t n)
{
	struct vars *v = ctx;
	const uint8_t *p = v->p, *end = v->p + v->n;

	while (p < end) {
		const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
		const uint8_t *eol = nl ? nl : end;
		const uint8_t *eq = memchr(p, '=', (size_t)(eol - p));

		if (eq && (size_t)(eq - p) == n && !memcmp(p, name, n)) {
			free(v->value);
			v->value = fuzz_str(eq + 1, (size_t)(eol - eq - 1));
			return v->value;
		}
		p = eol + 1;
	}
	return NULL;
}

static void longest_value(struct vars *v)
{
	const uint8_t *p = v->p, *end = v->p + v->n;

	while (p < end) {
		const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
		const uint8_t *eol = nl ? nl : end;

		if ((size_t)(eol - p) > v->longest)
			v->longest = (size_t)(eol - p);
		p = eol + 1;
	}
}

static int within(const char *s, size_t n, const char *p, size_t pn)
{
	return !p || (p >= s && p + pn <= s + n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *text, *env;
	size_t tlen, elen, dollars = 0, i;
	struct vars v = { NULL, 0, 0, NULL };
	struct buf a = BUF_INIT, b = BUF_INIT;
	struct composevar_error ea, eb;
	uint8_t *owned;
	char *s;
	int ra, rb;

	fuzz_split(data, size, &text, &tlen, &env, &elen);
	text = fuzz_scale(text, &tlen, &owned);
	v.p = env;
	v.n = elen;
	longest_value(&v);
	s = fuzz_str(text, tlen);
	tlen = strlen(s);
	for (i = 0; i < tlen; i++)
		dollars += s[i] == '$';
	ra = composevar_subst(s, tlen, lookup, &v, &a, &ea);
	rb = composevar_subst(s, tlen, lookup, &v, &b, &eb);
	FUZZ_CHECK(ra == rb && ra >= -1 && ra <= 0);
	if (ra == 0) {
		FUZZ_CHECK(a.len == b.len && !memcmp(buf_str(&a), buf_str(&b), a.len));
		FUZZ_CHECK(a.len <= tlen + dollars * v.longest);
		if (!dollars)
			FUZZ_CHECK(a.len == tlen && !memcmp(buf_str(&a), s, tlen));
	} else {
		FUZZ_CHECK(ea.status == eb.status && ea.status != COMPOSEVAR_OK);
		FUZZ_CHECK(dollars > 0);
		FUZZ_CHECK(within(s, tlen, ea.name, ea.name_len));
		FUZZ_CHECK(within(s, tlen, ea.msg, ea.msg_len));
		if (!elen && !strchr(s, '?'))
			FUZZ_CHECK(ea.status == COMPOSEVAR_SYNTAX);
	}
	buf_release(&a);
	buf_release(&b);
	free(v.value);
	free(s);
	free(owned);
	return 0;
}
