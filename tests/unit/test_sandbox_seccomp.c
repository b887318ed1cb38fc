/* test_sandbox_seccomp.c - the calls identity.seccomp tries
 * (sandbox_seccomp.c's table): each row's unfiltered answer is one a
 * filter does not give, the verdict on each kind of answer, and, when this
 * process runs without a filter, every row's answer from this kernel in a
 * forked child (the kernel is the oracle of the table); and
 * spawn_fork_for's outcomes: output, a death by SIGSYS, a child killed and
 * reaped at its deadline. */
#include "test.h"
#include "probe_sandbox.h"
#include "spawnrun.h"
#include "util.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

static const struct sbx_try *row(const char *name)
{
	size_t n, i;
	const struct sbx_try *t = sbx_tries(&n);

	for (i = 0; i < n; i++)
		if (!strcmp(t[i].name, name))
			return &t[i];
	return NULL;
}

static void test_table(void)
{
	static const char *const must[] = {
		"mount", "umount2", "unshare", "setns", "keyctl", "add_key", "bpf",
		"perf_event_open", "personality", "ptrace",
	};
	size_t n, i, j;
	const struct sbx_try *t = sbx_tries(&n);

	CHECK(n >= 10, "at least ten calls (%zu)", n);
	for (i = 0; i < n; i++) {
		CHECK(t[i].name && t[i].name[0], "row %zu has a name", i);
		CHECK(t[i].nr >= 0, "%s: a call number", t[i].name);
		/* a filter answers EPERM (docker), EACCES, ENOSYS (docker's
		 * default action for unknown calls): never what the kernel
		 * itself is expected to say */
		CHECK(t[i].expect != EPERM && t[i].expect != EACCES &&
		      t[i].expect != ENOSYS && t[i].expect >= 0,
		      "%s: expects %d, which no filter gives", t[i].name, t[i].expect);
		for (j = i + 1; j < n; j++)
			CHECK(strcmp(t[i].name, t[j].name) != 0, "%s: once", t[i].name);
	}
	for (i = 0; i < ARRAY_SIZE(must); i++)
		CHECK(row(must[i]) != NULL, "%s is tried", must[i]);
	CHECK(row("mount") && row("mount")->judged, "mount is judged");
	CHECK(row("unshare") && row("unshare")->judged, "unshare is judged");
	CHECK(row("setns") && row("setns")->judged, "setns is judged");
	CHECK(row("ptrace") && !row("ptrace")->judged,
	      "ptrace is not judged (docker allows it since Linux 4.8)");
}

static void test_judge(void)
{
	const struct sbx_try *m = row("mount"), *p = row("personality");

	if (!m || !p)
		return;
	CHECK_INT(sbx_try_judge(m, EFAULT), TRY_ALLOWED, "mount: EFAULT is the kernel's");
	CHECK_INT(sbx_try_judge(m, EPERM), TRY_BLOCKED, "mount: EPERM is a filter's");
	CHECK_INT(sbx_try_judge(m, ENOSYS), TRY_BLOCKED, "mount: ENOSYS");
	CHECK_INT(sbx_try_judge(m, EACCES), TRY_BLOCKED, "mount: EACCES");
	CHECK_INT(sbx_try_judge(m, SBX_TRY_KILLED), TRY_BLOCKED, "mount: a kill");
	CHECK_INT(sbx_try_judge(m, SBX_TRY_NONE), TRY_UNKNOWN, "mount: no answer");
	CHECK_INT(sbx_try_judge(p, 0), TRY_ALLOWED, "personality: success");
	CHECK_INT(sbx_try_judge(p, EPERM), TRY_BLOCKED, "personality: EPERM");
	CHECK_STR(sbx_try_word(TRY_ALLOWED), "allowed", "word");
	CHECK_STR(sbx_try_word(TRY_BLOCKED), "blocked", "word");
	CHECK_STR(sbx_try_word(TRY_UNKNOWN), "unknown", "word");
}

/* ---- in a child ---- */

static void child_rows(void *arg, int fd)
{
	size_t n, i;
	const struct sbx_try *t = sbx_tries(&n);

	(void)arg;
	for (i = 0; i < n; i++) {
		long rc = syscall(t[i].nr, t[i].a[0], t[i].a[1], t[i].a[2], t[i].a[3],
				  t[i].a[4], t[i].a[5]);
		int32_t ans = rc < 0 ? (int32_t)errno : 0;

		if (write(fd, &ans, sizeof(ans)) != (ssize_t)sizeof(ans))
			_exit(1);
	}
}

/* 2 when a seccomp filter is on this process, 0 when none, -1 unknown */
static int seccomp_mode(void)
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "re");
	int mode = -1;

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "Seccomp:", 8))
			mode = (int)strtol(line + 8, NULL, 10);
	if (f)
		fclose(f);
	return mode;
}

static void test_kernel(void)
{
	struct spawn_result sr;
	size_t n, i;
	const struct sbx_try *t = sbx_tries(&n);

	if (seccomp_mode() != 0) {
		SKIP("a seccomp filter (or no /proc): the kernel's own answers cannot be seen");
		return;
	}
	CHECK(spawn_fork_for(NULL, child_rows, NULL, clock_ms() + 5000, &sr) == 0, "fork");
	CHECK_INT(sr.status, SPAWN_EXITED, "the child exited");
	CHECK(sr.out_len == 1 + n * sizeof(int32_t), "an answer per row (%zu bytes)",
	      sr.out_len);
	for (i = 0; i < n && sr.out_len == 1 + n * sizeof(int32_t); i++) {
		int32_t v;

		memcpy(&v, sr.out + 1 + i * sizeof(v), sizeof(v));
		CHECK_INT(sbx_try_judge(&t[i], v), TRY_ALLOWED,
			  "%s: unfiltered, this kernel answers %d, the table expects %d",
			  t[i].name, v, t[i].expect);
	}
	spawn_result_release(&sr);
}

static void child_write(void *arg, int fd)
{
	(void)arg;
	if (write(fd, "abc", 3) != 3)
		_exit(1);
}

static void child_sigsys(void *arg, int fd)
{
	(void)arg;
	(void)fd;
	kill(getpid(), SIGSYS);
}

static void child_hang(void *arg, int fd)
{
	(void)arg;
	(void)fd;
	for (;;)
		pause();
}

static void test_fork(void)
{
	struct spawn_result sr;

	CHECK(spawn_fork_for(NULL, child_write, NULL, clock_ms() + 5000, &sr) == 0, "fork");
	CHECK_INT(sr.status, SPAWN_EXITED, "exited");
	CHECK_INT(sr.code, 0, "status 0");
	CHECK(sr.out_len == 4 && !memcmp(sr.out, SPAWN_FORK_READY "abc", 4), "its bytes");
	spawn_result_release(&sr);

	CHECK(spawn_fork_for(NULL, child_sigsys, NULL, clock_ms() + 5000, &sr) == 0, "fork");
	CHECK_INT(sr.status, SPAWN_SIGNALED, "SIGSYS ends it (default action)");
	CHECK_INT(sr.code, SIGSYS, "by SIGSYS");
	CHECK(sr.out_len == 1, "ready, nothing else");
	spawn_result_release(&sr);

	CHECK(spawn_fork_for(NULL, child_hang, NULL, clock_ms() + 100, &sr) == 0, "fork");
	CHECK_INT(sr.status, SPAWN_TIMED_OUT, "killed at the deadline");
	/* a child the kernel took longer than SPAWN_REAP_MS to end (a loaded
	 * machine, an ASan build's large address space to tear down) is
	 * left unreaped for spawn_kill_all, which the audit calls at its end:
	 * gone after that, not within a time of its own */
	if (sr.unreaped)
		spawn_kill_all(clock_ms() + 5000, NULL);
	CHECK(kill(sr.pid, 0) < 0 && errno == ESRCH, "gone%s",
	      sr.unreaped ? " after spawn_kill_all" : "");
	spawn_result_release(&sr);

	CHECK(spawn_fork_for(NULL, child_write, NULL, clock_ms() - 1, &sr) == 0,
	      "past the deadline");
	CHECK_INT(sr.status, SPAWN_TIMED_OUT, "never started");
	CHECK_INT(sr.pid, 0, "no child");
	spawn_result_release(&sr);
}

/* as spawnrun.c decides whether a child may share our memory */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
	__has_feature(memory_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

static int shared_flag;

static void child_shared(void *arg, int fd)
{
	(void)arg;
	shared_flag = 1;	/* the memory is ours too */
	if (write(fd, "xy", 2) != 2)
		_exit(1);
}

/* spawn_vfork_for: the child shares our memory (in a sanitizer build it
 * is a copy: then the flag stays 0) */
static void test_vfork(void)
{
	struct spawn_result sr;

	shared_flag = 0;
	CHECK(spawn_vfork_for(NULL, child_shared, NULL, clock_ms() + 5000, &sr) == 0, "clone");
	CHECK_INT(sr.status, SPAWN_EXITED, "exited");
	CHECK(sr.out_len == 3 && !memcmp(sr.out, SPAWN_FORK_READY "xy", 3), "its bytes");
	if (!SANITIZED)
		CHECK_INT(shared_flag, 1, "it wrote to our memory");
	spawn_result_release(&sr);

	CHECK(spawn_vfork_for(NULL, child_hang, NULL, clock_ms() + 100, &sr) == 0, "clone");
	CHECK_INT(sr.status, SPAWN_TIMED_OUT, "killed at the deadline");
	CHECK_INT(sr.unreaped, 0, "and reaped");
	CHECK(kill(sr.pid, 0) < 0 && errno == ESRCH, "gone");
	spawn_result_release(&sr);
}

void test_main(void)
{
	test_table();
	test_judge();
	test_kernel();
	test_fork();
	test_vfork();
}
