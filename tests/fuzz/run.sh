#!/bin/sh
# tests/fuzz/run.sh BUILD SECONDS [TARGET...] - run libFuzzer targets.
#
# Runs BUILD/fuzz/fuzz_TARGET (every target when none is named) for SECONDS
# each, one after the other, and prints one line per target: executions,
# coverage (cov: edges, ft: features), corpus size, and ok or what it
# found.  Exit status 1 when any target crashed, timed out, ran out of
# memory or broke an invariant; its input is kept in
# BUILD/artifacts/TARGET/ (turn it into a file under
# tests/fuzz/regress/TARGET/, which `make check` replays).
#
# -max_len is large enough (64 KiB by default; whole files are capped at
# 1 MiB) and -timeout small enough that a parser with a quadratic path
# fails here instead of hanging a user.  Per-target exceptions are in
# options() below, each with its reason.  Seeds: tests/fuzz/corpus/TARGET
# (read only); what libFuzzer finds goes to BUILD/corpus/TARGET, kept
# between runs.  Dictionaries: tests/fuzz/dict/*.dict, joined per target.
set -u
build=$1
seconds=$2
shift 2
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2

# options TARGET: sets max_len, timeout and dicts
options() {
	max_len=65536
	timeout=3
	dicts=
	case $1 in
	dotenv) max_len=262144 ;;	# linear by design (dotenv.c): prove it
	gitindex) max_len=131072 ;;
	toolversions)
		# quadratic on many tools (issue 8, being fixed apart): until
		# then a length at which the quadratic path stays in time
		max_len=8192 ;;
	ytree) max_len=16384; dicts=yaml ;;	# quadratic aliases (issue 8), as above
	preflight) max_len=16384; dicts="yaml preflight" ;;
	compose) max_len=16384; dicts="yaml compose" ;;
	package) dicts=json ;;
	semver) dicts=semver ;;
	pep440) dicts=pep440 ;;
	pyproject) dicts=toml ;;
	esac
}

if [ $# -eq 0 ]; then
	set -- $(sed -n 's/^FUZZ_TARGET(\(.*\))$/\1/p' tests/fuzz/targets.def)
fi

# the scratch repositories of fuzz.h: outside any git work tree
scratch=$(mktemp -d "${TMPDIR:-/tmp}/envpreflight-fuzz-run.XXXXXX") || exit 2
trap 'rm -rf "$scratch"' EXIT INT TERM

failed=0
printf '%-13s %12s %7s %7s %6s  %s\n' target execs cov ft corpus result
for t in "$@"; do
	bin=$build/fuzz/fuzz_$t
	if [ ! -x "$bin" ]; then
		echo "$t: no $bin (make fuzz-build)"
		failed=1
		continue
	fi
	options "$t"
	mkdir -p "$build/corpus/$t" "$build/artifacts/$t" "$build/logs"
	dict=
	if [ -n "$dicts" ]; then
		dict=$build/$t.dict
		for d in $dicts; do cat "tests/fuzz/dict/$d.dict"; done >"$dict"
		dict=-dict=$dict
	fi
	log=$build/logs/$t.log
	# shellcheck disable=SC2086
	TMPDIR=$scratch ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	"$bin" -max_total_time="$seconds" -max_len="$max_len" \
		-timeout="$timeout" -rss_limit_mb=2048 -malloc_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$build/artifacts/$t/" \
		$dict "$build/corpus/$t" "tests/fuzz/corpus/$t" >"$log" 2>&1
	st=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
	cov=$(printf '%s\n' "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
	ft=$(printf '%s\n' "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
	corp=$(printf '%s\n' "$last" | sed -n 's/.* corp: \([0-9]*\).*/\1/p')
	if [ "$st" = 0 ]; then
		result=ok
	else
		failed=1
		what=$(grep -m1 -oE 'ERROR: [A-Za-z]+: [a-z-]+|ERROR: libFuzzer: [a-z-]+|invariant broken: .*' "$log")
		art=$(sed -n 's/.*Test unit written to \(.*\)/\1/p' "$log" | tail -n 1)
		result="FAILED (${what:-exit $st}) ${art:-see $log}"
	fi
	printf '%-13s %12s %7s %7s %6s  %s\n' "$t" "${execs:-?}" "${cov:-?}" \
		"${ft:-?}" "${corp:-?}" "$result"
done
exit $failed
