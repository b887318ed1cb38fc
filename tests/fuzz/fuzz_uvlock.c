/* fuzz_uvlock.c - uv.lock (src/parse/deps_py.c deps_uv_parse over
 * toml.c): which packages `uv sync` installs, markers evaluated.
 *
 * The low bit of the first byte picks the machine: CPython 3.12 on
 * x86_64 Linux, or the same with no python version known.  Invariants
 * (deps_check.h): each entry found by its normalised name, with known
 * flags and a line inside the file, and the set equal to itself under
 * deps_compare (PEP 440 versions); every key is its own PEP 503 form; a
 * package decided with the python version unknown is decided the same
 * with it known (DEP_UNDECIDED only ever shrinks); a failure names a line
 * inside the file and says why, printably.
 */
#include "deps_check.h"

#include <stdlib.h>

static const struct pymarker_env py312 = {
	"3.12", "3.12.3", "cpython", "CPython", "linux", "Linux", "posix", "x86_64", NULL
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dep_set s = DEP_SET_INIT;
	struct pymarker_env env = py312;
	struct parse_error err;
	unsigned lines;
	uint8_t *owned;
	size_t i;

	if (!size)
		return 0;
	if (data[0] & 1)
		env.python_version = env.python_full_version = NULL;
	data++;
	size--;
	data = fuzz_scale(data, &size, &owned);
	lines = deps_lines(data, size);
	memset(&err, 0, sizeof(err));
	if (deps_uv_parse((const char *)data, size, &env, &s, &err) == 0) {
		deps_check_set(&s, lines, DEPS_CMP_PEP440);
		for (i = 0; i < s.n; i++) {
			char *norm = pep503_normalize(s.v[i].key, strlen(s.v[i].key));

			FUZZ_CHECK(!strcmp(norm, s.v[i].key));
			free(norm);
		}
	} else {
		deps_check_error(&err, lines);
	}
	dep_set_release(&s);
	free(owned);
	return 0;
}
