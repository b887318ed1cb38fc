#!/bin/sh
# deps_npm.sh - the deps probe's npm check against the real npm (the
# machine's npm 11, run through tests/managers/lib.sh's mgr: a HOME and
# cache of the run's own).  Every state is built by npm itself from
# file: tarballs packed here (offline), a git repository made here (git
# dependencies), and for the alias case one small registry package
# (is-odd, cached after the first run).  npm's own answer is the oracle:
# `npm install --dry-run` ("up to date", "add", "change"), `npm ci`
# refusing or not, `npm ls`; each case asserts that envpreflight agrees,
# and that where it fails, running its fix makes it pass.
#
# The platform is npm's os, cpu and libc settings in the project's
# .npmrc, which npm (for optional packages) and envpreflight both read:
# no fact of this machine decides a case.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../managers/lib.sh"

if ! mgr_have npm || ! command -v node >/dev/null 2>&1; then
	skip "npm is not installed"
	finish
fi

# has TEXT OUTPUT: OUTPUT holds TEXT
has() { printf '%s\n' "$2" | grep -qF -- "$1"; }
# epo DIR: envpreflight's deps line(s) for DIR, status in $st
epo() { out=$(ep --only=deps --no-color --explain "$@"); st=$?; }
# dry DIR: npm install --dry-run's answer, the oracle of "would npm change
# anything" (npm ci always reinstalls everything)
dry() { (cd "$1" && mgr npm install --dry-run --offline 2>&1 | grep -v '^npm warn'); }
npmq() { d=$1; shift; (cd "$d" && mgr npm "$@" >"$TEST_TMPDIR/npm.log" 2>&1); }
json_is() {
	printf '%s' "$1" | py -c '
import json, sys
d = json.load(sys.stdin)
c = [x for x in d["checks"] if x["probe"] == "deps"][0]
sys.exit(0 if eval(sys.argv[1]) else 1)' "$2"
}

S=$TEST_TMPDIR/src
mkdir -p "$S"
# mkpkg NAME VERSION [JSON...]: packed as $S/NAME-VERSION.tgz, the
# tarball npm pack makes (its files under package/), by tar: npm's start
# is a second on a slow machine, and the packing is not what is tested
mkpkg() {
	d=$S/pack/$1-$2/package
	mkdir -p "$d"
	printf '{"name":"%s","version":"%s"%s}\n' "$1" "$2" "${3:-}" >"$d/package.json"
	echo 'module.exports = 1' >"$d/index.js"
	tar czf "$S/$1-$2.tgz" -C "$d/.." package 2>"$TEST_TMPDIR/npm.log"
}
mkpkg tiny-a 1.0.0
mkpkg tiny-a 1.1.0
mkpkg tiny-b 1.0.0
mkpkg devdep 1.0.0
mkpkg plat-glibc 1.0.0 ',"os":["linux"],"cpu":["x64"],"libc":["glibc"]'
mkpkg plat-musl 1.0.0 ',"os":["linux"],"cpu":["x64"],"libc":["musl"]'
mkpkg plat-darwin 1.0.0 ',"os":["darwin"],"cpu":["arm64"]'
if [ ! -f "$S/plat-darwin-1.0.0.tgz" ]; then
	skip "tar failed: $(cat "$TEST_TMPDIR/npm.log" 2>/dev/null)"
	finish
fi

# ---- the base project: a prod, a dev and three platform packages ----
base=$TEST_TMPDIR/base
mkdir -p "$base"
printf '{"name":"app","version":"1.0.0","dependencies":{"tiny-a":"file:../src/tiny-a-1.0.0.tgz"},"devDependencies":{"devdep":"file:../src/devdep-1.0.0.tgz"},"optionalDependencies":{"plat-glibc":"file:../src/plat-glibc-1.0.0.tgz","plat-musl":"file:../src/plat-musl-1.0.0.tgz","plat-darwin":"file:../src/plat-darwin-1.0.0.tgz"}}\n' \
	>"$base/package.json"
printf 'os=linux\ncpu=x64\nlibc=glibc\n' >"$base/.npmrc"
npmq "$base" install --offline
check "npm installed the base project" [ -f "$base/node_modules/.package-lock.json" ]
fresh() {	# fresh NAME: a copy of the installed base project
	p=$TEST_TMPDIR/$1
	rm -rf "$p"
	cp -a "$base" "$p"
}

# ---- agreeing today: up to date, hidden-lockfile drift, extraneous ----
fresh up
epo "$p"
dr=$(dry "$p")
check "up to date: npm says so: $dr" has "up to date" "$dr"
check "up to date: pass ($st): $out" [ "$st" = 0 ]
check "up to date: another platform's packages not counted: $out" \
	has "2 optional, platform-specific or stale packages" "$out"

fresh hidden
sed -i 's/"version": "1.0.0"/"version": "0.9.0"/' "$p/node_modules/.package-lock.json"
epo "$p"
check "hidden lockfile drift: fail ($st): $out" has "lockfile 1.0.0, installed 0.9.0" "$out"

fresh trust
sed -i 's/"1.0.0"/"1.0.5"/' "$p/node_modules/tiny-a/package.json"
touch -d '+1 hour' "$p/node_modules/tiny-a"
epo "$p"
dr=$(dry "$p")
check "hidden lockfile not trusted, as npm: $dr" has "change tiny-a 1.0.5 => 1.0.0" "$dr"
check "hidden lockfile not trusted: fail, the folder read: $out" \
	has "tiny-a: lockfile 1.0.0, installed 1.0.5" "$out"
npmq "$p" ci --offline
epo "$p"
check "hidden lockfile not trusted: npm ci clears it ($st): $out" [ "$st" = 0 ]

fresh extra
mkdir -p "$p/node_modules/stray"
printf '{"name":"stray","version":"3.0.0"}\n' >"$p/node_modules/stray/package.json"
epo "$p"
dr=$(dry "$p")
check "extraneous: npm would remove it: $dr" has "remove stray 3.0.0" "$dr"
check "extraneous: a warning, exit 0 ($st): $out" \
	has "1 installed package not in package-lock.json: stray" "$out"

# message counts: a difference and an extra say what follows
sed -i 's/"1.0.0"/"1.0.5"/' "$p/node_modules/tiny-a/package.json"
touch -d '+1 hour' "$p/node_modules/tiny-a"
epo "$p"
check "counts match the items: $out" \
	has "1 of 3 packages differs from package-lock.json, and 1 installed package is not in it: tiny-a: lockfile 1.0.0, installed 1.0.5; stray: not in the lockfile" "$out"

# --omit=dev install with no omit in npm's config: npm would add devdep
fresh omitcli
npmq "$p" ci --offline --omit=dev
epo "$p"
dr=$(dry "$p")
check "--omit=dev install, no config: npm adds devdep: $dr" has "add devdep" "$dr"
check "--omit=dev install, no config: fail naming devdep ($st): $out" \
	has "devdep: lockfile 1.0.0, not installed" "$out"

# a package folder without its package.json: said as what it is, npm
# replaces it
fresh nopkgjson
rm "$p/node_modules/tiny-a/package.json"
touch -d '+1 hour' "$p/node_modules/tiny-a"
epo "$p"
dr=$(dry "$p")
check "folder without package.json: npm changes it: $dr" has "change tiny-a" "$dr"
check "folder without package.json: fail, said so ($st): $out" \
	has "tiny-a: lockfile 1.0.0, installed version unknown (a folder without package.json)" "$out"
out=$(ep --only=deps --json "$p")
check "folder without package.json: data" json_is "$out" \
	'c["data"]["differences"][0]["problem"] == "unknown-version" and c["data"]["differences"][0]["installed"] is None'
npmq "$p" ci --offline
epo "$p"
check "folder without package.json: npm ci clears it ($st): $out" [ "$st" = 0 ]

# ---- state 1: this platform's optional package missing ----
fresh platform
rm -rf "$p/node_modules/plat-glibc"
epo "$p"
dr=$(dry "$p")
check "this platform's optional missing: npm adds it: $dr" has "add plat-glibc 1.0.0" "$dr"
check "this platform's optional missing: fail ($st): $out" \
	has "plat-glibc: lockfile 1.0.0, not installed" "$out"
npmq "$p" ci --offline
epo "$p"
check "this platform's optional missing: npm ci clears it ($st): $out" [ "$st" = 0 ]
# the same lockfile on musl (npm's libc setting): the glibc package is
# another platform's, the musl one this platform's
fresh musl
printf 'os=linux\ncpu=x64\nlibc=musl\n' >"$p/.npmrc"
epo "$p"
dr=$(dry "$p")
check "musl: npm adds plat-musl: $dr" has "add plat-musl" "$dr"
check "musl: npm removes plat-glibc: $dr" has "remove plat-glibc" "$dr"
check "musl: fail naming plat-musl, plat-glibc as not wanted ($st): $out" \
	has "1 of 3 packages differs from package-lock.json, and 1 installed package is not wanted here: plat-musl: lockfile 1.0.0, not installed; plat-glibc: installed 1.0.0, an optional package for another platform" "$out"
npmq "$p" ci --offline
epo "$p"
check "musl: after npm ci: pass ($st): $out" [ "$st" = 0 ]
# another platform's package missing: nothing to do
fresh otheros
printf 'os=darwin\ncpu=arm64\n' >"$p/.npmrc"
rm -rf "$p/node_modules/plat-glibc"
npmq "$p" ci --offline
check "darwin/arm64: npm installs plat-darwin" [ -d "$p/node_modules/plat-darwin" ]
rm -rf "$p/node_modules/plat-darwin"
touch -d '-1 hour' "$p/node_modules"
epo "$p"
dr=$(dry "$p")
check "darwin/arm64: npm adds plat-darwin: $dr" has "add plat-darwin" "$dr"
check "darwin/arm64: fail naming plat-darwin: $out" has "plat-darwin: lockfile 1.0.0, not installed" "$out"

# ---- state 2: fix loops (workspace bump, file: folder, omit=dev) ----
ws=$TEST_TMPDIR/ws
mkdir -p "$ws/packages/w" "$ws/libx" "$TEST_TMPDIR/outside"
printf '{"name":"w","version":"1.0.0"}\n' >"$ws/packages/w/package.json"
printf '{"name":"libx","version":"1.0.0"}\n' >"$ws/libx/package.json"
printf '{"name":"outside","version":"1.0.0"}\n' >"$TEST_TMPDIR/outside/package.json"
printf '{"name":"app","version":"1.0.0","workspaces":["packages/*"],"dependencies":{"libx":"file:./libx","outside":"file:../outside","tiny-a":"file:../src/tiny-a-1.0.0.tgz"}}\n' \
	>"$ws/package.json"
npmq "$ws" install --offline
epo "$ws"
check "workspace and file: folders, installed: pass ($st): $out" [ "$st" = 0 ]
check "... a file: folder outside the repository is its link's target: $out" \
	has "7 packages match node_modules/.package-lock.json" "$out"
cp "$ws/package-lock.json" "$TEST_TMPDIR/ws.lock"
# changeset version: the workspace and the folders bumped, no relock
sed -i 's/1.0.0/1.1.0/' "$ws/packages/w/package.json" "$ws/libx/package.json" \
	"$TEST_TMPDIR/outside/package.json"
dr=$(dry "$ws")
check "bumped link targets: npm changes nothing: $dr" has "up to date" "$dr"
epo "$ws"
check "bumped link targets: pass ($st): $out" [ "$st" = 0 ]
npmq "$ws" ci --offline
check "bumped link targets: npm ci leaves the lockfile as it was" \
	cmp -s "$ws/package-lock.json" "$TEST_TMPDIR/ws.lock"
epo "$ws"
check "bumped link targets: after npm ci: pass ($st): $out" [ "$st" = 0 ]
# a link gone: npm re-links it
rm "$ws/node_modules/w"
epo "$ws"
dr=$(dry "$ws")
check "workspace link deleted: npm adds it: $dr" has "add w" "$dr"
check "workspace link deleted: fail ($st): $out" [ "$st" = 1 ]
check "workspace link deleted: listed once, by its link: $out" \
	sh -c 'printf "%s" "$1" | grep -q "1 of 6 packages differs" && ! printf "%s" "$1" | grep -q "packages/w"' - "$out"

# omit=dev from npm's config: npm ci installs without devdep, and that
# is what npm considers complete
omit_case() {	# NAME HOW: after npm ci under HOW, pass, and npm would add nothing
	check "$1: npm ci left devdep out" [ ! -d "$p/node_modules/devdep" ]
	epo "$p"
	dr=$(dry "$p")
	check "$1: npm changes nothing: $dr" has "up to date" "$dr"
	check "$1: pass ($st): $out" [ "$st" = 0 ]
	check "$1: says why devdep is not required: $out" has "omit=dev, from $2" "$out"
}
fresh omitrc
printf 'omit=dev\n' >>"$p/.npmrc"
npmq "$p" ci --offline
omit_case "omit=dev in the project's .npmrc" ".npmrc"
# dev packages installed, then omit=dev: npm would remove them; a warning
fresh omitafter
printf 'omit=dev\n' >>"$p/.npmrc"
epo "$p"
dr=$(dry "$p")
check "omit=dev over a full install: npm removes devdep: $dr" has "remove devdep" "$dr"
check "omit=dev over a full install: a warning ($st): $out" \
	has "1 installed package not wanted here by package-lock.json: devdep: installed 1.0.0, a dev package npm leaves out here" "$out"
check "omit=dev over a full install: exit 0 ($st)" [ "$st" = 0 ]
npmq "$p" ci --offline
epo "$p"
check "omit=dev over a full install: npm ci clears it ($st): $out" has "2 packages match" "$out"
fresh omitnodeenv
MGR_ENV="NODE_ENV=production" npmq "$p" ci --offline
out=$(cd "$p" && MGR_ENV="NODE_ENV=production" mgr npm install --dry-run --offline 2>&1)
check "NODE_ENV=production: npm changes nothing: $out" has "up to date" "$out"
EP_ENV="NODE_ENV=production" epo "$p"
check "NODE_ENV=production: pass ($st): $out" [ "$st" = 0 ]
check "NODE_ENV=production: says so: $out" has "omit=dev, from NODE_ENV=production" "$out"
epo "$p"
check "the same install without NODE_ENV: fail, npm would add devdep ($st)" [ "$st" = 1 ]
fresh omitenv
MGR_ENV="npm_config_omit=dev" npmq "$p" ci --offline
EP_ENV="npm_config_omit=dev" epo "$p"
check "npm_config_omit=dev: pass ($st): $out" [ "$st" = 0 ]
check "npm_config_omit=dev: says so: $out" has "omit=dev, from the environment" "$out"
fresh omituser
printf 'omit=dev\n' >"$TEST_TMPDIR/mgr-home/.npmrc"
printf 'omit=dev\n' >"$TEST_TMPDIR/home/.npmrc"
npmq "$p" ci --offline
omit_case "omit=dev in the user's .npmrc" "the user's .npmrc"
# the project's include=dev wins over the user's omit=dev
printf 'include=dev\n' >>"$p/.npmrc"
epo "$p"
dr=$(dry "$p")
check "include=dev in the project: npm adds devdep: $dr" has "add devdep" "$dr"
check "include=dev in the project: fail ($st): $out" has "devdep: lockfile 1.0.0, not installed" "$out"
rm -f "$TEST_TMPDIR/mgr-home/.npmrc" "$TEST_TMPDIR/home/.npmrc"

# ---- state 3: a git dependency at a new commit, same version ----
if command -v git >/dev/null 2>&1; then
	g=$TEST_TMPDIR/gitdep
	mkdir -p "$g"
	gitc() { git -C "$g" -c user.email=t@example.com -c user.name=t "$@" >/dev/null 2>&1; }
	gitc init -q
	printf '{"name":"gdep","version":"1.0.0"}\n' >"$g/package.json"
	gitc add package.json
	gitc commit -qm one
	c1=$(git -C "$g" rev-parse HEAD)
	echo x >"$g/f"
	gitc add f
	gitc commit -qm two
	c2=$(git -C "$g" rev-parse HEAD)
	p=$TEST_TMPDIR/gitproj
	mkdir -p "$p"
	printf '{"name":"app","version":"1.0.0","dependencies":{"gdep":"git+file://%s#%s"}}\n' \
		"$g" "$c1" >"$p/package.json"
	npmq "$p" install
	epo "$p"
	check "git dependency installed: pass ($st): $out" [ "$st" = 0 ]
	# a pull brings the relocked pair at the second commit
	sed -i "s/$c1/$c2/g" "$p/package.json" "$p/package-lock.json"
	epo "$p"
	dr=$(dry "$p")
	check "git dependency at a new commit: npm fetches it: $dr" has "change gdep 1.0.0 => 1.0.0" "$dr"
	check "git dependency at a new commit: fail naming the commits ($st): $out" \
		has "gdep: lockfile 1.0.0 #$c2, installed #$c1" "$out"
	npmq "$p" ci
	epo "$p"
	check "git dependency at a new commit: npm ci clears it ($st): $out" [ "$st" = 0 ]
else
	skip "the git dependency case: git is not installed"
fi

# ---- state 4: package.json edited without relocking ----
fresh sync
sed -i 's|tiny-a-1.0.0.tgz|tiny-a-1.1.0.tgz|' "$p/package.json"
epo "$p"
npmq "$p" ci --offline --dry-run
check "spec changed: npm ci refuses" grep -q "in sync" "$TEST_TMPDIR/npm.log"
check "spec changed: fail, not in sync ($st): $out" \
	has "package.json and package-lock.json are not in sync: tiny-a: package.json wants file:../src/tiny-a-1.1.0.tgz" "$out"
out=$(ep --only=deps --json "$p")
check "spec changed: the fix is the relock, npm install" json_is "$out" \
	'c["fix"]["argv"] == ["npm", "install"] and "relock" in c["hint"]'
npmq "$p" install --offline
epo "$p"
check "spec changed: npm install clears it ($st): $out" [ "$st" = 0 ]
# a range the locked version still meets: npm ci accepts it
fresh range
sed -i 's|"file:../src/tiny-a-1.0.0.tgz"|"^1.0.0"|' "$p/package.json"
npmq "$p" ci --offline --dry-run
check "range still met: npm ci accepts" sh -c '! grep -q "in sync" "$1"' - "$TEST_TMPDIR/npm.log"
epo "$p"
check "range still met: pass ($st): $out" [ "$st" = 0 ]
# a dependency added
fresh added
sed -i 's|"dependencies":{|"dependencies":{"tiny-b":"file:../src/tiny-b-1.0.0.tgz",|' "$p/package.json"
npmq "$p" ci --offline --dry-run
check "dependency added: npm ci refuses" grep -q "in sync" "$TEST_TMPDIR/npm.log"
epo "$p"
check "dependency added: fail, not in sync ($st): $out" \
	has "tiny-b: file:../src/tiny-b-1.0.0.tgz in package.json, not in the lockfile" "$out"
# a dependency removed: npm ci leaves it out, the lockfile still names it
fresh removed
sed -i 's|"tiny-a":"file:../src/tiny-a-1.0.0.tgz"||' "$p/package.json"
npmq "$p" ci --offline
check "dependency removed: npm ci leaves tiny-a out" [ ! -d "$p/node_modules/tiny-a" ]
epo "$p"
check "dependency removed: fail, the relock named ($st): $out" \
	has "tiny-a: in the lockfile, no longer in package.json" "$out"
npmq "$p" install --offline
epo "$p"
check "dependency removed: npm install clears it ($st): $out" [ "$st" = 0 ]

# ---- state 4b: a workspace's package.json edited without relocking ----
# npm ci builds the tree from every package.json (arborist reads a
# workspace's from the disk) and refuses when it differs from the
# lockfile's ("Missing" / "Invalid"); what it accepts must pass, and
# running the printed fix (the relock) must clear what fails.
wb=$TEST_TMPDIR/wsbase
mkdir -p "$wb/packages/a" "$wb/packages/b" "$wb/packages/c"
printf '{"name":"app","version":"1.0.0","workspaces":["packages/a","packages/b"],"devDependencies":{"devdep":"file:../src/devdep-1.0.0.tgz"}}\n' \
	>"$wb/package.json"
printf '{"name":"a","version":"1.0.0","dependencies":{"tiny-a":"file:../../../src/tiny-a-1.0.0.tgz"}}\n' \
	>"$wb/packages/a/package.json"
printf '{"name":"b","version":"1.0.0"}\n' >"$wb/packages/b/package.json"
printf '{"name":"c","version":"1.0.0"}\n' >"$wb/packages/c/package.json"
npmq "$wb" install --offline
epo "$wb"
check "workspaces installed: pass ($st): $out" [ "$st" = 0 ]
wsfresh() {	# wsfresh NAME SED FILE: a copy of the installed workspace project, FILE edited
	p=$TEST_TMPDIR/$1
	rm -rf "$p"
	cp -a "$wb" "$p"
	sed -i "$2" "$p/$3"
}
# ci_refuses DIR: npm ci (a dry run) refuses the lockfile as out of sync
ci_refuses() { npmq "$1" ci --offline --dry-run; grep -q "in sync" "$TEST_TMPDIR/npm.log"; }
# ws_refused NAME TEXT: npm ci refuses; envpreflight fails with TEXT and
# the relock; the relock clears it
ws_refused() {
	check "$1: npm ci refuses: $(cat "$TEST_TMPDIR/npm.log")" ci_refuses "$p"
	epo "$p"
	check "$1: fail, not in sync ($st): $out" has "$2" "$out"
	out=$(ep --only=deps --json "$p")
	check "$1: the fix is the relock, the data name it" json_is "$out" \
		'c["fix"]["argv"] == ["npm", "install"] and "relock" in c["hint"] and c["data"]["outdated_lockfile"]["name"] in c["message"] and c["data"]["outdated_lockfile"]["manifest_file"] in c["message"]'
	npmq "$p" install --offline
	epo "$p"
	check "$1: npm install clears it ($st): $out" [ "$st" = 0 ]
}
# ws_accepted NAME: npm ci accepts and changes nothing: pass, before and after it
ws_accepted() {
	check "$1: npm ci accepts: $(cat "$TEST_TMPDIR/npm.log")" sh -c '! grep -q "in sync" "$1"' - "$TEST_TMPDIR/npm.log"
	dr=$(dry "$p")
	check "$1: npm changes nothing: $dr" has "up to date" "$dr"
	epo "$p"
	check "$1: pass ($st): $out" [ "$st" = 0 ]
	npmq "$p" ci --offline
	epo "$p"
	check "$1: after npm ci: pass ($st): $out" [ "$st" = 0 ]
}
wsfresh wsadded 's|"dependencies":{|"dependencies":{"tiny-b":"file:../../../src/tiny-b-1.0.0.tgz",|' packages/a/package.json
ws_refused "workspace dependency added" \
	"packages/a/package.json and package-lock.json are not in sync: tiny-b: file:../../../src/tiny-b-1.0.0.tgz in packages/a/package.json, not in the lockfile"
wsfresh wsdevadded 's|"version":"1.0.0"|"version":"1.0.0","devDependencies":{"tiny-b":"file:../../../src/tiny-b-1.0.0.tgz"}|' packages/b/package.json
ws_refused "workspace devDependency added" \
	"packages/b/package.json and package-lock.json are not in sync: tiny-b: file:../../../src/tiny-b-1.0.0.tgz in packages/b/package.json, not in the lockfile"
wsfresh wsspec 's|tiny-a-1.0.0.tgz|tiny-a-1.1.0.tgz|' packages/a/package.json
ws_refused "workspace spec no longer met" \
	"tiny-a: packages/a/package.json wants file:../../../src/tiny-a-1.1.0.tgz, the lockfile was made for file:../../../src/tiny-a-1.0.0.tgz"
wsfresh wsnew 's|"packages/b"|"packages/b","packages/c"|' package.json
ws_refused "workspace added" \
	"package.json and package-lock.json are not in sync: packages/c: a workspace of package.json, not in the lockfile"
# a spec the locked version still meets; a dependency the tree already
# has where the workspace resolves it (the root's, hoisted); a version
# bump (changeset version): npm ci accepts them
wsfresh wsmet 's|"file:../../../src/tiny-a-1.0.0.tgz"|"^1.0.0"|' packages/a/package.json
npmq "$p" ci --offline --dry-run
ws_accepted "workspace spec still met"
wsfresh wshoisted 's|"version":"1.0.0"|"version":"1.0.0","dependencies":{"devdep":"^1.0.0"}|' packages/b/package.json
npmq "$p" ci --offline --dry-run
ws_accepted "workspace dependency the root's package meets"
wsfresh wsbump 's|"version":"1.0.0"|"version":"1.1.0"|' packages/a/package.json
npmq "$p" ci --offline --dry-run
ws_accepted "workspace version bumped"
# a dependency removed, a workspace removed: npm ci accepts but leaves
# the package out while the lockfile still names it (its dry run says
# "remove"): the relock, as for the root's
ws_left_out() {	# NAME WHAT TEXT
	npmq "$p" ci --offline --dry-run
	check "$1: npm ci accepts and removes $2: $(cat "$TEST_TMPDIR/npm.log")" \
		has "remove $2" "$(cat "$TEST_TMPDIR/npm.log")"
	epo "$p"
	check "$1: fail, the relock named ($st): $out" has "$3" "$out"
	npmq "$p" install --offline
	epo "$p"
	check "$1: npm install clears it ($st): $out" [ "$st" = 0 ]
	dr=$(dry "$p")
	check "$1: after it npm changes nothing: $dr" has "up to date" "$dr"
}
wsfresh wsremoved 's|"tiny-a":"file:../../../src/tiny-a-1.0.0.tgz"||' packages/a/package.json
ws_left_out "workspace dependency removed" tiny-a \
	"tiny-a: in the lockfile, no longer in packages/a/package.json"
wsfresh wsgone 's|,"packages/b"||' package.json
ws_left_out "workspace removed" b \
	"packages/b: a workspace in the lockfile, no longer of package.json"

# a workspace depending on another: npm reads the folder's version from
# its package.json (arborist load-virtual.js #resolveLinks), not the
# lockfile.  changeset version bumps b and a's range with it: npm ci
# accepts; b bumped past a's range: npm would not link b (it looks for
# b@^1.0.0 elsewhere: refused, offline here), and no relock mends it
cs=$TEST_TMPDIR/csbase
mkdir -p "$cs/packages/a" "$cs/packages/b"
printf '{"name":"app","version":"1.0.0","workspaces":["packages/a","packages/b"]}\n' >"$cs/package.json"
printf '{"name":"a","version":"1.0.0","dependencies":{"b":"^1.0.0"}}\n' >"$cs/packages/a/package.json"
printf '{"name":"b","version":"1.0.0"}\n' >"$cs/packages/b/package.json"
npmq "$cs" install --offline
p=$TEST_TMPDIR/csver
cp -a "$cs" "$p"
sed -i 's/"1.0.0"/"2.0.0"/' "$p/packages/b/package.json"
sed -i 's/"\^1.0.0"/"^2.0.0"/' "$p/packages/a/package.json"
npmq "$p" ci --offline --dry-run
ws_accepted "changeset version (a workspace and the range on it bumped)"
p=$TEST_TMPDIR/cspast
cp -a "$cs" "$p"
sed -i 's/"1.0.0"/"2.0.0"/' "$p/packages/b/package.json"
ci_fails() { ! (cd "$1" && mgr npm ci --offline --dry-run >/dev/null 2>&1); }
check "workspace bumped past a range on it: npm ci fails" ci_fails "$p"
epo "$p"
check "workspace bumped past a range on it: fail ($st): $out" \
	has "b: packages/a/package.json wants ^1.0.0, packages/b/package.json has 2.0.0" "$out"
out=$(ep --only=deps --json "$p")
check "workspace bumped past a range on it: the fix is an edit, not a relock" json_is "$out" \
	'c["fix"]["edit"]["file"] == "packages/a/package.json" and c["fix"]["argv"] is None and c["data"]["outdated_lockfile"]["locked"] == "2.0.0"'

# ---- state 5: an npm: alias is named as npm ls names it ----
p=$TEST_TMPDIR/alias
mkdir -p "$p"
printf '{"name":"app","version":"1.0.0","dependencies":{"odd":"npm:is-odd@3.0.1"}}\n' >"$p/package.json"
if npmq "$p" install; then
	ls_out=$(cd "$p" && mgr npm ls --all 2>&1)
	check "alias: npm ls names the folder and the package: $ls_out" has "odd@npm:is-odd@3.0.1" "$ls_out"
	sed -i 's/"version": "3.0.1"/"version": "3.0.0"/' "$p/node_modules/odd/package.json"
	touch -d '+1 hour' "$p/node_modules/odd"
	epo "$p"
	check "alias: named by its folder, the package beside it: $out" \
		has "odd (npm:is-odd): lockfile 3.0.1, installed 3.0.0" "$out"
	npmq "$p" ci
	epo "$p"
	check "alias: npm ci clears it ($st): $out" [ "$st" = 0 ]
else
	skip "the alias case: the npm registry cannot be reached ($(tail -1 "$TEST_TMPDIR/npm.log"))"
fi

# ---- state 6: package.json's overrides changed without relocking ----
# The lockfile keeps no record of the overrides it was made with: npm
# applies package.json's to the locked tree (arborist override-set.js,
# edge.js satisfiedBy) and re-resolves every edge they make invalid; npm
# ci then refuses ("not in sync"), or leaves out a package the lockfile
# names.  Registry packages (is-odd 3.0.1 wants is-number ^6.0.0), cached
# after the first run, like the alias case.
ovb=$TEST_TMPDIR/ovbase
mkdir -p "$ovb"
ov_deps='"dependencies":{"is-odd":"3.0.1"}'
ov_ref='"dependencies":{"is-odd":"3.0.1","is-number":"7.0.0"}'
# ov_make NAME DEPS [OVERRIDES]: a project installed by npm, in $p
ov_make() {
	p=$TEST_TMPDIR/$1
	rm -rf "$p"
	mkdir -p "$p"
	printf '{"name":"app","version":"1.0.0",%s%s}\n' "$2" "${3:+,\"overrides\":$3}" >"$p/package.json"
	npmq "$p" install
}
# ov_now DEPS [OVERRIDES]: package.json edited, no relock
ov_now() { printf '{"name":"app","version":"1.0.0",%s%s}\n' "$1" "${2:+,\"overrides\":$2}" >"$p/package.json"; }
# ov_ci: npm ci's dry run, its words in $ci
ov_ci() { ci=$(cd "$p" && mgr npm ci --dry-run 2>&1 | grep -v '^npm warn'); }
ov_accepted() {	# NAME: npm ci accepts, pass
	ov_ci
	check "$1: npm ci accepts: $ci" sh -c '! printf "%s" "$1" | grep -q "npm error"' - "$ci"
	epo "$p"
	check "$1: pass ($st): $out" [ "$st" = 0 ]
}
ov_refused() {	# NAME TEXT: npm ci refuses (or leaves out what the lockfile names), fail with the relock, which clears it
	ov_ci
	check "$1: npm ci refuses: $ci" has "in sync" "$ci"
	epo "$p"
	check "$1: fail, not in sync ($st): $out" has "$2" "$out"
	out=$(ep --only=deps --json "$p")
	check "$1: the relock as fix, overrides the field" json_is "$out" \
		'c["fix"]["argv"] == ["npm", "install"] and "relock" in c["hint"] and c["data"]["outdated_lockfile"]["field"] == "overrides" and c["data"]["outdated_lockfile"]["name"] in c["message"]'
	npmq "$p" install
	epo "$p"
	check "$1: npm install clears it ($st): $out" [ "$st" = 0 ]
	ov_ci
	check "$1: after it npm ci accepts: $ci" sh -c '! printf "%s" "$1" | grep -q "npm error"' - "$ci"
}
if ov_make ovbase "$ov_deps"; then
	ovf() { p=$TEST_TMPDIR/$1; rm -rf "$p"; cp -a "$ovb" "$p"; ov_now "$ov_deps" "$2"; }
	ovf ov_met '{"is-number":"6.0.0"}'
	ov_accepted "override the locked version meets"
	ovf ov_range '{"is-number":"^6.0.0"}'
	ov_accepted "override range the locked version meets"
	ovf ov_new '{"is-number":"7.0.0"}'
	ov_refused "override added, not met" \
		"package.json and package-lock.json are not in sync: is-number: package.json's overrides make is-odd's ^6.0.0 into 7.0.0, the lockfile has 6.0.0"
	ovf ov_sel '{"is-number@^6":"7.0.0"}'
	ov_refused "a pkg@range selector the spec intersects" "is-odd's ^6.0.0 into 7.0.0"
	ovf ov_selno '{"is-number@^5":"7.0.0"}'
	ov_accepted "a pkg@range selector the spec does not intersect"
	ovf ov_nest '{"is-odd":{"is-number":"7.0.0"}}'
	ov_refused "a nested override under the dependent" "is-odd's ^6.0.0 into 7.0.0"
	ovf ov_nestno '{"other":{"is-number":"7.0.0"}}'
	ov_accepted "a nested override under another package"
	ovf ov_dot '{"is-odd":{".":"3.0.1","is-number":"7.0.0"}}'
	ov_refused "a \".\" override and a nested one" "is-odd's ^6.0.0 into 7.0.0"
	# an override of a direct dependency that is not its spec: npm ci and
	# npm install refuse it (EOVERRIDE); the fix is an edit
	ovf ov_direct '{"is-odd":"^3.0.1"}'
	ov_ci
	check "override of a direct dependency: npm ci fails: $ci" has "npm error" "$ci"
	npmq "$p" install
	check "override of a direct dependency: npm install says EOVERRIDE" grep -q EOVERRIDE "$TEST_TMPDIR/npm.log"
	epo "$p"
	check "override of a direct dependency: fail, EOVERRIDE ($st): $out" \
		has "package.json: overrides: is-odd: the override (^3.0.1) conflicts with the direct dependency (dependencies: 3.0.1): npm refuses it (EOVERRIDE)" "$out"
	out=$(ep --only=deps --json "$p")
	check "override of a direct dependency: the fix is an edit of package.json" json_is "$out" \
		'c["fix"]["edit"]["file"] == "package.json" and c["fix"]["argv"] is None and c["data"]["outdated_lockfile"]["field"] == "overrides"'
	ovf ov_directsame '{"is-odd":"3.0.1"}'
	ov_accepted "override of a direct dependency that is its spec"
	# changed: made with one override, now another
	ov_make ov_changed "$ov_deps" '{"is-number":"7.0.0"}'
	ov_now "$ov_deps" '{"is-number":"6.0.0"}'
	ov_refused "override changed" "is-odd's ^6.0.0 into 6.0.0, the lockfile has 7.0.0"
	ov_make ov_changedmet "$ov_deps" '{"is-number":"7.0.0"}'
	ov_now "$ov_deps" '{"is-number":"^7.0.0"}'
	ov_accepted "override changed to a range the locked version meets"
	# a $reference to the root's own spec: the nested 6.0.0 no longer
	# fits; npm ci accepts but leaves it out (the lockfile still names
	# it), so only the relock ends it
	ov_make ov_ref "$ov_ref"
	ov_now "$ov_ref" '{"is-number":"$is-number"}'
	ov_ci
	check "a \$reference override: npm ci removes the nested copy: $ci" has "removed 1 package" "$ci"
	epo "$p"
	check "a \$reference override: fail, not in sync ($st): $out" \
		has "is-number: package.json's overrides make is-odd's ^6.0.0 into 7.0.0, the lockfile has 6.0.0" "$out"
	npmq "$p" install
	epo "$p"
	check "a \$reference override: npm install clears it ($st): $out" [ "$st" = 0 ]
	# a nested copy the override no longer fits, below a top-level copy
	# that is the override's version (commander.js: chalk's ansi-styles
	# 4.3.0 hoisted, pretty-format's 5.2.0 nested, "ansi-styles": "4.3.0"):
	# npm keeps the nested copy when the one above is older (node.js
	# canDedupe), removes it when newer.  ov-a wants ^4, ov-b ^5; ov-c
	# ^5, ov-d ^4 (placed in name order: the first one's is hoisted)
	mkpkg ov-a 1.0.0 ',"dependencies":{"ansi-styles":"^4.1.0"}'
	mkpkg ov-b 1.0.0 ',"dependencies":{"ansi-styles":"^5.0.0"}'
	mkpkg ov-c 1.0.0 ',"dependencies":{"ansi-styles":"^5.0.0"}'
	mkpkg ov-d 1.0.0 ',"dependencies":{"ansi-styles":"^4.1.0"}'
	ov_ab="\"dependencies\":{\"ov-a\":\"file:$S/ov-a-1.0.0.tgz\",\"ov-b\":\"file:$S/ov-b-1.0.0.tgz\"}"
	ov_cd="\"dependencies\":{\"ov-c\":\"file:$S/ov-c-1.0.0.tgz\",\"ov-d\":\"file:$S/ov-d-1.0.0.tgz\"}"
	ov_make ov_older "$ov_ab"
	check "nested copy, older one above: the shape (4.3.0 hoisted, 5.2.0 nested)" \
		grep -q '"node_modules/ov-b/node_modules/ansi-styles"' "$p/package-lock.json"
	cp "$p/package-lock.json" "$TEST_TMPDIR/ov_older.lock"
	ov_now "$ov_ab" '{"ansi-styles":"4.3.0"}'
	ov_accepted "nested copy, older one above (commander.js)"
	d_out=$(dry "$p")
	check "nested copy, older one above: npm install --dry-run changes nothing: $d_out" \
		has "up to date" "$d_out"
	npmq "$p" install
	check "nested copy, older one above: npm install leaves the lockfile as it was" \
		cmp -s "$p/package-lock.json" "$TEST_TMPDIR/ov_older.lock"
	ov_make ov_newer "$ov_cd"
	check "nested copy, newer one above: the shape (5.2.0 hoisted, 4.3.0 nested)" \
		grep -q '"node_modules/ov-d/node_modules/ansi-styles"' "$p/package-lock.json"
	ov_now "$ov_cd" '{"ansi-styles":"5.2.0"}'
	ov_ci
	check "nested copy, newer one above: npm ci removes the nested copy: $ci" has "remove ansi-styles 4.3.0" "$ci"
	epo "$p"
	check "nested copy, newer one above: fail, not in sync ($st): $out" \
		has "ansi-styles: package.json's overrides make ov-d's ^4.1.0 into 5.2.0, the lockfile has 4.3.0" "$out"
	npmq "$p" install
	epo "$p"
	check "nested copy, newer one above: npm install clears it ($st): $out" [ "$st" = 0 ]
	# an override range there ("ansi-styles": "^4.1.0", commander.js's
	# own shape): npm fetches the range's pick from the registry
	# (npm-pick-manifest: its newest) and keeps the nested copy when that
	# is the copy above, else relocks; envpreflight reads the packument
	# npm's cache holds (the one npm fetched), and without it cannot say
	ov_make ov_range_older "$ov_ab"
	cp "$p/package-lock.json" "$TEST_TMPDIR/ov_range.lock"
	ov_now "$ov_ab" '{"ansi-styles":"^4.1.0"}'
	d_out=$(dry "$p")
	check "override range, its newest the copy above: npm install --dry-run changes nothing: $d_out" \
		has "up to date" "$d_out"
	EP_ENV="npm_config_cache=$MGR_CACHE/npm"
	ov_accepted "override range, its newest the copy above (commander.js), npm's cache read"
	EP_ENV=
	out=$(ep --only=deps --json "$p")
	check "override range, npm's cache not there: a warning, undecided, npm install as fix" json_is "$out" \
		'c["status"] == "warn" and c["reason"] == "undecided" and c["fix"]["argv"] == ["npm", "install"] and "registry" in c["message"] and "4.3.0" in c["message"] and c["data"]["outdated_lockfile"]["field"] == "overrides"'
	npmq "$p" install
	check "override range, its newest the copy above: npm install leaves the lockfile as it was" \
		cmp -s "$p/package-lock.json" "$TEST_TMPDIR/ov_range.lock"
	EP_ENV="npm_config_cache=$MGR_CACHE/npm"
	epo "$p"
	check "override range: after npm install, with npm's cache, a pass ($st): $out" [ "$st" = 0 ]
	# the copy above older than the range's newest (4.2.1 against 4.3.0):
	# npm fetches 4.3.0 and relocks; ov-a1 is placed before ov-b
	mkpkg ov-a1 1.0.0 ',"dependencies":{"ansi-styles":"4.2.1"}'
	ov_a1b="\"dependencies\":{\"ov-a1\":\"file:$S/ov-a1-1.0.0.tgz\",\"ov-b\":\"file:$S/ov-b-1.0.0.tgz\"}"
	ov_make ov_range_stale "$ov_a1b"
	check "override range, an older copy above: the shape (4.2.1 hoisted, 5.2.0 nested)" \
		grep -q '"node_modules/ov-b/node_modules/ansi-styles"' "$p/package-lock.json"
	ov_now "$ov_a1b" '{"ansi-styles":"^4.1.0"}'
	ov_refused "override range, a newer version in the registry than the copy above" \
		"ansi-styles: package.json's overrides make ov-b's ^5.0.0 into ^4.1.0, the lockfile has 5.2.0"
	EP_ENV=
	# removed: the lockfile keeps no record of the overrides it was made
	# with; with package.json written after the lockfile and holding none,
	# every edge is judged (npm ci re-resolves the one the override made
	# valid, and refuses)
	ov_make ov_removed "$ov_deps" '{"is-number":"7.0.0"}'
	ov_now "$ov_deps"
	# written well after the lockfile (a checkout writes both at once)
	touch -r "$p/package-lock.json" -d '+10 seconds' "$p/package.json"
	ov_refused "override removed without a relock" \
		"is-number: is-odd wants ^6.0.0, the lockfile has 7.0.0"
	# package.json newer, nothing removed: every edge judged, all valid
	p=$TEST_TMPDIR/ov_touched
	rm -rf "$p"
	cp -a "$ovb" "$p"
	touch -r "$p/package-lock.json" -d '+10 seconds' "$p/package.json"
	ov_accepted "package.json newer than the lockfile, no override"
else
	skip "the overrides cases: the npm registry cannot be reached ($(tail -1 "$TEST_TMPDIR/npm.log"))"
fi

finish
