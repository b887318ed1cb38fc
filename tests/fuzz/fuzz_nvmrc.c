/* fuzz_nvmrc.c - .nvmrc / .node-version as nvm reads them (src/parse/nvmrc.c).
 *
 * Invariants: a parsed spec has a line, describes itself in printable
 * text, and answers -1, 0 or 1 for any node version (the input's own line
 * as a version too); error messages are printable.
 */
#include "fuzz.h"
#include "nvmrc.h"

#include <stdlib.h>
#include <string.h>

static const char *const versions[] = {
	"v22.11.0", "v20.0.0", "v18.20.4", "v0.10.48", "v3.3.1", "v24.1.0-rc.1",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nvmrc n;
	struct parse_error e = { 0, 0, "" };
	char desc[128];
	uint8_t *owned;
	size_t i;

	data = fuzz_scale(data, &size, &owned);
	if (nvmrc_parse((const char *)data, size, &n, &e) < 0) {
		FUZZ_CHECK(e.msg[0] && fuzz_printable(e.msg));
		FUZZ_CHECK(e.col == 0);	/* nvm reads whole lines: no column */
		free(owned);
		return 0;
	}
	FUZZ_CHECK(n.spec && n.line >= 1);
	nvmrc_describe(&n, desc, sizeof(desc));
	FUZZ_CHECK(strlen(desc) < sizeof(desc));
	for (i = 0; i < sizeof(versions) / sizeof(versions[0]); i++) {
		int rc = nvmrc_matches(&n, versions[i]);

		FUZZ_CHECK(rc >= -1 && rc <= 1);
	}
	{
		int rc = nvmrc_matches(&n, n.spec);

		FUZZ_CHECK(rc >= -1 && rc <= 1);
	}
	nvmrc_release(&n);
	free(owned);
	return 0;
}
