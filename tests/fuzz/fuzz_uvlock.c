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
 * inside the file and says why, printably.  A NUL after the lock starts a
 * pyproject.toml: when it parses, what pyproject's [project] makes of the
 * lock (the relock uv sync --locked wants) is printable and changes
 * nothing of the set.
 */
#include "deps_check.h"
#include "toml.h"
#include "util.h"

#include <stdlib.h>

static const struct pymarker_env py312 = {
	"3.12", "3.12.3", "cpython", "CPython", "linux", "Linux", "posix", "x86_64", NULL
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dep_set s = DEP_SET_INIT, s2 = DEP_SET_INIT;
	struct pymarker_env env = py312;
	struct parse_error err, err2;
	struct toml_value *py = NULL;
	struct buf stale = BUF_INIT;
	const uint8_t *pj;
	size_t pjlen;
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
	fuzz_split(data, size, &data, &size, &pj, &pjlen);
	lines = deps_lines(data, size);
	memset(&err, 0, sizeof(err));
	if (pjlen && toml_parse((const char *)pj, pjlen, NULL, &py, &err2) == 0) {
		int rc = deps_uv_parse((const char *)data, size, &env, py, &s2, &stale, &err2);

		FUZZ_CHECK(fuzz_printable(buf_str(&stale)));
		if (rc == 0)
			FUZZ_CHECK(deps_uv_parse((const char *)data, size, &env, NULL, &s, NULL,
						 &err) == 0 && s.n == s2.n);
		dep_set_release(&s);
		toml_free(py);
	}
	if (deps_uv_parse((const char *)data, size, &env, NULL, &s, NULL, &err) == 0) {
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
	dep_set_release(&s2);
	buf_release(&stale);
	free(owned);
	return 0;
}
