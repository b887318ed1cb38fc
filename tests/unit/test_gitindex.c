/* test_gitindex.c - the index reader against indexes real git wrote
 * (versions 2, 3 and 4, SHA-1 and SHA-256 where git supports it), and
 * against broken files. */
#include "test.h"
#include "saferead.h"
#include "gitindex.h"
#include "util.h"

#include <errno.h>
#include <sys/wait.h>
#include <unistd.h>

/* Run git with argv in dir, quietly; returns its exit status or -1. */
static int git(const char *dir, const char *const *argv)
{
	const char *args[16];
	size_t i, n = 0;
	pid_t pid;
	int st;

	args[n++] = "git";
	args[n++] = "-C";
	args[n++] = dir;
	for (i = 0; argv[i] && n < 15; i++)
		args[n++] = argv[i];
	args[n] = NULL;
	pid = fork();
	if (pid == 0) {
		freopen("/dev/null", "w", stdout);
		freopen("/dev/null", "w", stderr);
		setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
		setenv("HOME", "/nonexistent", 1);
		execvp("git", (char *const *)args);
		_exit(127);
	}
	if (pid < 0)
		return -1;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void check_repo(const char *name, const char *format, const char *version)
{
	const char *dir = test_tmpdir(name);
	const char *init[] = { "init", "-q", format ? "--object-format" : NULL, format, NULL };
	const char *cfg[] = { "config", "index.version", version, NULL };
	const char *add[] = { "add", "-f", ".env", "a.txt", "sub/dir/.env", "z/long-name-here.txt",
			      NULL };
	const char *ext[] = { "update-index", "--skip-worktree", "a.txt", NULL };
	char path[4096];
	struct blob b;
	size_t hash = format ? 32 : 20;

	if (git(dir, init) != 0) {
		SKIP("the %s repository rows: git cannot make one",
		     format ? format : "sha1");
		return;
	}
	git(dir, cfg);
	test_write_str(dir, ".env", "A=1\n");
	test_write_str(dir, "a.txt", "x\n");
	test_write_str(dir, "sub/dir/.env", "B=1\n");
	test_write_str(dir, "z/long-name-here.txt", "y\n");
	test_write_str(dir, "untracked.env", "C=1\n");
	CHECK(git(dir, add) == 0, "%s: git add", name);
	if (!strcmp(version, "3"))
		git(dir, ext);	/* an extended flag: only in version 3 and up */
	snprintf(path, sizeof(path), "%s/.git/index", dir);
	if (saferead_path(path, 1 << 20, &b) < 0) {
		CHECK(0, "%s: read the index", name);
		return;
	}
	CHECK_INT(gitindex_tracked(b.data, b.len, hash, ".env"), 1, "%s: .env", name);
	CHECK_INT(gitindex_tracked(b.data, b.len, hash, "sub/dir/.env"), 1, "%s: sub/dir/.env", name);
	CHECK_INT(gitindex_tracked(b.data, b.len, hash, "z/long-name-here.txt"), 1, "%s: z", name);
	CHECK_INT(gitindex_tracked(b.data, b.len, hash, "a.txt"), 1, "%s: a.txt", name);
	CHECK_INT(gitindex_tracked(b.data, b.len, hash, "untracked.env"), 0, "%s: untracked", name);
	CHECK_INT(gitindex_tracked(b.data, b.len, hash, "sub/.env"), 0, "%s: sub/.env", name);
	CHECK_INT(gitindex_tracked(b.data, b.len, hash, ".en"), 0, "%s: prefix only", name);
	/* a directory that holds tracked files is tracked (a write to it
	 * changes them); a name that only begins the same is not */
	CHECK_INT(gitindex_tracked(b.data, b.len, hash, "sub/dir"), 1, "%s: sub/dir", name);
	CHECK_INT(gitindex_tracked(b.data, b.len, hash, "sub"), 1, "%s: sub", name);
	CHECK_INT(gitindex_tracked(b.data, b.len, hash, "su"), 0, "%s: su", name);
	CHECK_INT(gitindex_tracked(b.data, b.len, hash, "z/long"), 0, "%s: z/long", name);
	/* many at once, in any order, one of them twice: the same answers */
	{
		static const char *const many[] = {
			"z/long", "sub", ".env", "untracked.env", "sub", "su",
			"sub/dir/.env", "a.txt", "sub/.env", "z",
		};
		static const signed char want[] = { 0, 1, 1, 0, 1, 0, 1, 1, 0, 1 };
		signed char got[10];
		size_t i;

		memset(got, 7, sizeof(got));
		CHECK_INT(gitindex_tracked_many(b.data, b.len, hash, many, 10, got), 0,
			  "%s: many", name);
		for (i = 0; i < 10; i++)
			CHECK_INT(got[i], want[i], "%s: many[%zu] %s", name, i, many[i]);
		memset(got, 7, sizeof(got));
		CHECK_INT(gitindex_tracked_many(b.data, 20, hash, many, 10, got), -1,
			  "%s: many, cut", name);
		CHECK_INT(got[0], 7, "%s: many, cut: out untouched", name);
	}
	/* every truncation is refused or answered, never over-read (ASan) */
	{
		size_t cut;

		for (cut = 0; cut < b.len; cut += 7)
			(void)gitindex_tracked(b.data, cut, hash, "z/long-name-here.txt");
	}
	blob_release(&b);
}

/* Regression (fuzzing): a v3/v4 entry with the extended flag whose bytes
 * end right after the first fixed part.  The 2 extra flag bytes used to
 * move the cursor past the end, and memchr then read with a length near
 * SIZE_MAX.  The buffer is malloc'd to its exact size so ASan sees any
 * over-read; every length up to the whole is tried. */
static void check_extended_flag_at_end(void)
{
	unsigned version;

	for (version = 3; version <= 4; version++) {
		unsigned char whole[12 + 40 + 20 + 2 + 2 + 8] = "DIRC";
		size_t fixed_end = 12 + 40 + 20 + 2, cut;

		whole[7] = (unsigned char)version;
		whole[11] = 1;				/* one entry */
		whole[fixed_end - 2] = 0x40;		/* FLAG_EXTENDED */
		whole[fixed_end - 1] = 4;		/* name length */
		memcpy(whole + fixed_end + 2 + (version == 4), ".env", 4);
		for (cut = fixed_end; cut <= sizeof(whole); cut++) {
			char *copy = malloc(cut);
			int got;

			if (!copy)
				return;
			memcpy(copy, whole, cut);
			got = gitindex_tracked(copy, cut, 20, ".env");
			CHECK(got == -1 || got == 1, "v%u cut at %zu: %d", version, cut, got);
			if (cut <= fixed_end + 2)
				CHECK_INT(got, -1, "v%u: the extended flag bytes are missing", version);
			free(copy);
		}
	}
}

void test_main(void)
{
	static const struct {
		const char *buf;
		size_t len;
	} bad[] = {
		{ "", 0 },
		{ "DIRC", 4 },
		{ "DIRX\0\0\0\2\0\0\0\0", 12 },
		{ "DIRC\0\0\0\5\0\0\0\0", 12 },		/* unknown version */
		{ "DIRC\0\0\0\2\0\0\0\1", 12 },		/* one entry, no bytes */
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		CHECK_INT(gitindex_tracked(bad[i].buf, bad[i].len, 20, ".env"), -1, "bad %zu", i);
	CHECK_INT(gitindex_tracked("DIRC\0\0\0\2\0\0\0\0", 12, 20, ".env"), 0, "empty index");
	check_extended_flag_at_end();

	if (git("/", (const char *[]){ "--version", NULL }) != 0) {
		SKIP("the real-index rows: git is not installed");
		return;
	}
	check_repo("gi-v2", NULL, "2");
	check_repo("gi-v3", NULL, "3");
	check_repo("gi-v4", NULL, "4");
	check_repo("gi-sha256", "sha256", "2");
	{
		/* a split index keeps most entries elsewhere: "unknown" */
		const char *dir = test_tmpdir("gi-split");
		const char *init[] = { "init", "-q", NULL };
		const char *add[] = { "add", "-f", "a.txt", NULL };
		const char *split[] = { "update-index", "--split-index", NULL };
		char path[4096];
		struct blob b;

		git(dir, init);
		test_write_str(dir, "a.txt", "x\n");
		test_write_str(dir, ".env", "A=1\n");
		git(dir, add);
		if (git(dir, split) == 0) {
			snprintf(path, sizeof(path), "%s/.git/index", dir);
			if (saferead_path(path, 1 << 20, &b) == 0) {
				CHECK_INT(gitindex_tracked(b.data, b.len, 20, ".env"), -1,
					  "split index: unknown");
				blob_release(&b);
			}
		}
	}
}
