/* fuzz_setupcfg.c - setup.cfg's python_requires (src/spec_versions.c over
 * libinih).  The input is written as setup.cfg into a scratch repository
 * and spec_load reads it (see fuzz.h).
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_put("repo/setup.cfg", data, size);
	fuzz_spec_load("setup.cfg");
	return 0;
}
