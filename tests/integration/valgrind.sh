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
check "bad yaml" vg "$cases/bad-yaml/repo"
check "nothing to audit" vg "$cases/nothing/repo"
check "--list-probes" vg --list-probes
# the deps probe: each lockfile kind, in sync and drifted, from the fixtures
fx=$top/tests/fixtures/deps
dd=$TEST_TMPDIR/deps
mkdir -p "$dd/pnpm/node_modules/.pnpm" "$dd/yarn/node_modules" "$dd/uv/.venv/lib/python3.12/site-packages/idna-3.9.dist-info" "$dd/poetry"
cp "$fx/pnpm/pnpm-lock.yaml" "$dd/pnpm/"
cp "$fx/pnpm/modules.yaml" "$dd/pnpm/node_modules/.modules.yaml"
sed 's/lodash@4.17.21/lodash@4.17.20/' "$fx/pnpm/current-lock.yaml" >"$dd/pnpm/node_modules/.pnpm/lock.yaml"
cp "$fx/yarn-nm/yarn.lock" "$dd/yarn/"
cp "$fx/yarn-nm/yarn-state.yml" "$dd/yarn/node_modules/.yarn-state.yml"
cp "$fx/uv/uv.lock" "$dd/uv/"
printf 'version_info = 3.12.3\n' >"$dd/uv/.venv/pyvenv.cfg"
printf 'Name: idna\nVersion: 3.9\n' >"$dd/uv/.venv/lib/python3.12/site-packages/idna-3.9.dist-info/METADATA"
cp "$fx/poetry/poetry.lock" "$fx/poetry/pyproject.toml" "$dd/poetry/"
printf 'requests==2.32.3\nbad line ==\n' >"$dd/poetry/requirements.txt"
mkdir -p "$dd/npm/node_modules/a"
printf '{"lockfileVersion": 3, "packages": {"": {}, "node_modules/a": {"version": "1.0.0"}, "node_modules/b": {"version": "2.0.0"}}}' >"$dd/npm/package-lock.json"
printf '{"name": "a", "version": "0.9.0"}' >"$dd/npm/node_modules/a/package.json"
for c in pnpm yarn uv poetry npm; do
	check "deps $c --json --explain" vg --only=deps --json --explain "$dd/$c"
done
printf '{"packages": {' >"$dd/npm/package-lock.json"
check "deps corrupt lockfile" vg --only=deps "$dd/npm"
finish
