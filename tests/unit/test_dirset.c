/* test_dirset.c - paths looked up by reading their parents once, checked
 * against lstat: a name listed is there, a parent not there makes its
 * names absent with lstat's errno, and the rest is left to the caller. */
#include "test.h"
#include "dirset.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const paths[] = {
	"node_modules/a", "node_modules/b", "node_modules/c", "node_modules/d",
	"node_modules/link",		/* dangling: there for lstat */
	"node_modules/gone",		/* not listed: the caller's stat */
	"node_modules/a",		/* twice: one answer */
	"node_modules/@s/x", "node_modules/@s/y", "node_modules/@s/z", "node_modules/@s/w",
	"node_modules/@t/x", "node_modules/@t/y", "node_modules/@t/z", "node_modules/@t/w",
	"node_modules/f/x", "node_modules/f/y", "node_modules/f/z", "node_modules/f/w",
	"node_modules/a/node_modules/q",	/* a parent of one name */
	"node_modules/./b", "node_modules//b", "node_modules/b/", "../x", NULL,
};

void test_main(void)
{
	const char *dir = test_tmpdir("dirset");
	size_t n = sizeof(paths) / sizeof(paths[0]), i, read;
	struct dirset_res res[sizeof(paths) / sizeof(paths[0])];
	int fd;

	test_write_str(dir, "node_modules/a/package.json", "{}");
	test_write_str(dir, "node_modules/a/node_modules/q/package.json", "{}");
	test_write_str(dir, "node_modules/b/package.json", "{}");
	test_write_str(dir, "node_modules/c/package.json", "{}");
	test_write_str(dir, "node_modules/d/package.json", "{}");
	test_write_str(dir, "node_modules/f", "a file, not a folder");
	test_write_str(dir, "node_modules/@s/x/package.json", "{}");
	test_write_str(dir, "node_modules/@s/y/package.json", "{}");
	test_write_str(dir, "node_modules/@s/z/package.json", "{}");
	test_write_str(dir, "node_modules/@s/w/package.json", "{}");
	fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	CHECK(fd >= 0, "open %s", dir);
	CHECK(symlinkat("../nowhere", fd, "node_modules/link") == 0, "symlink");
	read = dirset_lookup(fd, paths, n, res);
	/* node_modules, @s, @t (not there), f (a file) */
	CHECK_INT(read, 4, "parents read");
	for (i = 0; i < 5; i++)
		CHECK_INT(res[i].state, DIRSET_FOUND, "%s", paths[i]);
	CHECK(res[0].d_type == DT_DIR || res[0].d_type == DT_UNKNOWN, "a is a folder");
	CHECK(res[4].d_type == DT_LNK || res[4].d_type == DT_UNKNOWN, "link is a link");
	CHECK_INT(res[5].state, DIRSET_UNKNOWN, "a name not listed: stat it");
	CHECK_INT(res[6].state, DIRSET_FOUND, "the same path twice");
	for (i = 7; i < 11; i++)
		CHECK_INT(res[i].state, DIRSET_FOUND, "%s", paths[i]);
	for (i = 11; i < 15; i++) {
		CHECK_INT(res[i].state, DIRSET_ABSENT, "%s", paths[i]);
		CHECK_INT(res[i].err, ENOENT, "%s", paths[i]);
	}
	for (i = 15; i < 19; i++) {
		CHECK_INT(res[i].state, DIRSET_ABSENT, "%s", paths[i]);
		CHECK_INT(res[i].err, ENOTDIR, "%s", paths[i]);
	}
	for (i = 19; i < n; i++)
		CHECK_INT(res[i].state, DIRSET_UNKNOWN, "%s", paths[i] ? paths[i] : "NULL");
	/* what a listing said is what lstat says */
	for (i = 0; i < n; i++) {
		struct stat st;
		int rc;

		if (!paths[i] || res[i].state == DIRSET_UNKNOWN)
			continue;
		rc = fstatat(fd, paths[i], &st, AT_SYMLINK_NOFOLLOW);
		if (res[i].state == DIRSET_FOUND)
			CHECK_INT(rc, 0, "lstat %s", paths[i]);
		else
			CHECK(rc < 0 && errno == res[i].err, "lstat %s fails as said", paths[i]);
	}
	/* nothing to look up */
	CHECK_INT(dirset_lookup(fd, paths, 0, res), 0, "no paths");
	close(fd);
}
