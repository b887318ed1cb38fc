/* peek_js.c - the manifest rule of peek.c: npm, npx, pnpm, yarn and
 * corepack are files of an npm package, and print the "version" of that
 * package's package.json.
 *
 * The resolved file must be one of the package's declared "bin" targets.
 * Corepack's shims (the pnpm and yarn of `corepack enable`) belong to the
 * corepack package, not to pnpm or yarn, so they fall out as "not
 * certain": what they run depends on the repository's packageManager.
 * pnpm and yarn can also switch themselves to a version the repository
 * pins (packageManager, yarnPath), so for them any such pin is a doubt.
 */
#include "peek_int.h"

#include <cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

extern char **environ;

/* package.json is small; anything larger is not what we expect, so it is
 * a doubt rather than something to parse */
#define MANIFEST_CAP (1024 * 1024)
/* how far up from the resolved script its package.json may be */
#define MANIFEST_DEPTH 6

enum { PIN_PM = 1, PIN_YARNRC = 2 };

struct pkgtool {
	const char *name;		/* the runtime name asked for */
	const char *pkgs[3];		/* packages that may own its binary */
	unsigned pins;			/* what in the repo can override it */
};

static const struct pkgtool pkgtools[] = {
	{ "npm", { "npm" }, 0 },
	{ "npx", { "npm" }, 0 },
	{ "corepack", { "corepack" }, 0 },
	{ "pnpm", { "pnpm", "@pnpm/exe" }, PIN_PM },
	{ "yarn", { "yarn", "@yarnpkg/cli-dist" }, PIN_PM | PIN_YARNRC },
	{ "yarnpkg", { "yarn", "@yarnpkg/cli-dist" }, PIN_PM | PIN_YARNRC },
};

static const struct pkgtool *pkgtool_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pkgtools); i++)
		if (!strcmp(pkgtools[i].name, name))
			return &pkgtools[i];
	return NULL;
}

static int pkg_expected(const struct pkgtool *t, const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(t->pkgs) && t->pkgs[i]; i++)
		if (!strcmp(t->pkgs[i], name))
			return 1;
	return 0;
}

/* Parse dir/package.json: 1 parsed (*json set, caller deletes), 0 absent,
 * -1 present but unreadable, too large or not JSON. */
static int pkg_read(const char *dir, cJSON **json)
{
	char *path = path_join(dir, "package.json");
	struct blob b;
	int missing;

	*json = NULL;
	if (peek_read_text(path, MANIFEST_CAP, &b, &missing) < 0) {
		free(path);
		return missing ? 0 : -1;
	}
	free(path);
	*json = cJSON_ParseWithLength(b.data, b.len);
	blob_release(&b);
	return *json ? 1 : -1;
}

/* 1 when dir/rel resolves to the canonical file c. */
static int bin_is(const char *dir, const char *rel, const char *c)
{
	char *p, *r;
	int same;

	if (!rel || !*rel || rel[0] == '/')
		return 0;
	p = path_join(dir, rel);
	r = realpath(p, NULL);
	same = r && !strcmp(r, c);
	free(r);
	free(p);
	return same;
}

/* The canonical file c is one of the package's "bin" targets. */
static int pkg_bin_has(const cJSON *pkg, const char *dir, const char *c)
{
	const cJSON *bin = cJSON_GetObjectItemCaseSensitive(pkg, "bin"), *e;

	if (cJSON_IsString(bin))
		return bin_is(dir, bin->valuestring, c);
	if (!cJSON_IsObject(bin))
		return 0;
	cJSON_ArrayForEach(e, bin)
		if (cJSON_IsString(e) && bin_is(dir, e->valuestring, c))
			return 1;
	return 0;
}

/* The file at dir/name exists and, when words is not NULL, mentions one
 * of them (or cannot be read: a doubt either way). */
static int file_mentions(const char *dir, const char *name,
			 const char *const *words)
{
	char *path = path_join(dir, name);
	struct blob b;
	int missing, hit = 0;

	if (peek_read_text(path, MANIFEST_CAP, &b, &missing) < 0) {
		free(path);
		return !missing;
	}
	free(path);
	for (; *words && !hit; words++)
		hit = strstr(b.data, *words) != NULL;
	blob_release(&b);
	return hit;
}

static const char *const yarn_path_words[] = {
	"yarn-path", "yarnPath", "yarn_path", NULL,
};

/* A pin in dir that can make pnpm or yarn run another version of itself:
 * package.json "packageManager" (or devEngines, which newer releases
 * also act on), .yarnrc "yarn-path", .yarnrc.yml "yarnPath". */
static int dir_pins(const char *dir, unsigned pins)
{
	cJSON *pkg;
	int r;

	if (pins & PIN_YARNRC) {
		if (file_mentions(dir, ".yarnrc", yarn_path_words) ||
		    file_mentions(dir, ".yarnrc.yml", yarn_path_words))
			return 1;
	}
	if (!(pins & PIN_PM))
		return 0;
	r = pkg_read(dir, &pkg);
	if (r < 0)
		return 1;
	r = r && (cJSON_HasObjectItem(pkg, "packageManager") ||
		  cJSON_HasObjectItem(pkg, "devEngines"));
	cJSON_Delete(pkg);
	return r;
}

/* Anything from the repository up to / (and the user's own yarnrc) that
 * could pin another version of this tool: 1 means "not certain". */
static int repo_pins(unsigned pins, const char *repo_root, char *const env[])
{
	char *dir, *slash;
	const char *home = peek_env_get(env, "HOME");
	char *const *e;
	int hit = 0;

	if (!pins)
		return 0;
	if (!repo_root || !(dir = realpath(repo_root, NULL)))
		return 1;
	for (;;) {
		hit = dir_pins(dir[0] ? dir : "/", pins);
		if (hit || !dir[0])
			break;
		slash = strrchr(dir, '/');
		*slash = '\0';
	}
	free(dir);
	if (!hit && (pins & PIN_YARNRC) && home && home[0] == '/')
		hit = dir_pins(home, PIN_YARNRC);
	/* YARN_YARN_PATH, YARN_IGNORE_PATH and friends */
	for (e = env ? env : environ; !hit && (pins & PIN_YARNRC) && e && *e; e++)
		hit = !strncmp(*e, "YARN_", 5) ||
		      !strncasecmp(*e, "npm_config_yarn", 15);
	return hit;
}

/* Walk up from the canonical file c to the nearest package.json with a
 * "name" (a package.json without one only marks a module type): that
 * package (the caller deletes it) and its directory (the caller frees
 * it), or NULL. */
static cJSON *owning_package(const char *c, char **dirp)
{
	char *dir = xstrdup(c), *slash;
	int depth;

	for (depth = 0; depth < MANIFEST_DEPTH; depth++) {
		cJSON *pkg;
		int r;

		slash = strrchr(dir, '/');
		if (!slash || slash == dir)
			break;
		*slash = '\0';
		if (!strcmp(peek_base_name(dir), "node_modules"))
			break;		/* walked out of any package */
		r = pkg_read(dir, &pkg);
		if (r < 0)
			break;
		if (r == 0)
			continue;
		if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(pkg, "name"))) {
			cJSON_Delete(pkg);
			continue;
		}
		*dirp = dir;
		return pkg;
	}
	free(dir);
	return NULL;
}

/* That package must be the tool's own, list c as a "bin" target and
 * carry a semver "version". */
static int manifest_lookup(const struct pkgtool *t, const char *c,
			   const char *repo_root, char *const env[],
			   char *out, size_t outlen)
{
	char *dir = NULL;
	cJSON *pkg = owning_package(c, &dir);
	const cJSON *name, *ver;
	int found = 0;

	if (!pkg)
		return 0;
	name = cJSON_GetObjectItemCaseSensitive(pkg, "name");
	ver = cJSON_GetObjectItemCaseSensitive(pkg, "version");
	if (pkg_expected(t, name->valuestring) &&
	    cJSON_IsString(ver) && peek_version_semver(ver->valuestring) &&
	    pkg_bin_has(pkg, dir, c) &&
	    !repo_pins(t->pins, repo_root, env))
		found = peek_put_out(out, outlen, ver->valuestring,
				     strlen(ver->valuestring));
	cJSON_Delete(pkg);
	free(dir);
	return found;
}

int peek_js_owned(const char *name, const char *c)
{
	const struct pkgtool *t = pkgtool_find(name);
	char *dir = NULL;
	cJSON *pkg = t ? owning_package(c, &dir) : NULL;
	int owned;

	if (!pkg)
		return 0;
	/* corepack's shims are corepack's: pnpm and yarn by another name */
	owned = (pkg_expected(t, cJSON_GetObjectItemCaseSensitive(pkg, "name")->valuestring) ||
		 !strcmp(cJSON_GetObjectItemCaseSensitive(pkg, "name")->valuestring, "corepack")) &&
		pkg_bin_has(pkg, dir, c);
	cJSON_Delete(pkg);
	free(dir);
	return owned;
}

int peek_js_knows(const char *name)
{
	return pkgtool_find(name) != NULL;
}

int peek_js_lookup(const char *name, const char *c, const char *repo_root,
		    char *const env[], char *out, size_t outlen)
{
	const struct pkgtool *t = pkgtool_find(name);

	return t && manifest_lookup(t, c, repo_root, env, out, outlen);
}
