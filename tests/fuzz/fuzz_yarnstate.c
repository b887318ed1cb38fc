/* fuzz_yarnstate.c - yarn's Plug'n'Play install state
 * (src/parse/yarnstate.c): the bytes of .yarn/install-state.gz once
 * gunzipped, which berry writes with v8.serialize.
 *
 * Invariants: 0 or -1; on 0 every kept locator hash is a string the
 * index finds, accessible counts them, and a stored package's
 * dependencies fit in the input; the lockfile checksum of the input is
 * 128 hex digits and the same twice; after release nothing is held.
 */
#include "fuzz.h"
#include "yarnstate.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct yarn_install_state st;
	char a[129], b[129];
	size_t i;
	int rc = yarn_install_state_parse(data, size, &st);

	FUZZ_CHECK(rc == 0 || rc == -1);
	if (rc == 0) {
		FUZZ_CHECK(st.found && st.accessible == st.nlocs);
		for (i = 0; i < st.nlocs; i++)
			FUZZ_CHECK(st.locs[i] && strlen(st.locs[i]) <= size);
		for (i = 0; i < st.npkgs; i++)
			FUZZ_CHECK(st.pkgs[i].hash && st.pkgs[i].ndeps <= size);
		FUZZ_CHECK(yarn_install_state_deps(&st, "nope@npm:1.0.0") >= -1);
		(void)yarn_install_state_has(&st, "lodash@npm:4.17.21");
	} else {
		FUZZ_CHECK(!st.lockfile_checksum && !st.nlocs && !st.npkgs);
	}
	yarn_install_state_release(&st);
	FUZZ_CHECK(!st.locs && !st.pkgs && !st.lockfile_checksum);
	yarn_lockfile_checksum("3", (const char *)data, size, a);
	yarn_lockfile_checksum("3", (const char *)data, size, b);
	FUZZ_CHECK(strlen(a) == 128 && strspn(a, "0123456789abcdef") == 128 && !strcmp(a, b));
	return 0;
}
