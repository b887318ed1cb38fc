#!/bin/sh
# valgrind.sh - no leaks and no memory errors on the main paths: a clean
# audit, every output format, a failing audit and a usage error, and the
# sandbox probe.
. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
if ! command -v valgrind >/dev/null 2>&1; then
	echo "note: valgrind is not installed; skipped"
	finish
	exit
fi
case $EP_BIN in
*asan*) echo "note: an ASan build is not run under valgrind"; finish; exit ;;
esac
vg() {
	env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$TEST_TMPDIR/home" \
		XDG_CONFIG_HOME="$TEST_TMPDIR/xdg" XDG_CACHE_HOME="$TEST_TMPDIR/cache" LC_ALL=C.UTF-8 \
		valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect,possible \
		--error-exitcode=99 "$EP_BIN" "$@" >/dev/null 2>"$TEST_TMPDIR/vg"
	st=$?
	[ "$st" != 99 ] || { cat "$TEST_TMPDIR/vg"; return 1; }
}
cases=$top/tests/cases
check "webapp" vg "$top/examples/webapp"
for f in human json junit github; do
	check "mixed $f --explain" vg --format=$f --explain "$cases/env-mixed-json/repo"
done
check "monorepo after cp, --explain" vg --explain --only=env,ports "$cases/env-monorepo-cp/repo"
check "monorepo filled, json" vg --json --explain --only=env "$cases/env-monorepo-filled/repo"
mkdir -p "$TEST_TMPDIR/skipped"
printf 'A=1\nnot an assignment\n' >"$TEST_TMPDIR/skipped/.env.example"
check "example line dotenv skips (exit 2)" vg "$TEST_TMPDIR/skipped"
check "bad yaml" vg "$cases/bad-yaml/repo"
check "nothing to audit" vg "$cases/nothing/repo"
check "--list-probes" vg --list-probes
# the sandbox probe, with secrets in the home and a sudoers-free machine
mkdir -p "$TEST_TMPDIR/home/.ssh" "$TEST_TMPDIR/sbx"
: >"$TEST_TMPDIR/home/.ssh/id_ed25519"
printf '//r/:_authToken=x\n' >"$TEST_TMPDIR/home/.npmrc"
check "sandbox, every check" vg --only=sandbox --json --explain "$TEST_TMPDIR/sbx"
printf 'version: 1\nsandbox:\n  capabilities: [chown]\n  secrets: [npmrc]\n  processes: 3\n' \
	>"$TEST_TMPDIR/sbx/preflight.yaml"
check "sandbox from preflight.yaml, human" vg --explain "$TEST_TMPDIR/sbx"
finish
