#!/bin/sh
# contract.sh - the harness contract of envpreflight/1 (issue 9): one report
# on every exit in the format asked for, "ok": null and an error object of
# each kind for exit 2, JUnit and GitHub errors, the run block (where each
# option came from), --no-config, the repository's deadline clamped,
# --only/--skip that leave nothing, --list-probes --format=json, --schema.
# Every JSON report here is also validated against the schema (tests/run.sh).
. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
repo=$TEST_TMPDIR/repo
mkdir -p "$repo"
printf 'A=\n' >"$repo/.env.example"
printf 'A=1\n' >"$repo/.env"
out=$TEST_TMPDIR/out
err=$TEST_TMPDIR/err
run() { ep "$@" >"$out" 2>"$err"; st=$?; }
# json_has PATTERN: a line of the report matches (fixed string)
json_has() { grep -qF -- "$1" "$out"; }

# expect_error KIND DESCRIPTION ARGS...: exit 2, one JSON report with
# "ok": null, outcome not-run, error.kind KIND, and the message on stderr
expect_error() {
	kind=$1 d=$2
	shift 2
	run "$@"
	check "$d: exit 2 (got $st)" [ "$st" = 2 ]
	check "$d: ok is null" json_has '"ok": null,'
	check "$d: outcome not-run" json_has '"outcome": "not-run",'
	check "$d: error.kind $kind" json_has "\"kind\": \"$kind\","
	check "$d: no checks" json_has '"checks": [],'
	check "$d: the message on stderr too" grep -q '^envpreflight: ' "$err"
}

expect_error usage "unknown option" --json --bogus "$repo"
expect_error usage "a usage error before --json" --bogus --json "$repo"
expect_error usage "bad format value after --json" --json -t soon "$repo"
expect_error usage "--only and --skip leave nothing" --json --only=env --skip=env "$repo"
check "--only/--skip: says so" grep -q 'leave no probe to run' "$err"
expect_error usage "zero timeout" --format=json --timeout=0 "$repo"
expect_error usage "negative timeout" --format json --timeout=-5 "$repo"
mkdir -p "$TEST_TMPDIR/empty"
expect_error nothing-to-audit "no spec file" --json "$TEST_TMPDIR/empty"
expect_error repo-unreadable "no such directory" --json "$TEST_TMPDIR/nope"
bad=$TEST_TMPDIR/bad
mkdir -p "$bad"
printf 'version: 1\nports:\n  free: nope\n' >"$bad/preflight.yaml"
expect_error spec-invalid "bad preflight.yaml" --json "$bad"
check "spec-invalid: file" json_has '"file": "preflight.yaml",'
check "spec-invalid: line" json_has '"line": 3,'
check "spec-invalid: column" json_has '"column": 9,'
check "spec-invalid: message without the prefix" \
	grep -q '"message": "'"'"'ports.free'"'"' expects' "$out"
unread=$TEST_TMPDIR/unread
mkdir -p "$unread/package.json"
expect_error spec-unreadable "a spec file that is a directory" --json "$unread"
check "spec-unreadable: file" json_has '"file": "package.json",'

# JUnit: one errored test case; GitHub: one ::error with the place
run --format=junit "$bad"
check "junit: exit 2" [ "$st" = 2 ]
check "junit: an errored test case" grep -q '<error type="spec-invalid" message="preflight.yaml:3:9: ' "$out"
check "junit: counted as an error" grep -q 'tests="1" failures="0" errors="1"' "$out"
if command -v xmllint >/dev/null 2>&1; then
	check "junit: valid against the schema" \
		xmllint --noout --schema "$top/tests/integration/junit.xsd" "$out" 2>/dev/null
fi
run --format=github "$bad"
check "github: exit 2" [ "$st" = 2 ]
check "github: one ::error at the place" \
	grep -q '^::error file=[^,]*bad/preflight.yaml,line=3,col=9,title=envpreflight spec-invalid::' "$out"
run "$bad"
check "human: nothing on stdout" [ ! -s "$out" ]

# the user's config.ini: a bad value is config-invalid naming file:line,
# --no-config the way out; a good one is named in run.options
cfgdir=$TEST_TMPDIR/xdg/envpreflight
mkdir -p "$cfgdir"
printf '[defaults]\nstrict = true\ntimeout = soon\n' >"$cfgdir/config.ini"
expect_error config-invalid "bad config.ini" --json "$repo"
check "config-invalid: line" json_has '"line": 3,'
check "config-invalid: the way out" grep -q -- '--no-config ignores it' "$err"
run --json --no-config "$repo"
check "--no-config: runs (got $st)" [ "$st" = 0 ]
check "--no-config: config ignored" json_has '"ignored": true'
printf '; mine\n[defaults]\n\nstrict = true\ntimeout = 4000\nformat = json\n' >"$cfgdir/config.ini"
run "$repo"
check "config format json used" json_has '"schema": "envpreflight/1"'
check "config: format from config.ini:6" json_has "\"from\": \"$cfgdir/config.ini:6\""
check "config: strict from config.ini:4" json_has "\"from\": \"$cfgdir/config.ini:4\""
check "config: timeout 4000 from config.ini:5" sh -c \
	"grep -A1 '\"value\": 4000' '$out' | grep -q 'config.ini:5'"
check "config: the file named" json_has "\"file\": \"$cfgdir/config.ini\""
run --format=human "$repo"
check "the command line wins over config.ini" grep -q 'parity' "$out"
rm -f "$cfgdir/config.ini"

# the repository's deadline: used up to 30 s, clamped beyond, the command
# line wins
printf 'version: 1\ntimeout_ms: 600000\n' >"$repo/preflight.yaml"
run --json "$repo"
check "600000 from the repo: clamped to 30000" sh -c \
	"grep -A1 '\"value\": 30000' '$out' | grep -q 'preflight.yaml:2'"
check "clamp: a note in run.notes" json_has 'timeout_ms 600000 from preflight.yaml:2 clamped to 30000'
printf 'version: 1\ntimeout_ms: 1500\n' >"$repo/preflight.yaml"
run --json "$repo"
check "1500 from the repo: used" sh -c \
	"grep -A1 '\"value\": 1500' '$out' | grep -q 'preflight.yaml:2'"
run --json --timeout=45000 "$repo"
check "the command line goes beyond 30 s" sh -c \
	"grep -A1 '\"value\": 45000' '$out' | grep -q 'command line'"
rm -f "$repo/preflight.yaml"
run --json "$repo"
check "default timeout" sh -c "grep -A1 '\"value\": 3000' '$out' | grep -q '\"default\"'"
check "files_read" sh -c "grep -A2 'files_read' '$out' | grep -q '\".env.example\"'"
check "path_set" json_has '"path_set": true'
check "outcome passed, ok true" sh -c "grep -q '\"ok\": true' '$out' && grep -q '\"outcome\": \"passed\"' '$out'"
run --json --only=tools "$repo"
check "nothing to check: exit 0, outcome nothing-to-check" \
	sh -c "[ $st = 0 ] && grep -q '\"outcome\": \"nothing-to-check\"' '$out'"
printf 'OTHER=1\n' >"$repo/.env"	# A missing (an empty A, empty in the example too, only warns)
run --json "$repo"
check "a failed check: ok false, outcome failed" \
	sh -c "grep -q '\"ok\": false' '$out' && grep -q '\"outcome\": \"failed\"' '$out'"
printf 'A=1\n' >"$repo/.env"

# fix as data: argv words are only ever validated values; hostile text
# from the repository (a compose service name, a version) never reaches
# an argv, and the checks whose remedy is known carry one.  The ports are
# read from a fixture /proc where nothing listens (what listens on this
# machine is not the subject), and what a shell would do is to touch a
# file of this run's own.
hostile=$TEST_TMPDIR/hostile
pwned=$TEST_TMPDIR/PWNED
mkdir -p "$hostile"
cat >"$hostile/compose.yaml" <<EOF2
services:
  "db;touch $pwned":
    ports: ["7419:5432"]
  "-rm":
    ports: ["7420:5432"]
  cache:
    ports: ["7421:6379"]
EOF2
printf 'A_URL=postgres://localhost:7419/x\nB_URL=postgres://localhost:7420/x\nC_URL=redis://localhost:7421\n' >"$hostile/.env"
printf '{"engines": {"node": "$(touch %s) || >=20"}}\n' "$pwned" >"$hostile/package.json"
printf 'v20; rm -rf ~\n' >"$hostile/.nvmrc"
printf 'K=\n' >"$hostile/.env.example"
EP_ENV="ENVPREFLIGHT_PROC_ROOT=$top/tests/fixtures/proc/idle" run --json --only=ports,runtimes,env "$hostile"
py - "$out" >"$TEST_TMPDIR/argv.txt" <<'EOF2'
import json, re, sys
doc = json.load(open(sys.argv[1]))
for c in doc["checks"]:
    f = c["fix"]
    if f and f["argv"]:
        print(c["id"], " ".join(f["argv"]))
        for w in f["argv"]:
            assert re.fullmatch(r"[A-Za-z0-9._/@:=+,-]{1,200}", w), w
            assert "PWNED" not in w and "rm" != w, w
EOF2
check "hostile: every argv word is a validated value" [ $? = 0 ]
check "hostile: the safe service gets docker compose up" \
	grep -q '^ports.tcp.7421 docker compose up -d cache$' "$TEST_TMPDIR/argv.txt"
check "hostile: no argv for a service named with a shell character" \
	sh -c "! grep -q '^ports.tcp.7419 ' '$TEST_TMPDIR/argv.txt'"
check "hostile: no argv for a service named like an option" \
	sh -c "! grep -q '^ports.tcp.7420 ' '$TEST_TMPDIR/argv.txt'"
check "hostile: a bad range is a human edit" py -c "
import json, sys
d = json.load(open(sys.argv[1]))
c = [c for c in d['checks'] if c['id'] == 'runtime.node.engines'][0]
assert c['reason'] == 'invalid-requirement', c['reason']
assert c['fix']['who'] == 'human' and c['fix']['edit']['file'] == 'package.json', c['fix']
" "$out"
check "hostile: nothing was run" [ ! -e "$pwned" ]

# --list-probes --format=json, --schema
run --list-probes --format=json
check "--list-probes json: schema" json_has '"schema": "envpreflight-probes/1"'
check "--list-probes json: id patterns" json_has '"ports.tcp.PORT"'
check "--list-probes json: valid JSON" py -c \
	"import json,sys; d=json.load(open(sys.argv[1])); assert all(p['ids'] for p in d['probes'])" "$out"
# the schema's id grammar ($defs/id, written by hand) admits every id
# pattern of the registry, its words in capitals filled in as CHECK IDS
# says (PORT 5432, LAST 5433, KEY DB_URL, NAME node, SOURCE engines, N 2,
# FILE requirements.txt), bare and with a workspace's prefix
check "--list-probes json: every id pattern fits the schema's \$defs/id" py -c '
import json, re, sys
pattern = json.load(open(sys.argv[2]))["$defs"]["id"]["pattern"]
fill = {"PORT": "5432", "LAST": "5433", "KEY": "DB_URL", "NAME": "node",
        "SOURCE": "engines", "N": "2", "FILE": "requirements.txt"}
bad = []
for p in json.load(open(sys.argv[1]))["probes"]:
    for i in p["ids"]:
        id = re.sub(r"[A-Z]+", lambda m: fill.get(m.group(0), m.group(0)), i)
        for full in (id, "apps/web:" + id):
            if not re.search(pattern, full):
                bad.append(full)
print(" ".join(bad))
sys.exit(1 if bad else 0)' "$out" "$top/src/schema/envpreflight-1.schema.json"
run --schema
check "--schema: the schema file" cmp "$out" "$top/src/schema/envpreflight-1.schema.json"
finish
