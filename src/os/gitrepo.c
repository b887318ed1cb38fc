/* gitrepo.c - see gitrepo.h */
#include "gitrepo.h"
#include "gitignore.h"
#include "gitindex.h"
#include "saferead.h"
#include "util.h"

#include <errno.h>
#include <ini.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* An index larger than this is not read: the answer is "unknown". */
#define GIT_INDEX_CAP (64 * 1024 * 1024)
/* a .git file or commondir holds one path */
#define GIT_POINTER_CAP 4096

/* The top of the git work tree holding dir, or NULL. */
static char *find_top(const char *dir)
{
	char *cur = xstrdup(dir);

	for (;;) {
		char *dotgit = path_join(cur, ".git");
		struct stat st;
		int found = lstat(dotgit, &st) == 0;
		char *slash;

		free(dotgit);
		if (found)
			return cur;
		slash = strrchr(cur, '/');
		if (!slash || slash == cur) {
			free(cur);
			return NULL;
		}
		*slash = '\0';
	}
}

/* The first line of a small git pointer file ("gitdir: X", "commondir"),
 * or NULL. */
static char *read_pointer(const char *path, const char *prefix)
{
	struct blob b;
	char *nl, *v;
	size_t n = strlen(prefix);

	if (saferead_path(path, GIT_POINTER_CAP, &b) < 0)
		return NULL;
	if (strncmp(b.data, prefix, n)) {
		blob_release(&b);
		return NULL;
	}
	nl = strchr(b.data, '\n');
	if (nl)
		*nl = '\0';
	v = xstrdup(b.data + n + strspn(b.data + n, " "));
	blob_release(&b);
	return v;
}

/* The git directory of a work tree: .git itself, or where a .git file
 * ("gitdir: PATH", linked worktrees and submodules) points.  Its index
 * is this work tree's. */
static char *git_dir(const char *top)
{
	char *dotgit = path_join(top, ".git"), *target, *dir;
	struct stat st;

	if (stat(dotgit, &st) == 0 && S_ISDIR(st.st_mode))
		return dotgit;
	target = read_pointer(dotgit, "gitdir:");
	free(dotgit);
	if (!target)
		return NULL;
	dir = path_join(top, target);
	free(target);
	return dir;
}

/* Where a linked worktree's shared files (info/exclude, config) live. */
static char *git_common_dir(const char *gitdir)
{
	char *file = path_join(gitdir, "commondir");
	char *common = read_pointer(file, "");
	char *dir;

	free(file);
	if (!common || !*common) {
		free(common);
		return xstrdup(gitdir);
	}
	dir = path_join(gitdir, common);
	free(common);
	return dir;
}

/* A name for a rule file as the user sees it: relative to shown_root when
 * it lies inside, else its absolute path. */
static char *display_path(const char *shown_root, const char *abs)
{
	size_t n = strlen(shown_root);

	if (path_is_inside(abs, shown_root) && abs[n] == '/')
		return xstrdup(abs + n + 1);
	return xstrdup(abs);
}

/* Is each of paths[0..n) (NULL: outside the tree, left alone) tracked?
 * tracked[i] 1, 0, or -1 when the index cannot tell.  The index is read
 * once, however many paths. */
static void index_tracked(const char *gitdir, const char *common,
			  const char *const *paths, size_t n, int *tracked)
{
	char *index = path_join(gitdir, "index"), *config = path_join(common, "config");
	const char **asked = xcalloc(n ? n : 1, sizeof(*asked));
	signed char *got = xcalloc(n ? n : 1, 1);
	size_t hash_len = 20, i, k = 0;
	struct blob b;
	int rc;

	/* a SHA-256 repository says so in its config */
	if (saferead_path(config, SPEC_FILE_CAP, &b) == 0) {
		char *c;

		for (c = b.data; *c; c++)
			*c = (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
		if (strstr(b.data, "objectformat = sha256") ||
		    strstr(b.data, "objectformat=sha256"))
			hash_len = 32;
		blob_release(&b);
	}
	free(config);
	for (i = 0; i < n; i++)
		if (paths[i])
			asked[k++] = paths[i];
	if (saferead_path(index, GIT_INDEX_CAP, &b) < 0) {
		rc = errno == ENOENT ? 0 : -1;	/* a new repository has none */
	} else {
		rc = gitindex_tracked_many(b.data, b.len, hash_len, asked, k, got);
		blob_release(&b);
	}
	for (i = k = 0; i < n; i++)
		if (paths[i]) {
			tracked[i] = rc < 0 ? -1 : got[k];
			k++;
		}
	free(got);
	free(asked);
	free(index);
}

/* Add the rules of a file git reads where it is (info/exclude, the
 * global excludes file). */
static void add_rules(struct gitignore *g, const char *path, const char *source)
{
	struct blob b;

	if (saferead_path(path, SPEC_FILE_CAP, &b) < 0)
		return;		/* git, too, skips what it cannot read */
	gitignore_add(g, b.data, b.len, "", source);
	blob_release(&b);
}

/* Add the rules of the .gitignore at rel in the work tree top: inside it,
 * and not a symlink (git 2.32 and later do not follow one). */
static void add_tree_rules(struct gitignore *g, const char *top, const char *rel,
			   const char *base, const char *source)
{
	static const struct saferead_policy in_tree = {
		SAFEREAD_BENEATH_NOFOLLOW, SAFEREAD_BYTES, SPEC_FILE_CAP
	};
	struct blob b;

	if (saferead_file(&in_tree, top, rel, &b, NULL) < 0)
		return;
	gitignore_add(g, b.data, b.len, base, source);
	blob_release(&b);
}

struct excludes_lookup {
	char *path;		/* core.excludesFile as written, or NULL */
};

static int on_git_config(void *user, const char *section, const char *name,
			 const char *value)
{
	struct excludes_lookup *x = user;

	if (!strcasecmp(section, "core") && !strcasecmp(name, "excludesfile") && value) {
		free(x->path);
		x->path = xstrdup(value);
	}
	return 1;	/* git's syntax is wider than inih's: never stop */
}

/* core.excludesFile from the user's git config files (later wins), with
 * a leading "~/" expanded; NULL when unset. */
static char *excludes_from_config(const char *xdg, const char *home)
{
	struct excludes_lookup x = { NULL };
	char *files[2], *path = NULL;
	size_t i;

	files[0] = xdg ? path_join(xdg, "git/config") : home ?
		   path_join(home, ".config/git/config") : NULL;
	files[1] = home ? path_join(home, ".gitconfig") : NULL;
	for (i = 0; i < 2; i++) {
		struct blob b;

		if (files[i] && saferead_path(files[i], SPEC_FILE_CAP, &b) == 0) {
			ini_parse_string(b.data, on_git_config, &x);
			blob_release(&b);
		}
		free(files[i]);
	}
	if (x.path && !strncmp(x.path, "~/", 2) && home)
		path = path_join(home, x.path + 2);
	else if (x.path && x.path[0] == '/')
		path = xstrdup(x.path);
	free(x.path);
	return path;
}

/* The user's global excludes file: core.excludesFile, else git's default
 * $XDG_CONFIG_HOME/git/ignore.  Kept apart from the repository's own rules:
 * a file ignored only there is still unprotected in every other clone. */
static void load_global_excludes(const struct gitrepo_query *q, struct gitrepo_file *g)
{
	const char *xdg = q->xdg_config_home, *home = q->home;
	char *path;

	if (xdg && *xdg != '/')
		xdg = NULL;
	if (home && *home != '/')
		home = NULL;
	path = excludes_from_config(xdg, home);
	if (!path && xdg)
		path = path_join(xdg, "git/ignore");
	else if (!path && home)
		path = path_join(home, ".config/git/ignore");
	if (!path)
		return;
	g->ignore_global = gitignore_new();
	g->global_excludes = path;
	add_rules(g->ignore_global, path, g->global_excludes);
}

/* The file relative to top, with its directory canonical and the file
 * itself not resolved (git tracks a symlink as a link); NULL when it lies
 * outside. */
static char *path_in_tree(const char *top, const char *file)
{
	char dir[PATH_MAX], *tmp, *rel, *out;

	tmp = xstrdup(file);
	if (!realpath(dirname(tmp), dir)) {
		free(tmp);
		return NULL;
	}
	free(tmp);
	if (!path_is_inside(dir, top))
		return NULL;
	tmp = xstrdup(file);
	rel = dir + strlen(top);
	rel += *rel == '/';
	out = *rel ? path_join(rel, basename(tmp)) : xstrdup(basename(tmp));
	free(tmp);
	return out;
}

/* info/exclude, from the git directory (NULL: none). */
static void load_exclude(const struct gitrepo_query *q, const char *common,
			 struct gitrepo_file *g)
{
	char *exclude, *shown;

	if (!common)
		return;
	exclude = path_join(common, "info/exclude");
	shown = display_path(q->shown_root, exclude);
	add_rules(g->ignore, exclude, shown);
	free(shown);
	free(exclude);
}

/* The top .gitignore, then each directory's down to the file's. */
static void load_tree_rules(const struct gitrepo_query *q, struct gitrepo_file *g)
{
	struct buf base = BUF_INIT, rel = BUF_INIT;
	const char *p = g->path;

	for (;;) {
		const char *slash = strchr(p, '/');
		char *abs, *shown;
		size_t n;

		buf_release(&rel);
		buf_add(&rel, buf_str(&base), base.len);
		buf_puts(&rel, base.len ? "/.gitignore" : ".gitignore");
		abs = path_join(g->top, rel.s);
		shown = display_path(q->shown_root, abs);
		add_tree_rules(g->ignore, g->top, rel.s, buf_str(&base), shown);
		free(shown);
		free(abs);
		if (!slash)
			break;	/* the file's own directory was the last */
		n = (size_t)(slash - p);
		if (base.len)
			buf_putc(&base, '/');
		buf_add(&base, p, n);
		p += n + 1;
	}
	buf_release(&base);
	buf_release(&rel);
}

void gitrepo_look_many(const struct gitrepo_query *q, const char *const *files,
		       size_t n, struct gitrepo_file *out)
{
	char *top = find_top(q->start), *gitdir = NULL, *common = NULL;
	const char **paths;
	int *tracked;
	size_t i;

	memset(out, 0, n * sizeof(*out));
	if (!top)
		return;
	if ((gitdir = git_dir(top)) != NULL)
		common = git_common_dir(gitdir);
	paths = xcalloc(n ? n : 1, sizeof(*paths));
	tracked = xcalloc(n ? n : 1, sizeof(*tracked));
	for (i = 0; i < n; i++) {
		struct gitrepo_file *g = &out[i];

		g->top = xstrdup(top);
		g->path = path_in_tree(top, files[i]);
		if (!g->path)
			continue;
		paths[i] = g->path;
		g->ignore = gitignore_new();
		load_exclude(q, common, g);
		load_tree_rules(q, g);
		load_global_excludes(q, g);
	}
	if (gitdir)
		index_tracked(gitdir, common, paths, n, tracked);
	for (i = 0; i < n; i++)
		out[i].tracked = gitdir ? tracked[i] : -1;
	free(tracked);
	free(paths);
	free(common);
	free(gitdir);
	free(top);
}

void gitrepo_look(const struct gitrepo_query *q, struct gitrepo_file *g)
{
	gitrepo_look_many(q, &q->file, 1, g);
}

void gitrepo_release(struct gitrepo_file *g)
{
	free(g->top);
	free(g->path);
	gitignore_free(g->ignore);
	gitignore_free(g->ignore_global);
	free(g->global_excludes);
	memset(g, 0, sizeof(*g));
}
