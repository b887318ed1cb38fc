/* fuzz_setupcfg.c - setup.cfg's python_requires (src/model/spec_versions.c over
 * libinih).  The input is written as setup.cfg into a scratch repository
 * and spec_load reads it (see fuzz.h).
 */
#include "fuzz.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *owned;

	data = fuzz_scale(data, &size, &owned);
	fuzz_put("repo/setup.cfg", data, size);
	fuzz_spec_load("setup.cfg");
	free(owned);
	return 0;
}
