/* test_pnpm_settings.c - the configuration pnpm records in its lockfile
 * (pnpm_settings.h): the checksums as pnpm computes them (the expected
 * values are what the real pnpm 8.15.9 and 12.23.0 wrote for these
 * inputs), the lockfile's fields, the project's config, and the rule
 * that compares them, one row a case. */
#include "test.h"
#include "deps_pnpm.h"
#include "pnpm_settings.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

#define PATCH \
	"diff --git a/index.js b/index.js\nindex 0000000..1111111 100644\n" \
	"--- a/index.js\n+++ b/index.js\n@@ -1 +1 @@\n-module.exports = 1\n" \
	"+module.exports = 2\n"
#define PNPMFILE "module.exports = { hooks: { readPackage (p) { return p } } }\n"

static void hashes(void)
{
	static const struct {
		const char *text;
		enum pnpm_hash how;
		const char *want;
	} rows[] = {
		/* pnpm 8 patchedDependencies hash, pnpm 12's */
		{ PATCH, PNPM_MD5_BASE32, "qfpakjuyblfnoe5lvldt436t3q" },
		{ PATCH, PNPM_SHA256_HEX,
		  "44b2d4bc85b85cb51a0648a380b561c020b6520cdd3aae6a8a00807d7e4089ea" },
		/* pnpm 12 pnpmfileChecksum */
		{ PNPMFILE, PNPM_SHA256_B64, "sha256-Ji+JTLxgLcPm9nWQQmmxPUcRZtZ1/POk44pTiB1fCio=" },
		/* CRLF is read as LF before hashing (not for the patch's sha256) */
		{ "module.exports = { hooks: { readPackage (p) { return p } } }\r\n",
		  PNPM_SHA256_B64, "sha256-Ji+JTLxgLcPm9nWQQmmxPUcRZtZ1/POk44pTiB1fCio=" },
		/* the standard vectors */
		{ "", PNPM_SHA256_HEX,
		  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
		{ "abc", PNPM_SHA256_HEX,
		  "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", PNPM_SHA256_HEX,
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
		{ "", PNPM_MD5_BASE32, "2qoyzwmpaczaj2mabgmoz6ccpy" },	/* md5 d41d8cd9... */
		/* CRLF as LF, in every form (pnpm 10 readNormalizedFile; pnpm 12
		 * alike): sha256("abc\n"), a lone CR kept */
		{ "abc\r\n", PNPM_SHA256_HEX,
		  "edeaaff3f1774ad2888673770c6d64097e391bc362d7d6fb34982ddf0efd18cb" },
		{ "abc\r", PNPM_SHA256_HEX,
		  "e2af64b38bbaf25b74d1e999d27370bde03f62b612f43a3f8f548287079ef77e" },
		/* not UTF-8: node would hash U+FFFD, not reproduced */
		{ "a\xff", PNPM_MD5_BASE32, NULL },
		{ "a\xff", PNPM_SHA256_B64, NULL },
		{ "a\xff", PNPM_SHA256_HEX, NULL },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		char *h = pnpm_file_hash(rows[i].text, strlen(rows[i].text), rows[i].how);

		CHECK_STR(h, rows[i].want, "row %zu", i);
		free(h);
	}
}

static void pkgext(void)
{
	static const struct {
		const char *json;
		unsigned major;
		const char *want;
	} rows[] = {
		/* what pnpm 8 and 12 wrote for these packageExtensions */
		{ "{\"tiny-a\":{\"dependencies\":{\"tiny-c\":\"file:../src/tiny-c-2.0.0.tgz\"}}}", 6,
		  "06690df388024cd94d4bbea9b7263e49" },
		{ "{\"tiny-a\":{\"dependencies\":{\"tiny-c\":\"*\"}}}", 6,
		  "b79471ca33a7933c97529975700f34d2" },
		{ "{\"tiny-a\":{\"dependencies\":{\"tiny-c\":\"file:../src/tiny-c-2.0.0.tgz\"}}}", 9,
		  "sha256-pqZHD8nfuJ90w6wBYtZ2l8jo6+ds1IG5bAoPOc62QTg=" },
		/* keys sorted: the same checksum */
		{ "{\"tiny-a\":{\"dependencies\":{\"tiny-c\":\"*\"}},\"a\":{}}", 6, NULL },
		/* not reproduced: a number, an array index key, a field pnpm
		 * 12 serializes its own way */
		{ "{\"tiny-a\":{\"dependencies\":{\"tiny-c\":1}}}", 6, NULL },
		{ "{\"0\":{\"dependencies\":{}}}", 6, NULL },
		{ "{\"a\":{\"peerDependenciesMeta\":{\"b\":{\"optional\":true}}}}", 9, NULL },
		{ "{}", 6, NULL },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		char *h = pnpm_pkgext_checksum(rows[i].json, rows[i].major);

		if (i == 3)	/* only that it is one, and unlike row 1's */
			CHECK(h && strcmp(h, rows[1].want), "row %zu: %s", i, h ? h : "(null)");
		else
			CHECK_STR(h, rows[i].want, "row %zu", i);
		free(h);
	}
}

#define V6 \
	"lockfileVersion: '6.0'\n\nsettings:\n  autoInstallPeers: true\n" \
	"  excludeLinksFromLockfile: false\n\noverrides:\n  tiny-b: 1.0.0\n\n" \
	"packageExtensionsChecksum: 06690df388024cd94d4bbea9b7263e49\n\n" \
	"patchedDependencies:\n  tiny-a@1.0.0:\n    hash: qfpakjuyblfnoe5lvldt436t3q\n" \
	"    path: patches/tiny-a.patch\n\n" \
	"dependencies:\n  tiny-a:\n    specifier: file:../src/tiny-a-1.0.0.tgz\n" \
	"    version: file:../src/tiny-a-1.0.0.tgz(patch_hash=qfpakjuyblfnoe5lvldt436t3q)\n"
#define V6_PKG(rest) \
	"{\"name\":\"x\",\"dependencies\":{\"tiny-a\":\"file:../src/tiny-a-1.0.0.tgz\"}," \
	"\"pnpm\":{" rest "}}"
#define V6_CFG \
	"\"overrides\":{\"tiny-b\":\"1.0.0\"}," \
	"\"patchedDependencies\":{\"tiny-a@1.0.0\":\"patches/tiny-a.patch\"}," \
	"\"packageExtensions\":{\"tiny-a\":{\"dependencies\":{\"tiny-c\":" \
	"\"file:../src/tiny-c-2.0.0.tgz\"}}}"

#define V9 \
	"lockfileVersion: '9.0'\n\nsettings:\n  autoInstallPeers: true\n" \
	"  excludeLinksFromLockfile: false\n\ncatalogs:\n  default:\n    is-number:\n" \
	"      specifier: 7.0.0\n      version: 7.0.0\n\noverrides:\n  tiny-b: 1.0.0\n\n" \
	"packageExtensionsChecksum: sha256-pqZHD8nfuJ90w6wBYtZ2l8jo6+ds1IG5bAoPOc62QTg=\n\n" \
	"pnpmfileChecksum: sha256-Ji+JTLxgLcPm9nWQQmmxPUcRZtZ1/POk44pTiB1fCio=\n\n" \
	"patchedDependencies:\n  tiny-a: " \
	"44b2d4bc85b85cb51a0648a380b561c020b6520cdd3aae6a8a00807d7e4089ea\n\n" \
	"ignoredOptionalDependencies:\n  - fsevents\n\n" \
	"importers:\n  .:\n    dependencies:\n      is-number:\n        specifier: 'catalog:'\n" \
	"        version: 7.0.0\n"
#define WS_TAIL \
	"ignoredOptionalDependencies:\n  - fsevents\n"
#define WS(over, cat) \
	"overrides:\n  tiny-b: " over "\npatchedDependencies:\n  tiny-a: patches/tiny-a.patch\n" \
	"packageExtensions:\n  tiny-a:\n    dependencies:\n" \
	"      tiny-c: file:../src/tiny-c-2.0.0.tgz\ncatalog:\n  is-number: " cat "\n"

static void compare(void)
{
	static const struct {
		const char *lock;
		const char *config;	/* package.json (6) or pnpm-workspace.yaml (9) */
		const char *patch;	/* the patch file, NULL: missing */
		const char *pnpmfile;	/* NULL: missing */
		int auto_peers;		/* the setting pnpm runs with */
		const char *setting;	/* the difference, NULL: none */
		const char *key;
	} rows[] = {
		{ V6, V6_PKG(V6_CFG), PATCH, NULL, 1, NULL, NULL },
		{ V6, V6_PKG("\"overrides\":{\"tiny-b\":\"2.0.0\"}," "\"patchedDependencies\":{"
			     "\"tiny-a@1.0.0\":\"patches/tiny-a.patch\"},\"packageExtensions\":"
			     "{\"tiny-a\":{\"dependencies\":{\"tiny-c\":\"file:../src/tiny-c-"
			     "2.0.0.tgz\"}}}"), PATCH, NULL, 1, "overrides", "tiny-b" },
		/* a "$name" reference pnpm 8 replaces: its key alone */
		{ V6, V6_PKG("\"overrides\":{\"tiny-b\":\"$tiny-b\"}," "\"patchedDependencies\":{"
			     "\"tiny-a@1.0.0\":\"patches/tiny-a.patch\"},\"packageExtensions\":"
			     "{\"tiny-a\":{\"dependencies\":{\"tiny-c\":\"file:../src/tiny-c-"
			     "2.0.0.tgz\"}}}"), PATCH, NULL, 1, NULL, NULL },
		{ V6, V6_PKG("\"patchedDependencies\":{"
			     "\"tiny-a@1.0.0\":\"patches/tiny-a.patch\"},\"packageExtensions\":"
			     "{\"tiny-a\":{\"dependencies\":{\"tiny-c\":\"file:../src/tiny-c-"
			     "2.0.0.tgz\"}}}"), PATCH, NULL, 1, "overrides", "tiny-b" },
		{ V6, V6_PKG(V6_CFG), PATCH "+\n", NULL, 1, "patchedDependencies", "tiny-a@1.0.0" },
		{ V6, V6_PKG(V6_CFG), NULL, NULL, 1, "patchedDependencies", "tiny-a@1.0.0" },
		{ V6, V6_PKG("\"overrides\":{\"tiny-b\":\"1.0.0\"}," "\"patchedDependencies\":{"
			     "\"tiny-a@1.0.0\":\"patches/tiny-a.patch\"}"), PATCH, NULL, 1,
		  "packageExtensionsChecksum", NULL },
		{ V6, V6_PKG(V6_CFG), PATCH, NULL, 0, "settings.autoInstallPeers", NULL },
		{ V6, V6_PKG(V6_CFG), PATCH, NULL, -1, NULL, NULL },	/* not told */
		/* yarn's resolutions are overrides for pnpm 8 */
		{ V6, "{\"resolutions\":{\"tiny-d\":\"1\"},\"pnpm\":{" V6_CFG "}}", PATCH, NULL, 1,
		  "overrides", "tiny-d" },
		{ V6, V6_PKG(V6_CFG ",\"onlyBuiltDependencies\":[]"), PATCH, NULL, 1,
		  "onlyBuiltDependencies", NULL },
		{ V6 "onlyBuiltDependencies:\n  - b\n  - a\n",
		  V6_PKG(V6_CFG ",\"onlyBuiltDependencies\":[\"a\",\"b\"]"), PATCH, NULL, 1, NULL, NULL },
		{ V6, V6_PKG(V6_CFG ",\"neverBuiltDependencies\":[\"a\"]"), PATCH, NULL, 1,
		  "neverBuiltDependencies", "a" },
		{ V9, WS("1.0.0", "7.0.0") WS_TAIL, PATCH, PNPMFILE, 1, NULL, NULL },
		{ V9, WS("1.0.0", "7.0.1") WS_TAIL, PATCH, PNPMFILE, 1, "catalogs", "default\nis-number" },
		/* a catalog entry added: not a difference */
		{ V9, WS("1.0.0", "7.0.0") "  is-odd: ^3.0.0\n" WS_TAIL, PATCH, PNPMFILE, 1, NULL, NULL },
		{ V9, WS("1.1.0", "7.0.0") WS_TAIL, PATCH, PNPMFILE, 1, "overrides", "tiny-b" },
		{ V9, WS("1.0.0", "7.0.0"), PATCH, PNPMFILE, 1, "ignoredOptionalDependencies", "fsevents" },
		{ V9, WS("1.0.0", "7.0.0") WS_TAIL, PATCH "+\n", PNPMFILE, 1, "patchedDependencies", "tiny-a" },
		{ V9, WS("1.0.0", "7.0.0") WS_TAIL, PATCH, PNPMFILE "//\n", 1, "pnpmfileChecksum", NULL },
		{ V9, WS("1.0.0", "7.0.0") WS_TAIL, PATCH, NULL, 1, "pnpmfileChecksum", NULL },
		{ V9, WS("1.0.0", "7.0.0") WS_TAIL "injectWorkspacePackages: true\n", PATCH, PNPMFILE, 1,
		  "settings.injectWorkspacePackages", NULL },
		{ V9, WS("1.0.0", "7.0.0") WS_TAIL, PATCH, PNPMFILE, 0, "settings.autoInstallPeers", NULL },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct pnpm_lock l;
		struct pnpm_config c;
		struct pnpm_cfg_files f;
		struct pnpm_cfg_mismatch why;
		struct parse_error e;
		const char *data[1] = { rows[i].patch };
		size_t len[1] = { rows[i].patch ? strlen(rows[i].patch) : 0 };
		int missing[1] = { !rows[i].patch };
		char *scratch = NULL;
		int ok;

		CHECK_INT(deps_pnpm_lock(rows[i].lock, strlen(rows[i].lock), &l, &e), 0, "row %zu", i);
		pnpm_config_init(&c);
		if (l.major < 9)
			CHECK_INT(pnpm_config_manifest(rows[i].config, strlen(rows[i].config), &c), 0,
				  "row %zu", i);
		else
			CHECK_INT(pnpm_config_workspace(rows[i].config, strlen(rows[i].config), &c,
							&e), 0, "row %zu", i);
		if (c.auto_install_peers.v < 0)
			c.auto_install_peers.v = rows[i].auto_peers;
		if (c.exclude_links.v < 0)
			c.exclude_links.v = 0;
		if (c.inject_workspace.v < 0)
			c.inject_workspace.v = 0;
		memset(&f, 0, sizeof(f));
		f.patch_data = data;
		f.patch_len = len;
		f.patch_missing = missing;
		f.pnpmfile = rows[i].pnpmfile;
		f.pnpmfile_len = rows[i].pnpmfile ? strlen(rows[i].pnpmfile) : 0;
		f.pnpmfile_missing = !rows[i].pnpmfile;
		ok = pnpm_settings_match(&l.cfg, l.major, &c, &f, &why, &scratch);
		CHECK_INT(ok, !rows[i].setting, "row %zu: %s", i, why.setting ? why.setting : "-");
		CHECK_STR(why.setting, rows[i].setting, "row %zu", i);
		CHECK_STR(why.key, rows[i].key, "row %zu", i);
		free(scratch);
		pnpm_config_release(&c);
		pnpm_lock_release(&l);
	}
}

static void npmrc(void)
{
	static const struct {
		const char *text;
		int want;
	} rows[] = {
		{ "auto-install-peers=false\n", 0 },
		{ "  auto-install-peers = true \r\n", 1 },
		{ "auto-install-peers=false\nauto-install-peers=true\n", 1 },
		{ "auto-install-peers-x=false\n", -1 },
		{ "; auto-install-peers=false\n", -1 },
		{ "", -1 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++)
		CHECK_INT(pnpm_npmrc_bool(rows[i].text, strlen(rows[i].text), "auto-install-peers"),
			  rows[i].want, "row %zu", i);
}

/* which pnpm: packageManager of package.json and of .modules.yaml */
static void which_pnpm(void)
{
	static const struct {
		const char *text;
		unsigned want;
	} rows[] = {
		{ "hoistPattern:\n  - '*'\npackageManager: pnpm@9.15.9\npendingBuilds: []\n", 9 },
		{ "{\n  \"layoutVersion\": 5,\n  \"packageManager\": \"pnpm@10.34.8\",\n}\n", 10 },
		{ "packageManager: 'pnpm@8.15.9'\n", 8 },
		{ "packageManager: yarn@4.1.0\n", 0 },
		{ "packageManager: pnpm@\n", 0 },
		{ "layoutVersion: 5\n", 0 },
		{ "packageManager", 0 },
		{ "", 0 },
	};
	static const struct {
		const char *json;
		unsigned major;	/* of the pnpm that reads */
		const char *over;	/* the override of tiny-b that counts */
		const char *file;
		size_t catalogs;
	} over[] = {
		/* pnpm 10: package.json's overrides over pnpm-workspace.yaml's */
		{ "{\"pnpm\":{\"overrides\":{\"tiny-b\":\"1.0.0\"}}}", 10, "1.0.0", "package.json", 1 },
		/* ... but not empty ones */
		{ "{\"pnpm\":{\"overrides\":{}}}", 10, "3.0.0", "pnpm-workspace.yaml", 1 },
		{ "{\"packageManager\":\"pnpm@10.1.0\"}", 10, "3.0.0", "pnpm-workspace.yaml", 1 },
		/* pnpm 9: package.json's only, the workspace's catalogs kept */
		{ "{}", 9, NULL, "package.json", 1 },
		{ "{\"resolutions\":{\"tiny-b\":\"2.0.0\"}}", 9, "2.0.0", "package.json", 1 },
	};
	static const char ws[] = "overrides:\n  tiny-b: 3.0.0\ncatalog:\n  tiny-a: 1.0.0\n";
	size_t i, k;

	for (i = 0; i < ARRAY_SIZE(rows); i++)
		CHECK_INT(pnpm_modules_major(rows[i].text, strlen(rows[i].text)), rows[i].want,
			  "row %zu", i);
	CHECK_INT(pnpm_major_of("pnpm@10.1.0+sha512.abc", 22), 10, "with a hash");
	CHECK_INT(pnpm_major_of("pnpm@9", 6), 9, "a major alone");
	CHECK_INT(pnpm_major_of("npm@10.1.0", 10), 0, "npm");
	for (i = 0; i < ARRAY_SIZE(over); i++) {
		struct pnpm_config c, m;
		struct parse_error e;
		const char *got = NULL;

		pnpm_config_init(&c);
		pnpm_config_init(&m);
		CHECK_INT(pnpm_config_workspace(ws, strlen(ws), &c, &e), 0, "over %zu", i);
		CHECK_INT(pnpm_config_manifest(over[i].json, strlen(over[i].json), &m), 0,
			  "over %zu", i);
		pnpm_config_manifest_over(&c, &m, over[i].major);
		for (k = 0; k < c.overrides.n; k++)
			if (!strcmp(c.overrides.v[k].key, "tiny-b"))
				got = c.overrides.v[k].val;
		CHECK_STR(got, over[i].over, "over %zu", i);
		CHECK_STR(c.file, over[i].file, "over %zu", i);
		CHECK_INT(c.catalogs.n, over[i].catalogs, "over %zu: the catalogs kept", i);
		pnpm_config_release(&c);
		pnpm_config_release(&m);
	}
}

void test_main(void)
{
	hashes();
	pkgext();
	compare();
	npmrc();
	which_pnpm();
}
