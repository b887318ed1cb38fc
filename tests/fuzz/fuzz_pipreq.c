/* fuzz_pipreq.c - requirements*.txt (src/parse/deps_py.c
 * deps_pip_parse): pip's line handling (str.splitlines breaks,
 * continuations, comments, ${VAR} expansion from a fixed environment),
 * the requirements of a name (pins and other specifiers), markers evaluated, options and hashes skipped,
 * -r and -c counted and not followed.
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
	"3.12", "3.12.3", "cpython", "CPython", "linux", "Linux", "posix", "x86_64", NULL
};

/* How many lines str.splitlines() sees: \n, \r, \r\n, \v, \f,
 * \x1c-\x1e, and U+0085, U+2028, U+2029 in UTF-8 (and one more, as
 * deps_lines counts, for a last line without a break). */
static unsigned pip_lines(const uint8_t *d, size_t size)
{
	unsigned n = 1;
	size_t i = 0;

	while (i < size) {
		size_t k = 0;

		if (d[i] == '\r')
			k = i + 1 < size && d[i + 1] == '\n' ? 2 : 1;
		else if (d[i] == '\n' || d[i] == '\v' || d[i] == '\f' ||
			 (d[i] >= 0x1c && d[i] <= 0x1e))
			k = 1;
		else if (i + 1 < size && d[i] == 0xc2 && d[i + 1] == 0x85)
			k = 2;
		else if (i + 2 < size && d[i] == 0xe2 && d[i + 1] == 0x80 &&
			 (d[i + 2] == 0xa8 || d[i + 2] == 0xa9))
			k = 3;
		n += k > 0;
		i += k ? k : 1;
	}
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dep_set s = DEP_SET_INIT;
	struct pymarker_env env = py312;
	struct parse_error err;
	struct pip_parse pp;
	static const char *const envp[] = { "REQ_VER=1.0", "EMPTY=", NULL };
	size_t i;
	unsigned lines;
	uint8_t *owned;

	if (!size)
		return 0;
	if (data[0] & 1)
		env.python_version = env.python_full_version = NULL;
	data++;
	size--;
	data = fuzz_scale(data, &size, &owned);
	lines = pip_lines(data, size);
	memset(&err, 0, sizeof(err));
	memset(&pp, 0, sizeof(pp));
	pp.env = &env;
	pp.environ = envp;
	if (deps_pip_parse((const char *)data, size, &pp, &s, &err) == 0) {
		deps_check_set(&s, lines, DEPS_CMP_PEP440);
		for (i = 0; i < s.n; i++)
			FUZZ_CHECK(s.v[i].extra && s.v[i].line >= 1);
		FUZZ_CHECK(s.n + pp.unpinned + pp.includes <= lines);
		FUZZ_CHECK(!pp.unset[0] || (pp.unset_line >= 1 && pp.unset_line <= lines));
	} else {
		deps_check_error(&err, lines);
	}
	dep_set_release(&s);
	free(owned);
	return 0;
}
