/* fuzz_dotenv.c - dotenv_parse (src/dotenv.c) on any bytes.
 *
 * Invariants: keys are [A-Za-z0-9_.-]+; every byte of a value is a byte
 * of the input or the LF/CR of an expanded \n or \r (no value is built
 * from memory outside the buffer); positions lie inside the text; the
 * winner of each key is found by dotenv_get; and no issue message holds a
 * value (values are secrets), unless that text is also a key or part of
 * the fixed wording.
 */
#include "fuzz.h"
#include "dotenv.h"

#include <string.h>

/* the fixed text of dotenv.c's issue messages */
static const char *const wording[] = {
	"missing key name before '='", "expected KEY=VALUE",
	"expected '=' or ': ' after the key name",
	"invalid character in key name", "expected '=' after the key name",
	"text after the closing quote: dotenv does not treat the value as quoted",
	"unterminated quote: dotenv does not treat the value as quoted",
	"the '=' of key '", "' is on a later line",
	"' has no value on its line: dotenv reads it from a later line",
	"key '__proto__' is dropped by dotenv (a JavaScript object quirk)",
};

static int key_char(unsigned char c)
{
	return c == '_' || c == '.' || c == '-' || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Is v[0..n) part of some key or of the fixed wording? */
static int innocent(const struct dotenv *d, const char *v, size_t n)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (memmem(d->entries[i].key, strlen(d->entries[i].key), v, n))
			return 1;
	for (i = 0; i < sizeof(wording) / sizeof(wording[0]); i++)
		if (memmem(wording[i], strlen(wording[i]), v, n))
			return 1;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char seen[256] = { 0 };
	unsigned maxline = 1;
	struct dotenv d;
	size_t i, j;

	for (i = 0; i < size; i++) {
		seen[data[i]] = 1;
		/* LF, CR and U+2028/U+2029 (E2 80 A8/A9) end lines */
		maxline += data[i] == '\n' || data[i] == '\r' || data[i] == 0xe2;
	}
	seen['\n'] = seen['\r'] = 1;
	dotenv_parse((const char *)data, size, &d);
	for (i = 0; i < d.n; i++) {
		const struct dotenv_entry *e = &d.entries[i];
		const struct dotenv_entry *w;

		FUZZ_CHECK(e->key && e->key[0]);
		for (j = 0; e->key[j]; j++)
			FUZZ_CHECK(key_char((unsigned char)e->key[j]));
		FUZZ_CHECK(e->value && e->value_len <= size);
		FUZZ_CHECK(e->value[e->value_len] == '\0');
		for (j = 0; j < e->value_len; j++)
			FUZZ_CHECK(seen[(unsigned char)e->value[j]]);
		FUZZ_CHECK(e->line >= 1 && e->line <= maxline);
		FUZZ_CHECK(e->col >= 1 && e->col <= size);
		w = dotenv_get(&d, e->key);
		FUZZ_CHECK(w && !strcmp(w->key, e->key));
		FUZZ_CHECK(dotenv_is_shadowed(&d, i) == (w != e));
	}
	for (i = 0; i < d.nissues; i++) {
		const struct dotenv_issue *is = &d.issues[i];

		FUZZ_CHECK(is->message && is->message[0]);
		FUZZ_CHECK(is->line >= 1 && is->line <= maxline);
		for (j = 0; j < d.n; j++) {
			const struct dotenv_entry *e = &d.entries[j];

			if (e->value_len >= 8 &&
			    memmem(is->message, strlen(is->message), e->value,
				   e->value_len))
				FUZZ_CHECK(innocent(&d, e->value, e->value_len));
		}
	}
	dotenv_release(&d);
	return 0;
}
