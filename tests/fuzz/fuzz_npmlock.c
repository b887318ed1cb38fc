/* fuzz_npmlock.c - npm's lockfiles (src/parse/deps_npm.c
 * deps_npm_parse): package-lock.json of every lockfileVersion,
 * npm-shrinkwrap.json and node_modules/.package-lock.json, read for a
 * linux x64 glibc machine with the root entry's specs (deps_npm_parse_here);
 * a package.json's "version" (deps_npm_package_version) and
 * dependencies (deps_npm_manifest); the text as an .npmrc
 * (deps_npmrc_values); each value of either as a spec against a version
 * (deps_npm_spec_met).
 *
 * Invariants (deps_check.h): each entry found by its key, with a name,
 * known flags and a line inside the file, and the set equal to itself
 * under deps_compare; an install path's package name is a suffix of it;
 * a failure names a line inside the file and says why, printably.
 */
#include "deps_check.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct npm_platform here = { "linux", "x64", "glibc" };
	struct dep_set s = DEP_SET_INIT, root = DEP_SET_INIT;
	struct parse_error err;
	char *vals[4];
	size_t n;
	unsigned lines;
	uint8_t *owned;
	size_t i;
	char *v;
	int version = 0;

	data = fuzz_scale(data, &size, &owned);
	lines = deps_lines(data, size);
	memset(&err, 0, sizeof(err));
	if (deps_npm_parse_here((const char *)data, size, &here, &s, &root, &version, &err) == 0) {
		deps_check_set(&s, lines, DEPS_CMP_EXTRAS);
		for (i = 0; i < s.n; i++) {
			const char *name = deps_npm_path_name(s.v[i].key);
			size_t kl = strlen(s.v[i].key), nl = strlen(name);

			FUZZ_CHECK(nl <= kl && !strcmp(s.v[i].key + kl - nl, name));
		}
	} else {
		deps_check_error(&err, lines);
		FUZZ_CHECK(s.n == 0 || err.msg[0]);
	}
	for (i = 0; i < root.n; i++) {
		int met = deps_npm_spec_met(root.v[i].version ? root.v[i].version : "", "1.0.0",
					    root.v[i].name);

		FUZZ_CHECK(met >= -1 && met <= 1);
	}
	dep_set_release(&s);
	dep_set_release(&root);
	if (deps_npm_manifest((const char *)data, size, &root, &err) < 0)
		deps_check_error(&err, lines);
	dep_set_release(&root);
	n = deps_npmrc_values((const char *)data, size, "omit", vals, 4);
	FUZZ_CHECK(n <= 4);
	while (n) {
		FUZZ_CHECK(strlen(vals[n - 1]) <= size);
		free(vals[--n]);
	}
	v = deps_npm_package_version((const char *)data, size);
	FUZZ_CHECK(!v || strlen(v) <= size);
	free(v);
	free(owned);
	return 0;
}
