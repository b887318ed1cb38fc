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

/* The context's pieces, for runtime_shim.c as well. */
struct buf;
/* A variable of env (NULL-terminated "NAME=value"), or NULL. */
const char *select_env_get(char *const env[], const char *name);
/* "f PATH DEV INO SIZE MTIME CTIME" for a file that is there (a directory
 * too: its times change as entries come and go), nothing otherwise. */
void select_file_id(struct buf *b, const char *path);
void select_file_id_in(struct buf *b, const char *dir, const char *name);
/* select_file_id of dir/name, of its parent's name, and so on up to /
 * (dir canonical). */
void select_file_id_up(struct buf *b, const char *dir, const char *name);
/* The user's directory of XDG variable xdg (absolute), else HOME/dflt;
 * a new string, or NULL. */
char *select_user_dir(char *const env[], const char *xdg, const char *dflt);

#endif
