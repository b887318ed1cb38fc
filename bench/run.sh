#!/bin/sh
# bench/run.sh - speed and memory of envpreflight, measured, not asserted.
# Builds the binary and bench/runbench, then reports median wall time and
# peak RSS over repeated runs.  Usage: sh bench/run.sh [RUNS]   (default 200)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-200}
out=$top/bench/out
mkdir -p "$out"
make -C "$top" -s envpreflight
cc -O2 -o "$out/runbench" "$top/bench/runbench.c"
rb=$out/runbench
ep=$top/envpreflight
export LC_ALL=C.UTF-8 NO_COLOR=1

echo "== env probe on examples/webapp"
"$rb" "$runs" "env probe, example repo" "$ep" --only=env "$top/examples/webapp"
"$rb" "$runs" "env probe, example, --json" "$ep" --only=env --json "$top/examples/webapp"

echo "== 10,000 keys in .env.example and .env"
big=$out/bigenv
mkdir -p "$big"
awk 'BEGIN { for (i = 0; i < 10000; i++) printf "KEY_%05d=\n", i }' >"$big/.env.example"
awk 'BEGIN { for (i = 9999; i >= 0; i--) printf "KEY_%05d=value-%d\n", i, i }' >"$big/.env"
"$rb" "$runs" "env probe, 10k keys" "$ep" --only=env "$big"
"$rb" 20 "env probe, 10k keys, --json" "$ep" --only=env --json "$big"

echo "== for scale: process start-up"
"$rb" "$runs" "/bin/true" /bin/true
if command -v node >/dev/null 2>&1; then
	"$rb" 20 "node -e 0 (a Node CLI's floor)" node -e 0
fi
