#!/bin/sh
# agents.sh - the recipes of examples/agents/, run as each harness runs
# them (a Claude Code hook through sh -c with the event's JSON on stdin,
# a devcontainer command array without a shell, the Codex setup script),
# against a repository whose audit fails and one whose audit passes,
# judged by what the harness reads: the exit status, the text it hands to
# the model, the report it keeps.
. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
ex=$top/examples/agents
bin=$TEST_TMPDIR/bin
mkdir -p "$bin"
ln -s "$EP_BIN" "$bin/envpreflight"
for r in pass fail; do
	mkdir -p "$TEST_TMPDIR/$r"
	printf 'A=\nB=\n' >"$TEST_TMPDIR/$r/.env.example"
	printf 'A=1\n' >"$TEST_TMPDIR/$r/.env"
done
printf 'B=2\n' >>"$TEST_TMPDIR/pass/.env"
mkdir -p "$TEST_TMPDIR/empty"

# harness DIR CMD...: CMD in DIR as a harness starts it, envpreflight on PATH;
# stdout in $TEST_TMPDIR/out, stderr in $TEST_TMPDIR/err, status in $st
harness() {
	d=$1
	shift
	(cd "$d" && env -i PATH="$bin:/usr/bin:/bin" HOME="$TEST_TMPDIR/home" \
		XDG_CONFIG_HOME="$TEST_TMPDIR/xdg" XDG_CACHE_HOME="$TEST_TMPDIR/cache" \
		TMPDIR="$TEST_TMPDIR" GIT_CEILING_DIRECTORIES="$TEST_TMPDIR" \
		LC_ALL=C.UTF-8 "$@") >"$TEST_TMPDIR/out" 2>"$TEST_TMPDIR/err" \
		<"${stdin:-/dev/null}"
	st=$?
}

# ---- Claude Code: the hooks' commands from settings.json
py - "$ex/claude-code/settings.json" "$TEST_TMPDIR" <<'PY'
import json, sys
hooks = json.load(open(sys.argv[1]))["hooks"]
(start,) = [h for m in hooks["SessionStart"] for h in m["hooks"]]
(gate,) = [h for m in hooks["PreToolUse"] if m["matcher"] == "Bash" for h in m["hooks"]]
for name, h in (("start", start), ("gate", gate)):
    assert h["type"] == "command"
    open(f"{sys.argv[2]}/{name}.cmd", "w").write(h["command"])
PY
check "claude-code: settings.json has a SessionStart and a Bash PreToolUse command" \
	sh -c '[ -s "$1/start.cmd" ] && [ -s "$1/gate.cmd" ]' _ "$TEST_TMPDIR"
# what Claude Code writes on the hook's stdin
event() {
	printf '{"session_id":"s","transcript_path":"/dev/null","cwd":"%s","hook_event_name":"%s"%s}\n' \
		"$1" "$2" "$3" >"$TEST_TMPDIR/event.json"
	stdin=$TEST_TMPDIR/event.json
}
for r in fail pass empty; do
	event "$TEST_TMPDIR/$r" SessionStart ',"source":"startup"'
	harness "$TEST_TMPDIR/$r" sh -c "$(cat "$TEST_TMPDIR/start.cmd")"
	check "SessionStart ($r): exit 0, whatever the audit says (got $st)" [ "$st" = 0 ]
	case $r in
	fail) check "SessionStart (fail): the failure reaches the model: $(cat "$TEST_TMPDIR/out")" \
		grep -q 'parity: 1 of 2 keys missing (B)' "$TEST_TMPDIR/out" ;;
	pass) check "SessionStart (pass): the summary reaches the model: $(cat "$TEST_TMPDIR/out")" \
		grep -q 'no check failed' "$TEST_TMPDIR/out" ;;
	empty) check "SessionStart (nothing to audit): it says so, on stderr: $(cat "$TEST_TMPDIR/err")" \
		grep -q 'nothing to audit' "$TEST_TMPDIR/err" ;;
	esac
done
# gate CASE DIR COMMAND WANT: the PreToolUse hook for a Bash call of COMMAND
gate() {
	event "$2" PreToolUse ',"tool_name":"Bash","tool_input":{"command":"'"$3"'"}'
	harness "$2" sh -c "$(cat "$TEST_TMPDIR/gate.cmd")"
	check "PreToolUse $1: '$3': exit $4 (got $st)" [ "$st" = "$4" ]
}
gate "fail" "$TEST_TMPDIR/fail" "npm run dev" 2
check "PreToolUse fail: the model reads why, on stderr" \
	grep -q 'parity: 1 of 2 keys missing (B)' "$TEST_TMPDIR/err"
gate "fail" "$TEST_TMPDIR/fail" "cd web && pnpm start" 2
gate "fail" "$TEST_TMPDIR/fail" "docker compose up -d" 2
gate "fail, quotes before it" "$TEST_TMPDIR/fail" 'cd \"web app\" && npm run dev' 2
gate "fail" "$TEST_TMPDIR/fail" "docker-compose -f dev.yml up -d" 2
gate "fail, a word ending in up" "$TEST_TMPDIR/fail" "docker compose logs setup" 0
gate "fail, the fix itself" "$TEST_TMPDIR/fail" "cp .env.example .env" 0
gate "fail, another command" "$TEST_TMPDIR/fail" "npm test" 0
gate "pass" "$TEST_TMPDIR/pass" "npm run dev" 0
gate "nothing to audit" "$TEST_TMPDIR/empty" "npm run dev" 0
stdin=

# ---- Dev Containers: arrays, run without a shell
py - "$ex/devcontainer/devcontainer.json" "$TEST_TMPDIR" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("postCreateCommand", "postStartCommand"):
    assert isinstance(d[k], list) and d[k][0] == "envpreflight", k
    open(f"{sys.argv[2]}/{k}.argv", "w").write("\n".join(d[k]) + "\n")
PY
for k in postCreateCommand postStartCommand; do
	set --
	while IFS= read -r w; do set -- "$@" "$w"; done <"$TEST_TMPDIR/$k.argv"
	for r in fail pass; do
		harness "$TEST_TMPDIR/$r" "$@"
		check "devcontainer $k ($r): exit 0 (got $st)" [ "$st" = 0 ]
	done
done
harness "$TEST_TMPDIR/fail" "$@" --json
check "devcontainer postStartCommand: only the ports and compose (nothing to check here)" \
	grep -q '"outcome": "nothing-to-check"' "$TEST_TMPDIR/out"
set --

# ---- Codex: the setup script keeps a report outside the work tree
for r in fail pass empty; do
	rm -f "$TEST_TMPDIR/envpreflight.json"
	harness "$TEST_TMPDIR/$r" sh "$ex/codex/setup.sh"
	check "codex setup ($r): exit 0 (got $st)" [ "$st" = 0 ]
	check "codex setup ($r): the report is JSON" python3 -c \
		'import json, sys; json.load(open(sys.argv[1]))' "$TEST_TMPDIR/envpreflight.json"
	# and valid: run.sh checks every report kept against the schema
	[ -n "${EP_JSON_DIR:-}" ] &&
		cp "$TEST_TMPDIR/envpreflight.json" "$(mktemp "$EP_JSON_DIR/$T_NAME.XXXXXX")"
	check "codex setup ($r): the work tree is left as it was" \
		[ "$(ls -A "$TEST_TMPDIR/$r" | tr '\n' ' ')" = "$( [ $r = empty ] || echo '.env .env.example ')" ]
done
py - "$TEST_TMPDIR/envpreflight.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["outcome"] == "not-run" and d["error"]["kind"] == "nothing-to-audit", d
PY
check "codex setup (empty): nothing to audit, as the report's outcome" [ $? = 0 ]

# ---- what git makes of what a fix writes (fix.writes_git), for a
# harness that must keep the tree clean: the .env the copy writes is
# ignored where .gitignore says so, untracked where nothing does, and
# tracked where the index holds it (deleted from the work tree only);
# what git itself says is the oracle (git check-ignore, git ls-files)
if ! command -v git >/dev/null 2>&1; then
	skip "fix.writes_git: no git here to build the work trees"
else
	for kind in ignored untracked tracked; do
		g=$TEST_TMPDIR/git-$kind
		mkdir -p "$g"
		printf 'A=\n' >"$g/.env.example"
		(
			cd "$g" && export HOME="$TEST_TMPDIR/home" GIT_CONFIG_NOSYSTEM=1 \
				GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com \
				GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com &&
			git init -q . &&
			case $kind in
			ignored) printf '.env\n' >.gitignore ;;
			tracked) printf 'A=1\n' >.env && git add .env && git commit -qm env && rm .env ;;
			esac
		) || not_ok "fix.writes_git ($kind): git could not build the tree"
		ep --json --only=env "$g" >"$TEST_TMPDIR/wg-$kind.json"
		[ -n "${EP_JSON_DIR:-}" ] && cp "$TEST_TMPDIR/wg-$kind.json" "$EP_JSON_DIR/agents-wg-$kind.json"
		got=$(py - "$TEST_TMPDIR/wg-$kind.json" <<'PY'
import json, sys
for c in json.load(open(sys.argv[1]))["checks"]:
    f = c.get("fix") or {}
    if f.get("argv") == ["cp", ".env.example", ".env"]:
        print(f["writes"], f["writes_git"])
PY
)
		oracle=$(cd "$g" && if git ls-files --error-unmatch .env >/dev/null 2>&1; then echo tracked
			elif git check-ignore -q .env; then echo ignored; else echo untracked; fi)
		check "fix.writes_git ($kind): git says $oracle, the fix says $got" \
			[ "$got|$oracle" = "['.env'] ['$kind']|$kind" ]
	done
fi
finish
