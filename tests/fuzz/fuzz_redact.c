/* fuzz_redact.c - secrets hidden in the command lines of other people's
 * processes (src/parse/redact.c): by shape (redact_cmdline) and by value
 * (redact_values_apply), as the ports probe shows a holder.
 *
 * Input: one byte for the size cap (8 to 263 bytes), then the values to
 * hide, one a line, then (after the first NUL) the arguments as
 * /proc/PID/cmdline holds them, NUL-separated.  Two arguments are added
 * at the end, "--password=<s1>" and "https://u:<s2>@h", with s1 and s2
 * random-looking strings.  Invariants: the command line is printable and
 * within the cap (at least 3 bytes, "..."); when s1 or s2 is not in the
 * input, it is not in the output, whatever came before; after the
 * values pass, no value of 4 to 256 bytes (trimmed, without '*') is left
 * in the text; the values pass changes nothing when nothing matches.
 */
#include "fuzz.h"
#include "redact.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

#define S1 "Qv7xHd2kPw9z"
#define S2 "Zm4pRt8wLq3y"

/* whether value v[0..n) (trimmed and cleaned as redact.c takes it) is
 * in text */
static void check_value_gone(const char *text, const uint8_t *v, size_t n)
{
	char *raw = fuzz_str(v, n), *clean = text_clean(raw);
	const char *s = clean;
	size_t l = strlen(clean);

	while (l && *s == ' ')
		s++, l--;
	while (l && s[l - 1] == ' ')
		l--;
	if (l >= REDACT_VALUE_MIN && l <= 256 && !memchr(s, '*', l) &&
	    strlen(raw) == n)
		FUZZ_CHECK(!memmem(text, strlen(text), s, l));
	free(clean);
	free(raw);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *vals, *args, *p, *end;
	size_t vlen, alen, max, len;
	struct redact_values *x;
	char *cmd, *hidden, *argv;
	const char *shown;

	if (!size)
		return 0;
	max = 8 + (size_t)data[0];
	fuzz_split(data + 1, size - 1, &vals, &vlen, &args, &alen);
	len = alen + sizeof("--password=" S1) + sizeof("https://u:" S2 "@h");
	argv = malloc(len + 1);
	if (!argv)
		abort();
	memcpy(argv, args, alen);
	memcpy(argv + alen, "\0--password=" S1 "\0https://u:" S2 "@h",
	       len - alen);
	argv[len] = '\0';
	cmd = redact_cmdline(argv, len, max);
	FUZZ_CHECK(fuzz_printable(cmd));
	FUZZ_CHECK(strlen(cmd) <= (max > 3 ? max : 3));
	if (!memmem(data, size, S1, strlen(S1)))
		FUZZ_CHECK(!strstr(cmd, S1));
	if (!memmem(data, size, S2, strlen(S2)))
		FUZZ_CHECK(!strstr(cmd, S2));

	x = redact_values_new();
	for (p = vals, end = vals + vlen; p < end;) {
		const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
		const uint8_t *eol = nl ? nl : end;

		redact_values_add(x, (const char *)p, (size_t)(eol - p));
		p = eol + 1;
	}
	hidden = redact_values_apply(x, cmd);
	shown = hidden ? hidden : cmd;
	FUZZ_CHECK(fuzz_printable(shown));
	for (p = vals; p < end;) {
		const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
		const uint8_t *eol = nl ? nl : end;

		check_value_gone(shown, p, (size_t)(eol - p));
		p = eol + 1;
	}
	redact_values_free(x);
	free(hidden);
	free(cmd);
	free(argv);
	return 0;
}
