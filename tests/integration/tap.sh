#!/bin/sh
# tap.sh - --format=tap is TAP 14 that a TAP 14 parser (tap-parser, node-tap's,
# in strict mode, from tests/tap/node_modules when make deps could install
# it) reads to the same verdicts as the JSON report, hostile text escaped;
# prove (Test::Harness) runs both --format=tap and --format=tap13 (the same
# stream announced as version 13) as a harness, and TAP::Parser reads them
# to the JSON report's verdicts, YAML diagnostics included.
. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
parser=$top/tests/tap

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

# a repository whose audit cannot run: its preflight.yaml has an unknown
# key, with TAP's metacharacters in it
bad=$TEST_TMPDIR/bad
mkdir -p "$bad"
printf 'version: 1\nenv:\n  "a#b\\\\c": 1\n' >"$bad/preflight.yaml"

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
	ep --format=tap "$bad" 2>/dev/null | tp >"$TEST_TMPDIR/b.parsed"
	check "tap-parser: an audit that cannot run bails out, not ok" py -c '
import json, sys
t = json.load(open(sys.argv[1]))
sys.exit(0 if t["ok"] is False and "a#b\\c" in (t["bailout"] or "") and not t["failures"] else 1)' \
		"$TEST_TMPDIR/b.parsed"
	# nothing to check: a skipped plan, which passes
	ep --format=tap --only=tools "$top/tests/cases/env-mixed-json/repo" | tp >"$TEST_TMPDIR/n.parsed"
	check "tap-parser: nothing to check is 1..0, skipped, ok" py -c '
import json, sys
t = json.load(open(sys.argv[1]))
sys.exit(0 if t["ok"] and t["plan"]["skipAll"] and t["count"] == 0 and not t["failures"] else 1)' \
		"$TEST_TMPDIR/n.parsed"
else
	skip "the TAP 14 parser: tests/tap/node_modules is missing (make deps installs" \
	     "it with npm ci; offline it cannot)"
fi

# prove, the harness of Test::Harness, and TAP::Parser for the details (the
# parse errors, the YAML read back), on both streams.  Test::Harness reads
# TAP version 14 from 3.48 on (with the grammar of 13, which TAP 14 keeps
# to); before that (3.44, Debian 12's perl) the version line of --format=tap
# is a parse error, and it must be the only one: every other line is read as
# a later harness reads it.  --format=tap13 has no parse error in either.
if command -v prove >/dev/null && perl -MTAP::Parser -e 1 2>/dev/null; then
	v14=$(perl -MTAP::Parser -e 'print TAP::Parser->VERSION >= 3.48 ? "yes" : "no"')
	echo "note: Test::Harness $(perl -MTAP::Parser -e 'print TAP::Parser->VERSION')" \
	     "reads TAP version 14: $v14"
	verr="TAP specified version 14 but we don't know about versions later than 13"
	# parse_errors FILE VERSION: prove's parse errors of a stream (-p:
	# all of them), less the version line's where the harness predates 14
	parse_errors() {
		sed -n '/^  Parse errors: /,/^[^ ]/{s/^  Parse errors: //; s/^ *//; /^Files=/d; p;}' "$1" |
			{ if [ "$2" = 14 ] && [ "$v14" = no ]; then grep -vxF "$verr"; else cat; fi; }
	}
	# prove_on NAME FILE VERSION: prove -p -e cat FILE, its exit status
	# and parse errors kept as TEST_TMPDIR/NAME.out, NAME.st, NAME.errs
	prove_on() {
		(cd "$(dirname "$2")" && prove -p -e cat "$(basename "$2")") >"$TEST_TMPDIR/$1.out" 2>&1
		echo $? >"$TEST_TMPDIR/$1.st"
		parse_errors "$TEST_TMPDIR/$1.out" "$3" >"$TEST_TMPDIR/$1.errs"
	}
	# a clean verdict: exit 0, or, where the version line is the one
	# parse error, prove's "Result: FAIL" for that alone
	passes() {
		if [ "$2" = 14 ] && [ "$v14" = no ]; then
			[ ! -s "$TEST_TMPDIR/$1.errs" ] && grep -q 'Failed: 0)' "$TEST_TMPDIR/$1.out" &&
				grep -qxF "  Parse errors: $verr" "$TEST_TMPDIR/$1.out"
		else
			[ "$(cat "$TEST_TMPDIR/$1.st")" = 0 ]
		fi
	}
	for v in 14 13; do
		f=$TEST_TMPDIR/r.tap
		[ $v = 13 ] && f=$TEST_TMPDIR/r13.tap
		prove_on "prove$v" "$f" $v
		check "prove, TAP $v: a failed check fails the run" [ "$(cat "$TEST_TMPDIR/prove$v.st")" != 0 ]
		check "prove, TAP $v: names the failed tests: $(tr '\n' ';' <"$TEST_TMPDIR/prove$v.out")" \
			grep -q 'Failed test: *4$' "$TEST_TMPDIR/prove$v.out"
		check "prove, TAP $v: no parse error: $(tr '\n' ';' <"$TEST_TMPDIR/prove$v.errs")" \
			[ ! -s "$TEST_TMPDIR/prove$v.errs" ]
	done
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
	# python3 reads.py PARSED.json REPORT.json VERSION [ALLOWED_ERROR]
	cat >"$TEST_TMPDIR/reads.py" <<'EOF'
import json, sys
p = json.load(open(sys.argv[1])); rep = json.load(open(sys.argv[2]))
version = int(sys.argv[3]); allowed = sys.argv[4:]
ok = [e for e in p["errors"] if e not in allowed] == []
ok = ok and p["planned"] == len(rep["checks"]) == len(p["tests"])
# a harness that predates 14 reads it as the latest it knows, 13
ok = ok and p["version"] == (version if not allowed else 13)
for t, c in zip(p["tests"], rep["checks"]):
    ok = ok and t["ok"] == (c["status"] not in ("fail", "error"))
    ok = ok and t["skip"] == (c["status"] == "skip")
    if c["status"] not in ("pass", "skip"):
        d = t.get("diag") or {}
        ok = ok and d.get("id") == c["id"] and d.get("message") == c["message"]
        ok = ok and d.get("at", {}).get("file") == c["source"]["file"]
if not ok:
    print(json.dumps(p)[:2000])
sys.exit(0 if ok else 1)
EOF
	allowed=
	[ "$v14" = no ] && allowed=$verr
	perl "$TEST_TMPDIR/read.pl" "$TEST_TMPDIR/r.tap" >"$TEST_TMPDIR/p14.json"
	check "TAP::Parser: tap reads as the JSON report" \
		python3 "$TEST_TMPDIR/reads.py" "$TEST_TMPDIR/p14.json" "$TEST_TMPDIR/r.json" 14 ${allowed:+"$allowed"}
	perl "$TEST_TMPDIR/read.pl" "$TEST_TMPDIR/r13.tap" >"$TEST_TMPDIR/p13.json"
	check "TAP::Parser: tap13 reads as the JSON report" \
		python3 "$TEST_TMPDIR/reads.py" "$TEST_TMPDIR/p13.json" "$TEST_TMPDIR/r.json" 13
	# a clean run passes under prove; nothing to check is a skip, which
	# passes; an audit that cannot run bails out
	ok_repo=$TEST_TMPDIR/ok
	mkdir -p "$ok_repo"
	printf 'version: 1\ntools: [sh]\n' >"$ok_repo/preflight.yaml"
	for v in 14 13; do
		f=tap
		[ $v = 13 ] && f=tap13
		ep --format=$f "$ok_repo" >"$TEST_TMPDIR/ok$v.tap"
		prove_on "prove-ok$v" "$TEST_TMPDIR/ok$v.tap" $v
		check "prove, TAP $v: a clean run passes: $(tr '\n' ';' <"$TEST_TMPDIR/prove-ok$v.out")" \
			passes "prove-ok$v" $v
		ep --format=$f --only=tools "$top/tests/cases/env-mixed-json/repo" >"$TEST_TMPDIR/none$v.tap"
		prove_on "prove-none$v" "$TEST_TMPDIR/none$v.tap" $v
		check "prove, TAP $v: nothing to check is skipped, and passes" passes "prove-none$v" $v
		check "prove, TAP $v: says skipped" grep -q 'skipped' "$TEST_TMPDIR/prove-none$v.out"
		ep --format=$f "$TEST_TMPDIR/bad" >"$TEST_TMPDIR/bad$v.tap" 2>/dev/null
		prove_on "prove-bad$v" "$TEST_TMPDIR/bad$v.tap" $v
		check "prove, TAP $v: an audit that cannot run bails out" \
			[ "$(cat "$TEST_TMPDIR/prove-bad$v.st")" != 0 ]
		check "prove, TAP $v: says so" grep -q 'Bailout called' "$TEST_TMPDIR/prove-bad$v.out"
	done
else
	not_ok "prove and TAP::Parser are missing (apt-get install perl)"
fi
finish
