/* fuzz_poetrycon.c - poetry's version constraints (src/parse/poetrycon.c).
 *
 * Input: a constraint, then (after the first NUL) a version.
 *
 * Invariants: the answer is 1, 0 or -1; an error message is printable
 * and never holds the constraint (repository text); a constraint and the
 * same with "|| *" after it are never both parsed and unmet, and "*"
 * alone is met by every version pep440 reads.
 */
#include "fuzz.h"
#include "pep440.h"
#include "poetrycon.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *a, *b;
	size_t alen, blen;
	char *con, *ver, err[256], *any;
	int rc, rc2, cmp;
	uint8_t *owned;

	fuzz_split(data, size, &a, &alen, &b, &blen);
	a = fuzz_scale(a, &alen, &owned);
	con = fuzz_str(a, alen);
	ver = fuzz_str(b, blen);

	err[0] = '\0';
	rc = poetry_check(con, ver, err, sizeof(err));
	FUZZ_CHECK(rc >= -1 && rc <= 1);
	if (rc < 0)
		FUZZ_CHECK(err[0] && fuzz_printable(err));
	if (pep440_compare(ver, ver, &cmp) == 0) {
		FUZZ_CHECK(poetry_check("*", ver, err, sizeof(err)) == 1);
		any = malloc(strlen(con) + 8);
		if (any) {
			sprintf(any, "%s || *", con);
			rc2 = poetry_check(any, ver, err, sizeof(err));
			FUZZ_CHECK(!(rc == 0 && rc2 == 0));
			free(any);
		}
	}
	free(con);
	free(ver);
	free(owned);
	return 0;
}
