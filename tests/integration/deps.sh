#!/bin/sh
# deps.sh - the deps probe end to end.  npm's lockfiles are real: npm
# installs a tiny package packed here (npm pack, npm install --offline
# from a file: dependency: no network).  pnpm, yarn, uv and poetry are not
# on the test machine, so their lockfiles and install records are fixtures
# shaped like what those tools write (tests/fixtures/deps), and a virtual
# environment is built by hand (pyvenv.cfg, *.dist-info/METADATA).  Bad
# input: corrupt lockfiles, a node_modules that is a file, a .venv symlink
# loop, a METADATA without Version:, a 50 MiB lockfile and one over the cap.
. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
fx=$top/tests/fixtures/deps

# has TEXT OUTPUT: OUTPUT holds TEXT
has() { printf '%s\n' "$2" | grep -qF -- "$1"; }
# json_field OUTPUT PYEXPR: evaluates PYEXPR with c = the deps check
json_is() {
	printf '%s' "$1" | py -c '
import json, sys
d = json.load(sys.stdin)
c = [x for x in d["checks"] if x["probe"] == "deps"][0]
sys.exit(0 if eval(sys.argv[1]) else 1)' "$2"
}

# ---- npm: real lockfiles ----
if command -v npm >/dev/null 2>&1; then
	src=$TEST_TMPDIR/npm-src
	repo=$TEST_TMPDIR/npm
	mkdir -p "$src/tiny-a" "$repo"
	printf '{"name":"tiny-a","version":"1.0.0"}\n' >"$src/tiny-a/package.json"
	echo 'module.exports = 1' >"$src/tiny-a/index.js"
	(cd "$src/tiny-a" && HOME=$TEST_TMPDIR/home npm pack --pack-destination "$src" -q \
		--cache "$TEST_TMPDIR/npm-cache" >/dev/null 2>&1)
	printf '{"name":"app","version":"1.0.0","dependencies":{"tiny-a":"file:../npm-src/tiny-a-1.0.0.tgz"}}\n' \
		>"$repo/package.json"
	(cd "$repo" && HOME=$TEST_TMPDIR/home npm install --offline --no-audit --no-fund \
		--cache "$TEST_TMPDIR/npm-cache" >/dev/null 2>&1)
	check "npm installed the fixture" [ -f "$repo/node_modules/.package-lock.json" ]
	cp -a "$repo" "$TEST_TMPDIR/npm-pristine"

	out=$(ep --only=deps "$repo")
	check "npm up to date: exit 0 ($?): $out" has "npm packages (package-lock.json): 1 package matches node_modules/.package-lock.json" "$out"

	# the hidden lockfile says another version was installed
	sed -i 's/"version": "1.0.0"/"version": "0.9.0"/' "$repo/node_modules/.package-lock.json"
	out=$(ep --only=deps "$repo")
	st=$?
	check "npm drifted (hidden lockfile): exit 1 ($st)" [ "$st" = 1 ]
	check "npm drifted: names the package: $out" has "tiny-a: lockfile 1.0.0, installed 0.9.0" "$out"
	out=$(ep --only=deps --json "$repo")
	check "npm drifted: JSON differences" json_is "$out" \
		'c["reason"] == "out-of-date" and c["data"]["differences"] == [{"name": "tiny-a", "problem": "version", "key": "node_modules/tiny-a", "lockfile": "1.0.0", "installed": "0.9.0"}] and c["fix"]["argv"] == ["npm", "ci"]'

	# the installed package.json changed after the install: npm no longer
	# trusts its hidden lockfile (a folder is newer), nor does the probe
	rm -rf "$repo" && cp -a "$TEST_TMPDIR/npm-pristine" "$repo"
	sed -i 's/"1.0.0"/"1.0.5"/' "$repo/node_modules/tiny-a/package.json"
	touch -d '+1 hour' "$repo/node_modules/tiny-a"
	out=$(ep --only=deps --explain "$repo")
	check "npm drifted (installed package.json): $out" has "tiny-a: lockfile 1.0.0, installed 1.0.5" "$out"
	check "npm: says why the hidden lockfile was not used" \
		has "not used, as npm would not (out of date, updated: node_modules/tiny-a)" "$out"

	# a package installed that the lockfile does not name: a warning
	rm -rf "$repo" && cp -a "$TEST_TMPDIR/npm-pristine" "$repo"
	mkdir -p "$repo/node_modules/stray"
	printf '{"name":"stray","version":"3.0.0"}\n' >"$repo/node_modules/stray/package.json"
	out=$(ep --only=deps "$repo")
	st=$?
	check "npm extra package: a warning, exit 0 ($st): $out" \
		has "1 installed package not in package-lock.json: stray: not in the lockfile, installed 3.0.0" "$out"

	# no node_modules: the install command as data, never run
	rm -rf "$repo/node_modules"
	out=$(ep --only=deps --json "$repo")
	check "npm missing node_modules: not-installed, npm ci" json_is "$out" \
		'c["status"] == "fail" and c["reason"] == "not-installed" and c["fix"]["argv"] == ["npm", "ci"] and "network" in c["fix"]["needs"]'
	check "npm missing node_modules: nothing was installed" [ ! -e "$repo/node_modules" ]

	# node_modules is a file
	echo x >"$repo/node_modules"
	out=$(ep --only=deps "$repo")
	check "node_modules a file: $out" has "node_modules is not a directory" "$out"
	rm -f "$repo/node_modules"

	# corrupted lockfile: file and line
	cp "$TEST_TMPDIR/npm-pristine/package-lock.json" "$repo/package-lock.json"
	sed -i '12s/.*/      "version": 1.0.0",/' "$repo/package-lock.json"
	out=$(ep --only=deps --json "$repo")
	check "npm corrupt lockfile: lockfile-invalid at its line" json_is "$out" \
		'c["reason"] == "lockfile-invalid" and c["message"].startswith("package-lock.json:12:") and c["fix"]["edit"]["file"] == "package-lock.json"'
else
	skip "the real npm lockfile cases: npm is not installed"
fi

# ---- npm's hidden lockfile, judged as npm would (made by hand) ----
# The hidden lockfile is parsed while node_modules is walked and the
# folders the walk saw are judged against it after: the reason given is
# still the first one in the walk's order.
npm_hand() {	# DIR HIDDEN-PACKAGES: a and b at 1.0.0, locked and installed
	rm -rf "$1"
	mkdir -p "$1/node_modules/a" "$1/node_modules/b"
	printf '{"name":"app","version":"1.0.0"}\n' >"$1/package.json"
	printf '{"name":"app","version":"1.0.0","lockfileVersion":3,"requires":true,"packages":{"":{"name":"app","version":"1.0.0"},"node_modules/a":{"version":"1.0.0"},"node_modules/b":{"version":"1.0.0"}}}\n' \
		>"$1/package-lock.json"
	for p in a b; do
		printf '{"name":"%s","version":"1.0.0"}\n' "$p" >"$1/node_modules/$p/package.json"
	done
	printf '{"name":"app","version":"1.0.0","lockfileVersion":3,"requires":true,"packages":{%s}}\n' \
		"$2" >"$1/node_modules/.package-lock.json"
	find "$1/node_modules" -type d -exec touch -d '-1 hour' {} +
	touch -d '-30 minutes' "$1/node_modules/.package-lock.json"
}
both='"node_modules/a":{"version":"1.0.0"},"node_modules/b":{"version":"1.0.0"}'
repo=$TEST_TMPDIR/npm-hand
npm_hand "$repo" "$both"
out=$(ep --only=deps --explain "$repo")
check "npm by hand: the hidden lockfile trusted: $out" \
	has "npm packages (package-lock.json): 2 packages match node_modules/.package-lock.json" "$out"
npm_hand "$repo" '"node_modules/b":{"version":"1.0.0"}'
touch -d '+1 hour' "$repo/node_modules/b"
out=$(ep --only=deps --explain "$repo")
check "npm by hand: a folder missing from the hidden lockfile, before a newer one: $out" \
	has "not used, as npm would not (missing from lockfile: node_modules/a)" "$out"
npm_hand "$repo" '"node_modules/a":{"version":"1.0.0"}'
touch -d '+1 hour' "$repo/node_modules/a"
out=$(ep --only=deps --explain "$repo")
check "npm by hand: a newer folder, before one missing from the hidden lockfile: $out" \
	has "not used, as npm would not (out of date, updated: node_modules/a)" "$out"
npm_hand "$repo" "$both"',"node_modules/a/node_modules/c":{"version":"1.0.0"}'
mkdir -p "$repo/node_modules/a/node_modules/c"
printf '{"name":"c","version":"1.0.0"}\n' >"$repo/node_modules/a/node_modules/c/package.json"
touch -d '-1 hour' "$repo/node_modules/a" "$repo/node_modules/a/node_modules/c"
touch -d '+1 hour' "$repo/node_modules/a/node_modules"
out=$(ep --only=deps --explain "$repo")
check "npm by hand: a newer nested node_modules: $out" \
	has "not used, as npm would not (out of date, updated: node_modules/a/node_modules)" "$out"
npm_hand "$repo" "$both"',"node_modules/c":{"version":"1.0.0"}'
out=$(ep --only=deps --explain "$repo")
check "npm by hand: a hidden lockfile entry with no folder: $out" \
	has "not used, as npm would not (missing from node_modules: node_modules/c)" "$out"
npm_hand "$repo" "$both"
printf '{"packages": {' >"$repo/node_modules/.package-lock.json"
touch -d '-30 minutes' "$repo/node_modules/.package-lock.json"
out=$(ep --only=deps --explain "$repo")
check "npm by hand: a hidden lockfile that cannot be parsed: $out" \
	has "not used, as npm would not (it cannot be parsed): the installed package.json files were read" "$out"
check "npm by hand: ... and the folders compared: $out" \
	has "2 packages match the package.json files in node_modules" "$out"

# ---- a 50 MiB lockfile, and one over the cap ----
repo=$TEST_TMPDIR/big
mkdir -p "$repo"
py - "$repo/package-lock.json" <<'EOF'
import sys
out = open(sys.argv[1], "w")
out.write('{"name": "big", "lockfileVersion": 3, "packages": {"": {"name": "big"}')
i = size = 0
while size < 50 * 1024 * 1024:
    e = ',\n "node_modules/p%d": {"version": "1.%d.0", "resolved": "https://registry.npmjs.org/p%d/-/p%d-1.%d.0.tgz", "integrity": "sha512-%s=="}' % (i, i % 9, i, i, i % 9, "Q" * 86)
    out.write(e)
    size += len(e)
    i += 1
out.write("\n}}\n")
EOF
out=$(ep --only=deps --timeout=120000 "$repo")
st=$?
check "50 MiB lockfile: read and compared (exit $st): $out" \
	has "npm packages (package-lock.json): node_modules does not exist" "$out"
printf '{' >"$repo/package-lock.json"
truncate -s 70M "$repo/package-lock.json"
out=$(ep --only=deps --json "$repo")
check "lockfile over the cap: skipped, naming it" json_is "$out" \
	'c["status"] == "skip" and c["reason"] == "out-of-scope" and c["message"] == "package-lock.json not compared: it is 70.0 MiB, over the 64 MiB cap for lockfiles"'
rm -f "$repo/package-lock.json"

# ---- pnpm: fixtures shaped like pnpm 9's files ----
repo=$TEST_TMPDIR/pnpm
mkdir -p "$repo/node_modules/.pnpm"
cp "$fx/pnpm/pnpm-lock.yaml" "$repo/"
cp "$fx/pnpm/modules.yaml" "$repo/node_modules/.modules.yaml"
cp "$fx/pnpm/current-lock.yaml" "$repo/node_modules/.pnpm/lock.yaml"
# the folders and links pnpm made: pnpm reinstalls a package whose folder
# is missing (tests/integration/deps_pnpm.sh shows it with the real pnpm),
# so a record without them is no longer "up to date"
for id in js-tokens@4.0.0 lodash@4.17.21 loose-envify@1.4.0 react-dom@18.2.0_react@18.2.0 \
	react@18.2.0 scheduler@0.23.2 typescript@5.4.5; do
	mkdir -p "$repo/node_modules/.pnpm/$id/node_modules/${id%%@*}"
done
for n in lodash react-dom typescript; do
	ln -s ".pnpm/$(cd "$repo/node_modules/.pnpm" && echo "$n"@*)/node_modules/$n" "$repo/node_modules/$n"
done
out=$(ep --only=deps --explain "$repo")
check "pnpm up to date (fsevents skipped for darwin): $out" \
	has "pnpm packages (pnpm-lock.yaml): 7 packages match node_modules/.pnpm/lock.yaml" "$out"
sed -i 's/lodash@4.17.21/lodash@4.17.20/; s/version: 4.17.21/version: 4.17.20/' \
	"$repo/node_modules/.pnpm/lock.yaml"
mv "$repo/node_modules/.pnpm/lodash@4.17.21" "$repo/node_modules/.pnpm/lodash@4.17.20"
out=$(ep --only=deps --json "$repo")
check "pnpm drifted: lodash 4.17.21 vs 4.17.20" json_is "$out" \
	'c["reason"] == "out-of-date" and c["data"]["differences"][0]["name"] == "lodash" and c["data"]["differences"][0]["lockfile"] == "4.17.21" and c["data"]["differences"][0]["installed"] == "4.17.20" and c["data"]["differ"] == 1'
# versions without their peer suffixes; ids that differ by them alone
# are shown whole
sed -i 's/lodash@4.17.20/lodash@4.17.21/; s/version: 4.17.20/version: 4.17.21/' \
	"$repo/node_modules/.pnpm/lock.yaml"
mv "$repo/node_modules/.pnpm/lodash@4.17.20" "$repo/node_modules/.pnpm/lodash@4.17.21"
sed -i 's/react-dom@18.2.0(react@18.2.0)/react-dom@18.3.1(react@18.2.0)/' \
	"$repo/node_modules/.pnpm/lock.yaml"
mv "$repo/node_modules/.pnpm/react-dom@18.2.0_react@18.2.0" \
	"$repo/node_modules/.pnpm/react-dom@18.3.1_react@18.2.0"
out=$(ep --only=deps "$repo")
check "pnpm drifted: the version without its peers: $out" \
	has "react-dom: lockfile 18.2.0, installed 18.3.1" "$out"
sed -i 's/react-dom@18.3.1(react@18.2.0)/react-dom@18.2.0(react@18.1.0)/' \
	"$repo/node_modules/.pnpm/lock.yaml"
mv "$repo/node_modules/.pnpm/react-dom@18.3.1_react@18.2.0" \
	"$repo/node_modules/.pnpm/react-dom@18.2.0_react@18.1.0"
out=$(ep --only=deps "$repo")
check "pnpm drifted: peers alone, shown: $out" \
	has "react-dom: lockfile 18.2.0(react@18.2.0), installed 18.2.0(react@18.1.0)" "$out"
rm -rf "$repo/node_modules"
out=$(ep --only=deps --json "$repo")
check "pnpm no node_modules: pnpm install --frozen-lockfile" json_is "$out" \
	'c["reason"] == "not-installed" and c["fix"]["argv"] == ["pnpm", "install", "--frozen-lockfile"]'
printf 'lockfileVersion: 9.0\npackages:\n  a@1.0.0: {\n' >"$repo/pnpm-lock.yaml"
out=$(ep --only=deps "$repo")
check "pnpm corrupt lockfile names file and line: $out" has "pnpm-lock.yaml:4:1:" "$out"
# package.json pins npm: the pnpm lockfile is left over
printf '{"packageManager": "npm@10.8.0"}\n' >"$repo/package.json"
out=$(ep --only=deps "$repo")
check "packageManager names another manager: skipped: $out" \
	has "package.json's packageManager names npm: pnpm-lock.yaml is not the lockfile in use" "$out"

# ---- yarn berry ----
repo=$TEST_TMPDIR/yarn
# the folders the record says yarn linked are there (yarn links a missing
# one again: tests/integration/deps_yarn.sh checks that with the real yarn)
mkdir -p "$repo/node_modules/debug" "$repo/node_modules/lodash" "$repo/node_modules/ms"
cp "$fx/yarn-nm/yarn.lock" "$repo/"
cp "$fx/yarn-nm/yarn-state.yml" "$repo/node_modules/.yarn-state.yml"
out=$(ep --only=deps "$repo")
check "yarn node-modules up to date (virtual locator, darwin-only skipped): $out" \
	has "yarn packages (yarn.lock): 3 packages match node_modules/.yarn-state.yml" "$out"
rmdir "$repo/node_modules/ms"
out=$(ep --only=deps "$repo")
check "yarn node-modules, a linked folder deleted: $out" \
	has "1 folder yarn linked is missing: node_modules/ms" "$out"
mkdir "$repo/node_modules/ms"
sed -i 's/lodash@npm:4.17.21/lodash@npm:4.17.20/' "$repo/node_modules/.yarn-state.yml"
out=$(ep --only=deps "$repo")
check "yarn drifted: $out" has "lodash: lockfile 4.17.21, installed 4.17.20" "$out"
check "yarn drifted: the fix" has "run yarn install --immutable to install" "$out"
repo=$TEST_TMPDIR/yarn-pnp
mkdir -p "$repo/.yarn"
cp "$fx/yarn-pnp/yarn.lock" "$repo/"
out=$(ep --only=deps --json "$repo")
check "yarn pnp, never installed: not-installed" json_is "$out" \
	'c["reason"] == "not-installed" and c["fix"]["argv"] == ["yarn", "install", "--immutable"]'
# the install state is read (gzip, v8): one that is not yarn's fails, and
# yarn install writes it anew (install state, branch switches, zero-install
# clones and a deleted .pnp.cjs against the real yarn: deps_yarn.sh)
printf 'not really gzip' >"$repo/.yarn/install-state.gz"
: >"$repo/.pnp.cjs"
out=$(ep --only=deps "$repo")
check "yarn pnp, an install state that is not yarn's: $out" \
	has ".yarn/install-state.gz cannot be read" "$out"
rm "$repo/.yarn/install-state.gz"
out=$(ep --only=deps "$repo")
check "yarn pnp, .pnp.cjs without an install state (zero-install): $out" \
	has ".pnp.cjs is the repository's own (zero-install" "$out"
printf '# yarn lockfile v1\n\nlodash@^4.17.21:\n  version "4.17.21"\n' >"$repo/yarn.lock"
out=$(ep --only=deps "$repo")
check "yarn 1 lockfile: skipped, says why: $out" has "is a yarn 1 lockfile: not compared" "$out"

# ---- Python: a virtual environment built by hand ----
# venv DIR VERSION NAME==VER...: pyvenv.cfg and one dist-info a package
venv() {
	d=$1 v=$2
	shift 2
	sp=$d/lib/python${v%.*}/site-packages
	mkdir -p "$sp"
	printf 'home = /usr/bin\nimplementation = CPython\nversion_info = %s\ninclude-system-site-packages = false\n' \
		"$v" >"$d/pyvenv.cfg"
	for p in "$@"; do
		n=${p%%==*}
		mkdir -p "$sp/$n-${p#*==}.dist-info"
		printf 'Metadata-Version: 2.1\nName: %s\nVersion: %s\nSummary: x\n\nlong text\nVersion: 0\n' \
			"$n" "${p#*==}" >"$sp/$n-${p#*==}.dist-info/METADATA"
	done
}
repo=$TEST_TMPDIR/uv
mkdir -p "$repo"
cp "$fx/uv/uv.lock" "$repo/"
venv "$repo/.venv" 3.12.3 anyio==4.8.0 idna==3.10 sniffio==1.3.1 typing_extensions==4.12.2 \
	pytest==8.3.4 iniconfig==2.0.0 webapp==0.1.0 pip==24.0
out=$(ep --only=deps --json "$repo")
check "uv up to date on 3.12 (no exceptiongroup, colorama, trio)" json_is "$out" \
	'c["status"] == "pass" and c["data"]["packages"] == 7 and c["message"] == "7 packages match .venv (.venv)"'
sed -i 's/^Version: 3.10$/Version: 3.9/' "$repo/.venv/lib/python3.12/site-packages/idna-3.10.dist-info/METADATA"
rm -rf "$repo/.venv/lib/python3.12/site-packages/sniffio-1.3.1.dist-info"
out=$(ep --only=deps "$repo")
check "uv drifted: names both: $out" \
	has "2 of 7 packages differ from uv.lock: idna: lockfile 3.10, installed 3.9; sniffio: lockfile 1.3.1, not installed" "$out"
check "uv drifted: uv sync --locked" has "run uv sync --locked to install what uv.lock says" "$out"
# a METADATA without Version:
printf 'Metadata-Version: 2.1\nName: idna\n' >"$repo/.venv/lib/python3.12/site-packages/idna-3.10.dist-info/METADATA"
out=$(ep --only=deps --json "$repo")
check "METADATA without Version: named, no crash" json_is "$out" \
	'any(x["name"] == "idna" and x["problem"] == "unknown-version" for x in c["data"]["differences"])'
# Python 3.10: exceptiongroup is wanted too
repo=$TEST_TMPDIR/uv310
mkdir -p "$repo"
cp "$fx/uv/uv.lock" "$repo/"
venv "$repo/.venv" 3.10.14 anyio==4.8.0 idna==3.10 sniffio==1.3.1 typing_extensions==4.12.2 \
	pytest==8.3.4 iniconfig==2.0.0 webapp==0.1.0
out=$(ep --only=deps "$repo")
check "uv on 3.10: exceptiongroup missing: $out" has "exceptiongroup: lockfile 1.2.2, not installed" "$out"
# no .venv; a .venv that is a symlink loop
rm -rf "$repo/.venv"
out=$(ep --only=deps --json "$repo")
check "uv without .venv: not-installed, uv sync --locked" json_is "$out" \
	'c["reason"] == "not-installed" and c["fix"]["argv"] == ["uv", "sync", "--locked"]'
ln -s loop-b "$repo/loop-a"
ln -s loop-a "$repo/loop-b"
ln -s loop-a "$repo/.venv"
out=$(ep --only=deps "$repo")
st=$?
check "a .venv symlink loop: a result naming it (exit $st): $out" \
	has "cannot use the virtual environment .venv: Too many levels of symbolic links" "$out"
printf 'version = 1\n[[package]]\nname = "a"\nversion = 1.0"\n' >"$repo/uv.lock"
out=$(ep --only=deps "$repo")
check "corrupt uv.lock: file, line and column: $out" has "uv.lock:4:14: expected the end of the line" "$out"
: >"$repo/uv.lock"
out=$(ep --only=deps "$repo")
st=$?
check "an empty uv.lock (uv refuses it) fails, naming it (exit $st): $out" \
	sh -c '[ "$1" = 1 ] && printf "%s\n" "$2" | grep -q "uv.lock:1:1: missing field .version."' _ "$st" "$out"

# poetry: the lock's own groups and markers decide
repo=$TEST_TMPDIR/poetry
mkdir -p "$repo"
cp "$fx/poetry/poetry.lock" "$fx/poetry/pyproject.toml" "$repo/"
venv "$repo/.venv" 3.12.3 requests==2.32.3 certifi==2024.12.14
out=$(ep --only=deps "$repo")
check "poetry up to date (colorama win32, tomli <3.11, docs optional): $out" \
	has "Python packages (poetry.lock): 2 packages match .venv (.venv)" "$out"
rm -rf "$repo/.venv"
out=$(ep --only=deps "$repo")
check "poetry without an environment: skipped with the reason: $out" \
	has "no virtual environment to compare poetry.lock with" "$out"
venv "$TEST_TMPDIR/active" 3.12.3 requests==2.32.0 certifi==2024.12.14
out=$(EP_ENV="VIRTUAL_ENV=$TEST_TMPDIR/active" ep --only=deps "$repo")
check "poetry uses the active VIRTUAL_ENV: $out" has "requests: lockfile 2.32.3, installed 2.32.0" "$out"

# a lock poetry 2 wrote (lock-version 2.1) whose content-hash no longer
# matches pyproject.toml: poetry 2 refuses it ("pyproject.toml changed
# significantly since poetry.lock was last generated").  No poetry 2 runs
# here: the oracle of the hash is tests/poetryhash.py, poetry's own
# _get_content_hash under Python's tomllib and json (and for 1.x, Debian's
# poetry itself agrees: deps_poetry.sh)
venv "$repo/.venv" 3.12.3 requests==2.32.3 certifi==2024.12.14
# rehash K: the lock's content-hash set to poetry release K's
rehash() {
	h=$(py "$top/tests/poetryhash.py" "$repo/pyproject.toml" "$1")
	sed -i "s/^content-hash = .*/content-hash = \"$h\"/" "$repo/poetry.lock"
}
sed -i 's/^requests = "^2.32"/requests = "^2.31"/' "$repo/pyproject.toml"
out=$(ep --only=deps --json "$repo")
check "lock 2.1, pyproject edited: poetry 2 refuses, so does the check, the relock its fix" py -c '
import json, sys
c = json.loads(sys.argv[1])["checks"][0]
assert c["status"] == "fail" and c["reason"] == "out-of-date", c
assert "changed significantly since poetry.lock was last generated" in c["message"], c
assert c["fix"]["argv"] == ["poetry", "lock"] and c["fix"]["writes"] == ["poetry.lock"], c
' "$out"
rehash 0
out=$(ep --only=deps "$repo")
check "... relocked (the hash poetry writes): it passes: $out" \
	has "Python packages (poetry.lock): 2 packages match .venv (.venv)" "$out"
# [project] (poetry 2.0) and [dependency-groups] (poetry 2.2) are hashed
# too; text json.dumps escapes (a quote, a backslash, a tab, past ASCII)
cat >>"$repo/pyproject.toml" <<'EOT'

[project]
name = "webapp"
requires-python = ">=3.10"
dependencies = ["requests (>=2.31)"]

[dependency-groups]
lint = ["certifi>=2024"]

[[tool.poetry.source]]
name = "caf\u00e9 \"q\" \\ \t \U0001F600 \u007f"
url = "https://example.invalid/simple/"
priority = "supplemental"
EOT
for k in 1 2; do
	rehash $k
	out=$(ep --only=deps "$repo")
	check "[project] and [dependency-groups], the hash of poetry release $k (tests/poetryhash.py): it passes: $out" \
		has "Python packages (poetry.lock): 2 packages match .venv (.venv)" "$out"
done
rehash 0
out=$(ep --only=deps "$repo")
check "a 2.1 lock with 1.x's hash (1.x hashes no [project]): stale for the poetry 2 that wrote it: $out" \
	has "pyproject.toml changed significantly since poetry.lock was last generated" "$out"
# poetry 2.3 and later hash [dependency-groups], and take the hash
# without them only from a lock an older poetry wrote (locker.py is_fresh)
sed -i '1s/Poetry 2.0.1/Poetry 2.3.1/' "$repo/poetry.lock"
rehash 1
out=$(ep --only=deps "$repo")
check "written by poetry 2.3, [dependency-groups] not in its hash: stale: $out" \
	has "pyproject.toml changed significantly since poetry.lock was last generated" "$out"
sed -i '1s/Poetry 2.3.1/Poetry 2.2.0/' "$repo/poetry.lock"
out=$(ep --only=deps "$repo")
check "... written by poetry 2.2: poetry 2.3 falls back to that hash: it passes: $out" \
	has "Python packages (poetry.lock): 2 packages match .venv (.venv)" "$out"
# a lock-version 2.0 lock, stale: poetry 1.8 and later refuse it; before
# 1.8 poetry installs it with a warning (installer.py).  Its first line
# says which poetry wrote it
cp "$fx/poetry/poetry.lock" "$fx/poetry/pyproject.toml" "$repo/"
sed -i 's/^lock-version = "2.1"/lock-version = "2.0"/' "$repo/poetry.lock"
sed -i 's/^requests = "^2.32"/requests = "^2.31"/' "$repo/pyproject.toml"
for w in 1.7.1:warn 1.8.3:fail; do
	sed -i "1s/Poetry [0-9.]*/Poetry ${w%:*}/" "$repo/poetry.lock"
	out=$(ep --only=deps --json "$repo")
	check "lock-version 2.0 written by poetry ${w%:*}, stale: ${w#*:}, the relock its fix" py -c '
import json, sys
c = json.loads(sys.argv[1])["checks"][0]
assert c["status"] == sys.argv[2] and c["fix"]["argv"] == ["poetry", "lock"], c
assert sys.argv[2] == "fail" or c["message"].endswith("but poetry.lock is not consistent with pyproject.toml"), c
' "$out" "${w#*:}"
done

# requirements*.txt: == pins, markers, unpinned lines noted
repo=$TEST_TMPDIR/pip
mkdir -p "$repo"
printf '# pinned\nDjango==5.0.6 \\\n    --hash=sha256:aa\npsycopg[binary]==3.1.19 ; python_version >= "3.8"\npywin32==306; sys_platform == "win32"\nrequests>=2\n-r requirements-dev.txt\n' \
	>"$repo/requirements.txt"
printf 'pytest==8.2.0\n' >"$repo/requirements-dev.txt"
venv "$repo/.venv" 3.12.3 Django==5.0.6 psycopg==3.1.19 pytest==8.1.0 requests==2.32.3
out=$(ep --only=deps --explain --json "$repo")
check "requirements: two checks, ids by file" py -c '
import json, sys
d = json.loads(sys.argv[1])
ids = [c["id"] for c in d["checks"]]
assert ids == ["deps.pip.requirements-dev.txt", "deps.pip.requirements.txt"], ids
c = d["checks"][1]
assert c["status"] == "pass", c
assert c["message"] == "3 packages match .venv (.venv)", c
assert "1 -r/-c line not followed" in c["notes"][0], c["notes"]
c = d["checks"][0]
assert c["message"] == "1 of 1 package differs from requirements-dev.txt: pytest: lockfile 8.2.0, installed 8.1.0", c
assert c["fix"]["argv"] == [".venv/bin/python", "-m", "pip", "install", "-r", "requirements-dev.txt"], c["fix"]
' "$out"

finish
