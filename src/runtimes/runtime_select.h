/* runtime_select.h - what, besides its binary, picks the version a
 * toolchain reports, as a context the version cache keys on (peek.h's
 * struct version_context): so that go, rustc, dotnet and a pinned pnpm
 * or yarn, which switch versions per project, and a version manager's
 * shim (rbenv, nodenv, pyenv, goenv, jenv, plenv, asdf, mise), are asked
 * once per state of what they read rather than on every run.
 */
#ifndef EP_RUNTIME_SELECT_H
#define EP_RUNTIME_SELECT_H

#include "peek.h"

/* The context of the runtime name (the table's, or the binary's base
 * name) whose file is binary (canonical or not), run in dir with env (the
 * child's environment, NULL-terminated): 0 with ctx filled (release it),
 * or -1 when name picks nothing besides its binary and binary is no
 * shim we know, or when what picks it cannot be told (mise with a
 * profile): then only the cache's own rules apply. */
int runtime_select_context(const char *name, const char *binary, const char *dir,
			   char *const env[], struct version_context *ctx);
void runtime_select_release(struct version_context *ctx);

#endif
