/* lldomain.c - count this process's Landlock layers (see lldomain.h). */
#include "lldomain.h"
#include "util.h"

#include <errno.h>
#include <linux/landlock.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#endif
#ifndef __NR_landlock_restrict_self
#define __NR_landlock_restrict_self 446
#endif

int lldomain_abi(void)
{
	long v = syscall(__NR_landlock_create_ruleset, NULL, (size_t)0,
			 (uint32_t)LANDLOCK_CREATE_RULESET_VERSION);

	return v < 0 ? -errno : (int)v;
}

/* The child: raw system calls only (it is a fork of a threaded process).
 * Its exit status: 0..16, the layers it could add; 128 + errno of a call
 * that failed otherwise. */
static void child(void)
{
	/* the first field only: ABI 1's struct, which every version accepts
	 * (landlock.rst, "Backward and forward compatibility") */
	uint64_t handled_fs = LANDLOCK_ACCESS_FS_EXECUTE;
	long fd;
	int n;

	if (syscall(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1L, 0L, 0L, 0L) < 0)
		syscall(SYS_exit_group, 128 + (errno & 127));
	fd = syscall(__NR_landlock_create_ruleset, &handled_fs, sizeof(handled_fs), 0U);
	if (fd < 0)
		syscall(SYS_exit_group, 128 + (errno & 127));
	for (n = 0; n <= LLDOMAIN_MAX_LAYERS; n++)
		if (syscall(__NR_landlock_restrict_self, (int)fd, 0U) < 0) {
			if (errno == E2BIG)
				break;
			syscall(SYS_exit_group, 128 + (errno & 127));
		}
	syscall(SYS_exit_group, n);
}

/* Wait for pid until deadline_ms: a pidfd polled (Linux 5.3+), else
 * naps.  0 when it ended (not yet reaped), -1 at the deadline. */
static int wait_end(pid_t pid, double deadline_ms)
{
	struct timespec nap = { 0, 200 * 1000 };
	long fd = syscall(SYS_pidfd_open, pid, 0U);
	siginfo_t si;

	for (;;) {
		double left = deadline_ms - clock_ms();

		if (left <= 0)
			break;
		if (fd >= 0) {
			struct pollfd p = { (int)fd, POLLIN, 0 };

			if (poll(&p, 1, left < 1 ? 1 : (int)left) > 0)
				break;
			continue;
		}
		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
		    si.si_pid == pid)
			break;
		nanosleep(&nap, NULL);
	}
	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0 ||
	    si.si_pid != pid) {
		if (fd >= 0)
			close((int)fd);
		return -1;
	}
	if (fd >= 0)
		close((int)fd);
	return 0;
}

int lldomain_layers(double deadline_ms)
{
	int st = 0, killed = 0;
	pid_t pid, w;

	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0)
		child();
	if (wait_end(pid, deadline_ms) < 0) {
		kill(pid, SIGKILL);
		killed = 1;
	}
	for (;;) {
		w = waitpid(pid, &st, 0);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			return -1;
	}
	if (killed || !WIFEXITED(st))
		return errno = ETIMEDOUT, -1;
	st = WEXITSTATUS(st);
	if (st >= 128)
		return errno = st - 128, -1;
	if (st > LLDOMAIN_MAX_LAYERS)
		return errno = EPROTO, -1;
	return LLDOMAIN_MAX_LAYERS - st;
}
