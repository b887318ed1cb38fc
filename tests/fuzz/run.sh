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
# Every parser declares its cost here: -max_len is the largest input the
# program would hand it (spec files are capped at 1 MiB), and -timeout is
# small (3 s), so that an input on which the parser is quadratic fails
# instead of hanging a user.  Since libFuzzer grows inputs slowly and gets
# no reward for size, the targets also take a short unit and repeat it to
# FUZZ_SCALE_MAX bytes (512 KiB; see fuzz_scale in fuzz.h): that is how a
# quadratic path shows up.  FUZZ_LEN_CONTROL=0 in the environment makes
# libFuzzer use the whole -max_len at once.  Exceptions are in options()
# below, each with its reason.  Seeds: tests/fuzz/corpus/TARGET
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
	max_len=1048576		# SPEC_FILE_CAP
	scale=524288
	timeout=3
	dicts=
	case $1 in
	toolversions)
		# quadratic in the number of tools (issue 8, being fixed
		# apart): until then sizes at which it stays in time (a
		# 512 KiB file of distinct tools takes over 3 s)
		max_len=65536; scale=32768 ;;
	# YAML aliases are quadratic in the number of anchors (issue 8,
	# being fixed apart): the same until then (512 KiB of anchors and
	# aliases to the first one take over 3 s)
	ytree) max_len=65536; scale=65536; dicts=yaml ;;
	preflight) max_len=65536; scale=65536; dicts="yaml preflight" ;;
	compose) max_len=65536; scale=65536; dicts="yaml compose" ;;
	package) dicts=json ;;
	# linear, but reading 512 KiB of range, formatting it and reading
	# the text back takes about 3 s instrumented on this machine
	semver) scale=262144; dicts=semver ;;
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
	TMPDIR=$scratch FUZZ_SCALE_MAX=$scale ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	"$bin" -max_total_time="$seconds" -max_len="$max_len" \
		${FUZZ_LEN_CONTROL:+-len_control=$FUZZ_LEN_CONTROL} \
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
