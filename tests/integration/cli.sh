#!/bin/sh
# cli.sh - options, exit codes, and bad input: exit 2 with one message on
# stderr naming file:line:column, and nothing on stdout that looks like a report.
. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
repo=$TEST_TMPDIR/cli-repo
mkdir -p "$repo"
printf 'A=\n' >"$repo/.env.example"
printf 'A=1\n' >"$repo/.env"
out=$TEST_TMPDIR/out
err=$TEST_TMPDIR/err

# run ARGS...: status in $st, streams in $out/$err
run() { ep "$@" >"$out" 2>"$err"; st=$?; }
# expect_usage DESCRIPTION PATTERN ARGS...: exit 2, stdout empty, stderr matches
expect_usage() {
	d=$1 pat=$2
	shift 2
	run "$@"
	check "$d: exit 2 (got $st)" [ "$st" = 2 ]
	check "$d: stdout empty" [ ! -s "$out" ]
	check "$d: stderr names it ($(head -c 200 "$err"))" grep -q -- "$pat" "$err"
	check "$d: message first" sh -c "head -n 1 '$err' | grep -q '^envpreflight: '"
}

run --help
check "--help exits 0" [ "$st" = 0 ]
check "--help lists --only" grep -q -- '--only=PROBE' "$out"
run --version
check "--version" grep -q '^envpreflight [0-9]' "$out"
run --list-probes
check "--list-probes lists env" grep -q '^env ' "$out"
run "$repo"
check "clean repo exits 0 (got $st)" [ "$st" = 0 ]
(cd "$repo" && ep) >"$out" 2>&1
check "DIR defaults to the cwd" grep -q 'parity: 1/1 keys matched' "$out"

expect_usage "unknown option" "unknown option '--bogus'" --bogus "$repo"
expect_usage "unknown format" "unknown format 'xml'" --format=xml "$repo"
expect_usage "missing value" "needs a value" "$repo" --format
# a bad option is named as typed, not by the word before it (the program,
# the subcommand): in a group, the letter and the word
expect_usage "-json" "unknown option '-j' in '-json'; did you mean '--json'?" -json
expect_usage "-json after DIR" "unknown option '-j' in '-json'" "$repo" -json
expect_usage "-qj" "unknown option '-j' in '-qj'$" -qj "$repo"
expect_usage "-qf" "option '-f' in '-qf' needs a value" "$repo" -qf
expect_usage "-format=json" "unknown format 'ormat=json' .*; did you mean '--format=json'?" \
	-format=json "$repo"
expect_usage "--json=1" "option '--json' takes no value ('--json=1')" --json=1 "$repo"
expect_usage "--s" "option '--s' is ambiguous (--skip, --strict, --schema)" --s "$repo"
# init has --json, mcp has none
for cmd in "init:; did you mean '--json'?" "mcp:\$"; do
	ep "${cmd%%:*}" -json </dev/null >"$out" 2>"$err"
	check "${cmd%%:*} -json: exit 2" [ $? = 2 ]
	check "${cmd%%:*} -json: names -j in -json ($(head -n 1 "$err"))" grep -q \
		"^envpreflight: ${cmd%%:*}: unknown option '-j' in '-json'${cmd#*:}" "$err"
done
expect_usage "bad timeout" "--timeout expects milliseconds" --timeout=soon "$repo"
expect_usage "zero timeout" "--timeout expects milliseconds" -t 0 "$repo"
expect_usage "two dirs" "one directory at most" "$repo" "$repo"
expect_usage "unknown --only" "--only: unknown probe 'bogus'" --only=env,bogus "$repo"
probes=$("$EP_BIN" --list-probes | sed 's/ .*//' | paste -sd, - | sed 's/,/, /g')
check "unknown --only names the probes ($probes)" grep -qF "the probes are $probes)" "$err"
expect_usage "unknown --skip" "--skip: unknown probe 'x'" --skip=x "$repo"
expect_usage "no such dir" "No such file or directory" "$TEST_TMPDIR/nope"
mkdir -p "$TEST_TMPDIR/empty"
expect_usage "nothing to audit" "nothing to audit in .*looked for preflight.yaml" "$TEST_TMPDIR/empty"

# bad spec files: exit 2, file:line:column, no report
bad=$TEST_TMPDIR/bad
badcase() {
	rm -rf "$bad"; mkdir -p "$bad"
	printf "$2" >"$bad/$1"
	expect_usage "bad $1 ($3)" "$3" "$bad"
}
badcase preflight.yaml 'version: 2\n' 'preflight.yaml:1:10: unsupported version'
badcase preflight.yaml 'version: 1\nportz: 1\n' "preflight.yaml:2:1: unknown key 'portz'"
badcase preflight.yaml 'version: 1\nports: {free: [3000\n' 'preflight.yaml:3:1:'
badcase preflight.yaml 'version: 1\n\000\n' 'preflight.yaml:2:1: NUL byte'
badcase preflight.yaml 'version: 1\n\377\n' 'preflight.yaml:2:1: invalid UTF-8'
badcase package.json '{"engines": {"node": }}' 'package.json:1:22: malformed JSON'
badcase package.json '{"engines": [1]}' "package.json:1:2: 'engines' expects an object"
badcase .env.example 'A=1\nnot an assignment\n' ".env.example:2:5: expected '='"
rm -rf "$bad"; mkdir -p "$bad"
head -c 1100000 /dev/zero | tr '\0' '#' >"$bad/preflight.yaml"
expect_usage "over the cap" "preflight.yaml: larger than the 1024 KiB limit" "$bad"
rm -rf "$bad"; mkdir -p "$bad"
ln -s /etc/hostname "$bad/package.json"
expect_usage "symlink out" "package.json: symlink resolving outside the repository refused" "$bad"
rm -rf "$bad"; mkdir -p "$bad"
{
	printf 'version: 1\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n'
	i=1
	while [ $i -lt 10 ]; do
		p=$((i - 1))
		printf 'a%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n' \
			$i $i $p $p $p $p $p $p $p $p $p $p
		i=$((i + 1))
	done
} >"$bad/preflight.yaml"
expect_usage "billion laughs" "too many nodes" "$bad"
# repository text in an error message reaches the terminal cleaned
rm -rf "$bad"; mkdir -p "$bad"
printf 'version: 1\nruntimes:\n  "\\e[31mRED": ">=1"\n  "\\e[31mRED": ">=1"\n' >"$bad/preflight.yaml"
expect_usage "escape in a duplicate key" "duplicate key '?\[31mRED'" "$bad"
check "no escape on stderr" sh -c "! grep -q \"$(printf '\033')\" '$err'"
# a broken user config does not stop --help or --version
mkdir -p "$TEST_TMPDIR/xdg/envpreflight"
printf 'nonsense\n' >"$TEST_TMPDIR/xdg/envpreflight/config.ini"
run --version
check "--version despite a bad config" [ "$st" = 0 ]
run --help
check "--help despite a bad config" [ "$st" = 0 ]
rm -f "$TEST_TMPDIR/xdg/envpreflight/config.ini"

# user config: defaults, overridden by the command line; errors exit 2
mkdir -p "$TEST_TMPDIR/xdg/envpreflight"
printf 'format = json\n' >"$TEST_TMPDIR/xdg/envpreflight/config.ini"
run "$repo"
check "config format=json" grep -q '"schema": "envpreflight/1"' "$out"
run --format=human "$repo"
check "option beats config" grep -q 'keys matched' "$out"
printf 'colour = never\n' >"$TEST_TMPDIR/xdg/envpreflight/config.ini"
expect_usage "bad config" "config.ini:1: unknown key 'colour'" "$repo"
printf 'color = always\n' >"$TEST_TMPDIR/xdg/envpreflight/config.ini"
run "$repo"
check "color=always colours" grep -q "$(printf '\033')\\[32m" "$out"
EP_ENV="NO_COLOR=1" ep "$repo" >"$out" 2>&1
check "NO_COLOR wins over config" sh -c "! grep -q \"$(printf '\033')\" '$out'"
run --no-color "$repo"
check "--no-color wins over config" sh -c "! grep -q \"$(printf '\033')\" '$out'"
rm -f "$TEST_TMPDIR/xdg/envpreflight/config.ini"
run "$repo"
check "not a terminal: no colour" sh -c "! grep -q \"$(printf '\033')\" '$out'"

# locale: ASCII markers outside UTF-8
EP_LOCALE=C ep "$repo" >"$out"
check "C locale: [ok]" grep -q '^\[ok\] .env parity' "$out"
ep "$repo" >"$out"
check "UTF-8 locale: tick" grep -q '^✔ .env parity' "$out"

# --quiet: failures and the summary only
printf 'A=\nB=\n' >"$repo/.env.example"
run --quiet "$repo"
check "--quiet exit 1" [ "$st" = 1 ]
check "--quiet shows the failure" grep -q 'parity: 1 of 2 keys missing (B)' "$out"
check "--quiet: two lines (failure, hint) + summary" [ "$(wc -l <"$out")" = 3 ]
# --strict: a warning fails the run
printf 'A=\n' >"$repo/.env.example"
printf 'A=1\nZ=2\n' >"$repo/.env"
run "$repo"
check "extra key warns, exit 0 (got $st)" [ "$st" = 0 ]
run --strict "$repo"
check "--strict: exit 1 (got $st)" [ "$st" = 1 ]
# --exit-zero: a failure exits 0, the report still says it failed; so
# does nothing to audit; a bad option or spec file stays exit 2
run --strict --exit-zero --json "$repo"
check "--exit-zero: a failure exits 0 (got $st)" [ "$st" = 0 ]
check "--exit-zero: the report says failed, and why the status is 0" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["ok"] is False and d["outcome"] == "failed", d["outcome"]
assert d["run"]["options"]["exit_zero"] == {"value": True, "from": "command line"}
' "$out"
mkdir -p "$TEST_TMPDIR/empty-repo"
run --exit-zero --json "$TEST_TMPDIR/empty-repo"
check "--exit-zero: nothing to audit exits 0 (got $st)" [ "$st" = 0 ]
check "--exit-zero: nothing to audit, in the report" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["ok"] is None and d["outcome"] == "not-run", d["outcome"]
assert d["error"]["kind"] == "nothing-to-audit", d["error"]
' "$out"
run "$TEST_TMPDIR/empty-repo"
check "without --exit-zero: nothing to audit exits 2 (got $st)" [ "$st" = 2 ]
expect_usage "--exit-zero keeps a bad option" "unknown option '--bogus'" --exit-zero --bogus "$repo"
printf 'version: 1\nports: 7\n' >"$TEST_TMPDIR/empty-repo/preflight.yaml"
run --exit-zero "$TEST_TMPDIR/empty-repo"
check "--exit-zero keeps a malformed spec file: exit 2 (got $st)" [ "$st" = 2 ]
# --only/--skip
run --skip=env "$repo"
check "--skip=env: nothing to check (got $st)" [ "$st" = 0 ] && grep -q 'nothing to check' "$out"
run --only=env "$repo"
check "--only=env runs env" grep -q 'parity' "$out"
# env.gitignore in a real work tree: the global excludes file alone does
# not protect other clones; a symlinked .gitignore is not followed (git 2.32+)
if command -v git >/dev/null 2>&1; then
	g=$TEST_TMPDIR/gitrepo
	mkdir -p "$g" "$TEST_TMPDIR/xdg/git"
	git init -q "$g"
	printf 'A=\n' >"$g/.env.example"
	printf 'A=1\n' >"$g/.env"
	run "$g"
	check "git: not ignored warns" grep -q '.env is not ignored by git: it could be committed' "$out"
	check "git: hint at the top" grep -q "hint: add '/.env' to .gitignore$" "$out"
	printf '.env\n' >"$TEST_TMPDIR/xdg/git/ignore"
	run "$g"
	check "git: global excludes only" grep -q 'ignored only by your global excludes file' "$out"
	rm -f "$TEST_TMPDIR/xdg/git/ignore"
	# core.excludesFile in ~/.gitconfig replaces the default location
	printf '[core]\n\texcludesFile = ~/my-ignore\n' >"$TEST_TMPDIR/home/.gitconfig"
	printf '/.env\n' >"$TEST_TMPDIR/home/my-ignore"
	run "$g"
	check "git: core.excludesFile" grep -q "global excludes file ($TEST_TMPDIR/home/my-ignore:1)" "$out"
	rm -f "$TEST_TMPDIR/home/.gitconfig" "$TEST_TMPDIR/home/my-ignore"
	# an audited subdirectory names rule files relative to itself
	mkdir -p "$g/app"
	printf 'A=\n' >"$g/app/.env.example"
	printf 'A=1\n' >"$g/app/.env"
	# below the top, the hint names both files that work, each with its
	# own pattern, and following either makes git ignore the file
	run "$g/app"
	check "git: hint below the top: $(grep hint "$out")" grep -q \
		"hint: add '/.env' to this directory's .gitignore, or '/app/.env' to $g/.gitignore" "$out"
	printf '/.env\n' >"$g/app/.gitignore"
	check "git: the first hint works for git" git -C "$g" check-ignore -q app/.env
	run "$g/app"
	check "git: the first hint works for us" grep -q 'ignored by git (.gitignore:1)' "$out"
	rm -f "$g/app/.gitignore"
	printf '/app/.env\n' >"$g/.gitignore"
	check "git: the second hint works for git" git -C "$g" check-ignore -q app/.env
	rm -f "$g/.gitignore"
	printf '.env\n' >"$g/app/.gitignore"
	run "$g/app"
	check "git: rule path relative to DIR" grep -q 'ignored by git (.gitignore:1)' "$out"
	printf '/app/.env\n' >"$g/.gitignore"
	rm -f "$g/app/.gitignore"
	run "$g/app"
	check "git: rule above DIR shown in full" grep -q "ignored by git ($g/.gitignore:1)" "$out"
	rm -f "$g/.gitignore"
	printf '.env\n' >"$TEST_TMPDIR/elsewhere.gitignore"
	ln -s "$TEST_TMPDIR/elsewhere.gitignore" "$g/.gitignore"
	run "$g"
	check "git: symlinked .gitignore not followed" grep -q 'it could be committed' "$out"
	rm -f "$g/.gitignore"
	printf '/.env\n' >"$g/.gitignore"
	run "$g"
	check "git: ignored" grep -q 'ignored by git (.gitignore:1)' "$out"
	mkdir -p "$g/.git/info"
	printf '/.env\n' >"$g/.git/info/exclude"
	rm -f "$g/.gitignore"
	run "$g"
	check "git: info/exclude" grep -q 'ignored by git (.git/info/exclude:1)' "$out"
	# a tracked .env is in every commit, whatever the ignore rules say
	git -C "$g" add -f .env
	run --json "$g"
	check "git: tracked .env warns" grep -q 'is tracked by git' "$out"
	check "git: tracked in JSON" grep -q '"tracked": true' "$out"
else
	skip "the work-tree checks: git is not installed"
fi

# ---- without DIR: the top of the git work tree, found upwards as git
# finds it (built by hand, so that git need not be installed; lib.sh's
# ep_run makes $TEST_TMPDIR the ceiling)
w=$TEST_TMPDIR/walk
# git_dir DIR: a .git directory that git takes (HEAD, objects/, refs/)
git_dir() {
	mkdir -p "$1/.git/objects" "$1/.git/refs"
	printf 'ref: refs/heads/main\n' >"$1/.git/HEAD"
}
# from DIR ARGS...: run from DIR; status in $st
from() { d=$1; shift; (cd "$d" && ep "$@") >"$out" 2>"$err"; st=$?; }
git_dir "$w/top"
mkdir -p "$w/top/a/b"
printf 'A=\nB=\n' >"$w/top/.env.example"
printf 'A=1\n' >"$w/top/.env"
top_real=$(cd "$w/top" && pwd -P)
from "$w/top/a/b"
check "from two levels down: the top's checks ($st)" grep -q 'parity: 1 of 2 keys missing (B)' "$out"
check "... says which directory, first" sh -c "head -n 1 '$out' | grep -qx 'auditing ../.. (the top of this git work tree)'"
from "$w/top/a/b" --quiet
check "--quiet: no auditing line" sh -c "! grep -q '^auditing' '$out'"
from "$w/top/a/b" --explain
check "--explain: the directory in full" sh -c "head -n 1 '$out' | grep -qxF 'auditing ../.. ($top_real): the top of the git work tree holding the current directory'"
from "$w/top/a/b" --json
check "JSON: root is the top" grep -qF "\"root\": \"$top_real\"," "$out"
check "JSON: root_from git" grep -q '"root_from": "git",' "$out"
from "$w/top/a/b" --format=github
check "github: file= below the top, the repository root ($(grep '^::' "$out"))" \
	grep -q '^::error file=\.env\.example,line=' "$out"
from "$w/top/a/b" --format=junit
check "junit: root_from" grep -q '<property name="root_from" value="git"/>' "$out"
from "$w/top/a/b" --format=tap
check "tap: a comment" sh -c "sed -n 2p '$out' | grep -qx '# auditing ../.. (the top of this git work tree)'"
from "$w/top"
check "at the top itself: no auditing line" sh -c "! grep -q '^auditing' '$out'"
# a .git directory git would not take is passed by
mkdir -p "$w/top/a/.git/info"
from "$w/top/a/b" --json
check "an empty .git passed by" grep -qF "\"root\": \"$top_real\"," "$out"
rm -rf "$w/top/a/.git"
# an explicit DIR is never second-guessed
from "$w/top/a/b" .
check "DIR .: nothing to audit here, exit 2 ($st)" [ "$st" = 2 ]
check "... says so" grep -q 'nothing to audit in \.: looked for' "$err"
from "$w/top/a/b" --json ../..
check "DIR ../..: root_from argument" grep -q '"root_from": "argument",' "$out"
from "$w/top/a/b" ../..
check "DIR ../..: no auditing line" sh -c "! grep -q '^auditing' '$out'"
# a linked worktree or a submodule: .git is a file
mkdir -p "$w/wt/sub"
printf 'gitdir: ../top/.git/worktrees/wt\n' >"$w/wt/.git"
printf 'C=\n' >"$w/wt/.env.example"
from "$w/wt/sub" --json
check "a .git file: its directory ($st)" grep -qF "\"root\": \"$(cd "$w/wt" && pwd -P)\"," "$out"
# a .git file that is no gitfile stops the search, as git stops: the cwd
mkdir -p "$w/bad/x"
printf 'nonsense\n' >"$w/bad/.git"
printf 'A=\n' >"$w/bad/x/.env.example"
from "$w/bad/x" --json
check "a bad .git file: the cwd" grep -q '"root_from": "cwd",' "$out"
check "... the reason in run.notes" grep -q 'is not a gitfile (gitdir: PATH)' "$out"
from "$w/bad/x" --explain
check "... and under --explain" grep -q '^  note: .*is not a gitfile' "$out"
# no .git at all: the current directory, as before
mkdir -p "$w/plain/x"
printf 'A=\n' >"$w/plain/x/.env.example"
from "$w/plain/x" --json
check "no .git: the cwd" grep -q '"root_from": "cwd",' "$out"
from "$w/plain/x"
check "no .git: no auditing line" sh -c "! grep -q '^auditing' '$out'"
from "$w/plain"
check "no .git, no spec: nothing to audit in . ($st)" grep -q 'nothing to audit in \.:' "$err"
# GIT_CEILING_DIRECTORIES: the search does not go up into a ceiling
EP_ENV="GIT_CEILING_DIRECTORIES=$w/top/a" from "$w/top/a/b"
check "a ceiling below the top: the cwd, nothing to audit ($st)" grep -q 'nothing to audit in \.:' "$err"
EP_ENV="GIT_CEILING_DIRECTORIES=/nonexistent::$top_real/a/" from "$w/top/a/b" --json
check "... a trailing slash, after an empty entry" [ "$st" = 2 ]
EP_ENV="GIT_CEILING_DIRECTORIES=relative/a:$w" from "$w/top/a/b" --json
check "a ceiling above the top: found" grep -q '"root_from": "git",' "$out"
# git itself is the oracle: the top it finds is the one audited, in a work
# tree, a linked worktree and below a ceiling
if command -v git >/dev/null 2>&1; then
	g=$w/real
	git init -q "$g" && mkdir -p "$g/a/b" && printf 'A=\n' >"$g/.env.example"
	git -C "$g" -c user.name=t -c user.email=t@t commit -q --allow-empty -m 0
	git -C "$g" worktree add -q "$w/real-wt" 2>/dev/null
	mkdir -p "$w/real-wt/c" && printf 'A=\n' >"$w/real-wt/.env.example"
	for d in "$g/a/b" "$w/real-wt/c"; do
		want=$(cd "$d" && GIT_CEILING_DIRECTORIES="$TEST_TMPDIR" git rev-parse --show-toplevel)
		from "$d" --json
		check "git's top from $d ($want)" grep -qF "\"root\": \"$want\"," "$out"
	done
	(cd "$g/a/b" && GIT_CEILING_DIRECTORIES="$g/a" git rev-parse --show-toplevel) \
		>/dev/null 2>&1
	check "git too finds nothing under a ceiling below the top" [ $? != 0 ]
fi
# init writes where the audit reads
(cd "$w/top/a/b" && ep_run init) >"$out" 2>"$err"
check "init from below: at the top" [ -f "$w/top/preflight.yaml" ] && [ ! -e "$w/top/a/b/preflight.yaml" ]
check "... named from here ($(cat "$out"))" grep -q '^wrote \.\./\.\./preflight\.yaml: ' "$out"
(cd "$w/top/a/b" && ep_run init --json --stdout) >"$out" 2>"$err"
check "init --json: root_from git" grep -q '"root_from": "git",' "$out"
rm -f "$w/top/preflight.yaml"
# the MCP server never looks above the directory it was started in
printf '%s\n' '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"sh","version":"1"}}}' \
	'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"audit","arguments":{}}}' |
	(cd "$w/top/a/b" && ep_run mcp --no-config) >"$out" 2>"$err"
check "mcp: the cwd, not the top" grep -q 'root_from.:.cwd' "$out"
check "... nothing to audit there" grep -q 'nothing-to-audit' "$out"

# the example repository audits without a usage error
run "$top/examples/webapp"
check "examples/webapp: exit 0 or 1 (got $st)" [ "$st" -le 1 ]
finish
