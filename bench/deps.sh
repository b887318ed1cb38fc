#!/bin/sh
# bench/deps.sh - the deps probe on 2,000-package lockfiles: a generated
# package-lock.json with node_modules (a folder and package.json each) and
# npm's hidden lockfile, the same through the installed package.json files
# (hidden lockfile removed), a pnpm 9 lockfile with its current lockfile,
# and a uv.lock with a virtual environment.  Reports the check's own time
# (JSON duration_ms, median of RUNS) and the whole run (bench/runbench).
# Measured, not asserted.  Usage: sh bench/deps.sh [RUNS] (default 50)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-50}
out=$top/bench/out/deps
rm -rf "$out"
mkdir -p "$out"
make -C "$top" -s envpreflight
cc -O2 -o "$top/bench/out/runbench" "$top/bench/runbench.c"
rb=$top/bench/out/runbench
ep=$top/envpreflight
export LC_ALL=C.UTF-8 NO_COLOR=1
n=2000

python3 - "$out" "$n" <<'EOF'
import json, os, sys
out, n = sys.argv[1], int(sys.argv[2])
# npm: 2,000 packages, a quarter scoped, some nested
pk = {"": {"name": "app", "version": "1.0.0"}}
for i in range(n):
    name = "@s%d/p%d" % (i % 10, i) if i % 4 == 0 else "p%d" % i
    path = "node_modules/" + name
    if i % 10 == 9:
        path = "node_modules/p%d/node_modules/%s" % (i - 2, name)
    pk[path] = {"version": "1.%d.%d" % (i % 50, i % 7),
                "resolved": "https://registry.npmjs.org/%s/-/x-1.0.0.tgz" % name,
                "integrity": "sha512-" + "A" * 86 + "==", "license": "MIT",
                "dependencies": {"p%d" % ((i * 7) % n): "^1.0.0"}}
repo = os.path.join(out, "npm")
os.makedirs(repo)
lock = {"name": "app", "version": "1.0.0", "lockfileVersion": 3, "requires": True, "packages": pk}
json.dump(lock, open(os.path.join(repo, "package-lock.json"), "w"), indent=2)
for path, e in pk.items():
    if not path:
        continue
    d = os.path.join(repo, path)
    os.makedirs(d, exist_ok=True)
    json.dump({"name": path.split("node_modules/")[-1], "version": e["version"]},
              open(os.path.join(d, "package.json"), "w"))
hidden = dict(lock)
hidden["packages"] = {k: v for k, v in pk.items() if k}
json.dump(hidden, open(os.path.join(repo, "node_modules/.package-lock.json"), "w"), indent=2)
# pnpm 9
repo = os.path.join(out, "pnpm")
os.makedirs(os.path.join(repo, "node_modules/.pnpm"))
lines = ["lockfileVersion: '9.0'", "", "importers:", "", "  .:", "    dependencies:"]
for i in range(0, n, 50):
    lines += ["      p%d:" % i, "        specifier: ^1.0.0", "        version: 1.0.%d" % i]
lines += ["", "packages:", ""]
for i in range(n):
    lines += ["  p%d@1.0.%d:" % (i, i), "    resolution: {integrity: sha512-%s==}" % ("B" * 86), ""]
lines += ["snapshots:", ""]
for i in range(n):
    lines += ["  p%d@1.0.%d:" % (i, i), "    dependencies:", "      p%d: 1.0.%d" % ((i + 1) % n, (i + 1) % n), ""]
text = "\n".join(lines) + "\n"
open(os.path.join(repo, "pnpm-lock.yaml"), "w").write(text)
open(os.path.join(repo, "node_modules/.pnpm/lock.yaml"), "w").write(text)
open(os.path.join(repo, "node_modules/.modules.yaml"), "w").write("layoutVersion: 5\npackageManager: pnpm@9.1.0\nskipped: []\n")
# what pnpm makes beside its records, and the check stats: each package's
# folder in the virtual store, a link per direct dependency, and the
# package.json the importer is compared with
deps = {}
for i in range(n):
    os.makedirs(os.path.join(repo, "node_modules/.pnpm/p%d@1.0.%d/node_modules/p%d" % (i, i, i)))
for i in range(0, n, 50):
    os.symlink(".pnpm/p%d@1.0.%d/node_modules/p%d" % (i, i, i), os.path.join(repo, "node_modules/p%d" % i))
    deps["p%d" % i] = "^1.0.0"
json.dump({"name": "app", "version": "1.0.0", "dependencies": deps},
          open(os.path.join(repo, "package.json"), "w"))
# uv
repo = os.path.join(out, "uv")
sp = os.path.join(repo, ".venv/lib/python3.12/site-packages")
os.makedirs(sp)
open(os.path.join(repo, ".venv/pyvenv.cfg"), "w").write("implementation = CPython\nversion_info = 3.12.3\n")
lines = ["version = 1", "revision = 2", 'requires-python = ">=3.10"', ""]
lines += ["[[package]]", 'name = "app"', 'version = "0.1.0"', 'source = { editable = "." }', "dependencies = ["]
lines += ['    { name = "q%d" },' % i for i in range(n)]
lines += ["]", ""]
for i in range(n):
    lines += ["[[package]]", 'name = "q%d"' % i, 'version = "2.%d.0"' % (i % 30),
              'source = { registry = "https://pypi.org/simple" }',
              'sdist = { url = "https://files.pythonhosted.org/packages/q%d-2.0.tar.gz", hash = "sha256:%s", size = 1000 }' % (i, "c" * 64),
              "wheels = [",
              '    { url = "https://files.pythonhosted.org/packages/q%d-2.0-py3-none-any.whl", hash = "sha256:%s", size = 900 },' % (i, "d" * 64),
              "]", ""]
    d = os.path.join(sp, "q%d-2.%d.0.dist-info" % (i, i % 30))
    os.makedirs(d)
    open(os.path.join(d, "METADATA"), "w").write("Metadata-Version: 2.1\nName: q%d\nVersion: 2.%d.0\n\n" % (i, i % 30))
d = os.path.join(sp, "app-0.1.0.dist-info")
os.makedirs(d)
open(os.path.join(d, "METADATA"), "w").write("Metadata-Version: 2.1\nName: app\nVersion: 0.1.0\n")
open(os.path.join(repo, "uv.lock"), "w").write("\n".join(lines) + "\n")
EOF
# npm trusts its hidden lockfile only when it is the newest thing there
touch "$out/npm/node_modules/.package-lock.json"

# The deps check's own duration_ms (wall, on this machine's load) and the
# CPU time (user + sys) of the whole process, medians of RUNS runs: on a
# busy machine wall time mostly measures waiting for a core.
measure() {
	python3 - "$ep" "$1" "$runs" <<'PY'
import json, resource, subprocess, sys
ep, repo, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
wall, cpu = [], []
for _ in range(runs):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([ep, "--only=deps", "--json", repo], capture_output=True).stdout
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu.append((r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime) * 1000)
    d = json.loads(out)
    wall.append([c for c in d["checks"] if c["probe"] == "deps"][0]["duration_ms"])
wall.sort(); cpu.sort()
print("   the check: median %.1f ms wall (min %.1f); the whole process: median %.1f ms CPU (min %.1f)"
      % (wall[len(wall) // 2], wall[0], cpu[len(cpu) // 2], cpu[0]))
PY
}

for case in npm pnpm uv; do
	echo "== $case: $("$ep" --only=deps "$out/$case" | head -n 1)"
	measure "$out/$case"
	"$rb" "$runs" "$case: the whole run, 2,000 packages" "$ep" --only=deps "$out/$case"
done
echo "== npm without the hidden lockfile (every package.json read)"
rm "$out/npm/node_modules/.package-lock.json"
echo "   $("$ep" --only=deps "$out/npm" | head -n 1)"
measure "$out/npm"
echo "== for scale: process start-up"
"$rb" "$runs" "/bin/true" /bin/true
ls -la "$out/npm/package-lock.json" "$out/pnpm/pnpm-lock.yaml" "$out/uv/uv.lock" | awk '{ print "   " $5, $9 }'
