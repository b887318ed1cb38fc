#!/bin/sh
# tests/lint.sh - cppcheck and clang-tidy over every layer of src/, zero findings (make lint).
#
# clang-tidy reads .clang-tidy; cppcheck's options are below and its
# suppressions, each with its reason, in .cppcheck.  A finding that is a
# false positive on one line is silenced on that line (NOLINT(check) or
# cppcheck-suppress) with the reason beside it.  The files are checked two
# at a time.
#
# The static analyzer (clang-analyzer-*) is most of clang-tidy's time: in
# its default deep mode, 390 s of CPU over src/ (15 s for one file), which
# alone was a quarter of CI.  LINT_ANALYZER picks its mode: shallow (the
# default: the analyzer's own quick mode, fewer inlined calls and a smaller
# path budget a function; 4.5 times faster) or deep, which make lint-deep
# runs before a release or after a change to a parser's control flow.
# Both must report nothing.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
# each layer's private headers sit beside its code (src/README)
layers=$(for d in src/*/; do ls "$d"*.c >/dev/null 2>&1 && printf -- '-I%s ' "${d%/}"; done)
flags="-std=c11 -D_GNU_SOURCE -Iinclude $layers $(pkg-config --cflags libcjson inih yaml-0.1 2>/dev/null)"
case ${LINT_ANALYZER:-shallow} in
shallow | deep) flags="$flags -Xclang -analyzer-config -Xclang mode=${LINT_ANALYZER:-shallow}" ;;
*) echo "lint: LINT_ANALYZER is shallow or deep, not $LINT_ANALYZER" >&2; exit 2 ;;
esac
status=0

# cppcheck runs beside clang-tidy, its report printed after clang-tidy's:
# its -j 2 kept one core busy, not two (cppcheck 2.10 here: 15 s of CPU in
# 14 s), and the other idle while it ran
cppcheck_out=$(mktemp "${TMPDIR:-/tmp}/envpreflight-cppcheck.XXXXXX") || exit 2
# shellcheck disable=SC2086
cppcheck --std=c11 --enable=warning,style,performance,portability \
	--library=posix --inline-suppr --suppressions-list=.cppcheck \
	--error-exitcode=1 --quiet -j 2 -D_GNU_SOURCE -Iinclude $layers \
	--template='{file}:{line}:{column}: {severity}: {message} [{id}]' src/ \
	>"$cppcheck_out" 2>&1 &
cppcheck_pid=$!
trap 'kill $cppcheck_pid 2>/dev/null; rm -f "$cppcheck_out"' EXIT

echo "== clang-tidy (the analyzer ${LINT_ANALYZER:-shallow})"
# shellcheck disable=SC2086
if ! ls src/*/*.c | xargs -P 2 -I{} clang-tidy --quiet "--config-file=$top/.clang-tidy" \
	{} -- $flags 2>/dev/null; then
	status=1
fi

echo "== cppcheck"
wait $cppcheck_pid || status=1
cat "$cppcheck_out"

if [ "$status" = 0 ]; then
	echo "lint: no findings"
else
	echo "lint: findings above"
fi
exit $status
