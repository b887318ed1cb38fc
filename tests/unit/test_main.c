/* test_main.c - main() and helpers shared by every unit-test program */
#include "test.h"

#include <errno.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int test_passed, test_failed, test_skipped;
const char *test_name = "test";

const char *test_shared(const char *rel)
{
	static char path[4096];
	const char *root = getenv("TEST_SHARED");

	/* our own copy of the vectors first (hermetic), as tests/run.sh
	 * says, also for a program run by hand from the top of the tree */
	snprintf(path, sizeof(path), "%s/%s", root && *root ? root : "tests", rel);
	return path;
}

static void mkdirs(char *path)
{
	char *p;

	for (p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	mkdir(path, 0755);
}

/* rm -rf path, without a shell */
static void remove_tree(const char *path)
{
	pid_t pid = fork();

	if (pid == 0) {
		execlp("rm", "rm", "-rf", "--", path, (char *)NULL);
		_exit(127);
	}
	if (pid > 0) {
		int st;

		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
	}
}

const char *test_tmpdir(const char *name)
{
	static char path[4096];

	snprintf(path, sizeof(path), "%s/%s", getenv("TEST_TMPDIR"), name);
	remove_tree(path);	/* leftovers of an earlier call */
	mkdirs(path);
	return path;
}

/* A program run by hand (no TEST_TMPDIR from tests/run.sh) gets a scratch
 * directory of its own, never one another run could share; main removes
 * it at the end.  A new string, or NULL when TEST_TMPDIR was given. */
static char *own_tmpdir(void)
{
	const char *tmp = getenv("TMPDIR");
	char *dir;
	size_t n;

	if (getenv("TEST_TMPDIR"))
		return NULL;
	if (!tmp || !*tmp)
		tmp = "/tmp";
	n = strlen(tmp) + sizeof("/envpreflight-test.XXXXXX");
	dir = malloc(n);
	if (!dir) {
		perror("test: malloc");
		exit(2);
	}
	snprintf(dir, n, "%s/envpreflight-test.XXXXXX", tmp);
	if (!mkdtemp(dir)) {
		perror("test: mkdtemp");
		exit(2);
	}
	setenv("TEST_TMPDIR", dir, 1);
	return dir;
}

void test_write(const char *dir, const char *name, const char *data, size_t len)
{
	char path[4096];
	char *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	slash = strrchr(path, '/');
	if (slash) {
		*slash = '\0';
		mkdirs(path);
		*slash = '/';
	}
	f = fopen(path, "wb");
	if (!f) {
		printf("not ok: cannot write %s\n", path);
		test_failed++;
		return;
	}
	fwrite(data, 1, len, f);
	fclose(f);
}

int test_each_line(const char *path, void (*fn)(char *line, int n, void *ctx), void *ctx)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int n = 0;

	if (!f) {
		printf("not ok: cannot read %s\n", path);
		test_failed++;
		return -1;
	}
	while ((len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] == '\n')
			line[len - 1] = '\0';
		fn(line, ++n, ctx);
	}
	free(line);
	fclose(f);
	return n;
}

int main(int argc, char **argv)
{
	const char *name = strrchr(argv[0], '/');
	char *own;

	(void)argc;
	name = name ? name + 1 : argv[0];
	test_name = name;
	own = own_tmpdir();
	test_main();
	if (own) {
		remove_tree(own);
		free(own);
	}
	if (test_skipped)
		printf("%s: %d passed, %d failed, %d skipped\n", name, test_passed,
		       test_failed, test_skipped);
	else
		printf("%s: %d passed, %d failed\n", name, test_passed, test_failed);
	return test_failed ? 1 : 0;
}
