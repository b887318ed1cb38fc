#!/bin/sh
# bench/workspaces.sh - a generated monorepo of 50 workspaces, audited with
# a warm version cache: wall time (median and p90 of RUNS runs, default
# 200) and, when valgrind is there, callgrind's instruction count of one
# run, which a busy machine does not blur.  Measured, not asserted (the
# target is 30 ms).  Usage: sh bench/workspaces.sh [RUNS] [WORKSPACES]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-200}
nws=${2:-50}
out=$top/bench/out
mkdir -p "$out"
make -C "$top" -s envpreflight
cc -O2 -o "$out/runbench" "$top/bench/runbench.c"
rb=$out/runbench
ep=$top/envpreflight
export LC_ALL=C.UTF-8 NO_COLOR=1

# The repository: pnpm, shaped like a turborepo (apps/* and packages/*):
# a fifth of the workspaces are apps with a 12-key .env.example, a filled
# .env (a service URL and the app's own port), engines and an .nvmrc; the
# rest are packages with engines only; the root has packageManager,
# engines, an .nvmrc and a compose file.
mono=$out/mono$nws
rm -rf "$mono"
mkdir -p "$mono"
cat >"$mono/package.json" <<'EOF'
{
  "name": "bench-mono",
  "private": true,
  "engines": { "node": ">=18", "npm": ">=8" },
  "scripts": { "dev": "turbo run dev" }
}
EOF
printf 'packages:\n  - "apps/*"\n  - "packages/*"\n' >"$mono/pnpm-workspace.yaml"
node_major=$(node --version 2>/dev/null | sed 's/^v\([0-9]*\).*/\1/')
printf '%s\n' "${node_major:-22}" >"$mono/.nvmrc"
printf 'services:\n  db:\n    image: postgres:16\n    ports: ["55432:5432"]\n' \
	>"$mono/compose.yaml"
napps=$((nws / 5))
i=0
while [ $i -lt "$nws" ]; do
	if [ $i -lt "$napps" ]; then
		d=$mono/apps/app$i
		mkdir -p "$d"
		printf '{ "name": "@bench/app%d", "private": true, "engines": { "node": ">=18.17" } }\n' \
			"$i" >"$d/package.json"
		printf '%s\n' "${node_major:-22}" >"$d/.nvmrc"
		{
			printf 'DATABASE_URL=postgres://app@localhost:55432/app%d\n' "$i"
			printf 'PORT=%d\n' $((43000 + i))
			k=0
			while [ $k -lt 10 ]; do printf 'KEY_%d=\n' $k; k=$((k + 1)); done
		} >"$d/.env.example"
		sed 's/=$/=value/' "$d/.env.example" >"$d/.env"
	else
		d=$mono/packages/pkg$i
		mkdir -p "$d"
		printf '{ "name": "@bench/pkg%d", "engines": { "node": ">=18" } }\n' "$i" \
			>"$d/package.json"
	fi
	i=$((i + 1))
done

cache=$out/cache-ws
rm -rf "$cache"
mkdir -p "$cache"
export XDG_CACHE_HOME="$cache"
"$ep" "$mono" >/dev/null 2>&1 || true	# fills the version cache
"$ep" --json "$mono" >"$out/mono.json" 2>/dev/null || true
checks=$(grep -c '"id": ' "$out/mono.json" || true)
echo "== $nws workspaces ($napps apps, $((nws - napps)) packages), warm version cache, $checks checks"
"$rb" "$runs" "workspaces: whole audit" "$ep" "$mono"
"$rb" "$runs" "workspaces: whole audit, --json" "$ep" --json "$mono"
"$rb" "$runs" "workspaces: the root only (--no-workspaces)" "$ep" --no-workspaces "$mono"
"$rb" "$runs" "workspaces: --only=runtimes" "$ep" --only=runtimes "$mono"
if command -v valgrind >/dev/null 2>&1; then
	for args in "" "--no-workspaces"; do
		# shellcheck disable=SC2086
		valgrind --tool=callgrind --callgrind-out-file="$out/cg.ws.out" \
			"$ep" $args "$mono" >/dev/null 2>"$out/cg.ws.err" || true
		ir=$(sed -n 's/^summary: //p' "$out/cg.ws.out" | head -n 1)
		printf 'callgrind, %s: %s instructions\n' "${args:-whole audit}" "$ir"
	done
	rm -f "$out/cg.ws.out"
fi
