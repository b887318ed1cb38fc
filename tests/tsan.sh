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
trap 'exit 130' INT
trap 'exit 143' TERM
export TSAN_OPTIONS="exitcode=66 halt_on_error=0 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"

passed=0
failed=0
for t in "$@"; do
	log=$TEST_TMPDIR/$t.log
	(cd "$top" && "$build/tests/$t") >"$log" 2>&1
	st=$?
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
