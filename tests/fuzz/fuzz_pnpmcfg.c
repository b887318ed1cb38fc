/* fuzz_pnpmcfg.c - the configuration pnpm records in its lockfile and
 * the project's (src/parse/pnpm_settings.c), the low two bits of the
 * first byte choosing:
 *   0  pnpm-workspace.yaml (pnpm_config_workspace), and the same bytes as
 *      .npmrc (pnpm_npmrc_bool)
 *   1  package.json's "pnpm" field (pnpm_config_manifest)
 *   2  packageExtensions JSON: its checksum for lockfile 6 and 9, and the
 *      bytes hashed as a patch file and a pnpmfile
 *   3  pnpm-lock.yaml NUL pnpm-workspace.yaml NUL a file: the comparison
 *      (pnpm_settings_match), the file as every patch and the pnpmfile
 *
 * Invariants: a config's entries each have a key; a checksum, when
 * there is one, is of its form (32 hex digits, "sha256-" and 44 base64
 * characters); a difference names a setting, and a config or lockfile
 * value where it says there is one.
 */
#include "fuzz.h"
#include "deps_pnpm.h"
#include "pnpm_settings.h"

#include <stdlib.h>
#include <string.h>

static void check_config(const struct pnpm_config *c)
{
	size_t i;

	for (i = 0; i < c->overrides.n; i++)
		FUZZ_CHECK(c->overrides.v[i].key != NULL);
	for (i = 0; i < c->catalogs.n; i++)
		FUZZ_CHECK(strchr(c->catalogs.v[i].key, '\n') != NULL);
	FUZZ_CHECK(c->auto_install_peers.v >= -1 && c->auto_install_peers.v <= 1);
}

static void check_sum(const char *s, unsigned major)
{
	if (!s)
		return;
	if (major < 9)
		FUZZ_CHECK(strlen(s) == 32 && strspn(s, "0123456789abcdef") == 32);
	else
		FUZZ_CHECK(strlen(s) == 51 && !strncmp(s, "sha256-", 7));
}

static void hashes(const char *data, size_t size)
{
	char *json = malloc(size + 1), *h;

	memcpy(json, data, size);
	json[size] = 0;
	h = pnpm_pkgext_checksum(json, 6);
	check_sum(h, 6);
	free(h);
	h = pnpm_pkgext_checksum(json, 9);
	check_sum(h, 9);
	free(h);
	/* NULL for a text that is not UTF-8, as every form (pnpm reads it
	 * as text) */
	h = pnpm_file_hash(data, size, PNPM_SHA256_HEX);
	FUZZ_CHECK(!h || strlen(h) == 64);
	free(h);
	h = pnpm_file_hash(data, size, PNPM_MD5_BASE32);
	FUZZ_CHECK(!h || strlen(h) == 26);
	free(h);
	h = pnpm_file_hash(data, size, PNPM_SHA256_B64);
	check_sum(h, 9);
	free(h);
	free(json);
}

static void compare(const char *data, size_t size)
{
	const char *nul = memchr(data, 0, size), *nul2;
	struct pnpm_lock l;
	struct pnpm_config c;
	struct pnpm_cfg_files f;
	struct pnpm_cfg_mismatch why;
	struct parse_error err;
	const char **pd;
	size_t *pl, i;
	int *pm;
	char *scratch = NULL;

	if (!nul || !(nul2 = memchr(nul + 1, 0, size - (size_t)(nul - data) - 1)))
		return;
	if (deps_pnpm_lock(data, (size_t)(nul - data), &l, &err) < 0) {
		pnpm_lock_release(&l);
		return;
	}
	pnpm_config_init(&c);
	if (pnpm_config_workspace(nul + 1, (size_t)(nul2 - nul - 1), &c, &err) == 0) {
		pd = calloc(c.patched.n + 1, sizeof(*pd));
		pl = calloc(c.patched.n + 1, sizeof(*pl));
		pm = calloc(c.patched.n + 1, sizeof(*pm));
		for (i = 0; i < c.patched.n; i++) {
			pd[i] = nul2 + 1;
			pl[i] = size - (size_t)(nul2 - data) - 1;
			pm[i] = (int)(i & 1);
		}
		memset(&f, 0, sizeof(f));
		f.patch_data = pd;
		f.patch_len = pl;
		f.patch_missing = pm;
		f.pnpmfile = nul2 + 1;
		f.pnpmfile_len = size - (size_t)(nul2 - data) - 1;
		if (!pnpm_settings_match(&l.cfg, l.major, &c, &f, &why, &scratch))
			FUZZ_CHECK(why.setting != NULL && (why.config || why.lockfile || why.key));
		free(scratch);
		free(pd);
		free(pl);
		free(pm);
	}
	pnpm_config_release(&c);
	pnpm_lock_release(&l);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pnpm_config c;
	struct parse_error err;
	uint8_t *owned;
	int mode, v;

	if (!size)
		return 0;
	mode = data[0] & 3;
	data++;
	size--;
	data = fuzz_scale(data, &size, &owned);
	pnpm_config_init(&c);
	if (mode == 0) {
		if (pnpm_config_workspace((const char *)data, size, &c, &err) == 0)
			check_config(&c);
		v = pnpm_npmrc_bool((const char *)data, size, "auto-install-peers");
		FUZZ_CHECK(v >= -1 && v <= 1);
	} else if (mode == 1) {
		if (pnpm_config_manifest((const char *)data, size, &c) == 0)
			check_config(&c);
	} else if (mode == 2) {
		hashes((const char *)data, size);
	} else {
		compare((const char *)data, size);
	}
	pnpm_config_release(&c);
	free(owned);
	return 0;
}
