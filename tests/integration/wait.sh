#!/bin/sh
# wait.sh - --wait and --interval end to end, on real sockets: a port that
# starts listening while envpreflight waits, one that never does, one that
# listens from the start (no second round), a docker daemon that answers
# 503 and then its version, what waiting cannot change (no wait at all),
# a hung daemon under a short deadline, SIGTERM during a wait, the
# progress line on a terminal and nothing on a pipe, ports alone (one that
# starts listening, one that is released, on the progress line's word),
# and bad values.
#
# No clock is asserted.  The listener that "starts later" starts on an
# event that proves the first round is over: the fake docker daemon's
# second connection, which only a second round makes (each round asks the
# daemon once).  Every wait that must end in success is generous (20 s);
# every wait that must run out is short and asserts only that it ran out.
. "$(dirname "$0")/../lib.sh"
id=$T_MARK	# in the sleep markers: this run's own
gate=$TEST_TMPDIR/gate.py

if ! command -v python3 >/dev/null 2>&1; then
	skip "every case: no python3 for the socket helpers"
	finish
	exit $?
fi

# gate.py MODE SOCK PORTFILE LOG: a fake docker daemon on the unix socket
# SOCK, and a TCP port of 127.0.0.1 that it holds bound but not listening
# (so that nobody else takes it), written to PORTFILE.  Each request is
# logged as one line in LOG, then, by MODE:
#   late    the 1st gets 503 (a daemon starting), the 2nd and later start
#           listening on the port, then get version 24.0.7
#   down    every one gets 503
#   hang    from the 2nd on, no answer at all (the 1st gets 503)
#   hangall no answer at all
#   old     version 20.10.0, every time
#   listen  listen on the port at once; version 24.0.7 every time
# It ends after 120 s whatever happens.
cat >"$gate" <<'EOF'
import os, signal, socket, sys
mode, path, portfile, log = sys.argv[1:5]
signal.alarm(120)
signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
tcp = socket.socket()
tcp.bind(("127.0.0.1", 0))
if mode == "listen":
    tcp.listen(8)
with open(portfile + ".tmp", "w") as f:
    f.write("%d\n" % tcp.getsockname()[1])
os.rename(portfile + ".tmp", portfile)
srv = socket.socket(socket.AF_UNIX)
srv.bind(path)
srv.listen(16)
held = []
def reply(c, code, body):
    c.sendall(b"HTTP/1.1 %d X\r\nContent-Type: application/json\r\n"
              b"Content-Length: %d\r\n\r\n%s" % (code, len(body), body))
n = 0
while True:
    c, _ = srv.accept()
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = c.recv(4096)
        if not chunk:
            break
        data += chunk
    n += 1
    with open(log, "a") as f:
        f.write("%d\n" % n)
    ok = b'{"Version":"24.0.7","ApiVersion":"1.43","Os":"linux"}'
    starting = b'{"message":"starting"}'
    if mode == "late" and n >= 2:
        if n == 2:
            tcp.listen(8)
        reply(c, 200, ok)
    elif mode in ("late", "down") or (mode == "hang" and n == 1):
        reply(c, 503, starting)
    elif mode in ("hang", "hangall"):
        held.append(c)
        continue
    elif mode == "old":
        reply(c, 200, b'{"Version":"20.10.0","ApiVersion":"1.41","Os":"linux"}')
    else:
        reply(c, 200, ok)
    c.close()
EOF

# wait_for FILE [LINES]: up to 20 s for FILE to exist (with LINES lines)
wait_for() {
	i=0
	while [ $i -lt 400 ]; do
		if [ -z "${2:-}" ]; then
			[ -e "$1" ] && return 0
		elif [ -f "$1" ] && [ "$(wc -l <"$1")" -ge "$2" ]; then
			return 0
		fi
		sleep 0.05
		i=$((i + 1))
	done
	return 1
}

# start_gate NAME MODE: the helper for a case; sets $dir, $sock, $port, $gpid
start_gate() {
	dir=$TEST_TMPDIR/$1
	mkdir -p "$dir/repo"
	sock=$dir/docker.sock
	rm -f "$sock" "$dir/port" "$dir/log"
	python3 "$gate" "$2" "$sock" "$dir/port" "$dir/log" &
	gpid=$!
	if ! wait_for "$dir/port" || ! wait_for "$sock"; then
		not_ok "$1: the helper did not start"
		port=1
		return 1
	fi
	port=$(cat "$dir/port")
}
stop_gate() {
	kill "$gpid" 2>/dev/null
	wait "$gpid" 2>/dev/null
}

# jq-less JSON: doc EXPR FILE prints EXPR evaluated with d = the document
# and c(id) = the check of that id
doc() {
	py -c '
import json, sys
d = json.load(open(sys.argv[2]))
def c(i):
    return [x for x in d["checks"] if x["id"] == i][0]
print(eval(sys.argv[1]))' "$1" "$2"
}

# ---- a port that starts listening during the wait (on round 2) ----
if start_gate late late; then
	printf 'version: 1\nports:\n  listening: [%s]\nruntimes:\n  docker: ">=24"\n' \
		"$port" >"$dir/repo/preflight.yaml"
	EP_ENV="DOCKER_HOST=unix://$sock" ep --json --wait=20s --interval=50ms \
		"$dir/repo" >"$dir/out" 2>"$dir/err"
	st=$?
	check "late: exit 0 once the port listens (status $st)" [ "$st" = 0 ]
	check "late: the port passes" [ "$(doc 'c("ports.tcp.'$port'")["status"]' "$dir/out")" = pass ]
	check "late: the port ran more than once" \
		[ "$(doc 'c("ports.tcp.'$port'")["attempts"] > 1' "$dir/out")" = True ]
	check "late: the daemon passes on its second attempt" \
		[ "$(doc 'c("runtime.docker.preflight")["attempts"]' "$dir/out")" = 2 ]
	check "late: both are in wait.ready" \
		[ "$(doc 'sorted(r["id"] for r in d["wait"]["ready"])' "$dir/out")" = \
		  "['ports.tcp.$port', 'runtime.docker.preflight']" ]
	check "late: after_ms is a time" \
		[ "$(doc 'all(r["after_ms"] > 0 for r in d["wait"]["ready"])' "$dir/out")" = True ]
	check "late: not timed out, nothing not ready" \
		[ "$(doc '(d["wait"]["timed_out"], d["wait"]["not_ready"], d["wait"]["rounds"] > 1)' "$dir/out")" = \
		  "(False, [], True)" ]
	check "late: the options say so" \
		[ "$(doc '(d["run"]["options"]["wait_ms"], d["run"]["options"]["interval_ms"])' "$dir/out")" = \
		  "({'value': 20000, 'from': 'command line'}, {'value': 50, 'from': 'command line'})" ]
	check "late: one request per round: as many as the daemon's attempts" \
		[ "$(wc -l <"$dir/log")" = 2 ]
	check "late: nothing on stderr (not a terminal)" [ ! -s "$dir/err" ]
	check "late: --explain notes say when it became ready" \
		[ "$(doc '[n for n in c("ports.tcp.'$port'")["notes"] if n.startswith("ready after ")] != []' "$dir/out")" = True ]
	stop_gate
fi

# ---- one that never listens: the wait runs out ----
if start_gate never down; then
	printf 'version: 1\nports:\n  listening: [%s]\n' "$port" >"$dir/repo/preflight.yaml"
	ep --json --wait=1s --interval=100ms "$dir/repo" >"$dir/out"
	st=$?
	check "never: exit 1 (status $st)" [ "$st" = 1 ]
	check "never: timed out" [ "$(doc 'd["wait"]["timed_out"]' "$dir/out")" = True ]
	check "never: the port is named" \
		[ "$(doc 'd["wait"]["not_ready"]' "$dir/out")" = "['ports.tcp.$port']" ]
	check "never: nothing ready" [ "$(doc 'd["wait"]["ready"]' "$dir/out")" = "[]" ]
	check "never: still failing, nothing listening" \
		[ "$(doc 'c("ports.tcp.'$port'")["reason"]' "$dir/out")" = not-listening ]
	check "never: attempts and rounds agree" \
		[ "$(doc 'c("ports.tcp.'$port'")["attempts"] == d["wait"]["rounds"]' "$dir/out")" = True ]
	ep --wait=1s --interval=100ms "$dir/repo" >"$dir/human"
	st=$?
	check "never: human exit 1 (status $st)" [ "$st" = 1 ]
	check "never: the human report names it" \
		grep -q "^never ready within --wait ([0-9]* rounds\{0,1\}): ports.tcp.$port\$" "$dir/human"
	ep --quiet --wait=1s --interval=100ms "$dir/repo" >"$dir/quiet"
	check "never: --quiet names it too" grep -q "^never ready within --wait" "$dir/quiet"
	ep --wait=1s --interval=100ms --format=junit "$dir/repo" >"$dir/junit"
	check "never: JUnit fails the port" grep -q "<failure" "$dir/junit"
	stop_gate
fi

# ---- ready at once: one round, nothing extra ----
if start_gate once listen; then
	printf 'version: 1\nports:\n  listening: [%s]\nruntimes:\n  docker: ">=24"\n' \
		"$port" >"$dir/repo/preflight.yaml"
	EP_ENV="DOCKER_HOST=unix://$sock" ep --json --wait=20s "$dir/repo" >"$dir/out" 2>"$dir/err"
	st=$?
	check "once: exit 0 (status $st)" [ "$st" = 0 ]
	check "once: every check ran once" \
		[ "$(doc 'sorted(set(x["attempts"] for x in d["checks"]))' "$dir/out")" = "[1]" ]
	check "once: one round, no wait" \
		[ "$(doc '(d["wait"]["rounds"], d["wait"]["waited_ms"], d["wait"]["timed_out"], d["wait"]["ready"])' "$dir/out")" = \
		  "(1, 0, False, [])" ]
	check "once: the daemon was asked once" [ "$(wc -l <"$dir/log")" = 1 ]
	check "once: nothing on stderr" [ ! -s "$dir/err" ]
	EP_ENV="DOCKER_HOST=unix://$sock" ep "$dir/repo" | mask "$dir" >"$dir/plain"
	EP_ENV="DOCKER_HOST=unix://$sock" ep --wait=20s "$dir/repo" | mask "$dir" >"$dir/waited"
	check "once: the human report is the one without --wait" diff "$dir/plain" "$dir/waited"
	EP_ENV="DOCKER_HOST=unix://$sock" ep --json "$dir/repo" >"$dir/nowait"
	check "once: without --wait, wait is null and attempts 1" \
		[ "$(doc '(d["wait"], [x["attempts"] for x in d["checks"]], d["run"]["options"]["wait_ms"]["value"])' "$dir/nowait")" = \
		  "(None, [1, 1], None)" ]
	stop_gate
fi

# ---- what waiting cannot change ends the wait at once ----
# a docker daemon too old (a volatile check, a final verdict), a node too
# old (not volatile), a URL whose port is not valid (not volatile)
if start_gate final old; then
	bin=$dir/bin
	mkdir -p "$bin"
	printf '#!/bin/sh\necho v18.0.0\n' >"$bin/node"
	chmod 755 "$bin/node"
	printf 'version: 1\nruntimes:\n  docker: ">=24"\n  node: ">=20"\n' >"$dir/repo/preflight.yaml"
	printf 'DB_URL=postgres://localhost:99999/x\n' >"$dir/repo/.env"
	printf 'DB_URL=\n' >"$dir/repo/.env.example"
	EP_ENV="DOCKER_HOST=unix://$sock PATH=$bin:/usr/bin:/bin" \
		ep --json --wait=60s --interval=50ms "$dir/repo" >"$dir/out"
	st=$?
	check "final: exit 1 (status $st)" [ "$st" = 1 ]
	check "final: one round: nothing that waiting can change" \
		[ "$(doc '(d["wait"]["rounds"], d["wait"]["timed_out"], d["wait"]["not_ready"])' "$dir/out")" = \
		  "(1, False, [])" ]
	check "final: docker 20.10.0 fails once" \
		[ "$(doc '(c("runtime.docker.preflight")["reason"], c("runtime.docker.preflight")["attempts"])' "$dir/out")" = \
		  "('version-mismatch', 1)" ]
	check "final: node fails once" \
		[ "$(doc '(c("runtime.node.preflight")["status"], c("runtime.node.preflight")["attempts"])' "$dir/out")" = \
		  "('fail', 1)" ]
	check "final: the URL's port fails once" \
		[ "$(doc '(c("ports.url.DB_URL")["reason"], c("ports.url.DB_URL")["attempts"])' "$dir/out")" = \
		  "('invalid-requirement', 1)" ]
	stop_gate
fi

# ---- a hung daemon under a short deadline: each round has its own ----
if start_gate hung hangall; then
	printf 'version: 1\nruntimes:\n  docker: ">=24"\n' >"$dir/repo/preflight.yaml"
	timeout 60 env -i PATH=/usr/bin:/bin HOME="$TEST_TMPDIR/home" \
		DOCKER_HOST="unix://$sock" LC_ALL=C.UTF-8 "$EP_BIN" --json --timeout=300 \
		--wait=1s --interval=100ms "$dir/repo" >"$dir/out"
	st=$?
	[ -n "${EP_JSON_DIR:-}" ] && cp "$dir/out" "$(mktemp "$EP_JSON_DIR/$T_NAME.XXXXXX")"
	check "hung: exit 1, not held by the daemon (status $st)" [ "$st" = 1 ]
	check "hung: timed out, the daemon named" \
		[ "$(doc '(d["wait"]["timed_out"], d["wait"]["not_ready"])' "$dir/out")" = \
		  "(True, ['runtime.docker.preflight'])" ]
	check "hung: the check says no answer before the deadline" \
		[ "$(doc 'c("runtime.docker.preflight")["reason"]' "$dir/out")" = timeout ]
	check "hung: one request a round" \
		[ "$(wc -l <"$dir/log")" = "$(doc 'd["wait"]["rounds"]' "$dir/out")" ]
	stop_gate
fi

# ---- SIGTERM during a wait: every child ends, status 143 ----
# a fake node (run in the first round) leaves a child in its group and
# one that left it; then the signal comes while a later round waits on a
# daemon that never answers, or between rounds
for mode in hang down; do
	if [ -z "$SIGDFL" ]; then
		skip "SIGTERM during a wait ($mode): nothing here sets it to its default"
		continue
	fi
	start_gate "term-$mode" "$mode" || continue
	bin=$dir/bin
	mkdir -p "$bin"
	escape=
	command -v setsid >/dev/null 2>&1 && escape="setsid sleep 300.${id}2 >/dev/null 2>&1 &"
	cat >"$bin/node" <<EOF
#!/bin/sh
sleep 300.${id}1 &
$escape
echo v22.0.0
EOF
	chmod 755 "$bin/node"
	printf 'version: 1\nports:\n  listening: [%s]\nruntimes:\n  docker: ">=24"\n  node: ">=20"\n' \
		"$port" >"$dir/repo/preflight.yaml"
	# SIGTERM at its default, whatever the suite was started with
	"$SIGDFL" env -i PATH="$bin:/usr/bin:/bin" HOME="$TEST_TMPDIR/home" \
		DOCKER_HOST="unix://$sock" XDG_CACHE_HOME=/dev/null/no-cache LC_ALL=C.UTF-8 \
		"$EP_BIN" --wait=60s --interval=50ms --timeout=60000 "$dir/repo" \
		>"$dir/out" 2>&1 &
	pid=$!
	# a second request: the first round is over, the wait is on
	if wait_for "$dir/log" 2; then
		kill -TERM "$pid"
		wait "$pid"
		st=$?
		check "SIGTERM ($mode): status 143 (got $st)" [ "$st" = 143 ]
		check "SIGTERM ($mode): no report" [ ! -s "$dir/out" ]
		check "SIGTERM ($mode): no child left" \
			[ "$(survivors 300.${id}1 300.${id}2)" = 0 ]
	else
		not_ok "SIGTERM ($mode): the wait never reached a second round"
		kill -KILL "$pid" 2>/dev/null
		wait "$pid"
	fi
	stop_gate
done

# ---- a terminal gets a progress line on stderr, cleared at the end ----
if command -v script >/dev/null 2>&1 && start_gate tty down; then
	printf 'version: 1\nports:\n  listening: [%s]\n' "$port" >"$dir/repo/preflight.yaml"
	# script gives the command a terminal for stdin, stdout and stderr
	env -i PATH=/usr/bin:/bin HOME="$TEST_TMPDIR/home" LC_ALL=C.UTF-8 TERM=dumb \
		script -qec "$EP_BIN --wait=500ms --interval=100ms $dir/repo" /dev/null \
		>"$dir/tty" 2>&1
	check "tty: the progress line names the port and the time" \
		grep -q "waiting for port $port ([0-9]*\.[0-9] s)" "$dir/tty"
	check "tty: rewritten in place (a carriage return, no newline of its own)" \
		sh -c 'tr "\r" "\n" <"$1" | grep -c "^waiting for port" | grep -qv "^0$" &&
		       ! grep -q "^waiting for" "$1"' _ "$dir/tty"
	check "tty: the report follows" grep -q "never ready within --wait" "$dir/tty"
	env -i PATH=/usr/bin:/bin HOME="$TEST_TMPDIR/home" LC_ALL=C.UTF-8 TERM=dumb \
		script -qec "$EP_BIN --quiet --wait=300ms --interval=100ms $dir/repo" /dev/null \
		>"$dir/tty-quiet" 2>&1
	check "tty: --quiet has no progress line" \
		sh -c '! grep -q "waiting for" "$1"' _ "$dir/tty-quiet"
	ep --wait=300ms --interval=100ms "$dir/repo" >/dev/null 2>"$dir/err"
	check "pipe: nothing on stderr" [ ! -s "$dir/err" ]
	stop_gate
else
	skip "the terminal: no script(1)"
fi

# ---- ports alone: a listener that comes up, one that goes away ----
# No daemon to count rounds by: envpreflight runs on a terminal, and the
# progress line, written only before a pause, proves that the first round
# is over and found the port not ready.  Only then does the helper start
# listening (later) or close its listener (release).  later.py MODE
# PORTFILE TRIGGER holds a port of 127.0.0.1 bound (so that nobody else
# takes it), listening at once for release, and when TRIGGER exists
# starts listening (later) or closes it (release); it ends after 120 s.
# For release a second socket holds the port bound, never listening, from
# the start (SO_REUSEPORT on both): once the listener is closed the port
# is free, and no other process (a run of the suite beside this one) can
# listen on it before the next round looks.
later=$TEST_TMPDIR/later.py
cat >"$later" <<'EOF2'
import os, signal, socket, sys, time
mode, portfile, trigger = sys.argv[1:4]
signal.alarm(120)
signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
tcp = socket.socket()
if mode == "release":
    tcp.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
tcp.bind(("127.0.0.1", 0))
if mode == "release":
    tcp.listen(8)
    hold = socket.socket()
    hold.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    hold.bind(("127.0.0.1", tcp.getsockname()[1]))
with open(portfile + ".tmp", "w") as f:
    f.write("%d\n" % tcp.getsockname()[1])
os.rename(portfile + ".tmp", portfile)
while not os.path.exists(trigger):
    time.sleep(0.02)
if mode == "later":
    tcp.listen(8)
else:
    tcp.close()
time.sleep(120)
EOF2
for mode in later release; do
	command -v script >/dev/null 2>&1 || { skip "ports $mode: no script(1)"; continue; }
	dir=$TEST_TMPDIR/ports-$mode
	rm -rf "$dir"
	mkdir -p "$dir/repo"
	python3 "$later" "$mode" "$dir/port" "$dir/go" &
	lpid=$!
	if ! wait_for "$dir/port"; then
		not_ok "ports $mode: the helper did not start"
		kill "$lpid" 2>/dev/null
		wait "$lpid" 2>/dev/null
		continue
	fi
	port=$(cat "$dir/port")
	want=listening
	[ "$mode" = release ] && want=free
	printf 'version: 1\nports:\n  %s: [%s]\n' "$want" "$port" >"$dir/repo/preflight.yaml"
	env -i PATH=/usr/bin:/bin HOME="$TEST_TMPDIR/home" LC_ALL=C.UTF-8 TERM=dumb \
		script -qfec "$EP_BIN --json --wait=60s --interval=50ms $dir/repo >$dir/out" \
		/dev/null >"$dir/tty" 2>&1 &
	epid=$!
	i=0
	until grep -q "waiting for port $port" "$dir/tty" 2>/dev/null || [ $i -ge 400 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	touch "$dir/go"
	wait "$epid"
	st=$?
	[ -n "${EP_JSON_DIR:-}" ] && [ -s "$dir/out" ] && cp "$dir/out" "$(mktemp "$EP_JSON_DIR/$T_NAME.XXXXXX")"
	check "ports $mode: a progress line before the change" grep -q "waiting for port $port" "$dir/tty"
	check "ports $mode: exit 0 once the port is $want (status $st)" [ "$st" = 0 ]
	check "ports $mode: the port passes, after more than one attempt" \
		[ "$(doc '(c("ports.tcp.'$port'")["status"], c("ports.tcp.'$port'")["attempts"] > 1)' "$dir/out")" = \
		  "('pass', True)" ]
	check "ports $mode: in wait.ready, not timed out" \
		[ "$(doc '([r["id"] for r in d["wait"]["ready"]], d["wait"]["timed_out"], d["wait"]["not_ready"])' "$dir/out")" = \
		  "(['ports.tcp.$port'], False, [])" ]
	check "ports $mode: rounds and attempts agree" \
		[ "$(doc 'c("ports.tcp.'$port'")["attempts"] == d["wait"]["rounds"]' "$dir/out")" = True ]
	kill "$lpid" 2>/dev/null
	wait "$lpid" 2>/dev/null
done

# ---- bad values: exit 2, the accepted forms named; JSON kind usage ----
repo=$TEST_TMPDIR/usage
mkdir -p "$repo"
printf 'version: 1\nports:\n  listening: [1]\n' >"$repo/preflight.yaml"
for args in "--wait=abc" "--wait=0" "--wait=0s" "--wait=-5s" "--wait=30" \
	    "--wait=2h" "--wait=" "--wait=1s --interval=0ms" "--wait=1s --interval=2s" \
	    "--interval=100ms" "--wait=1s --interval=-1s" "--wait=1.5.5s"; do
	# shellcheck disable=SC2086
	ep $args "$repo" >"$repo.out" 2>"$repo.err"
	st=$?
	check "$args: exit 2 (status $st)" [ "$st" = 2 ]
	check "$args: a usage message" grep -q "^envpreflight: --" "$repo.err"
	case $args in
	*--interval=2s|--interval=100ms) ;;
	*) check "$args: the accepted forms" grep -q "500ms, 30s, 2m or 1m30s" "$repo.err" ;;
	esac
	check "$args: no report on stdout" [ ! -s "$repo.out" ]
	# shellcheck disable=SC2086
	ep --json $args "$repo" >"$repo.json" 2>/dev/null
	check "$args: JSON error kind usage" \
		[ "$(doc '(d["error"]["kind"], d["wait"])' "$repo.json")" = "('usage', None)" ]
done
check "--wait=30: asks for a unit" sh -c '
	"$1" --wait=30 2>&1 | grep -q "needs a unit (30ms? 30s?)"' _ "$EP_BIN"
check "--interval longer than --wait: says so" sh -c '
	"$1" --wait=1s --interval=2s 2>&1 | grep -q "interval=2s is longer than --wait=1s"' _ "$EP_BIN"
check "--wait=2h: the limit" sh -c '
	"$1" --wait=2h 2>&1 | grep -q "longer than 1h"' _ "$EP_BIN"
# the default pause is never longer than a short wait
ep --json --wait=100ms "$repo" >"$repo.json"
check "--wait=100ms: the pause is 100 ms" \
	[ "$(doc 'd["run"]["options"]["interval_ms"]' "$repo.json")" = "{'value': 100, 'from': 'default'}" ]

finish
