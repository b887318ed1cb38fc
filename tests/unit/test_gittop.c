/* test_gittop.c - the top of the work tree found as git finds it: .git
 * directories git takes and ones it walks past, gitfiles, ceilings (as
 * written and resolved), ownership, file-system boundaries.  Every search
 * has the scratch directory as a ceiling, so that nothing above it (a
 * checkout the tests run in) can answer. */
#include "test.h"
#include "gittop.h"
#include "util.h"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char base[PATH_MAX];

static const char *at(const char *rel)
{
	static char p[8][PATH_MAX + 64];
	static int k;

	k = (k + 1) % 8;
	snprintf(p[k], sizeof(p[k]), "%s/%s", base, rel);
	return p[k];
}

/* A .git directory git takes: HEAD, objects/, refs/. */
static void git_dir(const char *top)
{
	char rel[PATH_MAX];

	snprintf(rel, sizeof(rel), "%s/.git/HEAD", top);
	test_write_str(base, rel, "ref: refs/heads/main\n");
	snprintf(rel, sizeof(rel), "%s/.git/objects/.keep", top);
	test_write_str(base, rel, "");
	snprintf(rel, sizeof(rel), "%s/.git/refs/heads/.keep", top);
	test_write_str(base, rel, "");
}

static void env_init(struct gittop_env *e, const char *ceilings)
{
	e->ceilings = ceilings;
	e->across_fs = 0;
	e->euid = geteuid();
	e->sudo_uid = NULL;
}

/* Search from base/start: "FOUND rel", "CEILING rel", ... with rel the
 * directory below base ("" for base itself), "NONE". */
static const char *find(const char *start, const struct gittop_env *e, int *gitfile)
{
	static const char *const names[] = {
		[GITTOP_FOUND] = "FOUND", [GITTOP_NONE] = "NONE",
		[GITTOP_CEILING] = "CEILING", [GITTOP_MOUNT] = "MOUNT",
		[GITTOP_UNREADABLE] = "UNREADABLE", [GITTOP_BAD_GITFILE] = "BAD_GITFILE",
		[GITTOP_OWNER] = "OWNER",
	};
	static char out[PATH_MAX + 32];
	struct gittop g;
	size_t n = strlen(base);

	gittop_find(at(start), e, &g);
	if (!g.dir)
		snprintf(out, sizeof(out), "%s", names[g.stop]);
	else if (!strncmp(g.dir, base, n) && (!g.dir[n] || g.dir[n] == '/'))
		snprintf(out, sizeof(out), "%s %s", names[g.stop], g.dir + n + !!g.dir[n]);
	else
		snprintf(out, sizeof(out), "%s %s", names[g.stop], g.dir);
	if (gitfile)
		*gitfile = g.gitfile;
	gittop_release(&g);
	return out;
}

static void test_walk(void)
{
	struct gittop_env e;
	int gitfile = -1;

	env_init(&e, base);
	git_dir("repo");
	test_write_str(base, "repo/a/b/.keep", "");
	CHECK_STR(find("repo/a/b", &e, &gitfile), "FOUND repo", "two levels up");
	CHECK_INT(gitfile, 0, "a .git directory");
	CHECK_STR(find("repo", &e, NULL), "FOUND repo", "the start itself");
	/* a linked worktree or a submodule: .git is a file */
	test_write_str(base, "wt/.git", "gitdir: ../repo/.git/worktrees/wt\n");
	test_write_str(base, "wt/sub/.keep", "");
	CHECK_STR(find("wt/sub", &e, &gitfile), "FOUND wt", "a gitfile");
	CHECK_INT(gitfile, 1, "... said so");
	/* a .git directory git does not take is walked past */
	test_write_str(base, "repo/a/.git/info/exclude", "x\n");
	CHECK_STR(find("repo/a/b", &e, NULL), "FOUND repo", "an empty .git walked past");
	/* a .git file that is no gitfile stops the search, as git stops */
	test_write_str(base, "bad/.git", "not a pointer\n");
	test_write_str(base, "bad/x/.keep", "");
	CHECK_STR(find("bad/x", &e, NULL), "BAD_GITFILE bad", "no gitfile");
	test_write_str(base, "bad/.git", "gitdir: \n");
	CHECK_STR(find("bad/x", &e, NULL), "BAD_GITFILE bad", "a gitfile naming nothing");
	/* nothing up to the ceiling */
	test_write_str(base, "none/x/.keep", "");
	CHECK_STR(find("none/x", &e, NULL), "CEILING ", "the ceiling is not looked in");
}

static void test_ceilings(void)
{
	struct gittop_env e;
	char c[3 * PATH_MAX];

	/* a ceiling inside the work tree hides its top */
	snprintf(c, sizeof(c), "%s:%s", base, at("repo"));
	env_init(&e, c);
	CHECK_STR(find("repo/a/b", &e, NULL), "CEILING repo", "a ceiling below the top");
	/* ... but the start directory is always looked in */
	CHECK_STR(find("repo", &e, NULL), "FOUND repo", "the start under a ceiling");
	/* a trailing slash is the same ceiling; relative entries are dropped */
	snprintf(c, sizeof(c), "repo:%s:%s/", base, at("repo"));
	env_init(&e, c);
	CHECK_STR(find("repo/a/b", &e, NULL), "CEILING repo", "trailing slash");
	/* a ceiling through a symlink is resolved, unless an empty entry
	 * came before it */
	CHECK(symlink(at("repo"), at("link")) == 0 || access(at("link"), F_OK) == 0,
	      "symlink");
	snprintf(c, sizeof(c), "%s:%s", base, at("link"));
	env_init(&e, c);
	CHECK_STR(find("repo/a/b", &e, NULL), "CEILING repo", "a symlinked ceiling");
	snprintf(c, sizeof(c), "%s::%s", base, at("link"));
	env_init(&e, c);
	CHECK_STR(find("repo/a/b", &e, NULL), "FOUND repo", "as written after ''");
	/* an entry that does not resolve is dropped */
	snprintf(c, sizeof(c), "%s:%s", base, at("no/such"));
	env_init(&e, c);
	CHECK_STR(find("repo/a/b", &e, NULL), "FOUND repo", "an entry that is not there");
}

static void test_owner(void)
{
	struct gittop_env e;
	char uid[32];

	/* another user's work tree is not taken */
	env_init(&e, base);
	e.euid = geteuid() + 4242;
	CHECK_STR(find("repo/a/b", &e, NULL), "OWNER repo", "another user's");
	/* under root, SUDO_UID is the user: the user's tree is taken */
	snprintf(uid, sizeof(uid), "%ld", (long)geteuid());
	e.euid = 0;
	e.sudo_uid = uid;
	CHECK_STR(find("repo/a/b", &e, NULL), "FOUND repo", "root with SUDO_UID");
	if (geteuid() != 0) {
		e.sudo_uid = NULL;
		CHECK_STR(find("repo/a/b", &e, NULL), "OWNER repo",
			  "root without SUDO_UID: a user's tree is not root's");
	}
}

/* The last directory from base up on base's file system, when one above
 * it is on another (a mount point), else NULL. */
static char *fs_edge(void)
{
	char *dir = xstrdup(base);
	struct stat st;
	dev_t dev;

	if (stat(dir, &st) < 0) {
		free(dir);
		return NULL;
	}
	dev = st.st_dev;
	while (strcmp(dir, "/")) {
		char *slash = strrchr(dir, '/');
		size_t cut = slash == dir ? 1 : (size_t)(slash - dir);
		char keep = dir[cut];

		dir[cut] = '\0';
		if (stat(dir, &st) == 0 && st.st_dev != dev) {
			dir[cut] = keep;
			return dir;
		}
	}
	free(dir);
	return NULL;
}

/* The search stops at the edge of the scratch directory's file system,
 * unless told to go on (GIT_DISCOVERY_ACROSS_FILESYSTEM). */
static void test_mount(void)
{
	struct gittop_env e;
	struct gittop g;
	char *edge = fs_edge();

	env_init(&e, NULL);
	gittop_find(at("none/x"), &e, &g);
	if (g.stop == GITTOP_FOUND) {	/* a .git above, on our file system */
		printf("note: %s is in a work tree: the mount test is skipped\n", base);
	} else if (edge) {
		CHECK_INT(g.stop, GITTOP_MOUNT, "stops at the mount point");
		CHECK_STR(g.dir, edge, "... which it names");
		gittop_release(&g);
		e.across_fs = 1;
		gittop_find(at("none/x"), &e, &g);
		CHECK(g.stop != GITTOP_MOUNT, "across file systems: no stop (%d)", g.stop);
	} else {
		CHECK_INT(g.stop, GITTOP_NONE, "up to / on one file system");
	}
	gittop_release(&g);
	free(edge);
}

static void test_from_cwd(void)
{
	char *here = getcwd(NULL, 0), *rel, *why;

	setenv("GIT_CEILING_DIRECTORIES", base, 1);
	CHECK(chdir(at("repo/a/b")) == 0, "chdir");
	CHECK_INT(gittop_from_cwd(&rel, &why), 1, "found from the cwd");
	CHECK_STR(rel, "../..", "the path up");
	CHECK(why == NULL, "no note");
	free(rel);
	free(why);
	CHECK(chdir(at("repo")) == 0, "chdir");
	CHECK_INT(gittop_from_cwd(&rel, &why), 1, "the cwd is the top");
	CHECK_STR(rel, ".", "itself");
	free(rel);
	free(why);
	CHECK(chdir(at("none/x")) == 0, "chdir");
	CHECK_INT(gittop_from_cwd(&rel, &why), 0, "none");
	CHECK(rel == NULL && why == NULL, "no top, no note (a ceiling is the user's)");
	free(why);
	CHECK(chdir(at("bad/x")) == 0, "chdir");
	CHECK_INT(gittop_from_cwd(&rel, &why), 0, "a bad gitfile");
	CHECK(why && strstr(why, "is not a gitfile"), "says so: %s", why ? why : "");
	free(why);
	unsetenv("GIT_CEILING_DIRECTORIES");
	if (here && chdir(here) != 0)
		printf("note: cannot go back to %s\n", here);
	free(here);
}

void test_main(void)
{
	char *canon;

	snprintf(base, sizeof(base), "%s", test_tmpdir("gittop"));
	canon = realpath(base, NULL);
	snprintf(base, sizeof(base), "%s", canon);
	free(canon);
	test_walk();
	test_ceilings();
	test_owner();
	test_mount();
	test_from_cwd();
}
