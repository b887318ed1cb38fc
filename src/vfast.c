/* vfast.c - a runtime's version without running it, where the answer is
 * certain (the contract is in vfast.h; the cache is in vcache.c).
 *
 * Three shortcuts, each taken only when nothing can make the binary print
 * something else:
 *
 *  - manifest: npm, npx, pnpm, yarn and corepack are files of an npm
 *    package, and print the "version" of that package's package.json.  The
 *    resolved file must be one of the package's declared "bin" targets.
 *    Corepack's shims (the pnpm and yarn of `corepack enable`) belong to
 *    the corepack package, not to pnpm or yarn, so they fall out as "not
 *    certain": what they run depends on the repository's packageManager.
 *    pnpm and yarn can also switch themselves to a version the repository
 *    pins (packageManager, yarnPath), so for them any such pin is a doubt.
 *  - path: nvm, n, volta, asdf, mise, fnm and pyenv install each version
 *    in a directory named after it, so the canonical path of the binary
 *    names the version.  Only plain X.Y.Z names count, and where the
 *    install carries its own header (node_version.h, patchlevel.h) that
 *    header must agree.  Shims (asdf, mise, volta) never resolve to such a
 *    path, so they fall out by themselves.
 *  - pyenv shims: resolved the way pyenv 2.x's libexec scripts resolve
 *    them (PYENV_VERSION, the nearest .python-version, the global version
 *    file, prefixes such as "3.11", python- prefixes, ':' lists, the
 *    fallback to "system"), to the real interpreter under versions/, which
 *    is then read by the path rule.  Any pyenv hook we do not know, any
 *    unusual version name, any file pyenv would read differently from us:
 *    not certain.
 *
 * The guards (vguard_check) are the other side of the same coin: the
 * repository configuration that would make running a binary run code the
 * repository ships.  yarn's yarnPath still gives a version, by the file
 * name "yarn-X.Y.Z.cjs"; everything else only says why not to run.
 *
 * Nothing here runs a process, prints or exits.  Every function is
 * thread-safe (no state but the file system).
 */
#include "vfast.h"
#include "spawnrun.h"
#include "util.h"
#include "ytree.h"

#include <cJSON.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

/* package.json and version files are small; anything larger is not what
 * we expect, so it is a doubt rather than something to parse. */
#define MANIFEST_CAP (1024 * 1024)
#define SMALL_CAP (64 * 1024)
/* how far up from the resolved script its package.json may be */
#define MANIFEST_DEPTH 6
/* longest version we hand back */
#define VERSION_MAX 64

const char *vmethod_name(enum vmethod m)
{
	static const char *const names[] = {
		[VMETHOD_EXEC] = "exec", [VMETHOD_CACHE] = "cache",
		[VMETHOD_MANIFEST] = "manifest", [VMETHOD_PATH] = "path",
		[VMETHOD_SOCKET] = "socket",
	};

	return (unsigned)m < sizeof(names) / sizeof(names[0]) ? names[m] : "exec";
}

/* ---- small helpers ---- */

/* The value of key in env (NULL: our own environment), or NULL. */
static const char *env_get(char *const env[], const char *key)
{
	size_t n = strlen(key);
	char *const *e;

	for (e = env ? env : environ; e && *e; e++)
		if (!strncmp(*e, key, n) && (*e)[n] == '=')
			return *e + n + 1;
	return NULL;
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

static int is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* A run of 1..9 digits without a leading zero (a lone "0" is fine). */
static size_t num_len(const char *s)
{
	size_t n = 0;

	while (isdigit((unsigned char)s[n]))
		n++;
	if (n == 0 || n > 9 || (n > 1 && s[0] == '0'))
		return 0;
	return n;
}

/* "20.11.1": exactly three numbers, the form every version manager uses
 * for a release.  Prereleases and vendor names ("3.13.0rc1", "pypy3.10",
 * "lts") are not plain: we do not guess what they print. */
static int version_plain(const char *s, size_t len)
{
	size_t i = 0, n;
	int part;

	for (part = 0; part < 3; part++) {
		if (part) {
			if (i >= len || s[i] != '.')
				return 0;
			i++;
		}
		n = num_len(s + i);
		if (!n || i + n > len)
			return 0;
		i += n;
	}
	return i == len;
}

/* semver as npm writes it into package.json: X.Y.Z[-pre][+build]. */
static int version_semver(const char *s)
{
	size_t n = strlen(s), i, dots = 0;

	if (n == 0 || n > VERSION_MAX)
		return 0;
	for (i = 0; i < n && s[i] != '-' && s[i] != '+'; i++)
		dots += s[i] == '.';
	if (dots != 2 || !version_plain(s, i))
		return 0;
	for (; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr(".-+", s[i]))
			return 0;
	return 1;
}

static int put_out(char *out, size_t outlen, const char *v, size_t len)
{
	if (!out || len + 1 > outlen)
		return 0;
	memcpy(out, v, len);
	out[len] = '\0';
	return 1;
}

/* Read a small file as text without NUL bytes: 0, or -1 (missing,
 * unreadable, too large, binary).  *missing tells ENOENT apart. */
static int read_text(const char *path, size_t cap, struct blob *b, int *missing)
{
	if (missing)
		*missing = 0;
	if (file_read(path, cap, b) < 0) {
		if (missing)
			*missing = errno == ENOENT || errno == ENOTDIR;
		return -1;
	}
	if (memchr(b->data, '\0', b->len)) {
		blob_release(b);
		return -1;
	}
	return 0;
}

/* ---- the path rule ---- */

enum kind { KIND_NONE, KIND_NODE, KIND_PYTHON, KIND_PKG };

/* Install layouts whose version directory names the version.  Components
 * are matched from the end of the canonical path: '%' is the version
 * directory ("%v": a leading 'v' is allowed, as nvm and fnm write it),
 * "python*" is any python executable name (checked against the version
 * afterwards).  The directory that holds bin/ is the install prefix, whose
 * include/ has the header we cross-check.  nodenv's "versions/%/bin/node"
 * is left out on purpose: nodeenv can put a node into a pyenv version's
 * bin/, and that path would name the python version. */
struct pathrule {
	enum kind kind;
	const char *pattern;
	const char *who;	/* for the reader */
};

static const struct pathrule pathrules[] = {
	{ KIND_NODE, "versions/node/%v/bin/node", "nvm, n" },
	{ KIND_NODE, "tools/image/node/%/bin/node", "volta" },
	{ KIND_NODE, "installs/nodejs/%/bin/node", "asdf" },
	{ KIND_NODE, "installs/node/%/bin/node", "mise" },
	{ KIND_NODE, "node-versions/%v/installation/bin/node", "fnm" },
	{ KIND_PYTHON, "versions/%/bin/python*", "pyenv" },
	{ KIND_PYTHON, "installs/python/%/bin/python*", "asdf, mise" },
};

/* The components of path, at most max of them, from the end: comp[0] is
 * the last.  Returns how many. */
static size_t path_tail(const char *path, const char **comp, size_t *len,
			size_t max)
{
	const char *end = path + strlen(path), *p;
	size_t n = 0;

	while (n < max && end > path) {
		for (p = end; p > path && p[-1] != '/'; p--)
			;
		if (p == end)
			break;		/* "//" or a trailing '/' */
		comp[n] = p;
		len[n] = (size_t)(end - p);
		n++;
		end = p - 1;
		if (p == path)
			break;
	}
	return n;
}

/* The executable name python, python3 or python3.11 fits version v. */
static int python_name_fits(const char *exe, size_t len, const char *v)
{
	size_t vl = strlen(v), major;

	if (len < 6 || memcmp(exe, "python", 6))
		return 0;
	exe += 6;
	len -= 6;
	if (len == 0)
		return 1;
	major = strcspn(v, ".");
	if (len == major && !memcmp(exe, v, major))
		return 1;
	/* "3.11" is v up to its second dot */
	{
		const char *dot2 = strchr(v + major + 1, '.');
		size_t mm = dot2 ? (size_t)(dot2 - v) : vl;

		return len == mm && !memcmp(exe, v, mm);
	}
}

/* Match canonical path c against rule r: 1 with the bare version in
 * v[0..vsize) and the install prefix (a new string) in *prefix. */
static int pathrule_match(const struct pathrule *r, const char *c,
			  char *v, size_t vsize, char **prefix)
{
	const char *pat[8], *comp[8];
	size_t plen[8], clen[8], np, nc, i;
	const char *ver = NULL, *exe = NULL;
	size_t verlen = 0, exelen = 0;

	np = path_tail(r->pattern, pat, plen, 8);
	nc = path_tail(c, comp, clen, 8);
	if (nc < np + 1)	/* the prefix must be a real directory */
		return 0;
	for (i = 0; i < np; i++) {
		if (pat[i][0] == '%') {
			ver = comp[i];
			verlen = clen[i];
			if (plen[i] == 2 && verlen && ver[0] == 'v') {
				ver++;
				verlen--;
			}
			if (!version_plain(ver, verlen) || verlen >= vsize)
				return 0;
		} else if (plen[i] > 1 && pat[i][plen[i] - 1] == '*') {
			if (clen[i] < plen[i] - 1 ||
			    memcmp(comp[i], pat[i], plen[i] - 1))
				return 0;
			exe = comp[i];
			exelen = clen[i];
		} else if (clen[i] != plen[i] || memcmp(comp[i], pat[i], plen[i])) {
			return 0;
		}
	}
	if (!ver)
		return 0;
	memcpy(v, ver, verlen);
	v[verlen] = '\0';
	if (exelen && !python_name_fits(exe, exelen, v))
		return 0;
	/* the prefix is the directory that holds bin/ (fnm: installation/) */
	for (i = 0; i < np && pat[i][0] != '%'; i++)
		;
	if (i >= 2 && !strncmp(pat[i - 1], "installation", 12))
		*prefix = xstrndup(c, (size_t)(comp[i - 2] - c) - 1);
	else
		*prefix = xstrndup(c, (size_t)(comp[i - 1] - c) - 1);
	return 1;
}

/* The three numbers of "#define NAME N" in a header text, or -1. */
static long header_define(const char *text, const char *name)
{
	const char *p = text;
	size_t n = strlen(name);
	long val;

	while ((p = strstr(p, "#define ")) != NULL) {
		p += 8;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!strncmp(p, name, n) && (p[n] == ' ' || p[n] == '\t')) {
			char num[16];
			size_t k = 0;

			p += n;
			while (*p == ' ' || *p == '\t')
				p++;
			while (isdigit((unsigned char)p[k]) && k < sizeof(num) - 1) {
				num[k] = p[k];
				k++;
			}
			num[k] = '\0';
			if (parse_long(num, 0, 999999999, &val) < 0)
				return -1;
			return val;
		}
	}
	return -1;
}

/* The install's own header, where it has one, must name the same version:
 * 1 agrees or there is no header, 0 disagrees or cannot be read. */
static int header_agrees(enum kind k, const char *prefix, const char *v)
{
	char rel[64], want[VERSION_MAX + 1];
	struct blob b;
	char *path;
	int missing, ok = 0;

	if (k == KIND_NODE) {
		snprintf(rel, sizeof(rel), "include/node/node_version.h");
	} else {
		const char *dot2 = strchr(strchr(v, '.') + 1, '.');

		snprintf(rel, sizeof(rel), "include/python%.*s/patchlevel.h",
			 (int)(dot2 - v), v);
	}
	path = path_join(prefix, rel);
	if (read_text(path, SMALL_CAP, &b, &missing) < 0) {
		free(path);
		return missing;
	}
	free(path);
	if (k == KIND_NODE) {
		snprintf(want, sizeof(want), "%ld.%ld.%ld",
			 header_define(b.data, "NODE_MAJOR_VERSION"),
			 header_define(b.data, "NODE_MINOR_VERSION"),
			 header_define(b.data, "NODE_PATCH_VERSION"));
		ok = !strcmp(want, v);
	} else {
		/* #define PY_VERSION "3.11.7" */
		const char *p = strstr(b.data, "PY_VERSION ");

		if (p) {
			p = strchr(p, '"');
			ok = p && !strncmp(p + 1, v, strlen(v)) &&
			     p[1 + strlen(v)] == '"';
		}
	}
	blob_release(&b);
	return ok;
}

/* 1 with the version when the canonical path c is a versioned install. */
static int path_lookup(enum kind k, const char *c, char *out, size_t outlen)
{
	char v[VERSION_MAX + 1];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pathrules); i++) {
		char *prefix = NULL;
		int ok;

		if (pathrules[i].kind != k ||
		    !pathrule_match(&pathrules[i], c, v, sizeof(v), &prefix))
			continue;
		ok = header_agrees(k, prefix, v);
		free(prefix);
		return ok && put_out(out, outlen, v, strlen(v));
	}
	return 0;
}

/* ---- the manifest rule: npm, pnpm, yarn, corepack ---- */

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
	if (read_text(path, MANIFEST_CAP, &b, &missing) < 0) {
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

	if (read_text(path, MANIFEST_CAP, &b, &missing) < 0) {
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
	const char *home = env_get(env, "HOME");
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
 * "name" (a package.json without one only marks a module type).  That
 * package must be the tool's own, list c as a "bin" target and carry a
 * semver "version". */
static int manifest_lookup(const struct pkgtool *t, const char *c,
			   const char *repo_root, char *const env[],
			   char *out, size_t outlen)
{
	char *dir = xstrdup(c), *slash;
	int depth, found = 0;

	for (depth = 0; depth < MANIFEST_DEPTH; depth++) {
		const cJSON *name, *ver;
		cJSON *pkg;
		int r;

		slash = strrchr(dir, '/');
		if (!slash || slash == dir)
			break;
		*slash = '\0';
		if (!strcmp(base_name(dir), "node_modules"))
			break;		/* walked out of any package */
		r = pkg_read(dir, &pkg);
		if (r < 0)
			break;
		if (r == 0)
			continue;
		name = cJSON_GetObjectItemCaseSensitive(pkg, "name");
		if (!cJSON_IsString(name)) {
			cJSON_Delete(pkg);
			continue;
		}
		ver = cJSON_GetObjectItemCaseSensitive(pkg, "version");
		if (pkg_expected(t, name->valuestring) &&
		    cJSON_IsString(ver) && version_semver(ver->valuestring) &&
		    pkg_bin_has(pkg, dir, c) &&
		    !repo_pins(t->pins, repo_root, env))
			found = put_out(out, outlen, ver->valuestring,
					strlen(ver->valuestring));
		cJSON_Delete(pkg);
		break;
	}
	free(dir);
	return found;
}

/* ---- pyenv shims ---- */

struct pyenv {
	char *root;		/* the PYENV_ROOT the shim exports */
	char *prefix;		/* where its libexec/pyenv lives */
	const char *cmd;	/* what `pyenv exec` runs: the shim's name */
	char *const *env;
	int doubt;		/* set by any step that is not certain */
};

/* The quoted absolute path in a shim line `<lead>"/abs/path"<tail>`
 * where tail ends the line, as a new string; NULL when absent or odd. */
static char *shim_quoted(const char *text, const char *lead, const char *tail)
{
	const char *p = text, *q;
	size_t n;

	while ((p = strstr(p, lead)) != NULL) {
		if (p == text || p[-1] == '\n')
			break;
		p++;
	}
	if (!p)
		return NULL;
	p += strlen(lead);
	q = strchr(p, '"');
	if (!q || p[0] != '/' || strncmp(q + 1, tail, strlen(tail)))
		return NULL;
	n = strlen(tail);
	if (q[1 + n] != '\n' && q[1 + n] != '\0')
		return NULL;
	for (n = 0; p + n < q; n++)
		if (strchr("$`\\", p[n]))
			return NULL;	/* not a path we can read literally */
	return xstrndup(p, n);
}

/* Is the file at path (canonical c) a pyenv shim?  Fills pe->root and
 * pe->prefix from what the shim itself says. */
static int pyenv_shim_read(const char *c, struct pyenv *pe)
{
	struct blob b;
	char *exe = NULL, *real = NULL;
	size_t n;
	int ok = 0;

	if (read_text(c, 8192, &b, NULL) < 0)
		return 0;
	if (strncmp(b.data, "#!", 2) || !strstr(b.data, "bash") ||
	    !strstr(b.data, "\nprogram=\"${0##*/}\"\n"))
		goto out;
	/* a shim someone edited to pin a version is not one we can read */
	if (strstr(b.data, "PYENV_VERSION") || strstr(b.data, "PYENV_DIR") ||
	    strstr(b.data, "PYENV_HOOK_PATH"))
		goto out;
	pe->root = shim_quoted(b.data, "export PYENV_ROOT=\"", "");
	exe = shim_quoted(b.data, "exec \"", " exec \"$program\" \"$@\"");
	if (!pe->root || !exe)
		goto out;
	n = strlen(exe);
	if (n < 14 || strcmp(exe + n - 14, "/libexec/pyenv"))
		goto out;
	/* pyenv's _PYENV_INSTALL_PREFIX: the resolved libexec dir's parent */
	real = realpath(exe, NULL);
	if (!real)
		goto out;
	*strrchr(real, '/') = '\0';
	*strrchr(real, '/') = '\0';
	pe->prefix = real;
	real = NULL;
	/* PYENV_ROOT="${PYENV_ROOT%/}" */
	n = strlen(pe->root);
	if (n > 1 && pe->root[n - 1] == '/')
		pe->root[n - 1] = '\0';
	ok = 1;
out:
	free(exe);
	free(real);
	blob_release(&b);
	return ok;
}

/* Hooks pyenv sources for the commands on our way (version-name, which,
 * exec) can change the answer.  Those we know to be no-ops for a command
 * that resolves to an executable are allowed; any other hook is a doubt.
 * pyenv-virtualenv's `which` hooks only act when no executable was found,
 * and pyenv's own exec/pip-rehash.bash only for pip. */
struct hook_ok {
	const char *dir_suffix;		/* "" for pyenv's own pyenv.d */
	const char *cmd;
	const char *file;
};

static const struct hook_ok hooks_ok[] = {
	{ "/plugins/pyenv-virtualenv/etc/pyenv.d", "which", "conda.bash" },
	{ "/plugins/pyenv-virtualenv/etc/pyenv.d", "which", "python-config.bash" },
	{ "/plugins/pyenv-virtualenv/etc/pyenv.d", "which", "system-site-packages.bash" },
	{ "", "exec", "pip-rehash.bash" },
};

static int hook_known(const struct pyenv *pe, const char *dir,
		      const char *cmd, const char *file)
{
	size_t i, dl = strlen(dir);

	for (i = 0; i < ARRAY_SIZE(hooks_ok); i++) {
		const struct hook_ok *h = &hooks_ok[i];
		size_t sl = strlen(h->dir_suffix);

		if (strcmp(h->cmd, cmd) || strcmp(h->file, file))
			continue;
		if (!*h->dir_suffix) {
			char *own = path_join(pe->root, "pyenv.d");
			char *own2 = path_join(pe->prefix, "pyenv.d");
			int mine = !strcmp(dir, own) || !strcmp(dir, own2);

			free(own);
			free(own2);
			if (mine)
				return 1;
		} else if (dl >= sl && !strcmp(dir + dl - sl, h->dir_suffix)) {
			return 1;
		}
	}
	return 0;
}

/* 1 when hook directory dir holds no unknown hook for our commands. */
static int hook_dir_clean(const struct pyenv *pe, const char *dir)
{
	static const char *const cmds[] = { "version-name", "which", "exec" };
	size_t i;

	if (dir[0] != '/')
		return 0;	/* relative to the repository: not ours to judge */
	if (!is_dir(dir))
		return 1;	/* most hook directories do not exist: one stat */
	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		char *sub = path_join(dir, cmds[i]);
		DIR *d = opendir(sub);
		struct dirent *de;
		int clean = 1;

		free(sub);
		if (!d)
			continue;
		while (clean && (de = readdir(d)) != NULL) {
			size_t n = strlen(de->d_name);

			/* like bash's glob "*.bash": no dotfiles */
			if (de->d_name[0] == '.' || n < 5 ||
			    strcmp(de->d_name + n - 5, ".bash"))
				continue;
			clean = hook_known(pe, dir, cmds[i], de->d_name);
		}
		closedir(d);
		if (!clean)
			return 0;
	}
	return 1;
}

/* Every directory of pyenv's PYENV_HOOK_PATH, as libexec/pyenv builds it. */
static int pyenv_hooks_clean(const struct pyenv *pe)
{
	static const char *const fixed[] = {
		"/usr/etc/pyenv.d", "/usr/local/etc/pyenv.d", "/etc/pyenv.d",
		"/usr/lib/pyenv/hooks",
	};
	const char *hp = env_get(pe->env, "PYENV_HOOK_PATH");
	char *dir;
	size_t i;
	int clean = 1;
	DIR *d;
	struct dirent *de;

	for (; hp && *hp && clean; hp += *hp == ':') {
		size_t n = strcspn(hp, ":");

		if (n) {
			dir = xstrndup(hp, n);
			clean = hook_dir_clean(pe, dir);
			free(dir);
		}
		hp += n;
	}
	for (i = 0; i < ARRAY_SIZE(fixed) && clean; i++)
		clean = hook_dir_clean(pe, fixed[i]);
	if (clean) {
		dir = path_join(pe->root, "pyenv.d");
		clean = hook_dir_clean(pe, dir);
		free(dir);
	}
	if (clean && strcmp(pe->prefix, pe->root)) {
		dir = path_join(pe->prefix, "pyenv.d");
		clean = hook_dir_clean(pe, dir);
		free(dir);
	}
	dir = path_join(pe->root, "plugins");
	d = clean ? opendir(dir) : NULL;
	free(dir);
	while (d && clean && (de = readdir(d)) != NULL) {
		struct buf b = BUF_INIT;

		if (de->d_name[0] == '.')
			continue;
		buf_printf(&b, "%s/plugins/%s/etc/pyenv.d", pe->root, de->d_name);
		clean = hook_dir_clean(pe, buf_str(&b));
		buf_release(&b);
	}
	if (d)
		closedir(d);
	return clean;
}

/* root/versions/v is a directory (pyenv's version_exists). */
static int pyenv_exists(const struct pyenv *pe, const char *v)
{
	struct buf b = BUF_INIT;
	int ok;

	buf_printf(&b, "%s/versions/%s", pe->root, v);
	ok = is_dir(buf_str(&b));
	buf_release(&b);
	return ok;
}

/* A version name pyenv's scripts would treat as we do: no glob or path
 * characters (the ':' list is split unquoted, so bash would glob it), no
 * whitespace (bash keeps it; we would rather not guess). */
static int pyenv_name_safe(const char *v, size_t n)
{
	size_t i;

	if (n == 0 || n > 255 || (n == 2 && !memcmp(v, "..", 2)))
		return 0;
	for (i = 0; i < n; i++)
		if (strchr("/*?[]\\ \t\r\n", v[i]) || (unsigned char)v[i] < 0x20)
			return 0;
	return 1;
}

/* The fields of an all-numeric dotted name "3.11.7" (1 to 4 fields, as
 * pyenv-latest's sort keys read them), or 0 when it is not one. */
static int numeric_fields(const char *s, unsigned long f[4])
{
	int n = 0;

	memset(f, 0, 4 * sizeof(f[0]));
	for (;;) {
		char *end;

		if (n == 4 || !isdigit((unsigned char)*s))
			return 0;
		errno = 0;
		f[n++] = strtoul(s, &end, 10);
		if (errno || end - s > 9)
			return 0;
		s = end;
		if (!*s)
			return n;
		if (*s++ != '.')
			return 0;
	}
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* What pyenv-latest drops from its candidates: -dev, -src, -latest,
 * prereleases and free-threaded builds. */
static int latest_dropped(const char *s)
{
	size_t n = strlen(s), i = n;

	if (ends_with(s, "-dev") || ends_with(s, "-src") || ends_with(s, "-latest"))
		return 1;
	while (i > 0 && isdigit((unsigned char)s[i - 1]))
		i--;
	if (i < n && i > 0 && (s[i - 1] == 'a' || s[i - 1] == 'b'))
		return 1;
	if (i < n && i > 1 && s[i - 2] == 'r' && s[i - 1] == 'c')
		return 1;
	return n >= 2 && s[n - 1] == 't' && isdigit((unsigned char)s[n - 2]);
}

/* pyenv-latest for installed versions: the newest directory under
 * versions/ whose name starts with prefix followed by '.' or '-'.  A new
 * string, or NULL when none matches; pe->doubt when the candidates are not
 * plain numbers (pyenv's sort of vendor names is not worth copying). */
static char *pyenv_latest(struct pyenv *pe, const char *prefix)
{
	struct buf b = BUF_INIT;
	unsigned long best[4] = { 0 }, f[4];
	char *winner = NULL;
	size_t pl = strlen(prefix);
	struct dirent *de;
	int tie = 0, numeric;
	DIR *d;

	if (pyenv_exists(pe, prefix))
		return xstrdup(prefix);
	if (pl >= 2 && prefix[pl - 1] == 't' && isdigit((unsigned char)prefix[pl - 2])) {
		pe->doubt = 1;	/* "3.13t": free-threaded, not plain CPython */
		return NULL;
	}
	numeric = numeric_fields(prefix, f) > 0;
	buf_printf(&b, "%s/versions", pe->root);
	d = opendir(buf_str(&b));
	while (d && (de = readdir(d)) != NULL) {
		const char *s = de->d_name;
		int cmp, i;

		if (!strcmp(s, ".") || !strcmp(s, "..") || strncmp(s, prefix, pl) ||
		    (s[pl] != '.' && s[pl] != '-') || latest_dropped(s) ||
		    !pyenv_exists(pe, s))
			continue;
		if (!numeric || !numeric_fields(s, f)) {
			pe->doubt = 1;
			break;
		}
		/* sort -t. -k1,1r -k2,2nr -k3,3nr -k4,4nr: field 1 is the
		 * prefix's own for every candidate */
		for (cmp = 0, i = 1; i < 4 && !cmp; i++)
			cmp = f[i] > best[i] ? 1 : f[i] < best[i] ? -1 : 0;
		if (winner && cmp == 0) {
			tie = 1;
		} else if (!winner || cmp > 0) {
			free(winner);
			winner = xstrdup(s);
			memcpy(best, f, sizeof(best));
			tie = 0;
		}
	}
	if (d)
		closedir(d);
	buf_release(&b);
	if (pe->doubt || tie) {
		pe->doubt = 1;
		free(winner);
		return NULL;
	}
	return winner;
}

/* One entry of PYENV_VERSION as `pyenv-version-name -f` resolves it. */
static char *pyenv_resolve_name(struct pyenv *pe, const char *v)
{
	const char *norm = strncmp(v, "python-", 7) ? v : v + 7;
	char *r;

	if (!strcmp(v, "system") || pyenv_exists(pe, v))
		return xstrdup(v);
	if (pyenv_exists(pe, norm))
		return xstrdup(norm);
	if ((r = pyenv_latest(pe, v)) != NULL || pe->doubt)
		return r;
	if ((r = pyenv_latest(pe, norm)) != NULL || pe->doubt)
		return r;
	return xstrdup(norm);
}

/* pyenv-version-file-read: the first word of every line that is neither
 * empty nor a comment, joined by ':' - a new string, "" when the file is
 * missing or empty (pyenv then uses "system"), NULL with pe->doubt when
 * the file is something bash's `read -n 1024` would cut differently. */
static char *pyenv_file_read(struct pyenv *pe, const char *path)
{
	struct buf out = BUF_INIT;
	struct blob b;
	size_t pos = 0;

	if (file_read(path, SMALL_CAP, &b) < 0) {
		if (errno != ENOENT && errno != ENOTDIR)
			pe->doubt = 1;
		return pe->doubt ? NULL : xstrdup("");
	}
	if (memchr(b.data, '\0', b.len)) {
		blob_release(&b);
		pe->doubt = 1;
		return NULL;
	}
	while (pos < b.len) {
		const char *line = b.data + pos, *nl = memchr(line, '\n', b.len - pos);
		size_t len = nl ? (size_t)(nl - line) : b.len - pos, i = 0, w;

		pos += len + 1;
		if (len >= 1024) {
			pe->doubt = 1;
			break;
		}
		while (i < len && strchr(" \t\r", line[i]))
			i++;
		for (w = i; w < len && !strchr(" \t\r", line[w]); w++)
			;
		if (w == i || line[i] == '#')
			continue;
		if (!pyenv_name_safe(line + i, w - i)) {
			pe->doubt = 1;	/* pyenv's path-traversal check or a glob */
			break;
		}
		if (out.len)
			buf_putc(&out, ':');
		buf_add(&out, line + i, w - i);
	}
	blob_release(&b);
	if (pe->doubt) {
		buf_release(&out);
		return NULL;
	}
	return out.len ? buf_detach(&out) : xstrdup("");
}

/* find_local_version_file: dir, then each parent, then "/". */
static char *pyenv_find_local(const char *dir)
{
	char *d = xstrdup(dir);

	for (;;) {
		char *f = path_join(d[0] ? d : "/", ".python-version");
		char *slash;

		if (is_file(f)) {
			free(d);
			return f;
		}
		free(f);
		if (!d[0])
			break;
		slash = strrchr(d, '/');
		if (!slash)
			break;
		*slash = '\0';
	}
	free(d);
	return NULL;
}

/* An absolute path without "." or ".." components or doubled slashes,
 * which `cd` and our walk up would read the same way. */
static int path_plain(const char *p)
{
	const char *c;

	if (p[0] != '/' || strstr(p, "//"))
		return 0;
	for (c = p; c; c = strchr(c + 1, '/')) {
		size_t n = strcspn(c + 1, "/");

		if ((n == 1 && c[1] == '.') || (n == 2 && !strncmp(c + 1, "..", 2)))
			return 0;
	}
	return 1;
}

/* PYENV_VERSION as `pyenv exec` sees it before resolving: from the
 * environment, else the version file that pyenv-version-file picks.  A new
 * string ("" means system), or NULL when not certain. */
static char *pyenv_version_raw(struct pyenv *pe, const char *pwd)
{
	const char *v = env_get(pe->env, "PYENV_VERSION");
	const char *pdir = env_get(pe->env, "PYENV_DIR");
	char *file = NULL, *s;

	if (v && *v)
		return xstrdup(v);
	if (pdir && *pdir) {
		/* pyenv cd's there: only a plain absolute path reads the same */
		if (!path_plain(pdir) || !is_dir(pdir)) {
			pe->doubt = 1;
			return NULL;
		}
		file = pyenv_find_local(pdir);
		if (!file && strcmp(pdir, pwd))
			file = pyenv_find_local(pwd);
	} else {
		file = pyenv_find_local(pwd);
	}
	if (!file)
		file = path_join(pe->root, "version");
	s = pyenv_file_read(pe, file);
	free(file);
	return s;
}

/* 1 when one of the directories libexec/pyenv puts in front of PATH (its
 * libexec and the plugins' bin directories) has cmd: pyenv's "system"
 * would then be that, which we do not try to name. */
static int pyenv_own_bins_have(const struct pyenv *pe)
{
	const char *roots[2] = { pe->prefix, pe->root };
	struct buf b = BUF_INIT;
	int hit;
	size_t i;

	buf_printf(&b, "%s/libexec/%s", pe->prefix, pe->cmd);
	hit = access(buf_str(&b), X_OK) == 0;
	for (i = 0; i < 2 && !hit; i++) {
		DIR *d;
		struct dirent *de;

		b.len = 0;
		buf_printf(&b, "%s/plugins", roots[i]);
		d = opendir(buf_str(&b));
		while (d && !hit && (de = readdir(d)) != NULL) {
			if (de->d_name[0] == '.')
				continue;
			b.len = 0;
			buf_printf(&b, "%s/plugins/%s/bin/%s", roots[i], de->d_name,
				   pe->cmd);
			hit = access(buf_str(&b), X_OK) == 0;
		}
		if (d)
			closedir(d);
	}
	buf_release(&b);
	return hit;
}

/* The next cmd on PATH once the shim directories are taken out, as
 * pyenv-which looks for the "system" version: a new string or NULL. */
static char *pyenv_system(const struct pyenv *pe, const char *shim,
			  const char *repo_root)
{
	const char *path = env_get(pe->env, "PATH"), *p, *end;
	const char *home = env_get(pe->env, "HOME");
	char *shims = path_join(pe->root, "shims"), *shimdir = xstrdup(shim);
	struct buf b = BUF_INIT, e = BUF_INIT;
	char *found = NULL;

	*strrchr(shimdir, '/') = '\0';
	for (p = path ? path : ""; *p; p = *end ? end + 1 : end) {
		const char *q;

		end = strchrnul(p, ':');
		e.len = 0;
		buf_add(&e, "", 0);
		for (q = p; q < end; q++) {	/* ${PATH//\~/$HOME} */
			if (*q == '~')
				buf_puts(&e, home ? home : "");
			else
				buf_putc(&e, *q);
		}
		if (e.len && strcmp(buf_str(&e), shims) && strcmp(buf_str(&e), shimdir)) {
			if (b.len)
				buf_putc(&b, ':');
			buf_puts(&b, buf_str(&e));
		}
	}
	if (b.len && !pyenv_own_bins_have(pe))
		found = spawn_which(pe->cmd, buf_str(&b), repo_root);
	buf_release(&e);
	buf_release(&b);
	free(shims);
	free(shimdir);
	return found;
}

/* pyenv-which over the resolved list, then "system": the first version
 * whose bin/ has an executable cmd.  Returns that path as a new string, or
 * NULL when pyenv would run a system one (*sys gets it, a new string, when
 * found) or when not certain (pe->doubt). */
static char *pyenv_which(struct pyenv *pe, char **names, size_t n,
			 const char *shim, const char *repo_root, char **sys)
{
	size_t i;

	*sys = NULL;
	for (i = 0; i < n && !pe->doubt; i++) {
		struct buf b = BUF_INIT;
		struct stat st;
		char *v;

		if (!strcmp(names[i], "system")) {
			*sys = pyenv_system(pe, shim, repo_root);
			if (*sys)
				return NULL;
			continue;
		}
		/* pyenv-prefix: pyenv-latest -f, then the directory must exist */
		v = pyenv_latest(pe, names[i]);
		if (!v)
			continue;
		buf_printf(&b, "%s/versions/%s/bin/%s", pe->root, v, pe->cmd);
		free(v);
		if (access(buf_str(&b), X_OK) == 0) {
			if (stat(buf_str(&b), &st) == 0 && S_ISREG(st.st_mode))
				return buf_detach(&b);
			pe->doubt = 1;	/* bash's -x is true for a directory */
		}
		buf_release(&b);
	}
	if (!pe->doubt)
		*sys = pyenv_system(pe, shim, repo_root);
	return NULL;
}

/* Split a ':' list into resolved names; NULL (with pe->doubt) on an empty
 * or unsafe field.  *n gets the count; the caller frees each and the
 * vector. */
static char **pyenv_names(struct pyenv *pe, const char *list, size_t *n)
{
	char **v = NULL;
	size_t cap = 0;
	const char *p = list;

	*n = 0;
	for (;;) {
		size_t len = strcspn(p, ":");
		char *one, *r;

		if (!pyenv_name_safe(p, len)) {
			pe->doubt = 1;
			break;
		}
		one = xstrndup(p, len);
		r = pyenv_resolve_name(pe, one);
		free(one);
		if (!r)
			break;
		grow(&v, sizeof(*v), &cap, *n + 1);
		v[(*n)++] = r;
		if (!p[len])
			break;
		p += len + 1;
	}
	if (pe->doubt) {
		while (*n)
			free(v[--*n]);
		free(v);
		return NULL;
	}
	return v;
}

/* A pyenv shim at path (canonical c) resolved as pyenv would resolve it.
 * 1 with the version and *real; 0 otherwise, with *real set to the system
 * interpreter when that is what pyenv would run. */
static int pyenv_lookup(struct pyenv *pe, const char *path,
			const char *repo_root, char *out, size_t outlen,
			char **real)
{
	char *pwd, *list, **names = NULL, *bin = NULL, *c = NULL, *sys = NULL;
	size_t n = 0, i;
	int found = 0;

	if (!pyenv_hooks_clean(pe))
		return 0;
	pwd = realpath(repo_root ? repo_root : ".", NULL);
	if (!pwd)
		return 0;
	list = pyenv_version_raw(pe, pwd);
	free(pwd);
	if (!list)
		return 0;
	if (list[0] && strcmp(list, "system"))
		names = pyenv_names(pe, list, &n);
	free(list);
	if (!pe->doubt)
		bin = pyenv_which(pe, names, n, path, repo_root, &sys);
	if (bin && !pe->doubt && (c = realpath(bin, NULL)) != NULL) {
		found = path_lookup(KIND_PYTHON, c, out, outlen);
		if (real) {
			*real = bin;
			bin = NULL;
		}
	} else if (sys && !pe->doubt && real) {
		*real = sys;
		sys = NULL;
	}
	free(sys);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(bin);
	free(c);
	return found;
}

/* ---- the entry point ---- */

static enum kind kind_of(const char *name)
{
	if (!strcmp(name, "node") || !strcmp(name, "nodejs"))
		return KIND_NODE;
	if (!strncmp(name, "python", 6) &&
	    strspn(name + 6, "0123456789.") == strlen(name + 6))
		return KIND_PYTHON;
	return pkgtool_find(name) ? KIND_PKG : KIND_NONE;
}

int vfast_lookup(const char *name, const char *path, const char *repo_root,
		 char *const env[], char *out, size_t outlen,
		 enum vmethod *method, char **real)
{
	enum kind k;
	char *c;
	int found = 0;

	if (real)
		*real = NULL;
	if (!name || !path || path[0] != '/' || !out || !outlen)
		return 0;
	k = kind_of(name);
	if (k == KIND_NONE || !(c = realpath(path, NULL)))
		return 0;
	if (k == KIND_PKG) {
		found = manifest_lookup(pkgtool_find(name), c, repo_root, env,
					out, outlen);
		if (found && method)
			*method = VMETHOD_MANIFEST;
	} else {
		struct pyenv pe = { NULL, NULL, base_name(path), env, 0 };

		if (k == KIND_PYTHON && pyenv_shim_read(c, &pe))
			found = pyenv_lookup(&pe, path, repo_root, out, outlen,
					     real);
		else
			found = path_lookup(k, c, out, outlen);
		if (found && method)
			*method = VMETHOD_PATH;
		free(pe.root);
		free(pe.prefix);
	}
	free(c);
	return found;
}

/* ---- guards: configuration that makes a version query run code ---- */

/* The 1-based line of byte off in text. */
static unsigned line_of(const char *text, size_t off)
{
	unsigned line = 1;
	size_t i;

	for (i = 0; i < off; i++)
		line += text[i] == '\n';
	return line;
}

/* A file of the walk up from the repository, read with the spec rules. */
struct cfg {
	char *shown;		/* relative in the repository, else absolute */
	struct blob b;
};

static void cfg_release(struct cfg *c)
{
	free(c->shown);
	c->shown = NULL;
	blob_release(&c->b);
}

static void guard_why(struct vguard *g, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void guard_why(struct vguard *g, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	free(g->why);
	g->why = buf_detach(&b);
}

/* Read dir/name.  1 read (c filled), 0 absent, -1 refused (g->why set):
 * over the size cap, not text, or in the repository a symlink that
 * resolves outside it.  Unreadable counts as refused too: what the tool
 * would make of it is unknown. */
static int cfg_read(const char *root, const char *dir, const char *name,
		    struct cfg *c, struct vguard *g)
{
	char *path = path_join(dir, name);
	int inside = !strcmp(dir, root), missing;
	struct stat st;

	memset(c, 0, sizeof(*c));
	c->shown = inside ? xstrdup(name) : xstrdup(path);
	if (lstat(path, &st) < 0) {
		free(path);
		cfg_release(c);
		return 0;
	}
	if (inside && S_ISLNK(st.st_mode)) {
		char *real = realpath(path, NULL);
		int out = !real || !path_is_inside(real, root);

		free(real);
		if (out) {
			guard_why(g, "%s is a symlink resolving outside the repository, "
				  "which envpreflight does not follow", c->shown);
			free(path);
			cfg_release(c);
			return -1;
		}
	}
	if (read_text(path, SPEC_FILE_CAP, &c->b, &missing) < 0) {
		free(path);
		if (missing) {
			cfg_release(c);
			return 0;
		}
		guard_why(g, "%s could not be read (too large, not text, or not a "
			  "file)", c->shown);
		cfg_release(c);
		return -1;
	}
	free(path);
	return 1;
}

/* "yarnPath", "yarn-path", "yarn_path" all read "yarnpath". */
static int key_is(const char *key, const char *want)
{
	for (; *key && *want; key++) {
		if (*key == '-' || *key == '_')
			continue;
		if (tolower((unsigned char)*key) != *want++)
			return 0;
	}
	while (*key == '-' || *key == '_')
		key++;
	return !*key && !*want;
}

/* The version in a yarnPath's file name, "yarn-4.1.0.cjs" or
 * "yarn-1.22.19.js", into g->version. */
static void yarn_path_version(const char *value, struct vguard *g)
{
	const char *base = base_name(value);
	size_t n = strlen(base), ext;
	char v[VERSION_MAX + 1];

	if (strncmp(base, "yarn-", 5))
		return;
	ext = n > 4 && !strcmp(base + n - 4, ".cjs") ? 4 :
	      n > 3 && !strcmp(base + n - 3, ".js") ? 3 : 0;
	if (!ext || n - ext - 5 > VERSION_MAX || n - ext <= 5)
		return;
	memcpy(v, base + 5, n - ext - 5);
	v[n - ext - 5] = '\0';
	if (version_semver(v) && strlen(v) < sizeof(g->version))
		memcpy(g->version, v, strlen(v) + 1);
}

/* What the walk found for yarn. */
struct yarn_found {
	char *path_value;	/* the nearest yarnPath, as written */
	char *path_where;	/* "file:line" */
	char *plugins_where;	/* the first "plugins", or NULL */
};

/* .yarnrc.yml (berry, and classic from 1.22): top-level yarnPath and
 * plugins, keys compared as yarn normalises them.  -1 with g->why when
 * the file is not YAML we can read. */
static int yarn_yml(const struct cfg *c, struct yarn_found *f, struct vguard *g)
{
	struct ynode *root = NULL;
	struct ytree_error err;
	size_t i;

	if (ytree_parse(c->b.data, c->b.len, YTREE_MAX_NODES, &root, &err) < 0) {
		guard_why(g, "%s:%u:%u is not YAML envpreflight can read (%s), and "
			  "yarn may run a file it names", c->shown, err.line, err.col,
			  err.msg);
		return -1;
	}
	for (i = 0; root && root->kind == YNODE_MAP && i + 1 < root->n; i += 2) {
		const struct ynode *k = root->items[i], *v = root->items[i + 1];
		struct buf where = BUF_INIT;

		if (k->kind != YNODE_SCALAR || ynode_is_null(v))
			continue;
		buf_printf(&where, "%s:%u", c->shown, k->line);
		if (key_is(k->text, "plugins") && !f->plugins_where) {
			f->plugins_where = buf_detach(&where);
		} else if (key_is(k->text, "yarnpath") && !f->path_where) {
			f->path_where = buf_detach(&where);
			f->path_value = xstrdup(v->kind == YNODE_SCALAR ? v->text : "");
		}
		buf_release(&where);
	}
	ynode_free(root);
	return 0;
}

/* One token of a classic .yarnrc line: bare or "quoted".  Returns its
 * length in *len and where the rest starts, or NULL on an escape (JSON
 * escapes in a quoted token could spell anything). */
static const char *yarnrc_token(const char *s, const char **tok, size_t *len)
{
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '"') {
		const char *q = strchr(s + 1, '"');

		if (!q || memchr(s + 1, '\\', (size_t)(q - s - 1)))
			return NULL;
		*tok = s + 1;
		*len = (size_t)(q - s - 1);
		return q + 1;
	}
	*tok = s;
	*len = strcspn(s, " \t\r");
	return s + *len;
}

/* .yarnrc (classic): "yarn-path ./x.js" lines. */
static int yarn_rc(const struct cfg *c, struct yarn_found *f, struct vguard *g)
{
	const char *p = c->b.data;
	unsigned line = 0;

	while (*p && !f->path_where) {
		size_t n = strcspn(p, "\n"), klen, vlen;
		char *l = xstrndup(p, n), *key;
		const char *rest, *tok, *val;

		line++;
		p += n + (p[n] == '\n');
		rest = yarnrc_token(l, &tok, &klen);
		if (!rest) {
			guard_why(g, "%s:%u has an escaped string envpreflight does not "
				  "decode, and yarn may run a file it names", c->shown, line);
			free(l);
			return -1;
		}
		key = xstrndup(tok, klen);
		if (klen && key[klen - 1] == ':')
			key[klen - 1] = '\0';
		if (key[0] != '#' && key_is(key, "yarnpath") &&
		    yarnrc_token(rest, &val, &vlen)) {
			struct buf where = BUF_INIT;

			buf_printf(&where, "%s:%u", c->shown, line);
			f->path_where = buf_detach(&where);
			f->path_value = xstrndup(val, vlen);
		}
		free(key);
		free(l);
	}
	return 0;
}

/* The directory above dir, in place; 0 once dir was "/". */
static int dir_up(char *dir)
{
	char *slash = strrchr(dir, '/');

	if (!slash || (slash == dir && !dir[1]))
		return 0;
	if (slash == dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	return 1;
}

/* The walk up from the repository stops below the user's home: files in
 * $HOME and above it are the user's own (a global ~/.tool-versions, a
 * ~/.yarnrc.yml), not something the repository ships.  home is the
 * canonical $HOME of the child's environment, or NULL. */
static int walk_on(char *dir, const char *home)
{
	return dir_up(dir) && !(home && !strcmp(dir, home));
}

/* yarn runs the file yarnPath names, for every command, --version too;
 * berry loads every plugin .yarnrc.yml lists before it looks at the
 * command.  Neither is ever run: a yarnPath of "yarn-X.Y.Z.cjs" gives
 * the version by its name. */
static int yarn_guard(const char *root, const char *home, struct vguard *g)
{
	struct yarn_found f = { NULL, NULL, NULL };
	char *dir = xstrdup(root);
	int bad = 0;

	do {
		static const char *const names[] = { ".yarnrc.yml", ".yarnrc" };
		size_t i;

		for (i = 0; i < ARRAY_SIZE(names) && !bad; i++) {
			struct cfg c;
			int r = cfg_read(root, dir, names[i], &c, g);

			if (r < 0)
				bad = 1;
			else if (r > 0)
				bad = (i ? yarn_rc(&c, &f, g) : yarn_yml(&c, &f, g)) < 0;
			if (r > 0)
				cfg_release(&c);
		}
	} while (!bad && walk_on(dir, home));
	free(dir);
	if (!bad && f.plugins_where) {
		guard_why(g, "'plugins' in %s: yarn loads plugin code on every "
			  "command, --version too", f.plugins_where);
		bad = 1;
	} else if (!bad && f.path_where) {
		struct buf q = BUF_INIT;

		buf_add_clean(&q, f.path_value);
		yarn_path_version(f.path_value, g);
		if (g->version[0])
			guard_why(g, "version read from the file name '%s' (yarnPath in "
				  "%s): running yarn would execute that file, which the "
				  "repository ships", buf_str(&q), f.path_where);
		else
			guard_why(g, "yarnPath in %s names '%s': running yarn would execute "
				  "that file, which the repository ships, and its name "
				  "gives no version", f.path_where, buf_str(&q));
		buf_release(&q);
		bad = 1;
	}
	free(f.path_value);
	free(f.path_where);
	free(f.plugins_where);
	return bad;
}

/* pnpm 9.7 to 10 switch to the pnpm packageManager names when
 * managePackageManagerVersions is on, pnpm 11 when pmOnFail is
 * "download" (its default).  The child gets both turned off in its
 * environment; a pnpm-workspace.yaml that sets them is still not run,
 * since not every release lets the environment outrank that file. */
static int pnpm_guard(const char *root, const char *home, struct vguard *g)
{
	char *dir = xstrdup(root);
	int bad = 0, found = 0;

	do {
		struct ynode *y = NULL;
		struct ytree_error err;
		struct cfg c;
		size_t i;
		int r = cfg_read(root, dir, "pnpm-workspace.yaml", &c, g);

		if (r < 0) {
			bad = 1;
			break;
		}
		if (!r)
			continue;
		found = 1;
		if (ytree_parse(c.b.data, c.b.len, YTREE_MAX_NODES, &y, &err) < 0) {
			guard_why(g, "%s:%u:%u is not YAML envpreflight can read (%s), and "
				  "it may tell pnpm to switch versions", c.shown, err.line,
				  err.col, err.msg);
			bad = 1;
		}
		for (i = 0; y && y->kind == YNODE_MAP && i + 1 < y->n && !bad; i += 2) {
			const struct ynode *k = y->items[i];

			if (k->kind == YNODE_SCALAR &&
			    (key_is(k->text, "managepackagemanagerversions") ||
			     key_is(k->text, "pmonfail"))) {
				guard_why(g, "'%s' in %s:%u: pnpm may download and run the "
					  "pnpm that packageManager names", k->text, c.shown,
					  k->line);
				bad = 1;
			}
		}
		ynode_free(y);
		cfg_release(&c);
	} while (!bad && !found && walk_on(dir, home));
	free(dir);
	return bad;
}

/* Version files a shim's version manager reads: a version that is a
 * path (pyenv before 2.3.3 and its kin joined it to their versions/
 * directory, CVE-2022-35861; asdf and mise take "path:DIR") makes the
 * shim run whatever is there. */
static const char *const shim_files[] = {
	".tool-versions", ".python-version", ".ruby-version", ".node-version",
	".go-version", ".java-version", ".perl-version", ".terraform-version",
};

static int shim_token_bad(const char *t, size_t n)
{
	return memchr(t, '/', n) || (n == 2 && !memcmp(t, "..", 2)) ||
	       (n >= 5 && !memcmp(t, "path:", 5));
}

/* 1 with g->why when a line of c names a path as a version. */
static int shim_file_bad(const struct cfg *c, int tool_versions, struct vguard *g)
{
	const char *p = c->b.data;
	unsigned line = 0;

	while (*p) {
		size_t n = strcspn(p, "\n");
		const char *s = p, *end = p + n;
		int first = 1;

		line++;
		p += n + (p[n] == '\n');
		for (;;) {
			size_t t;

			while (s < end && strchr(" \t\r", *s))
				s++;
			if (s >= end || *s == '#')
				break;
			t = strcspn(s, " \t\r\n");
			if ((size_t)(end - s) < t)
				t = (size_t)(end - s);
			if (!(tool_versions && first) && shim_token_bad(s, t)) {
				struct buf q = BUF_INIT;
				char *tok = xstrndup(s, t);

				buf_add_clean(&q, tok);
				guard_why(g, "'%s' in %s:%u names a path as a version: the "
					  "version manager's shim would run a program from it",
					  buf_str(&q), c->shown, line);
				buf_release(&q);
				free(tok);
				return 1;
			}
			first = 0;
			s += t;
		}
	}
	return 0;
}

/* mise's own files: a "path:" version, or an escape that could spell
 * one.  (What else they can run - env directives, templates, hooks -
 * mise itself runs only once the user has trusted the file.) */
static const char *const mise_files[] = {
	"mise.toml", ".mise.toml", "mise.local.toml", ".mise.local.toml",
	".mise/config.toml", "mise/config.toml", ".config/mise.toml",
	".config/mise/config.toml", ".rtx.toml", ".rtx.local.toml",
};

static int mise_file_bad(const struct cfg *c, struct vguard *g)
{
	const char *hit = strstr(c->b.data, "path:");

	if (!hit)
		hit = strstr(c->b.data, "\\u");
	if (!hit)
		hit = strstr(c->b.data, "\\U");
	if (!hit)
		return 0;
	guard_why(g, "%s:%u names a path as a tool version (or hides one in an "
		  "escape): mise would run a program from it", c->shown,
		  line_of(c->b.data, (size_t)(hit - c->b.data)));
	return 1;
}

/* Every file of names in dir and each directory above it up to /: the
 * first that check finds bad.  1 bad (g->why set), 0 none. */
static int walk_files(const char *root, const char *home,
		      const char *const *names, size_t n,
		      int (*check)(const struct cfg *c, size_t i, struct vguard *g),
		      int nearest_only, struct vguard *g)
{
	char *dir = xstrdup(root);
	int bad = 0, found = 0;

	do {
		size_t i;

		for (i = 0; i < n && !bad; i++) {
			struct cfg c;
			int r = cfg_read(root, dir, names[i], &c, g);

			if (r < 0)
				bad = 1;
			if (r <= 0)
				continue;
			found = 1;
			bad = check(&c, i, g);
			cfg_release(&c);
		}
	} while (!bad && !(nearest_only && found) && walk_on(dir, home));
	free(dir);
	return bad;
}

static int shim_check(const struct cfg *c, size_t i, struct vguard *g)
{
	return shim_file_bad(c, i == 0, g);
}

static int mise_check(const struct cfg *c, size_t i, struct vguard *g)
{
	return mise_file_bad(c, g);
}

/* rustup's rust-toolchain.toml can name a toolchain by path ("path =
 * ..."), relative to the file: the proxy would run the repository's
 * rustc.  The legacy rust-toolchain file is held to the same words. */
static int rustup_check(const struct cfg *c, size_t i, struct vguard *g)
{
	const char *hit = strstr(c->b.data, "path");

	if (!hit)
		hit = strchr(c->b.data, '\\');
	if (!hit && i == 1)
		hit = strchr(c->b.data, '/');
	if (!hit)
		return 0;
	guard_why(g, "%s:%u may name a toolchain by path (or hide one in an "
		  "escape): rustup would run the rustc found there", c->shown,
		  line_of(c->b.data, (size_t)(hit - c->b.data)));
	return 1;
}

/* global.json "sdk": {"paths": [...]} (.NET 10) makes the dotnet host
 * look for SDKs in directories the repository names. */
static int dotnet_check(const struct cfg *c, size_t i, struct vguard *g)
{
	const char *hit = strcasestr(c->b.data, "paths");

	if (!hit)
		hit = strstr(c->b.data, "\\u");
	if (!hit)
		return 0;
	guard_why(g, "%s:%u may add SDK search paths (or hide them in an "
		  "escape): dotnet would run an SDK the repository ships",
		  c->shown, line_of(c->b.data, (size_t)(hit - c->b.data)));
	return 1;
}

/* Tools that read project files of their own before they look at their
 * arguments, and whose files can load code. */
struct projcfg {
	const char *tool;
	const char *file;
	const char *why;
};

static const struct projcfg projcfgs[] = {
	{ "mvn", ".mvn", "Maven reads .mvn/jvm.config, maven.config and "
	  "extensions.xml, which can load code the repository ships" },
	{ "mvnd", ".mvn", "Maven reads .mvn/jvm.config, maven.config and "
	  "extensions.xml, which can load code the repository ships" },
	{ "sbt", ".jvmopts", "sbt passes .jvmopts to the JVM, which can load "
	  "code the repository ships" },
	{ "sbt", ".sbtopts", "sbt reads .sbtopts, which can load code the "
	  "repository ships" },
	{ "bazel", ".bazeliskrc", "bazelisk reads .bazeliskrc, which can make it "
	  "download and run any program" },
	{ "bazelisk", ".bazeliskrc", "bazelisk reads .bazeliskrc, which can make "
	  "it download and run any program" },
};

static int projcfg_guard(const char *root, const char *home, const char *tool,
			 struct vguard *g)
{
	char *dir = xstrdup(root);
	size_t i;
	int bad = 0;

	do {
		for (i = 0; i < ARRAY_SIZE(projcfgs) && !bad; i++) {
			struct stat st;
			char *p;

			if (strcmp(projcfgs[i].tool, tool))
				continue;
			p = path_join(dir, projcfgs[i].file);
			if (lstat(p, &st) == 0) {
				guard_why(g, "%s: %s", strcmp(dir, root) ? p :
					  projcfgs[i].file, projcfgs[i].why);
				bad = 1;
			}
			free(p);
		}
	} while (!bad && walk_on(dir, home));
	free(dir);
	return bad;
}

/* A version manager's dispatcher: a shim directory, or a binary that
 * dispatches on its name (mise's shims are symlinks to mise). */
static int is_shim(const char *path, const char *c)
{
	static const char *const dispatchers[] = { "mise", "rtx", "asdf" };
	size_t i;

	if (strstr(path, "/shims/") || strstr(c, "/shims/"))
		return 1;
	for (i = 0; i < ARRAY_SIZE(dispatchers); i++)
		if (!strcmp(base_name(c), dispatchers[i]))
			return 1;
	return 0;
}

static int is_mise(const char *c)
{
	return !strcmp(base_name(c), "mise") || !strcmp(base_name(c), "rtx");
}

/* rustup installs its proxies (rustc, cargo, ...) as links to itself:
 * symbolic, or hard ones beside a file called rustup. */
static int is_rustup_proxy(const char *c)
{
	struct stat a, b;
	char *dir, *r;
	int same;

	if (!strcmp(base_name(c), "rustup"))
		return 1;
	dir = xstrdup(c);
	*strrchr(dir, '/') = '\0';
	r = path_join(dir[0] ? dir : "/", "rustup");
	same = stat(c, &a) == 0 && stat(r, &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
	free(r);
	free(dir);
	return same;
}

/* name is the runtime, or the file the binary is or resolves to. */
static int named(const char *name, const char *path, const char *c,
		 const char *want)
{
	return !strcmp(name, want) || !strcmp(base_name(path), want) ||
	       !strcmp(base_name(c), want);
}

int vguard_check(const char *name, const char *path, const char *repo_root,
		 char *const env[], struct vguard *g)
{
	char *root, *c, *home_real = NULL;
	const char *tc, *home;
	int bad = 0;
	size_t i;

	memset(g, 0, sizeof(*g));
	if (!name || !path || !repo_root || !(root = realpath(repo_root, NULL)))
		return 0;
	home = env_get(env, "HOME");
	home = home && home[0] == '/' ? (home_real = realpath(home, NULL)) : NULL;
	c = realpath(path, NULL);
	if (!c)
		c = xstrdup(path);
	if (named(name, path, c, "yarn") || named(name, path, c, "yarnpkg"))
		bad = yarn_guard(root, home, g);
	if (!bad && (named(name, path, c, "pnpm") || named(name, path, c, "pnpx")))
		bad = pnpm_guard(root, home, g);
	if (!bad && is_shim(path, c))
		bad = walk_files(root, home, shim_files, ARRAY_SIZE(shim_files),
				 shim_check, 0, g);
	if (!bad && is_mise(c))
		bad = walk_files(root, home, mise_files, ARRAY_SIZE(mise_files),
				 mise_check, 0, g);
	tc = env_get(env, "RUSTUP_TOOLCHAIN");
	if (!bad && !(tc && *tc) && is_rustup_proxy(c)) {
		static const char *const files[] = {
			"rust-toolchain.toml", "rust-toolchain",
		};

		bad = walk_files(root, home, files, ARRAY_SIZE(files), rustup_check,
				 1, g);
	}
	if (!bad && named(name, path, c, "dotnet")) {
		static const char *const files[] = { "global.json" };

		bad = walk_files(root, home, files, 1, dotnet_check, 1, g);
	}
	for (i = 0; i < ARRAY_SIZE(projcfgs) && !bad; i++)
		if (named(name, path, c, projcfgs[i].tool))
			bad = projcfg_guard(root, home, projcfgs[i].tool, g);
	free(c);
	free(root);
	free(home_real);
	if (!bad) {
		free(g->why);
		g->why = NULL;
		g->version[0] = '\0';
	}
	return bad;
}

void vguard_release(struct vguard *g)
{
	free(g->why);
	memset(g, 0, sizeof(*g));
}
