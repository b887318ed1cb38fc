/* exec_guard.h - the repository configuration that would make asking a
 * binary for its version run code the repository ships, or download code
 * it names.  Such a binary is never run.
 */
#ifndef EP_EXEC_GUARD_H
#define EP_EXEC_GUARD_H

/* What exec_guard_check found; the caller releases it whatever the return. */
struct exec_guard {
	char *why;		/* a new string naming file:line, or NULL */
	char version[64];	/* read without running anything, or "" */
};

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
 * *g with exec_guard_release whatever the return. */
int exec_guard_check(const char *name, const char *path, const char *repo_root,
		 char *const env[], struct exec_guard *g);
void exec_guard_release(struct exec_guard *g);

#endif
