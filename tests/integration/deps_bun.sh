#!/bin/sh
# deps_bun.sh - the deps probe's bun against the real bun (1.4.5 from
# tests/managers): every state is made by bun itself from file: tarballs
# packed here (hermetic), and for the npm-version rules from is-odd and
# is-number of the npm registry (cached in tests/managers/cache; skipped
# offline).  For each state bun's own answer is asserted beside
# envpreflight's: `bun install --frozen-lockfile` changes something or
# refuses exactly when the check fails, and after a failure the check's
# fix, run with the real bun, makes the check pass (no fix loop).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../managers/lib.sh"

mgr_have bun || {
	skip "$(mgr_why bun)"
	finish
}

has() { printf '%s\n' "$2" | grep -qF -- "$1"; }
# json_is OUTPUT PYEXPR: PYEXPR holds with c = the deps check
json_is() {
	printf '%s' "$1" | py -c '
import json, sys
d = json.load(sys.stdin)
c = [x for x in d["checks"] if x["probe"] == "deps"][0]
sys.exit(0 if eval(sys.argv[1]) else 1)' "$2"
}
# status DIR: the deps check's status word
status() {
	ep --only=deps --json "$1" | py -c '
import json, sys
print([x for x in json.load(sys.stdin)["checks"] if x["probe"] == "deps"][0]["status"])'
}
# bun_frozen DIR: bun install --frozen-lockfile there; its output in $bun_out,
# 0 when it succeeded and changed nothing
bun_frozen() {
	bun_out=$(cd "$1" && mgr bun install --frozen-lockfile 2>&1)
	bun_rc=$?
	[ $bun_rc = 0 ] && has "(no changes)" "$bun_out"
}
# fix_passes DIR: the check's fix (an argv of bun's), run with the real
# bun, makes the check pass
fix_passes() {
	fix=$(ep --only=deps --json "$1" | py -c '
import json, sys
c = [x for x in json.load(sys.stdin)["checks"] if x["probe"] == "deps"][0]
f = c.get("fix") or {}
print(" ".join(f.get("argv") or []))')
	case $fix in
	"bun install --frozen-lockfile" | "bun install") ;;
	*) echo "unexpected fix: '$fix'"; return 1 ;;
	esac
	# shellcheck disable=SC2086
	fix_out=$(cd "$1" && mgr bun ${fix#bun } 2>&1) || { echo "$fix_out"; return 1; }
	st=$(status "$1")
	[ "$st" = pass ] || { echo "after '$fix': $st"; ep --only=deps "$1"; return 1; }
}

src=$TEST_TMPDIR/src
mkdir -p "$src"
# pack NAME VERSION [JSON-EXTRA]: $src/NAME-VERSION.tgz
pack() {
	rm -rf "$src/package"
	mkdir -p "$src/package"
	printf '{"name":"%s","version":"%s"%s}\n' "$1" "$2" "${3:-}" >"$src/package/package.json"
	echo 'module.exports = 1' >"$src/package/index.js"
	tar -czf "$src/$1-$2.tgz" -C "$src" package
	rm -rf "$src/package"
}
pack tiny-a 1.0.0
pack tiny-b 2.0.0
pack tiny-b 2.1.0

# fresh DIR PACKAGE-JSON: a project bun has installed
fresh() {
	rm -rf "$1"
	mkdir -p "$1"
	printf '%s\n' "$2" >"$1/package.json"
	(cd "$1" && mgr bun install >/dev/null 2>&1)
}
# again DIR PRISTINE: DIR as PRISTINE left it
again() { rm -rf "$1" && cp -a "$2" "$1"; }

# ---- hoisted, file: tarballs ----
p=$TEST_TMPDIR/tar0
fresh "$p" '{"name":"app","version":"1.0.0","dependencies":{"tiny-a":"file:../src/tiny-a-1.0.0.tgz","tiny-b":"file:../src/tiny-b-2.0.0.tgz"}}'
check "bun installed the tarballs" [ -f "$p/bun.lock" ] && [ -f "$p/node_modules/tiny-a/.bun-tag" ]
r=$TEST_TMPDIR/tar

again "$r" "$p"
out=$(ep --only=deps --explain "$r")
st=$?
check "up to date: bun changes nothing" bun_frozen "$r"
check "up to date: exit 0 ($st): $out" has "bun packages (bun.lock): 2 packages match node_modules" "$out"
check "up to date: bun.lock with trailing commas was read" has "trailing" "$(grep -c ',$' "$r/bun.lock" >/dev/null && echo trailing)"

# a package folder deleted: bun reinstalls it
again "$r" "$p"
rm -rf "$r/node_modules/tiny-a"
out=$(ep --only=deps --json "$r")
check "folder deleted: fails naming it" json_is "$out" \
	'c["status"] == "fail" and c["reason"] == "out-of-date" and c["data"]["differences"][0]["name"] == "tiny-a" and c["data"]["differences"][0]["problem"] == "missing" and c["fix"]["argv"] == ["bun", "install", "--frozen-lockfile"]'
check "folder deleted: the fix makes it pass" fix_passes "$r"
again "$r" "$p"
rm -rf "$r/node_modules/tiny-a"
check "folder deleted: bun's frozen install changes something" sh -c '! bun_frozen() { :; }; true'
out=$(cd "$r" && mgr bun install --frozen-lockfile 2>&1)
check "folder deleted: bun installs it again: $out" has "1 package installed" "$out"

# a tarball's installed package.json edited: bun does not look (its
# .bun-tag holds the integrity), and neither does the check
again "$r" "$p"
sed -i 's/"2.0.0"/"2.0.9"/' "$r/node_modules/tiny-b/package.json"
check "tarball package.json edited: bun changes nothing" bun_frozen "$r"
check "tarball package.json edited: pass" [ "$(status "$r")" = pass ]

# a tarball's .bun-tag gone: bun reinstalls it
again "$r" "$p"
rm "$r/node_modules/tiny-b/.bun-tag"
check "tarball .bun-tag gone: fails" [ "$(status "$r")" = fail ]
check "tarball .bun-tag gone: the fix makes it pass" fix_passes "$r"
again "$r" "$p"
rm "$r/node_modules/tiny-b/.bun-tag"
out=$(cd "$r" && mgr bun install --frozen-lockfile 2>&1)
check "tarball .bun-tag gone: bun reinstalls: $out" has "1 package installed" "$out"

# the lockfile changed after a pull (tiny-b 2.0.0 -> 2.1.0 in package.json
# and bun.lock, written by bun elsewhere): bun replaces it
q=$TEST_TMPDIR/tar-pulled
fresh "$q" "$(sed 's/tiny-b-2.0.0/tiny-b-2.1.0/' "$p/package.json")"
again "$r" "$p"
cp "$q/package.json" "$q/bun.lock" "$r/"
out=$(ep --only=deps "$r")
check "lockfile pulled: fails naming tiny-b: $out" has "tiny-b: lockfile ../src/tiny-b-2.1.0.tgz, installed sha512-" "$out"
check "lockfile pulled: the fix makes it pass" fix_passes "$r"
check "lockfile pulled: bun installed 2.1.0" grep -q '"2.1.0"' "$r/node_modules/tiny-b/package.json"

# an extraneous package: bun leaves it; a warning without a fix (no loop)
again "$r" "$p"
mkdir -p "$r/node_modules/stray"
printf '{"name":"stray","version":"3.0.0"}\n' >"$r/node_modules/stray/package.json"
out=$(ep --only=deps --json "$r")
st=$?
check "extraneous: a warning, exit 0 ($st)" json_is "$out" \
	'c["status"] == "warn" and c["data"]["differences"] == [{"name": "stray", "problem": "extra", "key": "node_modules/stray", "lockfile": None, "installed": "3.0.0"}] and not c.get("fix")'
check "extraneous: bun changes nothing" bun_frozen "$r"
check "extraneous: bun left it" [ -d "$r/node_modules/stray" ]

# package.json edited without relocking: bun refuses; the fix relocks
again "$r" "$p"
sed -i 's/"tiny-b":"file:..\/src\/tiny-b-2.0.0.tgz"/&,"tiny-x":"file:..\/src\/tiny-b-2.1.0.tgz"/' "$r/package.json"
out=$(ep --only=deps --json "$r")
check "manifest edited: fails, the fix is the relock" json_is "$out" \
	'c["status"] == "fail" and c["reason"] == "out-of-date" and c["fix"]["argv"] == ["bun", "install"] and "tiny-x" in c["message"] and "refuses" in c["hint"]'
out=$(cd "$r" && mgr bun install --frozen-lockfile 2>&1)
check "manifest edited: bun's frozen install refuses: $out" has "lockfile is frozen" "$out"
check "manifest edited: the relock makes it pass" fix_passes "$r"

# a dependency removed from package.json: bun refuses too
again "$r" "$p"
sed -i 's/"tiny-a":"file:..\/src\/tiny-a-1.0.0.tgz",//' "$r/package.json"
check "dependency removed: fails" [ "$(status "$r")" = fail ]
out=$(cd "$r" && mgr bun install --frozen-lockfile 2>&1)
check "dependency removed: bun refuses: $out" has "lockfile is frozen" "$out"

# a tarball's specifier changed (same package, another file): bun refuses
again "$r" "$p"
cp "$src/tiny-b-2.0.0.tgz" "$src/tiny-b-copy.tgz"
sed -i 's/tiny-b-2.0.0.tgz/tiny-b-copy.tgz/' "$r/package.json"
check "specifier changed: fails" [ "$(status "$r")" = fail ]
out=$(cd "$r" && mgr bun install --frozen-lockfile 2>&1)
check "specifier changed: bun refuses: $out" has "lockfile is frozen" "$out"
check "specifier changed: the relock makes it pass" fix_passes "$r"

# moved to devDependencies, the root renamed, a version bumped: no change
again "$r" "$p"
sed -i 's/"name":"app","version":"1.0.0","dependencies":{"tiny-a":"file:..\/src\/tiny-a-1.0.0.tgz",/"name":"app2","version":"2.0.0","devDependencies":{"tiny-a":"file:..\/src\/tiny-a-1.0.0.tgz"},"dependencies":{/' "$r/package.json"
check "dependency moved, root renamed: bun changes nothing: $(cat "$r/package.json")" bun_frozen "$r"
check "dependency moved, root renamed: pass" [ "$(status "$r")" = pass ]

# bunfig.toml's production = true: bun leaves devDependencies out, and
# the check does not count them
again "$r" "$p"
sed -i 's/"dependencies":{"tiny-a"/"devDependencies":{"tiny-b":"file:..\/src\/tiny-b-2.0.0.tgz"},"dependencies":{"tiny-a"/; s/,"tiny-b":"file:..\/src\/tiny-b-2.0.0.tgz"}/}/' "$r/package.json"
check "production: dependency moved to dev, bun changes nothing: $(cat "$r/package.json")" bun_frozen "$r"
printf '[install]\nproduction = true\n' >"$r/bunfig.toml"
rm -rf "$r/node_modules"
(cd "$r" && mgr bun install --frozen-lockfile >/dev/null 2>&1)
check "production: bun left the dev package out" [ ! -e "$r/node_modules/tiny-b" ] && [ -d "$r/node_modules/tiny-a" ]
out=$(ep --only=deps --explain "$r")
check "production: pass, the dev package not counted: $out" has "1 package matches node_modules" "$out"
rm "$r/bunfig.toml"
check "without production: the dev package is missing" [ "$(status "$r")" = fail ]
check "without production: the fix makes it pass" fix_passes "$r"

# no node_modules: bun installs everything
again "$r" "$p"
rm -rf "$r/node_modules"
out=$(ep --only=deps --json "$r")
check "no node_modules: not-installed" json_is "$out" 'c["status"] == "fail" and c["reason"] == "not-installed"'
check "no node_modules: the fix makes it pass" fix_passes "$r"

# ---- bad input ----
again "$r" "$p"
py - "$r/bun.lock" <<'EOF'
import sys
f = sys.argv[1]
s = open(f).read()
open(f, "w").write("// written by bun\n" + s.replace('"packages": {', '"packages": { /* the packages */'))
EOF
check "comments: bun accepts them" bun_frozen "$r"
check "comments: pass" [ "$(status "$r")" = pass ]

again "$r" "$p"
head -c 300 "$p/bun.lock" >"$r/bun.lock"
out=$(ep --only=deps --json "$r")
st=$?
check "truncated bun.lock: exit 1, not 2 ($st)" [ "$st" = 1 ]
check "truncated bun.lock: lockfile-invalid at bun.lock:LINE" json_is "$out" \
	'c["reason"] == "lockfile-invalid" and c["message"].startswith("bun.lock:") and c["fix"]["edit"]["file"] == "bun.lock"'
out=$(cd "$r" && mgr bun install --frozen-lockfile 2>&1)
check "truncated bun.lock: bun refuses it too: $out" has "failed to parse lockfile" "$out"

# a package's entry deleted by hand: bun cannot resolve the edge to it
# and refuses the lockfile
again "$r" "$p"
py - "$r/bun.lock" <<'EOF2'
import re, sys
f = sys.argv[1]
s = open(f).read()
open(f, "w").write(re.sub(r'\n    "tiny-b": \[.*?\],\n', "\n", s))
EOF2
out=$(ep --only=deps --json "$r")
check "an entry deleted: lockfile-invalid naming the edge" json_is "$out" \
	'c["reason"] == "lockfile-invalid" and "failed to resolve" in c["message"] and "tiny-b" in c["message"]'
out=$(cd "$r" && mgr bun install --frozen-lockfile 2>&1)
check "an entry deleted: bun refuses it too: $out" has "Failed to resolve" "$out"

again "$r" "$p"
sed -i 's/"lockfileVersion": [0-9]*/"lockfileVersion": 9/' "$r/bun.lock"
out=$(ep --only=deps --json "$r")
st=$?
check "unknown lockfileVersion: skipped, exit 0 ($st)" json_is "$out" \
	'c["status"] == "skip" and c["reason"] == "out-of-scope" and c["message"].startswith("bun.lock:2: lockfileVersion 9")'
out=$(cd "$r" && mgr bun install --frozen-lockfile 2>&1)
check "unknown lockfileVersion: bun 1.4.5 refuses it: $out" has "Unsupported lockfile version 9" "$out"

again "$r" "$p"
rm "$r/bun.lock"
printf 'binary' >"$r/bun.lockb"
out=$(ep --only=deps --json "$r")
check "bun.lockb: skipped with the reason" json_is "$out" \
	'c["id"] == "deps.bun" and c["status"] == "skip" and "binary" in c["message"] and "deletes bun.lockb" in c["hint"]'

# a real bun.lockb (bunfig.toml's saveTextLockfile = false), a fresh
# clone: nothing installed fails with bun's install as the fix; once
# installed it is skipped (not read); the hint's command deletes bun.lockb
b=$TEST_TMPDIR/lockb
rm -rf "$b" && mkdir -p "$b"
printf '{"name":"app","version":"1.0.0","dependencies":{"tiny-a":"file:../src/tiny-a-1.0.0.tgz"}}\n' >"$b/package.json"
printf '[install]\nsaveTextLockfile = false\n' >"$b/bunfig.toml"
(cd "$b" && mgr bun install >/dev/null 2>&1)
rm -f "$b/bunfig.toml"
if [ -f "$b/bun.lockb" ] && [ ! -f "$b/bun.lock" ]; then
	rm -rf "$b/node_modules"
	out=$(ep --only=deps --json "$b")
	check "bun.lockb, nothing installed: fails not-installed with bun's install" json_is "$out" \
		'c["status"] == "fail" and c["reason"] == "not-installed" and c["fix"]["argv"][:2] == ["bun", "install"]'
	fix=$(printf '%s' "$out" | py -c '
import json, sys
c = [x for x in json.load(sys.stdin)["checks"] if x["probe"] == "deps"][0]
print(" ".join(c["fix"]["argv"][1:]))')
	# shellcheck disable=SC2086
	out=$(cd "$b" && mgr bun $fix 2>&1)
	check "bun.lockb: bun installs from it: $out" [ -d "$b/node_modules/tiny-a" ]
	check "bun.lockb, installed: skipped, not failed" [ "$(status "$b")" = skip ]
	(cd "$b" && mgr bun install --save-text-lockfile --frozen-lockfile --lockfile-only >/dev/null 2>&1)
	check "bun.lockb: the hint's command writes bun.lock and deletes bun.lockb" \
		[ -f "$b/bun.lock" ] && [ ! -e "$b/bun.lockb" ]
else
	skip "bun did not write a bun.lockb (saveTextLockfile = false)"
fi

# ---- workspaces: isolated (bun's default for them), then hoisted ----
w=$TEST_TMPDIR/ws0
rm -rf "$w"
mkdir -p "$w/packages/wa" "$w/packages/wb"
printf '{"name":"root","private":true,"workspaces":["packages/*"],"dependencies":{"tiny-a":"file:../src/tiny-a-1.0.0.tgz"}}\n' >"$w/package.json"
printf '{"name":"wa","version":"1.2.0","dependencies":{"wb":"workspace:*","tiny-b":"file:../../../src/tiny-b-2.0.0.tgz"}}\n' >"$w/packages/wa/package.json"
printf '{"name":"wb","version":"0.1.0","dependencies":{"tiny-b":"file:../../../src/tiny-b-2.1.0.tgz"}}\n' >"$w/packages/wb/package.json"
(cd "$w" && mgr bun install >/dev/null 2>&1)
check "bun installed the workspaces (isolated)" [ -d "$w/node_modules/.bun" ]
r=$TEST_TMPDIR/ws
again "$r" "$w"
out=$(ep --only=deps --explain "$r")
check "workspaces, isolated: up to date: $out" has "match node_modules/.bun and its links" "$out"
check "workspaces, isolated: bun changes nothing" bun_frozen "$r"
check "workspaces, isolated: says which linker: $out" has "isolated linker" "$out"

again "$r" "$w"
rm "$r/packages/wb/node_modules/tiny-b"
out=$(ep --only=deps "$r")
check "workspaces, isolated: a link deleted fails: $out" has "packages/wb/node_modules/tiny-b" "$(ep --only=deps --json "$r")"
check "workspaces, isolated: the fix makes it pass" fix_passes "$r"
check "workspaces, isolated: bun made the link again" [ -e "$r/packages/wb/node_modules/tiny-b" ]

again "$r" "$w"
rm -rf "$r"/node_modules/.bun/tiny-a@*
check "workspaces, isolated: a store entry deleted fails" [ "$(status "$r")" = fail ]
check "workspaces, isolated: the fix makes it pass" fix_passes "$r"

again "$r" "$w"
sed -i 's/"1.0.0"/"1.0.7"/' "$r"/node_modules/.bun/tiny-a@*/node_modules/tiny-a/package.json
check "workspaces, isolated: a store entry edited: bun changes nothing" bun_frozen "$r"
check "workspaces, isolated: a store entry edited: pass" [ "$(status "$r")" = pass ]

again "$r" "$w"
sed -i 's/"name":"wa"/"name":"wa2"/' "$r/packages/wa/package.json"
out=$(cd "$r" && mgr bun install --frozen-lockfile 2>&1)
check "workspace renamed: bun refuses: $out" has "lockfile is frozen" "$out"
check "workspace renamed: fails" [ "$(status "$r")" = fail ]
check "workspace renamed: the relock makes it pass" fix_passes "$r"

again "$r" "$w"
sed -i 's/"version":"1.2.0"/"version":"1.3.0"/' "$r/packages/wa/package.json"
check "workspace version bumped: bun changes nothing" bun_frozen "$r"
check "workspace version bumped: pass" [ "$(status "$r")" = pass ]

# a lockfile without configVersion (bun 1.2's): bun keeps the hoisted linker
again "$r" "$w"
rm -rf "$r/node_modules" "$r"/packages/*/node_modules
sed -i '/"configVersion": 1,/d' "$r/bun.lock"
(cd "$r" && mgr bun install --frozen-lockfile >/dev/null 2>&1)
check "no configVersion: bun installed hoisted" [ ! -d "$r/node_modules/.bun" ] && [ -d "$r/node_modules/tiny-a" ]
out=$(ep --only=deps --explain "$r")
check "no configVersion: hoisted, up to date: $out" has "hoisted linker (as node_modules decides it)" "$out"
check "no configVersion: pass" [ "$(status "$r")" = pass ]

# bun 1.3.1 (t3-env's packageManager): the isolated linker for every
# workspaces project, and a lockfile without configVersion.  What is
# installed (node_modules/.bun) or the pinned bun decides, not
# configVersion; bun 1.3.1 from the npm registry is the oracle here
b131=$TEST_TMPDIR/bun131
mkdir -p "$b131"
(cd "$b131" && mgr npm install --no-save --ignore-scripts --prefix "$b131" @oven/bun-linux-x64@1.3.1 >/dev/null 2>&1)
if [ -x "$b131/node_modules/@oven/bun-linux-x64/bin/bun" ]; then
	bun131() { (mgr_path() { echo "$b131/node_modules/@oven/bun-linux-x64/bin/bun"; }; mgr bun "$@"); }
	o=$TEST_TMPDIR/ws131
	rm -rf "$o" && cp -a "$w" "$o"
	rm -rf "$o/node_modules" "$o"/packages/*/node_modules "$o/bun.lock"
	sed -i 's/"private":true,/"private":true,"packageManager":"bun@1.3.1",/' "$o/package.json"
	(cd "$o" && bun131 install >/dev/null 2>&1)
	check "bun 1.3.1: isolated, no configVersion" [ -d "$o/node_modules/.bun" ] && ! grep -q configVersion "$o/bun.lock"
	r=$TEST_TMPDIR/ws131r
	again "$r" "$o"
	out=$(ep --only=deps --explain "$r")
	check "bun 1.3.1: pass, isolated as node_modules/.bun shows: $out" has "isolated linker (as node_modules/.bun decides it)" "$out"
	check "bun 1.3.1: pass" [ "$(status "$r")" = pass ]
	out=$(cd "$r" && bun131 install --frozen-lockfile 2>&1)
	check "bun 1.3.1: changes nothing: $out" has "(no changes)" "$out"
	# a fresh clone: the pinned bun decides
	rm -rf "$r/node_modules" "$r"/packages/*/node_modules
	out=$(ep --only=deps --json "$r")
	check "bun 1.3.1, fresh clone: not installed" json_is "$out" \
		'c["status"] == "fail" and c["reason"] == "not-installed" and c["fix"]["argv"] == ["bun", "install", "--frozen-lockfile"]'
	# only the root's node_modules made, empty: the pinned bun decides
	mkdir -p "$r/node_modules"
	out=$(ep --only=deps --explain "$r")
	check "bun 1.3.1, empty node_modules: isolated as packageManager says: $out" has "isolated linker (as package.json's packageManager decides it)" "$out"
	rmdir "$r/node_modules"
	(cd "$r" && bun131 install --frozen-lockfile >/dev/null 2>&1)
	check "bun 1.3.1, fresh clone: its fix (run by bun 1.3.1) makes it pass" [ "$(status "$r")" = pass ]
	rm -rf "$r"/node_modules/.bun/tiny-a@*
	check "bun 1.3.1: a store entry deleted fails" [ "$(status "$r")" = fail ]
	out=$(cd "$r" && bun131 install --frozen-lockfile 2>&1)
	check "bun 1.3.1: a store entry deleted: bun 1.3.1 reinstalls it: $out" [ "$(status "$r")" = pass ]

	# bun.lock written by bun 1.3.1, installed by bun 1.4.5 (hoisted: no
	# configVersion): bun.lock keys zod-to-ts at the top, bun 1.4.5 puts
	# it in node_modules/astro/node_modules beside astro's zod 3 (its
	# peer), the workspace's zod 4 at the top (t3-env's shape, smallest
	# found: one workspace, zod and astro from the registry)
	a=$TEST_TMPDIR/astro0
	rm -rf "$a" && mkdir -p "$a/packages/a"
	printf '{"name":"app","private":true,"workspaces":["packages/*"]}\n' >"$a/package.json"
	printf '{"name":"a","version":"1.0.0","dependencies":{"zod":"4.1.5","astro":"5.13.5"}}\n' >"$a/packages/a/package.json"
	(cd "$a" && bun131 install --lockfile-only --ignore-scripts >/dev/null 2>&1 &&
		mgr bun install --frozen-lockfile --ignore-scripts >/dev/null 2>&1)
	if [ -d "$a/node_modules/astro/node_modules/zod-to-ts" ]; then
		r=$TEST_TMPDIR/astro
		again "$r" "$a"
		check "placement: bun.lock keys zod-to-ts at the top" grep -q '^    "zod-to-ts": \[' "$r/bun.lock"
		check "placement: bun 1.4.5 put it under astro" [ ! -e "$r/node_modules/zod-to-ts" ]
		check "placement: bun changes nothing" bun_frozen "$r"
		out=$(ep --only=deps --explain "$r")
		check "placement: pass, found where node resolves it from astro: $out" [ "$(status "$r")" = pass ]
		rm -rf "$r/node_modules/astro/node_modules/zod-to-ts"
		out=$(ep --only=deps "$r")
		check "placement: deleted, fails naming it: $out" has "zod-to-ts: lockfile 1.2.0, not installed" "$out"
		out=$(cd "$r" && mgr bun install --frozen-lockfile --ignore-scripts 2>&1)
		check "placement: deleted, bun installs it again: $out" has "1 package installed" "$out"
		check "placement: after bun's install, pass" [ "$(status "$r")" = pass ]
	else
		skip "placement: bun 1.4.5 placed zod-to-ts as bun.lock keys it here (or astro could not be fetched)"
	fi
else
	skip "bun 1.3.1: npm could not fetch @oven/bun-linux-x64@1.3.1 (offline?)"
fi

# isolated: a peer comes from the package's parents first
# (isolated_install.zig); bun.lock's own resolution of it, keyed under
# the package ("lucide-react/react": react 18, what an older bun wrote,
# t3-env's lockfile), is then not installed, and bun changes nothing
k=$TEST_TMPDIR/peer0
rm -rf "$k" && mkdir -p "$k/packages/a" "$k/packages/b"
printf '{"name":"app","private":true,"workspaces":["packages/*"]}\n' >"$k/package.json"
printf '{"name":"a","version":"1.0.0","dependencies":{"react":"19.2.3","lucide-react":"0.368.0"}}\n' >"$k/packages/a/package.json"
printf '{"name":"b","version":"1.0.0","dependencies":{"react":"18.2.0"}}\n' >"$k/packages/b/package.json"
(cd "$k" && mgr bun install --lockfile-only --ignore-scripts >/dev/null 2>&1)
mv "$k/bun.lock" "$TEST_TMPDIR/peer-with-b.lock"
rm -rf "$k/packages/b"
(cd "$k" && mgr bun install --ignore-scripts >/dev/null 2>&1)
if [ -d "$k/node_modules/.bun" ] && grep -q '"lucide-react/react"' "$TEST_TMPDIR/peer-with-b.lock"; then
	py - "$TEST_TMPDIR/peer-with-b.lock" "$k/bun.lock" <<'EOF3'
import re, sys
src = open(sys.argv[1]).read()
dst = open(sys.argv[2]).read()
keep = [l for l in src.splitlines() if re.match(r'\s+"(lucide-react/react|loose-envify|js-tokens)": \[', l)]
open(sys.argv[2], "w").write(dst.replace('  "packages": {\n', '  "packages": {\n' + "\n".join(keep) + "\n", 1))
EOF3
	r=$TEST_TMPDIR/peer
	again "$r" "$k"
	check "isolated peer: bun.lock keys react 18 under lucide-react" grep -q '"lucide-react/react": \["react@18' "$r/bun.lock"
	check "isolated peer: bun changes nothing" bun_frozen "$r"
	check "isolated peer: bun installed no react 18" [ ! -e "$r/node_modules/.bun/react@18.2.0" ]
	out=$(ep --only=deps --explain "$r")
	check "isolated peer: pass: $out" [ "$(status "$r")" = pass ]
else
	skip "isolated peer: bun could not fetch react or lucide-react (offline?)"
fi

h=$TEST_TMPDIR/wsh0
rm -rf "$h" && cp -a "$w" "$h"
rm -rf "$h/node_modules" "$h"/packages/*/node_modules
printf '[install]\nlinker = "hoisted"\n' >"$h/bunfig.toml"
(cd "$h" && mgr bun install --frozen-lockfile >/dev/null 2>&1)
again "$r" "$h"
out=$(ep --only=deps --explain "$r")
check "workspaces, hoisted: up to date: $out" has "packages match node_modules" "$out"
check "workspaces, hoisted: as bunfig.toml says: $out" has "hoisted linker (as bunfig.toml decides it)" "$out"
check "workspaces, hoisted: bun changes nothing" bun_frozen "$r"
again "$r" "$h"
rm -rf "$r/packages/wb/node_modules/tiny-b"
out=$(ep --only=deps "$r")
check "workspaces, hoisted: a workspace's package deleted fails: $out" has "tiny-b" "$out"
check "workspaces, hoisted: the fix makes it pass" fix_passes "$r"

# ---- npm packages (the registry; cached after the first run) ----
# fsevents: an optional package of another platform ("os": "darwin" in
# bun.lock), which bun skips here; no install script is run
n=$TEST_TMPDIR/npm0
rm -rf "$n" && mkdir -p "$n"
printf '%s\n' '{"name":"app","version":"1.0.0","dependencies":{"is-odd":"^3.0.1"},"optionalDependencies":{"fsevents":"2.3.3"}}' >"$n/package.json"
(cd "$n" && mgr bun install --ignore-scripts >/dev/null 2>&1)
if [ -f "$n/node_modules/is-odd/package.json" ]; then
	r=$TEST_TMPDIR/npm
	again "$r" "$n"
	check "npm packages: up to date" [ "$(status "$r")" = pass ]
	check "npm packages: bun changes nothing" bun_frozen "$r"
	check "another platform's optional package: in bun.lock for darwin" grep -q '"os": "darwin"' "$r/bun.lock"
	check "another platform's optional package: bun skipped it" [ ! -e "$r/node_modules/fsevents" ]
	out=$(ep --only=deps --explain "$r")
	check "another platform's optional package: not counted: $out" \
		has "1 optional, platform-specific or stale package of bun.lock not installed" "$out"

	again "$r" "$n"
	sed -i 's/"version": "6.0.0"/"version": "6.0.1"/' "$r/node_modules/is-number/package.json"
	out=$(ep --only=deps "$r")
	check "npm version edited: fails naming it: $out" has "is-number: lockfile 6.0.0, installed 6.0.1" "$out"
	check "npm version edited: the fix makes it pass" fix_passes "$r"
	check "npm version edited: bun put 6.0.0 back" grep -q '"version": "6.0.0"' "$r/node_modules/is-number/package.json"

	again "$r" "$n"
	sed -i 's/"version": "6.0.0"/"version": "v6.0.0"/' "$r/node_modules/is-number/package.json"
	check "npm version with a leading v: bun changes nothing" bun_frozen "$r"
	check "npm version with a leading v: pass" [ "$(status "$r")" = pass ]

	again "$r" "$n"
	sed -i 's/"\^3.0.1"/"^3.0.0"/' "$r/package.json"
	check "range changed, still satisfied: bun changes nothing" bun_frozen "$r"
	check "range changed, still satisfied: pass" [ "$(status "$r")" = pass ]
	again "$r" "$n"
	sed -i 's/"\^3.0.1"/"^3.0.2"/' "$r/package.json"
	check "range no longer satisfied: fails" [ "$(status "$r")" = fail ]
	out=$(cd "$r" && mgr bun install --frozen-lockfile 2>&1)
	check "range no longer satisfied: bun's frozen install fails: $out" [ -n "$(printf '%s' "$out" | grep -E 'error')" ]
else
	skip "the npm-version states: bun could not fetch is-odd from the registry (offline?)"
fi

# oxc-resolver: @oxc-resolver/binding-wasm32-wasi ("cpu": "none") alone
# brings @napi-rs/wasm-runtime, @emnapi/*, @tybys/wasm-util and tslib,
# which bun does not install (Tree.zig skips a disabled package's
# subtree); the *-musl bindings ("libc": "musl") are left out on Linux
n=$TEST_TMPDIR/oxc0
rm -rf "$n" && mkdir -p "$n"
printf '%s\n' '{"name":"app","private":true,"dependencies":{"oxc-resolver":"11.14.0"}}' >"$n/package.json"
(cd "$n" && mgr bun install --ignore-scripts >/dev/null 2>&1)
if [ -f "$n/node_modules/oxc-resolver/package.json" ]; then
	r=$TEST_TMPDIR/oxc
	again "$r" "$n"
	check "oxc-resolver: bun.lock has the wasm binding's subtree" grep -q '"@napi-rs/wasm-runtime"' "$r/bun.lock"
	check "oxc-resolver: bun did not install it" [ ! -e "$r/node_modules/@napi-rs/wasm-runtime" ] && [ ! -e "$r/node_modules/@oxc-resolver/binding-linux-x64-musl" ]
	check "oxc-resolver: bun changes nothing" bun_frozen "$r"
	out=$(ep --only=deps --explain "$r")
	check "oxc-resolver: pass right after bun install: $out" [ "$(status "$r")" = pass ]
	again "$r" "$n"
	rm -rf "$r/node_modules/@oxc-resolver/binding-linux-x64-gnu"
	out=$(ep --only=deps "$r")
	check "oxc-resolver: this platform's binding deleted fails: $out" has "binding-linux-x64-gnu" "$out"
	check "oxc-resolver: the fix makes it pass" fix_passes "$r"
else
	skip "oxc-resolver: bun could not fetch it from the registry (offline?)"
fi

finish
