#!/bin/sh
# fixwrites.sh - each kind of fix, run for real, changes only what its
# fix.writes says (a harness that promises a clean work tree filters
# fixes by that list), and clears the check it was given for.  The fix is
# taken from the --json report as a harness takes it (argv, run in cwd)
# and run through the real tool: cp, npm, pnpm, yarn, bun, pip (in a venv
# python3 -m venv made, from a folder of wheels built here: no network).
# tests/fixwrites.py snapshots the tree (.git aside) before and after and
# lists what changed that writes does not cover.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../managers/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)

S=$TEST_TMPDIR/src
mkdir -p "$S"
# mkpkg NAME VERSION: $S/NAME-VERSION.tgz as npm pack makes it
mkpkg() {
	d=$S/pack/$1-$2/package
	mkdir -p "$d"
	printf '{"name":"%s","version":"%s"}\n' "$1" "$2" >"$d/package.json"
	echo 'module.exports = 1' >"$d/index.js"
	tar czf "$S/$1-$2.tgz" -C "$d/.." package
}
mkpkg tiny-a 1.0.0
mkpkg tiny-a 2.0.0
mkpkg tiny-b 1.0.0

# fix_of REPORT CHECK FIELD: a field of CHECK's fix, argv as words
fix_of() {
	py - "$1" "$2" "$3" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
c = [x for x in d["checks"] if x["id"] == sys.argv[2]]
f = c[0]["fix"] if c and c[0]["fix"] else {}
v = f.get(sys.argv[3])
print(" ".join(v) if isinstance(v, list) else (v if v is not None else ""))
EOF
}

# fw NAME DIR CHECK RUNNER: audit DIR (--json), take CHECK's fix, run its
# argv in its cwd with RUNNER (a command word: "mgr", "direct" or "pip"),
# and hold what changed against its writes; then the check must pass.
fw() {
	name=$1 dir=$2 id=$3 how=$4
	rep=$TEST_TMPDIR/fw-$name.json
	ep --json --only="${id%%.*}" "$dir" >"$rep"
	argv=$(fix_of "$rep" "$id" argv)
	cwd=$(fix_of "$rep" "$id" cwd)
	if [ -z "$argv" ]; then
		not_ok "$name: $id has no fix argv: $(grep -o '"message": "[^"]*' "$rep" | head -3)"
		return
	fi
	py "$top/tests/fixwrites.py" snap "$dir" "$TEST_TMPDIR/fw.before"
	case $how in
	mgr) (cd "$dir/$cwd" && mgr $MGR $(echo "$argv" | cut -d' ' -f2-)) >"$TEST_TMPDIR/fw.log" 2>&1 ;;
	pip) (cd "$dir/$cwd" && env -i PATH=/usr/bin:/bin HOME="$TEST_TMPDIR/home" \
		PIP_CONFIG_FILE=/dev/null PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 \
		PIP_NO_INDEX=1 PIP_FIND_LINKS="$wh" $argv) >"$TEST_TMPDIR/fw.log" 2>&1 ;;
	*) (cd "$dir/$cwd" && $argv) >"$TEST_TMPDIR/fw.log" 2>&1 ;;
	esac
	rc=$?
	check "$name: '$argv' in ${cwd:-.} ran (status $rc): $(tail -3 "$TEST_TMPDIR/fw.log")" [ "$rc" = 0 ]
	py "$top/tests/fixwrites.py" snap "$dir" "$TEST_TMPDIR/fw.after"
	d=$(py "$top/tests/fixwrites.py" diff "$TEST_TMPDIR/fw.before" "$TEST_TMPDIR/fw.after" "$rep" "$id")
	check "$name: '$argv' changed only what fix.writes says: $d" \
		py "$top/tests/fixwrites.py" diff "$TEST_TMPDIR/fw.before" "$TEST_TMPDIR/fw.after" "$rep" "$id"
	ep --json --only="${id%%.*}" "$dir" >"$rep.after"
	check "$name: then $id passes: $(grep -o '"message": "[^"]*' "$rep.after" | head -2)" \
		py -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if all(c["status"] in ("pass","warn") for c in d["checks"] if c["id"]==sys.argv[2]) else 1)' \
		"$rep.after" "$id"
}

# ---- the .env copy ----
r=$TEST_TMPDIR/envcopy
mkdir -p "$r/sub"
printf 'A=\nB=2\n' >"$r/.env.example"
fw "env copy" "$r" env.parity direct

# ---- npm: an install, a relock, workspaces with a nested package ----
if mgr_have npm; then
	MGR=npm
	r=$TEST_TMPDIR/npm
	mkdir -p "$r/packages/a" "$r/packages/b"
	printf '{"name":"app","version":"1.0.0","workspaces":["packages/*"],"dependencies":{"tiny-a":"file:../src/tiny-a-1.0.0.tgz"}}\n' >"$r/package.json"
	# a's tiny-a is not the root's: npm nests it in packages/a/node_modules
	printf '{"name":"a","version":"1.0.0","dependencies":{"tiny-a":"file:../../../src/tiny-a-2.0.0.tgz"}}\n' >"$r/packages/a/package.json"
	printf '{"name":"b","version":"1.0.0"}\n' >"$r/packages/b/package.json"
	(cd "$r" && mgr npm install --offline) >"$TEST_TMPDIR/npm.log" 2>&1
	check "npm installed the workspaces: $(tail -2 "$TEST_TMPDIR/npm.log")" \
		[ -f "$r/packages/a/node_modules/tiny-a/package.json" ]
	rm -rf "$r/node_modules" "$r/packages/a/node_modules"
	MGR_ENV=npm_config_offline=true fw "npm ci, workspaces" "$r" deps.npm mgr
	sed -i 's|"dependencies":{|"dependencies":{"tiny-b":"file:../src/tiny-b-1.0.0.tgz",|' "$r/package.json"
	MGR_ENV=npm_config_offline=true fw "npm relock" "$r" deps.npm mgr
else
	skip "npm: $(mgr_why npm)"
fi

# ---- pnpm: a workspace package's own node_modules ----
if mgr_have pnpm10; then
	MGR=pnpm10
	r=$TEST_TMPDIR/pnpm
	mkdir -p "$r/packages/a"
	printf '{"name":"app","version":"1.0.0","dependencies":{"tiny-a":"file:../src/tiny-a-1.0.0.tgz"}}\n' >"$r/package.json"
	printf 'packages:\n  - packages/*\n' >"$r/pnpm-workspace.yaml"
	printf '{"name":"a","version":"1.0.0","dependencies":{"tiny-b":"file:../../../src/tiny-b-1.0.0.tgz"}}\n' >"$r/packages/a/package.json"
	(cd "$r" && mgr pnpm10 install --offline) >"$TEST_TMPDIR/pnpm.log" 2>&1
	check "pnpm installed the workspace: $(tail -2 "$TEST_TMPDIR/pnpm.log")" \
		[ -d "$r/packages/a/node_modules/tiny-b" ]
	rm -rf "$r/node_modules" "$r/packages/a/node_modules"
	MGR_ENV=npm_config_offline=true fw "pnpm install, workspace" "$r" deps.pnpm mgr
	sed -i 's|"dependencies":{|"dependencies":{"tiny-b":"file:../../../src/tiny-b-1.0.0.tgz",|' "$r/packages/a/package.json"
	sed -i 's|tiny-b-1.0.0.tgz",|tiny-b-1.0.0.tgz","tiny-a":"file:../../../src/tiny-a-2.0.0.tgz",|' "$r/packages/a/package.json"
	MGR_ENV=npm_config_offline=true fw "pnpm relock, workspace" "$r" deps.pnpm mgr
else
	skip "pnpm: $(mgr_why pnpm10)"
fi

# ---- yarn berry: Plug'n'Play and node-modules ----
if mgr_have yarn4; then
	MGR=yarn4
	for linker in pnp node-modules; do
		r=$TEST_TMPDIR/yarn-$linker
		mkdir -p "$r/packages/a"
		printf '{"name":"app","version":"1.0.0","private":true,"workspaces":["packages/*"],"dependencies":{"tiny-a":"file:../src/tiny-a-1.0.0.tgz"}}\n' >"$r/package.json"
		printf '{"name":"a","version":"1.0.0","dependencies":{"tiny-a":"file:../../../src/tiny-a-2.0.0.tgz"}}\n' >"$r/packages/a/package.json"
		printf 'nodeLinker: %s\nenableGlobalCache: false\n' "$linker" >"$r/.yarnrc.yml"
		: >"$r/yarn.lock"
		(cd "$r" && mgr yarn4 install) >"$TEST_TMPDIR/yarn.log" 2>&1
		check "yarn ($linker) installed: $(tail -2 "$TEST_TMPDIR/yarn.log")" \
			[ -f "$r/.yarn/install-state.gz" ]
		rm -rf "$r/node_modules" "$r/packages/a/node_modules" "$r/.pnp.cjs" \
			"$r/.pnp.loader.mjs" "$r/.yarn/install-state.gz"
		# yarn wrote the manifests in its own layout: as a person
		# writes them again
		printf '{"name":"app","version":"1.0.0","private":true,"workspaces":["packages/*"],"dependencies":{"tiny-a":"file:../src/tiny-a-1.0.0.tgz"}}\n' >"$r/package.json"
		printf '{"name":"a","version":"1.0.0","dependencies":{"tiny-a":"file:../../../src/tiny-a-2.0.0.tgz"}}\n' >"$r/packages/a/package.json"
		fw "yarn install ($linker)" "$r" deps.yarn mgr
		printf '{"name":"a","version":"1.0.0","dependencies":{"tiny-b":"file:../../../src/tiny-b-1.0.0.tgz","tiny-a":"file:../../../src/tiny-a-2.0.0.tgz"}}\n' >"$r/packages/a/package.json"
		fw "yarn relock ($linker)" "$r" deps.yarn mgr
	done
else
	skip "yarn: $(mgr_why yarn4)"
fi

# ---- bun: a workspace ----
if mgr_have bun; then
	MGR=bun
	r=$TEST_TMPDIR/bun
	mkdir -p "$r/packages/a"
	printf '{"name":"app","version":"1.0.0","workspaces":["packages/*"],"dependencies":{"tiny-a":"file:../src/tiny-a-1.0.0.tgz"}}\n' >"$r/package.json"
	printf '{"name":"a","version":"1.0.0","dependencies":{"tiny-a":"file:../../../src/tiny-a-2.0.0.tgz"}}\n' >"$r/packages/a/package.json"
	(cd "$r" && mgr bun install) >"$TEST_TMPDIR/bun.log" 2>&1
	check "bun installed: $(tail -2 "$TEST_TMPDIR/bun.log")" [ -d "$r/node_modules/tiny-a" ]
	rm -rf "$r/node_modules" "$r/packages/a/node_modules"
	fw "bun install, workspace" "$r" deps.bun mgr
	sed -i 's|"dependencies":{|"dependencies":{"tiny-b":"file:../../../src/tiny-b-1.0.0.tgz",|' "$r/packages/a/package.json"
	fw "bun relock, workspace" "$r" deps.bun mgr
else
	skip "bun: $(mgr_why bun)"
fi

# ---- pip: the venv's own pip ----
wh=$TEST_TMPDIR/wheels
if /usr/bin/python3 -m venv "$TEST_TMPDIR/venvtest" >/dev/null 2>&1 &&
   [ -x "$TEST_TMPDIR/venvtest/bin/pip" ]; then
	mkdir -p "$wh"
	py "$top/tests/mkwheel.py" "$wh" tinypy 1.0
	r=$TEST_TMPDIR/pip
	mkdir -p "$r"
	printf 'tinypy==1.0\n' >"$r/requirements.txt"
	/usr/bin/python3 -m venv "$r/.venv"
	fw "pip install into .venv" "$r" deps.pip.requirements.txt pip
else
	skip "pip: no python3 -m venv with pip here (python3-venv)"
fi

finish
