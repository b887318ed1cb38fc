/* fuzz_pymarker.c - PEP 508 environment markers (src/parse/deps_py.c
 * pymarker_eval), as lockfiles and requirements files write them.
 *
 * Input: a marker.  Evaluated for CPython 3.12 on x86_64 Linux and for
 * the same machine with no python version known.  Invariants: 1, 0 or -1
 * (undecided); the same answer twice; what is decided without the python
 * version is decided the same with it (three-valued logic: knowing more
 * never turns true into false); a marker and the same marker in
 * parentheses give the same answer when the marker alone parses.
 */
#include "fuzz.h"
#include "deps.h"

#include <stdlib.h>
#include <string.h>

static const struct pymarker_env py312 = {
	"3.12", "3.12.3", "cpython", "CPython", "linux", "Linux", "posix", "x86_64", NULL
};
static const struct pymarker_env unknown_py = {
	NULL, NULL, "cpython", "CPython", "linux", "Linux", "posix", "x86_64", NULL
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *m = (const char *)data;
	int known, unknown;
	char *paren;

	if (size > 65536)
		return 0;
	known = pymarker_eval(m, size, &py312);
	unknown = pymarker_eval(m, size, &unknown_py);
	FUZZ_CHECK(known >= -1 && known <= 1 && unknown >= -1 && unknown <= 1);
	FUZZ_CHECK(pymarker_eval(m, size, &py312) == known);
	if (unknown >= 0)
		FUZZ_CHECK(known == unknown);
	if (known >= 0) {
		paren = malloc(size + 3);
		if (!paren)
			abort();
		paren[0] = '(';
		memcpy(paren + 1, data, size);
		paren[size + 1] = ')';
		paren[size + 2] = '\0';
		FUZZ_CHECK(pymarker_eval(paren, size + 2, &py312) == known);
		free(paren);
	}
	return 0;
}
