/* fuzz_semver.c - npm semver versions and ranges (src/parse/semver.c).
 *
 * Input: a first byte of options (bit 0 loose, bit 1 includePrerelease),
 * a range, then (after the first NUL) a version.
 *
 * Invariants: a range that parses formats to text that parses again, in
 * the same mode, and gives the same answers, for the input's version and
 * a few fixed ones: validRange's text means what the range means.  Except
 * where node-semver itself does not keep that promise, and we follow it
 * (checked with semver 7.8.5; see regress/semver/): a ">=0.0.0" (with
 * includePrerelease ">=0.0.0-0") comparator is dropped when the range is
 * read, unless it was written otherwise (">=0.0.00" loose, or "~0" gives
 * it), so its text reads back wider; and loose mode may add a '-' to a
 * version of 256 characters, which is then too long to read back at all.
 * Nor need the text format to itself again.  A version that parses formats to text that parses again in the
 * same mode, equal to it (not always strict: loose "1.0.0-0990...991", a
 * number past 2^53 with a leading zero, stays text, as in node-semver).
 */
#include "fuzz.h"
#include "semver.h"

#include <stdlib.h>
#include <string.h>

static void check_version(const char *s, size_t len, unsigned opts)
{
	struct semver v = SEMVER_INIT, again = SEMVER_INIT;
	char text[SEMVER_TEXT_MAX];

	if (semver_parse_mem(s, len, opts, &v) < 0)
		return;
	semver_format(&v, text, sizeof(text));
	FUZZ_CHECK(strlen(text) < sizeof(text) - 1);
	FUZZ_CHECK(semver_parse(text, opts, &again) == 0);
	FUZZ_CHECK(semver_compare(&v, &again) == 0);
	FUZZ_CHECK(semver_compare(&again, &v) == 0);
	semver_release(&again);
	semver_release(&v);
}

/* 1 when text holds a comparator whose version is longer than the 256
 * characters a version may have */
static int overlong_version(const char *text)
{
	size_t n;

	while (*text) {
		text += strspn(text, " |<>=");
		n = strcspn(text, " |");
		if (n > 256)
			return 1;
		text += n;
	}
	return 0;
}

/* Parse the range with the opts it is used with, as node-semver's
 * satisfies(v, range, opts) does: includePrerelease changes the parse. */
static void check_range(const char *s, size_t len, unsigned opts,
			const struct semver *v)
{
	static const char *const fixed[] = {
		"0.0.0-0", "0.0.0", "1.2.3-alpha.1", "1.2.3", "2.0.0-rc.1", "999.0.0",
	};
	struct semver_range *r = semver_range_parse_mem(s, len, opts), *r2;
	char *text;
	size_t i;

	if (!r)
		return;
	text = semver_range_format(r);
	FUZZ_CHECK(text != NULL);
	r2 = semver_range_parse(text, opts);
	if (!r2) {
		/* loose "2.0.0bbb..." of 256 characters normalises to
		 * "2.0.0-bbb...", one too long to read back, in node-semver too */
		FUZZ_CHECK(overlong_version(text));
		goto out;
	}
	if (strstr(text, ">=0.0.0"))
		goto out;
	if (v)
		FUZZ_CHECK(semver_satisfies(v, r, opts) == semver_satisfies(v, r2, opts));
	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		struct semver f = SEMVER_INIT;

		FUZZ_CHECK(semver_parse(fixed[i], 0, &f) == 0);
		FUZZ_CHECK(semver_satisfies(&f, r, opts) == semver_satisfies(&f, r2, opts));
		semver_release(&f);
	}
out:
	free(text);
	if (r2)
		semver_range_free(r2);
	semver_range_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *a, *b;
	size_t alen, blen;
	unsigned opts;
	struct semver v = SEMVER_INIT;
	uint8_t *owned;
	int have_v;

	if (!size)
		return 0;
	opts = (data[0] & 1 ? SEMVER_LOOSE : 0) |
	       (data[0] & 2 ? SEMVER_INCLUDE_PRERELEASE : 0);
	fuzz_split(data + 1, size - 1, &a, &alen, &b, &blen);
	a = fuzz_scale(a, &alen, &owned);
	have_v = semver_parse_mem((const char *)b, blen, opts, &v) == 0;
	check_version((const char *)a, alen, opts);
	check_version((const char *)b, blen, opts);
	check_range((const char *)a, alen, opts, have_v ? &v : NULL);
	if (have_v)
		semver_release(&v);
	free(owned);
	return 0;
}
