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
# CASES='env-*' limits a run (or an update) to some cases; GOLDEN_SHARD=K/N
# to every Nth of them from the Kth (0-based: tests/run.sh runs 0/2 and 1/2
# at once).
#
# The expectations are written as root.  A case whose output differs where
# its fixture /proc has a holder this run sees otherwise (a uid this
# machine has a name for, a uid that is the runner's own, root's processes
# when the runner is not root) is skipped, and says why; UPDATE=1 does not
# rewrite such a case.  See tests/fixtures/proc/README.
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
# and the fixture /proc trees from a copy of the runner's own: a process
# directory without a status file is the uid of its owner, which must not
# be whoever checked the tree out
procs=$TEST_TMPDIR/proc
rm -rf "$procs"
cp -R "$top/tests/fixtures/proc" "$procs"
me=$(id -u)

# uid_name UID: the name this machine gives UID, or nothing
uid_name() {
	getent passwd "$1" 2>/dev/null | cut -d: -f1
}

# unfit ENV: why the case cannot be run as its expectations were written,
# or nothing: the holders in its fixture /proc (the pid directories with
# an fd entry) by the uid the binary will see for each
unfit() {
	fx=$(printf '%s\n' "$1" | sed -n 's#^ENVPREFLIGHT_PROC_ROOT=<TOP>/tests/fixtures/proc/##p')
	[ -n "$fx" ] || return 0
	for d in "$procs/$fx"/[0-9]*/; do
		[ -e "$d/fd" ] || [ -L "$d/fd" ] || continue
		u=$(sed -n 's/^Uid:[[:space:]]*\([0-9]*\).*/\1/p' "$d/status" 2>/dev/null)
		p="pid $(basename "$d")"
		[ -n "$u" ] || { u=$(stat -c %u "$d"); p="$p, no status: its directory's owner"; }
		if [ "$u" = 0 ]; then
			[ "$me" = 0 ] || { echo "the expectations are written as root; this run is uid $me"; return; }
			n=$(uid_name 0)
			[ -z "$n" ] || [ "$n" = root ] || { echo "uid 0 is named '$n' here, not root"; return; }
		elif [ "$u" = "$me" ]; then
			echo "the fixture's uid $u ($p) is this run's own"
			return
		else
			n=$(uid_name "$u")
			[ -z "$n" ] || { echo "the fixture's uid $u ($p) has a name here ('$n'); the expectations show it as a number"; return; }
		fi
	done
}

shard_k=0
shard_n=1
if [ -n "${GOLDEN_SHARD:-}" ]; then
	shard_k=${GOLDEN_SHARD%/*}
	shard_n=${GOLDEN_SHARD#*/}
fi
i=-1
for dir in "$top"/tests/cases/${CASES:-*}/; do
	i=$((i + 1))
	[ $((i % shard_n)) = "$shard_k" ] || continue
	name=$(basename "$dir")
	run_dir=$cases/$name
	[ -f "$dir/expected.status" ] || [ "${UPDATE:-}" = 1 ] || continue
	set --
	if [ -f "$dir/args" ]; then
		while IFS= read -r a; do set -- "$@" "$a"; done <"$dir/args"
	fi
	envs=
	why=
	if [ -f "$dir/env" ]; then
		why=$(unfit "$(cat "$dir/env")")
		envs=$(sed -e "s#<TOP>/tests/cases#$cases#g" -e "s#<TOP>/tests/fixtures/proc#$procs#g" \
			-e "s#<TOP>#$top#g" "$dir/env")
	fi
	root="$run_dir/repo"
	[ -d "$root" ] || root="$run_dir"
	root=$(cd "$root" && pwd -P)
	out=$TEST_TMPDIR/$name.out
	err=$TEST_TMPDIR/$name.err
	(cd "$root" && EP_ENV="$envs" ep "$@") >"$out.raw" 2>"$err.raw"
	status=$?
	# the same run as JSON too, whatever the case's format: every case's
	# report is validated against the schema at the end (tests/run.sh);
	# make check has done it when make asan is told TWINNED=1 (.ci/run)
	[ "${TEST_TWINNED:-0}" = 1 ] ||
		(cd "$root" && EP_ENV="$envs" ep "$@" --json) >/dev/null 2>&1
	# then the rest of the tree (fixture binaries a case puts on PATH)
	mask "$cases" <"$out.raw" | sed -e "s#$procs#<TOP>/tests/fixtures/proc#g" \
		-e "s#$top#<TOP>#g" -e "s#$TEST_TMPDIR#<TMP>#g" \
		-e '/^  "run": {$/{n;s/^\(    "version": \)"[^"]*"/\1"<VERSION>"/;}' >"$out"
	mask "$cases" <"$err.raw" | sed -e "s#$procs#<TOP>/tests/fixtures/proc#g" \
		-e "s#$top#<TOP>#g" -e "s#$TEST_TMPDIR#<TMP>#g" >"$err"
	if [ "${UPDATE:-}" = 1 ]; then
		if [ -n "$why" ]; then
			skip "$name: not updated: $why"
			continue
		fi
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
	: >"$TEST_TMPDIR/diffs"
	if ! diff -u "$dir/expected.out" "$out" >"$TEST_TMPDIR/diff"; then
		{ echo "--- $name: stdout differs"; cat "$TEST_TMPDIR/diff"; } >>"$TEST_TMPDIR/diffs"
		good=0
	fi
	if [ "$status" != "$(cat "$dir/expected.status")" ]; then
		echo "--- $name: exit status $status, want $(cat "$dir/expected.status")" >>"$TEST_TMPDIR/diffs"
		good=0
	fi
	if [ -f "$dir/expected.err" ] && ! diff -u "$dir/expected.err" "$err" >"$TEST_TMPDIR/diff"; then
		{ echo "--- $name: stderr differs"; cat "$TEST_TMPDIR/diff"; } >>"$TEST_TMPDIR/diffs"
		good=0
	fi
	if [ $good = 1 ]; then
		ok
	elif [ -n "$why" ]; then
		skip "$name: $why"
	else
		cat "$TEST_TMPDIR/diffs"
		not_ok "$name"
	fi
done
finish
