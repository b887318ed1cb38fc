#!/bin/sh
# workspaces.sh - monorepo workspaces end to end: a version-manager shim
# asked once for the repository and once more only for the workspace
# whose .nvmrc could change its answer, from that workspace's directory;
# a real listener whose command line holds a workspace's .env value (it is
# hidden, as the repository's values are); env.gitignore per workspace in
# a real git work tree; --workspace and --no-workspaces; and, in JSON,
# a "workspace" on every check that agrees with its id.
. "$(dirname "$0")/../lib.sh"
dir=$TEST_TMPDIR/ws-it
repo=$dir/repo
bin=$dir/bin
mkdir -p "$repo/apps/web" "$repo/apps/legacy" "$repo/apps/api" "$bin"
pids=
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	pids=
}
trap cleanup EXIT
trap 'cleanup; exit 1' INT TERM

# ---- a shim that answers per directory -------------------------------------
# As nvm-less version managers' shims do (asdf, mise, nodenv): the version
# comes from the .nvmrc of the directory it runs in.  Every run is logged.
cat >"$bin/node" <<EOF
#!/bin/sh
pwd -P >>"$dir/node.log"
v=22
[ -f .nvmrc ] && v=\$(cat .nvmrc)
case \$v in
18) echo v18.20.4 ;;
*) echo v22.11.0 ;;
esac
EOF
chmod +x "$bin/node"
printf '{"name":"mono","private":true,"workspaces":["apps/*"],"engines":{"node":">=18"}}\n' \
	>"$repo/package.json"
printf '22\n' >"$repo/.nvmrc"
printf '{"name":"web","engines":{"node":">=20"}}\n' >"$repo/apps/web/package.json"
printf '{"name":"legacy","engines":{"node":"^18"}}\n' >"$repo/apps/legacy/package.json"
printf '18\n' >"$repo/apps/legacy/.nvmrc"
printf '{"name":"api"}\n' >"$repo/apps/api/package.json"

rm -f "$dir/node.log"
EP_ENV="PATH=$bin:/usr/bin:/bin" ep --json --only=runtimes "$repo" >"$dir/rt.json" 2>"$dir/err"
st=$?
check "shim: exit 1, for the contradiction below (got $st)" [ "$st" = 1 ]
check "shim: stderr empty" [ ! -s "$dir/err" ]
check "shim: run twice, not once per check ($(wc -l <"$dir/node.log" 2>/dev/null))" \
	[ "$(wc -l <"$dir/node.log")" = 2 ]
check "shim: once in the repository" grep -qx "$(cd "$repo" && pwd -P)" "$dir/node.log"
check "shim: once in apps/legacy, whose .nvmrc selects node" \
	grep -qx "$(cd "$repo/apps/legacy" && pwd -P)" "$dir/node.log"
check "shim: never in apps/web (no version file there)" \
	sh -c "! grep -q 'apps/web' '$dir/node.log'"
py - "$dir/rt.json" >"$dir/rt.txt" 2>&1 <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for c in d["checks"]:
    print(c["id"], c["status"], (c.get("data") or {}).get("found"))
EOF
check "shim: apps/legacy's .nvmrc checked against v18" \
	grep -q '^apps/legacy:runtime.node.nvmrc pass 18.20.4' "$dir/rt.txt"
check "shim: apps/legacy's engines against v18" \
	grep -q '^apps/legacy:runtime.node.engines pass 18.20.4' "$dir/rt.txt"
check "shim: apps/web shares the repository's v22" \
	grep -q '^apps/web:runtime.node.engines pass 22.11.0' "$dir/rt.txt"
check "shim: ^18 and >=20 exclude each other" \
	grep -q '^runtime.node.workspaces fail' "$dir/rt.txt"

# ---- every check's workspace agrees with its id ------------------------------
check "json: workspace on every check, agreeing with the id" py - "$dir/rt.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
ok = True
for c in d["checks"]:
    ws = c["workspace"]
    if ws is None:
        ok &= ":" not in c["id"]
    else:
        ok &= c["id"].startswith(ws + ":")
found = [f["dir"] for f in d["run"]["workspaces"]["found"]]
ok &= found == ["apps/api", "apps/legacy", "apps/web"]
sys.exit(0 if ok else 1)
EOF

# ---- a workspace's .env value in a holder's command line ----------------------
M=ZQXWSMARK5521
cat >"$dir/listen.py" <<'EOF'
import os, socket, sys, time
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(4)
open(sys.argv[1] + ".tmp", "w").write("%d\n" % s.getsockname()[1])
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
time.sleep(600)
EOF
# it exits by itself after 600 s should the trap not run; SIGTERM at its
# default, so that the trap's kill ends it whatever this script inherited
# short relative arguments, so that the value is inside the command line
# as shown (it is cut at 100 characters)
(cd "$dir" && exec "${SIGDFL:-env}" python3 listen.py port "$M") &
pids="$pids $!"
n=0
while [ ! -f "$dir/port" ] && [ $n -lt 250 ]; do sleep 0.02; n=$((n + 1)); done
port=$(cat "$dir/port")
printf 'DATABASE_URL=\nAPI_KEY=\n' >"$repo/apps/api/.env.example"
printf 'DATABASE_URL=postgres://app@127.0.0.1:%s/db\nAPI_KEY=%s\n' "$port" "$M" \
	>"$repo/apps/api/.env"
for fmt in human json junit github; do
	EP_ENV="PATH=$bin:/usr/bin:/bin" ep --format=$fmt --explain "$repo" \
		>"$dir/out.$fmt" 2>"$dir/err.$fmt"
	check "secret: $fmt shows no workspace .env value" \
		sh -c "! grep -q '$M' '$dir/out.$fmt' '$dir/err.$fmt'"
done
check "secret: the holder's command line is there, hidden" \
	grep -q '"cmdline": ".*\*\*\*' "$dir/out.json"
check "secret: the port is listening for apps/api's URL" \
	grep -q "Port $port: listening for DATABASE_URL of apps/api" "$dir/out.human"

# ---- a workspace's stack is not the one a developer starts -------------------
# (karakeep: the web app listens on 3000, which packages/benchmarks'
# compose file publishes too): the listener holds the port it publishes
st_repo=$dir/stack-repo
mkdir -p "$st_repo/apps/web" "$st_repo/packages/bench"
printf '{"name":"s","private":true,"workspaces":["apps/*","packages/*"]}\n' >"$st_repo/package.json"
printf '{"name":"web"}\n' >"$st_repo/apps/web/package.json"
printf '{"name":"bench"}\n' >"$st_repo/packages/bench/package.json"
printf 'services:\n  web:\n    image: x\n    ports: ["%s:3000"]\n' "$port" \
	>"$st_repo/packages/bench/compose.yaml"
ep --only=ports "$st_repo" >"$dir/st.human"
st=$?
check "workspace stack: its port held is a warning, exit 0 (got $st)" [ "$st" = 0 ]
check "workspace stack: if you start its stack" grep -q \
	"Port $port: if you start packages/bench's stack: in use (PID [0-9]*: python3, .*) — its compose service web publishes it" \
	"$dir/st.human"
ep --only=ports --strict "$st_repo" >/dev/null
check "workspace stack: --strict makes it a failure" [ $? = 1 ]
ep --only=ports --json "$st_repo" >"$dir/st.json"
check "workspace stack: JSON warn, held, rule stack, wanted by packages/bench" py - "$dir/st.json" "$port" <<'EOF2'
import json, sys
c = [c for c in json.load(open(sys.argv[1]))["checks"] if c["id"] == "ports.tcp." + sys.argv[2]][0]
w = c["data"]["wanted_by"]
sys.exit(0 if c["status"] == "warn" and c["reason"] == "held" and c["data"]["expect"] == "stack"
	and [x["workspace"] for x in w] == ["packages/bench"] else 1)
EOF2
# the app's own port key beside it: the app's rule (another program on it
# is a warning of its own kind)
printf 'PORT=%s\n' "$port" >"$st_repo/apps/web/.env.example"
cp "$st_repo/apps/web/.env.example" "$st_repo/apps/web/.env"
ep --only=ports "$st_repo" >"$dir/st2.human"
check "workspace stack and PORT: the app's rule" \
	grep -q "Port $port: in use (.*); PORT of apps/web is this repository's own app" "$dir/st2.human"
# the repository's own stack publishes it as well: that one decides
printf 'services:\n  db:\n    image: x\n    ports: ["%s:5432"]\n' "$port" >"$st_repo/compose.yaml"
ep --only=ports "$st_repo" >"$dir/st3.human"
check "the root's stack comes first: a collision" \
	grep -q "Port $port: COLLISION (.*) — compose service db publishes it" "$dir/st3.human"
cleanup

# ---- env.gitignore per workspace, in a real work tree ----------------------------
if command -v git >/dev/null 2>&1; then
	(cd "$repo" && git init -q . && printf '/.env\nnode_modules/\n' >.gitignore)
	EP_ENV="PATH=$bin:/usr/bin:/bin" ep --json --only=env "$repo" >"$dir/git.json"
	check "git: apps/api/.env is not ignored by the root-only rule" py - "$dir/git.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
c = [c for c in d["checks"] if c["id"] == "apps/api:env.gitignore"][0]
sys.exit(0 if c["status"] == "warn" and "/apps/api/.env" in c["hint"] else 1)
EOF
	printf '.env\n' >"$repo/.gitignore"
	EP_ENV="PATH=$bin:/usr/bin:/bin" ep --json --only=env "$repo" >"$dir/git2.json"
	check "git: an unanchored .env rule ignores it" py - "$dir/git2.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
c = [c for c in d["checks"] if c["id"] == "apps/api:env.gitignore"][0]
sys.exit(0 if c["status"] == "pass" else 1)
EOF
else
	skip "env.gitignore per workspace: git is not installed"
fi

# ---- --workspace and --no-workspaces --------------------------------------------
EP_ENV="PATH=$bin:/usr/bin:/bin" ep --json --no-workspaces "$repo" >"$dir/none.json"
check "--no-workspaces: no workspace check" py - "$dir/none.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
ok = all(c["workspace"] is None for c in d["checks"])
ok &= d["run"]["workspaces"]["enabled"] is False
ok &= not any(c["id"].startswith("workspaces.") for c in d["checks"])
sys.exit(0 if ok else 1)
EOF
EP_ENV="PATH=$bin:/usr/bin:/bin" ep --json --workspace=apps/legacy "$repo" >"$dir/one.json"
check "--workspace: the repository and that one" py - "$dir/one.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
ws = {c["workspace"] for c in d["checks"]}
ok = ws == {None, "apps/legacy"} and d["run"]["workspaces"]["only"] == "apps/legacy"
sys.exit(0 if ok else 1)
EOF
ep --json --workspace=apps/nope "$repo" >"$dir/bad.json" 2>"$dir/bad.err"
st=$?
check "--workspace=unknown: exit 2 (got $st)" [ "$st" = 2 ]
check "--workspace=unknown: a usage error listing the workspaces" \
	grep -q "'apps/nope' is not a workspace of this repository (workspaces: apps/api, apps/legacy, apps/web)" \
	"$dir/bad.err"
check "--workspace=unknown: JSON says usage" grep -q '"kind": "usage"' "$dir/bad.json"
ep --workspace=apps/api --no-workspaces "$repo" >/dev/null 2>"$dir/both.err"
st=$?
check "--workspace with --no-workspaces: exit 2 (got $st)" [ "$st" = 2 ]
check "--workspace with --no-workspaces: says why" grep -q "exclude each other" "$dir/both.err"
finish
