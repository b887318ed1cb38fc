/* gittop.c - see gittop.h */
#include "gittop.h"
#include "saferead.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* a .git file holds one line, "gitdir: PATH" */
#define GITFILE_CAP 4096

/* git_env_bool's reading of a value: true, yes, on, or a number that is
 * not zero.  git dies on anything else; here it is false, and the search
 * stays on its file system. */
static int env_true(const char *v)
{
	static const char *const words[] = { "true", "yes", "on" };
	long n;
	size_t i;

	if (!v)
		return 0;
	for (i = 0; i < ARRAY_SIZE(words); i++)
		if (!strcasecmp(v, words[i]))
			return 1;
	return parse_long(v, LONG_MIN, LONG_MAX, &n) == 0 && n != 0;
}

void gittop_env_get(struct gittop_env *e)
{
	e->ceilings = getenv("GIT_CEILING_DIRECTORIES");
	e->across_fs = env_true(getenv("GIT_DISCOVERY_ACROSS_FILESYSTEM"));
	e->euid = geteuid();
	e->sudo_uid = getenv("SUDO_UID");
}

/* How much of path the deepest ceiling that lies strictly above it takes
 * (path.c, longest_ancestor_length: "/" counts as 0), or -1 for none.
 * Entries that are not absolute, or do not resolve, are dropped; after an
 * empty entry the rest are taken as written (canonicalize_ceiling_entry). */
static long ceiling_len(const char *path, const char *ceilings)
{
	const char *p = ceilings;
	int as_written = 0;
	long best = -1;

	if (!p || !strcmp(path, "/"))
		return -1;
	while (p) {
		const char *colon = strchr(p, ':');
		size_t n = colon ? (size_t)(colon - p) : strlen(p);
		char *entry = xstrndup(p, n), *real = NULL;
		const char *c;
		size_t len;

		p = colon ? colon + 1 : NULL;
		if (!*entry)
			as_written = 1;
		if (*entry == '/' && !as_written)
			real = realpath(entry, NULL);
		if (*entry != '/' || (!as_written && !real)) {
			free(entry);
			continue;
		}
		c = real ? real : entry;
		len = strlen(c);
		if (len && c[len - 1] == '/')
			len--;
		if (!strncmp(path, c, len) && path[len] == '/' && path[len + 1] &&
		    (long)len > best)
			best = (long)len;
		free(real);
		free(entry);
	}
	return best;
}

/* is_git_directory (setup.c), without GIT_OBJECT_DIRECTORY: HEAD, and
 * objects/ and refs/ that can be searched. */
static int is_git_dir(const char *dotgit)
{
	static const char *const dirs[] = { "objects", "refs" };
	char *p = path_join(dotgit, "HEAD");
	struct stat st;
	int ok = lstat(p, &st) == 0 && (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode));
	size_t i;

	free(p);
	for (i = 0; ok && i < ARRAY_SIZE(dirs); i++) {
		p = path_join(dotgit, dirs[i]);
		ok = access(p, X_OK) == 0;
		free(p);
	}
	return ok;
}

/* A .git file git reads as one: it starts "gitdir: " and names a path. */
static int is_gitfile(const char *dotgit)
{
	struct blob b;
	int ok;

	if (saferead_path(dotgit, GITFILE_CAP, &b) < 0)
		return 0;
	ok = !strncmp(b.data, "gitdir: ", 8) && b.data[8] && b.data[8] != '\n';
	blob_release(&b);
	return ok;
}

/* is_path_owned_by_current_uid (git-compat-util.h): path is the user's;
 * under root, a path root does not own is judged against SUDO_UID. */
static int owned(const char *path, const struct gittop_env *e)
{
	struct stat st;
	uid_t uid = e->euid;
	long sudo;

	if (lstat(path, &st) < 0)
		return 0;
	if (uid == 0) {
		if (st.st_uid == 0)
			return 1;
		if (e->sudo_uid && parse_long(e->sudo_uid, 0, LONG_MAX, &sudo) == 0)
			uid = (uid_t)sudo;
	}
	return st.st_uid == uid;
}

enum look { LOOK_ON, LOOK_FOUND, LOOK_STOP };

/* Look for .git in dir: go on up, found (g filled), or stop (g->stop). */
static enum look look_in(const char *dir, const struct gittop_env *e, struct gittop *g)
{
	char *dotgit = path_join(dir, ".git");
	struct stat st;
	enum look r = LOOK_ON;

	if (stat(dotgit, &st) < 0) {
		if (errno != ENOENT && errno != ENOTDIR) {
			g->stop = GITTOP_UNREADABLE;
			r = LOOK_STOP;
		}
	} else if (S_ISDIR(st.st_mode)) {
		if (is_git_dir(dotgit))
			r = LOOK_FOUND;
	} else if (S_ISREG(st.st_mode) && is_gitfile(dotgit)) {
		g->gitfile = 1;
		r = LOOK_FOUND;
	} else {
		g->stop = GITTOP_BAD_GITFILE;
		r = LOOK_STOP;
	}
	if (r == LOOK_FOUND && !(owned(dir, e) && owned(dotgit, e))) {
		g->gitfile = 0;
		g->stop = GITTOP_OWNER;
		r = LOOK_STOP;
	} else if (r == LOOK_FOUND) {
		g->stop = GITTOP_FOUND;
	}
	free(dotgit);
	return r;
}

void gittop_find(const char *start, const struct gittop_env *e, struct gittop *g)
{
	long ceiling = ceiling_len(start, e->ceilings);
	char *dir = xstrdup(start);
	struct stat st;
	dev_t dev;

	memset(g, 0, sizeof(*g));
	if (stat(dir, &st) < 0) {
		g->stop = GITTOP_UNREADABLE;
		g->dir = dir;
		return;
	}
	dev = st.st_dev;
	for (;;) {
		char *slash, keep;
		size_t plen, cut;

		if (look_in(dir, e, g) != LOOK_ON) {
			g->dir = dir;
			return;
		}
		slash = strrchr(dir, '/');
		if (!slash || !strcmp(dir, "/")) {
			g->stop = GITTOP_NONE;
			free(dir);
			return;
		}
		/* the parent, of length plen ("/" counts as 0, as git's
		 * offsets do) */
		plen = (size_t)(slash - dir);
		cut = plen ? plen : 1;
		keep = dir[cut];
		dir[cut] = '\0';
		if (ceiling >= 0 && (long)plen <= ceiling) {
			g->stop = GITTOP_CEILING;
			g->dir = dir;
			return;
		}
		if (e->across_fs)
			continue;
		if (stat(dir, &st) < 0) {
			g->stop = GITTOP_UNREADABLE;
			g->dir = dir;
			return;
		}
		if (st.st_dev != dev) {
			/* stopped at the mount point: the child, the last
			 * directory on the start's file system */
			dir[cut] = keep;
			g->stop = GITTOP_MOUNT;
			g->dir = dir;
			return;
		}
	}
}

void gittop_release(struct gittop *g)
{
	free(g->dir);
	memset(g, 0, sizeof(*g));
}

/* "../.." from cwd up to top, a directory that holds it ("." for itself). */
static char *rel_up(const char *cwd, const char *top)
{
	struct buf b = BUF_INIT;
	const char *p = cwd + (strcmp(top, "/") ? strlen(top) : 0);

	for (;;) {
		p += strspn(p, "/");
		if (!*p)
			break;
		buf_puts(&b, b.len ? "/.." : "..");
		p += strcspn(p, "/");
	}
	return b.len ? buf_detach(&b) : xstrdup(".");
}

static char *why_stopped(const struct gittop *g)
{
	struct buf b = BUF_INIT;

	switch (g->stop) {
	case GITTOP_MOUNT:
		buf_printf(&b, "no .git up to %s, a mount point: the search stops "
			   "at the edge of a file system, as git's does "
			   "(GIT_DISCOVERY_ACROSS_FILESYSTEM=1 lets both go on)", g->dir);
		break;
	case GITTOP_UNREADABLE:
		buf_printf(&b, "the search for .git stopped at %s: it cannot be "
			   "looked in", g->dir);
		break;
	case GITTOP_BAD_GITFILE:
		buf_printf(&b, "%s%s.git is not a gitfile (gitdir: PATH): git refuses "
			   "it too, and the search stopped there", g->dir,
			   strcmp(g->dir, "/") ? "/" : "");
		break;
	case GITTOP_OWNER:
		buf_printf(&b, "%s belongs to another user: not taken as the top, as "
			   "git does not take it (safe.directory is not read here: "
			   "give the directory to audit it)", g->dir);
		break;
	case GITTOP_FOUND:
	case GITTOP_NONE:
	case GITTOP_CEILING:
		return NULL;
	}
	return buf_detach(&b);
}

int gittop_from_cwd(char **rel, char **why)
{
	struct gittop_env e;
	struct gittop g;
	char *cwd = getcwd(NULL, 0);

	*rel = *why = NULL;
	if (!cwd)
		return 0;	/* a removed directory: nothing above it */
	gittop_env_get(&e);
	gittop_find(cwd, &e, &g);
	if (g.stop == GITTOP_FOUND)
		*rel = rel_up(cwd, g.dir);
	else
		*why = why_stopped(&g);
	gittop_release(&g);
	free(cwd);
	return *rel != NULL;
}
