#!/bin/sh
# init.sh - `envpreflight init`: the file it writes loads back to the same
# checks with the same verdicts on every golden fixture repository; hostile
# text round-trips; --stdout, --force, --format=json, --snapshot; a
# directory it cannot write leaves nothing behind.
. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
rt=$TEST_TMPDIR/rt
mkdir -p "$rt"

# same FILE_BEFORE FILE_AFTER: the checks (id, status, and a runtime's
# requirement text) and the outcome are the same
same() {
	py - "$1" "$2" <<'EOF'
import json, sys
def checks(f):
    d = json.load(open(f))
    return d["outcome"], [(c["id"], c["status"], (c.get("data") or {}).get("required"))
                          for c in d["checks"]]
a, b = checks(sys.argv[1]), checks(sys.argv[2])
if a != b:
    print("  before:", a)
    print("  after: ", b)
    sys.exit(1)
EOF
}

# ---- the round trip on every golden repository ----
for dir in "$top"/tests/cases/*/; do
	name=$(basename "$dir")
	[ -d "$dir/repo" ] || continue
	envs=
	[ -f "$dir/env" ] && envs=$(sed -e "s#<TOP>#$top#g" "$dir/env")
	set --
	if [ -f "$dir/args" ]; then
		while IFS= read -r a; do
			case $a in --only=*|--skip=*) set -- "$@" "$a" ;; esac
		done <"$dir/args"
	fi
	copy=$rt/$name
	cp -a "$dir/repo" "$copy"
	(cd "$copy" && EP_ENV="$envs" ep --json "$@" .) >"$rt/$name.before" 2>/dev/null
	sb=$?
	old=$(cat "$copy/preflight.yaml" 2>/dev/null)
	(cd "$copy" && EP_ENV="$envs" ep_run init --force .) >"$rt/$name.init" 2>&1
	si=$?
	if [ "$sb" = 2 ] && [ "$name" != nothing ]; then
		# a repository that cannot be audited cannot be described either
		check "$name: init fails as the audit does (exit $si)" [ "$si" = 2 ]
		check "$name: nothing written" [ "$(cat "$copy/preflight.yaml" 2>/dev/null)" = "$old" ]
		continue
	fi
	check "$name: init writes (exit $si): $(cat "$rt/$name.init")" [ "$si" = 0 ]
	(cd "$copy" && EP_ENV="$envs" ep --json "$@" .) >"$rt/$name.after" 2>"$rt/$name.err"
	sa=$?
	if [ "$name" = nothing ]; then
		# nothing to audit before; a preflight.yaml with nothing in it after
		check "nothing: the written file loads, with no check (exit $sa)" \
			sh -c 'grep -q "\"outcome\": \"nothing-to-check\"" "$1"' _ "$rt/$name.after"
		continue
	fi
	check "$name: the written file loads (exit $sa, was $sb): $(cat "$rt/$name.err")" [ "$sa" = "$sb" ]
	check "$name: the same checks and verdicts" same "$rt/$name.before" "$rt/$name.after"
	ls -a "$copy" | grep -q 'init-.*\.tmp' && not_ok "$name: a temporary file was left"
done

# ---- hostile text round-trips ----
repo=$rt/hostile
mkdir -p "$repo"
# every kind of text YAML could misread, in a value: comment marks, quotes,
# a backslash, a tab, a newline, NEL, LS and PS, a BOM, an escape, DEL
py - "$repo/preflight.yaml" <<'EOF'
import json, sys
texts = {
    "node": ">=20 <23",
    "colon": "1: #2",
    "quotes": "\"'`",
    "back": "a\\b\\\\",
    "lines": "a\tb\nc\x85d\u2028e\u2029f",
    "marks": "\ufeffx\x1b[31my\x7fz",
    "null": "null",
    "tilde": "~",
    "empty": "",
}
with open(sys.argv[1], "w", encoding="utf-8") as f:
    f.write("version: 1\nruntimes:\n")
    for k, v in texts.items():
        f.write(f"  {k}: {json.dumps(v)}\n")
    f.write('  "c++":\n    version: "#1"\n    command: ["c++", "--version", "a: b #c"]\n'
            '    version_regex: "v([0-9.]+) \\\\d"\n')
    f.write("tools: [\"true\", \"null\", \"1.5\"]\nenv:\n  file: \"\\e]0;x\\a.env\"\n"
            "  required: [\"yes\", \"No\", \"x.y-z\"]\n  optional: [\"1.5\"]\n"
            "  process_env: false\nports:\n  free: [1]\n  listening: [65535]\n"
            "timeout_ms: 1234\n")
EOF
# and in the files that stay comments
printf '{"engines": {"node": "1\\n2: #3 \\u2028 x"}}\n' >"$repo/package.json"
(cd "$repo" && EP_ENV="PATH=/nonexistent" ep --json .) >"$rt/hostile.before" 2>&1
check "hostile: the fixture loads ($?)" [ $? -le 1 ]
cp "$repo/preflight.yaml" "$rt/hostile.orig"
(cd "$repo" && ep_run init --force .) >/dev/null 2>&1
check "hostile: init writes" [ $? = 0 ]
(cd "$repo" && EP_ENV="PATH=/nonexistent" ep --json .) >"$rt/hostile.after" 2>&1
check "hostile: the same checks and requirement texts" same "$rt/hostile.before" "$rt/hostile.after"
py - "$repo" "$rt/hostile.orig" <<'EOF'
import sys
text = open(sys.argv[1] + "/preflight.yaml", encoding="utf-8").read()
bad = [c for c in text if (ord(c) < 32 and c != "\n") or 0x7f <= ord(c) < 0xa0
       or c in "\u2028\u2029\ufeff"]
if bad:
    print("  control or break characters in the file:", [hex(ord(c)) for c in bad])
    sys.exit(1)
# the comment on package.json must stay one comment line
for line in text.splitlines():
    if "2: #3" in line and not line.lstrip().startswith("#"):
        print("  repository text outside a comment:", line)
        sys.exit(1)
EOF
check "hostile: only printable text, comments stay comments" [ $? = 0 ]
# a second init reads the file the first wrote: the same text again
(cd "$repo" && ep_run init --stdout .) >"$rt/hostile.again"
sed 's/  # kept from .*//' "$repo/preflight.yaml" >"$rt/hostile.norm1"
sed 's/  # kept from .*//' "$rt/hostile.again" >"$rt/hostile.norm2"
check "hostile: init of its own file is stable" cmp -s "$rt/hostile.norm1" "$rt/hostile.norm2"

# ---- --stdout, --force, the name in use ----
repo=$rt/opts
mkdir -p "$repo"
printf 'A=\n' >"$repo/.env.example"
(cd "$repo" && ep_run init --stdout) >"$rt/opts.out"
check "--stdout: printed" grep -q '^version: 1$' "$rt/opts.out"
check "--stdout: nothing written" [ ! -e "$repo/preflight.yaml" ]
(cd "$repo" && ep_run init) >"$rt/opts.msg"
check "init: written" cmp -s "$repo/preflight.yaml" "$rt/opts.out"
check "init: says so" grep -q '^wrote preflight.yaml: ' "$rt/opts.msg"
echo "# mine" >>"$repo/preflight.yaml"
cp "$repo/preflight.yaml" "$rt/opts.mine"
(cd "$repo" && ep_run init) >/dev/null 2>"$rt/opts.err"
check "exists: exit 2" [ $? = 2 ]
check "exists: says --force" grep -q "preflight.yaml exists: --force replaces it" "$rt/opts.err"
check "exists: untouched" cmp -s "$repo/preflight.yaml" "$rt/opts.mine"
(cd "$repo" && ep_run init --force) >/dev/null
check "--force: replaced" cmp -s "$repo/preflight.yaml" "$rt/opts.out"
mv "$repo/preflight.yaml" "$repo/.preflight.yaml"
(cd "$repo" && ep_run init --force) >/dev/null
check "--force: the dot name in use is the one written" \
	sh -c '[ -f "$1/.preflight.yaml" ] && [ ! -e "$1/preflight.yaml" ]' _ "$repo"
ep_run init --bogus >/dev/null 2>&1
check "an unknown option: exit 2" [ $? = 2 ]
ep_run init "$rt/no-such-dir" >/dev/null 2>&1
check "a missing directory: exit 2" [ $? = 2 ]

# ---- --format=json ----
repo=$rt/json
cp -a "$top/tests/cases/ports-fixture/repo" "$repo"
rm "$repo/preflight.yaml"
(cd "$repo" && ep_run init --format=json) >"$rt/json.out"
check "json: exit 0" [ $? = 0 ]
py - "$rt/json.out" "$repo/preflight.yaml" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "envpreflight-init/1" and d["ok"] is True and d["error"] is None, d
assert d["file"] == "preflight.yaml", d["file"]
assert d["content"] == open(sys.argv[2], encoding="utf-8").read()
got = {(e["file"], e["line"], e["source"], e["entry"], e["written"]) for e in d["derived_from"]}
for want in [("docker-compose.yml", 10, "compose", "ports", "comment"),
             (".env", 1, "env-url", "ports", "comment")]:
    assert want in got, (want, sorted(got))
EOF
check "json: the document, and derived_from names files and lines" [ $? = 0 ]
(cd "$repo" && ep_run init --json) >"$rt/json.err.out" 2>/dev/null
check "json: exists is exit 2" [ $? = 2 ]
py -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["ok"] is False and d["error"]["kind"] == "exists" and d["content"] is None, d' "$rt/json.err.out"
check "json: exists is an error document" [ $? = 0 ]

# ---- --snapshot ----
fx=$top/tests/fixtures/runtimes
repo=$rt/snap
cp -a "$top/tests/cases/runtimes-pass/repo" "$repo"
snapenv="PATH=$fx/pass XDG_CACHE_HOME=/dev/null/no-cache ENVPREFLIGHT_TODAY=2026-11-30"
(cd "$repo" && EP_ENV="$snapenv" ep --json .) >"$rt/snap.before"
(cd "$repo" && EP_ENV="$snapenv" ep_run init --snapshot --force .) >/dev/null
check "snapshot: written" [ $? = 0 ]
check "snapshot: node pinned to its line" grep -q '^  node: ">=22.11.0 <23"  # --snapshot: 22.11.0' "$repo/preflight.yaml"
check "snapshot: python to its minor line" grep -q '^  python: ">=3.12.4,<3.13"' "$repo/preflight.yaml"
check "snapshot: no path of this machine in the file" sh -c '! grep -q "$1" "$2"' _ "$fx" "$repo/preflight.yaml"
(cd "$repo" && EP_ENV="$snapenv" ep --json .) >"$rt/snap.after"
py - "$rt/snap.before" "$rt/snap.after" <<'EOF'
import json, sys
b = {c["id"]: c["status"] for c in json.load(open(sys.argv[1]))["checks"]}
a = {c["id"]: c["status"] for c in json.load(open(sys.argv[2]))["checks"]}
pins = {k: v for k, v in a.items() if k not in b}
assert {k for k in b} <= set(a) and all(a[k] == b[k] for k in b), (b, a)
assert sorted(pins) == ["runtime.go.preflight", "runtime.node.preflight", "runtime.npm.preflight",
                        "runtime.pnpm.preflight", "runtime.python.preflight"], sorted(pins)
assert set(pins.values()) == {"pass"}, pins
EOF
check "snapshot: the earlier checks unchanged, every pin passes here" [ $? = 0 ]
repo=$rt/snap-none
cp -a "$top/tests/cases/runtimes-pass/repo" "$repo"
(cd "$repo" && EP_ENV="PATH=$fx/none XDG_CACHE_HOME=/dev/null/no-cache" ep_run init --snapshot --stdout .) >"$rt/snap.none"
check "snapshot: a runtime not found is a comment" grep -q '^#   node: not found on PATH' "$rt/snap.none"

# ---- a directory that cannot be written: nothing half-written ----
repo=$rt/ro
mkdir -p "$repo"
printf 'A=\n' >"$repo/.env.example"
# a file size limit of 0: the write itself fails (as root too); stderr
# through a pipe, which the limit does not bind
(
	cd "$repo" || exit
	trap '' XFSZ
	err=$(sh -c 'ulimit -f 0; exec "$@"' _ env -i PATH=/usr/bin:/bin \
		HOME="$TEST_TMPDIR/home" "$EP_BIN" init 2>&1 >/dev/null)
	echo $? >"$rt/ro.st"
	printf '%s\n' "$err" >"$rt/ro.err"
)
st=$(cat "$rt/ro.st")
check "write fails: exit 2 (got $st)" [ "$st" = 2 ]
check "write fails: says so: $(cat "$rt/ro.err")" grep -q "cannot write preflight.yaml in" "$rt/ro.err"
check "write fails: nothing left" [ "$(ls -A "$repo")" = ".env.example" ]
if [ "$(id -u)" != 0 ]; then
	chmod 555 "$repo"
	(cd "$repo" && ep_run init) >/dev/null 2>"$rt/ro.err"
	st=$?
	chmod 755 "$repo"
	check "read-only directory: exit 2 (got $st)" [ "$st" = 2 ]
	check "read-only directory: says so" grep -q "cannot create a file in" "$rt/ro.err"
	check "read-only directory: nothing left" [ "$(ls -A "$repo")" = ".env.example" ]
else
	skip "the read-only directory: root writes it anyway (the file size limit covers the write error)"
fi
# an existing preflight.yaml that does not load: init --force says why, keeps it
repo=$rt/broken
mkdir -p "$repo"
printf 'version: 1\nportz: {}\n' >"$repo/preflight.yaml"
(cd "$repo" && ep_run init --force) >/dev/null 2>"$rt/broken.err"
check "broken: exit 2" [ $? = 2 ]
check "broken: names file:line" grep -q "preflight.yaml:2:1: unknown key 'portz'" "$rt/broken.err"
check "broken: kept" grep -q portz "$repo/preflight.yaml"
finish
