#!/bin/sh
# tests/tsan.sh BUILD TEST... - run unit-test programs built with
# -fsanitize=thread (make tsan).  A program fails on any ThreadSanitizer
# report (exit status 66) as well as on a failed check; the last line
# counts the programs.
set -u
build=$1
shift
top=$(cd "$(dirname "$0")/.." && pwd)
# the conformance vectors: our own copy, as tests/run.sh reads them
export TEST_SHARED="${TEST_SHARED:-$top/tests}"
# this run's own scratch directory (another run may go on beside it)
TEST_TMPDIR=$(mktemp -d "${TMPDIR:-/tmp}/envpreflight-tsan.XXXXXX") || exit 2
export TEST_TMPDIR
trap 'rm -rf "$TEST_TMPDIR"' EXIT
lanes=
trap 'kill $lanes 2>/dev/null; exit 130' INT
trap 'kill $lanes 2>/dev/null; exit 143' TERM
export TSAN_OPTIONS="exitcode=66 halt_on_error=0 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"

# TSAN_JOBS (2: CI's two cores) lanes, the programs dealt out in turn;
# each lane runs its programs one after the other, and the results are
# read below in the order given
jobs=${TSAN_JOBS:-2}
lane=0
while [ "$lane" -lt "$jobs" ]; do
	(
		i=0
		for t in "$@"; do
			if [ $((i % jobs)) = "$lane" ]; then
				(cd "$top" && "$build/tests/$t") >"$TEST_TMPDIR/$t.log" 2>&1
				echo $? >"$TEST_TMPDIR/$t.status"
			fi
			i=$((i + 1))
		done
	) &
	lanes="$lanes $!"
	lane=$((lane + 1))
done
# shellcheck disable=SC2086
wait $lanes

passed=0
failed=0
for t in "$@"; do
	log=$TEST_TMPDIR/$t.log
	st=$(cat "$TEST_TMPDIR/$t.status" 2>/dev/null || echo 99)
	reports=$(grep -c '^WARNING: ThreadSanitizer' "$log")
	if [ "$st" = 0 ] && [ "$reports" = 0 ]; then
		passed=$((passed + 1))
		echo "ok   $t: $(tail -n 1 "$log")"
	else
		failed=$((failed + 1))
		echo "FAIL $t: exit status $st, $reports ThreadSanitizer reports"
		grep -v ' passed, ' "$log" | head -n 60 | sed 's/^/    /'
	fi
done
echo "tsan: $passed passed, $failed failed"
[ "$failed" = 0 ]
