/* fuzz_pyproject.c - pyproject.toml's requires-python, read by the small
 * TOML reader of src/model/spec_versions.c.  The input is written as
 * pyproject.toml into a scratch repository and spec_load reads it (see
 * fuzz.h).
 */
#include "fuzz.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *owned;

	data = fuzz_scale(data, &size, &owned);
	fuzz_put("repo/pyproject.toml", data, size);
	fuzz_spec_load("pyproject.toml");
	free(owned);
	return 0;
}
