#!/bin/sh
# deps_yarn.sh - the deps probe against the real yarn 3 and yarn 4
# (tests/managers): each install state is built by yarn itself, and yarn
# is the oracle.  `yarn install --immutable` is run on a copy of the
# state: it changed no file (the tree's names, sizes, times and inodes;
# yarn's own install-state.gz and cache left out) or it refused
# (YN0028), and envpreflight must pass exactly when it changed nothing
# and did not refuse.  Where envpreflight fails with a fix, the fix is
# run in that state and the check must then pass.
#
# The packages are real (the npm registry; cached in tests/managers/cache
# after the first run): typescript and resolve (yarn's built-in compat
# patches; typescript in a project of its own), chokidar (fsevents:
# darwin only, and node-gyp's tree behind it), is-odd with is-number, and
# a workspace of the project's own.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../managers/lib.sh"

# (a proxy's certificate authority is passed on by managers/lib.sh)
base_env=
MGR_ENV=

has() { printf '%s\n' "$2" | grep -qF -- "$1"; }
# field DIR PYEXPR: evaluates PYEXPR with c = the deps check of DIR
field() {
	ep --only=deps --json "$1" | py -c '
import json, sys
d = json.load(sys.stdin)
c = [x for x in d["checks"] if x["probe"] == "deps"][0]
print(eval(sys.argv[1]))' "$2"
}
status() { field "$1" 'c["status"]'; }

# snap DIR: what yarn could change, one line a file (a folder by its
# name only: its time moves when yarn writes its own install state)
snap() {
	(cd "$1" && find . \( -path ./.yarn/cache -o -path ./.yarn/install-state.gz \
		-o -path ./.yarn/unplugged \) -prune -o -type d -printf '%p/\n' \
		-o -printf '%p %s %T@ %i %l\n' | LC_ALL=C sort)
}

# oracle Y DIR: run yarn Y's frozen install in DIR; prints "same",
# "changed" or "refused"
oracle() {
	snap "$2" >"$TEST_TMPDIR/snap1"
	if (cd "$2" && mgr "$1" install --immutable >"$TEST_TMPDIR/oracle.log" 2>&1); then
		snap "$2" >"$TEST_TMPDIR/snap2"
		if cmp -s "$TEST_TMPDIR/snap1" "$TEST_TMPDIR/snap2"; then echo same; else echo changed; fi
	else
		echo refused
	fi
}

# verdict DIR: envpreflight's deps check of DIR, one run: sets v_st (its
# status), v_fix (its fix's words) and v_msg (its message)
verdict() {
	v=$(ep --only=deps --json "$1" | py -c '
import json, sys
c = [x for x in json.load(sys.stdin)["checks"] if x["probe"] == "deps"][0]
f = c.get("fix") or {}
print(c["status"], " ".join(f.get("argv") or []), c["message"], sep="\t")')
	v_st=${v%%	*}
	v=${v#*	}
	v_fix=${v%%	*}
	v_msg=${v#*	}
}

# agree Y NAME DIR: envpreflight's verdict on DIR is yarn's; when it
# fails with a fix, that fix (run by the oracle, or a relock) clears it
agree() {
	ag_y=$1 ag_name=$2 ag_dir=$3
	verdict "$ag_dir"
	ag_st=$v_st ag_fix=$v_fix
	ag_o=$(oracle "$ag_y" "$ag_dir")
	if [ "$ag_o" = same ]; then ag_want=pass; else ag_want=fail; fi
	check "$ag_y $ag_name: yarn says $ag_o, envpreflight $ag_st: $v_msg" [ "$ag_st" = "$ag_want" ]
	[ "$ag_st" = fail ] || return 0
	if [ "$ag_fix" = "yarn install" ]; then
		check "$ag_y $ag_name: yarn refused, the fix relocks" [ "$ag_o" = refused ]
		(cd "$ag_dir" && mgr "$ag_y" install >/dev/null 2>&1)
	else
		check "$ag_y $ag_name: the fix is the frozen install ($ag_fix)" \
			[ "$ag_fix" = "yarn install --immutable" ]
	fi
	# the oracle has run the frozen install: the check must pass now
	verdict "$ag_dir"
	check "$ag_y $ag_name: after the fix, it passes: $v_msg" [ "$v_st" = pass ]
}

# pj DIR PYSTMT: edits DIR/package.json (d, the parsed object), written
# as yarn writes a manifest (JSON.stringify(d, null, 2) and a newline)
pj() {
	py -c 'import json, sys
d = json.load(open(sys.argv[1] + "/package.json")); exec(sys.argv[2])
open(sys.argv[1] + "/package.json", "w").write(json.dumps(d, indent=2) + "\n")' "$1" "$2"
}

# frozen_ok Y DIR: yarn Y's frozen install in DIR succeeds
frozen_ok() { (cd "$2" && mgr "$1" install --immutable >/dev/null 2>&1); }

# fresh NAME: a copy of the pristine installed project
fresh() {
	rm -rf "$TEST_TMPDIR/$1"
	cp -a "$pristine" "$TEST_TMPDIR/$1"
	echo "$TEST_TMPDIR/$1"
}

# installed NAME DEPS YARNRC: the project (the workspace lib beside DEPS,
# package.json's text) with .yarnrc.yml YARNRC (printf's escapes),
# installed by yarn $y in $TEST_TMPDIR/NAME: the pristine of fresh; fails,
# yarn's output in install.log, when yarn could not install it
installed() {
	pristine=$TEST_TMPDIR/$1
	mkdir -p "$pristine/packages/lib"
	printf '{"name":"lib","version":"1.0.0","dependencies":{"is-odd":"3.0.1"}}\n' \
		>"$pristine/packages/lib/package.json"
	printf '{"name":"app","version":"1.0.0","private":true,"workspaces":["packages/*"],%s}\n' \
		"$2" >"$pristine/package.json"
	: >"$pristine/yarn.lock"
	# shellcheck disable=SC2059 # the caller's escapes, wanted
	printf "$3" >"$pristine/.yarnrc.yml"
	(cd "$pristine" && mgr "$y" install >"$TEST_TMPDIR/install.log" 2>&1)
}

for y in yarn3 yarn4; do
	if ! mgr_have "$y"; then
		skip "$(mgr_why "$y")"
		continue
	fi
	# ---- node-modules linker ----
	MGR_ENV=$base_env
	# (resolve carries yarn's compat patch here; typescript, 31 MB of the
	# copy each state makes and half a second of each yarn run, has a
	# project of its own below)
	if ! installed "$y-nm" '"dependencies":{"resolve":"1.22.8","chokidar":"3.6.0","lib":"workspace:*"},"devDependencies":{"is-number":"7.0.0"}' \
		'nodeLinker: node-modules\n'; then
		skip "$y install failed (offline?): $(tail -3 "$TEST_TMPDIR/install.log")"
		continue
	fi
	# 1. right after yarn install: compat patches and fsevents' tree
	pd=$(fresh "$y-clean")
	out=$(ep --only=deps "$pd")
	check "$y nm clean install: packages match, fsevents skipped: $out" \
		has "packages match node_modules/.yarn-state.yml" "$out"
	# the record's locators but the two workspaces: no fsevents, node-gyp
	check "$y nm clean install: no fsevents/node-gyp counted" \
		[ "$(field "$pd" 'c["data"]["packages"]')" = "$(grep -c '^"' "$pd/node_modules/.yarn-state.yml" | awk '{ print $1 - 2 }')" ]
	agree "$y" "nm clean install" "$pd"
	# 2. a deleted package folder, top-level link, workspace link
	pd=$(fresh "$y-gone")
	rm -rf "$pd/node_modules/is-odd"
	agree "$y" "nm deleted package folder" "$pd"
	pd=$(fresh "$y-gone-ws")
	rm -f "$pd/node_modules/lib"
	agree "$y" "nm deleted workspace link" "$pd"
	pd=$(fresh "$y-gone-resolve")
	rm -rf "$pd/node_modules/resolve"
	agree "$y" "nm deleted compat-patched resolve" "$pd"
	# 4. package.json edited without relocking (root and a workspace)
	pd=$(fresh "$y-edit")
	sed -i 's/"is-number":"7.0.0"/"is-number":"6.0.0"/' "$pd/package.json"
	agree "$y" "nm package.json edited, not relocked" "$pd"
	pd=$(fresh "$y-edit-ws")
	sed -i 's/"is-odd":"3.0.1"/"is-odd":"3.0.0"/' "$pd/packages/lib/package.json"
	agree "$y" "nm workspace package.json edited, not relocked" "$pd"
	# 5. an unknown __metadata version: a failed check naming file:line
	pd=$(fresh "$y-meta")
	sed -i 's/^  version: [0-9]*$/  version: 99/' "$pd/yarn.lock"
	out=$(ep --only=deps "$pd")
	st=$?
	check "$y nm __metadata version 99: exit 1, names yarn.lock:line: $out" \
		sh -c '[ "$1" = 1 ] && printf "%s" "$2" | grep -q "yarn.lock:[0-9]*: __metadata version 99"' - "$st" "$out"
	agree "$y" "nm __metadata version 99" "$pd"
	pd=$(fresh "$y-meta-nan")
	sed -i 's/^  version: [0-9]*$/  version: abc/' "$pd/yarn.lock"
	out=$(ep --only=deps "$pd")
	check "$y nm __metadata version abc: names yarn.lock:line: $out" \
		has "yarn.lock:5: __metadata version is not a number" "$out"
	agree "$y" "nm __metadata version abc" "$pd"
	# a yarn 4 lockfile (version 10) in a project pinned to yarn 3
	if [ "$y" = yarn4 ] && mgr_have yarn3; then
		pd=$(fresh "$y-pinned3")
		py -c 'import json, sys
d = json.load(open(sys.argv[1])); d["packageManager"] = "yarn@3.8.6"
json.dump(d, open(sys.argv[1], "w"), indent=2)' "$pd/package.json"
		agree yarn3 "nm yarn 4 lockfile, packageManager yarn@3.8.6" "$pd"
	fi
	pd=$(fresh "$y-lock-bare")
	sed -i '/^"app@workspace:\."/,/^$/d' "$pd/yarn.lock"
	agree "$y" "nm yarn.lock without the project's own entry" "$pd"
	# 6. the states that agreed before: a pull that changed the lockfile,
	# nothing installed
	pd=$(fresh "$y-pull")
	cp -a "$pd" "$TEST_TMPDIR/$y-pull-other"
	sed -i 's/"is-number":"7.0.0"/"is-number":"6.0.0"/' "$TEST_TMPDIR/$y-pull-other/package.json"
	(cd "$TEST_TMPDIR/$y-pull-other" && mgr "$y" install >/dev/null 2>&1)
	cp "$TEST_TMPDIR/$y-pull-other/package.json" "$TEST_TMPDIR/$y-pull-other/yarn.lock" "$pd/"
	agree "$y" "nm lockfile changed by a pull" "$pd"
	pd=$(fresh "$y-none")
	rm -rf "$pd/node_modules"
	agree "$y" "nm nothing installed" "$pd"
	# 7. resolutions (package.json) against the lockfile's descriptors:
	# added without relocking (yarn refuses), then, relocked by the fix,
	# changed and removed (both refused); one for a package the project
	# does not have changes nothing
	pd=$(fresh "$y-res")
	pj "$pd" 'd["resolutions"] = {"is-number": "6.0.0"}'
	agree "$y" "nm resolution added, not relocked" "$pd"
	check "$y nm resolution relocked: yarn.lock keys is-number@npm:6.0.0" \
		grep -q '^"is-number@npm:6.0.0' "$pd/yarn.lock"
	pj "$pd" 'd["resolutions"] = {"is-number": "^6.0.0"}'
	agree "$y" "nm resolution changed, not relocked" "$pd"
	pj "$pd" 'del d["resolutions"]'
	agree "$y" "nm resolution removed, not relocked" "$pd"
	# (yarn 3 rewrites package.json in its own field order here, so
	# the frozen install's verdict is its exit and an unchanged lockfile)
	pd=$(fresh "$y-res-none")
	pj "$pd" 'd["resolutions"] = {"left-pad": "1.0.0", "lib/is-odd": "3.0.1"}'
	out=$(ep --only=deps "$pd")
	check "$y nm resolutions that change nothing: passes: $out" [ "$(status "$pd")" = pass ]
	cp "$pd/yarn.lock" "$TEST_TMPDIR/res-none.lock"
	check "$y nm resolutions that change nothing: yarn install --immutable agrees" \
		frozen_ok "$y" "$pd"
	check "$y nm resolutions that change nothing: yarn.lock unchanged" \
		cmp -s "$pd/yarn.lock" "$TEST_TMPDIR/res-none.lock"
	# typescript, the commonest compat patch (the issue's "typescript +
	# lodash alone: 2 of 3"): right after the install, and deleted
	if installed "$y-ts" '"dependencies":{"typescript":"5.4.5","lib":"workspace:*"}' \
		'nodeLinker: node-modules\n'; then
		pd=$(fresh "$y-ts-clean")
		out=$(ep --only=deps "$pd")
		check "$y nm typescript, clean install: packages match: $out" \
			has "packages match node_modules/.yarn-state.yml" "$out"
		agree "$y" "nm typescript, clean install" "$pd"
		pd=$(fresh "$y-ts-gone")
		rm -rf "$pd/node_modules/typescript"
		agree "$y" "nm deleted compat-patched typescript" "$pd"
	else
		skip "$y typescript install failed (offline?): $(tail -3 "$TEST_TMPDIR/install.log")"
	fi

	# ---- Plug'n'Play (a zero-install cache in the project) ----
	MGR_ENV="$base_env YARN_ENABLE_GLOBAL_CACHE=0"
	if ! installed "$y-pnp" '"dependencies":{"chokidar":"3.6.0","lib":"workspace:*"},"devDependencies":{"is-number":"7.0.0"}' \
		'nodeLinker: pnp\nenableGlobalCache: false\n'; then
		skip "$y pnp install failed (offline?): $(tail -3 "$TEST_TMPDIR/install.log")"
		continue
	fi
	pd=$(fresh "$y-pnp-clean")
	out=$(ep --only=deps "$pd")
	check "$y pnp clean install: read from the install state: $out" \
		has ".yarn/install-state.gz was installed from this yarn.lock" "$out"
	agree "$y" "pnp clean install" "$pd"
	# 3. a branch switch and back: yarn.lock rewritten, the same bytes
	pd=$(fresh "$y-pnp-branch")
	cp "$pd/yarn.lock" "$TEST_TMPDIR/lock.keep"
	touch -d '+1 hour' "$TEST_TMPDIR/lock.keep"
	cp -p "$TEST_TMPDIR/lock.keep" "$pd/yarn.lock"
	agree "$y" "pnp branch switch and back (yarn.lock newer, same)" "$pd"
	pd=$(fresh "$y-pnp-nopnp")
	rm -f "$pd/.pnp.cjs"
	agree "$y" "pnp deleted .pnp.cjs" "$pd"
	# a zero-install clone: .pnp.cjs and .yarn/cache committed, no state
	pd=$(fresh "$y-pnp-clone")
	rm -f "$pd/.yarn/install-state.gz"
	out=$(ep --only=deps "$pd")
	check "$y pnp zero-install clone: not 'nothing is installed': $out" \
		has ".pnp.cjs is the repository's own" "$out"
	agree "$y" "pnp zero-install clone" "$pd"
	pd=$(fresh "$y-pnp-edit")
	sed -i 's/"is-number":"7.0.0"/"is-number":"6.0.0"/' "$pd/package.json"
	agree "$y" "pnp package.json edited, not relocked" "$pd"
	pd=$(fresh "$y-pnp-pull")
	cp -a "$pd" "$TEST_TMPDIR/$y-pnp-other"
	sed -i 's/"is-number":"7.0.0"/"is-number":"6.0.0"/' "$TEST_TMPDIR/$y-pnp-other/package.json"
	(cd "$TEST_TMPDIR/$y-pnp-other" && mgr "$y" install >/dev/null 2>&1)
	cp "$TEST_TMPDIR/$y-pnp-other/package.json" "$TEST_TMPDIR/$y-pnp-other/yarn.lock" "$pd/"
	agree "$y" "pnp lockfile changed by a pull" "$pd"
	pd=$(fresh "$y-pnp-res")
	pj "$pd" 'd["resolutions"] = {"is-number": "6.0.0"}'
	agree "$y" "pnp resolution added, not relocked" "$pd"
	pj "$pd" 'del d["resolutions"]'
	agree "$y" "pnp resolution removed, not relocked" "$pd"
	# a package with peer dependencies: accessibleLocators holds only
	# its virtual locator (use-sync-external-store's peer react)
	pd=$TEST_TMPDIR/$y-pnp-peer
	mkdir -p "$pd"
	printf '{"name":"peer","private":true,"dependencies":{"react":"18.2.0","use-sync-external-store":"1.2.0"}}\n' >"$pd/package.json"
	printf 'nodeLinker: pnp\nenableGlobalCache: false\n' >"$pd/.yarnrc.yml"
	: >"$pd/yarn.lock"
	if (cd "$pd" && mgr "$y" install >"$TEST_TMPDIR/install.log" 2>&1); then
		out=$(ep --only=deps "$pd")
		check "$y pnp peer dependencies (virtual locators): passes: $out" \
			has ".yarn/install-state.gz was installed from this yarn.lock" "$out"
		agree "$y" "pnp peer dependencies (virtual locators)" "$pd"
	else
		skip "$y pnp peer install failed (offline?): $(tail -3 "$TEST_TMPDIR/install.log")"
	fi
	# a production image: yarn workspaces focus --production (built into
	# yarn 4; yarn 3 needs the workspace-tools plugin, a download)
	if [ "$y" = yarn4 ]; then
		pd=$(fresh "$y-pnp-focus")
		(cd "$pd" && mgr "$y" workspaces focus --all --production >/dev/null 2>&1)
		agree "$y" "pnp workspaces focus --production" "$pd"
	else
		skip "yarn3 workspaces focus: needs plugin-workspace-tools (yarn plugin import: a download)"
	fi
	# a yarn 4.0 release candidate pinned (typanion: yarn@4.0.0-rc.2
	# writes __metadata version 7): yarn 4.18.1 told to write 7
	# (YARN_LOCKFILE_VERSION_OVERRIDE, Project.ts) stands in for it
	if [ "$y" = yarn4 ]; then
		MGR_ENV="$base_env YARN_LOCKFILE_VERSION_OVERRIDE=7"
		# (twice: the first install keeps the cacheKey of the checksums
		# it read, 10c0, the second writes the one of version 7, 10)
		pd=$(fresh "$y-rc2")
		pj "$pd" 'd["packageManager"] = "yarn@4.0.0-rc.2"'
		(cd "$pd" && mgr "$y" install && mgr "$y" install) >"$TEST_TMPDIR/install.log" 2>&1
		check "$y yarn@4.0.0-rc.2 pinned: the lockfile is version 7" \
			grep -q '^  version: 7$' "$pd/yarn.lock"
		out=$(ep --only=deps "$pd")
		check "$y yarn@4.0.0-rc.2 pinned, version 7: passes: $out" \
			has ".yarn/install-state.gz was installed from this yarn.lock" "$out"
		agree "$y" "pnp yarn@4.0.0-rc.2 pinned, lockfile version 7" "$pd"
		# the rc's yarn meets a lockfile of version 10: it rewrites it
		pd=$(fresh "$y-rc2-v10")
		pj "$pd" 'd["packageManager"] = "yarn@4.0.0-rc.2"'
		agree "$y" "pnp yarn@4.0.0-rc.2 pinned, lockfile version 10" "$pd"
		MGR_ENV="$base_env YARN_ENABLE_GLOBAL_CACHE=0"
	fi
done
finish
