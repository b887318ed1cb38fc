#!/bin/sh
# ci.sh - what envpreflight gives CI: with --format=github, the Markdown job
# summary appended to the file GITHUB_STEP_SUMMARY names (every row's text
# escaped, no .env value, a file that cannot be written a warning that leaves
# the exit status alone); and the recipes in examples/ci/, which load as YAML
# and whose commands, run as written, produce the JUnit report they keep.
. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
xsd=$top/tests/integration/junit.xsd
lacks() { ! grep -q "$1" "$2"; }
# our schema, and the Jenkins xUnit plugin's junit-10.xsd when JUNIT10_XSD
# names a copy (see junit.sh)
valid_junit() {
	xmllint --noout --schema "$xsd" "$1" 2>/dev/null &&
		{ [ -z "${JUNIT10_XSD:-}" ] || xmllint --noout --schema "$JUNIT10_XSD" "$1" 2>/dev/null; }
}

# ---- a repository with a pass, a warning, a failure and a skip, whose
# example file's name carries Markdown and HTML syntax, a '|' that would end
# a table cell, and whose .env holds a value that must never be shown
repo=$TEST_TMPDIR/repo
mkdir -p "$repo"
ex='a|b*c_<i>[x](y)`$m$`@u #1.env'
printf 'A=\nB=\nTOKEN=\n' >"$repo/$ex"
printf 'A=1\nB=\nTOKEN=s3cr3t-value-never-shown\n' >"$repo/.env"
printf 'version: 1\nenv:\n  example: "%s"\ntools: [sh, no-such-tool-xyz]\n' "$ex" \
	>"$repo/preflight.yaml"

sum=$TEST_TMPDIR/summary.md
printf 'written by an earlier step\n' >"$sum"
EP_ENV="GITHUB_STEP_SUMMARY=$sum" ep --format=github "$repo" >"$TEST_TMPDIR/gh.out" 2>"$TEST_TMPDIR/gh.err"
st=$?
ep --format=github "$repo" 2>/dev/null | mask "$TEST_TMPDIR" >"$TEST_TMPDIR/gh-plain.out"
mask "$TEST_TMPDIR" <"$TEST_TMPDIR/gh.out" >"$TEST_TMPDIR/gh.masked"
check "summary: exit 1, as without it" [ $st = 1 ]
check "summary: stdout is the same as without it" cmp -s "$TEST_TMPDIR/gh.masked" "$TEST_TMPDIR/gh-plain.out"
check "summary: nothing on stderr: $(cat "$TEST_TMPDIR/gh.err")" [ ! -s "$TEST_TMPDIR/gh.err" ]
check "summary: appended after what was there" [ "$(head -n 1 "$sum")" = "written by an earlier step" ]
check "summary: a heading" grep -q '^### envpreflight$' "$sum"
check "summary: the table's header" grep -qF '| Status | Check | Message | Source |' "$sum"
check "summary: no .env value" lacks s3cr3t "$sum"
ep --json "$repo" >"$TEST_TMPDIR/r.json"
check "summary: one row per check, four cells each, text escaped" py - "$sum" "$TEST_TMPDIR/r.json" <<'EOF'
import json, re, sys
rows = [l for l in open(sys.argv[1], encoding="utf-8") if l.startswith("| ")][2:]
rep = json.load(open(sys.argv[2]))
checks = rep["checks"]
ok = len(rows) == len(checks) == 4
unescape = lambda s: re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", s)
for row, c in zip(rows, checks):
    # cells end at a '|' that no backslash escapes
    cells = [x.strip() for x in re.split(r"(?<!\\)\|", row.rstrip("\n"))][1:-1]
    ok = ok and len(cells) == 4
    ok = ok and cells[0].endswith(c["status"])
    ok = ok and unescape(cells[1]) == "%s (%s)" % (c["title"], c["id"])
    ok = ok and unescape(cells[2]).startswith(c["message"])
    src = c["source"]
    ok = ok and unescape(cells[3]).startswith(src["file"]) if src else ok
    # no Markdown or HTML syntax of the repository's text is left bare
    text = (cells[1] + cells[2] + cells[3]).replace("<br>", " ")
    ok = ok and not re.search(r"(?<!\\)[<>`*_\[\]$@#]", text)
    if not ok:
        print("row:", row, "check:", c)
        break
sys.exit(0 if ok else 1)
EOF

# not writable: a warning on stderr, the exit status and stdout unchanged
mkfifo "$TEST_TMPDIR/fifo"
for bad in "$TEST_TMPDIR/no/such/dir/summary.md" "$TEST_TMPDIR" /dev/full "$TEST_TMPDIR/fifo"; do
	EP_ENV="GITHUB_STEP_SUMMARY=$bad" ep --format=github "$repo" >"$TEST_TMPDIR/bad.raw" 2>"$TEST_TMPDIR/bad.err"
	check "summary to $bad: exit 1 still" [ $? = 1 ]
	mask "$TEST_TMPDIR" <"$TEST_TMPDIR/bad.raw" >"$TEST_TMPDIR/bad.out"
	check "summary to $bad: stdout unchanged" cmp -s "$TEST_TMPDIR/bad.out" "$TEST_TMPDIR/gh-plain.out"
	check "summary to $bad: a warning: $(cat "$TEST_TMPDIR/bad.err")" \
		grep -q "^envpreflight: warning: cannot write the job summary to '$bad' (GITHUB_STEP_SUMMARY): " \
		"$TEST_TMPDIR/bad.err"
done
# a clean run stays 0 with a summary it cannot write
clean=$TEST_TMPDIR/clean
mkdir -p "$clean"
printf 'version: 1\ntools: [sh]\n' >"$clean/preflight.yaml"
EP_ENV="GITHUB_STEP_SUMMARY=/dev/full" ep --format=github "$clean" >/dev/null 2>&1
check "summary to /dev/full: a clean run exits 0" [ $? = 0 ]
EP_ENV="GITHUB_STEP_SUMMARY=$TEST_TMPDIR/clean.md" ep --format=github "$clean" >/dev/null 2>&1
check "summary: a clean run says all ok" grep -q 'all 1 check ok' "$TEST_TMPDIR/clean.md"

# the audit could not run: the summary says why
broken=$TEST_TMPDIR/broken
mkdir -p "$broken"
printf 'version: 1\nenv:\n  "a|b": 1\n' >"$broken/preflight.yaml"
EP_ENV="GITHUB_STEP_SUMMARY=$TEST_TMPDIR/broken.md" ep --format=github "$broken" >/dev/null 2>&1
check "summary, no audit: exit 2" [ $? = 2 ]
check "summary, no audit: says why, escaped" \
	grep -qF "The audit could not run: preflight.yaml:3:3: unknown key 'a\\|b'" "$TEST_TMPDIR/broken.md"

# only --format=github writes it; an empty variable names no file
for f in human json junit tap; do
	EP_ENV="GITHUB_STEP_SUMMARY=$TEST_TMPDIR/other.md" ep --format=$f "$repo" >/dev/null 2>&1
done
check "summary: no other format writes it" [ ! -e "$TEST_TMPDIR/other.md" ]
(cd "$TEST_TMPDIR" && EP_ENV="GITHUB_STEP_SUMMARY=" ep --format=github "$repo" >/dev/null 2>"$TEST_TMPDIR/empty.err")
check "summary: an empty GITHUB_STEP_SUMMARY is no file" [ ! -s "$TEST_TMPDIR/empty.err" ]

# ---- examples/ci: YAML that loads, and commands that make the report they keep
bin=$TEST_TMPDIR/bin
mkdir -p "$bin"
ln -s "$EP_BIN" "$bin/envpreflight"
# run_in DIR COMMAND: a recipe's command as CI runs it, with envpreflight on PATH
run_in() {
	(cd "$1" && env -i PATH="$bin:/usr/bin:/bin" HOME="$TEST_TMPDIR/home" \
		XDG_CONFIG_HOME="$TEST_TMPDIR/xdg" XDG_CACHE_HOME="$TEST_TMPDIR/cache" \
		GITHUB_STEP_SUMMARY="${summary_file:-}" LC_ALL=C.UTF-8 sh -ec "$2")
}
# python3 recipe.py FILE KIND: the commands to run, one per line, then the
# JUnit path the recipe keeps (the last line)
cat >"$TEST_TMPDIR/recipe.py" <<'EOF'
import sys, yaml
doc = yaml.safe_load(open(sys.argv[1]))
if sys.argv[2] == "github":
    # PyYAML reads the key `on` as YAML 1.1's true
    assert "on" in doc or True in doc, "no trigger"
    steps = doc["jobs"]["preflight"]["steps"]
    runs = [s["run"] for s in steps if "envpreflight --format=" in s.get("run", "")]
    keep = [s["with"]["path"] for s in steps if s.get("uses", "").startswith("actions/upload-artifact@")]
else:
    job = doc["preflight"]
    runs = job["script"]
    keep = [job["artifacts"]["reports"]["junit"]]
    assert job["artifacts"]["when"] == "always"
assert len(keep) == 1 and runs
for r in runs:
    print(r.replace("\n", " "))
print(keep[0])
EOF
work=$TEST_TMPDIR/work
for kind in github gitlab; do
	file=$top/examples/ci/$kind.yml
	[ $kind = gitlab ] && file=$top/examples/ci/gitlab-ci.yml
	python3 "$TEST_TMPDIR/recipe.py" "$file" $kind >"$TEST_TMPDIR/$kind.recipe" 2>"$TEST_TMPDIR/$kind.err"
	check "$kind: the recipe loads as YAML: $(cat "$TEST_TMPDIR/$kind.err")" [ $? = 0 ]
	junit=$(tail -n 1 "$TEST_TMPDIR/$kind.recipe")
	check "$kind: a JUnit report is kept ($junit)" [ -n "$junit" ]
	rm -rf "$work"
	cp -a "$repo" "$work"
	summary_file=$TEST_TMPDIR/$kind-summary.md
	sed '$d' "$TEST_TMPDIR/$kind.recipe" >"$TEST_TMPDIR/$kind.cmds"
	while IFS= read -r cmd; do
		run_in "$work" "$cmd" >"$TEST_TMPDIR/$kind.log" 2>&1
		echo "$? $cmd" >>"$TEST_TMPDIR/$kind.statuses"
	done <"$TEST_TMPDIR/$kind.cmds"
	check "$kind: its commands ran: $(cat "$TEST_TMPDIR/$kind.statuses" | tr '\n' ';')" \
		[ -s "$TEST_TMPDIR/$kind.statuses" ]
	check "$kind: the command it runs writes $junit" [ -s "$work/$junit" ]
	check "$kind: $junit is JUnit XML" valid_junit "$work/$junit"
	check "$kind: $junit holds the failed check" grep -q '<failure type="fail"' "$work/$junit"
	check "$kind: its audit failed the job (exit 1)" grep -q '^1 envpreflight --format=junit\|^1 envpreflight --format=github' \
		"$TEST_TMPDIR/$kind.statuses"
done
check "github: the Preflight step wrote the job summary" grep -q '^### envpreflight$' "$TEST_TMPDIR/github-summary.md"
check "github: the JUnit step let exit 1 through (reported by the step before)" \
	grep -q '^0 envpreflight --format=junit' "$TEST_TMPDIR/github.statuses"
finish
