/* fuzz_config.c - the user's config.ini (src/engine/config.c over libinih).
 *
 * The loader reads $XDG_CONFIG_HOME/envpreflight/config.ini, which the
 * scratch directory of fuzz.h provides.  Invariants: it loads or fails
 * with a message naming the file; a loaded timeout is in range.
 */
#include "fuzz.h"
#include "config.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct config c;
	struct errbuf err;
	uint8_t *owned;

	data = fuzz_scale(data, &size, &owned);
	fuzz_put("config/envpreflight/config.ini", data, size);
	err.msg[0] = '\0';
	if (config_load(&c, &err) == 0) {
		FUZZ_CHECK(c.path != NULL);
		FUZZ_CHECK(c.timeout_ms >= 0 && c.timeout_ms <= 600000);
		FUZZ_CHECK(c.strict == 0 || c.strict == 1);
	} else {
		FUZZ_CHECK(strstr(err.msg, "config.ini") != NULL);
	}
	config_release(&c);
	free(owned);
	return 0;
}
