/* runbench.c - run a command N times; print the median and p90 wall time
 * and the peak RSS of the child (from wait4's rusage).
 *
 *   runbench N LABEL CMD [ARG...]
 * Output: one line "LABEL: median X ms, p90 Y ms, min Z ms, peak RSS R KiB (N runs)"
 * The command's stdout and stderr go to /dev/null.  Not part of the tool.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int n, i;
	long rss = 0;
	double *t;

	if (argc < 4 || (n = (int)strtol(argv[1], NULL, 10)) < 1) {
		fprintf(stderr, "usage: runbench N LABEL CMD [ARG...]\n");
		return 2;
	}
	t = calloc((size_t)n, sizeof(*t));
	for (i = 0; i < n; i++) {
		struct rusage ru;
		double t0 = now_ms();
		int st;
		pid_t pid = fork();

		if (pid == 0) {
			int fd = open("/dev/null", O_WRONLY);

			dup2(fd, 1);
			dup2(fd, 2);
			execvp(argv[3], argv + 3);
			_exit(127);
		}
		if (pid < 0 || wait4(pid, &st, 0, &ru) < 0) {
			perror("runbench");
			return 2;
		}
		t[i] = now_ms() - t0;
		if (WIFEXITED(st) && WEXITSTATUS(st) == 127) {
			fprintf(stderr, "runbench: cannot run %s\n", argv[3]);
			return 2;
		}
		if (ru.ru_maxrss > rss)
			rss = ru.ru_maxrss;
	}
	qsort(t, (size_t)n, sizeof(*t), cmp);
	printf("%-34s median %7.2f ms, p90 %7.2f ms, min %7.2f ms, peak RSS %6ld KiB (%d runs)\n",
	       argv[2], t[n / 2], t[(n * 9) / 10 < n ? (n * 9) / 10 : n - 1], t[0], rss, n);
	free(t);
	return 0;
}
