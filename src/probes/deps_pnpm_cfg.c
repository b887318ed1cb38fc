/* deps_pnpm_cfg.c - the deps probe's pnpm: the configuration the
 * lockfile records against the project's, as pnpm compares them before a
 * frozen install, which refuses on a difference (pnpm 8:
 * ERR_PNPM_LOCKFILE_CONFIG_MISMATCH, core install/index.ts
 * getOutdatedLockfileSetting; pnpm 12: ERR_PNPM_OUTDATED_LOCKFILE,
 * package-manager install/lockfile_freshness.rs
 * check_lockfile_settings_drift).  The rule itself is pnpm_settings.c's;
 * here: which files the lockfile's pnpm reads, the patch files and the
 * pnpmfile it hashes, the settings' values, and the result.
 */
#include "deps_pnpm_cfg.h"
#include "pnpm_settings.h"
#include "util.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A file read for pnpm's config: 1 read, 0 missing, -1 unreadable. */
static int cfg_read(const struct spec *spec, const char *name, struct blob *b)
{
	struct lread lr;

	if (deps_read(spec->root, name, 1, DEPS_META_CAP, b, &lr) == 0)
		return 1;
	return lr.err == ENOENT || lr.err == ENOTDIR ? 0 : -1;
}

/* The pnpm that reads the configuration, by major version; 0 when it
 * cannot be told.  The lockfile's version says it in part only: lockfile
 * 6 is pnpm 8's, lockfile 9 is written by pnpm 9 and 10 (which read
 * package.json's "pnpm" field) and by pnpm 11 and later (which do not;
 * its lockfile has two documents when it has config dependencies).
 * package.json's packageManager names the pnpm that runs (pnpm 10
 * switches to it, manage-package-manager-versions; corepack), else
 * node_modules/.modules.yaml's packageManager the one that installed
 * last (pnpm's modules-yaml writeModulesManifest).  That file is read
 * again, whole, by deps_pnpm.c after this check: here only for a lockfile
 * 9 of one document with no packageManager, and scanned for one line, so
 * that a config mismatch is still reported before a broken record. */
static unsigned config_pnpm(const struct spec *spec, const struct pnpm_lock *lock,
			    unsigned named)
{
	struct blob b;
	unsigned v = 0;

	if (lock->major < 9)
		return named && named <= 8 ? named : 8;
	if (named >= 9)
		return named;
	if (lock->docs > 1)
		return 11;
	if (cfg_read(spec, "node_modules/.modules.yaml", &b) > 0) {
		v = pnpm_modules_major(b.data, b.len);
		blob_release(&b);
	}
	return v >= 9 ? v : 0;
}

/* pnpm 8, 9 and 10 are JavaScript: npm's config files and variables */
static int js_pnpm(unsigned pm)
{
	return pm && pm <= 10;
}

/* The config files of the pnpm that reads them (*pm, config_pnpm): 0, or
 * -1 when they cannot be told (unreadable, pnpm-workspace.yaml that pnpm
 * would refuse, or a lockfile 9 of a pnpm not known, 9 or 10 reading
 * package.json's "pnpm" field or a later one that does not, when that
 * field sets what pnpm-workspace.yaml does not). */
static int config_files(const struct spec *spec, const struct pnpm_lock *lock, unsigned *pm,
			struct pnpm_config *c)
{
	struct pnpm_config pj;
	struct parse_error e;
	struct blob b;
	int rc, ok = 0;

	pnpm_config_init(&pj);
	rc = cfg_read(spec, "package.json", &b);
	if (rc < 0)
		return -1;
	if (rc > 0) {
		pnpm_config_manifest(b.data, b.len, &pj);
		blob_release(&b);
	}
	*pm = config_pnpm(spec, lock, pj.pnpm_major);
	if (*pm && *pm <= 8) {
		/* pnpm 8: package.json only (config getOptionsFromRootManifest) */
		pnpm_config_manifest_over(c, &pj, *pm);
		pnpm_config_release(&pj);
		return 0;
	}
	rc = cfg_read(spec, "pnpm-workspace.yaml", &b);
	if (rc > 0) {
		rc = pnpm_config_workspace(b.data, b.len, c, &e) == 0 ? 1 : -1;
		blob_release(&b);
	}
	if (rc < 0)
		ok = -1;
	else if (js_pnpm(*pm))
		pnpm_config_manifest_over(c, &pj, *pm);
	else if (!*pm && ((pj.overrides.set && !c->overrides.set) ||
			  (pj.patched.set && !c->patched.set) ||
			  (pj.pkgext_json && !c->pkgext_json)))
		ok = -1;
	pnpm_config_release(&pj);
	return ok;
}

/* A setting from the environment: pnpm 8 to 10 read npm_config_<key>,
 * pnpm 12 pnpm_config_<key> only (config lib.rs Config::current), either
 * case, '-' as '_'. */
static int env_bool(const char *key, unsigned pm, const char **from)
{
	static const char *const pre[] = { "npm_config_", "pnpm_config_" };
	char name[80];
	size_t i, k;

	for (i = js_pnpm(pm) ? 0 : 1; i < (js_pnpm(pm) ? 1u : 2u); i++) {
		const char *v;

		snprintf(name, sizeof(name), "%s%s", pre[i], key);
		for (k = 0; name[k]; k++)
			if (name[k] == '-')
				name[k] = '_';
		v = getenv(name);
		if (!v) {
			for (k = 0; name[k]; k++)
				if (name[k] >= 'a' && name[k] <= 'z')
					name[k] = (char)(name[k] - 32);
			v = getenv(name);
		}
		if (v && (!strcmp(v, "true") || !strcmp(v, "false"))) {
			*from = "the environment";
			return v[0] == 't';
		}
	}
	return -1;
}

/* Whether the user's own config file of this pnpm exists (pnpm 8 to 10:
 * ~/.npmrc and ~/.config/pnpm/rc; pnpm 12: ~/.config/pnpm/config.yaml):
 * a setting it may hold is not ours to read, so a setting the project
 * does not set is then not compared. */
static int user_config(unsigned pm)
{
	const char *home = getenv("HOME"), *xdg = getenv("XDG_CONFIG_HOME");
	char *base = xdg && *xdg == '/' ? xstrdup(xdg) :
		     home && *home ? path_join(home, ".config") : NULL;
	char *p;
	struct stat st;
	int there = 0;

	if (!base)
		return 1;
	p = path_join(base, js_pnpm(pm) ? "pnpm/rc" : "pnpm/config.yaml");
	there = stat(p, &st) == 0;
	free(p);
	if (js_pnpm(pm) && home && *home) {
		p = path_join(home, ".npmrc");
		there |= stat(p, &st) == 0;
		free(p);
	}
	free(base);
	return there;
}

/* Each setting's value: the environment's, else the project's file's
 * (pnpm 8 and 9: .npmrc; pnpm 12: pnpm-workspace.yaml, already read),
 * else pnpm's default where no user config could say otherwise.  pnpm 10
 * reads both files, and pnpm-workspace.yaml's settings are set over what
 * the environment and .npmrc said (config index.ts: pnpmConfig[key] =
 * value for each of the workspace manifest's). */
static void settings(const struct spec *spec, unsigned pm, struct pnpm_config *c)
{
	static const struct {
		const char *key;
		size_t off;
		int def;
	} set[] = {
		{ "auto-install-peers", offsetof(struct pnpm_config, auto_install_peers), 1 },
		{ "exclude-links-from-lockfile", offsetof(struct pnpm_config, exclude_links), 0 },
		{ "inject-workspace-packages", offsetof(struct pnpm_config, inject_workspace), 0 },
	};
	int user = user_config(pm);
	struct blob b;
	int have = js_pnpm(pm) && cfg_read(spec, ".npmrc", &b) > 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(set); i++) {
		struct pnpm_flag *f = (struct pnpm_flag *)((char *)c + set[i].off);
		const char *from = NULL;
		int v = pm == 10 && f->v >= 0 ? -1 : env_bool(set[i].key, pm, &from);

		if (v >= 0) {
			f->v = v;
			f->from = from;
		} else if (f->v < 0 && have &&
			   (v = pnpm_npmrc_bool(b.data, b.len, set[i].key)) >= 0) {
			f->v = v;
			f->from = ".npmrc";
		} else if (f->v < 0 && !user) {
			f->v = set[i].def;
			f->from = NULL;
		}
	}
	if (have)
		blob_release(&b);
}

/* The patch files and the pnpmfile pnpm would hash. */
struct cfg_files {
	struct blob *patch;
	const char **data;
	size_t *len;
	int *missing;
	struct blob pnpmfile;
	int have_pnpmfile;
};

static void read_files(const struct spec *spec, const struct pnpm_lock *lock, unsigned pm,
		       struct pnpm_config *c, struct cfg_files *cf, struct pnpm_cfg_files *f)
{
	size_t i, n = c->patched.n;
	int rc;

	cf->patch = xcalloc(n + 1, sizeof(*cf->patch));
	cf->data = xcalloc(n + 1, sizeof(*cf->data));
	cf->len = xcalloc(n + 1, sizeof(*cf->len));
	cf->missing = xcalloc(n + 1, sizeof(*cf->missing));
	for (i = 0; i < n; i++) {
		/* relative to the lockfile's directory (pnpm 8 calcPatchHashes)
		 * or the workspace's (pnpm 12 patched_dependency_hashes): here
		 * both the repository; an absolute path is not looked at */
		const char *path = c->patched.v[i].val;

		if (!path || path[0] == '/')
			continue;
		rc = cfg_read(spec, path, &cf->patch[i]);
		if (rc > 0) {
			cf->data[i] = cf->patch[i].data;
			cf->len[i] = cf->patch[i].len;
		}
		cf->missing[i] = rc == 0;
	}
	f->patch_data = cf->data;
	f->patch_len = cf->len;
	f->patch_missing = cf->missing;
	/* pnpm 12 crates/hooks finder.rs: .pnpmfile.mjs, else .pnpmfile.cjs;
	 * the pnpmfiles of configDependencies (a lockfile of two documents)
	 * are not looked at */
	if (lock->major < 9 || !lock->cfg.pnpmfile_checksum || lock->docs > 1) {
		c->pnpmfile_set = 1;
		return;
	}
	/* pnpm 9 and 10 read .pnpmfile.cjs only (pnpm 10 requireHooks) */
	f->pnpmfile_name = js_pnpm(pm) ? ".pnpmfile.cjs" : ".pnpmfile.mjs";
	rc = cfg_read(spec, f->pnpmfile_name, &cf->pnpmfile);
	if (rc == 0 && !js_pnpm(pm)) {
		f->pnpmfile_name = ".pnpmfile.cjs";
		rc = cfg_read(spec, f->pnpmfile_name, &cf->pnpmfile);
	}
	cf->have_pnpmfile = rc > 0;
	f->pnpmfile = rc > 0 ? cf->pnpmfile.data : NULL;
	f->pnpmfile_len = rc > 0 ? cf->pnpmfile.len : 0;
	f->pnpmfile_missing = rc == 0;
}

static void release_files(struct cfg_files *cf, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (cf->data[i])
			blob_release(&cf->patch[i]);
	if (cf->have_pnpmfile)
		blob_release(&cf->pnpmfile);
	free(cf->patch);
	free(cf->data);
	free(cf->len);
	free(cf->missing);
}

static void add_str(cJSON *o, const char *k, const char *v)
{
	if (v)
		cJSON_AddStringToObject(o, k, v);
	else
		cJSON_AddNullToObject(o, k);
}

/* "default:react" for a catalog's "default\nreact" (a new string). */
static char *shown_key(const char *k)
{
	char *s = xstrdup(k), *nl = strchr(s, '\n');

	if (nl)
		*nl = ':';
	return s;
}

static void lockfile_config_data(struct result *r, const struct lock_req *l,
				 const struct pnpm_cfg_mismatch *w, const char *key)
{
	cJSON *o;

	r->reason = REASON_OUT_OF_DATE;
	r->data = deps_data_new(l, NULL);
	o = cJSON_AddObjectToObject(r->data, "lockfile_config");
	cJSON_AddStringToObject(o, "setting", w->setting);
	add_str(o, "key", key);
	add_str(o, "config", w->config);
	add_str(o, "lockfile", w->lockfile);
	add_str(o, "config_file", w->from);
}

/* A patch file named in patchedDependencies is gone: pnpm cannot hash it,
 * so the relock fails as the frozen install does (pnpm 8 calcPatchHashes,
 * pnpm 12 CalcPatchHashError); the fix is the config or the file, a
 * person's edit. */
static void missing_patch(struct result *r, const struct lock_req *l,
			  const struct pnpm_cfg_mismatch *w, const char *key)
{
	struct buf m = BUF_INIT;

	buf_puts(&m, "the patch file ");
	buf_add_clean(&m, w->config);
	buf_puts(&m, " of patchedDependencies ");
	buf_add_clean(&m, key);
	result_set(r, STATUS_FAIL, "%s in %s is missing: pnpm install fails on it, frozen or not",
		   buf_str(&m), w->from ? w->from : "pnpm's config");
	lockfile_config_data(r, l, w, key);
	result_fix_edit(r, w->from ? w->from : l->origin.file, 0);
	result_hint(r, "restore the patch file, or remove its entry from patchedDependencies "
		    "in %s and relock (pnpm install --no-frozen-lockfile)",
		    w->from ? w->from : "pnpm's config");
	buf_release(&m);
}

static void mismatch_result(struct result *r, const struct lock_req *l, unsigned pm,
			    const struct pnpm_cfg_mismatch *w)
{
	const char *code = js_pnpm(pm) ? "ERR_PNPM_LOCKFILE_CONFIG_MISMATCH" :
				       "ERR_PNPM_OUTDATED_LOCKFILE";
	const char *from = w->from ? w->from : "pnpm's default";
	char *key = w->key ? shown_key(w->key) : NULL;
	struct buf what = BUF_INIT;

	if (w->missing_file) {
		missing_patch(r, l, w, key);
		free(key);
		return;
	}
	buf_add_clean(&what, w->setting);
	if (key) {
		buf_puts(&what, " ");
		buf_add_clean(&what, key);
	}
	if (w->config && w->lockfile) {
		buf_puts(&what, " is ");
		buf_add_clean(&what, w->config);
		buf_printf(&what, w->from ? " in %s, " : " by %s, ", from);
		buf_add_clean(&what, w->lockfile);
		buf_printf(&what, " in %s", l->origin.file);
	} else if (w->config) {
		buf_printf(&what, " is in %s, not in %s", from, l->origin.file);
	} else if (!strcmp(w->setting, "pnpmfileChecksum")) {
		buf_printf(&what, " is in %s, but the pnpmfile is gone", l->origin.file);
	} else {
		buf_printf(&what, " is in %s, not in %s", l->origin.file, from);
	}
	result_set(r, STATUS_FAIL, "%s was written with another configuration: %s (pnpm "
		   "install --frozen-lockfile refuses it: %s)", l->origin.file, buf_str(&what),
		   code);
	lockfile_config_data(r, l, w, key);
	/* the relock, as outdated_result's (deps_pnpm.c): no install
	 * clears a lockfile written under another configuration */
	result_fix_argv(r, FIX_AGENT, FIX_NEEDS_NETWORK, "pnpm", "install",
			"--no-frozen-lockfile", (char *)NULL);
	deps_relock_writes(r, l);
	result_hint(r, "the configuration changed without relocking: run pnpm install "
		    "--no-frozen-lockfile to update %s and install (commit the lockfile)",
		    l->origin.file);
	buf_release(&what);
	free(key);
}

int deps_pnpm_config_check(const struct spec *spec, const struct lock_req *l,
			   const struct pnpm_lock *lock, struct result *r)
{
	struct pnpm_config c;
	struct pnpm_cfg_files f;
	struct pnpm_cfg_mismatch why;
	struct cfg_files cf;
	char *scratch = NULL;
	unsigned pm;
	int ok;

	if (lock->major < 6)
		return 0;
	pnpm_config_init(&c);
	if (config_files(spec, lock, &pm, &c) < 0) {
		pnpm_config_release(&c);
		return 0;
	}
	settings(spec, pm, &c);
	memset(&f, 0, sizeof(f));
	memset(&cf, 0, sizeof(cf));
	read_files(spec, lock, pm, &c, &cf, &f);
	ok = pnpm_settings_match(&lock->cfg, lock->major, &c, &f, &why, &scratch);
	if (!ok)
		mismatch_result(r, l, pm, &why);
	release_files(&cf, c.patched.n);
	free(scratch);
	pnpm_config_release(&c);
	return !ok;
}
