/* pairbench.c - time two commands in alternation, so that both see the
 * same machine (a shared, busy one): A, B, A, B, ...  Not part of the tool.
 *
 *   pairbench N LABEL_A LABEL_B CMD_A... -- CMD_B...
 *
 * Output: one line per command with its median, min and max wall time, and
 * "ratio A/B: median of medians X, median of per-round ratios Y".  The
 * commands' stdout and stderr go to /dev/null.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* Wall time of one run of argv, in ms; -1 when it cannot be run. */
static double run(char **argv)
{
	double t0 = now_ms();
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);

		dup2(fd, 1);
		dup2(fd, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) < 0)
		return -1;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
		return -1;
	return now_ms() - t0;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
	double *a, *b, *r, ma, mb;
	char **cmd_a, **cmd_b;
	int n, i, sep;

	if (argc < 7 || (n = (int)strtol(argv[1], NULL, 10)) < 1)
		goto usage;
	for (sep = 4; sep < argc && strcmp(argv[sep], "--"); sep++)
		;
	if (sep == 4 || sep >= argc - 1)
		goto usage;
	argv[sep] = NULL;
	cmd_a = argv + 4;
	cmd_b = argv + sep + 1;
	a = calloc((size_t)n, sizeof(*a));
	b = calloc((size_t)n, sizeof(*b));
	r = calloc((size_t)n, sizeof(*r));
	if (!a || !b || !r)
		return 2;
	for (i = 0; i < n; i++) {
		a[i] = run(cmd_a);
		b[i] = run(cmd_b);
		if (a[i] < 0 || b[i] < 0) {
			fprintf(stderr, "pairbench: cannot run %s\n",
				a[i] < 0 ? cmd_a[0] : cmd_b[0]);
			return 2;
		}
		r[i] = a[i] / b[i];
	}
	ma = median(a, n);
	mb = median(b, n);
	printf("%-28s median %8.2f ms, min %8.2f, max %8.2f (%d runs)\n",
	       argv[2], ma, a[0], a[n - 1], n);
	printf("%-28s median %8.2f ms, min %8.2f, max %8.2f (%d runs)\n",
	       argv[3], mb, b[0], b[n - 1], n);
	printf("ratio %s / %s: %.3f (medians), %.3f (median per-round ratio)\n",
	       argv[2], argv[3], ma / mb, median(r, n));
	free(a);
	free(b);
	free(r);
	return 0;
usage:
	fprintf(stderr, "usage: pairbench N LABEL_A LABEL_B CMD_A... -- CMD_B...\n");
	return 2;
}
