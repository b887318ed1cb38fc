/* sandbox_seccomp.c - what a seccomp filter blocks, and whether a new user
 * namespace can be made: both asked of the kernel by trying (see
 * probe_sandbox.c for the probe and what it touches).
 *
 * /proc/self/status says only that a filter is there ("Seccomp: 2"), not
 * what it refuses: a filter that allows every call reads the same.  So a
 * forked child (spawn_fork_for: no exec, killed at the deadline, reaped)
 * makes a few harmless calls, each with arguments the kernel, unfiltered,
 * rejects with a distinctive errno before any capability check and before
 * anything is done (the rows of tries[] cite where).  The unfiltered
 * errno back means the call reached the kernel: allowed.  Another errno
 * (the filter's EPERM, ENOSYS, ...), or the child's death by a signal
 * (SECCOMP_RET_TRAP, RET_KILL: SIGSYS) means the filter stopped it:
 * blocked.  No answer by the deadline (SECCOMP_RET_USER_NOTIF with a
 * supervisor that does not answer) is unknown.
 *
 * The user namespace check's child tries unshare(CLONE_NEWUSER) itself,
 * then, inside the new namespace, unshare(CLONE_NEWNS), which needs
 * CAP_SYS_ADMIN there: Ubuntu's AppArmor restriction lets the first
 * succeed and the second fail.  The child exits; the namespaces go with it.
 * The sysctls that decide it are read to explain the answer.
 *
 * With a fixture ENVPREFLIGHT_PROC_ROOT (another machine's /proc) nothing
 * is tried: this kernel would answer for the wrong machine.
 */
#include "probe_sandbox.h"
#include "saferead.h"
#include "spawnrun.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define TRY_MS 250		/* one child; its calls take microseconds */
#define BAD_PTR 1L		/* an address no process maps: EFAULT */

/*
 * The calls, in the order tried.  judged: docker's default seccomp profile
 * refuses it to a container without the matching capability (moby
 * profiles/seccomp/default.json: mount, umount2, unshare, setns, the new
 * mount API and bpf/perf_event_open under CAP_SYS_ADMIN/CAP_BPF/
 * CAP_PERFMON, process_vm_readv under CAP_SYS_PTRACE; keyctl, add_key,
 * request_key, userfaultfd and personality beyond its few harmless values
 * for everyone); a pass needs every judged call blocked.  ptrace (allowed
 * by docker since Linux 4.8), io_uring_setup (allowed before docker 25)
 * and chroot (CAP_SYS_CHROOT is a default capability) are reported only.
 * Each expect was read in the kernel source (Linux 6.x) and seen on a
 * kernel without a filter, as root and as nobody.
 */
static const struct sbx_try tries[] = {
	/* fs/namespace.c SYSCALL_DEFINE5(mount): copy_mount_string(type)
	 * before path_mount's may_mount() */
	{ "mount", SYS_mount, { 0, 0, BAD_PTR, 0, 0, 0 }, EFAULT, 1 },
	/* fs/namespace.c ksys_umount: the flags before may_mount() */
	{ "umount2", SYS_umount2, { 0, 0x80000000L, 0, 0, 0, 0 }, EINVAL, 1 },
	/* kernel/fork.c check_unshare_flags: CSIGNAL bits are no flag */
	{ "unshare", SYS_unshare, { 0x1, 0, 0, 0, 0, 0 }, EINVAL, 1 },
	/* kernel/nsproxy.c SYSCALL_DEFINE2(setns): fdget(fd) first */
	{ "setns", SYS_setns, { -1, 0, 0, 0, 0, 0 }, EBADF, 1 },
#ifdef SYS_open_tree
	/* fs/namespace.c SYSCALL_DEFINE3(open_tree): the flags first */
	{ "open_tree", SYS_open_tree, { -1, 0, 0x80000000L, 0, 0, 0 }, EINVAL, 1 },
#endif
#ifdef SYS_fsconfig
	/* fs/fsopen.c SYSCALL_DEFINE5(fsconfig): fd < 0 first */
	{ "fsconfig", SYS_fsconfig, { -1, 0x7fffffff, 0, 0, 0, 0 }, EINVAL, 1 },
#endif
#ifdef SYS_mount_setattr
	/* fs/namespace.c SYSCALL_DEFINE5(mount_setattr): the flags first */
	{ "mount_setattr", SYS_mount_setattr, { -1, 0, 0x80000000L, 0, 0, 0 }, EINVAL, 1 },
#endif
	/* security/keys/keyctl.c SYSCALL_DEFINE5(keyctl): an unknown
	 * operation is -EOPNOTSUPP */
	{ "keyctl", SYS_keyctl, { 0x7fffffff, 0, 0, 0, 0, 0 }, EOPNOTSUPP, 1 },
	/* security/keys/keyctl.c add_key, request_key:
	 * key_get_type_from_user copies the type name first */
	{ "add_key", SYS_add_key, { BAD_PTR, 0, 0, 0, 0, 0 }, EFAULT, 1 },
	{ "request_key", SYS_request_key, { BAD_PTR, 0, 0, 0, 0, 0 }, EFAULT, 1 },
	/* kernel/bpf/syscall.c __sys_bpf: bpf_check_uarg_tail_zero, an
	 * attribute larger than a page is -E2BIG (1 MiB: past 64 KiB pages) */
	{ "bpf", SYS_bpf, { 0x7fffffff, 0, 1L << 20, 0, 0, 0 }, E2BIG, 1 },
	/* kernel/events/core.c perf_event_open: perf_copy_attr reads
	 * attr->size before perf_event_paranoid is looked at */
	{ "perf_event_open", SYS_perf_event_open, { 0, 0, -1, -1, 0, 0 }, EFAULT, 1 },
#ifdef SYS_userfaultfd
	/* fs/userfaultfd.c: UFFD_USER_MODE_ONLY passes
	 * userfaultfd_syscall_allowed (Linux 5.11+), new_userfaultfd then
	 * rejects the unknown bit 0x2 */
	{ "userfaultfd", SYS_userfaultfd, { 0x1 | 0x2, 0, 0, 0, 0, 0 }, EINVAL, 1 },
#endif
	/* kernel/exec_domain.c: any persona is set (this child's only, for
	 * its later execs: it has none); docker allows only 0, 8, 0x20000,
	 * 0x20008 and 0xffffffff.  ADDR_NO_RANDOMIZE: 0, success */
	{ "personality", SYS_personality, { 0x0040000, 0, 0, 0, 0, 0 }, 0, 1 },
	/* mm/process_vm_access.c process_vm_rw: flags != 0 first */
	{ "process_vm_readv", SYS_process_vm_readv, { 0, 0, 0, 0, 0, 1 }, EINVAL, 1 },
	/* kernel/ptrace.c: find_get_task_by_vpid finds no such pid */
	{ "ptrace", SYS_ptrace, { 3, 0x7fffffff, 0, 0, 0, 0 }, ESRCH, 0 },
#ifdef SYS_io_uring_setup
	/* io_uring/io_uring.c io_uring_setup: copy_from_user(params) */
	{ "io_uring_setup", SYS_io_uring_setup, { 1, 0, 0, 0, 0, 0 }, EFAULT, 0 },
#endif
	/* fs/open.c chroot: user_path_at before ns_capable(CAP_SYS_CHROOT) */
	{ "chroot", SYS_chroot, { BAD_PTR, 0, 0, 0, 0, 0 }, EFAULT, 0 },
};

const struct sbx_try *sbx_tries(size_t *n)
{
	*n = ARRAY_SIZE(tries);
	return tries;
}

enum sbx_try_verdict sbx_try_judge(const struct sbx_try *t, int answer)
{
	if (answer == SBX_TRY_KILLED)
		return TRY_BLOCKED;	/* RET_KILL, RET_TRAP: the filter's */
	if (answer < 0)
		return TRY_UNKNOWN;
	return answer == t->expect ? TRY_ALLOWED : TRY_BLOCKED;
}

const char *sbx_try_word(enum sbx_try_verdict v)
{
	return v == TRY_ALLOWED ? "allowed" : v == TRY_BLOCKED ? "blocked" : "unknown";
}

/* Only /proc itself is this machine's: with a fixture ENVPREFLIGHT_PROC_ROOT
 * (another machine's) this kernel's answers would be misread as its. */
static int may_try(const struct sbx *x)
{
	return !strcmp(x->proc, "/proc");
}

/* "EPERM", ... (static) */
static const char *errname(int e)
{
	const char *s = e > 0 ? strerrorname_np(e) : NULL;

	return s ? s : "an unknown errno";
}

/* ---- the child ------------------------------------------------------ */

/* Each answer as one int32: 0 success, else the errno.  Raw system calls
 * and write(2) only: async-signal-safe (spawn_fork_for). */
static void tries_child(void *arg, int fd)
{
	size_t i;

	for (i = *(const size_t *)arg; i < ARRAY_SIZE(tries); i++) {
		const struct sbx_try *t = &tries[i];
		long rc = syscall(t->nr, t->a[0], t->a[1], t->a[2], t->a[3], t->a[4],
				  t->a[5]);
		int32_t ans = rc < 0 ? (int32_t)errno : 0;

		if (write(fd, &ans, sizeof(ans)) != (ssize_t)sizeof(ans))
			_exit(126);
	}
}

/* The answers the output holds, from row from on: how many. */
static size_t answers_take(const struct spawn_result *sr, size_t from,
			   int *answer)
{
	size_t n, i;

	if (sr->out_len < 1 || sr->out[0] != SPAWN_FORK_READY[0])
		return 0;
	n = (sr->out_len - 1) / sizeof(int32_t);
	for (i = 0; i < n && from + i < ARRAY_SIZE(tries); i++) {
		int32_t v;

		memcpy(&v, sr->out + 1 + i * sizeof(v), sizeof(v));
		answer[from + i] = v >= 0 ? v : EIO;
	}
	return i;
}

/* Until when one child may take. */
static double try_deadline(const struct sbx *x)
{
	double until = clock_ms() + TRY_MS;

	return x->deadline_ms > 0 && x->deadline_ms < until ? x->deadline_ms : until;
}

/* Try every row: answer[i] the errno (0 success), how[i] what else
 * happened (NULL: it answered).  A child killed by a signal at row k
 * (RET_KILL, RET_TRAP) or silent there at its deadline (RET_USER_NOTIF)
 * is followed by another from k + 1, so that one call cannot hide the
 * others; at most one child per row.  Returns how many children ran. */
static size_t tries_run(const struct sbx *x, int *answer, const char **how,
			char *why, size_t why_size)
{
	size_t from = 0, forks = 0, i;

	for (i = 0; i < ARRAY_SIZE(tries); i++) {
		answer[i] = SBX_TRY_NONE;
		how[i] = "not tried";
	}
	while (from < ARRAY_SIZE(tries)) {
		struct spawn_result sr;
		size_t got;

		if (x->deadline_ms > 0 && clock_ms() >= x->deadline_ms)
			break;
		forks++;
		if (spawn_fork_for(x, tries_child, &from, try_deadline(x), &sr) < 0) {
			snprintf(why, why_size, "cannot fork: %s", strerror(sr.err));
			spawn_result_release(&sr);
			break;
		}
		got = answers_take(&sr, from, answer);
		for (i = from; i < from + got; i++)
			how[i] = NULL;
		if (sr.out_len < 1) {
			snprintf(why, why_size, "the child died before its first call");
			spawn_result_release(&sr);
			break;
		}
		from += got;
		if (from < ARRAY_SIZE(tries)) {
			if (sr.status == SPAWN_SIGNALED) {
				answer[from] = SBX_TRY_KILLED;
				how[from] = sr.code == SIGSYS ? "killed by SIGSYS" :
					    "killed by a signal";
			} else {
				how[from] = sr.status == SPAWN_TIMED_OUT ?
					    "no answer by the deadline" : "no answer";
			}
			from++;
		}
		spawn_result_release(&sr);
	}
	return forks;
}

/* ---- identity.seccomp ----------------------------------------------- */

static void add_answer(cJSON *o, const struct sbx_try *t, int answer, const char *how)
{
	if (how) {
		cJSON_AddStringToObject(o, t->name, how);
	} else if (answer == 0) {
		cJSON_AddStringToObject(o, t->name, "success");
	} else {
		cJSON_AddStringToObject(o, t->name, errname(answer));
	}
}

/* A verdict from the answers of mode 2. */
static void filter_judge(const struct sbx *x, struct result *r, const int *answer,
			 const char **how)
{
	struct names allowed = { 0 }, unknown = { 0 }, info = { 0 };
	cJSON *calls = cJSON_CreateObject(), *answers = cJSON_CreateObject();
	struct buf msg = BUF_INIT;
	size_t i, judged = 0;

	for (i = 0; i < ARRAY_SIZE(tries); i++) {
		const struct sbx_try *t = &tries[i];
		enum sbx_try_verdict v = sbx_try_judge(t, answer[i]);

		cJSON_AddStringToObject(calls, t->name, sbx_try_word(v));
		add_answer(answers, t, answer[i], how[i]);
		judged += t->judged;
		if (!t->judged) {
			if (v == TRY_ALLOWED)
				sbx_names_add(&info, t->name);
		} else if (v == TRY_ALLOWED) {
			sbx_names_add(&allowed, t->name);
		} else if (v == TRY_UNKNOWN) {
			sbx_names_add(&unknown, t->name);
		}
	}
	cJSON_AddItemToObject(r->data, "calls", calls);
	cJSON_AddItemToObject(r->data, "answers", answers);
	if (allowed.n) {
		sbx_list_text(&msg, allowed.v, allowed.n);
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "the seccomp filter allows "
			    "%zu of %zu calls tried: %s", allowed.n, judged, buf_str(&msg));
	} else if (unknown.n) {
		sbx_list_text(&msg, unknown.v, unknown.n);
		sbx_verdict(x, r, 0, STATUS_WARN, REASON_UNDECIDED, "seccomp filter mode; "
			    "cannot tell whether it blocks %s (no answer)", buf_str(&msg));
	} else {
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "the seccomp filter blocks "
			    "all %zu calls tried (mount, unshare, setns, keyctl, bpf, ...)",
			    judged);
	}
	if (info.n) {
		buf_release(&msg);
		sbx_list_text(&msg, info.v, info.n);
		result_note(r, "allowed, not judged: %s", buf_str(&msg));
	}
	buf_release(&msg);
	sbx_names_release(&allowed);
	sbx_names_release(&unknown);
	sbx_names_release(&info);
}

void sbx_id_seccomp(const struct sbx *x, struct result *r)
{
	static const char *const modes[] = { "disabled", "strict", "filter" };
	const char *how[ARRAY_SIZE(tries)];
	int answer[ARRAY_SIZE(tries)];
	struct proc_identity id;
	char why[128] = "";

	if (sbx_read_identity(x, &id, r) < 0)
		return;
	sbx_add_nullable(r->data, "mode", id.seccomp >= 0 ? modes[id.seccomp] : NULL);
	if (id.seccomp_filters >= 0)
		cJSON_AddNumberToObject(r->data, "filters", (double)id.seccomp_filters);
	else
		cJSON_AddNullToObject(r->data, "filters");
	cJSON_AddBoolToObject(r->data, "tried", id.seccomp == 2 && may_try(x));
	if (id.seccomp == 2 && !may_try(x)) {
		sbx_verdict(x, r, 0, STATUS_WARN, REASON_UNDECIDED, "seccomp filter mode; "
			    "what it blocks was not tried (a fixture /proc: another machine)");
	} else if (id.seccomp == 2) {
		tries_run(x, answer, how, why, sizeof(why));
		filter_judge(x, r, answer, how);
		if (why[0])
			result_note(r, "%s", why);
	} else if (id.seccomp == 1) {
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "seccomp strict mode");
	} else {
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "no seccomp filter: every system "
			"call is open%s", id.seccomp < 0 ? " (the kernel has no seccomp)" : "");
	}
	proc_identity_release(&id);
}

/* ---- identity.userns ------------------------------------------------ */

/* The user namespace child: three int32 answers (an errno, 0 success,
 * -1 not tried): unshare(CLONE_NEWUSER); when refused, clone with
 * CLONE_NEWUSER (a filter may look at one and not the other: docker's
 * checks clone's flags argument); and inside the namespace made,
 * unshare(CLONE_NEWNS), which needs CAP_SYS_ADMIN there.  The grandchild
 * of clone exits at once and is waited for here (it is in this child's
 * process group: the deadline's kill reaches it).  clone3 is not tried:
 * a filter cannot read its flags, docker's answers it ENOSYS. */
static void userns_child(void *arg, int fd)
{
	int32_t ans[3] = { 0, -1, -1 };
	long pid;
	int ws = 0;

	(void)arg;
	if (syscall(SYS_unshare, CLONE_NEWUSER) == 0) {
		ans[2] = syscall(SYS_unshare, CLONE_NEWNS) < 0 ? (int32_t)errno : 0;
	} else {
		ans[0] = (int32_t)errno;
		/* no stack, no tids, no tls: the arguments' order (it varies
		 * by architecture) does not matter; a fork's copy */
		pid = syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0);
		if (pid == 0)
			_exit(syscall(SYS_unshare, CLONE_NEWNS) < 0 ? 1 : 0);
		if (pid < 0) {
			ans[1] = (int32_t)errno;
		} else {
			ans[1] = 0;
			if (waitpid((pid_t)pid, &ws, 0) == (pid_t)pid && WIFEXITED(ws))
				ans[2] = WEXITSTATUS(ws) ? EPERM : 0;
		}
	}
	if (write(fd, ans, sizeof(ans)) != (ssize_t)sizeof(ans))
		_exit(126);
}

/* The sysctls that decide it (kernel/ucount.c max_user_namespaces, per
 * user namespace; Debian's kernel.unprivileged_userns_clone; Ubuntu's
 * kernel.apparmor_restrict_unprivileged_userns), each as a number in
 * data, or null when the kernel has none. */
static const struct {
	const char *name, *rel;
} userns_sysctls[] = {
	{ "user.max_user_namespaces", "sys/user/max_user_namespaces" },
	{ "kernel.unprivileged_userns_clone", "sys/kernel/unprivileged_userns_clone" },
	{ "kernel.apparmor_restrict_unprivileged_userns",
	  "sys/kernel/apparmor_restrict_unprivileged_userns" },
};

static long sysctl_read(const struct sbx *x, const char *rel)
{
	char *path = path_join(x->proc, rel), *end;
	struct blob b;
	long v = -1;

	if (saferead_path(path, 64, &b) == 0) {
		char text[32];

		snprintf(text, sizeof(text), "%.*s", (int)b.len, b.data);
		errno = 0;
		v = strtol(text, &end, 10);
		if (errno || end == text || v < 0)
			v = -1;
		blob_release(&b);
	}
	free(path);
	return v;
}

/* The explanation of a refusal from the sysctls, or NULL. */
static const char *userns_why(int err, const long *sys)
{
	if (sys[0] == 0)
		return "user.max_user_namespaces is 0";
	if (err == ENOSPC)
		return "user.max_user_namespaces is reached";
	if (sys[1] == 0)
		return "kernel.unprivileged_userns_clone is 0";
	if (err == EPERM)
		return "refused: a seccomp filter, a chroot, or a security module";
	if (err == ENOSYS)
		return "refused as absent (a seccomp filter, or no CONFIG_USER_NS)";
	return NULL;
}

void sbx_id_userns(const struct sbx *x, struct result *r)
{
	cJSON *sys = cJSON_CreateObject();
	struct spawn_result sr = { 0 };
	long v[ARRAY_SIZE(userns_sysctls)];
	int32_t ans[3] = { -1, -1, -1 };
	const char *answer, *why;
	size_t i;
	int made, seccomp = -1;
	struct proc_identity id;

	for (i = 0; i < ARRAY_SIZE(userns_sysctls); i++) {
		v[i] = sysctl_read(x, userns_sysctls[i].rel);
		if (v[i] >= 0)
			cJSON_AddNumberToObject(sys, userns_sysctls[i].name, (double)v[i]);
		else
			cJSON_AddNullToObject(sys, userns_sysctls[i].name);
	}
	cJSON_AddItemToObject(r->data, "sysctls", sys);
	cJSON_AddBoolToObject(r->data, "tried", may_try(x));
	if (may_try(x) && sbx_read_identity(x, &id, r) == 0) {
		seccomp = id.seccomp;
		proc_identity_release(&id);
	} else if (may_try(x)) {
		return;		/* r is an error */
	}
	if (!may_try(x)) {
		cJSON_AddNullToObject(r->data, "answer");
		cJSON_AddNullToObject(r->data, "errno");
		if (v[0] == 0)
			sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "new user namespaces "
				    "denied: %s", userns_why(0, v));
		else
			sbx_verdict(x, r, 0, STATUS_WARN, REASON_UNDECIDED, "not tried (a "
				    "fixture /proc: another machine); no sysctl denies them");
		return;
	}
	/* no filter, no SIGSYS: the child may share our memory (cheap) */
	if ((seccomp == 0 ? spawn_vfork_for : spawn_fork_for)(x, userns_child, NULL,
							      try_deadline(x), &sr) == 0 &&
	    sr.status == SPAWN_EXITED && sr.code == 0 &&
	    sr.out_len == 1 + sizeof(ans))
		memcpy(ans, sr.out + 1, sizeof(ans));
	made = ans[0] == 0 || ans[1] == 0;
	/* AppArmor's restriction (Ubuntu 23.10+) lets the namespace be made
	 * and denies the capabilities in it; a refusal inside for another
	 * reason (a filter refusing unshare) leaves clone's way open */
	answer = ans[0] < 0 ? NULL : !made ? "denied" : ans[2] > 0 && v[2] > 0 ?
		 "restricted" : "allowed";
	sbx_add_nullable(r->data, "answer", answer);
	sbx_add_nullable(r->data, "errno", ans[0] > 0 ? errname(ans[0]) : NULL);
	sbx_add_nullable(r->data, "clone_errno", ans[1] > 0 ? errname(ans[1]) : NULL);
	if (!answer) {
		if (sr.status == SPAWN_SIGNALED && sr.code == SIGSYS)
			sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "new user namespaces "
				    "denied: trying one killed the process (SIGSYS: a seccomp "
				    "filter)");
		else
			sbx_verdict(x, r, 0, STATUS_WARN, REASON_UNDECIDED, "cannot tell: "
				    "the child trying unshare(CLONE_NEWUSER) gave no answer");
	} else if (!made) {
		why = userns_why(ans[0], v);
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "new user namespaces denied "
			    "(unshare: %s, clone: %s%s%s)", errname(ans[0]), errname(ans[1]),
			    why ? "; " : "", why ? why : "");
	} else if (!strcmp(answer, "restricted")) {
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "a new user namespace can be "
			    "made but holds no capabilities (unshare(CLONE_NEWNS) inside "
			    "refused; kernel.apparmor_restrict_unprivileged_userns is on)");
	} else {
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "a new user namespace can be "
			    "made (%s), with every capability inside it", ans[0] == 0 ?
			    "unshare" : "clone, though unshare is refused");
	}
	spawn_result_release(&sr);
}
