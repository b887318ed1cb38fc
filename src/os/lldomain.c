/* lldomain.c - count this process's Landlock layers (see lldomain.h). */
#include "lldomain.h"
#include "spawnrun.h"
#include "util.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
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

/* The child (spawnrun.h: raw system calls and write(2) only): sets
 * no_new_privs on itself, then stacks layers until the kernel refuses one
 * with E2BIG.  It writes "n" and the layers it could add, or "e" and the
 * errno of a call that failed otherwise. */
static void child(void *arg, int fd)
{
	/* the first field only: ABI 1's struct, which every version accepts
	 * (landlock.rst, "Backward and forward compatibility") */
	uint64_t handled_fs = LANDLOCK_ACCESS_FS_EXECUTE;
	unsigned char rec[2] = { 'e', 0 };
	long rfd;
	int n;

	(void)arg;
	if (syscall(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1L, 0L, 0L, 0L) < 0)
		goto fail;
	rfd = syscall(__NR_landlock_create_ruleset, &handled_fs, sizeof(handled_fs), 0U);
	if (rfd < 0)
		goto fail;
	for (n = 0; n <= LLDOMAIN_MAX_LAYERS; n++)
		if (syscall(__NR_landlock_restrict_self, (int)rfd, 0U) < 0) {
			if (errno == E2BIG)
				break;
			goto fail;
		}
	rec[0] = 'n';
	rec[1] = (unsigned char)n;
	(void)!write(fd, rec, sizeof(rec));
	return;
fail:
	rec[1] = (unsigned char)(errno & 127);
	(void)!write(fd, rec, sizeof(rec));
}

/*
 * The child is spawnrun's (registered, killed at the deadline and reaped
 * with every other child of this process: a child of its own would be
 * reaped by the runtimes' stray hunt).  Without a seccomp filter it
 * shares this process's memory (spawn_vfork_for): a copy of the page
 * tables of the whole threaded process cost 6 to 7 ms of CPU where 50 MiB
 * were in use.  Under a filter the Landlock calls may be answered with
 * SIGSYS, whose core dump must not take this process along: a copy then.
 */
int lldomain_layers(const void *owner, int filtered, double deadline_ms)
{
	struct spawn_result sr;
	int rc, layers = -1, err = EPROTO;

	memset(&sr, 0, sizeof(sr));
	rc = (filtered ? spawn_fork_for : spawn_vfork_for)(owner, child, NULL, deadline_ms, &sr);
	if (rc < 0 || sr.status == SPAWN_FAILED)
		err = EAGAIN;
	else if (sr.status == SPAWN_TIMED_OUT)
		err = ETIMEDOUT;
	else if (sr.out_len == 3 && sr.out[0] == SPAWN_FORK_READY[0] && sr.out[1] == 'n' &&
		 (unsigned char)sr.out[2] <= LLDOMAIN_MAX_LAYERS)
		layers = LLDOMAIN_MAX_LAYERS - (unsigned char)sr.out[2];
	else if (sr.out_len == 3 && sr.out[0] == SPAWN_FORK_READY[0] && sr.out[1] == 'e' &&
		 sr.out[2])
		err = (unsigned char)sr.out[2];
	spawn_result_release(&sr);
	if (layers < 0)
		errno = err;
	return layers;
}
