/* fuzz_npmpick.c - deps_npm_pick (src/parse/deps_npm.c), npm-pick-manifest
 * on a packument from npm's cache, on any bytes: "RANGE NUL PACKUMENT".
 *
 * Invariants: the same answer twice; a version picked is one of the
 * packument's "versions" keys, and the range holds it.
 */
#include "fuzz.h"
#include "deps.h"
#include "semver.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *a, *b;
	size_t alen, blen;
	uint8_t *owned = NULL;
	char *range, *p1, *p2;

	data = fuzz_scale(data, &size, &owned);
	fuzz_split(data, size, &a, &alen, &b, &blen);
	range = fuzz_str(a, alen);
	p1 = deps_npm_pick((const char *)b, blen, range, "latest");
	p2 = deps_npm_pick((const char *)b, blen, range, "latest");
	FUZZ_CHECK((!p1 && !p2) || (p1 && p2 && !strcmp(p1, p2)));
	if (p1) {
		cJSON *doc = cJSON_ParseWithLength((const char *)b, blen);
		const cJSON *vs = cJSON_GetObjectItemCaseSensitive(doc, "versions");

		FUZZ_CHECK(cJSON_GetObjectItemCaseSensitive(vs, p1) != NULL);
		FUZZ_CHECK(!strcmp(range, "*") || semver_satisfies_str(p1, range, SEMVER_LOOSE) == 1);
		cJSON_Delete(doc);
	}
	free(p1);
	free(p2);
	free(range);
	free(owned);
	return 0;
}
