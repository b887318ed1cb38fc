#!/bin/sh
# sandbox_confine.sh - processes.ptrace, identity.lsm, identity.landlock and
# escape.block_devices in real sandboxes, each verdict held against what a
# prober (a small C program compiled here, or a read of the kernel's own
# files) could do from the same place:
#   ptrace     a sleep the test starts, and the prober's PTRACE_ATTACH on it
#              (as root; as nobody in a private PID namespace beside a
#              root sleep and beside a nobody sleep): fail iff it attached
#   lsm        securityfs mounted in a private mount namespace: its lsm list
#              and /proc/self/attr/current, read by the shell, against
#              data.lsms, data.lsm and the verdict; the labels this kernel
#              cannot give, from a fixture /proc
#   landlock   the prober restricts itself (a ruleset handling MAKE_FIFO,
#              no rule: mkfifo is refused, nothing else) and execs a shell
#              that tries mkfifo and runs envpreflight: layers 0, 1, 2
#   devices    bwrap --dev /dev (none); a tmpfs over /dev in a private mount
#              namespace with a block node of loop0's numbers (as root, as
#              nobody with 0600 and 0666, and on a nodev mount), each opened
#              O_RDONLY by the prober: fail iff it opened
. "$(dirname "$0")/../lib.sh"
T=$TEST_TMPDIR/confine
mkdir -p "$T/repo"
out=$T/out.json

if ! command -v cc >/dev/null 2>&1; then
	skip "no C compiler: the probers are compiled here"
	finish
	exit
fi
cat >"$T/prober.c" <<'EOF'
/* prober attach PID | open PATH | landlock-exec PROG ARG... | abi */
#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "attach")) {
		pid_t p = (pid_t)atoi(argv[2]);
		if (ptrace(PTRACE_ATTACH, p, 0, 0) < 0) {
			printf("denied %s\n", strerror(errno));
			return 0;
		}
		waitpid(p, NULL, __WALL);
		ptrace(PTRACE_DETACH, p, 0, 0);
		printf("attached\n");
		return 0;
	}
	if (argc >= 3 && !strcmp(argv[1], "open")) {
		int fd = open(argv[2], O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			printf("denied %s\n", strerror(errno));
		else
			printf("opened\n");
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "abi")) {
		long v = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
		printf("%ld\n", v);
		return 0;
	}
	if (argc >= 3 && !strcmp(argv[1], "landlock-exec")) {
		struct landlock_ruleset_attr a = { .handled_access_fs = LANDLOCK_ACCESS_FS_MAKE_FIFO };
		long fd = syscall(SYS_landlock_create_ruleset, &a, sizeof(a.handled_access_fs), 0);
		if (fd < 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
		    syscall(SYS_landlock_restrict_self, (int)fd, 0) < 0) {
			perror("landlock");
			return 2;
		}
		close((int)fd);
		execvp(argv[2], argv + 2);
		perror("exec");
		return 127;
	}
	fprintf(stderr, "usage\n");
	return 2;
}
EOF
if ! cc -o "$T/prober" "$T/prober.c" 2>"$T/cc.err"; then
	skip "the prober does not compile here: $(head -n 1 "$T/cc.err")"
	finish
	exit
fi
P=$T/prober

# keep: the last report joins those tests/run.sh validates against the
# JSON Schema (EP_JSON_DIR), as ep's would
keep() {
	if [ -n "${EP_JSON_DIR:-}" ] && [ -s "$out" ] && ! cmp -s "$out" "$T/kept"; then
		cp "$out" "$(mktemp "$EP_JSON_DIR/$T_NAME.XXXXXX")"
		cp "$out" "$T/kept"
	fi
	return 0
}
# get CHECK FIELD: status, reason, message, or data.FIELD of the last report
get() {
	keep
	py - "$out" "$1" "$2" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
for c in doc["checks"]:
    if c["id"] == "sandbox." + sys.argv[2]:
        f = sys.argv[3]
        v = c[f] if f in ("status", "reason", "message") else c["data"].get(f)
        print(json.dumps(v) if not isinstance(v, str) else v)
        break
else:
    print("(no check)")
EOF
}
# expect DESC CHECK FIELD VALUE
expect() {
	got=$(get "$2" "$3")
	if [ "$got" = "$4" ]; then ok; else not_ok "$1: $2.$3 is '$got', want '$4'"; fi
}
policy() { printf 'version: 1\nsandbox:\n%s\n' "$1" >"$T/repo/preflight.yaml"; }
policy "  landlock: required"

# ---- ptrace ------------------------------------------------------------
if [ "$(id -u)" = 0 ] && nobody_setup; then
	cp "$P" "$PUB/prober" && chmod 755 "$PUB/prober"
	cp -r "$T/repo" "$PUB/repo" && chmod -R a+rX "$PUB/repo"
	scope=$(cat /proc/sys/kernel/yama/ptrace_scope 2>/dev/null || echo none)
	# root, the host's PID namespace, a root sleep the test started
	sleep 300 &
	sp=$!
	tried=$("$P" attach "$sp")
	ep_env "$EP_BIN" --json --only=sandbox "$T/repo" >"$out" 2>/dev/null
	# SIGKILL: the prober's attach may leave the sleep stopped (the
	# SIGSTOP of PTRACE_ATTACH still pending when it let go), and a
	# stopped process takes no SIGTERM: wait would block (seen in CI)
	kill -KILL "$sp"; wait "$sp" 2>/dev/null
	case $tried in
	attached) expect "root beside its own sleep (scope $scope), the prober attached" \
		processes.ptrace status warn ;;
	*) check "root: the prober was denied ($tried): never a fail for it" \
		[ "$(get processes.ptrace status)" != fail ] ;;
	esac
	expect "root: CAP_SYS_PTRACE is seen" processes.ptrace cap_sys_ptrace true
	if [ "$scope" = none ]; then
		expect "no Yama here: ptrace_scope null" processes.ptrace ptrace_scope null
		expect "no Yama here" processes.ptrace yama false
	else
		expect "Yama: ptrace_scope read" processes.ptrace ptrace_scope "$scope"
	fi
	# nobody in a private PID namespace, beside a root sleep and then a
	# nobody sleep: the prober tries each, envpreflight judges each
	for who in root nobody; do
		if [ $who = root ]; then wrap=; else wrap=$NOBODY; fi
		unshare --pid --fork --mount-proc sh -c "
			$wrap sleep 300 & sp=\$!
			# until setpriv has become the sleep: before its exec it is
			# not dumpable (its ids just changed), and no prober may attach
			i=0
			while [ \"\$(cat /proc/\$sp/comm 2>/dev/null)\" != sleep ] && [ \$i -lt 100 ]; do
				sleep 0.05; i=\$((i + 1))
			done
			$NOBODY '$PUB/prober' attach \$sp >'$T/tried.$who'
			$NOBODY env -i PATH=/usr/bin:/bin HOME=/nonexistent LC_ALL=C.UTF-8 \
				'$PUB_BIN' --json --only=sandbox '$PUB/repo' >'$out' 2>/dev/null
			kill -KILL \$sp" 2>/dev/null
		tried=$(cat "$T/tried.$who" 2>/dev/null)
		case $tried in
		attached) expect "nobody beside a $who sleep: the prober attached" \
			processes.ptrace status warn
			check "nobody beside a $who sleep: traceable counted" \
				[ "$(get processes.ptrace traceable)" -ge 1 ] ;;
		denied*) expect "nobody beside a $who sleep: the prober was denied ($tried)" \
			processes.ptrace status pass
			expect "nobody beside a $who sleep: none traceable" \
				processes.ptrace traceable 0 ;;
		*) not_ok "nobody beside a $who sleep: the prober said '$tried'" ;;
		esac
	done
	[ "$scope" = none ] && skip "no Yama in this kernel: ptrace_scope 1-3 not staged"
else
	skip "ptrace cases: ${NOBODY_WHY:-not root}"
fi

# ---- AppArmor / SELinux ------------------------------------------------
if [ "$(id -u)" = 0 ] && unshare --mount sh -c \
	'mount -t securityfs none /sys/kernel/security' 2>/dev/null; then
	unshare --mount sh -c "
		mount -t securityfs none /sys/kernel/security
		cat /sys/kernel/security/lsm >'$T/lsm.list'
		cat /proc/self/attr/current >'$T/attr' 2>'$T/attr.err' || echo '(none)' >'$T/attr'
		env -i PATH=/usr/bin:/bin HOME=/nonexistent LC_ALL=C.UTF-8 \
			'$EP_BIN' --json --only=sandbox '$T/repo' >'$out' 2>/dev/null"
	want=$(py -c '
import json, sys
names = open(sys.argv[1]).read().strip().split(",")
print(json.dumps([n for n in ("yama", "apparmor", "selinux", "smack", "tomoyo", "landlock") if n in names]))' "$T/lsm.list")
	expect "securityfs mounted: its LSM list" identity.lsm lsms "$want"
	if grep -q -e apparmor -e selinux "$T/lsm.list"; then
		check "an LSM that labels is active: a label is read" \
			[ "$(get identity.lsm label)" != null ]
	else
		expect "no AppArmor, no SELinux ($(cat "$T/lsm.list")): no label" identity.lsm lsm null
		expect "no AppArmor, no SELinux: never a pass" identity.lsm status warn
		check "the prober read no label either ($(cat "$T/attr"))" \
			grep -q '(none)' "$T/attr"
	fi
	# without securityfs the list is unknown, said as null
	ep_env "$EP_BIN" --json --only=sandbox "$T/repo" >"$out" 2>/dev/null
	if [ ! -e /sys/kernel/security/lsm ]; then
		expect "no securityfs: the list is unknown" identity.lsm lsms null
	fi
else
	skip "securityfs cannot be mounted in a mount namespace here (not root?)"
fi

# Yama's scopes, which this kernel may not have: a fixture /proc with
# ptrace_scope N, a status whose CapEff has CAP_SYS_PTRACE (bit 19) or
# not, and one process directory of this uid (pid 4242, its parent 1);
# the rules of Yama.rst decide, and the scan counts the fixture's process.
# scope NAME N CAPEFF
scope() {
	f=$T/proc.$1
	rm -rf "$f"
	mkdir -p "$f/self" "$f/sys/kernel/yama" "$f/4242"
	u=$(id -u)
	g=$(id -g)
	printf 'Uid:\t%s\t%s\t%s\t%s\nGid:\t%s\t%s\t%s\t%s\nGroups:\t\nCapEff:\t%s\nNoNewPrivs:\t0\nSeccomp:\t0\n' \
		"$u" "$u" "$u" "$u" "$g" "$g" "$g" "$g" "$3" >"$f/self/status"
	printf '%s\n' "$2" >"$f/sys/kernel/yama/ptrace_scope"
	echo '4242 (sleep) S 1 4242 4242 0 -1 4194304 0 0' >"$f/4242/stat"
	EP_ENV="ENVPREFLIGHT_PROC_ROOT=$f" ep_env "$EP_BIN" --json --only=sandbox \
		"$T/repo" >"$out" 2>/dev/null
}
scope s3 3 000001ffffffffff
expect "ptrace_scope 3: no attach, whatever the capabilities" processes.ptrace status pass
expect "ptrace_scope 3: read" processes.ptrace ptrace_scope 3
scope s2cap 2 0000000000080000
expect "ptrace_scope 2 with CAP_SYS_PTRACE: the fixture's process" processes.ptrace traceable 1
expect "ptrace_scope 2 with CAP_SYS_PTRACE: a warning" processes.ptrace status warn
scope s2 2 0000000000000000
expect "ptrace_scope 2 without CAP_SYS_PTRACE" processes.ptrace status pass
scope s1 1 0000000000000000
expect "ptrace_scope 1 without CAP_SYS_PTRACE" processes.ptrace status pass
scope s0 0 0000000000000000
expect "ptrace_scope 0: a process of this uid" processes.ptrace status warn
expect "ptrace_scope 0: counted" processes.ptrace traceable 1
scope bad 7 0000000000000000
expect "ptrace_scope 7: does not parse" processes.ptrace status error

# The labels this kernel cannot give (no AppArmor, no SELinux here): a
# fixture /proc (ENVPREFLIGHT_PROC_ROOT) holding the attr files as each LSM
# writes them (AppArmor's own file ends in a newline, SELinux's in a NUL).
# The verdict is the label's; /sys/fs/selinux/enforce is the machine's.
# label NAME FILE TEXT: the fixture, and a run on it
label() {
	rm -rf "$T/proc.$1"
	mkdir -p "$T/proc.$1/self/attr/apparmor"
	printf "$3" >"$T/proc.$1/self/attr/$2"
	EP_ENV="ENVPREFLIGHT_PROC_ROOT=$T/proc.$1" ep_env "$EP_BIN" --json --only=sandbox \
		"$T/repo" >"$out" 2>/dev/null
}
label aa-enforce apparmor/current 'docker-default (enforce)\n'
expect "AppArmor docker-default (enforce): confined" identity.lsm status pass
expect "AppArmor: the profile" identity.lsm label docker-default
expect "AppArmor: its mode" identity.lsm apparmor_mode enforce
label aa-complain apparmor/current 'docker-default (complain)\n'
expect "AppArmor in complain mode: not confined" identity.lsm status warn
label aa-unconfined apparmor/current 'unconfined\n'
expect "AppArmor unconfined" identity.lsm status warn
expect "AppArmor unconfined: lsm" identity.lsm lsm apparmor
label aa-old current 'lxc-container-default-cgns (enforce)\n'
expect "AppArmor in the shared attr/current (before 5.8)" identity.lsm confined true
label se-container current 'system_u:system_r:container_t:s0:c1,c2\0'
expect "SELinux container_t: lsm" identity.lsm lsm selinux
expect "SELinux container_t: the type" identity.lsm label container_t
if [ "$(cat /sys/fs/selinux/enforce 2>/dev/null)" != 0 ]; then
	expect "SELinux container_t: confined" identity.lsm status pass
fi
label se-spc current 'system_u:system_r:spc_t:s0\0'
expect "SELinux spc_t (a --privileged container): unconfined" identity.lsm status warn
label none current ''
expect "an empty label: none" identity.lsm lsm null

# ---- Landlock ------------------------------------------------------------
abi=$("$P" abi)
if [ "${abi:-0}" -ge 1 ] 2>/dev/null; then
	ll() {	# ll LAYERS: envpreflight under LAYERS prober domains
		n=$1
		rm -f "$T/fifo.$n"
		cmd="mkfifo '$T/fifo.$n' 2>/dev/null && echo made >'$T/try.$n' || echo refused >'$T/try.$n'
			env -i PATH=/usr/bin:/bin HOME=/nonexistent LC_ALL=C.UTF-8 \
				'$EP_BIN' --json --only=sandbox '$T/repo' >'$out' 2>/dev/null"
		wrap=
		i=0
		while [ $i -lt "$n" ]; do wrap="$wrap $P landlock-exec"; i=$((i + 1)); done
		$wrap sh -c "$cmd"
	}
	ll 0
	check "no domain: the prober's mkfifo was made" grep -q made "$T/try.0"
	expect "no domain: layers 0" identity.landlock layers 0
	expect "no domain, landlock: required: a warning" identity.landlock status warn
	expect "the ABI" identity.landlock abi "$abi"
	ll 1
	check "one domain: the prober's mkfifo was refused" grep -q refused "$T/try.1"
	expect "one domain: layers 1" identity.landlock layers 1
	expect "one domain: a pass" identity.landlock status pass
	ll 2
	expect "two domains: layers 2" identity.landlock layers 2
	# a seccomp filter that answers landlock_create_ruleset with ENOSYS,
	# as filters answer calls they do not know: under a Landlock domain
	# or not, the calls cannot tell, and the verdict must not say "none"
	cat >"$T/nolandlock.c" <<'EOF'
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_landlock_create_ruleset, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog p = { sizeof(f) / sizeof(f[0]), f };
	if (argc < 2 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &p)) {
		perror("seccomp");
		return 2;
	}
	execvp(argv[1], argv + 1);
	return 127;
}
EOF
	if cc -o "$T/nolandlock" "$T/nolandlock.c" 2>/dev/null &&
		"$T/nolandlock" true 2>/dev/null; then
		for n in 0 1; do
			wrap=
			[ $n = 1 ] && wrap="$P landlock-exec"
			$wrap "$T/nolandlock" "$P" abi >"$T/abi.$n"
			$wrap env -i PATH=/usr/bin:/bin HOME=/nonexistent LC_ALL=C.UTF-8 \
				"$T/nolandlock" "$EP_BIN" --json --only=sandbox "$T/repo" >"$out" 2>/dev/null
			check "filtered, $n domain(s): the prober's call failed too ($(cat "$T/abi.$n"))" \
				[ "$(cat "$T/abi.$n")" -lt 0 ]
			expect "filtered, $n domain(s): cannot tell" identity.landlock reason undecided
			expect "filtered, $n domain(s): domain unknown" identity.landlock domain null
		done
	else
		skip "no seccomp filter can be installed here"
	fi
	# left out of preflight.yaml, landlock is any: reported, not judged
	policy "  network: any"
	ll 0
	expect "landlock left out: expect any" identity.landlock expect any
	expect "landlock left out: not judged" identity.landlock judged false
	expect "landlock left out: a pass with a note" identity.landlock status pass
	policy "  landlock: required"
else
	skip "no Landlock in this kernel (landlock_create_ruleset: $abi)"
fi

# ---- block devices -------------------------------------------------------
if command -v bwrap >/dev/null 2>&1 && bwrap --ro-bind / / --dev /dev true 2>/dev/null; then
	bwrap --ro-bind / / --dev /dev --bind "$T" "$T" sh -c "
		ls -l /dev | grep -c '^b' >'$T/blk.bwrap'
		env -i PATH=/usr/bin:/bin HOME=/nonexistent LC_ALL=C.UTF-8 \
			'$EP_BIN' --json --only=sandbox '$T/repo' >'$out' 2>/dev/null"
	check "bwrap --dev /dev: the prober sees no block node" grep -qx 0 "$T/blk.bwrap"
	expect "bwrap --dev /dev: none" escape.block_devices status pass
	expect "bwrap --dev /dev: no nodes" escape.block_devices nodes 0
else
	skip "bwrap cannot build a sandbox here"
fi
if [ "$(id -u)" = 0 ] && nobody_setup &&
	unshare --mount sh -c 'mount -t tmpfs none /dev' 2>/dev/null; then
	cp "$P" "$PUB/prober" 2>/dev/null; chmod 755 "$PUB/prober"
	[ -d "$PUB/repo" ] || { cp -r "$T/repo" "$PUB/repo" && chmod -R a+rX "$PUB/repo"; }
	# devcase NAME MOUNT-OPTIONS MODE USER-PREFIX
	devcase() {
		unshare --mount sh -c "
			mount -t tmpfs -o mode=755$2 none /dev
			mknod -m $3 /dev/blk b 7 0
			$4 '$PUB/prober' open /dev/blk >'$T/open.$1'
			$4 env -i PATH=/usr/bin:/bin HOME=/nonexistent LC_ALL=C.UTF-8 \
				'$PUB_BIN' --json --only=sandbox '$PUB/repo' >'$out' 2>/dev/null"
		tried=$(cat "$T/open.$1")
		case $tried in
		opened) expect "$1: the prober opened /dev/blk" escape.block_devices status fail
			expect "$1: listed" escape.block_devices openable \
				"[\"/dev/blk (read$( [ -z "$4" ] || [ "$3" = 0666 ] && echo -write))\"]" ;;
		denied*) expect "$1: the prober was denied ($tried)" escape.block_devices status pass
			expect "$1: one node seen" escape.block_devices nodes 1 ;;
		*) not_ok "$1: the prober said '$tried'" ;;
		esac
	}
	devcase root "" 0600 ""
	devcase nobody-0600 "" 0600 "$NOBODY"
	devcase nobody-0666 "" 0666 "$NOBODY"
	devcase root-nodev ",nodev" 0600 ""
	expect "a nodev /dev: said" escape.block_devices nodev true
	# the host's own /dev, as root: whatever block nodes it has
	host=$(ls -l /dev | grep -c '^b')
	ep_env "$EP_BIN" --json --only=sandbox "$T/repo" >"$out" 2>/dev/null
	if [ "$host" -gt 0 ]; then
		first=$(ls -l /dev | awk '/^b/ { print $NF; exit }')
		tried=$("$P" open "/dev/$first")
		case $tried in
		opened) expect "host /dev as root: /dev/$first opened" \
			escape.block_devices status fail ;;
		*) skip "host /dev: the prober could not open /dev/$first ($tried)" ;;
		esac
	else
		expect "host /dev: no block nodes" escape.block_devices status pass
	fi
else
	skip "block node cases: ${NOBODY_WHY:-not root, or no tmpfs over /dev in a mount namespace}"
fi
finish
