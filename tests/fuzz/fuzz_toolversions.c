/* fuzz_toolversions.c - asdf / mise .tool-versions (src/parse/toolversions.c).
 *
 * Invariants: one entry per tool (a repeated tool is a dup_line on the
 * first), each with a version and a position; find() gives the entry of a
 * runtime; error messages are printable.
 */
#include "fuzz.h"
#include "toolversions.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const runtimes[] = { "node", "python", "go", "ruby" };
	struct toolversions t;
	struct parse_error pe = { 0, 0, "" };
	uint8_t *owned;
	size_t i;

	data = fuzz_scale(data, &size, &owned);
	toolversions_runtime((const char *)data, size);
	if (toolversions_parse((const char *)data, size, &t, &pe) < 0) {
		FUZZ_CHECK(pe.msg[0] && fuzz_printable(pe.msg));
		FUZZ_CHECK(pe.line >= 1 && pe.col >= 1);
		FUZZ_CHECK(t.n == 0);
		free(owned);
		return 0;
	}
	for (i = 0; i < t.n; i++) {
		const struct toolversions_entry *e = &t.v[i];

		FUZZ_CHECK(e->tool && e->tool[0] && e->version && e->version[0]);
		FUZZ_CHECK(e->line >= 1 && e->col >= 1 && e->nversions >= 1);
		FUZZ_CHECK(e->dup_line == 0 || e->dup_line > e->line);
		if (i)
			FUZZ_CHECK(e->line > t.v[i - 1].line);
	}
	for (i = 0; i < sizeof(runtimes) / sizeof(runtimes[0]); i++) {
		const struct toolversions_entry *e = toolversions_find(&t, runtimes[i]);

		FUZZ_CHECK(!e || !strcmp(e->runtime ? e->runtime : e->tool,
					   runtimes[i]));
	}
	toolversions_release(&t);
	free(owned);
	return 0;
}
