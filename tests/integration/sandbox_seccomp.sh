#!/bin/sh
# sandbox_seccomp.sh - identity.seccomp (what a seccomp filter blocks) and
# identity.userns (whether a new user namespace can be made) in real
# sandboxes: bubblewrap with --seccomp FD and filters compiled here (an
# allow-all one, one like docker's default, a partial one with EPERM,
# ENOSYS, SIGSYS and a kill among its answers), unshare -U with
# user.max_user_namespaces set to 0 in the namespace it makes, as root
# and as nobody.  In each a prober *tries* every call for real from
# inside the same sandbox, and the test asserts that envpreflight's
# per-call verdict (data.calls) is what the prober could do.
. "$(dirname "$0")/../lib.sh"
T=$TEST_TMPDIR/seccomp
mkdir -p "$T/repo" "$T/bin"
repo=$T/repo
out=$T/out.json
err=$T/err

[ "$(id -u)" = 0 ] || { skip "not root: bwrap --seccomp and the real calls need root"; finish; }
[ -x /usr/bin/bwrap ] || { skip "no /usr/bin/bwrap"; finish; }
command -v cc >/dev/null 2>&1 || { skip "no C compiler for the filters and the prober"; finish; }
[ -x /usr/bin/python3 ] || { skip "no /usr/bin/python3 to read the reports"; finish; }

cat >"$T/mkbpf.c" <<'EOF'
/* mkbpf: a seccomp BPF program on stdout, for bwrap --seccomp FD.  Each
 * argument NAME=ACTION (errno: EPERM, enosys, kill, trap) adds a rule; the
 * name clone_newuser is clone with CLONE_NEWUSER in its flags; every other
 * call is allowed. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
static const struct { const char *n; long nr; } calls[] = {
	{ "mount", SYS_mount }, { "umount2", SYS_umount2 }, { "unshare", SYS_unshare },
	{ "setns", SYS_setns }, { "open_tree", SYS_open_tree }, { "fsconfig", SYS_fsconfig },
	{ "mount_setattr", SYS_mount_setattr }, { "keyctl", SYS_keyctl },
	{ "add_key", SYS_add_key }, { "request_key", SYS_request_key }, { "bpf", SYS_bpf },
	{ "perf_event_open", SYS_perf_event_open }, { "userfaultfd", SYS_userfaultfd },
	{ "personality", SYS_personality }, { "process_vm_readv", SYS_process_vm_readv },
	{ "ptrace", SYS_ptrace }, { "io_uring_setup", SYS_io_uring_setup },
	{ "chroot", SYS_chroot }, { "clone3", SYS_clone3 },
};
static struct sock_filter prog[512];
static int n;
#define ADD(f) (prog[n++] = (struct sock_filter)f)
int main(int argc, char **argv)
{
#if defined(__x86_64__)
	unsigned arch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
	unsigned arch = AUDIT_ARCH_AARCH64;
#else
	return 3;
#endif
	ADD(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)));
	ADD(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, arch, 1, 0));
	ADD(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
	ADD(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)));
	for (int i = 1; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');
		char name[64];
		unsigned ret;
		long nr = -1;

		if (!eq)
			return 2;
		snprintf(name, sizeof(name), "%.*s", (int)(eq - argv[i]), argv[i]);
		ret = !strcmp(eq + 1, "kill") ? SECCOMP_RET_KILL_PROCESS :
		      !strcmp(eq + 1, "trap") ? SECCOMP_RET_TRAP :
		      !strcmp(eq + 1, "enosys") ? SECCOMP_RET_ERRNO | ENOSYS :
		      SECCOMP_RET_ERRNO | EPERM;
		if (!strcmp(name, "clone_newuser")) {
			/* clone's flags, the low word of args[0] */
			ADD(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 0, 4));
			ADD(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])));
			ADD(BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_NEWUSER, 0, 1));
			ADD(BPF_STMT(BPF_RET | BPF_K, ret));
			ADD(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)));
			continue;
		}
		for (size_t k = 0; k < sizeof(calls) / sizeof(calls[0]); k++)
			if (!strcmp(calls[k].n, name))
				nr = calls[k].nr;
		if (nr < 0) {
			fprintf(stderr, "mkbpf: unknown %s\n", name);
			return 2;
		}
		ADD(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nr, 0, 1));
		ADD(BPF_STMT(BPF_RET | BPF_K, ret));
	}
	ADD(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
	return fwrite(prog, sizeof(prog[0]), (size_t)n, stdout) == (size_t)n ? 0 : 1;
}
EOF
cat >"$T/prober.c" <<'EOF'
/* prober: tries each call for real, each in a child of its own (a filter
 * may kill), and prints "NAME allowed" or "NAME blocked" a line: blocked
 * when the child died of a signal or the call failed with EPERM or ENOSYS
 * (run as root with every capability: no other refusal gives those),
 * allowed otherwise (it reached the kernel).  "prober userns" tries
 * unshare(CLONE_NEWUSER), then clone with CLONE_NEWUSER: allowed or
 * denied. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/io_uring.h>
#include <linux/keyctl.h>
#include <linux/mount.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/personality.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

static long try(const char *name)
{
	if (!strcmp(name, "mount"))	/* run in a mount namespace of its own */
		return mount("prober", "/tmp", "tmpfs", 0, NULL);
	if (!strcmp(name, "umount2"))
		return umount2("/prober-no-such-dir", 0);
	if (!strcmp(name, "unshare"))
		return unshare(CLONE_NEWUTS);
	if (!strcmp(name, "setns"))
		return setns(open("/proc/self/ns/uts", O_RDONLY), CLONE_NEWUTS);
	if (!strcmp(name, "open_tree"))
		return syscall(SYS_open_tree, AT_FDCWD, "/", OPEN_TREE_CLOEXEC);
	if (!strcmp(name, "fsconfig"))
		return syscall(SYS_fsconfig, syscall(SYS_fsopen, "tmpfs", 0),
			       FSCONFIG_SET_FLAG, "ro", NULL, 0);
	if (!strcmp(name, "mount_setattr")) {
		struct mount_attr a = { 0 };
		return syscall(SYS_mount_setattr, AT_FDCWD, "/prober-no-such-dir", 0,
			       &a, sizeof(a));
	}
	if (!strcmp(name, "keyctl"))
		return syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, KEY_SPEC_PROCESS_KEYRING, 1);
	if (!strcmp(name, "add_key"))
		return syscall(SYS_add_key, "user", "prober", "x", 1, KEY_SPEC_PROCESS_KEYRING);
	if (!strcmp(name, "request_key"))
		return syscall(SYS_request_key, "user", "prober-none", NULL,
			       KEY_SPEC_PROCESS_KEYRING);
	if (!strcmp(name, "bpf")) {
		union bpf_attr a;
		memset(&a, 0, sizeof(a));
		a.map_type = BPF_MAP_TYPE_ARRAY;
		a.key_size = 4;
		a.value_size = 4;
		a.max_entries = 1;
		return syscall(SYS_bpf, BPF_MAP_CREATE, &a, sizeof(a));
	}
	if (!strcmp(name, "perf_event_open")) {
		struct perf_event_attr a;
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = PERF_TYPE_SOFTWARE;
		a.config = PERF_COUNT_SW_TASK_CLOCK;
		a.disabled = 1;
		return syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	}
	if (!strcmp(name, "userfaultfd"))
		return syscall(SYS_userfaultfd, O_CLOEXEC);
	if (!strcmp(name, "personality"))
		return personality(PER_LINUX | ADDR_NO_RANDOMIZE);
	if (!strcmp(name, "process_vm_readv")) {
		char src[8] = "abcdefg", dst[8];
		struct iovec l = { dst, 8 }, r = { src, 8 };
		return process_vm_readv(getpid(), &l, 1, &r, 1, 0);
	}
	if (!strcmp(name, "ptrace"))
		return ptrace(PTRACE_TRACEME, 0, NULL, NULL);
	if (!strcmp(name, "io_uring_setup")) {
		struct io_uring_params p;
		memset(&p, 0, sizeof(p));
		return syscall(SYS_io_uring_setup, 1, &p);
	}
	if (!strcmp(name, "chroot"))
		return chroot("/");
	fprintf(stderr, "prober: unknown %s\n", name);
	exit(2);
}

static int userns(void)
{
	pid_t pid;
	int ws;

	if (unshare(CLONE_NEWUSER) == 0)
		return 1;
	pid = (pid_t)syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0);
	if (pid == 0)
		_exit(0);
	if (pid < 0)
		return 0;
	return waitpid(pid, &ws, 0) == pid && WIFEXITED(ws) && WEXITSTATUS(ws) == 0;
}

int main(int argc, char **argv)
{
	int i;

	if (argc == 2 && !strcmp(argv[1], "userns")) {
		puts(userns() ? "allowed" : "denied");
		return 0;
	}
	for (i = 1; i < argc; i++) {
		int ws, fds[2];
		pid_t pid;
		char c = 0;

		fflush(stdout);
		if (pipe(fds) < 0)
			return 1;
		pid = fork();
		if (pid == 0) {
			long r = try(argv[i]);
			c = r >= 0 ? 'a' : errno == EPERM || errno == ENOSYS ? 'b' : 'a';
			if (write(fds[1], &c, 1) != 1)
				_exit(1);
			_exit(0);
		}
		close(fds[1]);
		if (read(fds[0], &c, 1) != 1)
			c = 0;
		close(fds[0]);
		waitpid(pid, &ws, 0);
		printf("%s %s\n", argv[i], c == 'a' ? "allowed" : "blocked");
	}
	return 0;
}
EOF
if ! cc -o "$T/bin/mkbpf" "$T/mkbpf.c" 2>"$T/cc.log" ||
   ! cc -o "$T/bin/prober" "$T/prober.c" 2>>"$T/cc.log"; then
	skip "cannot build the filter writer or the prober (headers: $(head -n 1 "$T/cc.log"))"
	finish
fi
if ! /usr/bin/bwrap --dev-bind / / true 2>/dev/null; then
	skip "bwrap cannot start a sandbox here"
	finish
fi

# the calls envpreflight tries, as data.calls names them
CALLS="mount umount2 unshare setns open_tree fsconfig mount_setattr keyctl add_key
request_key bpf perf_event_open userfaultfd personality process_vm_readv ptrace
io_uring_setup chroot"
JUDGED="mount umount2 unshare setns open_tree fsconfig mount_setattr keyctl add_key
request_key bpf perf_event_open userfaultfd personality process_vm_readv"

# get ID FIELD: status, reason, message, or data.FIELD of check ID in $out
get() {
	py - "$out" "$1" "$2" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
for c in doc["checks"]:
    if c["id"] == "sandbox." + sys.argv[2]:
        f = sys.argv[3]
        v = c[f] if f in ("status", "reason", "message") else c["data"].get(f)
        print(json.dumps(v, sort_keys=True) if not isinstance(v, str) else v)
        break
else:
    print("(no check)")
EOF
}

# calls: "NAME verdict" a line, sorted, from data.calls
calls() {
	py - "$out" <<'EOF' | sort
import json, sys
doc = json.load(open(sys.argv[1]))
for c in doc["checks"]:
    if c["id"] == "sandbox.identity.seccomp":
        for k, v in (c["data"].get("calls") or {}).items():
            print(k, v)
EOF
}

# has TEXT PATTERN: grep's answer on a text
has() { printf '%s\n' "$1" | grep -q -- "$2"; }

keep() {
	if [ -n "${EP_JSON_DIR:-}" ] && [ -s "$out" ]; then
		cp "$out" "$(mktemp "$EP_JSON_DIR/sandbox_seccomp.XXXXXX")"
	fi
}

# in_bwrap FILTER CMD...: CMD under bwrap (its own mount namespace: the
# prober's mount lands there) with the filter FILTER.bpf
in_bwrap() {
	f=$1
	shift
	/usr/bin/bwrap --dev-bind / / --seccomp 9 "$@" 9<"$T/$f.bpf"
}

# run WRAP...: envpreflight --only=sandbox under WRAP, into $out
run() {
	"$@" env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$T/home" LC_ALL=C.UTF-8 \
		"$EP_BIN" --json --only=sandbox "$repo" >"$out" 2>"$err"
	keep
}

# filter NAME RULES...: $T/NAME.bpf
filter() {
	n=$1
	shift
	"$T/bin/mkbpf" "$@" >"$T/$n.bpf" || not_ok "mkbpf $n $*"
}

# scenario NAME RULES...: under the filter, the prober's answers and
# envpreflight's per call must be the same
scenario() {
	n=$1
	shift
	filter "$n" "$@"
	# shellcheck disable=SC2086
	in_bwrap "$n" "$T/bin/prober" $CALLS | sort >"$T/$n.probed"
	run in_bwrap "$n"
	calls >"$T/$n.said"
	check "$n: envpreflight's verdict for each call is what the prober could do ($(diff "$T/$n.probed" "$T/$n.said" | grep '^[<>]' | tr '\n' ' '))" \
		cmp -s "$T/$n.probed" "$T/$n.said"
	check "$n: every call was tried ($(wc -l <"$T/$n.said") of $(echo "$CALLS" | wc -w))" \
		[ "$(wc -l <"$T/$n.said")" = "$(echo "$CALLS" | wc -w)" ]
}

# ---- no filter: mode 0, nothing tried, a warning as before ----
run
check "no filter: mode disabled" [ "$(get identity.seccomp mode)" = disabled ]
check "no filter: nothing tried" [ "$(get identity.seccomp tried)" = false ]
check "no filter: a warning ($(get identity.seccomp status))" \
	[ "$(get identity.seccomp status)" = warn ]

# ---- a filter that allows everything: mode 2 is not a pass ----
scenario allow
check "allow-all: mode filter" [ "$(get identity.seccomp mode)" = filter ]
check "allow-all: not a pass ($(get identity.seccomp status): $(get identity.seccomp message))" \
	[ "$(get identity.seccomp status)" = warn ]
check "allow-all: the message names mount" has "$(get identity.seccomp message)" mount

# ---- like docker's default: every judged call refused, personality
# killed (SECCOMP_RET_KILL_PROCESS) ----
rules=
for c in $JUDGED; do
	case $c in personality) rules="$rules $c=kill" ;; *) rules="$rules $c=errno" ;; esac
done
# shellcheck disable=SC2086
scenario docker $rules
check "docker-like: a pass ($(get identity.seccomp status): $(get identity.seccomp message))" \
	[ "$(get identity.seccomp status)" = pass ]
check "docker-like: personality answered by a kill" \
	has "$(get identity.seccomp answers)" '"personality": "killed by SIGSYS"'

# ---- partial: EPERM, ENOSYS, SIGSYS (RET_TRAP) and a kill ----
scenario partial mount=errno unshare=errno setns=enosys keyctl=trap bpf=kill
check "partial: not a pass ($(get identity.seccomp status))" \
	[ "$(get identity.seccomp status)" = warn ]
check "partial: the message names umount2, which the filter allows" \
	has "$(get identity.seccomp message)" umount2
check "partial: setns answered ENOSYS" \
	has "$(get identity.seccomp answers)" '"setns": "ENOSYS"'

# ---- user namespaces ----
probed=$(unshare -m "$T/bin/prober" userns)
run
check "root, no filter: the prober could ($probed), envpreflight says allowed ($(get identity.userns answer))" \
	[ "$probed" = allowed ] && [ "$(get identity.userns answer)" = allowed ]
check "root, no filter: a warning ($(get identity.userns status))" \
	[ "$(get identity.userns status)" = warn ]

# a filter refusing unshare and clone with CLONE_NEWUSER
filter nouserns unshare=errno clone_newuser=errno
probed=$(in_bwrap nouserns "$T/bin/prober" userns)
run in_bwrap nouserns
check "filter on unshare and clone(CLONE_NEWUSER): the prober could not ($probed), envpreflight says denied ($(get identity.userns answer))" \
	[ "$probed" = denied ] && [ "$(get identity.userns answer)" = denied ]
check "filter: a pass ($(get identity.userns status): $(get identity.userns message))" \
	[ "$(get identity.userns status)" = pass ]

# a filter refusing unshare only: clone still makes one
filter unshareonly unshare=errno
probed=$(in_bwrap unshareonly "$T/bin/prober" userns)
run in_bwrap unshareonly
check "filter on unshare only: the prober made one by clone ($probed), envpreflight says allowed ($(get identity.userns answer))" \
	[ "$probed" = allowed ] && [ "$(get identity.userns answer)" = allowed ]
check "unshare only: clone named ($(get identity.userns message))" \
	has "$(get identity.userns message)" clone

# user.max_user_namespaces 0 in a user namespace of our own (a per
# namespace limit: the kernel checks every level up), as root inside it
# and as nobody who made it
zero="echo 0 >/proc/sys/user/max_user_namespaces &&"
probed=$(unshare -U -r sh -c "$zero $T/bin/prober userns")
run unshare -U -r sh -c "$zero exec \"\$@\"" sh
check "max_user_namespaces 0: the prober could not ($probed), envpreflight says denied ($(get identity.userns answer))" \
	[ "$probed" = denied ] && [ "$(get identity.userns answer)" = denied ]
check "max_user_namespaces 0: the sysctl read as 0 ($(get identity.userns sysctls))" \
	has "$(get identity.userns sysctls)" '"user.max_user_namespaces": 0'
check "max_user_namespaces 0: the message says so ($(get identity.userns message))" \
	has "$(get identity.userns message)" max_user_namespaces

if nobody_setup; then
	cp "$T/bin/prober" "$PUB/prober" && chmod 755 "$PUB/prober"
	pout=$PUB/out.json
	probed=$($NOBODY env unshare -U -r sh -c "$zero $PUB/prober userns")
	# shellcheck disable=SC2086
	$NOBODY env -i PATH=/usr/bin:/bin HOME="$PUB" LC_ALL=C.UTF-8 unshare -U -r sh -c \
		"$zero exec $PUB_BIN --json --only=sandbox $PUB >$pout" 2>"$err"
	cp "$pout" "$out" 2>/dev/null
	keep
	check "nobody, max_user_namespaces 0: the prober could not ($probed), envpreflight says denied ($(get identity.userns answer))" \
		[ "$probed" = denied ] && [ "$(get identity.userns answer)" = denied ]
	probed=$($NOBODY env "$PUB/prober" userns)
	$NOBODY env -i PATH=/usr/bin:/bin HOME="$PUB" LC_ALL=C.UTF-8 \
		"$PUB_BIN" --json --only=sandbox "$PUB" >"$out" 2>"$err"
	keep
	check "nobody, no limit: the prober's answer ($probed) is envpreflight's ($(get identity.userns answer))" \
		[ "$probed" = "$(get identity.userns answer)" ]
else
	skip "$NOBODY_WHY"
fi

# ---- nothing left behind: the prober's mount stayed in its sandbox ----
check "no prober mount leaked into this mount namespace" sh -c "! grep -q '^prober ' /proc/self/mounts"

finish
