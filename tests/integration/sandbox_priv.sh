#!/bin/sh
# sandbox_priv.sh - what privileges reach beyond what they seem to, in real
# sandboxes, each judged against a prober that *tries* it from the same
# place envpreflight runs:
#   - fs.root and identity.host_root: bwrap --unshare-user --uid 0
#     --cap-add ALL --ro-bind / / started by root (the host's uid 0 inside),
#     the same started by an unprivileged user (nested namespaces, the
#     host's root unmapped), bwrap --unshare-all by nobody as nobody
#     (uid_map "65534 0 1", the host's root shown as the overflow uid
#     65534, which is also this uid) and bwrap --uid 65534 by root (the
#     same maps, and 65534 is the host's root), and a read-only flag locked by a copy into a
#     user namespace (unshare -r --mount under a mount namespace whose / is
#     read-only).  The prober remounts a scratch directory bind-mounted
#     read-only the same way as / (mount -o remount,bind,rw), then creates
#     a file in it, and in a directory of its own; the owner the host sees
#     says whose the write was.  Never the real /.
#   - unshare -r by an unprivileged user: root inside, not the host's.
#   - identity.capabilities: ambient capabilities (setpriv --ambient-caps),
#     which the prober uses (a raw socket); none, with the bounding set
#     said for a set-user-ID program.
#   - network.interfaces and network.route: unshare --net as root with the
#     host's PID namespace (setns into another network namespace works:
#     the prober tries nsenter --net=/proc/PID/ns/net), and the same with
#     --pid --fork --mount-proc (no other namespace in view).
. "$(dirname "$0")/../lib.sh"

if [ "$(id -u)" != 0 ]; then
	skip "the privileged sandboxes need root (bwrap --cap-add by root, unshare --net)"
	finish
	exit
fi
# the unprivileged cases need the binary and the scratch where nobody
# reaches them: nobody_setup's directory, for every case alike
if ! nobody_setup; then
	skip "the privileged sandboxes: $NOBODY_WHY"
	finish
	exit
fi
T=$PUB/priv
bin=$PUB_BIN
mkdir -p "$T/repo"
chmod 755 "$T" "$T/repo"
repo=$T/repo
if [ "$(sed -n 's/^NoNewPrivs:[[:space:]]*//p' /proc/self/status)" = 1 ]; then
	skip "this test runs with no_new_privs set: setpriv and bwrap cannot raise privileges"
	finish
	exit
fi

# the prober: one line a try, into $ORACLE
#   remount possible|refused    mount -o remount,bind,rw SCRATCH, then a file in it
#   owner-file made|not-made    a file in OWN (the host reads its owner)
#   setuid U made               a file in OWN as each uid U the namespace maps
#   rawsock yes|no              a raw socket (CAP_NET_RAW)
#   netns possible|none         nsenter --net= another namespace in view
cat >"$T/probe.sh" <<'EOF'
ORACLE=$1 SCRATCH=$2 OWN=$3 CASE=$4
: >"$ORACLE"
if [ -n "$SCRATCH" ]; then
	if mount -o remount,bind,rw "$SCRATCH" 2>/dev/null && : >"$SCRATCH/$CASE" 2>/dev/null; then
		echo "remount possible" >>"$ORACLE"
	else
		echo "remount refused" >>"$ORACLE"
	fi
fi
if [ -n "$OWN" ]; then
	if : >"$OWN/$CASE.self" 2>/dev/null; then echo "owner-file made" >>"$ORACLE"
	else echo "owner-file not-made" >>"$ORACLE"; fi
	# every uid the namespace maps at the start of a range: CAP_SETUID sets it
	while read -r in out n; do
		setpriv --reuid="$in" sh -c ": >'$OWN/$CASE.uid$in'" 2>/dev/null &&
			echo "setuid $in made" >>"$ORACLE"
	done </proc/self/uid_map
fi
if python3 -c 'import socket; socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)' 2>/dev/null; then
	echo "rawsock yes" >>"$ORACLE"
else
	echo "rawsock no" >>"$ORACLE"
fi
self=$(readlink /proc/self/ns/net)
found=none
n=0
for p in /run/netns/* /var/run/netns/* /proc/[0-9]*/ns/net; do
	[ -e "$p" ] || continue
	n=$((n + 1))
	[ "$n" -gt 200 ] && break
	[ "$(readlink "$p" 2>/dev/null)" = "$self" ] && continue
	if nsenter --net="$p" true 2>/dev/null; then
		found=possible
		break
	fi
done
echo "netns $found" >>"$ORACLE"
EOF
# inner.sh ORACLE SCRATCH OWN CASE -- COMMAND...: the prober, then the command
cat >"$T/inner.sh" <<EOF
sh "$T/probe.sh" "\$1" "\$2" "\$3" "\$4"
shift 5
exec "\$@"
EOF

keep() {
	if [ -n "${EP_JSON_DIR:-}" ] && [ -s "$1" ]; then
		cp "$1" "$(mktemp "$EP_JSON_DIR/sandbox_priv.XXXXXX")"
	fi
}

# run CASE SCRATCH OWN WRAPPER...: the prober and --only=sandbox in the
# sandbox WRAPPER makes; $T/CASE.json, $T/CASE.oracle
run() {
	c=$1 scratch=$2 own=$3
	shift 3
	env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$TEST_TMPDIR/home" LC_ALL=C.UTF-8 \
		"$@" sh "$T/inner.sh" "$T/$c.oracle" "$scratch" "$own" "$c" -- \
		"$bin" --json --only=sandbox "$repo" >"$T/$c.json" 2>"$T/$c.err"
	keep "$T/$c.json"
}

# get CASE CHECK FIELD: a check's status ("status"), message or data field
get() {
	py - "$T/$1.json" "sandbox.$2" "$3" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
c = {x["id"]: x for x in doc["checks"]}[sys.argv[2]]
v = c[sys.argv[3]] if sys.argv[3] in ("status", "message", "reason") else c["data"].get(sys.argv[3])
print(json.dumps(v) if not isinstance(v, str) else v)
PY
}

oracle() { grep -qx "$2" "$T/$1.oracle"; }

# host_root_seen CASE: 1 when a file the prober made (as itself or as a uid
# it set) belongs to the host's uid 0
host_root_seen() {
	for f in "$T/own/$1".*; do
		[ -e "$f" ] && [ "$(stat -c %u "$f")" = 0 ] && { echo 1; return; }
	done
	echo 0
}

# the scratch directories: like /, the host's root's, mode 755; own: anyone's
mk_dirs() {
	rm -rf "$T/scratch" "$T/own"
	mkdir -p "$T/scratch" "$T/own"
	chmod 755 "$T/scratch"
	chmod 777 "$T/own"
}

# ---- bwrap started by root: uid 0 inside is the host's uid 0 -------------
if ! command -v bwrap >/dev/null 2>&1; then
	skip "bwrap is not installed (make deps: bubblewrap)"
elif ! bwrap --unshare-user --uid 0 --ro-bind / / true 2>/dev/null; then
	skip "bwrap cannot make a user namespace here"
else
	mk_dirs
	# $T is writable (the oracle), the scratch bound read-only in it, like /
	run bwrap "$T/scratch" "$T/own" bwrap --unshare-user --uid 0 --cap-add ALL \
		--ro-bind / / --bind "$T" "$T" --ro-bind "$T/scratch" "$T/scratch" \
		--proc /proc --dev /dev
	check "bwrap: the prober ran" [ -s "$T/bwrap.oracle" ]
	check "bwrap: the prober could remount and write" oracle bwrap "remount possible"
	check "bwrap: the prober's file is the host's root's" [ "$(host_root_seen bwrap)" = 1 ]
	check "bwrap: its scratch file is the host's root's" \
		[ "$(stat -c %u "$T/scratch/bwrap" 2>/dev/null)" = 0 ]
	st=$(get bwrap fs.root status)
	check "bwrap: fs.root fails: the remount writes as the host's root ($st: $(get bwrap fs.root message))" \
		[ "$st" = fail ]
	check "bwrap: fs.root says the remount is possible" [ "$(get bwrap fs.root remount)" = possible ]
	check "bwrap: identity.host_root fails" [ "$(get bwrap identity.host_root status)" = fail ]
	check "bwrap: the host's root is uid 0 here" [ "$(get bwrap identity.host_root host_root_uid)" = 0 ]
	check "bwrap: told by the owner of /proc/sys/kernel" \
		[ "$(get bwrap identity.host_root evidence)" = proc_owner ]
	check "bwrap: the capabilities note no longer says 'own namespaces only'" \
		sh -c "! grep -q 'act on its own namespaces only' '$T/bwrap.json'"
	check "bwrap: ambient capabilities read" \
		sh -c "/usr/bin/python3 -c '
import json, sys
c = {x[\"id\"]: x for x in json.load(open(sys.argv[1]))[\"checks\"]}[\"sandbox.identity.capabilities\"]
sys.exit(0 if \"CAP_SYS_ADMIN\" in c[\"data\"][\"ambient\"] and c[\"status\"] == \"fail\" else 1)' '$T/bwrap.json'"

	# ---- the same bwrap started by an unprivileged user: nested
	# namespaces whose uid_map reads "0 0 1", the host's root unmapped
	mk_dirs
	chmod 777 "$T"
	run bwrap-user "$T/scratch" "$T/own" setpriv --reuid=65534 --regid=65534 \
		--clear-groups bwrap --unshare-user --uid 0 --cap-add ALL --ro-bind / / \
		--bind "$T" "$T" --ro-bind "$T/scratch" "$T/scratch" --proc /proc --dev /dev
	chmod 755 "$T"
	if [ ! -s "$T/bwrap-user.oracle" ]; then
		skip "bwrap by an unprivileged user: $(head -c 200 "$T/bwrap-user.err")"
	else
		check "bwrap-user: the host's root is out of reach" [ "$(host_root_seen bwrap-user)" = 0 ]
		check "bwrap-user: identity.host_root passes ($(get bwrap-user identity.host_root message))" \
			[ "$(get bwrap-user identity.host_root status)" = pass ]
		check "bwrap-user: host_root_mapped false" \
			[ "$(get bwrap-user identity.host_root host_root_mapped)" = false ]
		# a remount may work, but the write needs permission the
		# unmapped host root's directories do not give
		if oracle bwrap-user "remount possible"; then w=fail; else w=pass; fi
		st=$(get bwrap-user fs.root status)
		if [ "$w" = pass ]; then
			check "bwrap-user: fs.root passes: the prober could not write ($st)" [ "$st" = pass ]
		else
			check "bwrap-user: fs.root does not pass: the prober wrote ($st)" [ "$st" != pass ]
		fi
	fi

	# ---- bwrap started by nobody, nobody inside: uid_map "65534 0 1",
	# /proc/sys/kernel's owner shown as 65534, the overflow uid, which is
	# also this uid: the kernel is asked (a sysctl's owner bits)
	mk_dirs
	chmod 777 "$T"
	run bwrap-nobody "$T/scratch" "$T/own" setpriv --reuid=65534 --regid=65534 \
		--clear-groups bwrap --unshare-all --ro-bind / / --bind "$T" "$T" \
		--ro-bind "$T/scratch" "$T/scratch" --proc /proc --dev /dev
	chmod 755 "$T"
	if [ ! -s "$T/bwrap-nobody.oracle" ]; then
		skip "bwrap by nobody as nobody: $(head -c 200 "$T/bwrap-nobody.err")"
	else
		check "bwrap-nobody: the host's root is out of reach" [ "$(host_root_seen bwrap-nobody)" = 0 ]
		check "bwrap-nobody: identity.host_root passes ($(get bwrap-nobody identity.host_root message))" \
			[ "$(get bwrap-nobody identity.host_root status)" = pass ]
		check "bwrap-nobody: host_root_mapped false" \
			[ "$(get bwrap-nobody identity.host_root host_root_mapped)" = false ]
		check "bwrap-nobody: told by the kernel's sysctl permission" \
			[ "$(get bwrap-nobody identity.host_root evidence)" = sysctl_access ]
	fi

	# ---- the same maps the other way: bwrap started by root with --uid
	# 65534, the host's root shown as 65534 inside because it is 65534
	mk_dirs
	run bwrap-65534 "$T/scratch" "$T/own" bwrap --unshare-user --uid 65534 \
		--ro-bind / / --bind "$T" "$T" --ro-bind "$T/scratch" "$T/scratch" \
		--proc /proc --dev /dev
	check "bwrap-65534: the prober ran" [ -s "$T/bwrap-65534.oracle" ]
	check "bwrap-65534: the prober's file is the host's root's" [ "$(host_root_seen bwrap-65534)" = 1 ]
	check "bwrap-65534: identity.host_root fails ($(get bwrap-65534 identity.host_root message))" \
		[ "$(get bwrap-65534 identity.host_root status)" = fail ]
	check "bwrap-65534: the host's root is uid 65534 here" \
		[ "$(get bwrap-65534 identity.host_root host_root_uid)" = 65534 ]
	check "bwrap-65534: told by the kernel's sysctl permission" \
		[ "$(get bwrap-65534 identity.host_root evidence)" = sysctl_access ]
fi

# ---- a read-only flag locked by the copy into a user namespace -----------
# a mount namespace (root's, so the flag is not locked there) with / and
# the scratch read-only, then unshare -r --mount inside it: the copy locks
# both (MNT_LOCK_READONLY)
cat >"$T/locked.sh" <<EOF
mount --bind "$T" "$T" && mount -o remount,bind,ro / || exit 99
mount --bind "$T/scratch" "$T/scratch" && mount -o remount,bind,ro "$T/scratch" || exit 99
exec unshare --user --map-root-user --mount "\$@"
EOF
mk_dirs
if unshare --mount true 2>/dev/null && unshare --user --map-root-user --mount true 2>/dev/null; then
	run locked "$T/scratch" "$T/own" unshare --mount --propagation private sh "$T/locked.sh"
	check "locked: the prober ran" [ -s "$T/locked.oracle" ]
	check "locked: the prober's remount is refused" oracle locked "remount refused"
	st=$(get locked fs.root status)
	check "locked: fs.root passes ($st: $(get locked fs.root message))" [ "$st" = pass ]
	check "locked: says the flag is locked" [ "$(get locked fs.root remount)" = locked ]
	# root inside, mapped to root outside (the test runs as root)
	check "locked: identity.host_root fails: uid 0 maps to the host's" \
		[ "$(get locked identity.host_root status)" = fail ]
	check "locked: the prober's file is the host's root's" [ "$(host_root_seen locked)" = 1 ]
else
	skip "the locked read-only flag: mount or user namespaces are not allowed here"
fi

# ---- unshare -r by an unprivileged user: root inside, not outside --------
mk_dirs
if setpriv --reuid=65534 --regid=65534 --clear-groups unshare -r true 2>/dev/null; then
	chmod 777 "$T"
	run unpriv "" "$T/own" setpriv --reuid=65534 --regid=65534 --clear-groups unshare -r
	chmod 755 "$T"
	check "unpriv: the prober's files are not the host's root's" [ "$(host_root_seen unpriv)" = 0 ]
	check "unpriv: identity.host_root passes ($(get unpriv identity.host_root message))" \
		[ "$(get unpriv identity.host_root status)" = pass ]
	check "unpriv: uid 0 inside" [ "$(get unpriv identity.host_root uids)" = "[0, 0, 0, 0]" ]
	check "unpriv: identity.user still says root" [ "$(get unpriv identity.user status)" != pass ]
else
	skip "unshare -r by an unprivileged user: unprivileged user namespaces are not allowed"
fi

# ---- ambient capabilities, and none --------------------------------------
if setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=+net_raw \
	--ambient-caps=+net_raw true 2>/dev/null; then
	chmod 777 "$T"
	run ambient "" "" setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=+net_raw --ambient-caps=+net_raw
	run nocaps "" "" setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all
	run nocaps-nnp "" "" setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		--no-new-privs
	chmod 755 "$T"
	check "ambient: the prober opened a raw socket" oracle ambient "rawsock yes"
	check "ambient: identity.capabilities fails" \
		[ "$(get ambient identity.capabilities status)" = fail ]
	check "ambient: CAP_NET_RAW in the ambient set" \
		[ "$(get ambient identity.capabilities ambient)" = '["CAP_NET_RAW"]' ]
	check "ambient: CAP_NET_RAW in reach" \
		[ "$(get ambient identity.capabilities in_reach)" = '["CAP_NET_RAW"]' ]
	check "nocaps: the prober could not open a raw socket" oracle nocaps "rawsock no"
	check "nocaps: identity.capabilities passes" [ "$(get nocaps identity.capabilities status)" = pass ]
	check "nocaps: the bounding set said for a set-user-ID program (no_new_privs off)" \
		sh -c "[ \"\$(/usr/bin/python3 -c '
import json, sys
c = {x[\"id\"]: x for x in json.load(open(sys.argv[1]))[\"checks\"]}[\"sandbox.identity.capabilities\"]
print(len(c[\"data\"][\"by_setuid_exec\"]) > 0 and any(\"set-user-ID\" in n for n in c.get(\"notes\", [])))' '$T/nocaps.json')\" = True ]"
	check "nocaps-nnp: nothing by a set-user-ID program" \
		[ "$(get nocaps-nnp identity.capabilities by_setuid_exec)" = '[]' ]
else
	skip "ambient capabilities: setpriv --ambient-caps is not supported here"
fi

# ---- setns into another network namespace --------------------------------
if unshare --net true 2>/dev/null && command -v nsenter >/dev/null 2>&1; then
	run netns "" "" unshare --net
	check "netns: the prober entered another network namespace" oracle netns "netns possible"
	for c in network.interfaces network.route; do
		check "netns: $c fails ($(get netns $c message))" [ "$(get netns $c status)" = fail ]
	done
	check "netns: names the namespace" sh -c "[ \"$(get netns network.route enter_netns)\" != null ]"
	if unshare --net --pid --fork --mount-proc true 2>/dev/null; then
		run netns-pid "" "" unshare --net --pid --fork --mount-proc
		if oracle netns-pid "netns possible"; then want=fail; else want=pass; fi
		for c in network.interfaces network.route; do
			check "netns-pid: $c is $want, as the prober found ($(get netns-pid $c message))" \
				[ "$(get netns-pid $c status)" = "$want" ]
		done
		check "netns-pid: the prober found no way (no /run/netns here)" \
			sh -c "[ -n \"\$(ls /run/netns 2>/dev/null)\" ] || grep -qx 'netns none' '$T/netns-pid.oracle'"
	else
		skip "netns-pid: PID namespaces are not allowed here"
	fi
else
	skip "setns: network namespaces are not allowed here (or no nsenter)"
fi

finish
