#!/bin/sh
# tests/run.sh BINARY BUILD_DIR - every test, one closing line.
#
# 1. unit programs BUILD_DIR/tests/test_*   (each ends "name: N passed, M failed")
# 2. golden cases   tests/cases/*/          (see tests/cases/README)
# 3. scripts        tests/integration/*.sh  (each ends "name: N passed, M failed"
#                                            and ", K skipped" when a case could not
#                                            be staged here; each said why on a line
#                                            "skip: name: REASON")
#
# Two runs at once (two checkouts on one machine) do not meet: each has a
# scratch directory of its own, and what a test looks for in /proc or on a
# port is its run's own (tests/lib.sh).
set -u
bin=$1
build=$2
top=$(cd "$(dirname "$0")/.." && pwd)
case $bin in /*) ;; *) bin=$top/$bin ;; esac
case $build in /*) ;; *) build=$top/$build ;; esac
export EP_BIN="$bin"
export EP_BUILD="$build"	# the objects, for integration/layers.sh
# the conformance vectors: our own copy in tests/conformance/, so that the
# suite is hermetic (integration/vectors.sh checks that the copy still
# matches shared/ when a checkout has it beside it)
export TEST_SHARED="${TEST_SHARED:-$top/tests}"
# the scratch directory: this run's own (the cases run as another user
# have theirs: nobody_setup in tests/lib.sh)
TEST_TMPDIR=$(mktemp -d "${TMPDIR:-/tmp}/envpreflight-tests.XXXXXX") || exit 2
export TEST_TMPDIR
export EP_JSON_DIR="$TEST_TMPDIR/json-reports"
mkdir -p "$EP_JSON_DIR"
pids=
trap 'rm -rf "$TEST_TMPDIR"' EXIT
trap 'kill $pids 2>/dev/null; exit 130' INT
trap 'kill $pids 2>/dev/null; exit 143' TERM

passed=0
failed=0
skipped=0
log=$TEST_TMPDIR/log
skips=$TEST_TMPDIR/skips
: >"$skips"

# add the counts of a program's closing "N passed, M failed[, K skipped]"
# line; its skip reasons are listed under it, and again at the end
tally() {
	line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
	p=$(printf '%s\n' "$line" | sed -E 's/.* ([0-9]+) passed, ([0-9]+) failed.*/\1/')
	f=$(printf '%s\n' "$line" | sed -E 's/.* ([0-9]+) passed, ([0-9]+) failed.*/\2/')
	k=$(printf '%s\n' "$line" | sed -E -n 's/.* failed, ([0-9]+) skipped$/\1/p')
	if [ -z "$line" ]; then
		echo "FAIL $1: no closing count line (crashed?)"
		sed 's/^/    /' "$log" | tail -n 20
		failed=$((failed + 1))
		return
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + ${k:-0}))
	if [ "$f" != 0 ] || [ "$2" != 0 ]; then
		grep -v -e ' passed, ' -e '^skip: ' "$log" | head -n 40 | sed 's/^/    /'
		[ "$f" = 0 ] && failed=$((failed + 1)) && echo "    (exit status $2)"
	fi
	printf '%s\n' "$line"
	grep '^skip: ' "$log" | tee -a "$skips" | sed 's/^/    /'
}

# The twinned scripts are those whose every run of the binary is an audit
# through ep (tests/lib.sh) that leaves the repository as it was: the
# states the real package managers build (most of their time is the
# managers'), github.sh's hundred hostile repositories, and the other
# read-only ones.  With TEST_TWIN_BIN (make check
# TWIN=build-asan/envpreflight, what .ci/run does) each run of the binary
# in them is followed by the twin's (ep_twin); with TEST_TWINNED=1 (make
# asan TWINNED=1, in the same CI run) they are left out, having been judged
# by the ASan build already: each state is built, and each script's own
# work done, once, not once per binary.  (Not twinned: a script that
# writes with the binary, counts what it started, or signals it.)
twinned="deps_bun deps_npm deps_pnpm deps_pnpm_cfg deps_poetry deps_py deps_yarn fixwrites github
	contract deps envexample junit ports runtimes secrets tap"
# listed WORD LIST: WORD is one of LIST's words
listed() {
	for w in $2; do [ "$w" = "$1" ] && return 0; done
	return 1
}
# And these judge what the build made beside the binary (the objects'
# layering, the completions in the shells, the man page against --help,
# make install's and make run's work, the conformance copy), not what the
# binary does: TEST_TWINNED=1 leaves them out as well, make check having
# run them.
files_only="completions docs gemreq install layers makefile poetry vectors"
# With TEST_SPLIT=1 as well (make check SPLIT=1, which .ci/run follows
# with make asan TWINNED=1) make check runs only what make asan does not:
# the twinned scripts beside their twin, the files_only ones, and valgrind
# (which runs no ASan build).  The unit programs, the golden cases and the
# other scripts (those that write, count their children, signal) are
# judged once, by the ASan build: CI's two cores are busy all the time
# (vmstat: 0 % idle), so a second run of them costs its whole CPU time.
in_check="valgrind"
split=0
[ -n "${TEST_TWIN_BIN:-}" ] && [ "${TEST_SPLIT:-0}" = 1 ] && split=1
twin_bin=${TEST_TWIN_BIN:-}
case $twin_bin in /* | '') ;; *) twin_bin=$top/$twin_bin ;; esac
if [ -n "$twin_bin" ] && [ ! -x "$twin_bin" ]; then
	echo "tests/run.sh: TEST_TWIN_BIN $twin_bin is not an executable (make asan-build)" >&2
	exit 2
fi

# Every program is a job: each unit program, the golden cases in two
# halves, each integration script.  TEST_JOBS of them run at a time (2 by
# default: CI's two cores; much of a script's time is waiting on the
# processes it starts).  They do not meet (tests/lib.sh: a scratch
# directory, marks and ports of their own, as two runs at once need
# anyway).  A worker takes the next job not yet taken (mkdir is the
# lock); each writes a log, a status and its seconds of its own, which are
# tallied below in a fixed order: the output is the same whichever
# finished first.  The jobs known to be the longest are dealt first, so
# that the workers end together (the list "the costliest jobs" below
# prints is where these names come from).
first="deps_yarn deps_pnpm_cfg deps_npm deps_pnpm deps_py deps_bun github hostile valgrind init
	deps_poetry"
runs=$TEST_TMPDIR/jobs
mkdir -p "$runs"
{
	for n in $first; do
		[ -f "$top/tests/integration/$n.sh" ] && echo "script $n"
	done
	for t in "$build"/tests/test_*; do
		[ -x "$t" ] || continue
		case $t in *.o) continue ;; esac
		echo "unit $(basename "$t")"
	done
	echo "golden 0"
	echo "golden 1"
	for s in "$top"/tests/integration/*.sh; do
		[ -f "$s" ] || continue
		n=$(basename "$s" .sh)
		listed "$n" "$first" && continue
		echo "script $n"
	done
} >"$runs/list"

# job KIND NAME: runs one job, its output on standard output
job() {
	case $1 in
	# test_fuzz replays the fuzz seeds and regressions; under
	# TEST_TWINNED=1 (CI) make fuzz-smoke runs every one of them with this
	# same build, in libFuzzer
	unit)
		if [ "$2" = test_fuzz ] && [ "${TEST_TWINNED:-0}" = 1 ]; then
			echo "test_fuzz: 0 passed, 0 failed (its inputs are replayed by make fuzz-smoke)"
		elif [ $split = 1 ]; then
			echo "$2: 0 passed, 0 failed (judged by make asan's build)"
		else
			(cd "$top" && "$build/tests/$2")
		fi ;;
	# each half in a scratch directory of its own (golden.sh copies the
	# cases into it)
	golden)
		if [ $split = 1 ]; then
			echo "golden: 0 passed, 0 failed (judged by make asan's build)"
		else
			mkdir -p "$TEST_TMPDIR/golden$2" &&
				TEST_TMPDIR=$TEST_TMPDIR/golden$2 GOLDEN_SHARD="$2/2" \
				sh "$top/tests/golden.sh"
		fi ;;
	script)
		if listed "$2" "$twinned" && [ "${TEST_TWINNED:-0}" = 1 ]; then
			echo "$2: 0 passed, 0 failed (run in make check beside the twin)"
		elif listed "$2" "$files_only" && [ "${TEST_TWINNED:-0}" = 1 ]; then
			echo "$2: 0 passed, 0 failed (judges files, not the binary: run in make check)"
		elif listed "$2" "$twinned" && [ -n "$twin_bin" ]; then
			EP_TWIN_BIN=$twin_bin sh "$top/tests/integration/$2.sh"
		elif [ $split = 1 ] && ! listed "$2" "$files_only $in_check"; then
			echo "$2: 0 passed, 0 failed (judged by make asan's build)"
		else
			sh "$top/tests/integration/$2.sh"
		fi ;;
	esac
}
worker() {
	while read -r kind name; do
		key=$kind.$name
		mkdir "$runs/$key.taken" 2>/dev/null || continue
		t0=$(date +%s)
		# (in a subshell whose `times` ends it: its children's CPU
		# seconds, user and system, the last line)
		(
			job "$kind" "$name" >"$runs/$key.log" 2>&1
			echo $? >"$runs/$key.status"
			times >"$runs/$key.times"
		)
		echo $(($(date +%s) - t0)) >"$runs/$key.seconds"
	done <"$runs/list"
}
j=0
pids=
while [ "$j" -lt "${TEST_JOBS:-2}" ]; do
	worker &
	pids="$pids $!"
	j=$((j + 1))
done
# shellcheck disable=SC2086
wait $pids

# tallied in the order of the sources: the unit programs, the golden
# cases, the scripts
result() {	# KEY LABEL
	cp "$runs/$1.log" "$log" 2>/dev/null || : >"$log"
	tally "$2" "$(cat "$runs/$1.status" 2>/dev/null || echo 99)"
}
echo "== unit tests"
for t in "$build"/tests/test_*; do
	[ -x "$t" ] || continue
	case $t in *.o) continue ;; esac
	result "unit.$(basename "$t")" "$(basename "$t")"
done
echo "== golden cases"
result golden.0 "golden (first half)"
result golden.1 "golden (second half)"
echo "== integration scripts"
for s in "$top"/tests/integration/*.sh; do
	[ -f "$s" ] || continue
	n=$(basename "$s" .sh)
	result "script.$n" "$n.sh"
done
# the costliest, for whoever wants the suite faster: CPU seconds (what
# a busy machine does not change, and what CI's two cores are short of;
# the children's user and system time, from `times`), then wall seconds
echo "== the costliest jobs (CPU seconds, wall seconds)"
for f in "$runs"/*.seconds; do
	k=${f%.seconds}
	cpu=$(tail -n 1 "$k.times" 2>/dev/null | sed 's/m/ /g; s/s//g' |
		awk '{ printf "%.0f", $1 * 60 + $2 + $3 * 60 + $4 }')
	printf '%s %s %s\n' "${cpu:-?}" "$(cat "$f")" "$(basename "$k" | sed 's/^[a-z]*\.//')"
done | sort -rn >"$TEST_TMPDIR/costs"
head -n 12 "$TEST_TMPDIR/costs" | sed 's/^/    /'
awk '{ c += $1; s += $2 } END { printf "    (all jobs: %d s of CPU, %d s, %d at a time)\n", c, s, '"${TEST_JOBS:-2}"' }' \
	"$TEST_TMPDIR/costs"

echo "== every JSON report against the schema"
set -- "$top"/tests/cases/*/expected.out
files=
for f in "$@"; do
	head -c 1 "$f" | grep -q '{' && files="$files $f"
done
# shellcheck disable=SC2086
/usr/bin/python3 "$top/tests/validate.py" "$top/src/schema/envpreflight-1.schema.json" \
	$files "$EP_JSON_DIR"/* >"$log" 2>&1
tally schema $?

if [ "$skipped" = 0 ]; then
	echo "$passed passed, $failed failed"
else
	echo "== skipped: what this machine could not stage"
	sed 's/^skip: /    /' "$skips"
	echo "$passed passed, $failed failed, $skipped skipped"
fi
[ "$failed" = 0 ]
