/* vfast.h - a runtime's version without running it, where the answer is
 * certain, and a cache for the ones that had to be run.
 *
 * The physical limit of a version check is zero processes.  The runtimes
 * probe asks vfast_lookup first, then vcache_get, and only then spawns the
 * binary (and calls vcache_put with what it printed).
 */
#ifndef EP_VFAST_H
#define EP_VFAST_H

#include <stddef.h>

/* How a version was learnt: the JSON "method" field. */
enum vmethod {
	VMETHOD_EXEC,		/* ran it */
	VMETHOD_CACHE,		/* the cache, from an earlier exec */
	VMETHOD_MANIFEST,	/* the package.json of the package it belongs to */
	VMETHOD_PATH,		/* the install path names the version (nvm, volta, asdf, mise, pyenv) */
	VMETHOD_SOCKET,		/* asked a daemon (docker) */
};
const char *vmethod_name(enum vmethod m);	/* "exec", "cache", ... */

/* Try to learn the version of runtime name ("node", "npm", "python", ...)
 * whose binary spawn_which resolved to path, without running anything.
 * env is the environment the binary would get (PYENV_VERSION and friends);
 * repo_root is where a .python-version search starts.  Returns 1 and
 * writes the bare version ("20.11.1", "3.11.7") into out with *method set,
 * or 0 when no shortcut is certain.  When a shim resolves to a real
 * binary, *real (if not NULL) gets that path as a new string (caller
 * frees) so the caller can exec or cache the real one instead. */
int vfast_lookup(const char *name, const char *path, const char *repo_root,
		 char *const env[], char *out, size_t outlen,
		 enum vmethod *method, char **real);

/* Configuration in the repository (or a directory above it) that would
 * make asking the binary at path for runtime name's version run code the
 * repository ships, or download code it names: yarn's yarnPath and
 * plugins, pnpm's own version switching, a version file that names a path
 * to a version manager's shim, rustup's path toolchains, global.json SDK
 * paths, Maven's .mvn, sbt's .jvmopts, bazelisk's .bazeliskrc.  Files are
 * read with the spec rules (size cap, no NUL, a symlink in the repository
 * that resolves outside it is refused).  env is the child's environment.
 * Returns 0 when nothing stands in the way; 1 when the binary must not be
 * run, with g->why set (a new string naming file:line) and, where a
 * version could be read without running anything (yarnPath's
 * "yarn-4.1.0.cjs"), g->version set ("" otherwise).  The caller releases
 * *g with vguard_release whatever the return. */
struct vguard {
	char *why;
	char version[64];
};
int vguard_check(const char *name, const char *path, const char *repo_root,
		 char *const env[], struct vguard *g);
void vguard_release(struct vguard *g);

/* The cache: $XDG_CACHE_HOME/envpreflight/ (or ~/.cache/envpreflight/),
 * keyed on the binary's canonical path, device, inode, size and mtime.
 * Only binaries whose answer cannot depend on the repository (not shims,
 * not scripts that dispatch on the working directory) are cached.  A
 * corrupt or unwritable cache is ignored, never fatal.  Thread-safe. */
int vcache_get(const char *name, const char *path, char *out, size_t outlen);
void vcache_put(const char *name, const char *path, const char *version);

#endif
