/* test_saferead.c - the read policy, row by row, in each of its modes:
 * openat2 on or off, /proc/self/fd on or off (the fallbacks a kernel or a
 * container without them takes).  And the race of issue 8 (finding 1.2):
 * a file swapped for a symlink out of the directory between the open and
 * the judgement must never be read through the symlink.
 */
#include "test.h"
#include "saferead.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[4096], outside[4096];

static const char *at(const char *base, const char *rel)
{
	static char p[2][8192];
	static int k;

	k ^= 1;
	snprintf(p[k], sizeof(p[k]), "%s/%s", base, rel);
	return p[k];
}

static void setup(void)
{
	char *canon;

	snprintf(root, sizeof(root), "%s", test_tmpdir("saferead/repo"));
	snprintf(outside, sizeof(outside), "%s", test_tmpdir("saferead/outside"));
	/* the policy compares canonical paths, as spec->root is */
	canon = realpath(root, NULL);
	snprintf(root, sizeof(root), "%s", canon);
	free(canon);
	canon = realpath(outside, NULL);
	snprintf(outside, sizeof(outside), "%s", canon);
	free(canon);

	test_write_str(outside, "secret", "ZQXOUTSIDE\n");
	test_write_str(outside, "dir/file", "ZQXOUTSIDE\n");
	test_write_str(root, "plain", "inside\n");
	test_write_str(root, "sub/deep", "deep\n");
	test_write_str(root, "bom", "\xef\xbb\xbfwith bom\n");
	test_write(root, "nul", "a\0b\n", 4);
	test_write_str(root, "badutf8", "ok\nx\xff\n");
	test_write_str(root, "big", "0123456789abcdef0123456789abcdef!");
	test_write_str(root, "adir/x", "");
	CHECK(symlink("plain", at(root, "rel-in")) == 0, "symlink");
	CHECK(symlink(at(root, "plain"), at(root, "abs-in")) == 0, "symlink");
	CHECK(symlink("sub/../plain", at(root, "dots-in")) == 0, "symlink");
	CHECK(symlink(at(outside, "secret"), at(root, "abs-out")) == 0, "symlink");
	CHECK(symlink("../outside/secret", at(root, "rel-out")) == 0, "symlink");
	CHECK(symlink(at(outside, "dir"), at(root, "dirlink")) == 0, "symlink");
	CHECK(symlink("nowhere", at(root, "dangling")) == 0, "symlink");
	CHECK(symlink("/dev/null", at(root, "devnull")) == 0, "symlink");
	CHECK(symlink("/proc/self/root/etc/hostname", at(root, "magic")) == 0, "symlink");
	CHECK(mkfifo(at(root, "fifo"), 0600) == 0, "mkfifo: %s", strerror(errno));
	CHECK(symlink("fifo", at(root, "fifolink")) == 0, "symlink");
}

struct row {
	enum saferead_where where;
	enum saferead_text text;
	size_t cap;
	const char *name;	/* relative to root */
	int code;		/* 0: read */
	const char *want;	/* the text read, or NULL */
	int symlink;		/* err.symlink expected */
};

#define B SAFEREAD_BENEATH
#define NF SAFEREAD_BENEATH_NOFOLLOW
#define ANY SAFEREAD_ANYWHERE
#define U8 SAFEREAD_UTF8
#define NN SAFEREAD_NO_NUL
#define BY SAFEREAD_BYTES
#define CAP 1024

static const struct row rows[] = {
	{ B, U8, CAP, "plain", 0, "inside\n", 0 },
	{ B, U8, CAP, "sub/deep", 0, "deep\n", 0 },
	{ B, U8, CAP, "rel-in", 0, "inside\n", 0 },
	/* RESOLVE_BENEATH refuses every absolute symlink; the fallback
	 * judges where it lands, so in-tree ones keep working */
	{ B, U8, CAP, "abs-in", 0, "inside\n", 0 },
	{ B, U8, CAP, "dots-in", 0, "inside\n", 0 },
	{ B, U8, CAP, "abs-out", EXDEV, NULL, 1 },
	{ B, U8, CAP, "rel-out", EXDEV, NULL, 1 },
	{ B, U8, CAP, "dirlink/file", EXDEV, NULL, 0 },
	{ B, U8, CAP, "../outside/secret", EXDEV, NULL, 0 },
	{ B, U8, CAP, "magic", EXDEV, NULL, 1 },
	{ B, U8, CAP, "devnull", EXDEV, NULL, 1 },
	{ B, U8, CAP, "dangling", ENOENT, NULL, 1 },
	{ B, U8, CAP, "missing", ENOENT, NULL, 0 },
	{ B, U8, CAP, "plain/x", ENOTDIR, NULL, 0 },
	/* a FIFO is never opened for reading, so it cannot block */
	{ B, U8, CAP, "fifo", EINVAL, NULL, 0 },
	{ B, U8, CAP, "fifolink", EINVAL, NULL, 0 },
	{ B, U8, CAP, "adir", EISDIR, NULL, 0 },
	{ B, U8, 32, "big", EFBIG, NULL, 0 },
	{ B, U8, 33, "big", 0, "0123456789abcdef0123456789abcdef!", 0 },
	{ B, U8, CAP, "bom", 0, "with bom\n", 0 },
	{ B, BY, CAP, "bom", 0, "\xef\xbb\xbfwith bom\n", 0 },
	{ B, U8, CAP, "nul", EILSEQ, NULL, 0 },
	{ B, NN, CAP, "nul", EILSEQ, NULL, 0 },
	{ B, BY, CAP, "nul", 0, "a", 0 },
	{ B, U8, CAP, "badutf8", EILSEQ, NULL, 0 },
	{ B, NN, CAP, "badutf8", 0, "ok\nx\xff\n", 0 },
	/* git's in-tree .gitignore: never a symlink, even one inside */
	{ NF, BY, CAP, "plain", 0, "inside\n", 0 },
	{ NF, BY, CAP, "rel-in", ELOOP, NULL, 0 },
	{ NF, BY, CAP, "abs-out", ELOOP, NULL, 0 },
	{ NF, BY, CAP, "fifo", EINVAL, NULL, 0 },
	/* the user's own files: anywhere, but still only regular files */
	{ ANY, BY, CAP, "abs-out", 0, "ZQXOUTSIDE\n", 0 },
	{ ANY, BY, CAP, "devnull", EINVAL, NULL, 0 },
	{ ANY, BY, CAP, "fifolink", EINVAL, NULL, 0 },
};

/* Every row read by saferead_file, or (via_dir) through one
 * saferead_dir opened on root for them all: the same answers. */
static void test_rows(int openat2_on, int proc_on, int via_dir)
{
	struct saferead_dir d;
	size_t i;

	saferead_test_setup(openat2_on, proc_on, NULL, NULL);
	if (via_dir)
		CHECK(saferead_dir_open(&d, root) == 0, "saferead_dir_open");
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct row *r = &rows[i];
		struct saferead_policy p = { r->where, r->text, r->cap };
		struct saferead_error err;
		struct blob b;
		int rc = via_dir ? saferead_dir_file(&d, &p, r->name, &b, &err) :
			 saferead_file(&p, root, r->name, &b, &err);

		CHECK_INT(rc < 0 ? err.code : 0, r->code,
			  "row %zu %s (openat2 %d, proc %d, dir %d)", i, r->name, openat2_on,
			  proc_on, via_dir);
		if (rc == 0 && r->want)
			CHECK_STR(b.data, r->want, "row %zu %s", i, r->name);
		if (rc < 0) {
			CHECK(b.data == NULL && b.len == 0, "row %zu: out empty", i);
			if (r->code == EXDEV || r->code == ENOENT)
				CHECK_INT(err.symlink, r->symlink, "row %zu %s: symlink",
					  i, r->name);
		}
		blob_release(&b);
	}
	if (via_dir)
		saferead_dir_close(&d);
	saferead_test_setup(1, 1, NULL, NULL);
}

/* A directory that cannot be opened: every read says why. */
static void test_dir_missing(void)
{
	struct saferead_policy p = { SAFEREAD_ANYWHERE, SAFEREAD_BYTES, CAP };
	struct saferead_error err;
	struct saferead_dir d;
	struct blob b;

	CHECK(saferead_dir_open(&d, at(root, "no-such-dir")) < 0 && errno == ENOENT,
	      "missing directory: errno %d", errno);
	CHECK(saferead_dir_file(&d, &p, "plain", &b, &err) < 0 && err.code == ENOENT &&
	      b.data == NULL, "read in a missing directory: %d", err.code);
	saferead_dir_close(&d);
	CHECK(saferead_dir_open(&d, at(root, "plain")) < 0 && errno == ENOTDIR,
	      "a file is no directory: errno %d", errno);
	saferead_dir_close(&d);
}

static void test_text_position(void)
{
	struct saferead_error err;
	struct blob b;

	CHECK(saferead_file(&saferead_spec, root, "badutf8", &b, &err) < 0, "bad");
	CHECK(err.line == 2 && err.col == 2 && err.what && !strcmp(err.what, "invalid UTF-8"),
	      "%u:%u %s", err.line, err.col, err.what ? err.what : "");
	CHECK_STR(saferead_strerror(EINVAL), "not a regular file", "wording");
	CHECK_STR(saferead_strerror(EISDIR), "is a directory, expected a file", "wording");
	CHECK_STR(saferead_strerror(EFBIG), "larger than the 1024 KiB limit", "wording");
	errno = 0;
	CHECK(saferead_path(at(root, "fifo"), CAP, &b) < 0 && errno == EINVAL,
	      "saferead_path: errno %d", errno);
	CHECK(saferead_path(at(root, "plain"), CAP, &b) == 0 && b.len == 7, "path read");
	blob_release(&b);
}

/* text_check reads eight plain bytes at a time: what it finds, and where,
 * must not depend on where a word starts. */
static void test_text_check(void)
{
	static const struct {
		const char *in;
		size_t len;
		int rc;
		unsigned line, col;
		const char *what;
	} texts[] = {
		{ "", 0, 0, 0, 0, NULL },
		{ "plain ascii, longer than a word\n\ttab\r\n", 38, 0, 0, 0, NULL },
		{ "h\xc3\xa9llo w\xc3\xb6rld \xe2\x82\xac \xf0\x9f\x98\x80 and more", 31, 0, 0, 0, NULL },
		{ "\x7f\x01\x1f control bytes are text here", 31, 0, 0, 0, NULL },
		{ "abcdefg\0", 8, -1, 1, 8, "NUL byte" },
		{ "abcdefgh\0ijklmnop", 17, -1, 1, 9, "NUL byte" },
		{ "abcdefghijklmnop\0", 17, -1, 1, 17, "NUL byte" },
		{ "0123456\n89abcdef\n0123\xff", 22, -1, 3, 5, "invalid UTF-8" },
		{ "line one\nline two\nl\xc3\xa9 \xc3", 23, -1, 3, 5, "invalid UTF-8" },
		{ "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\x80", 9, -1, 1, 9, "invalid UTF-8" },
		{ "surrogate \xed\xa0\x80 here", 18, -1, 1, 11, "invalid UTF-8" },
		{ "overlong \xc0\xaf", 11, -1, 1, 10, "invalid UTF-8" },
		{ "cut \xe2\x82", 6, -1, 1, 5, "invalid UTF-8" },
		{ "\n\n\n\n\n\n\n\n\n\n\0", 11, -1, 11, 1, "NUL byte" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(texts); i++) {
		unsigned line = 0, col = 0;
		const char *what = NULL;
		int rc = text_check(texts[i].in, texts[i].len, &line, &col, &what);

		CHECK_INT(rc, texts[i].rc, "text_check row %zu", i);
		if (rc < 0 && texts[i].rc < 0)
			CHECK(line == texts[i].line && col == texts[i].col && what &&
			      !strcmp(what, texts[i].what), "text_check row %zu: %u:%u %s",
			      i, line, col, what ? what : "");
	}
}

/* ---- the race: what an attacker swaps between open and judgement ---- */

enum swap { SWAP_FILE_FOR_LINK, SWAP_LINK_FOR_FILE };

static void swap_now(void *arg)
{
	enum swap how = *(enum swap *)arg;
	const char *name = at(root, "race");

	unlink(name);
	if (how == SWAP_FILE_FOR_LINK) {
		/* the file was opened; now the name leads outside */
		if (symlink(at(outside, "secret"), name) < 0)
			printf("not ok: symlink: %s\n", strerror(errno));
	} else {
		/* the symlink out was opened; now the name is a fine file */
		test_write_str(root, "race", "inside\n");
	}
}

static void test_race(int openat2_on, int proc_on, int via_dir)
{
	enum swap how;

	for (how = SWAP_FILE_FOR_LINK; how <= SWAP_LINK_FOR_FILE; how++) {
		struct saferead_error err;
		struct blob b;
		int rc;

		unlink(at(root, "race"));
		if (how == SWAP_FILE_FOR_LINK)
			test_write_str(root, "race", "inside\n");
		else
			CHECK(symlink(at(outside, "secret"), at(root, "race")) == 0, "link");
		saferead_test_setup(openat2_on, proc_on, swap_now, &how);
		if (via_dir) {
			struct saferead_dir d;

			saferead_dir_open(&d, root);
			rc = saferead_dir_file(&d, &saferead_spec, "race", &b, &err);
			saferead_dir_close(&d);
		} else {
			rc = saferead_file(&saferead_spec, root, "race", &b, &err);
		}
		saferead_test_setup(1, 1, NULL, NULL);
		CHECK(!(rc == 0 && strstr(b.data, "ZQXOUTSIDE")),
		      "swap %d (openat2 %d, proc %d): the outside file was read",
		      how, openat2_on, proc_on);
		if (how == SWAP_LINK_FOR_FILE)
			CHECK(rc < 0, "swap %d (openat2 %d, proc %d): what was opened "
			      "was outside: refused", how, openat2_on, proc_on);
		else
			CHECK(rc < 0 || !strcmp(b.data, "inside\n"),
			      "swap %d: the file opened is the file read", how);
		blob_release(&b);
	}
}

void test_main(void)
{
	int o, p, d;

	setup();
	for (o = 0; o <= 1; o++) {
		for (p = 0; p <= 1; p++) {
			for (d = 0; d <= 1; d++) {
				test_rows(o, p, d);
				test_race(o, p, d);
			}
		}
	}
	test_dir_missing();
	test_text_position();
	test_text_check();
}
