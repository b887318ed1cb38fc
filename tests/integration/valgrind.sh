#!/bin/sh
# valgrind.sh - no leaks and no memory errors on the main paths: a clean
# audit, every output format, a failing audit and a usage error.
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
# workspaces: grouped and folded, JSON, ports across workspaces, go.work and
# uv, a contradiction, a symlink out, --workspace, not YAML (exit 2)
check "workspaces, --explain" vg --explain "$cases/ws-pnpm/repo"
check "workspaces, json" vg --json "$cases/ws-pnpm/repo"
check "workspaces, ports" vg --json "$cases/ws-ports/repo"
check "workspaces, go and uv" vg "$cases/ws-go-uv/repo"
check "workspaces, contradiction" vg --format=junit "$cases/ws-contradiction/repo"
check "workspaces, symlink out" vg --format=github "$cases/ws-symlink-out/repo"
check "workspaces, --workspace" vg --workspace=apps/web "$cases/ws-pnpm/repo"
check "workspaces, not YAML (exit 2)" vg --json "$cases/ws-bad-yaml/repo"
check "nothing to audit" vg "$cases/nothing/repo"
check "--list-probes" vg --list-probes
finish
