#!/bin/sh
# bench/deps_npm20k.sh - the npm check on a 20,000-package project beside
# `npm ls --all` on the same tree (issue 18's target: the check at most
# 0.1x npm ls).  The tree is generated: package-lock.json (lockfileVersion
# 3, every entry with resolved and integrity, a tenth of the packages
# with a nested copy of another at 2.0.0), package.json naming the root's
# dependencies, node_modules with a folder and a package.json per package
# and npm's hidden lockfile, newest of all, so that both npm and the
# check trust it; and the same tree with the hidden lockfile removed
# (every package.json read, by both).  Consistent: `npm ls --all` exits 0
# on it.  The two commands are timed in alternation (bench/pairbench.c),
# both under the caller's nice; npm runs with a config and cache of this
# directory's own.  Measured, not asserted.
#
#   sh bench/deps_npm20k.sh [ROUNDS] [BASELINE_BINARY]
#
# BASELINE_BINARY (an envpreflight built from an older commit): timed
# against the current one on both trees as well ("no state slower"), in
# 5 x ROUNDS rounds (it is fast).  KEEP=1 reuses a tree generated before.
# envpreflight runs with a deadline of ten minutes: on a busy machine the
# default 3 s deadline ends the check before it has read the tree.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-10}
base=${2:-}
out=$top/bench/out/deps_npm20k
[ -n "${KEEP:-}" ] && [ -f "$out/npm/package-lock.json" ] || rm -rf "$out"
mkdir -p "$out/home"
make -C "$top" -s envpreflight
cc -O2 -o "$top/bench/out/pairbench" "$top/bench/pairbench.c"
pb=$top/bench/out/pairbench
ep=$top/envpreflight
to=--timeout=600000
export LC_ALL=C.UTF-8 NO_COLOR=1

[ -f "$out/npm/package-lock.json" ] || python3 - "$out/npm" <<'PY'
import json, os, sys
repo = sys.argv[1]
top_n = 18182                       # + a nested tenth: 20,000 entries
names = ["@s%d/p%d" % (i % 10, i) if i % 4 == 0 else "p%d" % i for i in range(top_n)]
pk = {"": {"name": "app", "version": "1.0.0", "dependencies": {}}}
def entry(name, version, deps):
    e = {"version": version,
         "resolved": "https://registry.npmjs.org/%s/-/x-%s.tgz" % (name, version),
         "integrity": "sha512-" + "A" * 86 + "==", "license": "MIT"}
    if deps:
        e["dependencies"] = deps
    return e
for i, name in enumerate(names):
    # a binary tree of dependencies: every package reached from the root
    deps = {names[c]: "^1.0.0" for c in (2 * i + 1, 2 * i + 2) if c < top_n}
    if i % 10 == 5:
        nested = names[(i + 1) % top_n]
        deps[nested] = "2.0.0"
        pk["node_modules/%s/node_modules/%s" % (name, nested)] = entry(nested, "2.0.0", None)
    pk["node_modules/" + name] = entry(name, "1.%d.%d" % (i % 50, i % 7), deps)
for name in names[:1]:
    pk[""]["dependencies"][name] = "^1.0.0"
lock = {"name": "app", "version": "1.0.0", "lockfileVersion": 3, "requires": True,
        "packages": dict(sorted(pk.items()))}
os.makedirs(repo)
json.dump(lock, open(os.path.join(repo, "package-lock.json"), "w"), indent=2)
json.dump({"name": "app", "version": "1.0.0", "dependencies": pk[""]["dependencies"]},
          open(os.path.join(repo, "package.json"), "w"), indent=2)
for path, e in pk.items():
    if not path:
        continue
    d = os.path.join(repo, path)
    os.makedirs(d, exist_ok=True)
    pj = {"name": path.split("node_modules/")[-1], "version": e["version"]}
    if "dependencies" in e:
        pj["dependencies"] = e["dependencies"]
    json.dump(pj, open(os.path.join(d, "package.json"), "w"))
print("   %d packages in package-lock.json" % (len(pk) - 1))
PY
# npm's hidden lockfile: the lockfile without its root entry
python3 - "$out/npm" <<'PY'
import json, os, sys
lock = json.load(open(os.path.join(sys.argv[1], "package-lock.json")))
lock["packages"] = {k: v for k, v in lock["packages"].items() if k}
json.dump(lock, open(os.path.join(sys.argv[1], "node_modules/.package-lock.json"), "w"), indent=2)
PY
# npm trusts its hidden lockfile only when it is the newest thing there
touch "$out/npm/node_modules/.package-lock.json"
npm_ls() {
	env HOME="$out/home" npm_config_cache="$out/home/cache" npm_config_update_notifier=false \
		npm ls --all --prefix "$1"
}

for tree in hidden folders; do
	if [ "$tree" = folders ]; then
		rm "$out/npm/node_modules/.package-lock.json"
		echo "== every package.json read (no hidden lockfile)"
	else
		echo "== the hidden lockfile trusted"
	fi
	echo "   envpreflight: $("$ep" $to --only=deps "$out/npm" | head -n 1)"
	npm_ls "$out/npm" >/dev/null 2>"$out/npm-ls.err" && echo "   npm ls --all: exit 0" ||
		echo "   npm ls --all: exit $? ($(head -c 300 "$out/npm-ls.err"))"
	"$pb" "$rounds" "envpreflight --only=deps" "npm ls --all" \
		"$ep" $to --only=deps "$out/npm" -- \
		env HOME="$out/home" npm_config_cache="$out/home/cache" \
		npm_config_update_notifier=false npm ls --all --prefix "$out/npm"
	if [ -n "$base" ]; then
		"$pb" $((rounds * 5)) "envpreflight now" "envpreflight before" \
			"$ep" $to --only=deps "$out/npm" -- "$base" $to --only=deps "$out/npm"
	fi
done
ls -la "$out/npm/package-lock.json" | awk '{ print "   package-lock.json: " $5 " bytes" }'
