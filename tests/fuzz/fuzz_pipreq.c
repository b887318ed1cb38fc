/* fuzz_pipreq.c - requirements*.txt (src/parse/deps_py.c
 * deps_pip_parse): the == pins, markers evaluated, options and hashes
 * skipped, -r and -c counted and not followed.
 *
 * The low bit of the first byte: no python version known.  Invariants
 * (deps_check.h): each pin found by its normalised name, with a version,
 * known flags and a line inside the file, and the set equal to itself
 * under deps_compare; pins, unpinned lines and includes together are no
 * more than the lines; a failure names a line inside the file and says
 * why, printably.
 */
#include "deps_check.h"

#include <stdlib.h>

static const struct pymarker_env py312 = {
	"3.12", "3.12.3", "cpython", "CPython", "linux", "Linux", "posix", "x86_64"
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dep_set s = DEP_SET_INIT;
	struct pymarker_env env = py312;
	struct parse_error err;
	size_t unpinned = 0, includes = 0, i;
	unsigned lines;
	uint8_t *owned;

	if (!size)
		return 0;
	if (data[0] & 1)
		env.python_version = env.python_full_version = NULL;
	data++;
	size--;
	data = fuzz_scale(data, &size, &owned);
	lines = deps_lines(data, size);
	memset(&err, 0, sizeof(err));
	if (deps_pip_parse((const char *)data, size, &env, &s, &unpinned, &includes,
			   &err) == 0) {
		deps_check_set(&s, lines, DEPS_CMP_PEP440);
		for (i = 0; i < s.n; i++)
			FUZZ_CHECK(s.v[i].version && s.v[i].line >= 1);
		FUZZ_CHECK(s.n + unpinned + includes <= lines);
	} else {
		deps_check_error(&err, lines);
	}
	dep_set_release(&s);
	free(owned);
	return 0;
}
