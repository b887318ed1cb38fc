/* test_gitignore.c - the .gitignore matcher, row by row, checked against git
 *
 * Each row is a small repository: its rule files, one path (a file or a
 * directory), whether git ignores it and which file:line decides.  Where
 * git is installed every row is also built as a real repository and asked
 * of `git check-ignore --no-index` (spawned with fork/execvp, no shell), so
 * the expectations below are git's, not ours.
 */
#include "test.h"
#include "gitignore.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define GI ".gitignore"
#define EX ".git/info/exclude"
#define CG "config/.gitignore"

struct row {
	const char *files[6];	/* (path of a rule file, its content) pairs */
	const char *path;
	int is_dir;
	int want;		/* 1: ignored */
	const char *src;	/* deciding rule, NULL when no rule matches */
	unsigned line;
};

static const struct row rows[] = {
	/* a name without '/' matches at any depth */
	{ { GI, ".env\n" }, ".env", 0, 1, GI, 1 },
	{ { GI, ".env\n" }, "config/.env", 0, 1, GI, 1 },
	{ { GI, ".env\n" }, ".env.local", 0, 0, NULL, 0 },
	{ { GI, ".env\n" }, ".ENV", 0, 0, NULL, 0 },
	{ { GI, ".env\n" }, ".env", 1, 1, GI, 1 },
	/* a leading '/' anchors to the .gitignore's directory */
	{ { GI, "/.env\n" }, ".env", 0, 1, GI, 1 },
	{ { GI, "/.env\n" }, "config/.env", 0, 0, NULL, 0 },
	/* .env* and a later '!' */
	{ { GI, ".env*\n" }, ".env", 0, 1, GI, 1 },
	{ { GI, ".env*\n" }, ".env.local", 0, 1, GI, 1 },
	{ { GI, ".env*\n" }, "app/.env.production", 0, 1, GI, 1 },
	{ { GI, ".env*\n!.env.example\n" }, ".env.example", 0, 0, GI, 2 },
	{ { GI, ".env*\n!.env.example\n" }, ".env.local", 0, 1, GI, 1 },
	{ { GI, "!.env.example\n.env*\n" }, ".env.example", 0, 1, GI, 2 },
	{ { GI, ".env.*\n!.env.example\n" }, ".env", 0, 0, NULL, 0 },
	/* *.env */
	{ { GI, "*.env\n" }, "prod.env", 0, 1, GI, 1 },
	{ { GI, "*.env\n" }, ".env", 0, 1, GI, 1 },
	{ { GI, "*.env\n" }, "deploy/staging.env", 0, 1, GI, 1 },
	{ { GI, "*.env\n" }, ".env.local", 0, 0, NULL, 0 },
	/* leading double star */
	{ { GI, "**/.env\n" }, ".env", 0, 1, GI, 1 },
	{ { GI, "**/.env\n" }, "a/b/.env", 0, 1, GI, 1 },
	{ { GI, "**/config/.env\n" }, "config/.env", 0, 1, GI, 1 },
	{ { GI, "**/config/.env\n" }, "x/y/config/.env", 0, 1, GI, 1 },
	/* a middle '/' anchors too */
	{ { GI, "config/.env\n" }, "config/.env", 0, 1, GI, 1 },
	{ { GI, "config/.env\n" }, "app/config/.env", 0, 0, NULL, 0 },
	{ { GI, "config/.env\n" }, ".env", 0, 0, NULL, 0 },
	/* a single star stays inside one component */
	{ { GI, "*/.env\n" }, "config/.env", 0, 1, GI, 1 },
	{ { GI, "*/.env\n" }, ".env", 0, 0, NULL, 0 },
	{ { GI, "*/.env\n" }, "a/b/.env", 0, 0, NULL, 0 },
	{ { GI, "doc/*.txt\n" }, "doc/a.txt", 0, 1, GI, 1 },
	{ { GI, "doc/*.txt\n" }, "doc/x/a.txt", 0, 0, NULL, 0 },
	/* trailing and middle double star */
	{ { GI, "abc/**\n" }, "abc/x/y", 0, 1, GI, 1 },
	{ { GI, "abc/**\n" }, "abc", 1, 0, NULL, 0 },
	{ { GI, "abc/**\n!abc/keep\n" }, "abc/keep", 0, 0, GI, 2 },
	{ { GI, "a/**/b\n" }, "a/b", 0, 1, GI, 1 },
	{ { GI, "a/**/b\n" }, "a/x/y/b", 0, 1, GI, 1 },
	{ { GI, "a/**/b\n" }, "a/xb", 0, 0, NULL, 0 },
	{ { GI, "doc/**/*.txt\n" }, "doc/a.txt", 0, 1, GI, 1 },
	{ { GI, "doc/**/*.txt\n" }, "doc/x/y/a.txt", 0, 1, GI, 1 },
	{ { GI, "**\n" }, "a/b", 0, 1, GI, 1 },
	{ { GI, "foo**/bar\n" }, "foox/y/bar", 0, 1, GI, 1 },
	{ { GI, "x/a**b\n" }, "x/a/b", 0, 0, NULL, 0 },
	/* a trailing '/' matches directories only */
	{ { GI, "secrets/\n" }, "secrets", 1, 1, GI, 1 },
	{ { GI, "secrets/\n" }, "secrets", 0, 0, NULL, 0 },
	{ { GI, "secrets/\n" }, "a/secrets", 1, 1, GI, 1 },
	{ { GI, "/secrets/\n" }, "a/secrets", 1, 0, NULL, 0 },
	{ { GI, ".env/\n" }, ".env", 0, 0, NULL, 0 },
	/* nothing under an excluded directory comes back */
	{ { GI, "secrets/\n" }, "secrets/.env", 0, 1, GI, 1 },
	{ { GI, "logs\n!logs/keep.log\n" }, "logs/keep.log", 0, 1, GI, 1 },
	{ { GI, "logs/\n!logs/keep.log\n" }, "logs/keep.log", 0, 1, GI, 1 },
	{ { GI, "logs/*\n!logs/keep.log\n" }, "logs/keep.log", 0, 0, GI, 2 },
	{ { GI, "x/*\n" }, "x/y/z", 0, 1, GI, 1 },
	{ { GI, "/*\n" }, "a/x", 0, 1, GI, 1 },
	{ { GI, "/*\n!/keep/\n" }, "keep/.env", 0, 0, NULL, 0 },
	{ { GI, "*\n!*/\n!.env.example\n" }, "config/.env.example", 0, 0, GI, 3 },
	{ { GI, "*\n!*/\n!.env.example\n" }, "config/.env", 0, 1, GI, 1 },
	{ { GI, "config/\n", CG, "!.env\n" }, "config/.env", 0, 1, GI, 1 },
	/* comments, blank lines, escapes */
	{ { GI, "# .env\n\n" }, ".env", 0, 0, NULL, 0 },
	{ { GI, "#secret\n" }, "#secret", 0, 0, NULL, 0 },
	{ { GI, "\\#secret\n" }, "#secret", 0, 1, GI, 1 },
	{ { GI, " #secret\n" }, " #secret", 0, 1, GI, 1 },
	{ { GI, "\\!keep\n" }, "!keep", 0, 1, GI, 1 },
	{ { GI, "*\n!keep\n" }, "keep", 0, 0, GI, 2 },
	{ { GI, "\\*.env\n" }, "*.env", 0, 1, GI, 1 },
	{ { GI, "\\*.env\n" }, "x.env", 0, 0, NULL, 0 },
	{ { GI, "foo\\\n" }, "foo\\", 0, 0, NULL, 0 },
	/* trailing spaces go unless escaped; tabs stay */
	{ { GI, ".env   \n" }, ".env", 0, 1, GI, 1 },
	{ { GI, ".env\\ \n" }, ".env ", 0, 1, GI, 1 },
	{ { GI, ".env\\ \n" }, ".env", 0, 0, NULL, 0 },
	{ { GI, ".env \\ \n" }, ".env  ", 0, 1, GI, 1 },
	{ { GI, ".env\t\n" }, ".env", 0, 0, NULL, 0 },
	{ { GI, "my file\n" }, "my file", 0, 1, GI, 1 },
	/* ? and bracket expressions */
	{ { GI, "?.env\n" }, "a.env", 0, 1, GI, 1 },
	{ { GI, "?.env\n" }, "ab.env", 0, 0, NULL, 0 },
	{ { GI, "x/a?c\n" }, "x/a/c", 0, 0, NULL, 0 },
	{ { GI, "[abc].txt\n" }, "b.txt", 0, 1, GI, 1 },
	{ { GI, "[abc].txt\n" }, "d.txt", 0, 0, NULL, 0 },
	{ { GI, "[!abc].txt\n" }, "d.txt", 0, 1, GI, 1 },
	{ { GI, "[!abc].txt\n" }, "a.txt", 0, 0, NULL, 0 },
	{ { GI, "[^abc].txt\n" }, "d.txt", 0, 1, GI, 1 },
	{ { GI, "v[0-9].log\n" }, "v7.log", 0, 1, GI, 1 },
	{ { GI, "v[0-9].log\n" }, "vx.log", 0, 0, NULL, 0 },
	{ { GI, "[a-c-e]\n" }, "-", 0, 1, GI, 1 },
	{ { GI, "[a-c-e]\n" }, "d", 0, 0, NULL, 0 },
	{ { GI, "[]a].txt\n" }, "].txt", 0, 1, GI, 1 },
	{ { GI, "[[:digit:]][[:upper:]]\n" }, "7Q", 0, 1, GI, 1 },
	{ { GI, "a[[:space:]]b\n" }, "a\tb", 0, 1, GI, 1 },
	{ { GI, "a[[:space:]]b\n" }, "a\vb", 0, 0, NULL, 0 },
	{ { GI, "a[[:cntrl:]]b\n" }, "a\001b", 0, 1, GI, 1 },
	{ { GI, "a[[:punct:]]b\n" }, "a_b", 0, 1, GI, 1 },
	{ { GI, "[[:alnum:]][[:alpha:]][[:xdigit:]][[:lower:]]\n" }, "1aFz", 0, 1, GI, 1 },
	{ { GI, "[[:xdigit:]]\n" }, "g", 0, 0, NULL, 0 },
	{ { GI, "x[[:graph:]][[:print:]][[:blank:]]\n" }, "x~ \t", 0, 1, GI, 1 },
	{ { GI, "x[[:graph:]]\n" }, "x ", 0, 0, NULL, 0 },
	{ { GI, "x[[:cntrl:]][![:print:]]\n" }, "x\177\033", 0, 1, GI, 1 },
	{ { GI, "x[[:lower:][:digit:]-]\n" }, "x-", 0, 1, GI, 1 },
	{ { GI, "x[\\]]\n" }, "x]", 0, 1, GI, 1 },
	{ { GI, "x/a[/]c\n" }, "x/a/c", 0, 0, NULL, 0 },
	{ { GI, "[a-\n" }, "[a-", 0, 0, NULL, 0 },
	{ { GI, "[[:nope:]]x\n" }, "ax", 0, 0, NULL, 0 },
	{ { GI, "[[:x]\n" }, ":", 0, 1, GI, 1 },
	/* nested .gitignore files: deeper wins, anchored to their directory */
	{ { GI, "*.env\n", CG, "!prod.env\n" }, "config/prod.env", 0, 0, CG, 1 },
	{ { GI, "*.env\n", CG, "!prod.env\n" }, "prod.env", 0, 1, GI, 1 },
	{ { CG, "/.env\n" }, "config/.env", 0, 1, CG, 1 },
	{ { CG, "/.env\n" }, "config/sub/.env", 0, 0, NULL, 0 },
	{ { CG, "sub/.env\n" }, "config/sub/.env", 0, 1, CG, 1 },
	{ { CG, "sub/.env\n" }, "sub/.env", 0, 0, NULL, 0 },
	{ { CG, ".env\n" }, ".env", 0, 0, NULL, 0 },
	{ { CG, ".env\n" }, "config/x/.env", 0, 1, CG, 1 },
	{ { "a/.gitignore", "b/\n" }, "a/b/.env", 0, 1, "a/.gitignore", 1 },
	{ { GI, "!.env\n", "a/.gitignore", ".env\n" }, "a/.env", 0, 1, "a/.gitignore", 1 },
	{ { "a/.gitignore", "/b/*\n", "a/b/.gitignore", "!.env\n" },
	  "a/b/.env", 0, 0, "a/b/.gitignore", 1 },
	/* .git/info/exclude is the lowest */
	{ { EX, ".env\n" }, ".env", 0, 1, EX, 1 },
	{ { EX, ".env\n", GI, "!.env\n" }, ".env", 0, 0, GI, 1 },
	{ { EX, "!.env\n", GI, ".env\n" }, ".env", 0, 1, GI, 1 },
	{ { EX, "secrets/\n", "secrets/.gitignore", "!.env\n" }, "secrets/.env", 0, 1, EX, 1 },
	/* file format: CRLF, BOM, no final newline, line numbers */
	{ { GI, ".env\r\n*.log\r\n" }, "x.log", 0, 1, GI, 2 },
	{ { GI, "\xef\xbb\xbf.env\n" }, ".env", 0, 1, GI, 1 },
	{ { GI, "a\n.env" }, ".env", 0, 1, GI, 2 },
	{ { GI, "\n\n# c\n.env\n" }, ".env", 0, 1, GI, 4 },
};

/* The base directory of a rule file: "" for the root and info/exclude. */
static char *file_base(const char *name)
{
	const char *slash = strrchr(name, '/');

	if (!strcmp(name, EX) || !slash)
		return xstrdup("");
	return xstrndup(name, (size_t)(slash - name));
}

/* info/exclude first, then shallower before deeper, as a caller must. */
static int file_rank(const char *name)
{
	int n = 0;

	if (!strcmp(name, EX))
		return -1;
	for (; *name; name++)
		n += *name == '/';
	return n;
}

static struct gitignore *row_rules(const struct row *r)
{
	struct gitignore *g = gitignore_new();
	int rank, i;

	for (rank = -1; rank < 8; rank++) {
		for (i = 0; i < 6 && r->files[i]; i += 2) {
			char *base;

			if (file_rank(r->files[i]) != rank)
				continue;
			base = file_base(r->files[i]);
			gitignore_add(g, r->files[i + 1], strlen(r->files[i + 1]),
				      base, r->files[i]);
			free(base);
		}
	}
	return g;
}

/* A printable name for a row in failure messages (static buffer). */
static const char *row_name(size_t i)
{
	static char s[256];
	char *clean = text_clean(rows[i].path);

	snprintf(s, sizeof(s), "row %zu '%s'%s", i, clean, rows[i].is_dir ? "/" : "");
	free(clean);
	return s;
}

static void test_rows(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct row *r = &rows[i];
		struct gitignore *g = row_rules(r);
		struct gitignore_match m;
		int got = gitignore_match(g, r->path, r->is_dir, &m);

		CHECK_INT(got, r->want, "%s", row_name(i));
		CHECK_STR(m.source, r->src, "%s", row_name(i));
		CHECK_INT(m.line, r->line, "%s", row_name(i));
		gitignore_free(g);
	}
}

/* ---- the same rows against real git ---- */

/*
 * Run git with argv in dir; its stdout goes to out when out is not NULL.
 * The environment is pinned so that no user or system configuration (a
 * global excludesFile above all) and no outer repository takes part.
 * Returns the exit status, or -1 when git could not be run.
 */
static int git_run(const char *dir, const char *const argv[], struct buf *out)
{
	int fds[2] = { -1, -1 }, st;
	char chunk[4096];
	ssize_t n;
	pid_t pid;

	if (out && pipe(fds) < 0)
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDWR);

		if (devnull < 0 || chdir(dir) < 0)
			_exit(126);
		dup2(devnull, 0);
		dup2(out ? fds[1] : devnull, 1);
		dup2(devnull, 2);
		unsetenv("GIT_DIR");
		unsetenv("GIT_WORK_TREE");
		unsetenv("GIT_INDEX_FILE");
		unsetenv("GIT_OBJECT_DIRECTORY");
		unsetenv("GIT_COMMON_DIR");
		setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
		setenv("GIT_CONFIG_GLOBAL", "/dev/null", 1);
		setenv("HOME", dir, 1);
		setenv("XDG_CONFIG_HOME", dir, 1);
		setenv("LC_ALL", "C", 1);
		execvp("git", (char *const *)argv);
		_exit(127);
	}
	if (out) {
		close(fds[1]);
		while ((n = read(fds[0], chunk, sizeof(chunk))) != 0) {
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				break;
			buf_add(out, chunk, (size_t)n);
		}
		close(fds[0]);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int git_available(void)
{
	const char *argv[] = { "git", "--version", NULL };

	return git_run("/", argv, NULL) == 0;
}

static void make_dirs(const char *root, const char *rel)
{
	char *path = path_join(root, rel);
	char *p;

	for (p = path + strlen(root) + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	mkdir(path, 0755);
	free(path);
}

/* Build row i as a repository and compare git's verdict and rule with it. */
static void git_row(size_t i)
{
	const struct row *r = &rows[i];
	const char *init[] = { "git", "init", "-q", ".", NULL };
	/* "./" keeps a leading ':' from reading as pathspec magic */
	char *arg = path_join(".", r->path);
	const char *quiet[] = { "git", "check-ignore", "-q", "--no-index", "--",
				arg, NULL };
	const char *verbose[] = { "git", "check-ignore", "-v", "-n",
				  "--no-index", "--", arg, NULL };
	struct buf out = BUF_INIT;
	char name[32], *dir;
	const char *src = NULL;
	unsigned line = 0;
	int j, st;

	snprintf(name, sizeof(name), "gitignore/row%zu", i);
	dir = xstrdup(test_tmpdir(name));
	if (git_run(dir, init, NULL) != 0) {
		CHECK(0, "%s: git init failed in %s", row_name(i), dir);
		free(arg);
		free(dir);
		return;
	}
	for (j = 0; j < 6 && r->files[j]; j += 2)
		test_write_str(dir, r->files[j], r->files[j + 1]);
	if (r->is_dir)
		make_dirs(dir, r->path);
	else
		test_write(dir, r->path, "", 0);

	st = git_run(dir, quiet, NULL);
	CHECK(st == 0 || st == 1, "%s: git check-ignore exited %d", row_name(i), st);
	CHECK_INT(st == 0, r->want, "%s: git disagrees", row_name(i));

	/* -v -n: "source:line:pattern<TAB>path", "::<TAB>path" for none;
	 * no source name in the rows holds a ':' */
	git_run(dir, verbose, &out);
	if (out.len && out.s[0] != ':') {
		char *colon = strchr(out.s, ':'), *end;
		long n;

		if (colon) {
			*colon = '\0';
			src = out.s;
			end = strchr(colon + 1, ':');
			if (end)
				*end = '\0';
			if (parse_long(colon + 1, 1, 1000000, &n) == 0)
				line = (unsigned)n;
		}
	}
	CHECK_STR(src, r->src, "%s: git's deciding rule", row_name(i));
	CHECK_INT(line, r->line, "%s: git's deciding line", row_name(i));
	buf_release(&out);
	free(arg);
	free(dir);
}

static void test_against_git(void)
{
	const char *twinned = getenv("TEST_TWINNED");
	size_t i;

	/* git's verdicts on the rows do not depend on the build: make asan
	 * TWINNED=1 (CI, after make check has asked git) leaves them out */
	if (twinned && !strcmp(twinned, "1")) {
		printf("note: %zu rows checked against git by make check, not again\n",
		       ARRAY_SIZE(rows));
		return;
	}
	if (!git_available()) {
		printf("note: git not found, %zu rows not checked against git\n",
		       ARRAY_SIZE(rows));
		return;
	}
	for (i = 0; i < ARRAY_SIZE(rows); i++)
		git_row(i);
}

/* ---- the API beyond the table ---- */

static void test_api(void)
{
	struct gitignore *g = gitignore_new();
	struct gitignore_match m;
	static const char nul[] = ".env\0junk\n*.log";

	/* no rules: nothing ignored, no rule reported */
	CHECK_INT(gitignore_match(g, ".env", 0, &m), 0, "empty set");
	CHECK(m.source == NULL && m.line == 0 && m.pattern == NULL, "empty match");
	CHECK_INT(gitignore_match(g, "", 0, NULL), 0, "empty path");
	gitignore_add(g, NULL, 0, NULL, "empty");
	CHECK_INT(gitignore_match(g, ".env", 0, NULL), 0, "empty file");
	gitignore_free(g);

	/* the pattern is reported as written; m may be NULL */
	g = gitignore_new();
	{
		const char *s = ".env*\n!.env.example  \nsecrets/\n";

		gitignore_add(g, s, strlen(s), "", ".gitignore");
	}
	CHECK_INT(gitignore_match(g, ".env.example", 0, &m), 0, "negated");
	CHECK_STR(m.pattern, "!.env.example", "pattern as written");
	CHECK_INT(m.negated, 1, "negated flag");
	CHECK_INT(m.incomplete, 0, "complete");
	CHECK_INT(gitignore_match(g, ".env", 0, NULL), 1, "m may be NULL");
	CHECK_INT(gitignore_match(g, "secrets/", 0, &m), 1, "trailing slash is a directory");
	CHECK_STR(m.pattern, "secrets/", "dir pattern as written");
	CHECK_INT(gitignore_match(g, "secrets", 0, NULL), 0, "a file named secrets");
	gitignore_free(g);

	/* buf/len is honoured: a NUL ends a line's pattern, len ends the file */
	g = gitignore_new();
	gitignore_add(g, nul, sizeof(nul) - 1, "", ".gitignore");
	CHECK_INT(gitignore_match(g, ".env", 0, &m), 1, "pattern before NUL");
	CHECK_INT(gitignore_match(g, "a.log", 0, &m), 1, "line after NUL");
	CHECK_INT(m.line, 2, "line after NUL counted");
	gitignore_free(g);
	g = gitignore_new();
	gitignore_add(g, nul, 4, "", ".gitignore");
	CHECK_INT(gitignore_match(g, ".env", 0, NULL), 1, "len without newline");
	CHECK_INT(gitignore_match(g, "a.log", 0, NULL), 0, "past len");
	gitignore_free(g);

	/* base given with a trailing slash, and "." for the root */
	g = gitignore_new();
	gitignore_add(g, "/.env\n", strlen("/.env\n"), "config/", "config/.gitignore");
	gitignore_add(g, "/top\n", strlen("/top\n"), ".", ".gitignore");
	CHECK_INT(gitignore_match(g, "config/.env", 0, NULL), 1, "base with slash");
	CHECK_INT(gitignore_match(g, "configx/.env", 0, NULL), 0, "base is a whole component");
	CHECK_INT(gitignore_match(g, "top", 0, NULL), 1, "base \".\"");
	gitignore_free(g);
}

/* Hostile patterns end in bounded time without crashing, flagged incomplete. */
static void test_hostile(void)
{
	struct gitignore *g = gitignore_new();
	struct gitignore_match m;
	struct buf pat = BUF_INIT, path = BUF_INIT;
	struct timespec t0, t1;
	double ms;
	int i;

	for (i = 0; i < 20; i++)
		buf_puts(&pat, "**/a/");
	buf_puts(&pat, "b\n");
	for (i = 0; i < 50000; i++)
		buf_puts(&pat, "**/");
	buf_puts(&pat, "x\n");
	for (i = 0; i < 5000; i++)
		buf_puts(&pat, "*a");
	buf_puts(&pat, "\n[[[[[[[[[[[[[[[[[[[[[[[[\n");
	gitignore_add(g, pat.s, pat.len, "", ".gitignore");
	for (i = 0; i < 60; i++)
		buf_puts(&path, "a/");
	buf_puts(&path, "c");

	clock_gettime(CLOCK_MONOTONIC, &t0);
	CHECK_INT(gitignore_match(g, path.s, 0, &m), 0, "hostile patterns");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	CHECK(ms < 2000, "hostile patterns took %.0f ms", ms);
	CHECK_INT(m.incomplete, 1, "gave up, and says so");
	buf_release(&pat);
	buf_release(&path);
	gitignore_free(g);
}

void test_main(void)
{
	test_rows();
	test_api();
	test_hostile();
	test_against_git();
}
