#!/bin/sh
# sandbox_kernel.sh - escape.proc_sys, escape.core_pattern,
# escape.release_agent, escape.binfmt_misc, escape.uevent_helper and
# fs.host_mounts in real sandboxes: this machine as root, a mount namespace
# with /proc/sys remounted read-only and scratch "host" directories bound in
# (one read-write, one read-only, the repository on itself), bubblewrap with
# a read-only /proc/sys (with its capabilities, and with --cap-drop ALL),
# and nobody (setpriv) in the first and second.
#
# In each, a prober tries from inside what the check names, never changing
# a kernel setting: it opens each kernel file O_WRONLY and closes it
# without writing (linPEAS's dd count=0); where the answer is EROFS it
# tries the remount (mount -o remount,bind,rw) in a mount namespace of its
# own and opens again; for release_agent it mounts a cgroup v1 hierarchy
# of its own (a named one, none,name=...) in a private mount namespace and
# writes a path that does not exist into that hierarchy's release_agent
# (notify_on_release stays 0: nothing is ever run, and the hierarchy goes
# with the namespace); for binfmt_misc, when register is absent, it mounts
# binfmt_misc in a private mount namespace and opens register; for a host
# mount it makes a file in the scratch directories (test -w elsewhere).
# Each verdict must be a failure exactly when the prober could.
. "$(dirname "$0")/../lib.sh"
T=$TEST_TMPDIR/kernel
bin=$EP_BIN
if [ "$(id -u)" != 0 ]; then
	skip "not root: the cases need mount namespaces of root and setpriv"
	finish
	exit
fi
if ! unshare --mount --propagation private true 2>/dev/null; then
	skip "no mount namespace here"
	finish
	exit
fi
if nobody_setup; then
	T=$PUB/kernel
	bin=$PUB_BIN
fi
mkdir -p "$T/repo" "$T/hostdir" "$T/rodir" "$T/mnt" "$T/romnt" "$T/cg"
chmod 755 "$T" "$T/repo" "$T/mnt" "$T/romnt"
out=$T/out.json

cat >"$T/probe.py" <<'PY'
import errno, os, subprocess, sys

SCRATCH = sys.argv[1]
MARK = sys.argv[2]
OPEN = "import os,sys; os.close(os.open(sys.argv[1], os.O_WRONLY))"


def mount_of(path):
    """the mount a lookup of path ends in: the last, longest mount point"""
    best = "/"
    for line in open("/proc/self/mountinfo"):
        mp = line.split()[4].encode().decode("unicode_escape")
        if (path == mp or path.startswith(mp.rstrip("/") + "/")) and len(mp) >= len(best):
            best = mp
    return best


def nested(script, *args):
    """script in a private mount namespace of its own: 1 when it succeeded"""
    r = subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c",
                        script, "sh"] + list(args),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return r.returncode == 0


def try_open(f):
    try:
        os.close(os.open(f, os.O_WRONLY))
        return "yes"
    except OSError as e:
        if e.errno in (errno.ENOENT, errno.ENOTDIR):
            return "absent"
        if e.errno != errno.EROFS:
            return "no"
    ok = nested('mount -o remount,bind,rw "$1" && exec python3 -c "$3" "$2"',
                mount_of(f), f, OPEN)
    return "yes" if ok else "no"


def any_yes(files):
    got = [try_open(f) for f in files]
    return "yes" if "yes" in got else "no"


print("proc_sys", any_yes(["/proc/sys/kernel/modprobe", "/proc/sys/vm/panic_on_oom",
                           "/proc/sys/fs/suid_dumpable", "/proc/sys/kernel/sysrq"]))
print("core_pattern", try_open("/proc/sys/kernel/core_pattern"))
print("uevent_helper", try_open("/sys/kernel/uevent_helper"))

reg = "/proc/sys/fs/binfmt_misc/register"
b = try_open(reg)
# in a user namespace of its own a mount is that namespace's instance
# (Linux 6.7), which reaches only its own processes: not the host's
init_userns = os.readlink("/proc/self/ns/user") == "user:[4026531837]"
if b == "absent" and os.path.isdir(os.path.dirname(reg)) and init_userns:
    b = "yes" if nested('mount -t binfmt_misc binfmt_misc "$1" && '
                        'exec python3 -c "$3" "$2"', os.path.dirname(reg), reg,
                        OPEN) else "no"
print("binfmt_misc", b)

WRITE = ("import os,sys; fd=os.open(sys.argv[1], os.O_WRONLY); "
         "os.write(fd, b'/nonexistent-envpreflight-test'); os.close(fd)")
ra = nested('mount -t cgroup -o none,name=epk"$2" cgroup "$1" && python3 -c "$3" '
            '"$1/release_agent"; st=$?; umount "$1"; exit $st',
            os.path.join(SCRATCH, "cg"), MARK, WRITE)
print("release_agent", "yes" if ra else "no")

# the host mounts the report lists, each: can this process write there?
for mp in sys.argv[3:]:
    if mp.startswith(SCRATCH + "/"):
        f = os.path.join(mp, "probe." + MARK)
        mk = "import os,sys; os.close(os.open(sys.argv[1], os.O_WRONLY|os.O_CREAT, 0o600)); os.unlink(sys.argv[1])"
        try:
            os.close(os.open(f, os.O_WRONLY | os.O_CREAT, 0o600))
            os.unlink(f)
            w = "yes"
        except OSError as e:
            w = "no"
            if e.errno == errno.EROFS and nested(
                    'mount -o remount,bind,rw "$1" && exec python3 -c "$3" "$2"',
                    mp, f, mk):
                w = "yes"
    else:
        w = "yes" if os.access(mp, os.W_OK, effective_ids=True) else "no"
    print("host", mp, w)
PY

# the report's host mount points, one a line
host_mps() {
	py - "$out" <<'EOF'
import json, sys
for c in json.load(open(sys.argv[1]))["checks"]:
    if c["id"] == "sandbox.fs.host_mounts":
        for m in c["data"]["host_mounts"]:
            print(m["mount_point"])
EOF
}

# get ID FIELD: the check's status or message, or data.FIELD
get() {
	py - "$out" "$1" "$2" <<'EOF'
import json, sys
for c in json.load(open(sys.argv[1]))["checks"]:
    if c["id"] == "sandbox." + sys.argv[2]:
        f = sys.argv[3]
        v = c[f] if f in ("status", "reason", "message") else c["data"].get(f)
        print(json.dumps(v) if not isinstance(v, str) else v)
        break
else:
    print("(no check)")
EOF
}

# run NAME WRAPPER...: the binary, then the prober (given the report's
# host mounts), under WRAPPER; the prober's answers in $T/NAME.probe
run() {
	name=$1
	shift
	env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$T" LC_ALL=C.UTF-8 \
		"$@" "$bin" --json --only=sandbox "$T/repo" >"$out" 2>"$T/err"
	if [ -n "${EP_JSON_DIR:-}" ] && [ -s "$out" ]; then
		cp "$out" "$(mktemp "$EP_JSON_DIR/sandbox_kernel.XXXXXX")"
	fi
	# shellcheck disable=SC2046
	env -i PATH=/usr/local/bin:/usr/bin:/bin "$@" /usr/bin/python3 "$T/probe.py" "$T" \
		"$T_MARK" $(host_mps) >"$T/$name.probe" 2>"$T/$name.probe.err"
}

# agree NAME ITEM WORD: the check fails exactly when the prober's answer
# for WORD is yes
agree() {
	a=$(awk -v w="$3" '$1 == w { print $2 }' "$T/$1.probe")
	s=$(get "$2" status)
	if [ -z "$a" ]; then
		not_ok "$1: $2: no answer from the prober: $(head -c 300 "$T/$1.probe.err")"
	elif { [ "$a" = yes ] && [ "$s" = fail ]; } || { [ "$a" != yes ] && [ "$s" != fail ]; }; then
		ok
	else
		not_ok "$1: $2: the prober says $a, envpreflight $s: $(get "$2" message)"
	fi
}

# hosts NAME: each listed host mount writable in the report exactly when
# the prober could write there, and the verdict fail when one is, else a
# warning when any is listed
hosts() {
	py - "$out" "$T/$1.probe" "$1" <<'EOF'
import json, sys
c = [c for c in json.load(open(sys.argv[1]))["checks"] if c["id"] == "sandbox.fs.host_mounts"][0]
probe = {l.split()[1]: l.split()[2] for l in open(sys.argv[2]) if l.startswith("host ")}
bad = []
for m in c["data"]["host_mounts"]:
    if (probe.get(m["mount_point"]) == "yes") != m["writable"]:
        bad.append("%s: report %s, prober %s" % (m["mount_point"], m["writable"], probe.get(m["mount_point"])))
want = "fail" if any(m["writable"] for m in c["data"]["host_mounts"]) else \
       "warn" if c["data"]["host_mounts"] else "pass"
if c["status"] != want:
    bad.append("status %s, want %s" % (c["status"], want))
if bad:
    print(sys.argv[3] + ": " + "; ".join(bad))
    sys.exit(1)
EOF
}

all_agree() {
	agree "$1" escape.proc_sys proc_sys
	agree "$1" escape.core_pattern core_pattern
	agree "$1" escape.uevent_helper uevent_helper
	agree "$1" escape.binfmt_misc binfmt_misc
	agree "$1" escape.release_agent release_agent
	if hosts "$1" >"$T/hosts.err"; then ok; else not_ok "$(cat "$T/hosts.err")"; fi
	cp "$out" "$T/$1.json"
}

# listed MP: the report lists MP among the host mounts
listed() { host_mps >"$T/mps" && grep -qx -- "$1" "$T/mps"; }

# ---- this machine, as root -------------------------------------------------
run root
all_agree root
check "root: 43 sandbox checks" [ "$(grep -c '"id": "sandbox\.' "$out")" = 43 ]
check "root: the policy key is kernel" [ "$(get escape.core_pattern key)" = kernel ]
check "root: the policy key is host_mounts" [ "$(get fs.host_mounts key)" = host_mounts ]
if [ "$(awk '$1 == "uevent_helper" { print $2 }' "$T/root.probe")" = absent ]; then
	skip "uevent_helper writable: this kernel has no /sys/kernel/uevent_helper"
	check "root: uevent_helper absent, said" [ "$(get escape.uevent_helper present)" = false ]
fi
cp "$out" "$T/root.json"

# ---- a mount namespace: /proc/sys read-only, host directories bound in -----
cat >"$T/ns.sh" <<EOF
mount --bind /proc/sys /proc/sys && mount -o remount,bind,ro /proc/sys &&
mount --bind "$T/hostdir" "$T/mnt" &&
mount --bind "$T/rodir" "$T/romnt" && mount -o remount,bind,ro "$T/romnt" &&
mount --bind "$T/repo" "$T/repo" || exit 99
exec "\$@"
EOF
run ns unshare --mount --propagation private sh "$T/ns.sh"
all_agree ns
check "ns: /proc/sys read-only, said" [ "$(get escape.proc_sys read_only)" = true ]
check "ns: the bound host directory is listed" listed "$T/mnt"
check "ns: the read-only one is listed" listed "$T/romnt"
check "ns: the repository bound on itself is not" sh -c "! grep -qx -- '$T/repo' '$T/mps'"
check "ns: root with CAP_SYS_ADMIN: core_pattern one remount away" \
	[ "$(get escape.core_pattern status)" = fail ]

if [ -n "$NOBODY" ]; then
	run ns-nobody unshare --mount --propagation private sh "$T/ns.sh" $NOBODY
	all_agree ns-nobody
	check "nobody: core_pattern not writable" [ "$(get escape.core_pattern status)" = pass ]
	check "nobody: the host directory listed, a warning" \
		[ "$(get fs.host_mounts status)" = warn ] || [ "$(get fs.host_mounts status)" = fail ]
	run nobody $NOBODY
	all_agree nobody
else
	skip "the cases as nobody: $NOBODY_WHY"
fi

# ---- user namespaces: root's (uid 0 maps to the host's 0) and nobody's ----
if unshare --user --map-root-user --mount true 2>/dev/null; then
	run userns unshare --user --map-root-user --mount
	all_agree userns
	check "userns of root: core_pattern writable (uid 0 is the host's)" \
		[ "$(get escape.core_pattern status)" = fail ]
	check "userns: not the initial user namespace" \
		[ "$(get escape.release_agent initial_user_namespace)" = false ]
	if [ -n "$NOBODY" ] && $NOBODY unshare --user --map-root-user --mount true 2>/dev/null; then
		run userns-nobody $NOBODY unshare --user --map-root-user --mount
		all_agree userns-nobody
		check "userns of nobody: root inside, core_pattern not writable" \
			[ "$(get escape.core_pattern status)" = pass ]
		check "userns of nobody: CAP_SYS_ADMIN of its own namespace" \
			[ "$(get escape.release_agent cap_sys_admin)" = true ]
	else
		skip "a user namespace of nobody: not allowed here${NOBODY_WHY:+ ($NOBODY_WHY)}"
	fi
else
	skip "user namespaces: not allowed here"
fi

# ---- bubblewrap: read-only /, a fresh /proc with /proc/sys read-only --------
if command -v bwrap >/dev/null 2>&1 &&
	bwrap --ro-bind / / --proc /proc --dev /dev true 2>/dev/null; then
	run bwrap bwrap --ro-bind / / --proc /proc --ro-bind /proc/sys /proc/sys \
		--dev /dev --bind "$T" "$T"
	all_agree bwrap
	run bwrap-proc bwrap --ro-bind / / --proc /proc --dev /dev --bind "$T" "$T"
	all_agree bwrap-proc
	if bwrap --ro-bind / / --cap-drop ALL true 2>/dev/null; then
		run bwrap-nocap bwrap --ro-bind / / --proc /proc --ro-bind /proc/sys /proc/sys \
			--dev /dev --bind "$T" "$T" --cap-drop ALL
		all_agree bwrap-nocap
		check "bwrap --cap-drop ALL: /proc/sys read-only holds" \
			[ "$(get escape.core_pattern status)" = pass ]
	else
		skip "bwrap --cap-drop ALL: not allowed here"
	fi
else
	skip "bubblewrap: not installed, or not allowed here"
fi

# ---- policy: kernel: any and host_mounts: any report, do not judge ---------
printf 'version: 1\nsandbox:\n  kernel: any\n  host_mounts: any\n' >"$T/repo/preflight.yaml"
env -i PATH=/usr/bin:/bin HOME="$T" "$bin" --json --only=sandbox "$T/repo" >"$out" 2>"$T/err"
check "kernel: any: not judged" [ "$(get escape.core_pattern judged)" = false ]
check "kernel: any: a pass" [ "$(get escape.core_pattern status)" = pass ]
check "host_mounts: any: not judged" [ "$(get fs.host_mounts judged)" = false ]
printf 'version: 1\nsandbox:\n  kernel: open\n' >"$T/repo/preflight.yaml"
env -i PATH=/usr/bin:/bin HOME="$T" "$bin" --json --only=sandbox "$T/repo" >"$out" 2>"$T/err"
st=$?
check "kernel: open: exit 2 ($st)" [ "$st" = 2 ]
check "kernel: open: named" grep -q "'sandbox.kernel' expects protected or any" "$T/err"
rm -f "$T/repo/preflight.yaml"
# EP_KEEP=DIR keeps the reports and the prober's answers, to read
[ -n "${EP_KEEP:-}" ] && cp -r "$T" "$EP_KEEP"
finish
