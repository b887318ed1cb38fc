/* fuzz_yarnlock.c - yarn's files (src/parse/deps_yaml.c deps_yarn_parse):
 * yarn.lock of yarn 2 and later, or node_modules/.yarn-state.yml when
 * the low bit of the first byte is set.
 *
 * Invariants (deps_check.h): 0 (a berry lockfile), 1 (yarn 1: nothing
 * read) or -1; each entry found by its key, with a name, known flags and
 * a line inside the file (lines as YAML counts them: a lone CR ends one),
 * and the set equal to itself under deps_compare
 * (DEPS_CMP_PAIR); a yarn 1 lockfile gives an empty set; a failure names
 * a line inside the file and says why, printably.
 */
#include "deps_check.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dep_set s = DEP_SET_INIT;
	struct parse_error err;
	unsigned lines;
	uint8_t *owned;
	int state, rc;

	if (!size)
		return 0;
	state = data[0] & 1;
	data++;
	size--;
	data = fuzz_scale(data, &size, &owned);
	lines = deps_yaml_lines(data, size);
	memset(&err, 0, sizeof(err));
	rc = deps_yarn_parse((const char *)data, size, state, &s, &err);
	FUZZ_CHECK(rc >= -1 && rc <= 1);
	if (rc == 0)
		deps_check_set(&s, lines, DEPS_CMP_PAIR);
	else if (rc == 1)
		FUZZ_CHECK(s.n == 0);
	else
		deps_check_error(&err, lines);
	dep_set_release(&s);
	free(owned);
	return 0;
}
