/* fuzz_pnpmlock.c - pnpm's files (src/parse/deps_yaml.c): pnpm-lock.yaml
 * and node_modules/.pnpm/lock.yaml (deps_pnpm_parse), and
 * node_modules/.modules.yaml (deps_pnpm_modules), the low bit of the
 * first byte choosing.
 *
 * Invariants (deps_check.h): each entry found by its key, with a name,
 * known flags and a line inside the file (lines as YAML counts them: a
 * lone CR ends one), and the set equal to itself under deps_compare (ids
 * holding versions: DEPS_CMP_PAIR); the pnpm
 * that wrote .modules.yaml, when named, is printable text of the file's;
 * a failure names a line inside the file and says why, printably.
 */
#include "deps_check.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dep_set s = DEP_SET_INIT;
	struct parse_error err;
	unsigned lines;
	uint8_t *owned;
	char *by = NULL;
	int modules, rc;

	if (!size)
		return 0;
	modules = data[0] & 1;
	data++;
	size--;
	data = fuzz_scale(data, &size, &owned);
	lines = deps_yaml_lines(data, size);
	memset(&err, 0, sizeof(err));
	if (modules)
		rc = deps_pnpm_modules((const char *)data, size, &s, &by, &err);
	else
		rc = deps_pnpm_parse((const char *)data, size, &s, &err);
	FUZZ_CHECK(rc == 0 || rc == -1);
	if (rc == 0)
		deps_check_set(&s, lines, DEPS_CMP_PAIR);
	else
		deps_check_error(&err, lines);
	FUZZ_CHECK(!by || strlen(by) <= size);
	free(by);
	dep_set_release(&s);
	free(owned);
	return 0;
}
