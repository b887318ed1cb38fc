#!/bin/sh
# tap.sh - --format=tap is TAP 14 that a TAP 14 parser (tap-parser, node-tap's,
# in strict mode, from tests/tap/node_modules when make deps could install
# it) reads to the same verdicts as the JSON report, hostile text escaped;
# --format=tap13 is the same stream announced as version 13, which prove
# (Test::Harness) runs as a harness and TAP::Parser reads without a parse
# error, YAML diagnostics included.
. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
parser=$top/tests/tap
lacks() { ! grep -q "$1" "$2"; }

# A repository whose text carries TAP's metacharacters: the example file
# (named in the message and the source of the parity check, which warns:
# B is still empty) holds '#', '\', '"' and "# SKIP", which must neither
# start a directive nor be lost; a tool that is missing fails.
repo=$TEST_TMPDIR/repo
mkdir -p "$repo"
ex='ex#am\ple # SKIP "q".env'
printf 'A=\nB=\n' >"$repo/$ex"
printf 'A=1\nB=\n' >"$repo/.env"
printf 'version: 1\nenv:\n  example: "ex#am\\\\ple # SKIP \\"q\\".env"\ntools: [sh, no-such-tool-xyz]\n' \
	>"$repo/preflight.yaml"
ep --json "$repo" >"$TEST_TMPDIR/r.json"
check "fixture: the audit runs (exit 1)" [ $? = 1 ]
ep --format=tap "$repo" >"$TEST_TMPDIR/r.tap"
check "tap: exit 1, as every format" [ $? = 1 ]
ep --format=tap13 "$repo" >"$TEST_TMPDIR/r13.tap"
check "tap13: exit 1" [ $? = 1 ]
check "tap: the first line is TAP version 14" [ "$(head -n 1 "$TEST_TMPDIR/r.tap")" = "TAP version 14" ]
sed '1s/^TAP version 14$/TAP version 13/' "$TEST_TMPDIR/r.tap" >"$TEST_TMPDIR/r14as13.tap"
check "tap13 is the TAP 14 stream with the version line of 13" \
	cmp -s "$TEST_TMPDIR/r14as13.tap" "$TEST_TMPDIR/r13.tap"
check "tap: the '#' of the repository's text is escaped" \
	grep -qF 'ex\#am\\ple \# SKIP "q".env' "$TEST_TMPDIR/r.tap"

# the verdicts of a stream as JSON, read by the JSON report's rules:
# python3 compare.py PARSED.json REPORT.json [strict]
cat >"$TEST_TMPDIR/compare.py" <<'EOF'
import json, sys
tap = json.load(open(sys.argv[1]))
rep = json.load(open(sys.argv[2]))
strict = len(sys.argv) > 3
errs = []
def want(cond, what):
    if not cond:
        errs.append(what)
want(tap["version"] == 14, "version %r" % tap["version"])
want(not tap["failures"], "parse errors: %r" % tap["failures"])
want(not tap["extra"], "lines that are not TAP: %r" % tap["extra"])
want(tap["count"] == len(rep["checks"]), "count %r" % tap["count"])
want(tap["ok"] == rep["ok"], "ok %r, JSON %r" % (tap["ok"], rep["ok"]))
want(tap["plan"]["start"] == 1 and tap["plan"]["end"] == len(rep["checks"]), "plan")
for a, c in zip(tap["asserts"], rep["checks"]):
    bad = c["status"] in ("fail", "error") or (strict and c["status"] == "warn")
    want(a["ok"] == (not bad), "%s: ok %r for %s" % (c["id"], a["ok"], c["status"]))
    if c["status"] == "skip":
        want(a["name"] == c["title"] and a["skip"] == c["message"],
             "%s: skip %r %r" % (c["id"], a["name"], a["skip"]))
        continue
    want(a["skip"] is False, "%s: not a skip" % c["id"])
    want(a["name"] == c["title"] + ": " + c["message"], "%s: name %r" % (c["id"], a["name"]))
    if c["status"] == "pass":
        want(a["diag"] is None, "%s: a pass has no diagnostic" % c["id"])
        continue
    d = a["diag"] or {}
    want(d.get("id") == c["id"] and d.get("status") == c["status"] and
         d.get("message") == c["message"] and d.get("hint") == c["hint"] and
         d.get("probe") == c["probe"], "%s: diagnostic %r" % (c["id"], d))
    src = c["source"]
    if src:
        at = d.get("at", {})
        want(at.get("file") == src["file"] and at.get("line") == src.get("line"),
             "%s: at %r, source %r" % (c["id"], at, src))
if errs:
    print("\n".join(errs))
sys.exit(1 if errs else 0)
EOF

if [ -d "$parser/node_modules/tap-parser" ] && command -v node >/dev/null; then
	tp() { node "$parser/parse.mjs"; }
	tp <"$TEST_TMPDIR/r.tap" >"$TEST_TMPDIR/r.parsed"
	check "tap-parser: the stream reads as the JSON report: $(python3 "$TEST_TMPDIR/compare.py" \
		"$TEST_TMPDIR/r.parsed" "$TEST_TMPDIR/r.json" | tr '\n' ';')" \
		python3 "$TEST_TMPDIR/compare.py" "$TEST_TMPDIR/r.parsed" "$TEST_TMPDIR/r.json"
	check "tap-parser: the example's name comes back whole" \
		grep -qF 'matched to ex#am\\ple # SKIP \"q\".env' "$TEST_TMPDIR/r.parsed"
	# --strict: a warning is "not ok"; the golden case's fixture warns
	ports=$top/tests/cases/ports-stack/repo
	for strict in "" --strict; do
		EP_ENV="ENVPREFLIGHT_PROC_ROOT=$top/tests/fixtures/proc/stack" \
			ep --json $strict --only=ports "$ports" >"$TEST_TMPDIR/w.json"
		EP_ENV="ENVPREFLIGHT_PROC_ROOT=$top/tests/fixtures/proc/stack" \
			ep --format=tap $strict --only=ports "$ports" | tp >"$TEST_TMPDIR/w.parsed"
		check "tap-parser $strict: warnings read as the JSON report says: $(python3 \
			"$TEST_TMPDIR/compare.py" "$TEST_TMPDIR/w.parsed" "$TEST_TMPDIR/w.json" $strict | tr '\n' ';')" \
			python3 "$TEST_TMPDIR/compare.py" "$TEST_TMPDIR/w.parsed" "$TEST_TMPDIR/w.json" $strict
	done
	check "the fixture has warnings" grep -q '"status": "warn"' "$TEST_TMPDIR/w.json"
	# the audit could not run: Bail out!, the reason escaped and whole
	bad=$TEST_TMPDIR/bad
	mkdir -p "$bad"
	printf 'version: 1\nenv:\n  "a#b\\\\c": 1\n' >"$bad/preflight.yaml"
	ep --format=tap "$bad" 2>/dev/null | tp >"$TEST_TMPDIR/b.parsed"
	check "tap-parser: an audit that cannot run bails out, not ok" python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))
sys.exit(0 if t["ok"] is False and "a#b\\c" in (t["bailout"] or "") and not t["failures"] else 1)' \
		"$TEST_TMPDIR/b.parsed"
	# nothing to check: a skipped plan, which passes
	ep --format=tap --only=tools "$top/tests/cases/env-mixed-json/repo" | tp >"$TEST_TMPDIR/n.parsed"
	check "tap-parser: nothing to check is 1..0, skipped, ok" python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))
sys.exit(0 if t["ok"] and t["plan"]["skipAll"] and t["count"] == 0 and not t["failures"] else 1)' \
		"$TEST_TMPDIR/n.parsed"
else
	echo "note: tests/tap/node_modules is missing (make deps installs it with npm ci;" \
	     "offline it cannot): the TAP 14 parser test is skipped"
fi

# prove, the harness of Test::Harness, on tap13; TAP::Parser on the same
# stream for the details (no parse error, the YAML read back)
if command -v prove >/dev/null && perl -MTAP::Parser -e 1 2>/dev/null; then
	(cd "$TEST_TMPDIR" && prove -e cat r13.tap) >"$TEST_TMPDIR/prove.out" 2>&1
	check "prove: a failed check fails the run" [ $? != 0 ]
	check "prove: names the failed tests: $(tr '\n' ';' <"$TEST_TMPDIR/prove.out")" \
		grep -q 'Failed test: *4$' "$TEST_TMPDIR/prove.out"
	check "prove: no parse error" lacks "Parse errors" "$TEST_TMPDIR/prove.out"
	cat >"$TEST_TMPDIR/read.pl" <<'EOF'
# TAP::Parser over a file: the parse errors, and every test with its
# YAML diagnostic as JSON (JSON::PP is in perl's core)
use strict; use warnings; use TAP::Parser; use JSON::PP;
open my $fh, '<:raw', $ARGV[0] or die;
my $p = TAP::Parser->new({ source => do { local $/; <$fh> } });
my (@t, $last);
while (my $r = $p->next) {
	if ($r->is_test) { $last = { ok => $r->is_ok ? 1 : 0, skip => $r->has_skip ? 1 : 0,
	                             desc => $r->description }; push @t, $last; }
	elsif ($r->is_yaml) { $last->{diag} = $r->data; }
}
print JSON::PP->new->canonical->encode({ errors => [$p->parse_errors],
	version => $p->version, planned => $p->tests_planned, tests => \@t });
EOF
	perl "$TEST_TMPDIR/read.pl" "$TEST_TMPDIR/r13.tap" >"$TEST_TMPDIR/p13.json"
	check "TAP::Parser: tap13 reads as the JSON report" python3 -c '
import json, sys
p = json.load(open(sys.argv[1])); rep = json.load(open(sys.argv[2]))
ok = p["errors"] == [] and p["version"] == 13 and p["planned"] == len(rep["checks"])
for t, c in zip(p["tests"], rep["checks"]):
    ok = ok and t["ok"] == (c["status"] not in ("fail", "error"))
    ok = ok and t["skip"] == (c["status"] == "skip")
    if c["status"] not in ("pass", "skip"):
        d = t.get("diag") or {}
        ok = ok and d.get("id") == c["id"] and d.get("message") == c["message"]
        ok = ok and d.get("at", {}).get("file") == c["source"]["file"]
sys.exit(0 if ok else 1)' "$TEST_TMPDIR/p13.json" "$TEST_TMPDIR/r.json"
	# a clean run passes under prove; nothing to check is a skip, which passes
	ok_repo=$TEST_TMPDIR/ok
	mkdir -p "$ok_repo"
	printf 'version: 1\ntools: [sh]\n' >"$ok_repo/preflight.yaml"
	ep --format=tap13 "$ok_repo" >"$TEST_TMPDIR/ok.tap"
	(cd "$TEST_TMPDIR" && prove -e cat ok.tap) >"$TEST_TMPDIR/prove-ok.out" 2>&1
	check "prove: a clean run passes: $(tr '\n' ';' <"$TEST_TMPDIR/prove-ok.out")" [ $? = 0 ]
	ep --format=tap13 --only=tools "$top/tests/cases/env-mixed-json/repo" >"$TEST_TMPDIR/none.tap"
	(cd "$TEST_TMPDIR" && prove -e cat none.tap) >"$TEST_TMPDIR/prove-none.out" 2>&1
	check "prove: nothing to check is skipped, and passes" [ $? = 0 ]
	check "prove: says skipped" grep -q 'skipped' "$TEST_TMPDIR/prove-none.out"
	ep --format=tap13 "$TEST_TMPDIR/bad" >"$TEST_TMPDIR/bad.tap" 2>/dev/null
	(cd "$TEST_TMPDIR" && prove -e cat bad.tap) >"$TEST_TMPDIR/prove-bad.out" 2>&1
	check "prove: an audit that cannot run bails out" [ $? != 0 ]
	check "prove: says so" grep -q 'Bailout called' "$TEST_TMPDIR/prove-bad.out"
else
	not_ok "prove and TAP::Parser are missing (apt-get install perl)"
fi
finish
