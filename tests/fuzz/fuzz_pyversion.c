/* fuzz_pyversion.c - pyenv's .python-version (src/parse/pep440.c pyenv_parse).
 *
 * Invariants: every entry has a name, a position and a known kind; an
 * entry that can be checked answers -1, 0 or 1; error messages are
 * printable.
 */
#include "fuzz.h"
#include "pep440.h"

#include <stdlib.h>

static const char *const found[] = { "3.11.7", "3.13.0rc1", "2.7.18", "3.12.0" };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pyenv_file f = { 0 };
	struct parse_error pe = { 0, 0, "" };
	uint8_t *owned;
	size_t i, j;

	data = fuzz_scale(data, &size, &owned);
	if (pyenv_parse((const char *)data, size, &f, &pe) < 0) {
		FUZZ_CHECK(pe.msg[0] && fuzz_printable(pe.msg));
		FUZZ_CHECK(pe.line >= 1 && pe.col >= 1);	/* the bad byte */
		pyenv_release(&f);
		free(owned);
		return 0;
	}
	for (i = 0; i < f.n; i++) {
		const struct pyenv_entry *e = &f.v[i];

		FUZZ_CHECK(e->name && e->name[0] && e->line >= 1 && e->col >= 1);
		FUZZ_CHECK(e->kind >= PYENV_CPYTHON && e->kind <= PYENV_IGNORED);
		for (j = 0; j < sizeof(found) / sizeof(found[0]); j++) {
			int rc = pyenv_matches(e, found[j]);

			FUZZ_CHECK(rc >= -1 && rc <= 1);
		}
		FUZZ_CHECK(pyenv_matches(e, e->name) <= 1);
	}
	pyenv_release(&f);
	free(owned);
	return 0;
}
