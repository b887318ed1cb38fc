#!/bin/sh
# junit.sh - the JUnit report is well-formed XML that validates against
# junit.xsd (our schema, never looser than the Jenkins xUnit plugin's
# junit-10.xsd: see its header), and against a real junit-10.xsd when
# JUNIT10_XSD names one; its counts agree with its test cases, as readers
# that count for themselves see them; hostile text is escaped; the JSON
# report is one valid document; GitHub annotations escape their fields.
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
# the consumer's own schema: JUNIT10_XSD, else a copy the steering repo's
# shared/ beside the checkout holds (developers commit no fetched file)
if [ -z "${JUNIT10_XSD:-}" ] && [ -f "$here/../../../shared/schemas/junit-10.xsd" ]; then
	JUNIT10_XSD=$here/../../../shared/schemas/junit-10.xsd
fi
# valid FILE: against junit.xsd, and junit-10.xsd when there is one
valid() {
	xmllint --noout --schema "$here/junit.xsd" "$1" 2>/dev/null || return 1
	[ -z "${JUNIT10_XSD:-}" ] || xmllint --noout --schema "$JUNIT10_XSD" "$1" 2>/dev/null
}
if [ -n "${JUNIT10_XSD:-}" ]; then
	check "JUNIT10_XSD is a junit-10.xsd ($JUNIT10_XSD)" grep -q 'name="SUREFIRE_TIME"' "$JUNIT10_XSD"
else
	echo "note: skipped: the Jenkins xUnit plugin's junit-10.xsd is not here (no registry" \
	     "package ships it; JUNIT10_XSD or ../shared/schemas/junit-10.xsd names one):" \
	     "validated against tests/integration/junit.xsd only"
fi
# counted FILE: tests, failures, errors and skipped on <testsuite> are its
# test cases, and with <failure>, <error>, <skipped>; <testsuites> the same
counted() {
	for a in tests:testcase failures:testcase/failure errors:testcase/error \
		skipped:testcase/skipped; do
		n=$(xmllint --xpath "count(/testsuites/testsuite/${a#*:})" "$1")
		[ "$(xmllint --xpath "string(/testsuites/testsuite/@${a%%:*})" "$1")" = "$n" ] || return 1
		[ "${a%%:*}" = skipped ] && continue
		[ "$(xmllint --xpath "string(/testsuites/@${a%%:*})" "$1")" = "$n" ] || return 1
	done
}
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
	check "junit $strict: validates" valid "$TEST_TMPDIR/j.xml"
	check "junit $strict: one failure" grep -q '<failure type="fail"' "$TEST_TMPDIR/j.xml"
	check "junit $strict: the counts are the test cases'" counted "$TEST_TMPDIR/j.xml"
done
check "junit: times with three decimals" sh -c "grep -o 'time=\"[^\"]*\"' '$TEST_TMPDIR/j.xml' |
	grep -qvE '^time=\"[0-9]+\\.[0-9]{3}\"$' && exit 1 || exit 0"
check "junit: <testsuites> has no skipped" [ "$(xmllint --xpath 'count(/testsuites/@skipped)' "$TEST_TMPDIR/j.xml")" = 0 ]
# what junit-10.xsd refuses, ours refuses too
sed 's/<testsuites \([^>]*\)time="[0-9.]*"/<testsuites \1time="0.123456"/' "$TEST_TMPDIR/j.xml" >"$TEST_TMPDIR/bad1.xml"
sed 's/<testsuites /<testsuites skipped="1" /' "$TEST_TMPDIR/j.xml" >"$TEST_TMPDIR/bad2.xml"
for b in bad1 bad2; do
	check "junit: the schema refuses $b ($(grep -o '<testsuites [^>]*>' "$TEST_TMPDIR/$b.xml"))" \
		sh -c "! xmllint --noout --schema '$here/junit.xsd' '$TEST_TMPDIR/$b.xml' 2>/dev/null"
	[ -z "${JUNIT10_XSD:-}" ] || check "junit: junit-10.xsd refuses $b" \
		sh -c "! xmllint --noout --schema '$JUNIT10_XSD' '$TEST_TMPDIR/$b.xml' 2>/dev/null"
done
# a warning, a pass and an audit that could not run
printf 'version: 1\ntools: [sh]\nenv:\n  example: .env.example\n' >"$repo/preflight.yaml"
printf 'A_KEY=1\nB.KEY=2\nC-KEY=3\nEXTRA=2\n' >"$repo/.env"
for strict in "" --strict; do
	ep --format=junit $strict "$repo" >"$TEST_TMPDIR/w.xml"
	check "junit $strict, a warning: validates" valid "$TEST_TMPDIR/w.xml"
	check "junit $strict, a warning: counted" counted "$TEST_TMPDIR/w.xml"
done
ep --format=junit "$TEST_TMPDIR/no-such-dir" >"$TEST_TMPDIR/x.xml" 2>/dev/null
check "junit, not run: validates" valid "$TEST_TMPDIR/x.xml"
check "junit, not run: counted" counted "$TEST_TMPDIR/x.xml"
printf 'version: 1\nenv:\n  example: .env.example\n  required: [D_KEY]\n' >"$repo/preflight.yaml"
printf 'A_KEY=1\nEXTRA=2\n' >"$repo/.env"
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
