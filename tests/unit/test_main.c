/* test_main.c - main() and helpers shared by every unit-test program */
#include "test.h"

#include <errno.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int test_passed, test_failed;

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

const char *test_tmpdir(const char *name)
{
	static char path[4096];
	const char *root = getenv("TEST_TMPDIR");
	char cmd[4200];

	snprintf(path, sizeof(path), "%s/%s", root ? root : "/tmp/envpreflight-test", name);
	/* remove leftovers of an earlier run without a shell */
	snprintf(cmd, sizeof(cmd), "%s", path);
	{
		pid_t pid = fork();
		if (pid == 0) {
			execlp("rm", "rm", "-rf", "--", cmd, (char *)NULL);
			_exit(127);
		}
		if (pid > 0) {
			int st;
			while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
				;
		}
	}
	mkdirs(path);
	return path;
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

int main(int argc, char **argv)
{
	const char *name = strrchr(argv[0], '/');

	(void)argc;
	name = name ? name + 1 : argv[0];
	test_main();
	printf("%s: %d passed, %d failed\n", name, test_passed, test_failed);
	return test_failed ? 1 : 0;
}
