/* pnpm_settings.h - the configuration pnpm records in its lockfile and
 * compares before a frozen install (src/parse/pnpm_settings.c): what the
 * lockfile says (overrides, patchedDependencies, catalogs,
 * packageExtensionsChecksum, pnpmfileChecksum, ignoredOptionalDependencies,
 * settings), what the project's config says (package.json "pnpm",
 * pnpm-workspace.yaml, .npmrc), the checksums pnpm computes of them, and
 * pnpm's rule that compares the two (ERR_PNPM_LOCKFILE_CONFIG_MISMATCH,
 * pnpm 12's ERR_PNPM_OUTDATED_LOCKFILE).  Pure: bytes in, values out.
 */
#ifndef EP_PNPM_SETTINGS_H
#define EP_PNPM_SETTINGS_H

#include <stddef.h>

#include "parse_error.h"

/* A key and its value (an override, a patch, a catalog entry: key
 * "<catalog>\n<alias>"); val NULL: none (a list item). */
struct pnpm_kv {
	char *key;
	char *val;
	char *path;		/* patchedDependencies of lockfile 6: the patch file */
};

struct pnpm_kvs {
	struct pnpm_kv *v;
	size_t n, cap;
	int set;		/* the field was there (even empty) */
};

/* What a lockfile records of its configuration (top-level fields of the
 * project's document). */
struct pnpm_lockcfg {
	struct pnpm_kvs overrides, patched, catalogs, ignored_optional;
	struct pnpm_kvs never_built, only_built;	/* lockfile 6: lists */
	char *pkgext_checksum;	/* packageExtensionsChecksum, or NULL */
	char *pnpmfile_checksum;	/* pnpmfileChecksum, or NULL */
	int settings;		/* a settings: block was there */
	int auto_install_peers;	/* settings.*: 1, 0; -1 unsaid */
	int exclude_links;
	int inject_workspace;
	int patched_objects;	/* patchedDependencies entries are {hash, path} */
};

struct ypath;
/* Keep p when it is one of those fields (deps_pnpm.c's walk calls this
 * for every scalar of the project's document); 1 when it was. */
int pnpm_lockcfg_capture(struct pnpm_lockcfg *c, const struct ypath *p);
void pnpm_lockcfg_release(struct pnpm_lockcfg *c);

/* A setting's value and where it came from. */
struct pnpm_flag {
	int v;			/* 1, 0; -1 not set here */
	const char *from;	/* static: ".npmrc", "pnpm-workspace.yaml", ... */
};

/* What the project's configuration says, read from the files the pnpm of
 * the lockfile's version reads (6: package.json "pnpm" and .npmrc; 9:
 * pnpm-workspace.yaml). */
struct pnpm_config {
	struct pnpm_kvs overrides, patched, catalogs, ignored_optional;
	struct pnpm_kvs never_built, only_built;	/* pnpm 8's lists */
	int only_built_file;	/* onlyBuiltDependenciesFile: not compared */
	char *pkgext_json;	/* packageExtensions as JSON text, or NULL */
	int pkgext_exact;	/* its checksum can be computed as pnpm does */
	const char *file;	/* where overrides ... came from (static) */
	struct pnpm_flag auto_install_peers, exclude_links, inject_workspace;
	int pnpmfile_set;	/* a pnpmfile / ignorePnpmfile setting: not ours to tell */
	unsigned pnpm_major;	/* package.json's packageManager "pnpm@10.1.0": 10; 0 none */
};

void pnpm_config_init(struct pnpm_config *c);
void pnpm_config_release(struct pnpm_config *c);
/* package.json's "pnpm" field and yarn's "resolutions" (pnpm 8, config
 * getOptionsFromRootManifest).  Returns 0, -1 not JSON. */
int pnpm_config_manifest(const char *buf, size_t len, struct pnpm_config *c);
/* pnpm-workspace.yaml's top-level settings (pnpm 10 and later).  Returns
 * 0, or -1 with err. */
int pnpm_config_workspace(const char *buf, size_t len, struct pnpm_config *c,
			  struct parse_error *err);
/* pnpm 9 and 10, which read both: the root manifest's settings (m, read
 * by pnpm_config_manifest) over pnpm-workspace.yaml's (c, read by
 * pnpm_config_workspace; pnpm 9 takes only its catalogs).  What is moved
 * is left empty in m. */
void pnpm_config_manifest_over(struct pnpm_config *c, struct pnpm_config *m,
			       unsigned pnpm_major);
/* The major version of "pnpm@9.15.9" (packageManager, .modules.yaml's
 * packageManager); 0 when it names no pnpm. */
unsigned pnpm_major_of(const char *s, size_t len);
/* node_modules/.modules.yaml's packageManager: the pnpm that installed
 * last, by major version; 0 unsaid. */
unsigned pnpm_modules_major(const char *buf, size_t len);
/* A boolean setting from .npmrc text ("auto-install-peers=false"); -1
 * not set. */
int pnpm_npmrc_bool(const char *buf, size_t len, const char *key);

/* ---- checksums, as pnpm computes them (new strings; NULL: cannot) ---- */

enum pnpm_hash {
	PNPM_MD5_BASE32,	/* pnpm 8 createBase32HashFromFile: CRLF as LF, md5, base32 */
	PNPM_SHA256_HEX,	/* pnpm 10+ calc_patch_hashes: CRLF as LF, sha256 hex */
	PNPM_SHA256_B64,	/* pnpm 9+ create_hash_from_file: CRLF as LF, "sha256-" base64 */
};
char *pnpm_file_hash(const char *buf, size_t len, enum pnpm_hash how);
/* packageExtensionsChecksum of packageExtensions' JSON text: pnpm 8's
 * (md5 hex of JSON.stringify with sorted keys, lockfile 6) or pnpm 9+'s
 * ("sha256-" base64 of object-hash's stream, lockfile 9).  NULL when the
 * JSON holds what is not reproduced (numbers, arrays, non-ASCII keys). */
char *pnpm_pkgext_checksum(const char *json, unsigned major);

/* ---- the comparison ---- */

/* The first setting that differs (strings borrowed; NULL: none there). */
struct pnpm_cfg_mismatch {
	const char *setting;	/* "overrides", "settings.autoInstallPeers", ... */
	const char *key;	/* the entry ("tiny-c", "default:react"), or NULL */
	const char *config;
	const char *lockfile;
	const char *from;	/* the file the config value came from (the config
				 * file, a patch file, the pnpmfile), or NULL:
				 * pnpm's default */
	int missing_file;	/* a patch file pnpm must read is not there */
};

/* Files pnpm would hash, as read by the caller (NULL data: missing;
 * unreadable is left out and not compared). */
struct pnpm_cfg_files {
	const char *const *patch_data;	/* per config->patched entry */
	const size_t *patch_len;
	const int *patch_missing;	/* 1: the file is not there */
	const char *pnpmfile;		/* the pnpmfile pnpm would load, or NULL */
	const char *pnpmfile_name;	/* its name (".pnpmfile.cjs"), or NULL */
	size_t pnpmfile_len;
	int pnpmfile_missing;
};

/* Whether the lockfile's configuration is the config's, in the order of
 * pnpm's check (lockfile 6: pnpm 8 getOutdatedLockfileSetting; 9: pnpm 12
 * check_lockfile_settings): 1 yes (or not told), 0 no with *why. */
int pnpm_settings_match(const struct pnpm_lockcfg *l, unsigned major,
			const struct pnpm_config *c, const struct pnpm_cfg_files *f,
			struct pnpm_cfg_mismatch *why, char **scratch);

#endif
