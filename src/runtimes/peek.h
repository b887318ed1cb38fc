/* peek.h - a runtime's version without running it, where the answer is
 * certain, and a cache for the ones that had to be run.
 *
 * The physical limit of a version check is zero processes.  The runtimes
 * probe asks peek_version first, then version_cache_get, and only then spawns the
 * binary (and calls version_cache_put with what it printed).
 *
 * peek.c takes the question to one of three shortcuts: peek_path.c
 * (the install path names the version), peek_js.c (an npm package's
 * manifest) and peek_py.c (a pyenv shim resolved as pyenv would); what
 * they share is in peek_int.h.  The cache is version_cache.c.
 */
#ifndef EP_PEEK_H
#define EP_PEEK_H

#include <stddef.h>

/* Whoever asks for a version without running the binary also asks
 * whether running it would be safe (exec_guard.h): one include gives both. */
#include "exec_guard.h"

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
int peek_version(const char *name, const char *path, const char *repo_root,
		 char *const env[], char *out, size_t outlen,
		 enum vmethod *method, char **real);

/* The cache: $XDG_CACHE_HOME/envpreflight/ (or ~/.cache/envpreflight/),
 * keyed on the binary's canonical path, device, inode, size and times.
 * Without a context, only binaries whose answer cannot depend on the
 * repository (not shims, not scripts that dispatch on the working
 * directory) are cached; the _in functions below key a toolchain that
 * picks its version per project on what picks it.  A corrupt or
 * unwritable cache is ignored, never fatal.  Thread-safe. */
int version_cache_get(const char *name, const char *path, char *out, size_t outlen);
void version_cache_put(const char *name, const char *path, const char *version);

/* What, besides its binary, picks the version a toolchain reports (go,
 * rustc, dotnet, a pinned pnpm or yarn): text naming each input, which
 * the cache keys on (runtime_select.c makes it).  script_ok: the binary
 * may be a script, its interpreter being among the inputs.  shim_ok: it
 * is a version manager's shim (rbenv's, asdf's, mise's), and what the
 * manager reads to pick a version is among the inputs. */
struct version_context {
	char *text;
	int script_ok;
	int shim_ok;
};
/* The cache in a context (NULL: as version_cache_get and _put). */
int version_cache_get_in(const char *name, const char *path,
			 const struct version_context *ctx, char *out, size_t outlen);
void version_cache_put_in(const char *name, const char *path,
			  const struct version_context *ctx, const char *version);

/* What the cache is and did in this run, for the report's run block.
 * dir is a new string (caller frees) or NULL when there is no HOME. */
enum version_cache_state {
	VERSION_CACHE_READY,		/* a valid cache file of ours */
	VERSION_CACHE_EMPTY,		/* none yet (made on the first store) */
	VERSION_CACHE_UNAVAILABLE,	/* no HOME, or a directory we cannot trust */
};
struct version_cache_info {
	char *dir;
	enum version_cache_state state;
	size_t entries;
	unsigned hits, misses, stores;	/* during this process */
};
void version_cache_describe(struct version_cache_info *info);
/* The counters alone (cheap): a process that runs several audits (the
 * MCP server) reports each one's share as the difference. */
void version_cache_counters(unsigned *hits, unsigned *misses, unsigned *stores);

#endif
