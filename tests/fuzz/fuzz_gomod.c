/* fuzz_gomod.c - go.mod's go and toolchain lines, and Go's version order
 * (src/parse/gomod.c).
 *
 * Invariants: a parsed go version is at least itself, or one Go's own
 * order cannot read (go.mod's syntax allows "1.21.3rc1", gover does not:
 * the runtimes probe then fails the check with "invalid Go version");
 * error messages are printable; the order is total (when a is not at
 * least b, b is at least a) on the version in the file and on the input
 * as a version.
 */
#include "fuzz.h"
#include "gomod.h"

#include <stdlib.h>

static const char *const probes[] = {
	"1.21", "1.21rc1", "1.21.0", "go1.22.3", "go version go1.20 linux/amd64",
};

static void check_order(const char *v)
{
	size_t i;

	for (i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
		int ab = goversion_at_least(v, probes[i]);
		int ba = goversion_at_least(probes[i], v);

		FUZZ_CHECK(ab >= -1 && ab <= 1);
		FUZZ_CHECK((ab < 0) == (ba < 0));
		if (ab == 0)
			FUZZ_CHECK(ba == 1);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gomod m;
	struct parse_error e = { 0, 0, "" };
	uint8_t *owned;
	char *s;

	data = fuzz_scale(data, &size, &owned);
	if (gomod_parse((const char *)data, size, &m, &e) == 0) {
		if (m.go) {
			FUZZ_CHECK(m.go_line >= 1 && m.go_col >= 1);
			FUZZ_CHECK(goversion_at_least(m.go, m.go) != 0);
			check_order(m.go);
		}
		if (m.toolchain)
			FUZZ_CHECK(m.toolchain_line >= 1);
		gomod_release(&m);
	} else {
		FUZZ_CHECK(e.msg[0] && fuzz_printable(e.msg));
		FUZZ_CHECK(e.line >= 1 && e.col >= 1);	/* every error has a place */
		FUZZ_CHECK(!m.go && !m.toolchain);
	}
	s = fuzz_str(data, size);
	if (goversion_at_least(s, s) >= 0)
		FUZZ_CHECK(goversion_at_least(s, s) == 1);
	check_order(s);
	free(s);
	free(owned);
	return 0;
}
