/* fuzz_yarngraph.c - yarn.lock as yarn reads it (src/parse/deps_yarn.c
 * yarn_lock_parse, yarn_lock_wanted, yarn_manifest_differs) and the
 * node-modules record's folders (yarn_nm_state_parse).
 *
 * Input: a flags byte (bit 0-1: os linux, darwin, win32 or none; bit 2:
 * libc musl), then yarn.lock NUL package.json.
 *
 * Invariants: 0, 1 (yarn 1) or -1; every package wanted is an entry's
 * resolution, no workspace, a line inside the file; no more skipped than
 * entries; the wanted set is the same for the same machine twice; the
 * manifest's differences are -1 or a count with a printable first one;
 * the record's locations are strings of the input's size at most.
 */
#include "deps_check.h"
#include "yarnstate.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const oses[] = { "linux", "darwin", "win32", NULL };
	struct yarn_lock y = YARN_LOCK_INIT;
	struct dep_set s = DEP_SET_INIT, s2 = DEP_SET_INIT, st = DEP_SET_INIT;
	struct yarn_arch arch;
	struct parse_error err;
	struct yarn_loc *locs = NULL;
	const uint8_t *lock, *pkg;
	size_t llen, plen, skipped = 0, nlocs = 0, i;
	unsigned lines;
	int rc;

	if (!size)
		return 0;
	arch.os = oses[data[0] & 3];
	arch.cpu = "x64";
	arch.libc = data[0] & 4 ? "musl" : "glibc";
	fuzz_split(data + 1, size - 1, &lock, &llen, &pkg, &plen);
	lines = deps_yaml_lines(lock, llen);
	rc = yarn_lock_parse((const char *)lock, llen, &y, &err);
	FUZZ_CHECK(rc >= -1 && rc <= 1);
	if (rc < 0)
		deps_check_error(&err, lines);
	if (rc == 0) {
		const struct yarn_entry *ws = yarn_lock_workspace(&y, ".");

		yarn_lock_wanted(&y, &arch, &s, &skipped);
		yarn_lock_wanted(&y, &arch, &s2, NULL);
		FUZZ_CHECK(s.n == s2.n && skipped <= y.n && s.n <= y.n);
		deps_check_set(&s, lines, DEPS_CMP_PAIR);
		for (i = 0; i < s.n; i++)
			FUZZ_CHECK(!strstr(s.v[i].key, "@workspace:") &&
				   dep_set_get(&s2, s.v[i].key) != NULL);
		if (ws) {
			char *why = NULL;
			int n = yarn_manifest_differs((const char *)pkg, plen, ws, &why);

			FUZZ_CHECK(n >= -1);
			FUZZ_CHECK((n > 0) == (why != NULL));
			free(why);
		}
	}
	if (yarn_nm_state_parse((const char *)lock, llen, &st, &locs, &nlocs, &err) == 0)
		for (i = 0; i < nlocs; i++)
			FUZZ_CHECK(locs[i].path && locs[i].locator && strlen(locs[i].path) <= llen);
	yarn_locs_release(locs, nlocs);
	dep_set_release(&s);
	dep_set_release(&s2);
	dep_set_release(&st);
	yarn_lock_release(&y);
	return 0;
}
