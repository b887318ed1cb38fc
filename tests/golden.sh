#!/bin/sh
# tests/golden.sh - run every tests/cases/NAME and diff against its expectations.
#
# A case folder holds:
#   repo/            the fixture repository (or `repo` is absent and `args` names a dir)
#   args             the command-line arguments, one per line (optional)
#   env              extra KEY=VALUE lines for the environment (optional);
#                    <TOP> stands for the top of the source tree, so that
#                    ENVPREFLIGHT_PROC_ROOT=<TOP>/tests/fixtures/proc/ports works
#   expected.out     stdout, with the repo path as <ROOT>, other paths in the
#                    source tree as <TOP>, timings masked, and JSON's
#                    run.version as <VERSION> (a new version is one edit, of
#                    include/version.h)
#   expected.status  the exit status
#   expected.err     stderr, masked the same way (optional: checked when present)
# UPDATE=1 sh tests/golden.sh rewrites the expectations from the current binary
# (make golden UPDATE=1), refusing any that holds something of this machine;
# CASES='env-*' limits a run (or an update) to some cases.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)

# leaks FILE...: what of this machine the files hold (the source tree's
# path, the scratch directory, the home directory, the user's name
# unless it is root, which fixtures name too); nothing when clean
leaks() {
	for w in "$top" "${TMPDIR:-/tmp}/envpreflight" "$TEST_TMPDIR" \
		 ${HOME:+"$HOME/"} ${USER:+"/home/$USER"}; do
		[ "$w" = / ] || grep -Fn -- "$w" "$@" /dev/null
	done
	u=$(id -un 2>/dev/null)
	[ -z "$u" ] || [ "$u" = root ] || grep -Fwn -- "$u" "$@" /dev/null
}

# The cases run from a copy outside the source tree, so that what git
# knows of this checkout (ignore rules, the index) cannot change their
# output: env.gitignore is tested in real work trees by integration/cli.sh.
cases=$TEST_TMPDIR/cases
rm -rf "$cases"
cp -a "$top/tests/cases" "$cases"

for dir in "$top"/tests/cases/${CASES:-*}/; do
	name=$(basename "$dir")
	run_dir=$cases/$name
	[ -f "$dir/expected.status" ] || [ "${UPDATE:-}" = 1 ] || continue
	set --
	if [ -f "$dir/args" ]; then
		while IFS= read -r a; do set -- "$@" "$a"; done <"$dir/args"
	fi
	envs=
	[ -f "$dir/env" ] && envs=$(sed -e "s#<TOP>/tests/cases#$cases#g" -e "s#<TOP>#$top#g" "$dir/env")
	root="$run_dir/repo"
	[ -d "$root" ] || root="$run_dir"
	root=$(cd "$root" && pwd -P)
	out=$TEST_TMPDIR/$name.out
	err=$TEST_TMPDIR/$name.err
	(cd "$root" && EP_ENV="$envs" ep "$@") >"$out.raw" 2>"$err.raw"
	status=$?
	# the same run as JSON too, whatever the case's format: every case's
	# report is validated against the schema at the end (tests/run.sh)
	(cd "$root" && EP_ENV="$envs" ep "$@" --json) >/dev/null 2>&1
	# then the rest of the tree (fixture binaries a case puts on PATH)
	mask "$cases" <"$out.raw" | sed -e "s#$top#<TOP>#g" -e "s#$TEST_TMPDIR#<TMP>#g" \
		-e '/^  "run": {$/{n;s/^\(    "version": \)"[^"]*"/\1"<VERSION>"/;}' >"$out"
	mask "$cases" <"$err.raw" | sed -e "s#$top#<TOP>#g" -e "s#$TEST_TMPDIR#<TMP>#g" >"$err"
	if [ "${UPDATE:-}" = 1 ]; then
		if [ -n "$(leaks "$out" "$err")" ]; then
			not_ok "$name: not updated, the output holds this machine's data:"
			leaks "$out" "$err" | head -n 5 | sed 's/^/    /'
			continue
		fi
		cp "$out" "$dir/expected.out"
		echo "$status" >"$dir/expected.status"
		[ -s "$err" ] && cp "$err" "$dir/expected.err"
		[ -s "$err" ] || rm -f "$dir/expected.err"
		echo "updated $name"
		ok
		continue
	fi
	good=1
	if ! diff -u "$dir/expected.out" "$out" >"$TEST_TMPDIR/diff"; then
		echo "--- $name: stdout differs"; cat "$TEST_TMPDIR/diff"; good=0
	fi
	if [ "$status" != "$(cat "$dir/expected.status")" ]; then
		echo "--- $name: exit status $status, want $(cat "$dir/expected.status")"; good=0
	fi
	if [ -f "$dir/expected.err" ] && ! diff -u "$dir/expected.err" "$err" >"$TEST_TMPDIR/diff"; then
		echo "--- $name: stderr differs"; cat "$TEST_TMPDIR/diff"; good=0
	fi
	if [ $good = 1 ]; then ok; else not_ok "$name"; fi
done
finish
