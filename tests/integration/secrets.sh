#!/bin/sh
# secrets.sh - a unique marker planted in every .env value (good lines,
# quoted, multi-line, malformed, duplicated, URLs with passwords) must never
# reach stdout or stderr, in any format (TAP too), with --explain and
# --strict, nor the GitHub job summary that --format=github appends to
# $GITHUB_STEP_SUMMARY.
. "$(dirname "$0")/../lib.sh"
M=ZQXMARKER7731
repo=$TEST_TMPDIR/secrets-repo
mkdir -p "$repo"
cat >"$repo/.env.example" <<EOS
PLAIN=example-$M
QUOTED=
MULTI=
EMPTY_ONE=
MISSING_ONE=
DATABASE_URL=postgres://u:$M@localhost:5433/db
UNTERM_EX="$M never closed

COLON_EX:
$M-swallowed

PEM_EX=-----BEGIN KEY-----
ab/$M
${M}=
-----END KEY-----
${M}9=
EOS
cat >"$repo/.env" <<EOS
PLAIN=$M-plain
QUOTED="$M quoted # not a comment"
MULTI="first $M
second $M"
EMPTY_ONE=
DATABASE_URL=postgres://user:$M@localhost:5433/db
EXTRA_KEY=$M-extra
PLAIN=$M-duplicate
this line is broken $M
=$M
'$M
export BROKEN $M
UNTERM="$M never closed

COLON:
$M-swallowed

TRAIL="$M" and $M after
PEM=-----BEGIN KEY-----
ab/$M
${M}=
-----END KEY-----
${M}2=1
a stray line $M
${M}3=1
EOS
printf 'version: 1\nenv:\n  required: [DATABASE_URL]\n' >"$repo/preflight.yaml"

sum=$TEST_TMPDIR/summary.md
for fmt in human json junit github tap tap13; do
	for extra in "" --explain --strict "--explain --quiet"; do
		rm -f "$sum"
		# shellcheck disable=SC2086
		EP_ENV="GITHUB_STEP_SUMMARY=$sum" ep --format=$fmt $extra "$repo" \
			>"$TEST_TMPDIR/out" 2>"$TEST_TMPDIR/err"
		st=$?
		check "$fmt $extra: exit 1 (got $st)" [ "$st" = 1 ]
		check "$fmt $extra: no value on stdout" sh -c "! grep -q $M '$TEST_TMPDIR/out'"
		check "$fmt $extra: no value on stderr" sh -c "! grep -q $M '$TEST_TMPDIR/err'"
		check "$fmt $extra: the keys are named" grep -q MISSING_ONE "$TEST_TMPDIR/out"
		[ $fmt = github ] || continue
		# (Markdown: the '_' escaped)
		check "$fmt $extra: the job summary names the keys" grep -qF 'MISSING\_ONE' "$sum"
		check "$fmt $extra: no value in the job summary" sh -c "! grep -q $M '$sum'"
	done
done
# the new findings are there, by key name or by length and line only
ep --format=json --explain "$repo" >"$TEST_TMPDIR/out" 2>&1
for want in UNTERM COLON TRAIL PEM UNTERM_EX COLON_EX PEM_EX '"still_empty": \["EMPTY_ONE"\]' \
	'"(a 14-character name on line 16 of .env.example)"' \
	'"(a 14-character name on line 23)"' '"(a 14-character name on line 25)"'; do
	check "json names $want" grep -q "$want" "$TEST_TMPDIR/out"
done

# a .env that is not text: the marker around a NUL and a bad byte
printf 'A=%s\000%s\nB=\377%s\n' "$M" "$M" "$M" >"$repo/.env"
for fmt in human json junit github tap tap13; do
	rm -f "$sum"
	EP_ENV="GITHUB_STEP_SUMMARY=$sum" ep --format=$fmt --explain "$repo" \
		>"$TEST_TMPDIR/out" 2>"$TEST_TMPDIR/err"
	check "binary .env $fmt: no value" sh -c "! grep -aq $M '$TEST_TMPDIR/out' '$TEST_TMPDIR/err'"
	[ $fmt = github ] || continue
	check "binary .env $fmt: no value in the job summary" sh -c "[ -s '$sum' ] && ! grep -aq $M '$sum'"
done

# the value is in the environment too (process_env): still never shown
printf 'PLAIN=\n' >"$repo/.env"
EP_ENV="PLAIN=$M-from-env" ep --format=json --explain "$repo" >"$TEST_TMPDIR/out" 2>&1
check "process env value not shown" sh -c "! grep -q $M '$TEST_TMPDIR/out'"
finish
