/* replay.c - the fuzz targets without libFuzzer, in `make check`.
 *
 * Each tests/fuzz/fuzz_NAME.c is built with -DLLVMFuzzerTestOneInput=
 * fuzz_NAME_one and linked here.  Every file of corpus/NAME/ (the seeds)
 * and regress/NAME/ (inputs that once crashed or hung a parser, kept as
 * regression tests) is run through its target in a child process, so
 * that a crash, a broken invariant or (under `make asan`) a sanitizer
 * report fails that one file by name.  Run from the top of the tree.
 * There are no time limits here (make check has no timing assertions):
 * a parser's cost is what `make fuzz` checks.
 */
#include "test.h"
#include "fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define FUZZ_TARGET(name) int fuzz_##name##_one(const uint8_t *data, size_t size);
#include "targets.def"
#undef FUZZ_TARGET

static const struct target {
	const char *name;
	int (*one)(const uint8_t *data, size_t size);
} targets[] = {
#define FUZZ_TARGET(name) { #name, fuzz_##name##_one },
#include "targets.def"
#undef FUZZ_TARGET
};

#define TOP "tests/fuzz"
#define INPUT_MAX (4 * 1024 * 1024)

static const struct target *target_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(targets) / sizeof(targets[0]); i++)
		if (!strcmp(targets[i].name, name))
			return &targets[i];
	return NULL;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int not_dot(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/* Read path whole into a new buffer; NULL on failure. */
static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data;

	if (!f)
		return NULL;
	data = malloc(INPUT_MAX);
	if (!data) {
		fclose(f);
		return NULL;
	}
	*len = fread(data, 1, INPUT_MAX, f);
	fclose(f);
	return data;
}

/* Run one input in a child: 1 when it came back cleanly. */
static int run_one(const struct target *t, const char *path)
{
	uint8_t *data;
	size_t len = 0;
	pid_t pid;
	int st;

	data = slurp(path, &len);
	if (!data) {
		printf("not ok: cannot read %s\n", path);
		return 0;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		free(data);
		return 0;
	}
	if (pid == 0) {
		/* the input in a buffer of its own size, as libFuzzer gives
		 * it, so that under `make asan` a read past its end is a
		 * report, not a read of the rest of the slurp buffer */
		uint8_t *exact = malloc(len ? len : 1);

		if (!exact)
			abort();
		memcpy(exact, data, len);
		free(data);
		t->one(exact, len);
		free(exact);
		exit(0);	/* exit, not _exit: LeakSanitizer checks here */
	}
	free(data);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 0;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* Replay every file of TOP/kind/name; returns how many there were. */
static size_t replay_dir(const struct target *t, const char *kind)
{
	char dir[512], path[1024];
	struct dirent **list;
	int n, i;
	size_t count = 0;

	snprintf(dir, sizeof(dir), TOP "/%s/%s", kind, t->name);
	n = scandir(dir, &list, not_dot, by_name);
	if (n < 0)
		return 0;
	for (i = 0; i < n; i++) {
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", dir, list[i]->d_name);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
			CHECK(run_one(t, path), "fuzz_%s on %s", t->name, path);
			count++;
		}
		free(list[i]);
	}
	free(list);
	return count;
}

/* Every corpus directory belongs to a target of targets.def. */
static void check_dirs(const char *kind)
{
	char dir[512];
	struct dirent **list;
	int n, i;

	snprintf(dir, sizeof(dir), TOP "/%s", kind);
	n = scandir(dir, &list, not_dot, by_name);
	for (i = 0; i < n; i++) {
		CHECK(target_find(list[i]->d_name) != NULL,
		      "%s/%s has no target in targets.def", dir, list[i]->d_name);
		free(list[i]);
	}
	if (n >= 0)
		free(list);
}

void test_main(void)
{
	size_t i;

	/* a scaled-up input (fuzz_scale) is parsed here for its answers, not
	 * for its cost, which `make fuzz` times at full size: keep it small */
	setenv("FUZZ_SCALE_MAX", "65536", 0);
	/* the scratch repositories of fuzz.h go where tests/run.sh cleans */
	if (getenv("TEST_TMPDIR"))
		setenv("TMPDIR", getenv("TEST_TMPDIR"), 1);
	check_dirs("corpus");
	check_dirs("regress");
	for (i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
		CHECK(replay_dir(&targets[i], "corpus") > 0,
		      "fuzz_%s has no seeds in " TOP "/corpus/%s",
		      targets[i].name, targets[i].name);
		replay_dir(&targets[i], "regress");
	}
}
