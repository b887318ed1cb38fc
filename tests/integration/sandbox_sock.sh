#!/bin/sh
# sandbox_sock.sh - the sandbox probe's container socket search
# (escape.docker_socket) and DOCKER_HOST (escape.docker_host) against fake
# daemons: real unix sockets listening at the places real daemons use, in a
# private HOME and, where the place is under /run, in a private mount
# namespace (unshare -rm, a tmpfs over /run).  In each configuration a
# prober *tries* to connect from the same place envpreflight runs (the
# prober may connect; envpreflight must not), and the test asserts that
# the verdict matches: fail when the prober reached a daemon whose listener
# is in this network namespace, never fail when it reached none, never
# pass when it reached one.  strace (when present) shows that envpreflight
# made no connect(2).
. "$(dirname "$0")/../lib.sh"
T=$TEST_TMPDIR/sock
mkdir -p "$T/repo" "$T/bin"
repo=$T/repo
out=$T/out.json
err=$T/err

# daemon.py READY ADDR...: listen on each unix path (or tcp:PORT on
# 127.0.0.1), touch READY, accept and close until killed
cat >"$T/bin/daemon.py" <<'EOF'
import os, select, socket, sys
socks = []
for a in sys.argv[2:]:
    if a.startswith("tcp:"):
        s = socket.socket(socket.AF_INET)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", int(a[4:])))
    else:
        os.makedirs(os.path.dirname(a), exist_ok=True)
        s = socket.socket(socket.AF_UNIX)
        s.bind(a)
    s.listen(8)
    socks.append(s)
open(sys.argv[1], "w").close()
while True:
    for s in select.select(socks, [], [])[0]:
        c, _ = s.accept()
        c.close()
EOF
# stale.py PATH: a socket file nobody listens on (bound, then gone)
cat >"$T/bin/stale.py" <<'EOF'
import os, socket, sys
os.makedirs(os.path.dirname(sys.argv[1]), exist_ok=True)
socket.socket(socket.AF_UNIX).bind(sys.argv[1])
EOF
# prober.py ADDR...: try to connect to each (a unix path, or tcp:HOST:PORT);
# print the ones that answered, one a line
cat >"$T/bin/prober.py" <<'EOF'
import socket, sys
for a in sys.argv[1:]:
    try:
        if a.startswith("tcp:"):
            h, p = a[4:].rsplit(":", 1)
            s = socket.create_connection((h, int(p)), timeout=2)
        else:
            s = socket.socket(socket.AF_UNIX)
            s.settimeout(2)
            s.connect(a)
        s.close()
        print(a)
    except OSError:
        pass
EOF

# the check's status, reason, or data.FIELD of the last report
get() {
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

# sock_field PATH FIELD: FIELD of the escape.docker_socket entry for PATH
sock_field() {
	py - "$out" "$1" "$2" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
for c in doc["checks"]:
    if c["id"] == "sandbox.escape.docker_socket":
        for s in c["data"]["sockets"]:
            if s["path"] == sys.argv[2]:
                v = s[sys.argv[3]]
                print(json.dumps(v) if not isinstance(v, str) else v)
                sys.exit(0)
print("(not listed)")
EOF
}

# scenario NAME UNSHARE-FLAGS: run $T/NAME.sh (written by the caller) as
# `sh NAME.sh` under unshare with those flags ("" for none); it sets up
# its sockets and calls `run` and `probe`, whose results land in $out and
# $T/reached
scenario() {
	name=$1
	flags=$2
	cat >"$T/lib_in.sh" <<EOF
T='$T'
repo='$repo'
out='$out'
err='$err'
EP_BIN='$EP_BIN'
ENV_EXTRA=''
pids=
# live READY-NAME ADDR...: a fake daemon, waited for
live() {
	r="\$T/ready.\$1"; shift
	rm -f "\$r"
	/usr/bin/python3 "\$T/bin/daemon.py" "\$r" "\$@" &
	pids="\$pids \$!"
	i=0
	while [ ! -e "\$r" ] && [ \$i -lt 200 ]; do sleep 0.05; i=\$((i + 1)); done
}
stale() { /usr/bin/python3 "\$T/bin/stale.py" "\$1"; }
# run: envpreflight --only=sandbox in a clean environment (HOME=\$home)
run() {
	env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="\$home" LC_ALL=C.UTF-8 \$ENV_EXTRA \\
		\${WRAP:-} "\$EP_BIN" --json --only=sandbox "\$repo" >"\$out" 2>"\$err"
}
probe() { /usr/bin/python3 "\$T/bin/prober.py" "\$@" >"\$T/reached"; }
stop() { for p in \$pids; do kill "\$p" 2>/dev/null; wait "\$p" 2>/dev/null; done; pids=; }
EOF
	rm -f "$out" "$T/reached"
	if [ -n "$flags" ]; then
		# shellcheck disable=SC2086
		unshare $flags sh -c ". '$T/lib_in.sh'; . '$T/$name.sh'; stop" >"$T/$name.log" 2>&1
	else
		sh -c ". '$T/lib_in.sh'; . '$T/$name.sh'; stop" >"$T/$name.log" 2>&1
	fi
	if [ -n "${EP_JSON_DIR:-}" ] && [ -s "$out" ]; then
		cp "$out" "$(mktemp "$EP_JSON_DIR/sandbox_sock.XXXXXX")"
	fi
}

# agree CHECK DESC: the verdict of CHECK matches what the prober reached:
# reached something -> fail; reached nothing -> not fail
agree() {
	s=$(get "$1" status)
	if [ -s "$T/reached" ]; then
		check "$2: the prober connected, so $1 fails (got $s: $(get "$1" message))" \
			[ "$s" = fail ]
	else
		check "$2: the prober reached nothing, so $1 does not fail (got $s: $(get "$1" message))" \
			[ "$s" != fail ]
	fi
}

home=$T/home
reset_home() {
	rm -rf "$home"
	mkdir -p "$home"
}

if ! [ -x /usr/bin/python3 ]; then
	skip "no /usr/bin/python3 for the fake daemons"
	finish
	exit $?
fi

# ---- Docker Desktop's sockets in HOME ---------------------------------------
for rel in .docker/desktop/docker.sock .docker/run/docker.sock .colima/default/docker.sock; do
	reset_home
	cat >"$T/desk.sh" <<EOF
home='$home'
live d "\$home/$rel"
run
probe "\$home/$rel"
EOF
	scenario desk ""
	check "~/$rel: the prober connected" grep -qx "$home/$rel" "$T/reached"
	agree escape.docker_socket "~/$rel"
	check "~/$rel: listed, listening" [ "$(sock_field "$home/$rel" listening)" = true ]
	check "~/$rel: writable" [ "$(sock_field "$home/$rel" writable)" = true ]
done

# ---- a stale socket file: no listener, the prober fails ---------------------
reset_home
cat >"$T/stale.sh" <<EOF
home='$home'
stale "\$home/.docker/run/docker.sock"
run
probe "\$home/.docker/run/docker.sock"
EOF
scenario stale ""
check "stale: the prober could not connect" [ ! -s "$T/reached" ]
agree escape.docker_socket "stale socket"
check "stale: a warning, cannot tell ($(get escape.docker_socket status) $(get escape.docker_socket reason))" \
	[ "$(get escape.docker_socket status)/$(get escape.docker_socket reason)" = warn/undecided ]
check "stale: listed, listener not seen" \
	[ "$(sock_field "$home/.docker/run/docker.sock" listening)" = null ]

# ---- docker contexts: config.json currentContext, DOCKER_CONTEXT ------------
ctxdir() { py -c 'import hashlib, sys; print(hashlib.sha256(sys.argv[1].encode()).hexdigest())' "$1"; }
reset_home
mkdir -p "$T/ctxd"
for c in remote-one other; do
	d=$home/.docker/contexts/meta/$(ctxdir "$c")
	mkdir -p "$d"
	printf '{"Name":"%s","Metadata":{},"Endpoints":{"docker":{"Host":"unix://%s/ctxd/%s.api","SkipTLSVerify":false}}}' \
		"$c" "$T" "$c" >"$d/meta.json"
done
printf '{"auths": {}, "currentContext": "remote-one"}' >"$home/.docker/config.json"
cat >"$T/ctx.sh" <<EOF
home='$home'
live c "\$T/ctxd/remote-one.api"
run
probe "\$T/ctxd/remote-one.api"
EOF
scenario ctx ""
agree escape.docker_socket "the current context's socket"
check "context: found as such" [ "$(sock_field "$T/ctxd/remote-one.api" source)" = context ]
check "context: listening" [ "$(sock_field "$T/ctxd/remote-one.api" listening)" = true ]
check "context: a docker endpoint" [ "$(sock_field "$T/ctxd/remote-one.api" kind)" = docker ]
cat >"$T/ctx2.sh" <<EOF
home='$home'
ENV_EXTRA='DOCKER_CONTEXT=other'
live c "\$T/ctxd/other.api"
run
probe "\$T/ctxd/other.api"
EOF
scenario ctx2 ""
agree escape.docker_socket "DOCKER_CONTEXT's socket"
check "DOCKER_CONTEXT: found" [ "$(sock_field "$T/ctxd/other.api" source)" = context ]

# ---- under /run, in a private mount namespace --------------------------------
if ! unshare -rm true 2>/dev/null; then
	skip "the /run cases: user and mount namespaces are not allowed here"
else
	# rootless podman with XDG_RUNTIME_DIR cleared: /run/user/UID from
	# the real uid (0 in the namespace); containerd; a name found by the
	# walk only; a socket bind-mounted under a name that says nothing
	reset_home
	cat >"$T/run.sh" <<EOF
home='$home'
mount -t tmpfs none /run || exit 1
live r /run/user/0/podman/podman.sock /run/containerd/containerd.sock /run/x/y/crio.sock \
	"\$T/lent/docker.sock"
mkdir -p "\$home/w"
: >"\$home/w/api"
mount --bind "\$T/lent/docker.sock" "\$home/w/api"
run
probe /run/user/0/podman/podman.sock /run/containerd/containerd.sock /run/x/y/crio.sock \
	"\$home/w/api"
EOF
	scenario run "-rm"
	for p in /run/user/0/podman/podman.sock /run/containerd/containerd.sock \
		/run/x/y/crio.sock "$home/w/api"; do
		check "$p: the prober connected" grep -qx "$p" "$T/reached"
		check "$p: listed and listening ($(sock_field "$p" listening))" \
			[ "$(sock_field "$p" listening)" = true ]
	done
	agree escape.docker_socket "/run sockets"
	check "podman without XDG_RUNTIME_DIR: a known place" \
		[ "$(sock_field /run/user/0/podman/podman.sock source)" = known ]
	check "crio.sock deep in /run: found by the walk" \
		[ "$(sock_field /run/x/y/crio.sock source)" = search ]
	check "a bind mount named api: found in the mount table" \
		[ "$(sock_field "$home/w/api" source)" = mount ]
	check "kinds" [ "$(sock_field /run/containerd/containerd.sock kind)/$(sock_field /run/x/y/crio.sock kind)" = containerd/cri-o ]

	# a live daemon outside the sandbox's network namespace: its socket
	# file is reached (the prober connects), its listener is not in this
	# namespace's /proc/net/unix: never a pass, said as "cannot tell"
	reset_home
	cat >"$T/netns.sh" <<EOF
home='$home'
live n "\$home/.docker/run/docker.sock"
WRAP='unshare -n'
run
unshare -n /usr/bin/python3 "\$T/bin/prober.py" "\$home/.docker/run/docker.sock" >"\$T/reached"
EOF
	scenario netns "-rm"
	check "other netns: the prober connected" [ -s "$T/reached" ]
	check "other netns: not a pass, cannot tell ($(get escape.docker_socket status)/$(get escape.docker_socket reason))" \
		[ "$(get escape.docker_socket status)/$(get escape.docker_socket reason)" = warn/undecided ]

	# the same daemon lent in with a bind mount (docker run -v
	# /var/run/docker.sock:...): still no listener in view, but the
	# mount table says the socket came from outside: a failure
	reset_home
	cat >"$T/lent.sh" <<EOF
home='$home'
mkdir -p "\$T/outer" "\$home/.docker/run"
live l "\$T/outer/daemon.sock"
: >"\$home/.docker/run/docker.sock"
mount --bind "\$T/outer/daemon.sock" "\$home/.docker/run/docker.sock" || exit 1
WRAP='unshare -n'
run
unshare -n /usr/bin/python3 "\$T/bin/prober.py" "\$home/.docker/run/docker.sock" >"\$T/reached"
EOF
	scenario lent "-rm"
	if [ -s "$out" ]; then
		check "lent socket: the prober connected" [ -s "$T/reached" ]
		agree escape.docker_socket "a socket bind-mounted in, its daemon in another netns"
		check "lent socket: mounted, no listener seen" \
			[ "$(sock_field "$home/.docker/run/docker.sock" mounted)/$(sock_field "$home/.docker/run/docker.sock" listening)" = true/null ]
	else
		skip "a bind mount in a private mount namespace: $(tail -n 1 "$T/lent.log")"
	fi

	# the bounded walk stops early, and says so
	reset_home
	cat >"$T/many.sh" <<EOF
home='$home'
mount -t tmpfs none /run || exit 1
/usr/bin/python3 -c '
import os
os.makedirs("/run/many")
for i in range(20100):
    open("/run/many/f%d" % i, "w").close()
'
run
probe
EOF
	scenario many "-rm"
	# 20100 entries are past the walk's cap; on a loaded machine (an ASan
	# build, two cores, the suite beside it) its 100 ms run out first:
	# either stop is the walk cut short, which the report must say
	check "a walk past its entries: stopped says so ($(get escape.docker_socket search))" \
		grep -Eq '"stopped": "(entries|deadline)"' "$out"
	check "and it is not a pass ($(get escape.docker_socket status))" \
		[ "$(get escape.docker_socket status)" = warn ]
fi

# ---- DOCKER_HOST=tcp:// ------------------------------------------------------
if unshare -rn true 2>/dev/null; then
	reset_home
	cat >"$T/tcpnone.sh" <<EOF
home='$home'
ENV_EXTRA='DOCKER_HOST=tcp://192.0.2.10:2375'
run
probe tcp:192.0.2.10:2375
EOF
	scenario tcpnone "-rn"
	check "tcp:// without a network: unreachable" [ ! -s "$T/reached" ]
	agree escape.docker_host "DOCKER_HOST=tcp:// with no network"
	check "tcp:// without a network: a pass ($(get escape.docker_host message))" \
		[ "$(get escape.docker_host status)" = pass ]
	cat >"$T/tcplo.sh" <<EOF
home='$home'
ip link set lo up 2>/dev/null
ENV_EXTRA='DOCKER_HOST=tcp://127.0.0.1:23750'
run
cp "\$out" "\$T/tcplo-none.json"
probe tcp:127.0.0.1:23750
cp "\$T/reached" "\$T/tcplo-none.reached"
live t tcp:23750
run
probe tcp:127.0.0.1:23750
EOF
	scenario tcplo "-rn"
	check "loopback daemon: the prober connected" [ -s "$T/reached" ]
	agree escape.docker_host "DOCKER_HOST=tcp://127.0.0.1 with a listener"
	cp "$out" "$T/tcplo-live.json"
	cp "$T/tcplo-none.json" "$out"
	cp "$T/tcplo-none.reached" "$T/reached"
	agree escape.docker_host "DOCKER_HOST=tcp://127.0.0.1 with nothing listening"
	check "loopback, nothing listening: a pass" [ "$(get escape.docker_host status)" = pass ]
	cp "$T/tcplo-live.json" "$out"
else
	skip "DOCKER_HOST=tcp:// in a network namespace: not allowed here"
fi

# ---- DOCKER_HOST=unix:// stale and live ---------------------------------------
reset_home
cat >"$T/dh.sh" <<EOF
home='$home'
ENV_EXTRA="DOCKER_HOST=unix://\$T/dh/live.sock"
live h "\$T/dh/live.sock"
run
probe "\$T/dh/live.sock"
EOF
scenario dh ""
agree escape.docker_host "DOCKER_HOST=unix:// live"
check "DOCKER_HOST live: reachable" [ "$(get escape.docker_host variables)" = '[{"name": "DOCKER_HOST", "scheme": "unix", "reachable": true}]' ]
rm -rf "$T/dh"
cat >"$T/dh2.sh" <<EOF
home='$home'
ENV_EXTRA="DOCKER_HOST=unix://\$T/dh/stale.sock"
stale "\$T/dh/stale.sock"
run
probe "\$T/dh/stale.sock"
EOF
scenario dh2 ""
agree escape.docker_host "DOCKER_HOST=unix:// stale"
check "DOCKER_HOST stale: cannot tell" [ "$(get escape.docker_host status)/$(get escape.docker_host reason)" = warn/undecided ]

# ---- no connect(2), ever -----------------------------------------------------
if command -v strace >/dev/null 2>&1 && strace -f -o /dev/null true 2>/dev/null; then
	reset_home
	cat >"$T/trace.sh" <<EOF
home='$home'
live s "\$home/.docker/desktop/docker.sock" tcp:23751
ENV_EXTRA="DOCKER_HOST=tcp://127.0.0.1:23751"
WRAP="strace -f -qq -e trace=connect,sendto,sendmsg,openat -o \$T/trace"
run
EOF
	scenario trace ""
	check "strace saw the run: it opened /proc/net/unix" grep -q 'net/unix' "$T/trace"
	# the one send is the route lookup's, to the kernel over netlink
	# (sandbox_route.sh): never a daemon's socket
	check "no connect(2); no sendto(2), sendmsg(2) but to the kernel over netlink" \
		sh -c "! grep -E 'connect\\(' '$T/trace' && ! grep -E 'sendto\\(|sendmsg\\(' '$T/trace' | grep -v AF_NETLINK"
	check "and the socket was found" [ "$(sock_field "$home/.docker/desktop/docker.sock" listening)" = true ]
else
	skip "no strace (or ptrace is not allowed): the no-connect check"
fi

finish
