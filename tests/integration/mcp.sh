#!/bin/sh
# mcp.sh - `envpreflight mcp` on the wire: JSON-RPC 2.0 error codes for
# garbage, version negotiation, the dir boundary, a long line, SIGTERM,
# end of input; then the official MCP TypeScript SDK as the client
# (tests/mcp/client.mjs), when make deps could install it.
. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
expect=$top/tests/mcp/expect.py
# where the reports go for run.sh's schema check; run alone, a directory
# of the scratch space (not the working directory, nor /)
json_dir=${EP_JSON_DIR:-$TEST_TMPDIR/json}
mkdir -p "$json_dir"

# the fixture tree as the server's directory, and a way out of it; and
# a repository whose audit passes on any machine (env-pass/repo would
# need its port free here)
root=$TEST_TMPDIR/root
cp -a "$top/tests/cases" "$root"
ln -s / "$root/link-out"
mkdir -p "$root/pass"
printf 'version: 1\ntools: [sh]\n' >"$root/pass/preflight.yaml"
outside=$TEST_TMPDIR/outside
mkdir -p "$outside/repo"
printf 'version: 1\ntools: [sh]\n' >"$outside/repo/preflight.yaml"

# mcp [OPTIONS]: the server in $root, stdin to stdout; status in $TEST_TMPDIR/st
mcp() {
	(cd "$root" && ep_run mcp --no-config "$@")
	echo $? >"$TEST_TMPDIR/st"
}
status() { cat "$TEST_TMPDIR/st"; }

# tally NAME STATUS OUT: a client program's checks (its "not ok: ..."
# lines, and a last "NAME: N passed, M failed") into this script's counts
tally() {
	grep -v ' passed, ' "$3"
	t_line=$(grep -E "^$1: [0-9]+ passed, [0-9]+ failed" "$3")
	if [ -n "$t_line" ]; then
		t_p=${t_line#"$1": }; t_p=${t_p%% *}
		t_f=${t_line#*passed, }; t_f=${t_f%% *}
		T_PASSED=$((T_PASSED + t_p))
		T_FAILED=$((T_FAILED + t_f))
		[ "$t_f" = 0 ] && [ "$2" != 0 ] && not_ok "$1: exit $2"
	else
		not_ok "$1: no closing line (exit $2)"
		tail -n 20 "$3"
	fi
}

init() {
	printf '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"%s","capabilities":{},"clientInfo":{"name":"sh","version":"1"}}}\n' "$1"
}
call() {	# ID ARGUMENTS
	printf '{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"audit","arguments":%s}}\n' "$1" "$2"
}

# ---- one session of garbage (revision 2025-06-18: bad arguments are -32602)
out=$TEST_TMPDIR/garbage.out
{
	init 2025-06-18
	echo '{"jsonrpc":"2.0","method":"notifications/initialized"}'
	echo 'this is not json'
	echo '{"jsonrpc":"1.0","id":1,"method":"ping"}'
	echo '{"id":2,"method":"ping"}'
	echo '{"jsonrpc":"2.0","id":3,"method":"no/such/method"}'
	echo '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":"x"}'
	echo '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{}}'
	echo '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"nope"}}'
	call 7 '{"dir":"../.."}'
	echo '{"jsonrpc":"2.0","id":{},"method":"ping"}'
	echo '{"jsonrpc":"2.0","id":null,"method":"ping"}'
	echo '[]'
	echo '[{"jsonrpc":"2.0","id":8,"method":"ping"}]'
	echo '{"jsonrpc":"2.0","method":"no/such/notification"}'
	echo '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}'
	init 2025-06-18 | sed 's/"id":0/"id":9/'
	echo '{"jsonrpc":"2.0","id":10,"method":42}'
	echo '{"jsonrpc":"2.0","id":"from-client","result":{}}'
	echo '{"jsonrpc":"2.0","id":11,"method":"ping"} trailing'
	printf '{"jsonrpc":"2.0","id":12,"method":"ping"}\r\n'
	printf '{"jsonrpc":"2.0","id":"\377","method":"ping"}\n'
	echo
	python3 -c 'print("[" * 100000)'
	echo '{"jsonrpc":"2.0","id":1.5,"method":"ping"}'
	echo '{"jsonrpc":"2.0","id":13,"method":"tools/list"}'
	call 14 '{"dir":"link-out"}'
	call 15 '{"only":"nope"}'
	call 16 '{"dir":"env-pass/repo","timeout_ms":0}'
	call 17 '{"dir":"pass"}'
	call 18 '{"dir":"nothing/repo"}'
	echo '{"jsonrpc":"2.0","id":19,"method":"tools/call","params":{"name":"list_probes","arguments":{"x":1}}}'
	echo '{"jsonrpc":"2.0","id":true,"method":"ping"}'
	echo '{"jsonrpc":"2.0","id":[21],"method":"ping"}'
	printf '{"jsonrpc":"2.0","id":20,"method":"ping"}'	# no line end: the last
} | mcp >"$out"
check "garbage: exit 0 at the end of input (got $(status))" [ "$(status)" = 0 ]
check "garbage: the error codes" python3 "$expect" "$out" \
	'0 ok result.protocolVersion="2025-06-18" result.capabilities.tools.listChanged=false' \
	'null -32700' '1 -32600' '2 -32600' '3 -32601' '4 -32602' '5 -32602' '6 -32602' \
	'7 -32602' 'null -32600' 'null -32600' 'null -32600' 'null -32600' '9 -32600' \
	'10 -32600' 'null -32700' '12 ok' 'null -32600' 'null -32700' '1.5 ok' \
	'13 ok result.tools[0].name="audit" result.tools[1].name="list_probes"' \
	'14 -32602' '15 -32602' '16 -32602' \
	'17 ok result.isError=false result.structuredContent.ok=true result.content[0].type="text"' \
	'18 ok result.isError=true result.structuredContent.error.kind="nothing-to-audit"' \
	'19 -32602' 'null -32600' 'null -32600' '20 ok'
grep -q 'outside the directory the server was started in' "$out"
check "garbage: dir outside names the boundary" [ $? = 0 ]
py - "$out" "$json_dir" <<'EOF'
import json, sys
# keep every report for the schema check of tests/run.sh
for n, line in enumerate(open(sys.argv[1])):
    doc = json.loads(line).get("result", {}).get("structuredContent")
    if doc and doc.get("schema") == "envpreflight/1":
        json.dump(doc, open(f"{sys.argv[2]}/mcp-wire.{n}.json", "w"))
EOF

# ---- before initialize: only ping and initialize
out=$TEST_TMPDIR/early.out
{
	echo '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'
	echo '{"jsonrpc":"2.0","id":2,"method":"ping"}'
	echo '{"jsonrpc":"2.0","id":3,"method":"initialize","params":{}}'
	call 4 '{}'
} | mcp >"$out"
check "before initialize" python3 "$expect" "$out" '1 -32600' '2 ok' '3 -32602' '4 -32600'

# ---- version negotiation
for v in 2025-11-25 2025-06-18 2025-03-26 2024-11-05; do
	init $v | mcp >"$TEST_TMPDIR/v.out"
	check "revision $v is spoken" python3 "$expect" "$TEST_TMPDIR/v.out" \
		"0 ok result.protocolVersion=\"$v\""
done
init 1999-01-01 | mcp >"$TEST_TMPDIR/v.out"
check "an unknown revision gets the newest" python3 "$expect" "$TEST_TMPDIR/v.out" \
	'0 ok result.protocolVersion="2025-11-25"'
# 2025-11-25: a bad argument is a tool error the model can read
{ init 2025-11-25; call 1 '{"dir":"../.."}'; call 2 '{"strict":1}'; } | mcp >"$TEST_TMPDIR/v.out"
check "2025-11-25: bad arguments are isError results" python3 "$expect" "$TEST_TMPDIR/v.out" \
	'0 ok' '1 ok result.isError=true result.structuredContent.error.kind="usage"' \
	'2 ok result.isError=true result.structuredContent.outcome="not-run"'
# before 2025-06-18 a client knows no structuredContent: the JSON as text too
{ init 2024-11-05; call 1 '{"dir":"env-pass/repo"}'; } | mcp >"$TEST_TMPDIR/v.out"
check "2024-11-05: the report as a second text item" python3 "$expect" "$TEST_TMPDIR/v.out" \
	'0 ok' '1 ok result.content[1].type="text" result.isError=false'
sed -n 2p "$TEST_TMPDIR/v.out" | py -c '
import json, sys
r = json.load(sys.stdin)["result"]
assert json.loads(r["content"][1]["text"]) == r["structuredContent"]' 2>/dev/null
check "2024-11-05: that text is the report" [ $? = 0 ]

# ---- --allow-dir
{ init 2025-06-18; call 1 "{\"dir\":\"$outside/repo\"}"; } | mcp --allow-dir="$outside" >"$TEST_TMPDIR/a.out"
check "--allow-dir lets an absolute dir out" python3 "$expect" "$TEST_TMPDIR/a.out" \
	'0 ok' '1 ok result.isError=false result.structuredContent.ok=true'
{ init 2025-06-18; call 1 "{\"dir\":\"$outside/repo\"}"; } | mcp >"$TEST_TMPDIR/a.out"
check "without it, refused" python3 "$expect" "$TEST_TMPDIR/a.out" '0 ok' '1 -32602'
{ init 2025-06-18; call 1 '{"dir":"no/such/dir"}'; call 2 '{"dir":"../no/such"}'; } | mcp >"$TEST_TMPDIR/a.out"
check "a missing dir inside cannot run, one outside is refused" python3 "$expect" \
	"$TEST_TMPDIR/a.out" '0 ok' \
	'1 ok result.isError=true result.structuredContent.error.kind="repo-unreadable"' '2 -32602'
mcp --allow-dir="$TEST_TMPDIR/no-such" </dev/null >"$TEST_TMPDIR/a.out" 2>"$TEST_TMPDIR/a.err"
check "--allow-dir of nothing: exit 2 (got $(status))" [ "$(status)" = 2 ]
check "... nothing on stdout" [ ! -s "$TEST_TMPDIR/a.out" ]
mcp --bogus </dev/null >/dev/null 2>&1
check "an unknown option: exit 2" [ "$(status)" = 2 ]

# ---- a string holding U+0000 refuses the message whole (cJSON ends the
# string there: "pass\u0000junk" would audit pass), as an escape or as a
# raw byte; an escaped backslash before u0000 is no NUL
{
	init 2025-11-25
	call 1 '{"dir":"pass\u0000junk"}'
	printf '%s\n' '{"jsonrpc":"2.0","id":"a\u0000b","method":"ping"}'
	printf '%s\n' '{"jsonrpc":"2.0","method":"notifications/x","params":{"a":"\u0000"}}'
	call 2 '{"dir":"pass\\u0000"}'
	printf '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"audit","arguments":{"dir":"pass\000junk"}}}\n'
	printf '%s\n' '{"jsonrpc":"2.0","id":3,"method":"ping"}'
} | mcp >"$TEST_TMPDIR/nul.out"
check "U+0000 in a string: refused, a number id echoed, a string id null" \
	python3 "$expect" "$TEST_TMPDIR/nul.out" '0 ok' '1 -32600' 'null -32600' \
	'2 ok result.isError=true result.structuredContent.error.kind="repo-unreadable"' '4 -32600' '3 ok'

# ---- workspace and no_workspaces, as --workspace and --no-workspaces
ws=ws-npm-object/repo
{
	init 2025-11-25
	call 1 "{\"dir\":\"$ws\",\"workspace\":\"packages/cli\"}"
	call 2 "{\"dir\":\"$ws\",\"no_workspaces\":true}"
	call 3 "{\"dir\":\"$ws\",\"no_workspaces\":true,\"workspace\":\"packages/cli\"}"
	call 4 "{\"dir\":\"$ws\",\"workspace\":\"\"}"
	call 5 "{\"dir\":\"$ws\",\"no_workspaces\":1}"
} | mcp >"$TEST_TMPDIR/ws.out"
check "workspace: one workspace; no_workspaces: none; together or malformed: refused" \
	python3 "$expect" "$TEST_TMPDIR/ws.out" '0 ok' \
	'1 ok result.structuredContent.run.workspaces.only="packages/cli" result.structuredContent.run.workspaces.enabled=true' \
	'2 ok result.structuredContent.run.workspaces.enabled=false' \
	'3 ok result.isError=true result.structuredContent.error.kind="usage"' \
	'4 ok result.isError=true result.structuredContent.error.kind="usage"' \
	'5 ok result.isError=true result.structuredContent.error.kind="usage"'

# ---- a line over 4 MiB: a parse error, and the next message is answered
{
	init 2025-06-18
	python3 -c 'import sys; sys.stdout.write("{\"x\":\"" + "a" * (5 << 20) + "\"}\n")'
	echo '{"jsonrpc":"2.0","id":1,"method":"ping"}'
} | mcp >"$TEST_TMPDIR/long.out"
check "a long line" python3 "$expect" "$TEST_TMPDIR/long.out" '0 ok' 'null -32700' '1 ok'

# ---- a runtime that hangs: an error in the report, nothing left running
fx=$top/tests/fixtures/runtimes
mkdir -p "$root/hang"
printf '{"engines": {"node": ">=20"}}\n' >"$root/hang/package.json"
{ init 2025-06-18; call 1 '{"dir":"hang","timeout_ms":600}'; call 2 '{"dir":"pass"}'; } |
	EP_ENV="PATH=$(marked "$fx/hang"):/usr/bin:/bin XDG_CACHE_HOME=/dev/null/no-cache" mcp >"$TEST_TMPDIR/h.out"
check "hung runtime: reported, and the next call answered" python3 "$expect" "$TEST_TMPDIR/h.out" \
	'0 ok' '1 ok result.isError=false result.structuredContent.summary.error=1' \
	'2 ok result.structuredContent.ok=true'
check "hung runtime: no child survived" [ "$(survivors 41.${T_MARK}1 41.${T_MARK}2)" = 0 ]

# ---- wait_ms: the audit waits as --wait does
# a port held bound but not listening (nobody else can take it)
mkdir -p "$root/waitrepo"
python3 -c '
import os, signal, socket, sys, time
signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
s = socket.socket(); s.bind(("127.0.0.1", 0))
open(sys.argv[1] + ".tmp", "w").write("%d\n" % s.getsockname()[1])
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
time.sleep(120)' "$TEST_TMPDIR/wport" &
holder=$!
i=0
while [ ! -s "$TEST_TMPDIR/wport" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
wport=$(cat "$TEST_TMPDIR/wport" 2>/dev/null)
printf 'version: 1\nports:\n  listening: [%s]\n' "${wport:-1}" >"$root/waitrepo/preflight.yaml"
{
	init 2025-06-18
	call 1 '{"dir":"waitrepo","wait_ms":300,"interval_ms":100}'
	call 2 '{"dir":"waitrepo","wait_ms":0}'
	call 3 '{"dir":"waitrepo","interval_ms":100}'
	call 4 '{"dir":"waitrepo","wait_ms":100,"interval_ms":200}'
	call 5 '{"dir":"waitrepo","wait_ms":"1s"}'
	call 6 '{"dir":"pass","wait_ms":20000}'
} | mcp >"$TEST_TMPDIR/w.out"
check "wait_ms: runs out on a port that never listens; nothing to wait for ends it" \
	python3 "$expect" "$TEST_TMPDIR/w.out" '0 ok' \
	"1 ok result.isError=false result.structuredContent.wait.timed_out=true result.structuredContent.wait.not_ready=[\"ports.tcp.$wport\"] result.structuredContent.run.options.wait_ms.value=300 result.structuredContent.run.options.interval_ms.value=100" \
	'2 -32602' '3 -32602' '4 -32602' '5 -32602' \
	'6 ok result.structuredContent.ok=true result.structuredContent.wait.rounds=1 result.structuredContent.checks[0].attempts=1'
check "wait_ms: the human text names what never became ready" \
	grep -q "never ready within --wait" "$TEST_TMPDIR/w.out"
check "wait_ms: from the tool call" \
	grep -q '"wait_ms":{"value":300,"from":"tool call"}' "$TEST_TMPDIR/w.out"
py - "$TEST_TMPDIR/w.out" "$json_dir" <<'EOF'
import json, sys
for n, line in enumerate(open(sys.argv[1])):
    doc = json.loads(line).get("result", {}).get("structuredContent")
    if doc and doc.get("schema") == "envpreflight/1":
        json.dump(doc, open(f"{sys.argv[2]}/mcp-wait.{n}.json", "w"))
EOF
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null

# ---- SIGTERM ends the server cleanly (SIGTERM at its default: whoever
# started the suite may ignore it, and the server keeps it so)
if [ -z "$SIGDFL" ]; then
	skip "SIGTERM: neither env --default-signal nor perl can set it to its default here"
else
	fifo=$TEST_TMPDIR/in
	mkfifo "$fifo"
	(cd "$root" && exec "$SIGDFL" env -i PATH=/usr/bin:/bin HOME="$TEST_TMPDIR/home" \
		LC_ALL=C.UTF-8 "$EP_BIN" mcp --no-config <"$fifo" >"$TEST_TMPDIR/term.out" \
		2>"$TEST_TMPDIR/term.err") &
	pid=$!
	exec 3>"$fifo"
	init 2025-06-18 >&3
	# the server is serving once its answer is out (read blocks until then)
	py - "$TEST_TMPDIR/term.out" <<'EOF'
import os, sys, time
for _ in range(6000):	# a guard against a hang, not a timing assertion
    if os.path.getsize(sys.argv[1]):
        break
    time.sleep(0.01)
EOF
	kill -TERM "$pid"
	wait "$pid"
	st=$?
	exec 3>&-
	check "SIGTERM: exit 0 (got $st)" [ "$st" = 0 ]
	check "SIGTERM: the answer was whole" python3 "$expect" "$TEST_TMPDIR/term.out" '0 ok'
fi

# ---- a signal in the middle of two calls: each call's children (a hung
# version query, its setsid grandchild) end with the server, exit 0, the
# calls unanswered; SIGHUP too (its default action used to kill the server
# and leave them to PID 1)
mkdir -p "$root/hangescape"
printf '{"engines": {"node": ">=20"}}\n' >"$root/hangescape/package.json"
if [ -z "$SIGDFL" ]; then
	skip "a signal mid-call: neither env --default-signal nor perl can set the signals to their default here"
else
	hx=$(marked "$fx/hangescape")
	# KILL: the server cannot act, its calls' processes can (they end
	# with the server: PR_SET_PDEATHSIG)
	for sig in HUP TERM INT KILL; do
		fifo=$TEST_TMPDIR/in.$sig
		mkfifo "$fifo"
		(cd "$root" && exec "$SIGDFL" env -i PATH="$hx:/usr/bin:/bin" \
			HOME="$TEST_TMPDIR/home" XDG_CACHE_HOME=/dev/null/no-cache \
			LC_ALL=C.UTF-8 "$EP_BIN" mcp --no-config <"$fifo" \
			>"$TEST_TMPDIR/sig.$sig.out" 2>"$TEST_TMPDIR/sig.$sig.err") &
		pid=$!
		exec 3>"$fifo"
		{
			init 2025-06-18
			call 1 '{"dir":"hangescape","timeout_ms":600000}'
			call 2 '{"dir":"hangescape","timeout_ms":600000}'
		} >&3
		# both calls are in hand once the four marked sleeps run (a
		# guard against a hang, not a timing assertion)
		i=0
		while [ "$(grep -Fls -e "41.${T_MARK}6" -e "41.${T_MARK}7" \
			/proc/[0-9]*/cmdline 2>/dev/null | wc -l)" -lt 4 ] && [ $i -lt 1200 ]; do
			sleep 0.05
			i=$((i + 1))
		done
		kill -"$sig" "$pid"
		{ wait "$pid"; } 2>/dev/null	# not the shell's "Killed"
		st=$?
		exec 3>&-
		[ "$sig" = KILL ] && want=137 || want=0
		check "SIG$sig mid-call: exit $want (got $st)" [ "$st" = "$want" ]
		check "SIG$sig mid-call: initialize answered, the two calls not" \
			python3 "$expect" "$TEST_TMPDIR/sig.$sig.out" '0 ok'
		check "SIG$sig mid-call: no child or grandchild survived" \
			[ "$(survivors "41.${T_MARK}6" "41.${T_MARK}7")" = 0 ]
	done
fi

# ---- calls side by side: a ping and a call answered beside a waiting
# call, progress during wait_ms, cancellation ending a call's children, a
# duplicate id, more calls than run at once (tests/mcp/concurrent.py)
hx=${hx:-$(marked "$fx/hangescape")}
python3 "$top/tests/mcp/concurrent.py" "$EP_BIN" "$root" "$T_MARK" \
	"$hx:/usr/bin:/bin" "$TEST_TMPDIR/home" >"$TEST_TMPDIR/conc.out" 2>&1
tally concurrent $? "$TEST_TMPDIR/conc.out"
check "concurrent calls: nothing left running" \
	[ "$(survivors "41.${T_MARK}6" "41.${T_MARK}7")" = 0 ]

# ---- 1,000 requests at once, pipelined: each answered once, the calls
# among them too (at most four run at a time, the rest wait in line)
py - >"$TEST_TMPDIR/many.in" <<'EOF2'
import json
print(json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                  "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                             "clientInfo": {"name": "sh", "version": "1"}}}))
for i in range(1, 1000):
    if i % 20 == 0:
        m = {"method": "tools/call", "params": {"name": "audit",
                                                "arguments": {"dir": "pass"}}}
    elif i % 20 == 1:
        m = {"method": "tools/list"}
    else:
        m = {"method": "ping"}
    print(json.dumps(dict(jsonrpc="2.0", id=i, **m)))
EOF2
mcp <"$TEST_TMPDIR/many.in" >"$TEST_TMPDIR/many.out"
check "1,000 pipelined requests: exit 0 (got $(status))" [ "$(status)" = 0 ]
py - "$TEST_TMPDIR/many.out" <<'EOF2'
import json, sys
ids = []
for line in open(sys.argv[1]):
    m = json.loads(line)
    assert "result" in m, line[:200]
    if m["id"] % 20 == 0 and m["id"]:
        assert m["result"]["structuredContent"]["ok"] is True, line[:200]
    ids.append(m["id"])
assert sorted(ids) == list(range(1000)), (len(ids), len(set(ids)))
EOF2
check "1,000 pipelined requests: each answered once, the 49 audits passed" [ $? = 0 ]

# ---- the client gone (the read end of stdout closed before the first
# answer): exit 1
py - "$EP_BIN" "$root" "$TEST_TMPDIR/home" "$TEST_TMPDIR/gone.st" <<'EOF'
import os, subprocess, sys
r, w = os.pipe()
os.close(r)
p = subprocess.run([sys.argv[1], "mcp", "--no-config"], cwd=sys.argv[2],
                   input=b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n',
                   stdout=w, stderr=subprocess.DEVNULL,
                   env={"PATH": "/usr/bin:/bin", "HOME": sys.argv[3], "LC_ALL": "C.UTF-8"})
os.close(w)
open(sys.argv[4], "w").write("%d" % p.returncode)
EOF
check "stdout gone: exit 1 (got $(cat "$TEST_TMPDIR/gone.st"))" [ "$(cat "$TEST_TMPDIR/gone.st")" = 1 ]

# ---- the official SDK as the client
sdk=$top/tests/mcp
if [ -d "$sdk/node_modules/@modelcontextprotocol/sdk" ] && command -v node >/dev/null; then
	# sdkwait: a port bound, never listening, for a call that waits
	python3 -c '
import os, signal, socket, sys, time
signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
s = socket.socket(); s.bind(("127.0.0.1", 0))
os.makedirs(sys.argv[1] + "/sdkwait")
open(sys.argv[1] + "/sdkwait/preflight.yaml", "w").write(
    "version: 1\nports:\n  listening: [%d]\n" % s.getsockname()[1])
os.rename(sys.argv[1] + "/sdkwait", sys.argv[1] + "/sdkwait.ready")
time.sleep(300)' "$TEST_TMPDIR" &
	holder=$!
	i=0
	while [ ! -d "$TEST_TMPDIR/sdkwait.ready" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
	mv "$TEST_TMPDIR/sdkwait.ready" "$root/sdkwait" 2>/dev/null
	(cd "$sdk" && env -i PATH=/usr/bin:/bin HOME="$TEST_TMPDIR/home" \
		XDG_CONFIG_HOME="$TEST_TMPDIR/xdg" XDG_CACHE_HOME="$TEST_TMPDIR/cache" \
		node client.mjs "$EP_BIN" "$root" "$json_dir") >"$TEST_TMPDIR/sdk.out" 2>&1
	st=$?
	kill "$holder" 2>/dev/null
	wait "$holder" 2>/dev/null
	tally sdk "$st" "$TEST_TMPDIR/sdk.out"
else
	skip "the MCP SDK client: tests/mcp/node_modules is missing (make deps installs" \
	     "it with npm ci; offline it cannot)"
fi
finish
