/* fuzz_bunlock.c - bun's lockfile (src/parse/deps_bun.c): bun.lock in
 * bun's JSON dialect (deps_bun_parse, for linux/x64), and the same bytes
 * as an installed package.json and as a package.json compared with the
 * lockfile's root (deps_bun_package_json, deps_bun_manifest,
 * deps_bun_manifest_stale).
 *
 * Invariants (deps_check.h): 0, 1 (a newer lockfileVersion: nothing read) or -1; every
 * package with a key, a path below the repository (relative, no ".."),
 * a name, a resolution and a line inside the file; every workspace with
 * a path; a failure names a line inside the file and says why, printably.
 */
#include "deps_check.h"
#include "util.h"

#include <stdlib.h>

static void check_lock(const struct bun_lock *l, unsigned lines)
{
	struct dep_set s = DEP_SET_INIT;
	size_t i;

	FUZZ_CHECK(l->version <= BUN_LOCK_VERSION_MAX);
	FUZZ_CHECK(l->nws >= 1);
	for (i = 0; i < l->npkgs; i++) {
		const struct bun_pkg *p = &l->pkgs[i];

		FUZZ_CHECK(p->key && p->path && p->name && p->resolution);
		FUZZ_CHECK(path_is_relative_inside(p->path));
		FUZZ_CHECK(p->line >= 1 && p->line <= lines);
		FUZZ_CHECK(p->kind <= BUN_ROOT);
		dep_set_add(&s, p->key, p->name, p->resolution,
			    p->other_platform ? DEP_OPTIONAL : 0)->line = p->line;
	}
	/* keys are unique (bun: "duplicate package path") */
	FUZZ_CHECK(s.n == l->npkgs);
	deps_check_set(&s, lines, DEPS_CMP_EXTRAS);
	dep_set_release(&s);
	for (i = 0; i < l->nws; i++)
		FUZZ_CHECK(l->ws[i].path && (i == 0 || l->ws[i].name));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct bun_platform here = { "linux", "x64", "glibc" };
	struct bun_lock l;
	struct bun_workspace m;
	struct parse_error err;
	struct buf why = BUF_INIT;
	unsigned lines;
	uint8_t *owned;
	char *name, *version, *linker;
	int rc;

	data = fuzz_scale(data, &size, &owned);
	lines = deps_lines(data, size);
	rc = deps_bun_parse((const char *)data, size, &here, &l, &err);
	FUZZ_CHECK(rc >= -1 && rc <= 1);
	if (rc == 0)
		check_lock(&l, lines);
	else
		deps_check_error(&err, lines);
	if (rc != 0)
		FUZZ_CHECK(l.npkgs == 0 && l.nws == 0);
	if (deps_bun_manifest((const char *)data, size, &m, &linker, &err) == 0) {
		if (rc == 0)
			FUZZ_CHECK(deps_bun_manifest_stale(&l, 0, &m, &why) >= 0);
		bun_workspace_release(&m);
		free(linker);
	} else {
		deps_check_error(&err, lines);
	}
	bun_lock_release(&l);
	buf_release(&why);
	if (deps_bun_package_json((const char *)data, size, &name, &version) == 0) {
		FUZZ_CHECK(!name || strlen(name) <= size);
		FUZZ_CHECK(!version || strlen(version) <= size);
		if (version)
			(void)deps_bun_version_matches(version, "1.0.0");
		free(name);
		free(version);
	}
	free(owned);
	return 0;
}
