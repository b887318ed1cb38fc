/* peek_int.h - what the exec-free lookups (peek*.c) and the guards
 * (exec_guard.c) share.  Not for other modules: they include peek.h.
 *
 * Everything here is thread-safe: no state but the file system.
 */
#ifndef EP_VFAST_INT_H
#define EP_VFAST_INT_H

#include <stddef.h>

#include "util.h"

#define PEEK_VERSION_MAX 64	/* longest version handed back */
/* version files and headers are small; anything larger is not what we
 * expect, so it is a doubt rather than something to parse */
#define PEEK_SMALL_CAP (64 * 1024)

/* The value of key in env (NULL: our own environment), or NULL. */
const char *peek_env_get(char *const env[], const char *key);
/* The last component of p (p itself when it has no '/'). */
const char *peek_base_name(const char *p);

/* Read a small file as text without NUL bytes into *b (the caller
 * releases it): 0, or -1 (missing, unreadable, over cap, binary), with
 * *missing (when not NULL) telling ENOENT apart. */
int peek_read_text(const char *path, size_t cap, struct blob *b, int *missing);

/* "20.11.1": exactly three numbers without leading zeros, the form every
 * version manager uses for a release; s need not be NUL-terminated. */
int peek_version_plain(const char *s, size_t len);
/* semver as npm writes it into package.json: X.Y.Z[-pre][+build]. */
int peek_version_semver(const char *s);
/* Copy v[0..len) into out as a string: 1, or 0 when it does not fit. */
int peek_put_out(char *out, size_t outlen, const char *v, size_t len);

/* The shortcuts.  c is the canonical path of the binary; each returns 1
 * with the bare version in out, or 0 when it is not certain. */
enum peek_install { PEEK_NODE, PEEK_PYTHON };
/* peek_path.c: a versioned install directory (nvm, volta, asdf, ...). */
int peek_path_lookup(enum peek_install k, const char *c, char *out,
		      size_t outlen);
/* peek_js.c: 1 when name is a tool of an npm package ("npm", "yarn"). */
int peek_js_knows(const char *name);
/* peek_js.c: 1 when the canonical file c is a "bin" of the npm package
 * of tool name (pnpm's, yarn's), or of corepack's (its shims). */
int peek_js_owned(const char *name, const char *c);
/* peek_js.c: the package.json of the package whose bin c is. */
int peek_js_lookup(const char *name, const char *c, const char *repo_root,
		    char *const env[], char *out, size_t outlen);
/* peek_erl.c: the OTP release beside the erl at c (an OTP install's
 * releases/<N>/OTP_VERSION), 1 or 0; never -1. */
int peek_erlang_lookup(const char *c, char *out, size_t outlen);
/* peek_py.c: -1 when c is not a pyenv shim; else the shim at path
 * resolved as pyenv would (*real as peek_version sets it). */
int peek_pyenv_lookup(const char *path, const char *c, const char *repo_root,
		       char *const env[], char *out, size_t outlen, char **real);

#endif
