#!/bin/sh
# junit.sh - the JUnit report is well-formed XML that validates against the
# schema CI test reporters read, with hostile text escaped; the JSON report
# is one valid document; GitHub annotations escape their fields.
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
repo=$TEST_TMPDIR/junit-repo
mkdir -p "$repo"
# key names with every XML metacharacter dotenv allows are few ([\w.-]),
# so the hostile text rides in the file name and the missing .env
printf 'A_KEY=\nB.KEY=\nC-KEY=\n' >"$repo/.env.example"
printf 'A_KEY=1\nEXTRA=2\n' >"$repo/.env"
printf 'version: 1\nenv:\n  example: .env.example\n  required: [D_KEY]\n' >"$repo/preflight.yaml"

for strict in "" --strict; do
	ep --format=junit $strict "$repo" >"$TEST_TMPDIR/j.xml"
	check "junit $strict: exit 1" [ $? = 1 ]
	check "junit $strict: well-formed" xmllint --noout "$TEST_TMPDIR/j.xml"
	check "junit $strict: validates" xmllint --noout --schema "$here/junit.xsd" "$TEST_TMPDIR/j.xml"
	check "junit $strict: one failure" grep -q '<failure type="fail"' "$TEST_TMPDIR/j.xml"
done
cnt=$(xmllint --xpath 'count(//testcase)' "$TEST_TMPDIR/j.xml")
check "junit: one testcase per check ($cnt)" [ "$cnt" = 2 ]

# hostile text: a repository path with XML and terminal metacharacters
evil=$TEST_TMPDIR/'a&b<c>"d'"'"'e'
mkdir -p "$evil"
cp "$repo/.env.example" "$repo/preflight.yaml" "$evil/"
ep --format=junit "$evil" >"$TEST_TMPDIR/e.xml"
check "hostile path: well-formed" xmllint --noout "$TEST_TMPDIR/e.xml"
check "hostile path: escaped" grep -q 'a&amp;b&lt;c&gt;&quot;d&apos;e' "$TEST_TMPDIR/e.xml"
ep --format=json "$evil" >"$TEST_TMPDIR/e.json"
check "hostile path: JSON parses" node -e 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))' "$TEST_TMPDIR/e.json"

# the JSON schema: top-level fields and one check's fields
ep --json "$repo" >"$TEST_TMPDIR/r.json"
check "json: exit 1" [ $? = 1 ]
check "json: schema fields" node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const ok = r.schema === "envpreflight/1" && r.ok === false && typeof r.root === "string" &&
  typeof r.duration_ms === "number" && r.summary.total === 2 && r.summary.fail === 1 &&
  r.summary.skip === 1 && r.summary.warn === 0 && r.checks.length === 2;
const c = r.checks[0];
const ok2 = c.id === "env.parity" && c.probe === "env" && c.status === "fail" &&
  c.title && c.message && c.source.file === ".env.example" && "hint" in c &&
  Array.isArray(c.data.missing) && c.data.missing.join() === "B.KEY,C-KEY,D_KEY" &&
  Array.isArray(c.data.extra) && c.data.extra.join() === "EXTRA";
process.exit(ok && ok2 ? 0 : 1);' "$TEST_TMPDIR/r.json"

# GitHub annotations: one ::error with file and line, properties escaped
ep --format=github "$repo" >"$TEST_TMPDIR/g.txt"
check "github: exit 1" [ $? = 1 ]
check "github: error annotation" grep -q "^::error file=$repo/.env.example,line=2,col=1,title=.env parity::" "$TEST_TMPDIR/g.txt"
check "github: a skip is no annotation" [ "$(grep -c '^::' "$TEST_TMPDIR/g.txt")" = 1 ]
check "github: human lines follow" grep -q 'of 2 checks failed' "$TEST_TMPDIR/g.txt"
(cd "$repo" && ep --format=github) >"$TEST_TMPDIR/g2.txt"
check "github: path relative to the cwd" grep -q '^::error file=.env.example,line=2,col=1' "$TEST_TMPDIR/g2.txt"
finish
