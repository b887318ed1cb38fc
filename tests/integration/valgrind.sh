#!/bin/sh
# valgrind.sh - no leaks and no memory errors on the main paths: a clean
# audit, every output format, a failing audit and a usage error, the
# sandbox probe, and --wait (one that runs out, one that sees a port come
# up).
. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
if ! command -v valgrind >/dev/null 2>&1; then
	skip "every case: valgrind is not installed"
	finish
	exit
fi
case $EP_BIN in
*asan*) skip "every case: an ASan build is not run under valgrind"; finish; exit ;;
esac
# A deadline no run under valgrind reaches, however busy the machine: a
# check cut off at the deadline leaves its worker thread running at exit
# (by design: main does not wait for it), which valgrind counts as a
# possible leak of the thread's stack.  VG_ENV: more VAR=VALUE for the run.
# --read-inline-info=no: a report's stack names no inlined frames, and a
# run costs about 8 % less (1.20 against 1.31 s of CPU here).
vg() {
	env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$TEST_TMPDIR/home" \
		XDG_CONFIG_HOME="$TEST_TMPDIR/xdg" XDG_CACHE_HOME="$TEST_TMPDIR/cache" LC_ALL=C.UTF-8 \
		${VG_ENV:-} valgrind -q --read-inline-info=no --leak-check=full --errors-for-leak-kinds=definite,indirect,possible \
		--error-exitcode=99 "$EP_BIN" --timeout=300000 "$@" >/dev/null 2>"$TEST_TMPDIR/vg"
	st=$?
	[ "$st" != 99 ] || { cat "$TEST_TMPDIR/vg"; return 1; }
}
cases=$top/tests/cases
check "webapp" vg "$top/examples/webapp"
for f in human json junit github tap tap13; do
	check "mixed $f --explain" vg --format=$f --explain "$cases/env-mixed-json/repo"
done
# the GitHub job summary, written and not writable; TAP of an audit that
# could not run
VG_ENV="GITHUB_STEP_SUMMARY=$TEST_TMPDIR/summary.md"
check "github, job summary" vg --format=github "$cases/env-mixed-json/repo"
check "github, job summary written" [ -s "$TEST_TMPDIR/summary.md" ]
VG_ENV="GITHUB_STEP_SUMMARY=/dev/full"
check "github, job summary not writable" vg --format=github "$cases/env-mixed-json/repo"
VG_ENV=
check "tap, bad yaml (Bail out!)" vg --format=tap "$cases/bad-yaml/repo"
check "monorepo after cp, --explain" vg --explain --only=env,ports "$cases/env-monorepo-cp/repo"
check "monorepo filled, json" vg --json --explain --only=env "$cases/env-monorepo-filled/repo"
mkdir -p "$TEST_TMPDIR/skipped"
printf 'A=1\nnot an assignment\n' >"$TEST_TMPDIR/skipped/.env.example"
check "example line dotenv skips (exit 2)" vg "$TEST_TMPDIR/skipped"
check "bad yaml" vg "$cases/bad-yaml/repo"
# workspaces: grouped and folded, JSON, ports across workspaces, go.work and
# uv, a contradiction, a symlink out, --workspace, not YAML (exit 2)
check "workspaces, --explain" vg --explain "$cases/ws-pnpm/repo"
check "workspaces, json" vg --json "$cases/ws-pnpm/repo"
check "workspaces, ports" vg --json "$cases/ws-ports/repo"
check "workspaces, go and uv" vg "$cases/ws-go-uv/repo"
check "workspaces, contradiction" vg --format=junit "$cases/ws-contradiction/repo"
check "workspaces, symlink out" vg --format=github "$cases/ws-symlink-out/repo"
check "workspaces, --workspace" vg --workspace=apps/web "$cases/ws-pnpm/repo"
check "workspaces, not YAML (exit 2)" vg --json "$cases/ws-bad-yaml/repo"
check "nothing to audit" vg "$cases/nothing/repo"
check "--list-probes" vg --list-probes
check "init --stdout" vg init --stdout "$cases/ports-fixture/repo"
check "init --snapshot --format=json" vg init --snapshot --stdout --format=json \
	--timeout=20000 "$cases/runtimes-pass/repo"
check "init: the file exists" vg init "$cases/ports-fixture/repo"
init='{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}'
mcp_session() {
	printf '%s\n' "$init" 'garbage' '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' \
		"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"audit\",\"arguments\":{\"dir\":\"$cases/env-mixed-json/repo\",\"timeout_ms\":20000}}}" \
		"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"audit\",\"arguments\":{\"dir\":\"$cases/bad-yaml/repo\"}}}" \
		'{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"audit","arguments":{"dir":"/"}}}' \
		'{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"list_probes"}}'
}
mcp_session | (
	cd "$TEST_TMPDIR" && env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$TEST_TMPDIR/home" \
		XDG_CONFIG_HOME="$TEST_TMPDIR/xdg" XDG_CACHE_HOME="$TEST_TMPDIR/cache" LC_ALL=C.UTF-8 \
		valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect,possible \
		--error-exitcode=99 "$EP_BIN" mcp --no-config --allow-dir="$cases" \
		>"$TEST_TMPDIR/mcp.out" 2>"$TEST_TMPDIR/vg"
)
st=$?
# as vg: only valgrind's own status fails (it may not read a build's debug info)
[ "$st" != 99 ] || cat "$TEST_TMPDIR/vg"
check "mcp: a session without leaks or errors" [ "$st" != 99 ]
# each audit call runs in a process of its own (forked: still under
# valgrind), whose status the server does not pass on: its report is
check "mcp: the calls' processes without leaks or errors" \
	sh -c '! grep -q "^==[0-9]*==" "$1"' - "$TEST_TMPDIR/vg"
[ "$st" = 0 ] && check "mcp: every message answered" [ "$(wc -l <"$TEST_TMPDIR/mcp.out")" = 7 ]
# the deps probe: each lockfile kind, in sync and drifted, from the fixtures
fx=$top/tests/fixtures/deps
dd=$TEST_TMPDIR/deps
mkdir -p "$dd/pnpm/node_modules/.pnpm" "$dd/yarn/node_modules" "$dd/uv/.venv/lib/python3.12/site-packages/idna-3.9.dist-info" "$dd/poetry"
cp "$fx/pnpm/pnpm-lock.yaml" "$dd/pnpm/"
cp "$fx/pnpm/modules.yaml" "$dd/pnpm/node_modules/.modules.yaml"
sed 's/lodash@4.17.21/lodash@4.17.20/' "$fx/pnpm/current-lock.yaml" >"$dd/pnpm/node_modules/.pnpm/lock.yaml"
cp "$fx/yarn-nm/yarn.lock" "$dd/yarn/"
cp "$fx/yarn-nm/yarn-state.yml" "$dd/yarn/node_modules/.yarn-state.yml"
cp "$fx/uv/uv.lock" "$dd/uv/"
printf 'version_info = 3.12.3\n' >"$dd/uv/.venv/pyvenv.cfg"
printf 'Name: idna\nVersion: 3.9\n' >"$dd/uv/.venv/lib/python3.12/site-packages/idna-3.9.dist-info/METADATA"
cp "$fx/poetry/poetry.lock" "$fx/poetry/pyproject.toml" "$dd/poetry/"
printf 'requests==2.32.3\nbad line ==\n' >"$dd/poetry/requirements.txt"
mkdir -p "$dd/npm/node_modules/a"
printf '{"lockfileVersion": 3, "packages": {"": {}, "node_modules/a": {"version": "1.0.0"}, "node_modules/b": {"version": "2.0.0"}}}' >"$dd/npm/package-lock.json"
printf '{"name": "a", "version": "0.9.0"}' >"$dd/npm/node_modules/a/package.json"
for c in pnpm yarn uv poetry npm; do
	check "deps $c --json --explain" vg --only=deps --json --explain "$dd/$c"
done
printf '{"packages": {' >"$dd/npm/package-lock.json"
check "deps corrupt lockfile" vg --only=deps "$dd/npm"
# enough packages for the install records to be read on two threads, a
# hidden lockfile parsed while node_modules is walked, and a uv.lock
mkdir -p "$dd/many/node_modules" "$dd/many/.venv/lib/python3.12/site-packages"
printf 'version_info = 3.12.3\n' >"$dd/many/.venv/pyvenv.cfg"
{ printf 'version = 1\n[[package]]\nname = "app"\nversion = "0.1.0"\nsource = { editable = "." }\ndependencies = [\n'
  i=0; while [ $i -lt 80 ]; do printf '  { name = "q%d" },\n' $i; i=$((i + 1)); done
  printf ']\n'
  i=0; while [ $i -lt 80 ]; do printf '[[package]]\nname = "q%d"\nversion = "1.%d"\n' $i $i; i=$((i + 1)); done
} >"$dd/many/uv.lock"
lock='"": {}'
i=0
while [ $i -lt 80 ]; do
	mkdir -p "$dd/many/node_modules/p$i" "$dd/many/.venv/lib/python3.12/site-packages/q$i-1.$i.dist-info"
	printf '{"name": "p%d", "version": "1.%d.0"}' $i $i >"$dd/many/node_modules/p$i/package.json"
	printf 'Name: q%d\nVersion: 1.%d\n' $i $i >"$dd/many/.venv/lib/python3.12/site-packages/q$i-1.$i.dist-info/METADATA"
	lock="$lock, \"node_modules/p$i\": {\"version\": \"1.$i.0\"}"
	i=$((i + 1))
done
printf '{"lockfileVersion": 3, "packages": {%s}}' "$lock" >"$dd/many/package-lock.json"
check "deps: 80 packages, package.json files and METADATA read on two threads" \
	vg --only=deps --json --explain "$dd/many"
cp "$dd/many/package-lock.json" "$dd/many/node_modules/.package-lock.json"
check "deps: 80 packages and npm's hidden lockfile" vg --only=deps --json --explain "$dd/many"
# the sandbox probe, with secrets in the home and a sudoers-free machine
mkdir -p "$TEST_TMPDIR/home/.ssh" "$TEST_TMPDIR/sbx"
: >"$TEST_TMPDIR/home/.ssh/id_ed25519"
printf '//r/:_authToken=x\n' >"$TEST_TMPDIR/home/.npmrc"
check "sandbox, every check" vg --only=sandbox --json --explain "$TEST_TMPDIR/sbx"
printf 'version: 1\nsandbox:\n  capabilities: [chown]\n  secrets: [npmrc]\n  processes: 3\n' \
	>"$TEST_TMPDIR/sbx/preflight.yaml"
check "sandbox from preflight.yaml, human" vg --explain "$TEST_TMPDIR/sbx"
# --wait: a port held bound but never listening (the wait runs out: the
# rounds, the notes, not_ready), then one that starts listening once the
# progress line on a terminal proves the first round over (ready, after_ms)
wd=$TEST_TMPDIR/wait
mkdir -p "$wd/repo"
rm -f "$wd/port" "$wd/go"
python3 -c '
import os, signal, socket, sys, time
signal.alarm(600)
signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
s = socket.socket(); s.bind(("127.0.0.1", 0))
open(sys.argv[1] + ".tmp", "w").write("%d\n" % s.getsockname()[1])
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
while not os.path.exists(sys.argv[2]):
    time.sleep(0.02)
s.listen(8)
time.sleep(600)' "$wd/port" "$wd/go" &
holder=$!
i=0
while [ ! -s "$wd/port" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
printf 'version: 1\nports:\n  listening: [%s]\n' "$(cat "$wd/port" 2>/dev/null)" \
	>"$wd/repo/preflight.yaml"
check "--wait runs out, json --explain" vg --json --explain --wait=300ms --interval=100ms "$wd/repo"
check "--wait runs out, human" vg --wait=300ms --interval=100ms "$wd/repo"
if command -v script >/dev/null 2>&1; then
	env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$TEST_TMPDIR/home" \
		XDG_CONFIG_HOME="$TEST_TMPDIR/xdg" XDG_CACHE_HOME="$TEST_TMPDIR/cache" \
		LC_ALL=C.UTF-8 TERM=dumb script -qfec "valgrind -q --leak-check=full \
		--errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99 \
		--log-file=$wd/vg $EP_BIN --timeout=300000 --json --wait=10m --interval=50ms \
		$wd/repo >$wd/out" /dev/null >"$wd/tty" 2>&1 &
	vpid=$!
	i=0
	until grep -q "waiting for port" "$wd/tty" 2>/dev/null || [ $i -ge 1200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	touch "$wd/go"
	wait "$vpid"
	st=$?
	[ "$st" != 99 ] || cat "$wd/vg"
	check "--wait, a port that comes up: no leaks or errors" [ "$st" != 99 ]
	check "--wait, a port that comes up: it did (status $st)" \
		grep -q '"after_ms"' "$wd/out"
else
	skip "--wait with a port that comes up: no script(1)"
fi
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
finish
