#!/bin/sh
# docs.sh - the man page renders without warnings, and the README, the man
# page and --help name the same options; README's Probes has an item
# ("- **NAME** ") for every probe of the registry; and the man page documents every
# name a harness can meet, each taken from where the program keeps it
# (tests/manterms.py reads them and the page):
#
#   probe     every probe of the registry (--list-probes --format=json):
#             an item of DESCRIPTION's Probes whose tag is its name
#   id        every id pattern of every probe (--list-probes --format=json:
#             "ports.tcp.PORT-LAST"), as is, in CHECK IDS
#   reason    every word of REASONS in include/result.h and of the schema's
#             $defs/reason enum (which must be the same words): an item of
#             REASONS whose tag is the word
#   enum      every string of an "enum" or a "const" of the JSON Schema,
#             src/schema/envpreflight-1.schema.json: set apart as a name
#             anywhere in the page (below)
#   property  every name under a "properties" of the schema: set apart as
#             a name anywhere, where it may also be a part of a dotted path
#             (\fBrun.options.probes\fR names options)
#
# The page is read as its roff source, man/envpreflight.1, not as rendered
# (groff may be missing; it hyphenates and wraps), normalised: font changes
# (\fB \fI \fR \fP \f(XX \f[..]) dropped; \- is -, \(aq ', \(dq ", \e \;
# \(em, \(en and every other \(xx glyph a space; \& \: \| \^ dropped;
# "\ " and \~ a space; every run of white space, line breaks too, one space.
# A term is found where neither neighbour is a letter, digit, _ or -, nor
# a . joining it to one (env is not found in env.parity or .env, nor
# out-of-date in out-of-date-x); only a property may be joined by dots.  An
# item's tag is the normalised line after a .TP, its request (.B) dropped.
# Set apart as a name: within a bold run (\fB to the next \fR, \fP or \fI,
# or a .B line) or a quoted string ("..." on one line, as in the JSON
# examples, but not the ", " between two; or \(dq...\(dq), so that ok in
# prose does not count for the property ok.
# A section is the lines from its .SH (a subsection: .SS) to the next.
. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
page=$top/man/envpreflight.1
if command -v groff >/dev/null 2>&1; then
	warn=$(groff -man -ww -z -Tutf8 "$page" 2>&1)
	check "man page renders without warnings: $warn" [ -z "$warn" ]
	warn=$(MANWIDTH=80 man --warnings=all -l "$page" 2>&1 >/dev/null)
	check "man -l without warnings: $warn" [ -z "$warn" ]
	# a fresh machine has no locale: man renders for ASCII there
	warn=$(LC_ALL=C LANG= MANWIDTH=80 man --warnings=all -l "$page" 2>&1 >/dev/null)
	check "man -l in the C locale without warnings: $warn" [ -z "$warn" ]
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

# every probe, id pattern, reason, schema value and property documented
"$EP_BIN" --list-probes --format=json >"$TEST_TMPDIR/probes.json"
check "--list-probes --format=json" [ -s "$TEST_TMPDIR/probes.json" ]
python3 "$top/tests/manterms.py" "$page" "$top/src/schema/envpreflight-1.schema.json" \
	"$top/include/result.h" "$TEST_TMPDIR/probes.json" >"$TEST_TMPDIR/terms"
check "the terms were read" [ -s "$TEST_TMPDIR/terms" ]
while IFS='	' read -r res what; do
	if [ "$res" = ok ]; then ok; else not_ok "man page documents $what"; fi
done <"$TEST_TMPDIR/terms"
# and the reading finds a gap: a page without REASONS' out-of-date item,
# nor the bold word anywhere else, misses the reason and the enum value
sed -e '/^\.B out\\-of\\-date$/,/^\.TP/d' -e 's/\\fBout\\-of\\-date\\fR/out-of-date/g' \
	"$page" >"$TEST_TMPDIR/gap.1"
python3 "$top/tests/manterms.py" "$TEST_TMPDIR/gap.1" "$top/src/schema/envpreflight-1.schema.json" \
	"$top/include/result.h" "$TEST_TMPDIR/probes.json" >"$TEST_TMPDIR/gap"
check "a page without out-of-date misses it: $(grep '^missing' "$TEST_TMPDIR/gap" | tr '\t\n' ' ;')" \
	[ "$(grep -c '^missing' "$TEST_TMPDIR/gap")" = 2 ]
# README's Probes section has an item for every probe of the registry
sed -n '/^## Probes/,/^## [^P]/p' "$top/README.md" >"$TEST_TMPDIR/readme-probes"
for p in $("$EP_BIN" --list-probes | sed 's/ .*//'); do
	check "README's Probes lists $p" grep -q "^- \*\*$p\*\* " "$TEST_TMPDIR/readme-probes"
done

help=$("$EP_BIN" --help)
for opt in $(printf '%s\n' "$help" | grep -oE -- '--[a-z-]+' | sort -u); do
	check "man page documents $opt" grep -qF -- "$(printf '%s' "$opt" | sed 's/-/\\-/g')" "$page"
	check "README documents $opt" grep -q -- "$opt" "$top/README.md"
done
finish
