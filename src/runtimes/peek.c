/* peek.c - a runtime's version without running it, where the answer is
 * certain (the contract is in peek.h): which shortcut a runtime takes,
 * (the helpers they share are peek_util.c's, peek_int.h).
 *
 * Three shortcuts, each taken only when nothing can make the binary print
 * something else:
 *
 *  - manifest (peek_js.c): npm, npx, pnpm, yarn and corepack are files of
 *    an npm package, and print the "version" of that package's
 *    package.json.  The resolved file must be one of the package's
 *    declared "bin" targets.  Corepack's shims (the pnpm and yarn of
 *    `corepack enable`) belong to the corepack package, not to pnpm or
 *    yarn, so they fall out as "not certain": what they run depends on the
 *    repository's packageManager.  pnpm and yarn can also switch themselves
 *    to a version the repository pins (packageManager, yarnPath), so for
 *    them any such pin is a doubt.
 *  - path (peek_path.c): nvm, n, volta, asdf, mise, fnm and pyenv install
 *    each version in a directory named after it, so the canonical path of
 *    the binary names the version.  Only plain X.Y.Z names count, and
 *    where the install carries its own header (node_version.h,
 *    patchlevel.h) that header must agree.  Shims (asdf, mise, volta)
 *    never resolve to such a path, so they fall out by themselves.
 *  - pyenv shims (peek_py.c): resolved the way pyenv 2.x's libexec
 *    scripts resolve them (PYENV_VERSION, the nearest .python-version, the
 *    global version file, prefixes such as "3.11", python- prefixes, ':'
 *    lists, the fallback to "system"), to the real interpreter under
 *    versions/, which is then read by the path rule.  Any pyenv hook we do
 *    not know, any unusual version name, any file pyenv would read
 *    differently from us: not certain.
 *
 * The guards (exec_guard.c) are the other side of the same coin: the
 * repository configuration that would make running a binary run code the
 * repository ships.
 *
 * Nothing here runs a process, prints or exits.  Every function is
 * thread-safe (no state but the file system).
 */
#include "peek.h"
#include "peek_int.h"

#include <stdlib.h>
#include <string.h>

const char *vmethod_name(enum vmethod m)
{
	static const char *const names[] = {
		[VMETHOD_EXEC] = "exec", [VMETHOD_CACHE] = "cache",
		[VMETHOD_MANIFEST] = "manifest", [VMETHOD_PATH] = "path",
		[VMETHOD_SOCKET] = "socket",
	};

	return (unsigned)m < sizeof(names) / sizeof(names[0]) ? names[m] : "exec";
}

/* ---- the entry point ---- */

enum shortcut {
	SHORTCUT_NONE, SHORTCUT_NODE, SHORTCUT_PYTHON, SHORTCUT_JS,
	SHORTCUT_ERLANG,
};

static enum shortcut shortcut_for(const char *name)
{
	if (!strcmp(name, "node") || !strcmp(name, "nodejs"))
		return SHORTCUT_NODE;
	if (!strncmp(name, "python", 6) &&
	    strspn(name + 6, "0123456789.") == strlen(name + 6))
		return SHORTCUT_PYTHON;
	if (!strcmp(name, "erlang"))
		return SHORTCUT_ERLANG;
	return peek_js_knows(name) ? SHORTCUT_JS : SHORTCUT_NONE;
}

int peek_version(const char *name, const char *path, const char *repo_root,
		 char *const env[], char *out, size_t outlen,
		 enum vmethod *method, char **real)
{
	enum shortcut k;
	enum vmethod how = VMETHOD_PATH;
	char *c;
	int found = -1;

	if (real)
		*real = NULL;
	if (!name || !path || path[0] != '/' || !out || !outlen)
		return 0;
	k = shortcut_for(name);
	if (k == SHORTCUT_NONE || !(c = realpath(path, NULL)))
		return 0;
	if (k == SHORTCUT_JS) {
		found = peek_js_lookup(name, c, repo_root, env, out, outlen);
		how = VMETHOD_MANIFEST;
	} else if (k == SHORTCUT_PYTHON) {
		found = peek_pyenv_lookup(path, c, repo_root, env, out, outlen,
					   real);
	} else if (k == SHORTCUT_ERLANG) {
		found = peek_erlang_lookup(c, out, outlen);
	}
	if (found < 0)		/* node, or a python that is no pyenv shim */
		found = peek_path_lookup(k == SHORTCUT_NODE ? PEEK_NODE :
					  PEEK_PYTHON, c, out, outlen);
	if (found && method)
		*method = how;
	free(c);
	return found;
}
