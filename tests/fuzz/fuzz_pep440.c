/* fuzz_pep440.c - PEP 440 specifiers and versions (src/parse/pep440.c).
 *
 * Input: a specifier, then (after the first NUL) a version.
 *
 * Invariants: the order is antisymmetric and reflexive; a version always
 * satisfies ">=" itself; error messages are printable
 * (they quote repository text).
 */
#include "fuzz.h"
#include "pep440.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int sign(int c)
{
	return (c > 0) - (c < 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *a, *b;
	size_t alen, blen;
	char *spec, *ver, err[256], out[128];
	int rc, c1, c2;
	uint8_t *owned;

	fuzz_split(data, size, &a, &alen, &b, &blen);
	a = fuzz_scale(a, &alen, &owned);
	spec = fuzz_str(a, alen);
	ver = fuzz_str(b, blen);

	err[0] = '\0';
	rc = pep440_check(spec, ver, err, sizeof(err));
	FUZZ_CHECK(rc >= -1 && rc <= 1);
	if (rc < 0)
		FUZZ_CHECK(err[0] && fuzz_printable(err));

	if (pep440_compare(spec, ver, &c1) == 0) {
		FUZZ_CHECK(pep440_compare(ver, spec, &c2) == 0);
		FUZZ_CHECK(sign(c1) == -sign(c2));
	}
	if (pep440_compare(ver, ver, &c1) == 0) {
		char *eq;
		size_t n = strlen(ver) + 3;

		FUZZ_CHECK(c1 == 0);
		/* a local version ("+abc") may not follow ">=", and spaces would
		 * end the version */
		if (!strpbrk(ver, " \t\n\r\f\v,+")) {
			eq = malloc(n);
			FUZZ_CHECK(eq != NULL);
			snprintf(eq, n, ">=%s", ver);
			FUZZ_CHECK(pep440_check(eq, ver, err, sizeof(err)) == 1);
			free(eq);
		}
	}
	pep440_python_output((const char *)data, size, out, sizeof(out));
	free(ver);
	free(spec);
	free(owned);
	return 0;
}
