/* fix_git.c - see fix_git.h
 *
 * git's rules, as gitrepo.h and gitignore.h read them: a file in the
 * index is tracked whatever the ignore rules say (git add of it records
 * a change); else the rules decide between ignored and untracked, the
 * repository's first, then the user's global excludes file; a directory
 * that holds tracked files is tracked (gitindex.h).  A path not there yet
 * (node_modules before the install that makes it) is matched as what the
 * fix declared it to be (struct fix's writes_dirs).
 *
 * Each look reads the index whole (up to 64 MiB), after the checks: the
 * looks stop after FIX_GIT_BUDGET_MS, what is left is null (unknown).
 */
#include "fix_git.h"
#include "gitignore.h"
#include "gitrepo.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define FIX_GIT_BUDGET_MS 100

/* A path looked up already (absolute). */
struct seen {
	char *path;
	unsigned char state;
};

static int ignored(const struct gitrepo_file *g, int is_dir)
{
	return gitignore_match(g->ignore, g->path, is_dir, NULL) ||
	       (g->ignore_global && gitignore_match(g->ignore_global, g->path,
						    is_dir, NULL));
}

static unsigned char state_of(const char *root, const char *abs, int is_dir)
{
	struct gitrepo_query q;
	struct gitrepo_file g;
	struct stat st;
	unsigned char state = FIX_GIT_UNKNOWN;

	q.start = root;
	q.file = abs;
	q.shown_root = root;
	q.home = getenv("HOME");
	q.xdg_config_home = getenv("XDG_CONFIG_HOME");
	gitrepo_look(&q, &g);
	/* an index that cannot be read says nothing either way: a rule
	 * that ignores the path does not make a tracked file ignored */
	if (g.top && g.path && g.tracked >= 0) {
		if (g.tracked == 1)
			state = FIX_GIT_TRACKED;
		else if (ignored(&g, lstat(abs, &st) == 0 ? S_ISDIR(st.st_mode) : is_dir))
			state = FIX_GIT_IGNORED;
		else
			state = FIX_GIT_UNTRACKED;
	}
	gitrepo_release(&g);
	return state;
}

void fix_git_mark(struct result *results, size_t n, const char *root)
{
	struct seen *seen = NULL;
	size_t nseen = 0, cap = 0, i, w, k;
	double until = clock_ms() + FIX_GIT_BUDGET_MS;

	for (i = 0; i < n; i++) {
		struct fix *f = results[i].fix;

		for (w = 0; f && w < FIX_WRITES_MAX && f->writes[w]; w++) {
			char *dir = f->cwd ? path_join(root, f->cwd) : xstrdup(root);
			char *j = path_join(dir, f->writes[w]);
			char *abs = path_lexical(j);

			free(j);
			free(dir);
			for (k = 0; k < nseen && strcmp(seen[k].path, abs); k++)
				;
			if (k == nseen) {
				grow(&seen, sizeof(*seen), &cap, nseen + 1);
				seen[nseen].path = abs;
				seen[nseen++].state = clock_ms() < until ?
					state_of(root, abs, (f->writes_dirs >> w) & 1) :
					FIX_GIT_UNKNOWN;
			} else {
				free(abs);
			}
			f->writes_git[w] = seen[k].state;
		}
	}
	for (k = 0; k < nseen; k++)
		free(seen[k].path);
	free(seen);
}
