/* fuzz_elixirreq.c - Elixir's version requirements (src/parse/elixirreq.c).
 *
 * Input: a requirement, then (after the first NUL) a version.
 *
 * Invariants: the answer is 1, 0 or -1; a requirement it translates is a
 * range node-semver parses; "REQ or >= 0.0.0-0" matches every version
 * node-semver reads whenever REQ translates.
 */
#include "fuzz.h"
#include "elixirreq.h"
#include "semver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *a, *b;
	size_t alen, blen;
	struct buf out = BUF_INIT;
	struct semver sv = SEMVER_INIT;
	char *req, *ver;
	uint8_t *owned;
	int rc;

	fuzz_split(data, size, &a, &alen, &b, &blen);
	a = fuzz_scale(a, &alen, &owned);
	req = fuzz_str(a, alen);
	ver = fuzz_str(b, blen);

	rc = elixir_req_check(req, ver);
	FUZZ_CHECK(rc >= -1 && rc <= 1);
	if (elixir_req_semver(req, &out) == 0) {
		struct semver_range *r = semver_range_parse(buf_str(&out), 0);
		char *any = malloc(strlen(req) + 16);

		FUZZ_CHECK(r != NULL);
		semver_range_free(r);
		if (any && semver_parse(ver, 0, &sv) == 0) {
			sprintf(any, "%s or >= 0.0.0-0", req);
			FUZZ_CHECK(elixir_req_check(any, ver) == 1);
			semver_release(&sv);
		}
		free(any);
	}
	buf_release(&out);
	free(req);
	free(ver);
	free(owned);
	return 0;
}
