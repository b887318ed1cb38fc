/* gitignore.h - decide whether git ignores a path, from the rule files alone.
 *
 * The answer is the one `git check-ignore --no-index` gives, without running
 * git: the same pattern syntax (gitignore(5), wildmatch with WM_PATHNAME),
 * the same precedence (a deeper .gitignore beats a shallower one, a later
 * line beats an earlier one, .git/info/exclude is the lowest) and the same
 * rule that nothing inside an excluded directory can be re-included.
 *
 * Rule files are parsed from buffers, never read here: the caller reads
 * them (git does not follow a .gitignore that is a symlink, so neither
 * should the caller).  Matching never fails, and is bounded: patterns so
 * pathological that matching them would take unbounded time or stack (git
 * itself would hang or crash on them) are given up on, treated as not
 * matching, and the answer is flagged incomplete.
 */
#ifndef EP_GITIGNORE_H
#define EP_GITIGNORE_H

#include <stddef.h>

/* An ordered set of rules gathered from several files. */
struct gitignore;

/* A new, empty set; free it with gitignore_free(). */
struct gitignore *gitignore_new(void);

/*
 * Add the rules of one file.  buf/len: its contents (need not be
 * NUL-terminated; a leading UTF-8 BOM and CRLF line ends are accepted, as
 * git does).  base: the directory holding the file, relative to the
 * repository root, "" (or NULL) for the root, "a/b" for a/b/.gitignore.
 * source: the name to report, e.g. ".gitignore", "a/b/.gitignore" or
 * ".git/info/exclude".  Add files in increasing precedence: a global
 * core.excludesFile (if wanted), then .git/info/exclude, then the root
 * .gitignore, then deeper ones.  Everything needed is copied.
 */
void gitignore_add(struct gitignore *g, const char *buf, size_t len,
		   const char *base, const char *source);

/* The rule that decided a match.  The strings belong to the struct
 * gitignore and live until gitignore_free(). */
struct gitignore_match {
	const char *source;	/* as given to gitignore_add; NULL: no rule */
	unsigned line;		/* 1-based line in source; 0 when no rule */
	int negated;		/* the rule began with '!' (so: not ignored) */
	const char *pattern;	/* the line as written, trailing spaces trimmed */
	int incomplete;		/* a step or depth bound was hit: best effort */
};

/*
 * Is path ignored?  path is relative to the repository root, '/'-separated,
 * without a leading "./" (a trailing '/' is taken to mean a directory).
 * is_dir: whether path itself is a directory (patterns ending in '/' only
 * match directories).  Returns 1 ignored, 0 not.  When m is not NULL it
 * receives the deciding rule: the path's own last matching rule, or the
 * rule that excluded one of its parent directories.
 */
int gitignore_match(const struct gitignore *g, const char *path, int is_dir,
		    struct gitignore_match *m);

void gitignore_free(struct gitignore *g);

#endif
