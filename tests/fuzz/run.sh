#!/bin/sh
# tests/fuzz/run.sh BUILD SECONDS [TARGET...] - run libFuzzer targets.
#
# Runs BUILD/fuzz/fuzz_TARGET (every target when none is named) for SECONDS
# each, FUZZ_JOBS (2) targets at a time, and prints one line per target, in
# the order of the list: executions, coverage (cov: edges, ft: features)
# and corpus size of the plain pass, the executions of the cost pass
# (below), the slowest unit in seconds, and ok or what it found.  Exit
# status 1 when any target crashed, timed out, ran out of memory or broke
# an invariant; its input is kept in BUILD/artifacts/TARGET/ (turn it into
# a file under tests/fuzz/regress/TARGET/, which `make check` and this
# script replay) and the logs are BUILD/logs/TARGET.log and
# TARGET.cost.log.
#
# Every parser declares its cost here: -max_len is the largest input the
# program would hand it (spec files are capped at 1 MiB; lockfiles, the git
# index and /proc tables, capped higher, are fuzzed at 1 MiB too), and
# -timeout is small (3 s), so that an input on which the parser is
# quadratic fails instead of hanging a user.  Since libFuzzer grows inputs
# slowly and gets no reward for size, a fifth of each target's time is a
# cost pass in which the targets take a short unit and repeat it to
# FUZZ_SCALE_MAX bytes (512 KiB; see fuzz_scale in fuzz.h): that is how a
# quadratic path shows up.  FUZZ_LEN_CONTROL=0 in the environment makes
# libFuzzer use the whole -max_len at once; FUZZ_TIMEOUT=N raises the
# timeout on a machine so loaded that a niced fuzzer waits seconds for a
# core (then run a timeout's input again alone: a unit that takes 0.2 s
# there was only starved).  Exceptions are in options() below, each with
# its reason.  Seeds: tests/fuzz/corpus/TARGET and
# tests/fuzz/regress/TARGET (read only); what libFuzzer finds goes to
# BUILD/corpus/TARGET (BUILD/corpus-cost/TARGET for the cost pass), kept
# between runs.  Dictionaries: tests/fuzz/dict/*.dict, joined per target.
#
# Two targets at a time: libFuzzer runs one process on one core, and CI
# has two (make fuzz-smoke's run of 44 targets took 35 s here, 75 s
# before its plain pass stopped at FUZZ_SMOKE_RUNS).  On a shared
# machine: nice -n 19 make fuzz, or FUZZ_JOBS=1.
set -u
build=$1
seconds=$2
shift 2
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2

# options TARGET: sets max_len, scale, timeout and dicts
options() {
	max_len=1048576		# SPEC_FILE_CAP
	scale=524288
	timeout=3
	dicts=
	case $1 in
	ytree|pnpmlock|pnpmcfg|yarnlock|yarngraph) dicts=yaml ;;
	preflight) dicts="yaml preflight" ;;
	compose|composeproject) dicts="yaml compose" ;;
	package|npmlock|bunlock) dicts=json ;;
	mcp) dicts="json mcp" ;;
	# linear, but reading 512 KiB of range, formatting it and reading
	# the text back takes about 3 s instrumented on this machine
	semver) scale=262144; dicts=semver ;;
	pep440) dicts=pep440 ;;
	poetrycon) dicts=pep440 ;;
	pyproject|toml|uvlock|poetrylock) dicts=toml ;;
	# the targets skip larger inputs: init quotes one name or range a
	# line, and a marker is one line of a lockfile (pipreq, uvlock and
	# poetrylock evaluate markers inside whole files at full size)
	initquote) max_len=65536 ;;
	pymarker) max_len=65536; dicts=pep440 ;;
	esac
	timeout=${FUZZ_TIMEOUT:-$timeout}
}

if [ $# -eq 0 ]; then
	# shellcheck disable=SC2046 # one word a target, wanted
	set -- $(sed -n 's/^FUZZ_TARGET(\(.*\))$/\1/p' tests/fuzz/targets.def)
fi

# the scratch repositories of fuzz.h: outside any git work tree
scratch=$(mktemp -d "${TMPDIR:-/tmp}/envpreflight-fuzz-run.XXXXXX") || exit 2
trap 'rm -rf "$scratch"' EXIT INT TERM

# pass TARGET LIMIT SCALE CORPUS LOG: one libFuzzer run (LIMIT: its
# -max_total_time= and -runs= options, words); sets st, execs,
# cov, ft, corp, slow and result
pass() {
	# shellcheck disable=SC2086
	TMPDIR=$scratch FUZZ_SCALE_MAX=$3 ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	"$bin" $2 -max_len="$max_len" \
		${FUZZ_LEN_CONTROL:+-len_control=$FUZZ_LEN_CONTROL} \
		-timeout="$timeout" -rss_limit_mb=2048 -malloc_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$build/artifacts/$1/" \
		$dict "$4" "tests/fuzz/corpus/$1" $regress >"$5" 2>&1
	st=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$5" | tail -n 1)
	slow=$(sed -n 's/^stat::slowest_unit_time_sec: *//p' "$5" | tail -n 1)
	last=$(grep -E '^#[0-9]+' "$5" | tail -n 1)
	cov=$(printf '%s\n' "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
	ft=$(printf '%s\n' "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
	corp=$(printf '%s\n' "$last" | sed -n 's/.* corp: \([0-9]*\).*/\1/p')
	if [ "$st" = 0 ]; then
		result=ok
	else
		what=$(grep -m1 -oE 'ERROR: [A-Za-z]+: [a-z-]+|ERROR: libFuzzer: [a-z-]+|invariant broken: .*' "$5")
		art=$(sed -n 's/.*Test unit written to \(.*\)/\1/p' "$5" | tail -n 1)
		result="FAILED (${what:-exit $st}) ${art:-see $5}"
	fi
}

# A fifth of the time (at least 1 s) is the cost pass: scaled inputs on,
# from the seeds and regressions, into a corpus of its own.  The rest
# fuzzes plainly; its numbers are the table's.  libFuzzer stops once more
# than -max_total_time whole seconds have passed, so each pass runs about
# a second longer than asked.  A smoke (under 5 s) makes its cost pass a
# replay: every seed and regression once, scaled, no mutation (-runs=0,
# the corpus only, as envoy's fuzz_coverage_wrapper.sh runs one), instead
# of a second of fuzzing that libFuzzer's whole-second clock made two.
cost_seconds=$((seconds / 5))
[ "$cost_seconds" -ge 1 ] || cost_seconds=1
plain_seconds=$((seconds - cost_seconds))
[ "$plain_seconds" -ge 1 ] || plain_seconds=1
cost_limit=-max_total_time=$cost_seconds
plain_limit=-max_total_time=$plain_seconds
if [ "$seconds" -lt 5 ]; then
	cost_limit=-runs=0
	# and its plain pass stops at FUZZ_SMOKE_RUNS mutations as well
	# (whichever comes first): most targets run them in a fraction of
	# the second that libFuzzer's clock makes two
	plain_limit="$plain_limit -runs=${FUZZ_SMOKE_RUNS:-2000}"
fi

# target TARGET: both passes of one target; writes its table line to
# BUILD/logs/TARGET.line
target() {
	t=$1
	bin=$build/fuzz/fuzz_$t
	if [ ! -x "$bin" ]; then
		echo "$t: no $bin (make fuzz-build)" >"$build/logs/$t.line"
		return
	fi
	options "$t"
	regress=
	[ -d "tests/fuzz/regress/$t" ] && regress=tests/fuzz/regress/$t
	mkdir -p "$build/corpus/$t" "$build/corpus-cost/$t" "$build/artifacts/$t" \
		"$build/logs"
	dict=
	if [ -n "$dicts" ]; then
		dict=$build/$t.dict
		for d in $dicts; do cat "tests/fuzz/dict/$d.dict"; done >"$dict"
		dict=-dict=$dict
	fi
	pass "$t" "$cost_limit" "$scale" "$build/corpus-cost/$t" \
		"$build/logs/$t.cost.log"
	cost="${execs:-?}x"
	cost_result=$result
	cost_slow=${slow:-0}
	pass "$t" "$plain_limit" 0 "$build/corpus/$t" "$build/logs/$t.log"
	[ "$cost_result" = ok ] || result="cost pass: $cost_result; plain: $result"
	# the slowest unit of either pass: how far from -timeout the parser is
	slow=$(printf '%s\n%s\n' "$cost_slow" "${slow:-0}" | sort -n | tail -n 1)
	printf '%-15s %10s %6s %6s %6s %9s %5s  %s\n' "$t" "${execs:-?}" "${cov:-?}" \
		"${ft:-?}" "${corp:-?}" "$cost" "$slow" "$result" >"$build/logs/$t.line"
}

# FUZZ_JOBS lanes, the targets dealt out in turn; each lane runs its
# targets one after the other
mkdir -p "$build/logs"
for t in "$@"; do rm -f "$build/logs/$t.line"; done
jobs=${FUZZ_JOBS:-2}
lane=0
while [ "$lane" -lt "$jobs" ]; do
	i=0
	list=
	for t in "$@"; do
		[ $((i % jobs)) = "$lane" ] && list="$list $t"
		i=$((i + 1))
	done
	if [ -n "$list" ]; then
		(for t in $list; do target "$t"; done) &
	fi
	lane=$((lane + 1))
done
wait

failed=0
printf '%-15s %10s %6s %6s %6s %9s %5s  %s\n' target execs cov ft corpus cost slow_s result
for t in "$@"; do
	if [ -f "$build/logs/$t.line" ]; then
		cat "$build/logs/$t.line"
		grep -q '  ok$' "$build/logs/$t.line" || failed=1
	else
		echo "$t: no result"
		failed=1
	fi
done
exit $failed
