/* fuzz_compose.c - the compose file loader (src/model/spec_compose.c: services,
 * ports in short and long syntax, merge keys, ${VAR} substitution from
 * the .env) over ytree and src/parse/portspec.c.
 *
 * Input: compose.yaml, then (after the first NUL) the .env its ${VAR}
 * read.  Both are written into a scratch repository and spec_load reads
 * them (see fuzz.h).
 */
#include "fuzz.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *yaml, *env;
	size_t ylen, elen;
	uint8_t *owned;

	fuzz_split(data, size, &yaml, &ylen, &env, &elen);
	yaml = fuzz_scale(yaml, &ylen, &owned);
	fuzz_put("repo/compose.yaml", yaml, ylen);
	fuzz_put("repo/.env", env, elen);
	fuzz_spec_load("compose.yaml");
	free(owned);
	return 0;
}
