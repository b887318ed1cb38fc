/* fix_git.c - see fix_git.h
 *
 * git's rules, as gitrepo.h and gitignore.h read them: a file in the
 * index is tracked whatever the ignore rules say (git add of it records
 * a change); else the rules decide between ignored and untracked, the
 * repository's first, then the user's global excludes file; a directory
 * that holds tracked files is tracked (gitindex.h).  A path not there yet
 * (node_modules before the install that makes it) is matched as what the
 * fix declared it to be (struct fix_write's dir).
 *
 * One look for all the paths of all the fixes: the index is read once
 * (an install lists a node_modules per workspace, up to two thousand
 * paths in a large monorepo), the ignore rules per path.
 */
#include "fix_git.h"
#include "gitignore.h"
#include "gitrepo.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A path looked up (absolute), and the first write that named it. */
struct seen {
	char *path;
	const struct fix_write *first;
	unsigned char state;
};

static int ignored(const struct gitrepo_file *g, int is_dir)
{
	return gitignore_match(g->ignore, g->path, is_dir, NULL) ||
	       (g->ignore_global && gitignore_match(g->ignore_global, g->path,
						    is_dir, NULL));
}

static unsigned char state_of(const struct gitrepo_file *g, const char *abs, int is_dir)
{
	struct stat st;

	/* an index that cannot be read says nothing either way: a rule
	 * that ignores the path does not make a tracked file ignored */
	if (!g->top || !g->path || g->tracked < 0)
		return FIX_GIT_UNKNOWN;
	if (g->tracked == 1)
		return FIX_GIT_TRACKED;
	if (ignored(g, lstat(abs, &st) == 0 ? S_ISDIR(st.st_mode) : is_dir))
		return FIX_GIT_IGNORED;
	return FIX_GIT_UNTRACKED;
}

/* The absolute, lexically clean path of write w of f. */
static char *write_path(const char *root, const struct fix *f, const struct fix_write *w)
{
	char *dir = f->cwd ? path_join(root, f->cwd) : xstrdup(root);
	char *j = path_join(dir, w->path);
	char *abs = path_lexical(j);

	free(j);
	free(dir);
	return abs;
}

/* The index in seen of abs, added when new. */
static size_t seen_find(struct seen **seen, size_t *n, size_t *cap, char *abs,
			const struct fix_write *w)
{
	size_t k;

	for (k = 0; k < *n; k++)
		if (!strcmp((*seen)[k].path, abs)) {
			free(abs);
			return k;
		}
	grow(seen, sizeof(**seen), cap, *n + 1);
	(*seen)[*n].path = abs;
	(*seen)[*n].first = w;
	(*seen)[*n].state = FIX_GIT_UNKNOWN;
	return (*n)++;
}

void fix_git_mark(struct result *results, size_t n, const char *root)
{
	struct seen *seen = NULL;
	size_t nseen = 0, cap = 0, i, w, k;
	struct gitrepo_query q;
	struct gitrepo_file *g;
	const char **files;

	for (i = 0; i < n; i++) {
		const struct fix *f = results[i].fix;

		for (w = 0; f && w < f->nwrites; w++)
			seen_find(&seen, &nseen, &cap, write_path(root, f, &f->writes[w]),
				  &f->writes[w]);
	}
	if (!nseen)
		return;
	files = xcalloc(nseen, sizeof(*files));
	g = xcalloc(nseen, sizeof(*g));
	for (k = 0; k < nseen; k++)
		files[k] = seen[k].path;
	q.start = root;
	q.file = NULL;
	q.shown_root = root;
	q.home = getenv("HOME");
	q.xdg_config_home = getenv("XDG_CONFIG_HOME");
	gitrepo_look_many(&q, files, nseen, g);
	for (k = 0; k < nseen; k++) {
		seen[k].state = state_of(&g[k], seen[k].path, seen[k].first->dir);
		gitrepo_release(&g[k]);
	}
	free(g);
	free(files);
	for (i = 0; i < n; i++) {
		struct fix *f = results[i].fix;

		for (w = 0; f && w < f->nwrites; w++) {
			char *abs = write_path(root, f, &f->writes[w]);

			k = seen_find(&seen, &nseen, &cap, abs, NULL);
			f->writes[w].git = seen[k].state;
		}
	}
	for (k = 0; k < nseen; k++)
		free(seen[k].path);
	free(seen);
}
