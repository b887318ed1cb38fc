/* gitrepo.h - would git commit this file?  Answered from the work tree
 * itself, never by running git: which work tree holds the file, the ignore
 * rules git would apply to it (gitignore.h matches them), whether its
 * index already tracks it (gitindex.h), and the user's global excludes
 * file from git's config.
 *
 * The env.gitignore check calls it on its worker thread, under the run's
 * deadline: an index can be 64 MiB.  Every file is read with saferead.h:
 * a .gitignore inside the work tree must stay inside it and is not
 * followed when it is a symlink (git 2.32 and later do not follow one);
 * git's own files (.git, commondir, config, index, info/exclude) and the
 * user's files are read where git reads them.  What cannot be read is
 * skipped, as git skips it.  Nothing here prints, exits or runs a process.
 */
#ifndef EP_GITREPO_H
#define EP_GITREPO_H

#include <stddef.h>

struct gitignore;

struct gitrepo_file {
	char *top;		/* the work tree holding the start directory;
				 * NULL: not inside one */
	char *path;		/* the file relative to top; NULL: the file
				 * lies outside the work tree */
	struct gitignore *ignore;	/* info/exclude, then every .gitignore
					 * from top down to the file */
	struct gitignore *ignore_global;	/* the global excludes file, or NULL */
	char *global_excludes;	/* its path, or NULL */
	int tracked;		/* in the index: 1, 0, or -1 when it cannot tell */
};

/* Where to look: the work tree is found from start (a canonical directory)
 * up, as git finds it; file is the absolute path of the file asked about
 * (it need not exist; a symlink is taken as the link itself, as git tracks
 * it).  Rule files inside shown_root are named relative to it, others by
 * their absolute path.  home and xdg_config_home locate git's config and
 * the default global excludes file (NULL or not absolute: not set). */
struct gitrepo_query {
	const char *start;
	const char *file;
	const char *shown_root;
	const char *home;
	const char *xdg_config_home;
};

/* Fill *g for q (release it with gitrepo_release).  Never fails: a piece
 * that cannot be read is left out, as git leaves it out. */
void gitrepo_look(const struct gitrepo_query *q, struct gitrepo_file *g);
/* The same for files[0..n) (q->file unused) into out[0..n), each released
 * with gitrepo_release: the index is read once for all of them. */
void gitrepo_look_many(const struct gitrepo_query *q, const char *const *files,
		       size_t n, struct gitrepo_file *out);
void gitrepo_release(struct gitrepo_file *g);

#endif
