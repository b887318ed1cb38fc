/* fuzz_gemreq.c - RubyGems' version requirements (src/parse/gemreq.c), as
 * a Gemfile's ruby directive gives them.
 *
 * Input: requirements (", "-separated), then (after the first NUL) a
 * version.
 *
 * Invariants: the answer is 1, 0 or -1, with a printable message on -1;
 * a valid version satisfies "= itself", ">= itself" and "~> itself" and
 * not "!= itself" nor "> itself"; an exact pin gem_req_exact finds
 * satisfies the requirement it came from whenever that is one
 * requirement.
 */
#include "fuzz.h"
#include "gemreq.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *a, *b;
	size_t alen, blen, i;
	char *req, *ver, err[160], exact[128], self[300];
	uint8_t *owned;
	int rc;

	fuzz_split(data, size, &a, &alen, &b, &blen);
	a = fuzz_scale(a, &alen, &owned);
	req = fuzz_str(a, alen);
	ver = fuzz_str(b, blen);

	err[0] = 0;
	rc = gem_req_check(req, ver, err, sizeof(err));
	FUZZ_CHECK(rc >= -1 && rc <= 1);
	if (rc < 0)
		for (i = 0; err[i]; i++)
			FUZZ_CHECK(err[i] != '\n');
	if (strlen(ver) < 200 && !strchr(ver, ',') &&
	    gem_req_check("0", ver, err, sizeof(err)) >= 0) {
		snprintf(self, sizeof(self), "= %s", ver);
		FUZZ_CHECK(gem_req_check(self, ver, err, sizeof(err)) == 1);
		snprintf(self, sizeof(self), ">= %s", ver);
		FUZZ_CHECK(gem_req_check(self, ver, err, sizeof(err)) == 1);
		snprintf(self, sizeof(self), "~> %s", ver);
		FUZZ_CHECK(gem_req_check(self, ver, err, sizeof(err)) == 1);
		snprintf(self, sizeof(self), "!= %s", ver);
		FUZZ_CHECK(gem_req_check(self, ver, err, sizeof(err)) == 0);
		snprintf(self, sizeof(self), "> %s", ver);
		FUZZ_CHECK(gem_req_check(self, ver, err, sizeof(err)) == 0);
	}
	if (gem_req_exact(req, exact, sizeof(exact)) && !strchr(req, ','))
		FUZZ_CHECK(gem_req_check(req, exact, err, sizeof(err)) == 1);
	free(req);
	free(ver);
	free(owned);
	return 0;
}
