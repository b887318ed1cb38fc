/* fuzz_package.c - the package.json loader (src/model/spec_package.c over
 * cJSON, with its own walk to find the line of a key) and corepack's
 * "packageManager" syntax (src/parse/versions.c pkgmanager_parse).
 *
 * The loader reads files only, so the input is written as package.json
 * into a scratch repository and spec_load reads it (see fuzz.h).
 */
#include "fuzz.h"
#include "versions.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pkgmanager pm;
	char err[256];
	uint8_t *owned;

	data = fuzz_scale(data, &size, &owned);
	err[0] = '\0';
	if (pkgmanager_parse((const char *)data, size, &pm, err, sizeof(err)) == 0) {
		FUZZ_CHECK(pm.name && pm.name[0] && pm.version && pm.version[0]);
		pkgmanager_release(&pm);
	} else {
		FUZZ_CHECK(err[0] && fuzz_printable(err));
	}
	fuzz_put("repo/package.json", data, size);
	fuzz_spec_load("package.json");
	free(owned);
	return 0;
}
