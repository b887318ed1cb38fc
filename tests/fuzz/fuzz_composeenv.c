/* fuzz_composeenv.c - composeenv_parse (src/parse/composeenv.c), compose's
 * reader of a project's .env, on any bytes, variables looked up among the
 * file's own keys only.
 *
 * Invariants: the same answer twice; a refusal has a printable reason and
 * a line within the text's, and leaves no entry; otherwise every key is
 * free of line breaks and of ' ', every entry's line lies within the
 * text's, dotenv_get finds each key's last assignment, and a value that
 * was not substituted (single-quoted, or no '$' in the text) holds only
 * bytes of the input or of an escape's result.
 */
#include "fuzz.h"
#include "composeenv.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *owned = NULL;
	struct dotenv d, d2;
	struct composeenv_error e, e2;
	unsigned maxline = 1;
	size_t i;
	int rc, rc2;

	data = fuzz_scale(data, &size, &owned);
	for (i = 0; i < size; i++)
		maxline += data[i] == '\n';
	rc = composeenv_parse((const char *)data, size, NULL, NULL, &d, &e);
	rc2 = composeenv_parse((const char *)data, size, NULL, NULL, &d2, &e2);
	FUZZ_CHECK(rc == rc2 && d.n == d2.n);
	if (rc < 0) {
		FUZZ_CHECK(e.what && fuzz_printable(e.what) && e.line == e2.line);
		FUZZ_CHECK(e.line >= 1 && e.line <= maxline + 1);
		FUZZ_CHECK(d.n == 0);
	}
	for (i = 0; i < d.n; i++) {
		const struct dotenv_entry *x = &d.entries[i], *w = dotenv_get(&d, x->key);

		FUZZ_CHECK(!strchr(x->key, '\n') && !strchr(x->key, ' '));
		FUZZ_CHECK(x->line >= 1 && x->line <= maxline);
		FUZZ_CHECK(w && !strcmp(w->key, x->key));
		FUZZ_CHECK(x->value[x->value_len] == '\0');
		FUZZ_CHECK(x->value_len == d2.entries[i].value_len &&
			   !memcmp(x->value, d2.entries[i].value, x->value_len));
		if (dotenv_is_shadowed(&d, i))
			FUZZ_CHECK(w != x);
		else
			FUZZ_CHECK(w == x);
		if (x->quote == '\'' || !memchr(data, '$', size))
			FUZZ_CHECK(x->value_len <= size);
	}
	dotenv_release(&d);
	dotenv_release(&d2);
	free(owned);
	return 0;
}
