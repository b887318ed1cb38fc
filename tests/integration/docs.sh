#!/bin/sh
# docs.sh - the man page renders without warnings, and the README, the man
# page and --help name the same options.
. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
page=$top/man/envpreflight.1
if command -v groff >/dev/null 2>&1; then
	warn=$(groff -man -ww -z -Tutf8 "$page" 2>&1)
	check "man page renders without warnings: $warn" [ -z "$warn" ]
	warn=$(MANWIDTH=80 man --warnings=all -l "$page" 2>&1 >/dev/null)
	check "man -l without warnings: $warn" [ -z "$warn" ]
else
	skip "man page rendering: groff is not installed"
fi
for sec in NAME SYNOPSIS DESCRIPTION OPTIONS FILES "EXIT STATUS" ENVIRONMENT EXAMPLES JSON; do
	check "man page has $sec" grep -q "^\.SH \"*$sec" "$page"
done
# every item of the SECURITY list of hostile repositories is tried by
# hostile.sh, in a block marked "item: TITLE"
items=$(sed -n '/^\.SS What a hostile repository may try/,/^\.S[HS]/p' "$page" |
	awk 'prev == ".TP" { print } { prev = $0 }')
check "the hostile-repository list has items" [ -n "$items" ]
printf '%s\n' "$items" | while IFS= read -r t; do
	grep -qF "# item: $t" "$top/tests/integration/hostile.sh" || echo "no test: $t"
done >"$TEST_TMPDIR/untested"
check "every hostile-repository item is tried: $(tr '\n' ';' <"$TEST_TMPDIR/untested")" \
	[ ! -s "$TEST_TMPDIR/untested" ]
help=$("$EP_BIN" --help)
for opt in $(printf '%s\n' "$help" | grep -oE -- '--[a-z-]+' | sort -u); do
	check "man page documents $opt" grep -qF -- "$(printf '%s' "$opt" | sed 's/-/\\-/g')" "$page"
	check "README documents $opt" grep -q -- "$opt" "$top/README.md"
done
finish
