/* vfast_int.h - what the exec-free lookups (vfast*.c) and the guards
 * (vguard.c) share.  Not for other modules: they include vfast.h.
 *
 * Everything here is thread-safe: no state but the file system.
 */
#ifndef EP_VFAST_INT_H
#define EP_VFAST_INT_H

#include <stddef.h>

#include "util.h"

#define VFAST_VERSION_MAX 64	/* longest version handed back */
/* version files and headers are small; anything larger is not what we
 * expect, so it is a doubt rather than something to parse */
#define VFAST_SMALL_CAP (64 * 1024)

/* The value of key in env (NULL: our own environment), or NULL. */
const char *vfast_env_get(char *const env[], const char *key);
/* The last component of p (p itself when it has no '/'). */
const char *vfast_base_name(const char *p);

/* Read a small file as text without NUL bytes into *b (the caller
 * releases it): 0, or -1 (missing, unreadable, over cap, binary), with
 * *missing (when not NULL) telling ENOENT apart. */
int vfast_read_text(const char *path, size_t cap, struct blob *b, int *missing);

/* "20.11.1": exactly three numbers without leading zeros, the form every
 * version manager uses for a release; s need not be NUL-terminated. */
int vfast_version_plain(const char *s, size_t len);
/* semver as npm writes it into package.json: X.Y.Z[-pre][+build]. */
int vfast_version_semver(const char *s);
/* Copy v[0..len) into out as a string: 1, or 0 when it does not fit. */
int vfast_put_out(char *out, size_t outlen, const char *v, size_t len);

/* The shortcuts.  c is the canonical path of the binary; each returns 1
 * with the bare version in out, or 0 when it is not certain. */
enum vfast_install { VFAST_NODE, VFAST_PYTHON };
/* vfast_path.c: a versioned install directory (nvm, volta, asdf, ...). */
int vfast_path_lookup(enum vfast_install k, const char *c, char *out,
		      size_t outlen);
/* vfast_js.c: 1 when name is a tool of an npm package ("npm", "yarn"). */
int vfast_js_knows(const char *name);
/* vfast_js.c: the package.json of the package whose bin c is. */
int vfast_js_lookup(const char *name, const char *c, const char *repo_root,
		    char *const env[], char *out, size_t outlen);
/* vfast_erl.c: the OTP release beside the erl at c (an OTP install's
 * releases/<N>/OTP_VERSION), 1 or 0; never -1. */
int vfast_erlang_lookup(const char *c, char *out, size_t outlen);
/* vfast_py.c: -1 when c is not a pyenv shim; else the shim at path
 * resolved as pyenv would (*real as vfast_lookup sets it). */
int vfast_pyenv_lookup(const char *path, const char *c, const char *repo_root,
		       char *const env[], char *out, size_t outlen, char **real);

#endif
