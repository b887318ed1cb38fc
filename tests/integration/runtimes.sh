#!/bin/sh
# runtimes.sh - the runtimes and tools probes end to end, where a golden
# file cannot say it: nothing is left running after a hung runtime, a
# binary inside the repository is never run, runtimes are asked at the
# same time, in the repository, with the forced environment; the real node
# and python3 of this machine; the docker probe against a fake daemon on
# a real unix socket.
. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
fx=$top/tests/fixtures/runtimes
nocache=XDG_CACHE_HOME=/dev/null/no-cache

# ---- a runtime that hangs and forks a grandchild ----
# The check names the program and how long it ran, whichever deadline
# ends it (the query's own, or the run's when the worker was late: the
# check published the same words before it ran it)
repo=$TEST_TMPDIR/hang
mkdir -p "$repo"
printf '{"engines": {"node": ">=20"}}\n' >"$repo/package.json"
hang=$(marked "$fx/hang")
t0=$(date +%s)
out=$(EP_ENV="PATH=$hang:/usr/bin:/bin $nocache" ep --timeout=700 "$repo")
st=$?
t1=$(date +%s)
check "hung runtime: exit 1 (got $st)" [ "$st" = 1 ]
check "hung runtime: an error naming it: $out" \
	sh -c 'printf "%s\n" "$1" | grep -q "hang/node --version'"'"' did not answer within [0-9]* ms and was killed"' _ "$out"
# a generous bound: it is there to catch a run held by its child
check "hung runtime: the audit kept its deadline ($((t1 - t0)) s)" [ $((t1 - t0)) -le 10 ]
check "hung runtime: its child and grandchild were killed" [ "$(survivors 41.${T_MARK}1 41.${T_MARK}2)" = 0 ]
out=$(EP_ENV="PATH=$hang:/usr/bin:/bin $nocache" ep --json --timeout=700 "$repo")
check "hung runtime: JSON keeps the data" \
	sh -c 'printf "%s\n" "$1" | grep -q "\"command\": \".*hang/node --version\""' _ "$out"
check "hung runtime: JSON says how long it ran" \
	sh -c 'printf "%s\n" "$1" | grep -q "\"timed_out_ms\": [0-9]"' _ "$out"
check "hung runtime: killed again" [ "$(survivors 41.${T_MARK}1 41.${T_MARK}2)" = 0 ]

# ---- a node inside the audited repository is never run ----
repo=$TEST_TMPDIR/inside
mkdir -p "$repo/bin" "$repo/node_modules/.bin"
for d in bin node_modules/.bin; do
	printf '#!/bin/sh\ntouch "%s/EXECUTED"\necho v22.0.0\n' "$repo" >"$repo/$d/node"
	chmod 755 "$repo/$d/node"
done
ln -s "$repo/bin" "$TEST_TMPDIR/innocent"
printf '{"engines": {"node": ">=20"}}\n' >"$repo/package.json"
printf 'version: 1\ntools: [node]\n' >"$repo/preflight.yaml"
out=$(cd "$repo" && EP_ENV="PATH=$repo/bin:$TEST_TMPDIR/innocent:./node_modules/.bin::bin:$fx/none $nocache" ep)
check "inside: exit 1" [ $? = 1 ]
check "inside: never executed" [ ! -e "$repo/EXECUTED" ]
check "inside: the message says why" \
	sh -c 'printf "%s\n" "$1" | grep -q "bin/node'"'"' skipped: inside the audited repository"' _ "$out"
check "inside: relative entries named" \
	sh -c 'printf "%s\n" "$1" | grep -q "'"'"'./node_modules/.bin/node'"'"' skipped: relative PATH entry"' _ "$out"

# ---- a grandchild that leaves the process group is killed too ----
repo=$TEST_TMPDIR/escape
mkdir -p "$repo"
printf '{"engines": {"node": ">=20"}}\n' >"$repo/package.json"
out=$(EP_ENV="PATH=$(marked "$fx/escape"):/usr/bin:/bin $nocache" ep "$repo")
check "escapee: the check passes (exit $?): $out" \
	sh -c 'printf "%s\n" "$1" | grep -q "v22.11.0 (satisfies"' _ "$out"
if command -v setsid >/dev/null && [ "$(survivors 41.${T_MARK}3)" != 0 ]; then
	not_ok "escapee: the setsid grandchild survived envpreflight"
else
	ok
fi
# ... and one left by a runtime that hangs until the deadline
bin=$TEST_TMPDIR/escapebin
mkdir -p "$bin"
printf '#!/bin/sh\nsetsid sleep 41.%s4 >/dev/null 2>&1 &\nexec sleep 41.%s5\n' \
	"$T_MARK" "$T_MARK" >"$bin/node"
chmod 755 "$bin/node"
t0=$(date +%s)
out=$(EP_ENV="PATH=$bin:/usr/bin:/bin $nocache" ep --timeout=500 "$repo")
t1=$(date +%s)
check "escapee at the deadline: the audit kept it ($((t1 - t0)) s)" [ $((t1 - t0)) -le 10 ]
check "escapee at the deadline: nothing survived" [ "$(survivors 41.${T_MARK}4 41.${T_MARK}5)" = 0 ]

# ---- code the repository ships never runs: yarnPath, command ----
repo=$TEST_TMPDIR/yarnpath
mkdir -p "$repo/.yarn/releases"
printf '{"engines": {"yarn": ">=4"}}\n' >"$repo/package.json"
printf 'yarnPath: .yarn/releases/yarn-4.1.0.cjs\n' >"$repo/.yarnrc.yml"
printf 'touch "%s/EXECUTED"\necho 4.1.0\n' "$repo" >"$repo/.yarn/releases/yarn-4.1.0.cjs"
out=$(EP_ENV="PATH=$fx/yarn:/usr/bin:/bin $nocache" ep --explain "$repo")
st=$?
check "yarnPath: passes by the file name (exit $st): $out" \
	sh -c 'printf "%s\n" "$1" | grep -q "Yarn (package.json engines): 4.1.0 (satisfies >=4"' _ "$out"
check "yarnPath: the note says why" \
	sh -c 'printf "%s\n" "$1" | grep -q "running yarn would execute that file"' _ "$out"
check "yarnPath: the repository's yarn never ran" [ ! -e "$repo/EXECUTED" ]
mv "$repo/.yarn/releases/yarn-4.1.0.cjs" "$repo/.yarn/releases/mine.cjs"
printf 'yarnPath: .yarn/releases/mine.cjs\n' >"$repo/.yarnrc.yml"
out=$(EP_ENV="PATH=$fx/yarn:/usr/bin:/bin $nocache" ep --json "$repo")
check "yarnPath without a version: a warning, exit 0 ($?)" \
	sh -c 'printf "%s\n" "$1" | grep -q "\"status\": *\"warn\""' _ "$out"
check "yarnPath without a version: never ran" [ ! -e "$repo/EXECUTED" ]
repo=$TEST_TMPDIR/command
mkdir -p "$repo"
printf 'version: 1\nruntimes:\n  mytool:\n    version: ">=1"\n    command: [sh, -c, "touch %s/EXECUTED; echo 1.0.0"]\n' \
	"$repo" >"$repo/preflight.yaml"
out=$(EP_ENV="$nocache" ep "$repo")
check "command: a shell line is refused (exit $?): $out" \
	sh -c 'printf "%s\n" "$1" | grep -q "is not a version query envpreflight runs"' _ "$out"
check "command: the shell never ran" [ ! -e "$repo/EXECUTED" ]

# ---- every runtime at once, in the repository, with the forced env ----
# Each fake runtime marks that it started, then waits until all four
# have: run one after another, the first would wait in vain (up to 10 s,
# well inside the 30 s deadline) and fail its check.  No clock involved.
bin=$TEST_TMPDIR/slowbin
repo=$TEST_TMPDIR/slow
meet=$TEST_TMPDIR/meet
mkdir -p "$bin" "$repo" "$meet"
rendezvous="touch \"$meet/\$(basename \"\$0\")\"
i=0
while [ \$(ls \"$meet\" | wc -l) -lt 4 ] && [ \$i -lt 200 ]; do sleep 0.05; i=\$((i + 1)); done
[ \$i -lt 200 ] || exit 9"
for r in node:v22.1.0 python3:"Python 3.12.1" ruby:"ruby 3.3.0"; do
	name=${r%%:*}
	printf '#!/bin/sh\n%s\necho "%s"\n' "$rendezvous" "${r#*:}" >"$bin/$name"
	chmod 755 "$bin/$name"
done
# go answers only in the repository, with GOTOOLCHAIN=local and corepack
# kept offline, and with no secret of ours in its environment
cat >"$bin/go" <<EOF
#!/bin/sh
$rendezvous
[ "\$PWD" = "$repo" ] || { echo "go version go1.0.0 wrong-cwd"; exit 0; }
[ "\$GOTOOLCHAIN" = local ] || { echo "go version go1.0.0 toolchain-\$GOTOOLCHAIN"; exit 0; }
[ "\$COREPACK_ENABLE_NETWORK" = 0 ] || { echo "go version go1.0.0 corepack"; exit 0; }
[ "\$COREPACK_ENABLE_AUTO_PIN" = 0 ] || { echo "go version go1.0.0 autopin"; exit 0; }
[ -z "\${AWS_SECRET_ACCESS_KEY:-}" ] || { echo "go version go1.0.0 secret"; exit 0; }
echo "go version go1.22.3 linux/amd64"
EOF
chmod 755 "$bin/go"
printf 'version: 1\nruntimes:\n  node: ">=22"\n  python: ">=3.12"\n  ruby: ">=3"\n  go: ">=1.22"\n' \
	>"$repo/preflight.yaml"
out=$(EP_ENV="PATH=$bin:/usr/bin:/bin $nocache GOTOOLCHAIN=auto COREPACK_ENABLE_NETWORK=1 AWS_SECRET_ACCESS_KEY=hunter2" \
	ep --timeout=30000 "$repo")
st=$?
check "concurrent: all four ran at once and pass (exit $st): $out" [ "$st" = 0 ]
check "forced env and cwd: go saw them: $out" \
	sh -c 'printf "%s\n" "$1" | grep -q "go1.22.3 (satisfies"' _ "$out"

# ---- the real node and python3 of this machine ----
node=$(command -v node 2>/dev/null)
if [ -n "$node" ] && want=$("$node" --version 2>/dev/null) && [ -n "$want" ]; then
	repo=$TEST_TMPDIR/realnode
	mkdir -p "$repo"
	major=${want#v}
	major=${major%%.*}
	printf '{"engines": {"node": ">=%s <%s"}}\n' "$major" $((major + 1)) >"$repo/package.json"
	printf '%s\n' "$major" >"$repo/.nvmrc"
	out=$(EP_ENV="PATH=$(dirname "$node"):/usr/bin:/bin" ep --only=runtimes "$repo")
	check "real node $want: both requirements pass (exit $?): $out" \
		sh -c 'printf "%s\n" "$1" | grep -c "✔ Node.js.*: $2 " | grep -qx 2' _ "$out" "$want"
	printf '{"engines": {"node": "<%s"}}\n' "$major" >"$repo/package.json"
	rm -f "$repo/.nvmrc"
	out=$(EP_ENV="PATH=$(dirname "$node"):/usr/bin:/bin" ep --only=runtimes "$repo")
	check "real node $want: <$major fails" [ $? = 1 ]
else
	skip "the real-node checks: no node on this machine"
fi
py=$(command -v python3 2>/dev/null)
if [ -n "$py" ]; then
	repo=$TEST_TMPDIR/realpython
	mkdir -p "$repo"
	penv="PATH=$(dirname "$py"):/usr/bin:/bin"
	[ -n "${PYENV_ROOT:-}" ] && penv="$penv PYENV_ROOT=$PYENV_ROOT"
	# what python3 says in the repository, with the environment we give it
	want=$(cd "$repo" && env -i $penv HOME="$TEST_TMPDIR/home" python3 --version 2>&1 |
		sed -n 's/^Python \([0-9][0-9.]*\).*/\1/p')
fi
if [ -n "$py" ] && [ -n "$want" ]; then
	minor=$(printf '%s' "$want" | cut -d. -f1-2)
	printf '[project]\nrequires-python = "==%s.*"\n' "$minor" >"$repo/pyproject.toml"
	out=$(EP_ENV="$penv" ep --only=runtimes "$repo")
	check "real python $want: ==$minor.* passes (exit $?): $out" \
		sh -c 'printf "%s\n" "$1" | grep -q "✔ Python (pyproject.toml): $2 "' _ "$out" "$want"
	printf '[project]\nrequires-python = "<%s"\n' "$minor" >"$repo/pyproject.toml"
	out=$(EP_ENV="$penv" ep --only=runtimes "$repo")
	check "real python $want: <$minor fails" [ $? = 1 ]
else
	skip "the real-python checks: no working python3 on this machine"
fi

# ---- docker: a fake daemon on a real unix socket ----
sock=$TEST_TMPDIR/docker.sock
repo=$TEST_TMPDIR/docker
mkdir -p "$repo"
printf 'version: 1\nruntimes:\n  docker: ">=24"\n' >"$repo/preflight.yaml"
server=
if [ -n "$py" ] && python3 -c 'import socket' 2>/dev/null; then
	python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1])
s.listen(8)
s.settimeout(20)
body = b"{\"Version\":\"24.0.7\",\"ApiVersion\":\"1.43\",\"Os\":\"linux\"}"
while True:
    c, _ = s.accept()
    c.settimeout(5)
    c.recv(4096)
    c.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
              b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
    c.close()
' "$sock" &
	server=$!
elif [ -n "$node" ]; then
	"$node" -e '
const body = JSON.stringify({Version: "24.0.7", ApiVersion: "1.43"});
const srv = require("net").createServer(c => c.once("data", () =>
  c.end("HTTP/1.1 200 OK\r\nContent-Length: " + body.length + "\r\n\r\n" + body)));
srv.listen(process.argv[1]);
setTimeout(() => process.exit(0), 20000);
' "$sock" &
	server=$!
fi
if [ -n "$server" ]; then
	i=0
	while [ ! -S "$sock" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
	out=$(EP_ENV="DOCKER_HOST=unix://$sock" ep "$repo")
	check "docker running 24.0.7 >=24 (exit $?): $out" \
		sh -c 'printf "%s\n" "$1" | grep -q "✔ Docker daemon (preflight.yaml): 24.0.7 (satisfies >=24"' _ "$out"
	out=$(EP_ENV="DOCKER_HOST=unix://$sock" ep --json "$repo")
	check "docker: method socket in JSON" \
		sh -c 'printf "%s\n" "$1" | grep -q "\"method\": *\"socket\""' _ "$out"
	printf 'version: 1\nruntimes:\n  docker: ">=25"\n' >"$repo/preflight.yaml"
	out=$(EP_ENV="DOCKER_HOST=unix://$sock" ep "$repo")
	check "docker 24.0.7 against >=25 fails (exit $?)" \
		sh -c 'printf "%s\n" "$1" | grep -q "24.0.7 does not satisfy >=25"' _ "$out"
	kill "$server" 2>/dev/null
	wait "$server" 2>/dev/null
	printf 'version: 1\nruntimes:\n  docker: ">=24"\n' >"$repo/preflight.yaml"
	# the server is gone, its socket file stays: the daemon is down
	if [ -S "$sock" ]; then
		out=$(EP_ENV="DOCKER_HOST=unix://$sock" ep "$repo")
		check "docker down: $out" \
			sh -c 'printf "%s\n" "$1" | grep -q "daemon not running"' _ "$out"
	fi
else
	skip "the fake docker daemon: neither python3 nor node"
fi
rm -f "$sock"
# no socket: "not installed" only when no docker CLI is on PATH either
# (the fake CLI would leave a mark if it were ever run)
mkdir -p "$TEST_TMPDIR/nodocker" "$TEST_TMPDIR/dockercli"
printf '#!/bin/sh\ntouch "%s/CLI-RAN"\n' "$TEST_TMPDIR" >"$TEST_TMPDIR/dockercli/docker"
chmod +x "$TEST_TMPDIR/dockercli/docker"
out=$(EP_ENV="DOCKER_HOST=unix://$sock PATH=$TEST_TMPDIR/nodocker" ep "$repo")
check "docker not installed (exit $?): $out" \
	sh -c 'printf "%s\n" "$1" | grep -q "not installed: no socket at .* and no docker on PATH"' _ "$out"
out=$(EP_ENV="DOCKER_HOST=unix://$sock PATH=$TEST_TMPDIR/dockercli" ep "$repo")
check "docker CLI but no socket (exit $?): $out" \
	sh -c 'printf "%s\n" "$1" | grep -q "no Docker daemon socket at $2 (the docker CLI is at"' _ "$out" "$sock"
check "docker CLI but no socket: DOCKER_HOST in the hint" \
	sh -c 'printf "%s\n" "$1" | grep -q "hint: .*DOCKER_HOST"' _ "$out"
check "the docker CLI never ran" [ ! -e "$TEST_TMPDIR/CLI-RAN" ]
out=$(EP_ENV="DOCKER_HOST=tcp://127.0.0.1:2375" ep "$repo")
check "docker over tcp: not checked, a warning (exit $?)" \
	sh -c 'printf "%s\n" "$1" | grep -q "⚠ Docker daemon (preflight.yaml): not checked"' _ "$out"
locked=$TEST_TMPDIR/locked.sock
if [ "$(id -u)" != 0 ] && [ -n "$py" ] &&
   python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$locked" &&
   chmod 000 "$locked"; then
	out=$(EP_ENV="DOCKER_HOST=unix://$locked" ep "$repo")
	check "docker permission denied: $out" \
		sh -c 'printf "%s\n" "$1" | grep -q "permission denied on"' _ "$out"
else
	skip "the permission-denied socket: root may open any socket"
fi

# ---- a verdict survives its own fix (issue 16) ----
# Every failing runtime check of one runtime gets the same fix, and
# running it (a fake volta, a fake npm, each installing what it is asked
# for) clears them all: node 18 with engines >=20 <23 and .nvmrc lts/iron
# gets volta install node@20, not 22 for one check and 20 for the other;
# a pnpm pin on a node 25 gets npm install -g pnpm@9.1.0, not a corepack
# that node 25 lacks.
repo=$TEST_TMPDIR/survive
bin=$TEST_TMPDIR/survive-bin
mkdir -p "$repo" "$bin" "$TEST_TMPDIR/volta"
printf '{"engines": {"node": ">=20 <23"}, "packageManager": "pnpm@9.1.0"}\n' >"$repo/package.json"
printf 'lts/iron\n' >"$repo/.nvmrc"
printf '#!/bin/sh\necho v18.19.0\n' >"$bin/node"
printf '#!/bin/sh\necho 8.15.4\n' >"$bin/pnpm"
# volta install node@V: a node of the newest release of that line
cat >"$bin/volta" <<EOF2
#!/bin/sh
v=\${2#node@}
case \$v in *.*.*) ;; *.*) v=\$v.9 ;; *) v=\$v.19.0 ;; esac
printf '#!/bin/sh\necho v%s\n' "\$v" >"$bin/node"
EOF2
# npm install -g NAME@V: that tool at that version
cat >"$bin/npm" <<EOF2
#!/bin/sh
[ "\$1" = --version ] && { echo 11.6.2; exit 0; }
p=\${3%%@*}; v=\${3#*@}
printf '#!/bin/sh\necho %s\n' "\$v" >"$bin/\$p"
EOF2
chmod 755 "$bin"/*
env_survive="PATH=$bin:/usr/bin:/bin VOLTA_HOME=$TEST_TMPDIR/volta $nocache"
# fixes: "ID<TAB>argv" for every failing check of runtime $1
fixes() {
	py -c '
import json, sys
for c in json.load(open(sys.argv[1]))["checks"]:
    d = c["data"] or {}
    if c["status"] in ("fail", "warn") and d.get("runtime") == sys.argv[2]:
        f = c["fix"] or {}
        print(c["id"] + "\t" + " ".join(f.get("argv") or ["(none)"]))
' "$TEST_TMPDIR/survive.json" "$1"
}
(cd "$repo" && EP_ENV="$env_survive" ep --json --only=runtimes) >"$TEST_TMPDIR/survive.json"
node_fixes=$(fixes node | cut -f2 | sort -u)
check "survive: both node checks fail with one fix: $(fixes node | tr '\n\t' '; ')" \
	[ "$(fixes node | wc -l | tr -d ' '):$node_fixes" = "2:volta install node@20" ]
pnpm_fix=$(fixes pnpm | cut -f2)
check "survive: the pnpm pin's fix needs no corepack: $pnpm_fix" \
	[ "$pnpm_fix" = "npm install -g pnpm@9.1.0" ]
(cd "$repo" && PATH=$bin:/usr/bin:/bin $node_fixes && PATH=$bin:/usr/bin:/bin $pnpm_fix)
out=$(cd "$repo" && EP_ENV="$env_survive" ep --only=runtimes --strict)
check "survive: after the fixes every runtime check passes (exit $?): $out" \
	sh -c 'printf "%s\n" "$1" | grep -q "all 3 checks ok"' _ "$out"

# ---- go and rustc pick their version per project (go.mod's toolchain
# line, rust-toolchain.toml, GOTOOLCHAIN, ...): cached per context, so a
# warm audit runs neither, and a change to what picks the version asks
# again.  The toolchain is tests/fixtures/toolchain/fakever.c (an ELF:
# the cache keeps no script's answer), which counts its runs.
tc=$TEST_TMPDIR/toolchain
mkdir -p "$tc/go" "$tc/rust"
if ! command -v cc >/dev/null 2>&1 ||
	! cc -std=c11 -O2 -o "$tc/go/go" "$top/tests/fixtures/toolchain/fakever.c" 2>"$tc/cc.err"; then
	skip "go and rustc per context: no C compiler here ($(head -c 200 "$tc/cc.err" 2>/dev/null))"
else
	cp "$tc/go/go" "$tc/rust/rustc"
	repo=$TEST_TMPDIR/selrepo
	mkdir -p "$repo"
	printf 'module example.com/x\n\ngo 1.21\n\ntoolchain go1.22.1\n' >"$repo/go.mod"
	printf '[toolchain]\nchannel = "1.76.0"\n' >"$repo/rust-toolchain.toml"
	# rustc is asked for preflight.yaml's requirement (rust-toolchain.toml
	# is not a requirement source yet), in the directory it reads
	printf 'version: 1\nruntimes:\n  rust: ">=1.70"\n' >"$repo/preflight.yaml"
	selenv="PATH=$tc/go:$tc/rust:/usr/bin:/bin XDG_CACHE_HOME=$TEST_TMPDIR/selcache"
	runs() { wc -l <"$tc/$1/runs" 2>/dev/null | tr -d ' ' || echo 0; }
	# sel ARGS: the go and rust checks' "found method" as one line
	sel() {
		EP_ENV="$selenv ${SELX:-}" ep --json --only=runtimes "$@" "$repo" | py -c '
import json, sys
d = {c["data"]["runtime"]: c["data"] for c in json.load(sys.stdin)["checks"]}
print(" ".join("%s=%s/%s" % (k, d[k]["found"], d[k]["method"]) for k in ("go", "rust")))'
	}
	out=$(sel)
	check "cold: both run ($out; runs $(runs go) $(runs rust))" \
		[ "$out $(runs go) $(runs rust)" = "go=1.22.1/exec rust=1.76.0/exec 1 1" ]
	out=$(sel)
	check "warm: neither runs ($out; runs $(runs go) $(runs rust))" \
		[ "$out $(runs go) $(runs rust)" = "go=1.22.1/cache rust=1.76.0/cache 1 1" ]
	printf 'module example.com/x\n\ngo 1.21\n\ntoolchain go1.22.5\n' >"$repo/go.mod"
	out=$(sel)
	check "go.mod's toolchain changed: go asked again, rustc not ($out; runs $(runs go) $(runs rust))" \
		[ "$out $(runs go) $(runs rust)" = "go=1.22.5/exec rust=1.76.0/cache 2 1" ]
	printf '[toolchain]\nchannel = "1.77.2"\n' >"$repo/rust-toolchain.toml"
	out=$(sel)
	check "rust-toolchain.toml changed: rustc asked again ($out; runs $(runs go) $(runs rust))" \
		[ "$out $(runs go) $(runs rust)" = "go=1.22.5/cache rust=1.77.2/exec 2 2" ]
	# the child always gets GOTOOLCHAIN=local (a version query never
	# downloads a toolchain): the user's own does not reach it
	out=$(SELX=GOTOOLCHAIN=go1.30.0 sel)
	check "the user's GOTOOLCHAIN does not reach go: still cached ($out; runs $(runs go))" \
		[ "$out $(runs go)" = "go=1.22.5/cache rust=1.77.2/cache 2" ]
	mkdir -p "$repo/sub"
	printf 'module example.com/x/sub\n\ngo 1.21\n' >"$repo/sub/go.mod"
	rm "$repo/preflight.yaml"
	out=$(EP_ENV="$selenv" ep --json --only=runtimes "$repo/sub" | py -c '
import json, sys
print([c["data"]["method"] for c in json.load(sys.stdin)["checks"]
       if c["data"]["runtime"] == "go"])')
	check "another module's directory is another context ($out; runs $(runs go))" \
		[ "$out $(runs go)" = "['exec'] 3" ]
fi

# ---- a pnpm the repository pins (packageManager) is run, not read from
# its manifest (pnpm may switch itself to the pin): cached per context
# too, the script with the node that runs it.  The real pnpm of the test
# setup (tests/managers, from the npm registry).
pn=$top/tests/managers/node_modules/.bin
if [ ! -x "$pn/pnpm" ] || ! command -v node >/dev/null 2>&1; then
	skip "pinned pnpm per context: tests/managers has no pnpm (make deps installs it; offline it cannot)"
else
	repo=$TEST_TMPDIR/pinrepo
	mkdir -p "$repo"
	pv=$(cd "$repo" && env -i PATH="$pn:/usr/bin:/bin" HOME="$TEST_TMPDIR/home" pnpm --version 2>/dev/null)
	printf '{"name": "pin", "packageManager": "pnpm@%s"}\n' "$pv" >"$repo/package.json"
	pinenv="PATH=$pn:/usr/bin:/bin XDG_CACHE_HOME=$TEST_TMPDIR/pincache"
	pin() {
		EP_ENV="$pinenv" ep --json --only=runtimes --timeout=60000 "$repo" | py -c '
import json, sys
print(" ".join("%s/%s" % (c["data"]["found"], c["data"]["method"])
               for c in json.load(sys.stdin)["checks"] if c["data"]["runtime"] == "pnpm"))'
	}
	out=$(pin)
	check "pinned pnpm, cold: run ($out)" [ "$out" = "$pv/exec" ]
	out=$(pin)
	check "pinned pnpm, warm: cached ($out)" [ "$out" = "$pv/cache" ]
	printf 'manage-package-manager-versions=true\n' >"$repo/.npmrc"
	out=$(pin)
	check "an .npmrc appears: run again ($out)" [ "$out" = "$pv/exec" ]
	out=$(pin)
	check "... then cached again ($out)" [ "$out" = "$pv/cache" ]
fi

# ---- .dvmrc as setup-deno reads it (parseVersionRange): a channel or a
# canary's commit is any version, =, * and x parts are semver ranges
dn=$TEST_TMPDIR/dvmrc
mkdir -p "$dn"
for c in "canary|names no version to compare" "lts|names no version to compare" \
	"3f0e1c2d3f0e1c2d3f0e1c2d3f0e1c2d3f0e1c2d|names no version to compare" \
	"=2.1.4|satisfies =2.1.4" "v2.x|satisfies 2.x" "v2.1.4|matches 2.1.4"; do
	printf '%s\n' "${c%%|*}" >"$dn/.dvmrc"
	out=$(EP_ENV="PATH=$fx/toolfiles $nocache" ep --only=runtimes "$dn")
	check ".dvmrc '${c%%|*}': ${c#*|} ($out)" \
		sh -c 'printf "%s\n" "$2" | grep -qF -- "$1"' - "${c#*|}" "$out"
done

# ---- a version manager's shim runs what the manager picks for the
# directory: cached in a context of all the manager reads to pick it
# (runtime_select.c), so that a warm audit runs no shim and a change to
# any of it asks again.  rbenv is Debian's, with the shims its rehash
# writes; mise's shims are links to mise (fakever, called node); asdf's
# exec `asdf exec` (asdf is not packaged for Debian: a stand-in that
# reads .tool-versions as asdf does for one plugin).
# found ENV REPO RUNTIME: "found/method" of the runtime's check
found() {
	EP_ENV="$1" ep --json --only=runtimes --timeout=60000 "$2" | py -c '
import json, sys
print(" ".join("%s/%s" % (c["data"]["found"], c["data"]["method"])
               for c in json.load(sys.stdin)["checks"]
               if c["data"]["runtime"] == sys.argv[1]))' "$3"
}
count() { wc -l <"$1" 2>/dev/null | tr -d ' ' || echo 0; }
# found_is DESC ENV REPO RUNTIME RUNS WANT: one audit; WANT is its
# "found/method" and the count of the runs file RUNS after it
found_is() {
	out=$(found "$2" "$3" "$4")
	check "$1 ($out, runs $(count "$5"))" [ "$out $(count "$5")" = "$6" ]
}
# never_cached OUT VERSION BEFORE AFTER: two audits, each ran the shim
# (the twin of make check runs each audit twice: at least two runs more)
never_cached() {
	[ "$1" = "$2/exec$2/exec" ] && [ $(($4 - $3)) -ge 2 ]
}
if ! command -v rbenv >/dev/null 2>&1; then
	skip "rbenv's shims: no rbenv here (Debian's rbenv: make deps installs it)"
else
	rb=$TEST_TMPDIR/rbenv
	mkdir -p "$rb/repo" "$rb/home"
	# fake_ruby V PRINTS: an installed version that counts its runs
	fake_ruby() {
		mkdir -p "$rb/root/versions/$1/bin"
		printf '#!/bin/sh\necho run >>"%s/runs"\necho "ruby %sp100 (2023-03-30 revision 957bb7cb81) [x86_64-linux]"\n' \
			"$rb" "$2" >"$rb/root/versions/$1/bin/ruby"
		chmod +x "$rb/root/versions/$1/bin/ruby"
	}
	fake_ruby 3.1.4 3.1.4
	fake_ruby 3.2.2 3.2.2
	RBENV_ROOT=$rb/root rbenv rehash
	printf '3.1.4\n' >"$rb/repo/.ruby-version"
	rbenv_env="HOME=$rb/home PATH=$rb/root/shims:/usr/bin:/bin RBENV_ROOT=$rb/root XDG_CACHE_HOME=$rb/cache"
	found_is "rbenv's shim, cold: run" "$rbenv_env" "$rb/repo" ruby "$rb/runs" "3.1.4/exec 1"
	found_is "rbenv's shim, warm: cached" "$rbenv_env" "$rb/repo" ruby "$rb/runs" "3.1.4/cache 1"
	printf '3.2.2\n' >"$rb/repo/.ruby-version"
	found_is ".ruby-version changed: rbenv's shim run again" "$rbenv_env" "$rb/repo" ruby "$rb/runs" "3.2.2/exec 2"
	found_is "RBENV_VERSION: run" "$rbenv_env RBENV_VERSION=3.1.4" "$rb/repo" ruby "$rb/runs" "3.1.4/exec 3"
	# reinstalled over its prefix (rbenv install --force): bin/ruby is new
	fake_ruby 3.2.2 3.2.3
	found_is "a version reinstalled in place: run again" "$rbenv_env" "$rb/repo" ruby "$rb/runs" "3.2.3/exec 4"
	mkdir -p "$rb/root/rbenv.d/exec"
	printf 'true\n' >"$rb/root/rbenv.d/exec/hook.bash"
	found_is "a hook added: run again" "$rbenv_env" "$rb/repo" ruby "$rb/runs" "3.2.3/exec 5"
	# a hook that picks the version may read anything: never cached
	mkdir -p "$rb/root/rbenv.d/version-name"
	printf 'true\n' >"$rb/root/rbenv.d/version-name/pick.bash"
	n0=$(count "$rb/runs")
	out=$(found "$rbenv_env" "$rb/repo" ruby)$(found "$rbenv_env" "$rb/repo" ruby)
	check "a version-name hook: never cached ($out, runs $n0 then $(count "$rb/runs"))" \
		never_cached "$out" 3.2.3 "$n0" "$(count "$rb/runs")"
fi
if [ ! -x "$tc/go/go" ]; then
	skip "mise's shims: no C compiler here for fakever"
else
	ms=$TEST_TMPDIR/mise-shim
	mkdir -p "$ms/bin" "$ms/shims" "$ms/repo" "$ms/home"
	cp "$tc/go/go" "$ms/bin/mise"
	ln -s ../bin/mise "$ms/shims/node"
	printf 'nodejs 20.11.1\n' >"$ms/repo/.tool-versions"
	mise_env="HOME=$ms/home PATH=$ms/shims:/usr/bin:/bin XDG_CACHE_HOME=$ms/cache"
	found_is "mise's shim, cold: run" "$mise_env" "$ms/repo" node "$ms/shims/runs" "20.11.1/exec 1"
	found_is "mise's shim, warm: cached" "$mise_env" "$ms/repo" node "$ms/shims/runs" "20.11.1/cache 1"
	printf 'nodejs 20.12.2\n' >"$ms/repo/.tool-versions"
	found_is ".tool-versions changed: mise's shim run again" "$mise_env" "$ms/repo" node "$ms/shims/runs" "20.12.2/exec 2"
	mkdir -p "$ms/home/.local/share/mise/installs/node"
	found_is "a tool installed: run again" "$mise_env" "$ms/repo" node "$ms/shims/runs" "20.12.2/exec 3"
	n0=$(count "$ms/shims/runs")
	out=$(found "$mise_env MISE_ENV=ci" "$ms/repo" node)$(found "$mise_env MISE_ENV=ci" "$ms/repo" node)
	check "with a profile (MISE_ENV) mise reads files named after it: never cached ($out, runs $n0 then $(count "$ms/shims/runs"))" \
		never_cached "$out" 20.12.2 "$n0" "$(count "$ms/shims/runs")"
	# volta's shims are links to volta-shim, which reads package.json's
	# "volta" key (the stand-in answers its default)
	vt=$TEST_TMPDIR/volta-shim
	mkdir -p "$vt/home/.volta/bin" "$vt/repo"
	cp "$tc/go/go" "$vt/home/.volta/bin/volta-shim"
	ln -s volta-shim "$vt/home/.volta/bin/node"
	printf '{"name": "v", "volta": {"node": "18.19.0"}}\n' >"$vt/repo/package.json"
	volta_env="HOME=$vt/home PATH=$vt/home/.volta/bin:/usr/bin:/bin XDG_CACHE_HOME=$vt/cache"
	vruns=$vt/home/.volta/bin/runs
	out=$(found "$volta_env" "$vt/repo" node)$(found "$volta_env" "$vt/repo" node)
	check "volta's shim: run cold, cached warm ($out, runs $(count "$vruns"))" \
		[ "$out $(count "$vruns")" = "18.19.0/exec18.19.0/cache 1" ]
	printf '{"name": "v", "volta": {"node": "18.19.0", "npm": "10.2.4"}}\n' >"$vt/repo/package.json"
	found_is "package.json changed: volta's shim run again" "$volta_env" "$vt/repo" node "$vruns" "18.19.0/exec 2"
	printf '{"name": "v", "engines": {"node": ">=18"}, "volta": {"extends": "../base.json"}}\n' >"$vt/repo/package.json"
	n0=$(count "$vruns")
	out=$(found "$volta_env" "$vt/repo" node)$(found "$volta_env" "$vt/repo" node)
	check "a volta \"extends\" (a file no context lists): never cached ($out, runs $n0 then $(count "$vruns"))" \
		never_cached "$out" 18.19.0 "$n0" "$(count "$vruns")"
fi
as=$TEST_TMPDIR/asdf
mkdir -p "$as/bin" "$as/data/shims" "$as/repo" "$as/home"
for v in 20.11.1 22.1.0; do
	mkdir -p "$as/data/installs/nodejs/$v/bin"
	printf '#!/bin/sh\necho run >>"%s/runs"\necho v%s\n' "$as" "$v" >"$as/data/installs/nodejs/$v/bin/node"
	chmod +x "$as/data/installs/nodejs/$v/bin/node"
done
printf '#!/bin/sh\nshift\ncmd=$1\nshift\nv=$(sed -n "s/^nodejs //p" .tool-versions)\nexec "$ASDF_DATA_DIR/installs/nodejs/$v/bin/$cmd" "$@"\n' >"$as/bin/asdf"
printf '#!/usr/bin/env bash\n# asdf-plugin: nodejs 20.11.1\n# asdf-plugin: nodejs 22.1.0\nexec %s/bin/asdf exec "node" "$@" # asdf_allow: '"' asdf '"'\n' "$as" >"$as/data/shims/node"
chmod +x "$as/bin/asdf" "$as/data/shims/node"
printf 'nodejs 20.11.1\n' >"$as/repo/.tool-versions"
asdf_env="HOME=$as/home PATH=$as/data/shims:/usr/bin:/bin ASDF_DATA_DIR=$as/data XDG_CACHE_HOME=$as/cache"
out=$(found "$asdf_env" "$as/repo" node)$(found "$asdf_env" "$as/repo" node)
check "asdf's shim: run cold, cached warm ($out, runs $(count "$as/runs"))" \
	[ "$out $(count "$as/runs")" = "20.11.1/exec20.11.1/cache 1" ]
printf 'nodejs 22.1.0\n' >"$as/repo/.tool-versions"
found_is ".tool-versions changed: asdf's shim run again" "$asdf_env" "$as/repo" node "$as/runs" "22.1.0/exec 2"
found_is "ASDF_NODEJS_VERSION set: a new context" "$asdf_env ASDF_NODEJS_VERSION=20.11.1" "$as/repo" node "$as/runs" "22.1.0/exec 3"

# ---- mise use writes the nearest config file (mise's
# resolve_target_config_path: the nearest directory upwards with one, the
# first of its files; else a new mise.toml), which fix.writes names; one
# above the repository is outside the tree: nothing declared
mh=$TEST_TMPDIR/misehome
mkdir -p "$mh/.local/share/mise" "$TEST_TMPDIR/mise-up/repo"
for kind in none dot up; do
	mr=$TEST_TMPDIR/mise-$kind
	[ $kind = up ] && mr=$TEST_TMPDIR/mise-up/repo
	mkdir -p "$mr"
	printf 'module example.com/m\n\ngo 1.22\n' >"$mr/go.mod"
	case $kind in
	dot) printf '[tools]\n' >"$mr/.mise.toml" ;;
	up) printf '[tools]\n' >"$TEST_TMPDIR/mise-up/.mise.toml" ;;
	esac
	got=$(cd "$TEST_TMPDIR" && env -i PATH=/usr/bin:/bin HOME="$mh" XDG_CACHE_HOME=/dev/null/no-cache \
		LC_ALL=C.UTF-8 "$EP_BIN" --json --only=runtimes "$mr" | py -c '
import json, sys
for c in json.load(sys.stdin)["checks"]:
    f = c.get("fix") or {}
    if (f.get("argv") or [None])[0] == "mise":
        print(" ".join(f["argv"]), f["writes"])')
	case $kind in
	none) want="mise use go@1.22 ['mise.toml']" ;;
	dot) want="mise use go@1.22 ['.mise.toml']" ;;
	up) want="mise use go@1.22 []" ;;
	esac
	check "mise use writes ($kind): $got" [ "$got" = "$want" ]
done

finish
