#!/bin/sh
# sandbox.sh - the opt-in sandbox probe, against real sandboxes and real
# holes.  Each item is seen both ways in the same test: a fresh network
# namespace (only lo) against one with a veth pair up and a default route;
# a private PID namespace (unshare --pid --mount-proc) against this one and
# against a /proc left from the parent; setpriv's no_new_privs, dropped
# capabilities and another uid against root; a read-only root (a bind
# remount in a user namespace) against a writable one; a NOPASSWD rule
# and a setuid sudo in a private /etc (a mount namespace) against
# no_new_privs; real unix sockets for docker; a fixture HOME with every
# kind of credential (whose values never show) against a clean one; a
# fixture /proc (ENVPREFLIGHT_PROC_ROOT) for seccomp, hidepid and
# capability lists; and bad input (huge and garbage /proc files, a HOME
# that is a file, symbolic link loops, a FIFO): a clear result, never a
# crash or a hang.  What the kernel forbids here (user namespaces, root
# for mounts) is skipped with a message.
. "$(dirname "$0")/../lib.sh"
# the cases run as another user (nobody, 4242) need the binary and the
# repository where that user can reach them, which neither the checkout
# (a 0700 home) nor the scratch directory need be: then everything is in
# nobody_setup's directory, and the binary is its copy, for every run alike
sbin=$EP_BIN
T=$TEST_TMPDIR/sbx
other=0
if nobody_setup; then
	sbin=$PUB_BIN
	T=$PUB/sbx
	other=1
fi
repo=$T/repo
home=$T/home
mkdir -p "$repo" "$home"
chmod 755 "$T" "$repo"
out=$T/out.json
err=$T/err
st=0

# sbx [WRAPPER...] -- [ARGS...]: the binary under WRAPPER (unshare,
# setpriv), in a clean environment ($SBX_ENV adds to it), --json, on
# $repo; the report is kept for run.sh's schema check.
sbx() {
	wrap=
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		wrap="$wrap $1"
		shift
	done
	shift
	# shellcheck disable=SC2086
	env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$home" LC_ALL=C.UTF-8 \
		XDG_CACHE_HOME="$T/cache" ${SBX_ENV:-} $wrap "$sbin" --json "$@" >"$out" 2>"$err"
	st=$?
	if [ -n "${EP_JSON_DIR:-}" ] && [ -s "$out" ]; then
		cp "$out" "$(mktemp "$EP_JSON_DIR/sandbox.XXXXXX")"
	fi
	return 0
}

# get ID FIELD: the check's status, reason or message, or data.FIELD
get() {
	py - "$out" "$1" "$2" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
for c in doc["checks"]:
    if c["id"] == "sandbox." + sys.argv[2]:
        f = sys.argv[3]
        v = c[f] if f in ("status", "reason", "message", "hint", "notes") else c["data"].get(f)
        print(json.dumps(v) if not isinstance(v, str) else v)
        break
else:
    print("(no check)")
EOF
}

# is ID STATUS [REASON]: the check has that status (and reason)
is() {
	s=$(get "$1" status)
	r=$(get "$1" reason)
	if [ "$s" = "$2" ] && { [ -z "${3:-}" ] || [ "$r" = "$3" ]; }; then
		ok
	else
		not_ok "$1: want $2${3:+ ($3)}, got $s ($r): $(get "$1" message) [$(head -c 300 "$err")]"
	fi
}

has() { grep -q -- "$1" "$out"; }

# ---- opt-in: nothing runs unless asked -------------------------------
printf 'version: 1\ntools: [sh]\n' >"$repo/preflight.yaml"
sbx -- "$repo"
check "no sandbox: key, no --only: no sandbox check" sh -c "! grep -q '\"probe\": \"sandbox\"' '$out'"
check "run.options.probes leaves it out" sh -c "! grep -A3 '\"probes\"' '$out' | grep -q sandbox"
printf 'version: 1\nsandbox:\n  network: any\n' >"$repo/preflight.yaml"
sbx -- "$repo"
check "sandbox: in preflight.yaml runs it" has '"id": "sandbox.network.route"'
check "run.options.probes lists it" sh -c "grep -A3 '\"probes\"' '$out' | grep -q sandbox"
check "its checks name preflight.yaml:3" sh -c "grep -A12 '\"sandbox.network.route\"' '$out' | grep -q '\"line\": 3'"
check "any: not judged" [ "$(get network.route judged)" = false ]
printf 'version: 1\nsandbox:\n  netwrk: none\n' >"$repo/preflight.yaml"
sbx -- "$repo"
check "an unknown sandbox key: exit 2 ($st)" [ "$st" = 2 ]
check "an unknown sandbox key: named" grep -q "unknown key 'netwrk' in 'sandbox'" "$err"
rm -f "$repo/preflight.yaml"
sbx -- "$repo"
check "no spec file: nothing to audit ($st)" [ "$st" = 2 ]
sbx -- --only=sandbox "$repo"
check "no spec file, --only=sandbox: it runs ($st)" [ "$st" -le 1 ] && has '"sandbox.fs.root"'
check "43 checks" [ "$(grep -c '"id": "sandbox\.' "$out")" = 43 ]
check "--list-probes names it" sh -c "'$EP_BIN' --list-probes | grep -q '^sandbox '"

# ---- network: a fresh namespace against one with a way out -------------
if unshare --user --map-root-user --net true 2>/dev/null; then
	sbx unshare --user --map-root-user --net -- --only=sandbox "$repo"
	is network.interfaces pass
	is network.route pass
	check "only lo, and it is down" [ "$(get network.interfaces loopback_up)" = false ]
	is network.dns pass
	if grep -q '^nameserver' /etc/resolv.conf 2>/dev/null; then
		check "name servers, unreachable" [ "$(get network.dns reachable)" = false ]
	fi
else
	skip "the network checks: user and network namespaces are not allowed here"
fi
if [ "$(id -u)" = 0 ] && unshare --net ip link add sbx0 type veth peer name sbx1 2>/dev/null; then
	cat >"$T/net.sh" <<EOF
ip link add sbx0 type veth peer name sbx1 && ip link set sbx0 up && ip link set sbx1 up &&
ip link set lo up && ip addr add 10.77.0.1/24 dev sbx0 &&
ip route add default via 10.77.0.2 || exit 99
exec "\$@"
EOF
	sbx unshare --net sh "$T/net.sh" -- --only=sandbox "$repo"
	is network.interfaces fail exposed
	up=$(get network.interfaces up)
	check "the veth pair is up: $up" sh -c "case '$up' in *sbx0*sbx1*|*sbx1*sbx0*) ;; *) exit 1 ;; esac"
	check "lo up is no way out" [ "$(get network.interfaces loopback_up)" = true ]
	is network.route fail exposed
	check "the default route's interface" [ "$(get network.route ipv4)" = '["sbx0"]' ]
	if grep -q '^nameserver' /etc/resolv.conf 2>/dev/null; then
		is network.dns warn exposed
		check "name servers, reachable" [ "$(get network.dns reachable)" = true ]
	fi
	check "the hint names --network none" [ "$(grep -c 'network none' "$out")" -ge 2 ]
	check "the fix is a person's" has '"who": "human"'
	check "the runtime option as data" [ "$(get network.route runtime_option)" = "--network none" ]
else
	skip "the open network: no root or no veth here"
fi

# ---- processes: a private PID namespace against this one ----------------
outer=$(readlink /proc/self/ns/pid)
sbx -- --only=sandbox "$repo"
ns_out=$(get processes.pid_namespace namespace)
if [ "$outer" = "pid:[4026531836]" ]; then
	is processes.pid_namespace fail exposed
else
	is processes.pid_namespace pass
fi
if unshare --user --map-root-user --pid --fork --mount --mount-proc true 2>/dev/null; then
	sbx unshare --user --map-root-user --pid --fork --mount --mount-proc -- --only=sandbox "$repo"
	is processes.pid_namespace pass
	check "PID 1 is ours" [ "$(get processes.pid_namespace pid1)" = envpreflight ]
	check "another namespace than outside" [ "$(get processes.pid_namespace namespace)" != "$ns_out" ]
	is processes.visible pass
	check "one process in view ($(get processes.visible visible))" [ "$(get processes.visible visible)" = 1 ]
	is processes.hidepid pass
	# a PID namespace whose /proc is still the parent's
	sbx unshare --user --map-root-user --pid --fork -- --only=sandbox "$repo"
	is processes.pid_namespace fail exposed
	check "the parent's /proc is named" grep -q "is the parent's" "$out"
else
	skip "the private PID namespace: PID namespaces are not allowed here"
fi

# no_new_privs is inherited and never cleared: a test run under it (a
# container started with no-new-privileges, bubblewrap) cannot show the
# probe a process that lacks it
nnp=$(sed -n 's/^NoNewPrivs:[[:space:]]*//p' /proc/self/status)

# ---- identity: setpriv against root -------------------------------------
if [ "$nnp" = 1 ]; then
	skip "the identity cases: this test runs with no_new_privs set"
elif [ "$other" = 1 ]; then
	chmod 777 "$home"
	sbx -- --only=sandbox "$repo"
	is identity.no_new_privs fail privileged
	is identity.capabilities fail privileged
	is identity.user warn privileged
	is fs.repository pass
	sbx setpriv --no-new-privs --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		--bounding-set=-all -- --only=sandbox "$repo"
	is identity.no_new_privs pass
	is identity.capabilities pass
	check "no capability" [ "$(get identity.capabilities mask)" = 0000000000000000 ]
	is identity.user pass
	is identity.groups pass
	is fs.repository warn not-writable
	is escape.var_run pass
	# a read-write / that this user cannot write to: what the prober
	# (a write attempt as the same user) finds decides, not the flag
	if [ "$(get fs.root read_only)" = false ]; then
		if setpriv --reuid=65534 --regid=65534 --clear-groups sh -c 'for d in / /etc /usr /var; do [ -w "$d" ] && exit 0; done; exit 1'; then
			is fs.root warn writable
		else
			is fs.root pass
		fi
	fi
	chmod 755 "$home"
else
	skip "the identity cases (as nobody): $NOBODY_WHY"
fi

# ---- identity: a group hidden by a user namespace ------------------------
# uid 4242 in group 4343, then a user namespace that maps only itself: the
# group reads as the overflow gid, and still opens a file of that group
# (the prober reads it from the same place)
if [ "$other" = 1 ] && setpriv --reuid=4242 --regid=4242 --groups=4343 -- \
	unshare --user --map-root-user true 2>/dev/null; then
	echo marker >"$T/grp-file"
	chown 0:4343 "$T/grp-file" && chmod 0040 "$T/grp-file"
	chmod 777 "$home"
	hidden="setpriv --reuid=4242 --regid=4242 --groups=4343 unshare --user --map-root-user"
	sbx $hidden -- --only=sandbox "$repo"
	if $hidden cat "$T/grp-file" >/dev/null 2>&1; then
		is identity.groups warn undecided
		check "one group unmapped" [ "$(get identity.groups unmapped)" = 1 ]
	else
		is identity.groups pass
	fi
	check "gid 0 of the namespace is not the host's root group" \
		[ "$(get identity.groups privileged)" = '[]' ]
	chmod 755 "$home"
	rm -f "$T/grp-file"
else
	skip "a group hidden by a user namespace: needs another uid and unprivileged user namespaces"
fi

# ---- file system: a read-only root against a writable one ---------------
if unshare --user --map-root-user --mount true 2>/dev/null; then
	cat >"$T/ro.sh" <<EOF
mount --bind "$repo" "$repo" && mount --bind "$home" "$home" && mount -o remount,bind,ro / || exit 99
exec "\$@"
EOF
	sbx -- --only=sandbox "$repo"
	is fs.root warn writable
	sbx unshare --user --map-root-user --mount sh "$T/ro.sh" -- --only=sandbox "$repo"
	# root of a user namespace with CAP_SYS_ADMIN: the prober tries the
	# remount that would undo the read-only flag, in a namespace of its
	# own (nothing is written)
	if unshare --user --map-root-user --mount sh -c 'mount -o remount,bind,ro / && mount -o remount,bind,rw / && [ -w /etc ]' 2>/dev/null; then
		# a fail when the write would be the host's root's (this test
		# run by root: --map-root-user maps 0 to 0)
		if [ "$(get identity.host_root status)" = fail ]; then
			is fs.root fail writable
		else
			is fs.root warn writable
		fi
		check "CAP_SYS_ADMIN said" [ "$(get fs.root cap_sys_admin)" = true ]
	else
		is fs.root pass
	fi
	is fs.repository pass
	is fs.home pass
	cat >"$T/ro2.sh" <<EOF
mount -o remount,bind,ro / || exit 99
exec "\$@"
EOF
	printf 'version: 1\nsandbox:\n  repository: read-only\n' >"$repo/preflight.yaml"
	sbx -- "$repo"
	is fs.repository fail writable
	sbx unshare --user --map-root-user --mount sh "$T/ro2.sh" -- "$repo"
	is fs.repository pass
	rm -f "$repo/preflight.yaml"
else
	skip "the read-only root: mount namespaces are not allowed here"
fi

# ---- escape hatches: real sockets, DOCKER_HOST ---------------------------
mksock() {
	/usr/bin/python3 -c 'import socket, sys; s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' "$1"
}
# mksock leaves a socket file nobody listens on: writable, but no listener
# in /proc/net/unix, so "cannot tell" (live daemons: sandbox_sock.sh)
mksock "$T/docker.sock"
SBX_ENV="DOCKER_HOST=unix://$T/docker.sock" sbx -- --only=sandbox "$repo"
if [ "$(id -u)" = 0 ] || [ -w "$T/docker.sock" ]; then
	is escape.docker_socket warn undecided
fi
check "the socket is listed" has "\"path\": \"$T/docker.sock\""
is escape.docker_host warn undecided
check "its scheme" [ "$(get escape.docker_host variables)" = '[{"name": "DOCKER_HOST", "scheme": "unix", "reachable": null}]' ]
SBX_ENV="DOCKER_HOST=tcp://deploy:hunter2pass@build.example:2376" sbx -- --only=sandbox "$repo"
is escape.docker_host fail exposed
check "a DOCKER_HOST password never shows" sh -c "! grep -q hunter2pass '$out'"
# a socket that is not there: nothing is reached through it (a pass,
# with a note)
SBX_ENV="DOCKER_HOST=unix://$T/none.sock" sbx -- --only=sandbox "$repo"
is escape.docker_host pass
check "a DOCKER_HOST naming no socket: reachable false" [ "$(get escape.docker_host variables)" = '[{"name": "DOCKER_HOST", "scheme": "unix", "reachable": false}]' ]
if [ "$other" = 1 ]; then
	chmod 600 "$T/docker.sock"
	SBX_ENV="DOCKER_HOST=unix://$T/docker.sock" sbx setpriv --reuid=65534 --regid=65534 \
		--clear-groups -- --only=sandbox "$repo"
	is escape.docker_socket warn exposed
else
	skip "a docker socket nobody may not open: $NOBODY_WHY"
fi

# ---- sudo: a NOPASSWD rule in a private /etc ----------------------------
if [ "$nnp" = 1 ]; then
	skip "the sudo cases: this test runs with no_new_privs set"
elif [ "$other" = 0 ]; then
	skip "the sudo cases (as uid 4242): $NOBODY_WHY"
elif ! unshare --mount true 2>/dev/null; then
	skip "the sudo cases: mount namespaces are not allowed here"
else
	etc=$T/etc
	mkdir -p "$etc/sudoers.d" "$T/bin"
	cp /etc/ld.so.cache "$etc/" 2>/dev/null
	printf 'root:x:0:0:root:/root:/bin/sh\nagent:x:4242:4242::%s:/bin/sh\n' "$home" >"$etc/passwd"
	printf 'root:x:0:\nagent:x:4242:\ndocker:x:999:agent\n' >"$etc/group"
	: >"$etc/resolv.conf"
	printf 'Defaults env_reset\nroot ALL=(ALL:ALL) ALL\n@includedir /etc/sudoers.d\n' >"$etc/sudoers"
	printf '# the agent may run anything\n%%docker ALL=(ALL) NOPASSWD: ALL\n' >"$etc/sudoers.d/agent"
	printf 'agent ALL=(ALL) NOPASSWD: ALL\n' >"$etc/sudoers.d/skipped.bak"
	chmod 444 "$etc/sudoers" "$etc/sudoers.d/agent"
	cp /bin/true "$T/bin/sudo"	# never run: only its setuid bit is looked at
	chmod 4755 "$T/bin/sudo"
	cat >"$T/etc.sh" <<EOF
mount --bind "$etc" /etc || exit 99
exec "\$@"
EOF
	chmod 777 "$home"
	agent="setpriv --reuid=4242 --regid=4242 --init-groups"
	SBX_ENV="PATH=$T/bin:/usr/bin:/bin" sbx unshare --mount sh "$T/etc.sh" $agent -- \
		--only=sandbox "$repo"
	is escape.sudo fail exposed
	check "the rule's file and line" [ "$(get escape.sudo rules)" = \
		'[{"file": "/etc/sudoers.d/agent", "line": 2, "what": "NOPASSWD"}]' ]
	is identity.groups warn privileged
	is network.dns pass
	SBX_ENV="PATH=$T/bin:/usr/bin:/bin" sbx unshare --mount sh "$T/etc.sh" setpriv \
		--no-new-privs --reuid=4242 --regid=4242 --init-groups -- --only=sandbox "$repo"
	is escape.sudo pass
	chmod 400 "$etc/sudoers.d/agent"
	SBX_ENV="PATH=$T/bin:/usr/bin:/bin" sbx unshare --mount sh "$T/etc.sh" $agent -- \
		--only=sandbox "$repo"
	is escape.sudo warn undecided
	check "what could not be read" [ "$(get escape.sudo unreadable)" = '["/etc/sudoers.d/agent"]' ]
	# in group sudo, which Debian's default sudoers grants everything:
	# the rule that could spare the password cannot be read, but root is
	# one command (and perhaps a password) away
	printf 'root:x:0:\nagent:x:4242:\nsudo:x:27:agent\n' >"$etc/group"
	SBX_ENV="PATH=$T/bin:/usr/bin:/bin" sbx unshare --mount sh "$T/etc.sh" $agent -- \
		--only=sandbox "$repo"
	is escape.sudo fail exposed
	check "the admin group named" [ "$(get escape.sudo admin_groups)" = '["sudo"]' ]
	chmod 755 "$home"
fi

# ---- secrets in reach: names, never values -----------------------------
# the probe looks in the home /etc/passwd gives this user as well as in
# HOME: a private /etc/passwd (a mount namespace) names $home there too,
# so that nothing of this machine's real home enters these cases; where
# user namespaces are not allowed, the real one is read (and a credential
# in the real home would show)
printf 'root:x:0:0:root:%s:/bin/sh\n' "$home" >"$T/passwd"
cat >"$T/pw.sh" <<EOF
mount --bind "$T/passwd" /etc/passwd || exit 99
exec "\$@"
EOF
PW=
if unshare --user --map-root-user --mount true 2>/dev/null; then
	PW="unshare --user --map-root-user --mount sh $T/pw.sh"
else
	skip "a private /etc/passwd for the secrets: user namespaces are not allowed here"
fi
mkdir -p "$home/.ssh" "$home/.aws" "$home/.config/gcloud" "$home/.docker"
printf -- '-----BEGIN OPENSSH PRIVATE KEY-----\nsshkeyvalue0001\n' >"$home/.ssh/id_ed25519"
: >"$home/.ssh/id_ed25519.pub"
printf -- '-----BEGIN RSA PRIVATE KEY-----\nsshkeyvalue0002\n' >"$home/.ssh/deploy_key"
: >"$home/.ssh/deploy_key.pub"
: >"$home/.ssh/known_hosts"
printf '[default]\naws_access_key_id = AKIAEXAMPLEVALUE01\naws_secret_access_key = awssecretvalue01\n' \
	>"$home/.aws/credentials"
printf '{"refresh_token": "gcloudvalue01"}' >"$home/.config/gcloud/application_default_credentials.json"
printf '{"auths": {"ghcr.io": {"auth": "ZG9ja2VydmFsdWUwMQ=="}}}' >"$home/.docker/config.json"
printf '//registry.npmjs.org/:_authToken=${NPM_TOKEN}\n' >"$home/.npmrc"
printf 'machine example.com login me password netrcvalue01\n' >"$home/.netrc"
mksock "$T/agent.sock"
SBX_ENV="NPM_TOKEN=npmvalue01 SSH_AUTH_SOCK=$T/agent.sock" sbx $PW -- --only=sandbox "$repo"
for s in ssh aws gcloud docker npmrc netrc; do
	is "secrets.$s" fail exposed
done
check "ssh: the keys by name" [ "$(get secrets.ssh found)" = \
	'["the ssh-agent socket (SSH_AUTH_SOCK)", "deploy_key", "id_ed25519"]' ]
check "npmrc: the variable by name" [ "$(get secrets.npmrc variable)" = NPM_TOKEN ]
check "paths shown from ~" [ "$(get secrets.aws path)" = "~/.aws/credentials" ]
for fmt in json human junit github; do
	env -i PATH=/usr/bin:/bin HOME="$home" NPM_TOKEN=npmvalue01 LC_ALL=C.UTF-8 \
		"$EP_BIN" --only=sandbox --explain --format=$fmt "$repo" >"$T/all.$fmt" 2>&1
done
check "no secret value in any format" sh -c "! grep -l -e value0 -e value01 -e AKIA -e ZG9ja2Vy '$T'/all.*"
SBX_ENV= sbx $PW -- --only=sandbox "$repo"
is secrets.npmrc pass
check "npmrc: its variable is unset" sh -c "grep -q 'token variable is not set' '$out'"
printf 'version: 1\nsandbox:\n  secrets: [npmrc, netrc]\n' >"$repo/preflight.yaml"
SBX_ENV="NPM_TOKEN=x" sbx $PW -- "$repo"
is secrets.npmrc pass
is secrets.netrc pass
is secrets.aws fail exposed
check "allowed: a note" sh -c "grep -q 'not judged: sandbox.secrets allows it' '$out'"
rm -f "$repo/preflight.yaml"
# a clean home
rm -rf "$home"
mkdir -p "$home/.ssh" "$home/.docker"
: >"$home/.ssh/known_hosts"
: >"$home/.ssh/config"
printf '{"auths": {"ghcr.io": {}}, "credsStore": "desktop"}' >"$home/.docker/config.json"
printf 'registry=https://registry.npmjs.org/\n' >"$home/.npmrc"
sbx $PW -- --only=sandbox "$repo"
for s in ssh aws gcloud docker npmrc netrc; do
	is "secrets.$s" pass
done

# ---- bad input: HOME and ~/.ssh ------------------------------------------
# item: a HOME that is a file
rm -rf "$home"
: >"$home"
sbx $PW -- --only=sandbox "$repo"
check "HOME a file: a report ($st)" [ "$st" -le 1 ] && [ -s "$out" ]
is fs.home warn not-writable
check "HOME a file: says so" sh -c "grep -q 'is not a directory' '$out'"
is secrets.ssh pass
rm -f "$home"
# item: symbolic link loops in and at ~/.ssh, a FIFO for ~/.npmrc, a large one
mkdir -p "$home/.ssh"
ln -s id_rsa "$home/.ssh/id_rsa"
ln -s id_b "$home/.ssh/id_a"
ln -s id_a "$home/.ssh/id_b"
mkfifo "$home/.npmrc"
sbx $PW -- --only=sandbox "$repo"
check "loops and a FIFO: a report ($st)" [ "$st" -le 1 ] && [ -s "$out" ]
is secrets.ssh pass
check "loops: not readable" sh -c "grep -q 'keys are not readable' '$out'"
is secrets.npmrc pass
rm -rf "$home/.ssh" "$home/.npmrc"
ln -s .ssh "$home/.ssh"
head -c 2000000 /dev/zero | tr '\0' a >"$home/.netrc"
sbx $PW -- --only=sandbox "$repo"
is secrets.ssh pass
check "~/.ssh a loop: says so" sh -c "grep -q 'a loop of symbolic links' '$out'"
is secrets.netrc warn undecided
rm -rf "$home"
mkdir -p "$home"

# ---- a fixture /proc: seccomp, hidepid, capabilities, and bad input -----
# a small /proc tree: self/status, self/mountinfo, the pid ns links,
# PID 1's comm, net/dev (lo), net/route (no route), an identity uid_map
fixture() {
	# fixture NAME STATUS MOUNT-OPTIONS PIDNS-INODE
	d=$T/proc-$1
	rm -rf "$d"
	mkdir -p "$d/self/ns" "$d/1" "$d/7" "$d/net"
	printf '%b' "$2" >"$d/self/status"
	printf '22 27 0:21 / /proc rw - proc proc %s\n' "$3" >"$d/self/mountinfo"
	mkdir -p "$d/1/ns"
	ln -s "pid:[$4]" "$d/self/ns/pid"
	ln -s "pid:[$4]" "$d/1/ns/pid"
	echo systemd >"$d/1/comm"
	printf 'h\nh\n    lo: 0 0\n' >"$d/net/dev"
	printf 'Iface\tDestination\n' >"$d/net/route"
	printf '0 0 4294967295\n' >"$d/self/uid_map"
}
ids='Uid:\t1000\t1000\t1000\t1000\nGid:\t1000\t1000\t1000\t1000\nGroups:\t\n'
fixture tight "${ids}CapEff:\t0000000000000000\nNoNewPrivs:\t1\nSeccomp:\t2\nSeccomp_filters:\t3\n" \
	rw,hidepid=invisible 4026531836
SBX_ENV="ENVPREFLIGHT_PROC_ROOT=$T/proc-tight" sbx -- --only=sandbox "$repo"
is identity.capabilities pass
is identity.no_new_privs pass
# filter mode in a fixture: another machine's, whose filter this kernel
# cannot try (sandbox_seccomp.sh tries real ones): never a pass
is identity.seccomp warn undecided
check "seccomp filters" [ "$(get identity.seccomp filters)" = 3 ]
is identity.user pass
is processes.hidepid pass
is processes.pid_namespace fail exposed
check "PID 1 named" grep -q "the host's PID namespace (PID 1 is systemd)" "$out"
check "two processes in the fixture" [ "$(get processes.visible visible)" = 2 ]
# hidepid that hides nothing from this process (root, CAP_SYS_PTRACE, the
# gid= group): another user's process in view is what decides
fixture exempt "${ids}CapEff:\t0000000000000000\nNoNewPrivs:\t1\nSeccomp:\t2\n" \
	rw,hidepid=invisible,gid=27 4026531836
if chown 4242 "$T/proc-exempt/7" 2>/dev/null; then
	SBX_ENV="ENVPREFLIGHT_PROC_ROOT=$T/proc-exempt" sbx -- --only=sandbox "$repo"
	is processes.hidepid warn exposed
	check "one process of another user in view" [ "$(get processes.hidepid other_users_visible)" = 1 ]
else
	skip "hidepid with another user's process in view: cannot chown a fixture directory"
fi
fixture open "${ids}CapEff:\t0000000000000003\nNoNewPrivs:\t0\nSeccomp:\t0\n" rw 4026532999
SBX_ENV="ENVPREFLIGHT_PROC_ROOT=$T/proc-open" sbx -- --only=sandbox "$repo"
is identity.capabilities fail privileged
check "capabilities by name" [ "$(get identity.capabilities effective)" = '["CAP_CHOWN", "CAP_DAC_OVERRIDE"]' ]
is identity.seccomp warn exposed
is identity.no_new_privs fail privileged
is processes.hidepid pass
is processes.pid_namespace pass
printf 'version: 1\nsandbox:\n  capabilities: [chown]\n  seccomp: any\n  processes: 1\n' \
	>"$repo/preflight.yaml"
SBX_ENV="ENVPREFLIGHT_PROC_ROOT=$T/proc-open" sbx -- "$repo"
is identity.capabilities fail privileged
check "only the one not allowed" [ "$(get identity.capabilities not_allowed)" = '["CAP_DAC_OVERRIDE"]' ]
check "the expectation as a list" [ "$(get identity.capabilities expect)" = '["CAP_CHOWN"]' ]
is identity.seccomp pass
is processes.visible warn exposed
rm -f "$repo/preflight.yaml"
fixture hostpid "${ids}CapEff:\t0\nNoNewPrivs:\t1\nSeccomp:\t2\n" rw 4026531836
SBX_ENV="ENVPREFLIGHT_PROC_ROOT=$T/proc-hostpid" sbx -- --only=sandbox "$repo"
is processes.hidepid warn exposed
# item: hostile /proc content
fixture garbage "${ids}CapEff:\tnot-a-mask\n" 'rw' 1
SBX_ENV="ENVPREFLIGHT_PROC_ROOT=$T/proc-garbage" sbx -- --only=sandbox "$repo"
check "garbage CapEff: exit 1, a report ($st)" [ "$st" = 1 ]
is identity.capabilities error unreadable
check "garbage CapEff: names the line" grep -q 'its CapEff line does not parse' "$out"
fixture huge "${ids}CapEff:\t0\n" rw 1
head -c 3000000 /dev/zero | tr '\0' x >"$T/proc-huge/self/status"
printf 'garbage\n' >"$T/proc-huge/self/mountinfo"
head -c 3000000 /dev/zero | tr '\0' y >>"$T/proc-huge/net/dev"
rm "$T/proc-huge/net/route"
SBX_ENV="ENVPREFLIGHT_PROC_ROOT=$T/proc-huge" sbx -- --only=sandbox "$repo"
check "huge /proc files: a report ($st)" [ "$st" = 1 ] && [ -s "$out" ]
is identity.user error unreadable
check "huge status: the cap named" grep -q 'larger than' "$out"
is processes.hidepid error unreadable
is network.route error unreadable
is network.interfaces error unreadable
finish
