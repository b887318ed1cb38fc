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

/* Run path's input through t (in the calling process). */
static int one_input(const struct target *t, const char *path)
{
	uint8_t *data, *exact;
	size_t len = 0;

	data = slurp(path, &len);
	if (!data)
		return -1;
	/* the input in a buffer of its own size, as libFuzzer gives it, so
	 * that under `make asan` a read past its end is a report, not a read
	 * of the rest of the slurp buffer */
	exact = malloc(len ? len : 1);
	if (!exact)
		abort();
	memcpy(exact, data, len);
	free(data);
	t->one(exact, len);
	free(exact);
	return 0;
}

/* Run paths[from..n) through t in one child, which writes each input's
 * index to a pipe before it starts it, and n once all are done, before
 * it exits (exit, not _exit: LeakSanitizer checks there).  Returns the
 * index of the first input that did not come back (n: all did), and in
 * *bad -1 when the child ended cleanly, else the index of the input that
 * failed (n: the exit failed, a leak of one of them). */
static int run_batch(const struct target *t, char **paths, int from, int n, int *bad)
{
	int fd[2], st, last = -1, i;
	pid_t pid;
	ssize_t r;

	fflush(stdout);
	if (pipe(fd) < 0)
		return *bad = from, from;
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return *bad = from, from;
	}
	if (pid == 0) {
		close(fd[0]);
		for (i = from; i <= n; i++) {
			if (write(fd[1], &i, sizeof(i)) != (ssize_t)sizeof(i))
				_exit(3);
			if (i < n && one_input(t, paths[i]) < 0)
				_exit(4);
		}
		exit(0);
	}
	close(fd[1]);
	while ((r = read(fd[0], &i, sizeof(i))) == (ssize_t)sizeof(i) || (r < 0 && errno == EINTR))
		if (r > 0)
			last = i;
	close(fd[0]);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return *bad = from, from;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0 && last == n) {
		*bad = -1;
		return n;
	}
	*bad = last < from ? from : last;
	return *bad;
}

/* Replay every file of TOP/kind/name; returns how many there were.  All
 * of a directory's inputs go through one child (a child an input costs a
 * tenth of a second under ASan: fork, and LeakSanitizer at its exit);
 * an input that fails it is reported by name and the rest go on in a
 * new child; a failure at the exit (a leak) has each input of the batch
 * run again in a child of its own, to name the one that leaked. */
static size_t replay_dir(const struct target *t, const char *kind)
{
	char dir[512], path[1024];
	struct dirent **list;
	char **paths;
	int n, i, np = 0, at = 0, bad, done;

	snprintf(dir, sizeof(dir), TOP "/%s/%s", kind, t->name);
	n = scandir(dir, &list, not_dot, by_name);
	if (n < 0)
		return 0;
	paths = calloc((size_t)n + 1, sizeof(*paths));
	if (!paths)
		abort();
	for (i = 0; i < n; i++) {
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", dir, list[i]->d_name);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && (paths[np] = strdup(path)))
			np++;
		free(list[i]);
	}
	free(list);
	while (at < np) {
		done = run_batch(t, paths, at, np, &bad);
		if (bad == np) {
			/* every input came back and the exit failed: one at
			 * a time, to name the one that leaked */
			for (i = at; i < np; i++) {
				run_batch(t, paths, i, i + 1, &bad);
				CHECK(bad < 0, "fuzz_%s on %s", t->name, paths[i]);
			}
			break;
		}
		for (i = at; i < done; i++)
			CHECK(1, "fuzz_%s on %s", t->name, paths[i]);
		if (bad < 0)
			break;
		CHECK(0, "fuzz_%s on %s", t->name, paths[bad]);
		at = bad + 1;
	}
	for (i = 0; i < np; i++)
		free(paths[i]);
	free(paths);
	return (size_t)np;
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
