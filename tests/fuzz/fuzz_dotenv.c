/* fuzz_dotenv.c - dotenv_parse (src/dotenv.c) on any bytes.
 *
 * Invariants: keys are [A-Za-z0-9_.-]+; every byte of a value is a byte
 * of the input or the LF/CR of an expanded \n or \r (no value is built
 * from memory outside the buffer); positions lie inside the text; the
 * winner of each key is found by dotenv_get; and every issue message is
 * one dotenv.c writes, quoting at most a key of the file: never a value
 * (values are secrets).
 */
#include "fuzz.h"
#include "dotenv.h"

#include <stdlib.h>
#include <string.h>

/* Every message dotenv.c writes: fixed text, or a key of the file quoted
 * between a prefix and a suffix.  Nothing else may appear in one (values
 * are secrets), so a new message must be added here. */
static const char *const fixed[] = {
	"missing key name before '='", "expected KEY=VALUE",
	"expected '=' or ': ' after the key name",
	"invalid character in key name", "expected '=' after the key name",
	"text after the closing quote: dotenv does not treat the value as quoted",
	"unterminated quote: dotenv does not treat the value as quoted",
	"key '__proto__' is dropped by dotenv (a JavaScript object quirk)",
};
static const struct {
	const char *prefix, *suffix;
} keyed[] = {
	{ "the '=' of key '", "' is on a later line" },
	{ "key '", "' has no value on its line: dotenv reads it from a later line" },
};

static int key_char(unsigned char c)
{
	return c == '_' || c == '.' || c == '-' || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Is msg one of the messages above, quoting only a key of d? */
static int message_ok(const struct dotenv *d, const char *msg)
{
	size_t i, len = strlen(msg);

	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if (!strcmp(msg, fixed[i]))
			return 1;
	for (i = 0; i < sizeof(keyed) / sizeof(keyed[0]); i++) {
		size_t pl = strlen(keyed[i].prefix), sl = strlen(keyed[i].suffix);
		char *key;
		int ok;

		if (len <= pl + sl || strncmp(msg, keyed[i].prefix, pl) ||
		    strcmp(msg + len - sl, keyed[i].suffix))
			continue;
		key = strndup(msg + pl, len - pl - sl);
		FUZZ_CHECK(key != NULL);
		ok = dotenv_get(d, key) != NULL;
		free(key);
		if (ok)
			return 1;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char seen[256] = { 0 };
	unsigned maxline = 1;
	struct dotenv d;
	size_t i, j;
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
		w = dotenv_get(&d, e->key);
		FUZZ_CHECK(w && !strcmp(w->key, e->key));
		FUZZ_CHECK(dotenv_is_shadowed(&d, i) == (w != e));
	}
	for (i = 0; i < d.nissues; i++) {
		const struct dotenv_issue *is = &d.issues[i];

		FUZZ_CHECK(is->message && message_ok(&d, is->message));
		FUZZ_CHECK(is->line >= 1 && is->line <= maxline);
	}
	dotenv_release(&d);
	free(owned);
	return 0;
}
