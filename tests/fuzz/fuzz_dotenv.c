/* fuzz_dotenv.c - dotenv_parse (src/parse/dotenv.c) on any bytes.
 *
 * Invariants: keys are [A-Za-z0-9_.-]+; every byte of a value is a byte
 * of the input or the LF/CR of an expanded \n or \r (no value is built
 * from memory outside the buffer); positions lie inside the text; the
 * winner of each key is found by dotenv_get; issues come in file order
 * with printable messages, and no message holds the value of an entry
 * near it (values are secrets).
 */
#include "fuzz.h"
#include "dotenv.h"

#include <stdlib.h>
#include <string.h>

#define WINDOW 8	/* lines either side of an issue whose values are looked for */

static int key_char(unsigned char c)
{
	return c == '_' || c == '.' || c == '-' || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Values are secrets: no message may hold the value of an entry near it
 * (entries[lo..hi) are those within WINDOW lines), unless that text is
 * also a key there (a message may name a key).  Only values of 8 bytes or
 * more are looked for, so that a value such as "1" or "key" does not
 * match the wording by chance.  The window keeps the check linear. */
static void check_message(const struct dotenv *d, size_t lo, size_t hi,
			  const char *msg)
{
	size_t i, j, mlen = strlen(msg);

	FUZZ_CHECK(mlen && fuzz_printable(msg));
	for (i = lo; i < hi; i++) {
		const struct dotenv_entry *e = &d->entries[i];
		int in_key = 0;

		if (e->value_len < 8 || !memmem(msg, mlen, e->value, e->value_len))
			continue;
		for (j = lo; j < hi && !in_key; j++)
			in_key = memmem(d->entries[j].key, strlen(d->entries[j].key),
					e->value, e->value_len) != NULL;
		FUZZ_CHECK(in_key);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char seen[256] = { 0 };
	unsigned maxline = 1;
	struct dotenv d;
	size_t i, j, lo, hi;
	uint8_t *owned;

	data = fuzz_scale(data, &size, &owned);
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
		if (i)	/* in file order */
			FUZZ_CHECK(e->line >= d.entries[i - 1].line);
		w = dotenv_get(&d, e->key);
		FUZZ_CHECK(w && !strcmp(w->key, e->key));
		FUZZ_CHECK(dotenv_is_shadowed(&d, i) == (w != e));
	}
	lo = hi = 0;
	for (i = 0; i < d.nissues; i++) {
		const struct dotenv_issue *is = &d.issues[i];

		FUZZ_CHECK(is->message);
		FUZZ_CHECK(is->line >= 1 && is->line <= maxline);
		if (i)	/* in file order */
			FUZZ_CHECK(is->line >= d.issues[i - 1].line);
		while (lo < d.n && d.entries[lo].line + WINDOW < is->line)
			lo++;
		if (hi < lo)
			hi = lo;
		while (hi < d.n && d.entries[hi].line <= is->line + WINDOW)
			hi++;
		check_message(&d, lo, hi, is->message);
	}
	dotenv_release(&d);
	free(owned);
	return 0;
}
