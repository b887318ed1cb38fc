/* fuzz_pnpmlock.c - pnpm's files (src/parse/deps_pnpm.c over deps_yaml.c),
 * the low two bits of the first byte choosing:
 *   0  pnpm-lock.yaml or node_modules/.pnpm/lock.yaml as a set
 *      (deps_pnpm_parse)
 *   1  node_modules/.modules.yaml (deps_pnpm_modules_read)
 *   2  pnpm-lock.yaml whole (deps_pnpm_lock: its documents, importers;
 *      every direct dependency's id, every package's folder name)
 *   3  a package.json NUL pnpm-lock.yaml: deps_pnpm_satisfies of each
 *      importer against the manifest
 *
 * Invariants (deps_check.h): each entry found by its key, with a name,
 * known flags and a line inside the file (lines as YAML counts them: a
 * lone CR ends one), and the set equal to itself under deps_compare (ids
 * holding versions: DEPS_CMP_PAIR); the pnpm that wrote .modules.yaml,
 * when named, is printable text of the file's; every importer has an id,
 * each direct dependency an alias; a folder name has no '/'; a mismatch
 * names a dependency of one side or the other; a failure names a line
 * inside the file and says why, printably.
 */
#include "deps_check.h"
#include "deps_pnpm.h"

#include <stdlib.h>

static void check_lock(const struct pnpm_lock *l)
{
	size_t i, j;

	for (i = 0; i < l->nimp; i++) {
		FUZZ_CHECK(l->imp[i].id != NULL);
		for (j = 0; j < l->imp[i].n; j++) {
			const struct pnpm_direct *d = &l->imp[i].v[j];
			char *id = pnpm_ref_id(l, d->alias, d->ref);

			FUZZ_CHECK(d->alias && d->field < PNPM_NFIELDS);
			free(id);
		}
	}
	for (i = 0; i < l->pkgs.n; i++) {
		char *dir = pnpm_dep_dirname(l->pkgs.v[i].key, 120);

		FUZZ_CHECK(!dir || (!strchr(dir, '/') && strlen(dir) <= 120));
		free(dir);
	}
}

static void satisfies(const char *data, size_t size)
{
	const char *nul = memchr(data, 0, size);
	struct pnpm_manifest m;
	struct pnpm_lock l;
	struct parse_error err;
	size_t i;

	if (!nul)
		return;
	if (deps_pnpm_manifest(data, (size_t)(nul - data), &m) < 0)
		return;
	if (deps_pnpm_lock(nul + 1, size - (size_t)(nul - data) - 1, &l, &err) == 0) {
		for (i = 0; i < l.nimp; i++) {
			struct pnpm_mismatch why;

			if (!deps_pnpm_satisfies(&l, &l.imp[i], &m, &why))
				FUZZ_CHECK(why.name != NULL);
		}
	}
	pnpm_lock_release(&l);
	pnpm_manifest_release(&m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dep_set s = DEP_SET_INIT;
	struct pnpm_modules mods;
	struct pnpm_lock lock;
	struct parse_error err;
	unsigned lines;
	uint8_t *owned;
	int mode, rc;

	if (!size)
		return 0;
	mode = data[0] & 3;
	data++;
	size--;
	data = fuzz_scale(data, &size, &owned);
	if (mode == 3) {
		satisfies((const char *)data, size);
		free(owned);
		return 0;
	}
	lines = deps_yaml_lines(data, size);
	memset(&err, 0, sizeof(err));
	if (mode == 1) {
		rc = deps_pnpm_modules_read((const char *)data, size, &mods, &err);
		FUZZ_CHECK(rc == 0 || rc == -1);
		if (rc == 0)
			deps_check_set(&mods.skipped, lines, DEPS_CMP_PAIR);
		else
			deps_check_error(&err, lines);
		FUZZ_CHECK(!mods.by || strlen(mods.by) <= size);
		pnpm_modules_release(&mods);
	} else if (mode == 2) {
		rc = deps_pnpm_lock((const char *)data, size, &lock, &err);
		FUZZ_CHECK(rc == 0 || rc == -1);
		if (rc == 0) {
			deps_check_set(&lock.pkgs, lines, DEPS_CMP_PAIR);
			check_lock(&lock);
		} else {
			deps_check_error(&err, lines);
		}
		pnpm_lock_release(&lock);
	} else {
		rc = deps_pnpm_parse((const char *)data, size, &s, &err);
		FUZZ_CHECK(rc == 0 || rc == -1);
		if (rc == 0)
			deps_check_set(&s, lines, DEPS_CMP_PAIR);
		else
			deps_check_error(&err, lines);
	}
	dep_set_release(&s);
	free(owned);
	return 0;
}
