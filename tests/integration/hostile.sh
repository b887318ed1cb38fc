#!/bin/sh
# hostile.sh - the man page's list "What a hostile repository may try"
# (SECURITY): one block an item, each marked "item: TITLE" with the
# item's title, which docs.sh matches against the page.  `make asan` runs
# it against the ASan build too.
#
# A run that could block (a FIFO) is bounded by timeout(1) so that a hang
# fails the test instead of stalling the suite; the bound is generous and
# nothing here asserts how long anything took.
. "$(dirname "$0")/../lib.sh"
h=$TEST_TMPDIR/h
outside=$TEST_TMPDIR/outside
out=$TEST_TMPDIR/out
err=$TEST_TMPDIR/err
mkdir -p "$outside"

# run ARGS...: like ep, bounded; status in $st, streams in $out and $err;
# a JSON report is kept for run.sh to validate against the schema, as ep's
# The large inputs below are judged by their verdicts, not by their speed
# (bench/ measures that): a deadline of a minute, so that a loaded machine
# does not turn a right answer into "timed out" (3,000 services took 1.7 s
# beside other work, and more than the default 3 s at a load of 11).
slow=--timeout=60000
run() {
	timeout 120 env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$TEST_TMPDIR/home" \
		XDG_CONFIG_HOME="$TEST_TMPDIR/xdg" XDG_CACHE_HOME="$TEST_TMPDIR/cache" \
		LC_ALL=C.UTF-8 ${EP_ENV:-} "$EP_BIN" "$@" >"$out" 2>"$err"
	st=$?
	if [ -n "${EP_JSON_DIR:-}" ] && ep_wants_report "$@"; then
		cp "$out" "$(mktemp "$EP_JSON_DIR/$T_NAME.XXXXXX")"
	fi
}
fresh() { rm -rf "$h"; mkdir -p "$h"; }
# refused DESC PATTERN: the last run stopped with exit 2 and PATTERN on stderr
refused() {
	check "$1: exit 2 (got $st)" [ "$st" = 2 ]
	check "$1: says '$2' ($(head -c 200 "$err"))" grep -q -- "$2" "$err"
}
# json_of ID: the object of check ID in the JSON report $out
json_of() {
	awk -v id="\"$1\"" '/"id": /{on=index($0,id)>0} on' "$out"
}

# item: Symbolic links out of the repository
printf 'ZQXOUT 1.0\n' >"$outside/tool-versions"
fresh
ln -s "$outside/tool-versions" "$h/.tool-versions"
run "$h"
refused "link out" ".tool-versions: symlink resolving outside the repository refused"
fresh
mkdir -p "$outside/cfg"
printf 'A=\n' >"$outside/cfg/example"
ln -s "$outside/cfg" "$h/cfg"
printf 'version: 1\nenv:\n  example: cfg/example\n' >"$h/preflight.yaml"
run "$h"
refused "directory link out" "cfg/example: a path outside the repository refused"
check "nothing of the outside file" sh -c "! grep -q ZQXOUT '$out' '$err'"
fresh
mkdir -p "$h/versions"
printf 'faketool 1.0\n' >"$h/versions/tv"
ln -s versions/tv "$h/.tool-versions"
ln -s "$h/versions/tv" "$h/.nvmrc.target"
run --json "$h"
check "relative link inside: followed (exit $st)" [ "$st" -le 1 ]
check "relative link inside: read" grep -q '"runtime.faketool.tool-versions"' "$out"
rm -f "$h/.tool-versions"
ln -s "$h/versions/tv" "$h/.tool-versions"
run --json "$h"
check "absolute link inside: followed (exit $st)" grep -q '"runtime.faketool.tool-versions"' "$out"

# item: A file swapped while it is read
# A swapper built here exchanges a file and a link out of the repository
# (renameat2 RENAME_EXCHANGE, atomically, as fast as it can) while
# envpreflight loads the repository again and again: each run either read
# the file or refused the link, never read through it.  (test_saferead
# swaps at the exact moment; this is the real race, which the old
# check-then-open lost now and then.)
fresh
printf 'faketool 1.0\n' >"$h/.tool-versions"
printf 'ZQXRACE 1.0\n' >"$outside/race"
ln -s "$outside/race" "$h/.alt"
cat >"$TEST_TMPDIR/swapper.c" <<'EOF'
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

/* swapper DIR STOP: exchange DIR/.tool-versions and DIR/.alt until STOP
 * exists */
int main(int argc, char **argv)
{
	struct stat st;
	unsigned long n = 0;
	int dfd;

	if (argc != 3 || (dfd = open(argv[1], O_PATH | O_DIRECTORY)) < 0)
		return 2;
	for (;;) {
		if (renameat2(dfd, ".tool-versions", dfd, ".alt", RENAME_EXCHANGE) < 0)
			return 1;
		if (!(++n & 1023) && stat(argv[2], &st) == 0)
			break;
	}
	return 0;
}
EOF
stop=$TEST_TMPDIR/race-stop
rm -f "$stop"
if cc -O2 -o "$TEST_TMPDIR/swapper" "$TEST_TMPDIR/swapper.c" 2>"$err"; then
	"$TEST_TMPDIR/swapper" "$h" "$stop" &
	swapper=$!
	leaked=0 read_ok=0 refused_n=0 other=0 i=0
	while [ $i -lt 100 ]; do
		run --json --only=runtimes "$h"
		if grep -q ZQXRACE "$out" "$err"; then leaked=$((leaked + 1)); fi
		case $st in
		0 | 1) read_ok=$((read_ok + 1)) ;;
		2) refused_n=$((refused_n + 1)) ;;
		*) other=$((other + 1)) ;;
		esac
		i=$((i + 1))
	done
	touch "$stop"
	wait "$swapper"
	check "race: the swapper ran to the end" [ $? = 0 ]
	check "race: never read through the link ($leaked of 100 runs did)" [ "$leaked" = 0 ]
	check "race: every run read the file or refused ($read_ok read, $refused_n refused, $other else)" \
		[ "$other" = 0 ]
else
	not_ok "race: cannot build the swapper: $(head -c 300 "$err")"
fi

# item: A FIFO, a socket or a device for a file
fresh
mkfifo "$h/.nvmrc"
run "$h"
refused "FIFO spec file" ".nvmrc: not a regular file"
fresh
printf 'A=\n' >"$h/.env.example"
mkfifo "$h/.env"
run --json "$h"
check "FIFO .env: an error result, exit 1 (got $st)" [ "$st" = 1 ]
check "FIFO .env: not a regular file" grep -q '"message": "cannot read .env: not a regular file"' "$out"
rm -f "$h/.env"
ln -s /dev/zero "$h/.env"
run --json "$h"
check "device .env: not a regular file" grep -q '"message": "cannot read .env: not a regular file"' "$out"
rm -f "$h/.env"
mkdir "$h/.env"
run --json "$h"
check "directory .env: says so" grep -q '"message": "cannot read .env: is a directory, expected a file"' "$out"
if command -v git >/dev/null 2>&1; then
	fresh
	git init -q "$h"
	printf 'A=\n' >"$h/.env.example"
	printf 'A=1\n' >"$h/.env"
	mkfifo "$h/.gitignore"
	run --json "$h"
	check "FIFO .gitignore: left out, the check runs ($st)" \
		sh -c "awk -v id='\"env.gitignore\"' '/\"id\": /{on=index(\$0,id)>0} on' '$out' | grep -q 'it could be committed'"
fi
# the user's config, too, is never a FIFO
mkdir -p "$TEST_TMPDIR/xdg/envpreflight"
mkfifo "$TEST_TMPDIR/xdg/envpreflight/config.ini"
fresh
printf 'A=\n' >"$h/.env.example"
run "$h"
refused "FIFO config.ini" "config.ini: not a regular file"
rm -f "$TEST_TMPDIR/xdg/envpreflight/config.ini"

# item: Files past the size caps
fresh
truncate -s 2M "$h/package.json"
run "$h"
refused "spec file over the cap" "package.json: larger than the 1024 KiB limit"
fresh
printf 'A=\n' >"$h/.env.example"
truncate -s 2M "$h/.env"
run --json "$h"
check ".env over the cap: says so" grep -q '"message": "cannot read .env: larger than the 1024 KiB limit"' "$out"
if command -v git >/dev/null 2>&1; then
	fresh
	git init -q "$h"
	printf 'A=\n' >"$h/.env.example"
	printf 'A=1\n' >"$h/.env"
	truncate -s 65M "$h/.git/index"
	run --json "$h"
	check "index over 64 MiB: tracked unknown" sh -c "awk -v id='\"env.gitignore\"' '/\"id\": /{on=index(\$0,id)>0} on' '$out' | grep -q '\"tracked\": null'"
fi

# item: Bytes that are not text
fresh
printf '20\000\n' >"$h/.nvmrc"
run "$h"
refused "NUL in a spec file" ".nvmrc:1:3: NUL byte"
fresh
printf '{"engines":\n {"node": "\377"}}\n' >"$h/package.json"
run "$h"
refused "invalid UTF-8 in a spec file" "package.json:2:12: invalid UTF-8"
fresh
printf 'A=\nB=\n' >"$h/.env.example"
printf 'A=ZQXVAL\nB=ZQX\000VAL\n' >"$h/.env"
run --json "$h"
check "NUL in .env: the check fails (exit $st)" [ "$st" = 1 ]
check "NUL in .env: its line and column" grep -q '.env:2:6: NUL byte' "$out"
check "NUL in .env: no value" sh -c "! grep -aq ZQX '$out' '$err'"

# item: Terminal escapes in names
fresh
esc=$(printf '\033')
printf 'version: 1\nenv:\n  required: ["K\\e[31m"]\n' >"$h/preflight.yaml"
printf 'K\033[31m=\n\033]0;title\007X=1\n' >"$h/.env"
for fmt in human json junit github; do
	run --format=$fmt --explain "$h"
	check "escapes, $fmt: none printed" sh -c "! grep -q '$esc' '$out' '$err'"
done

# item: Expansion bombs
fresh
{
	printf 'version: 1\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n'
	i=1
	while [ $i -lt 10 ]; do
		p=$((i - 1))
		printf 'a%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n' \
			$i $i $p $p $p $p $p $p $p $p $p $p
		i=$((i + 1))
	done
} >"$h/preflight.yaml"
run "$h"
refused "billion laughs" "too many nodes"
fresh
awk 'BEGIN { printf "version: 1\nx: &big \""; for (i = 0; i < 4000; i++) printf "0123456789"; printf "\"\ny: ["
	for (i = 0; i < 300; i++) printf "%s*big", i ? ", " : ""; print "]" }' >"$h/preflight.yaml"
run "$h"
refused "one large scalar aliased" "aliases expand to more than 8 MiB of text"
fresh
awk 'BEGIN { for (i = 0; i < 1000; i++) printf "["; print "" }' >"$h/compose.yaml"
run "$h"
refused "deep nesting" "compose.yaml:1:"

# item: Input built to be slow
# Behaviour, not time: what is kept and what is said.  (Before the fix,
# 100,000 .tool-versions lines took over 10 s and 50,000 anchors 9.5 s.)
fresh
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "t%x 1\n", i }' >"$h/.tool-versions"
run --json --only=runtimes $slow "$h"
check "100,000 tools: exit 0 (got $st)" [ "$st" = 0 ]
check "100,000 tools: 1024 runtime checks" [ "$(grep -c '"id": "runtime\.' "$out")" = 1024 ]
check "100,000 tools: the cap is said" grep -q '"message": "not checked: 98976 more runtime requirements (from .tool-versions:1025 on); only the first 1024 are taken"' "$out"
check "100,000 tools: as a skipped check" sh -c "awk -v id='\"runtimes.capped\"' '/\"id\": /{on=index(\$0,id)>0} on' '$out' | grep -q '\"status\": \"skip\"'"
fresh
awk 'BEGIN { n = 45000; printf "x-a: ["; for (i = 0; i < n; i++) printf "%s&%x 0", i ? ", " : "", i
	printf "]\nx-b: ["; for (i = 0; i < n; i++) printf "%s*%x", i ? ", " : "", i
	printf "]\nservices:\n  web:\n    ports: [\"18734:80\"]\n" }' >"$h/compose.yaml"
run --json --only=ports $slow "$h"
check "45,000 anchors and aliases: loads (exit $st)" [ "$st" -le 1 ]
check "45,000 anchors and aliases: its port is checked" grep -q '"id": "ports.tcp.18734"' "$out"
# a compose project built to be slow: every service and env file found
# by an index (before: 4,000 services of 20 missing env files took 42 s,
# profiles named in .env 19 s, all before the deadline applies)
fresh
awk 'BEGIN { printf "services:\n"; for (i = 0; i < 3000; i++) {
	printf "  s%d:\n    image: x\n    profiles: [p%d]\n    env_file: [", i, i
	for (j = 0; j < 20; j++) printf "%se%d.env", j ? ", " : "", (i * 20 + j) % 59000
	print "]" } }' >"$h/compose.yaml"
awk 'BEGIN { printf "COMPOSE_PROFILES="; for (i = 0; i < 3000; i++) printf "%sp%d", i ? "," : "", 2999 - i
	print ",nobody" }' >"$h/.env"
run --json --only=compose $slow "$h"
check "3,000 services, 59,000 missing env files: a failed check (exit $st)" [ "$st" = 1 ]
check "3,000 services: a file two name is one problem" grep -q '"message": "compose.yaml:5: env_file .e0.env. of service s0 and 1 more service does not exist: docker compose up stops (env file not found); 58999 more problems"' "$out"

# item: A crafted git directory
if command -v git >/dev/null 2>&1; then
	gi() { awk -v id='"env.gitignore"' '/"id": /{on=index($0,id)>0} on' "$out"; }
	fresh
	git init -q "$h"
	printf 'A=\n' >"$h/.env.example"
	printf 'A=1\n' >"$h/.env"
	printf '.env\n' >"$h/.gitignore"
	git -C "$h" add -f .env .env.example .gitignore
	run --json "$h"
	check "git: a real index says tracked" sh -c "awk -v id='\"env.gitignore\"' '/\"id\": /{on=index(\$0,id)>0} on' '$out' | grep -q '\"tracked\": true'"
	# cut the index short: never a crash; cut before the .env's entry is
	# whole (the header is 12 bytes, an entry's fixed part 62), unknown
	size=$(wc -c <"$h/.git/index")
	cp "$h/.git/index" "$TEST_TMPDIR/index.full"
	bad=0
	for cut in 0 11 12 40 62 70 $((size / 2)) $((size - 21)) $((size - 1)); do
		head -c "$cut" "$TEST_TMPDIR/index.full" >"$h/.git/index"
		run --json "$h"
		[ "$st" -le 1 ] || bad=$((bad + 1))
		[ "$cut" -gt 70 ] || gi | grep -q '"tracked": null' || bad=$((bad + 1))
	done
	check "git: a truncated index: no crash, no guess ($bad bad)" [ "$bad" = 0 ]
	head -c 300 /dev/urandom >"$h/.git/index"
	run --json "$h"
	check "git: a garbage index tells nothing" sh -c "awk -v id='\"env.gitignore\"' '/\"id\": /{on=index(\$0,id)>0} on' '$out' | grep -q '\"tracked\": null'"
	rm -f "$h/.git/index"
	mkfifo "$h/.git/index"
	run --json "$h"
	check "git: an index that is a FIFO tells nothing ($st)" sh -c "awk -v id='\"env.gitignore\"' '/\"id\": /{on=index(\$0,id)>0} on' '$out' | grep -q '\"tracked\": null'"
	rm -rf "$h/.git"
	printf 'gitdir: /nonexistent/envpreflight\n' >"$h/.git"
	run --json "$h"
	check "git: a .git file pointing nowhere: the rules decide" sh -c "awk -v id='\"env.gitignore\"' '/\"id\": /{on=index(\$0,id)>0} on' '$out' | grep -q 'ignored by git (.gitignore:1)'"
	rm -f "$h/.gitignore"
	printf '.env\n' >"$outside/gitignore"
	ln -s "$outside/gitignore" "$h/.gitignore"
	run --json "$h"
	check "git: a .gitignore linked out is not followed" sh -c "awk -v id='\"env.gitignore\"' '/\"id\": /{on=index(\$0,id)>0} on' '$out' | grep -q 'it could be committed'"
else
	skip "the crafted git directory: git is not installed"
fi

# item: Programs on PATH that the repository ships
fresh
mkdir -p "$h/bin"
cat >"$h/bin/node" <<EOF
#!/bin/sh
touch "$h/EXECUTED"
echo v99.0.0
EOF
chmod +x "$h/bin/node"
printf '{"engines": {"node": ">=1"}}\n' >"$h/package.json"
EP_ENV="PATH=$h/bin:/usr/bin:/bin" run --json "$h"
check "repository node on PATH: never run" [ ! -e "$h/EXECUTED" ]
check "repository node on PATH: said so" grep -q 'inside the audited repository' "$out"

# item: Workspaces that lead out, or are many
# a workspace that is a symlink out, a go.work path out, a pattern with "..":
# refused with a warning, nothing of the outside read
fresh
mkdir -p "$outside/ws" "$h/packages/real" "$h/svc"
printf '{"name":"zqxout","engines":{"node":"<1"}}\n' >"$outside/ws/package.json"
printf 'ZQXOUTKEY=\n' >"$outside/ws/.env.example"
printf 'module out\n\ngo 9.99.12345\n' >"$outside/ws/go.mod"
ln -s "$outside/ws" "$h/packages/evil"
printf '{"name":"real"}\n' >"$h/packages/real/package.json"
printf '{"workspaces": ["packages/*", "../*", "../../**"]}\n' >"$h/package.json"
printf 'use (\n\t../outside/ws\n\t%s/ws\n)\n' "$outside" >"$h/go.work"
run --json "$h"
check "workspaces out: a warning, not a failure (exit $st)" [ "$st" = 0 ]
# fixed strings: a duration such as 19.995 ms must not match the version
check "workspaces out: nothing of the outside read" sh -c "! grep -q -F -e ZQXOUT -e zqxout -e 9.99.12345 '$out' '$err'"
check "workspaces out: the symlink refused" grep -q 'packages/evil leads out of the repository (a symbolic link): refused, not read' "$out"
check "workspaces out: the pattern refused" grep -q "'../\*' leads out of the repository: refused, not searched" "$out"
check "workspaces out: the go.work paths refused" grep -q "'../outside/ws' leads out of the repository" "$out"
check "workspaces out: the absolute go.work path refused" grep -q "/ws is outside the repository: refused, not read" "$out"
check "workspaces out: one workspace audited" grep -q '"audited": \["packages/real"\]' "$out"
# many: at most 1000 workspaces, a pattern at most 16 levels deep, the
# rest said, not walked
fresh
mkdir -p "$h/p"
# (one mkdir for all: a process a folder costs seconds on a slow machine)
(cd "$h/p" && seq -f 'w%04g' 0 1009 | xargs mkdir &&
	for d in w*; do printf '{}\n' >"$d/package.json"; done)
deep=a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q
mkdir -p "$h/$deep"
printf '{}\n' >"$h/$deep/package.json"
printf '{"workspaces": ["p/*", "%s"]}\n' "$deep" >"$h/package.json"
run --json --only=workspaces $slow "$h"
check "1010 workspaces: a warning (exit $st)" [ "$st" = 0 ]
check "1010 workspaces: 1000 taken" py -c "
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if len(d['run']['workspaces']['found']) == 1000 else 1)" "$out"
check "1010 workspaces: the cap said" grep -q 'more than 1000 workspaces' "$out"
check "17 levels: not searched" grep -q 'is deeper than 16 levels: not searched' "$out"

# item: Workflow commands in text
# (github.sh reads every line as the Actions runner does; here the plain
# rule: past our annotations no line starts with "::" after blanks, and no
# "##[" is left without the backslash after it)
fresh
printf '{"engines": {"node": "##[error]x ::error::y"}}\n' >"$h/package.json"
printf 'services:\n  a:\n    image: x\n    environment:\n      - "K=${NEED:?::add-mask::m}"\n' \
	>"$h/compose.yaml"
forged() {
	grep -hv -e '^::error ' -e '^::warning ' "$out" "$err" |
		grep -qE -e '^[[:space:]]*::' -e '##\[([^\\]|$)'
}
run --format=github --explain "$h"
check "workflow commands: the checks fail (exit $st)" [ "$st" = 1 ]
check "workflow commands: the text is there" grep -qF "'##[\\error]x ::error::y'" "$out"
check "workflow commands: not one" eval '! forged'
printf 'version: 1\n"::stop-commands::tok ##[stop-commands]tok": 1\n' >"$h/preflight.yaml"
run --format=github "$h"
check "workflow commands, spec error: exit 2 (got $st)" [ "$st" = 2 ]
check "workflow commands, spec error: not one" eval '! forged'

# item: Secrets to leak
fresh
M=ZQXLEAK4471
printf 'A=\nDATABASE_URL=\nB=\n' >"$h/.env.example"
printf 'A="%s quoted"\nDATABASE_URL=postgres://u:%s@localhost:1/db\nbroken %s\nA=%s-dup\n' \
	"$M" "$M" "$M" "$M" >"$h/.env"
for fmt in human json junit github; do
	run --format=$fmt --explain "$h"
	check "secrets, $fmt: no value (exit $st)" sh -c "[ $st -le 1 ] && ! grep -q $M '$out' '$err'"
done

# ---- a repository's .corepack.env (corepack 0.29 and later read
# COREPACK_* from one beside each package.json): its COREPACK_HOME points
# at a "pnpm 9.0.0" the repository ships, whose bin would write a file.
# The child gets COREPACK_ENV_FILE=0: corepack must not read it, nothing
# of the repository runs.  Corepack's own pnpm shim, from Debian's node.
cp_dir=$(dirname "$(readlink -f "$(command -v corepack 2>/dev/null || echo /nonexistent)")")
if [ ! -f "$cp_dir/pnpm.js" ]; then
	skip "a repository's .corepack.env: no corepack here (Debian's nodejs ships it)"
else
	cx=$TEST_TMPDIR/corepack-env
	mkdir -p "$cx/bin" "$cx/repo/.cp/v1/pnpm/9.0.0"
	ln -s "$cp_dir/pnpm.js" "$cx/bin/pnpm"
	printf '{"name": "x", "packageManager": "pnpm@9.0.0"}\n' >"$cx/repo/package.json"
	printf 'COREPACK_HOME=%s/repo/.cp\n' "$cx" >"$cx/repo/.corepack.env"
	printf '{"locator": {"name": "pnpm", "reference": "9.0.0"}, "bin": {"pnpm": "evil.cjs"}, "hash": "sha512.0"}\n' \
		>"$cx/repo/.cp/v1/pnpm/9.0.0/.corepack"
	printf 'require("fs").writeFileSync(%s, "ran");\nconsole.log("9.0.0");\n' \
		"'$cx/PWNED'" >"$cx/repo/.cp/v1/pnpm/9.0.0/evil.cjs"
	EP_ENV="PATH=$cx/bin:/usr/bin:/bin XDG_CACHE_HOME=/dev/null/no-cache" \
		ep --json --only=runtimes --timeout=20000 "$cx/repo" >"$cx/out.json"
	check "a repository's .corepack.env: its pnpm never ran" [ ! -e "$cx/PWNED" ]
	found=$(py -c '
import json, sys
print([c["data"]["found"] for c in json.load(open(sys.argv[1]))["checks"]
       if c["data"].get("runtime") == "pnpm"])' "$cx/out.json")
	check "... and its version is not the repository's pnpm's ($found)" [ "$found" != "['9.0.0']" ]
fi
finish
