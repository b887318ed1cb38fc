/* gittop.h - the top of the git work tree above a directory, found as git
 * finds it: what an audit (and init) run without DIR audits.
 *
 * git's rule (setup.c, setup_git_directory_gently_1 in v2.55.0, named
 * repo_discovery_find_dir on master since): look in the directory, then
 * in each parent, for ".git":
 *
 *   - a directory that git takes for its own (HEAD, objects/ and refs/:
 *     is_git_directory) is found; one that is not (an empty .git someone
 *     made) is walked past, as git walks past it;
 *   - a regular file "gitdir: PATH" (a linked worktree, a submodule) is
 *     found; any other file, or a .git that is neither file nor
 *     directory, ends the search: git stops there with "invalid gitfile
 *     format" or "not a regular file";
 *   - a .git that cannot be looked at (stat fails, not for ENOENT or
 *     ENOTDIR: a directory we may not search) ends the search, as git
 *     dies there ("error reading");
 *   - the search never goes above "/", nor up into a directory of
 *     GIT_CEILING_DIRECTORIES (a colon list of absolute paths, each
 *     resolved with realpath unless an empty entry came before it; the
 *     start directory itself is always looked in: path.c,
 *     longest_ancestor_length), nor onto another file system than the
 *     start's unless GIT_DISCOVERY_ACROSS_FILESYSTEM is true (the
 *     st_dev of each parent against the start's);
 *   - a found .git, or the directory holding it, that belongs to another
 *     user is not taken (git's ensure_valid_ownership, since 2.35.2 for
 *     CVE-2022-24765; under root, a path root does not own is judged
 *     against SUDO_UID: git-compat-util.h, is_path_owned_by_current_uid).  git lets safe.directory in the user's config
 *     allow it; that config is not read here, so such a top is not
 *     taken, and the caller says so (DIR audits it).
 *
 * GIT_DIR and GIT_WORK_TREE are not read: they name git's directory for
 * one command (hooks, aliases), and an audit looks for a work tree.  A
 * bare repository is no work tree: not looked for.
 *
 * Nothing here prints; the filesystem is only looked at (stat, one read
 * of a small .git file).
 */
#ifndef EP_GITTOP_H
#define EP_GITTOP_H

#include <sys/types.h>

/* What steers the search, from the environment (gittop_env_get) or a
 * test's own values. */
struct gittop_env {
	const char *ceilings;	/* GIT_CEILING_DIRECTORIES, or NULL */
	int across_fs;		/* GIT_DISCOVERY_ACROSS_FILESYSTEM true */
	uid_t euid;		/* whose work trees are taken */
	const char *sudo_uid;	/* SUDO_UID (read when euid is 0), or NULL */
};

enum gittop_stop {
	GITTOP_FOUND,		/* dir is the top */
	GITTOP_NONE,		/* no .git up to "/" */
	GITTOP_CEILING,		/* dir: the first directory of
				 * GIT_CEILING_DIRECTORIES not looked in */
	GITTOP_MOUNT,		/* dir: the last directory on the start's
				 * file system (a mount point) */
	GITTOP_UNREADABLE,	/* dir: where .git could not be looked at */
	GITTOP_BAD_GITFILE,	/* dir: holds a .git that is no gitfile */
	GITTOP_OWNER,		/* dir: holds a .git of another user */
};

struct gittop {
	enum gittop_stop stop;
	char *dir;		/* see enum gittop_stop; NULL for NONE */
	int gitfile;		/* FOUND: .git is a file (worktree, submodule) */
};

/* The environment's settings: getenv, so call it before threads start. */
void gittop_env_get(struct gittop_env *e);

/* Search from start (an absolute canonical directory) up; g is the
 * caller's, released with gittop_release. */
void gittop_find(const char *start, const struct gittop_env *e, struct gittop *g);
void gittop_release(struct gittop *g);

/* For a command run without DIR: search from the current directory.
 * Returns 1 with *rel the path of the top from the current directory
 * ("../..", or "." when it is the current directory itself), or 0 when
 * there is none (*rel NULL).  *why: a sentence when the search stopped
 * for a reason the user may want to know (a mount point, another user's
 * .git, a .git that could not be read or is no gitfile), else NULL.
 * The caller frees both. */
int gittop_from_cwd(char **rel, char **why);

#endif
