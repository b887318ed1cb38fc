/* fuzz_preflight.c - the preflight.yaml loader (src/model/spec_preflight.c over
 * ytree and libyaml).  The input is written as preflight.yaml into a
 * scratch repository and spec_load reads it (see fuzz.h); what it names
 * (an env file, an example) is then read as the loader would.
 */
#include "fuzz.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *owned;

	data = fuzz_scale(data, &size, &owned);
	fuzz_put("repo/preflight.yaml", data, size);
	fuzz_spec_load("preflight.yaml");
	free(owned);
	return 0;
}
