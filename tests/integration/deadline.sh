#!/bin/sh
# deadline.sh - the contract a caller (a harness, timeout(1), CI) builds
# on, end to end: a signal ends every child first; the report keeps its
# deadline whatever a child does, and names a child it could not reap (a
# frozen cgroup); no worker thread; PATH unset; no /dev/null; an
# unsearchable repository.  Processes are told apart by markers unique to
# this run (the sleep arguments hold $T_MARK), never by timing.  Every
# signal the binary is sent is set to its default first ($SIGDFL): the
# suite may run under nohup, or as a background job.
. "$(dirname "$0")/../lib.sh"
nocache=XDG_CACHE_HOME=/dev/null/no-cache
top=$(cd "$(dirname "$0")/../.." && pwd)
id=$T_MARK

# keep_json FILE: hand a JSON report to the schema check of tests/run.sh
keep_json() {
	[ -n "${EP_JSON_DIR:-}" ] && cp "$1" "$(mktemp "$EP_JSON_DIR/$T_NAME.XXXXXX")"
	:
}

# wait_for FILE: up to 20 s for FILE to exist; 0 when it does
wait_for() {
	i=0
	while [ ! -e "$1" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
	[ -e "$1" ]
}

# ---- signals: every child and grandchild ends first ----
sig=$TEST_TMPDIR/sig
bin=$sig/bin
mkdir -p "$bin" "$sig/repo"
printf '{"engines": {"node": ">=20"}}\n' >"$sig/repo/package.json"
escape=
command -v setsid >/dev/null 2>&1 && escape="setsid sleep 300.${id}2 >/dev/null 2>&1 &"
cat >"$bin/node" <<EOF
#!/bin/sh
# a grandchild in the group, one that left it, then tell the test
sleep 300.${id}1 &
$escape
echo \$\$ >"$sig/started.tmp" && mv "$sig/started.tmp" "$sig/started"
exec sleep 300.${id}3
EOF
chmod 755 "$bin/node"
marks="300.${id}1 300.${id}2 300.${id}3"
# a background job of a script ignores SIGINT, nohup SIGHUP: $SIGDFL puts
# them back
for s in TERM:15 INT:2 HUP:1; do
	name=${s%:*}
	num=${s#*:}
	if [ -z "$SIGDFL" ]; then
		skip "SIG$name: neither env --default-signal nor perl can set it to its default here"
		continue
	fi
	rm -f "$sig/started"
	"$SIGDFL" env -i PATH="$bin:/usr/bin:/bin" HOME="$TEST_TMPDIR/home" \
		XDG_CONFIG_HOME="$TEST_TMPDIR/xdg" $nocache LC_ALL=C.UTF-8 \
		"$EP_BIN" --timeout=60000 "$sig/repo" >"$sig/out" 2>&1 &
	pid=$!
	if ! wait_for "$sig/started"; then
		not_ok "SIG$name: the fake node never started"
		kill -KILL "$pid" 2>/dev/null
		wait "$pid"
		continue
	fi
	kill -s "$name" "$pid"
	wait "$pid"
	st=$?
	check "SIG$name: envpreflight died of it (status $st, want $((128 + num)))" \
		[ "$st" = $((128 + num)) ]
	check "SIG$name: no report printed" [ ! -s "$sig/out" ]
	check "SIG$name: no child or grandchild left" [ "$(survivors $marks)" = 0 ]
done
# the way a watchdog does it: timeout(1) signals the process group
if command -v timeout >/dev/null 2>&1 && [ -n "$SIGDFL" ]; then
	for name in TERM INT HUP; do
		"$SIGDFL" timeout -s "$name" 1 env -i PATH="$bin:/usr/bin:/bin" \
			HOME="$TEST_TMPDIR/home" $nocache "$EP_BIN" --timeout=60000 \
			"$sig/repo" >"$sig/out" 2>&1
		st=$?
		check "timeout -s $name 1: timed out (status $st)" [ "$st" = 124 ]
		check "timeout -s $name 1: no child or grandchild left" \
			[ "$(survivors $marks)" = 0 ]
	done
else
	skip "timeout(1) signalling the group: no timeout(1), or no way to set the signals to their defaults"
fi
# a signal ignored on entry (nohup) stays ignored: HUP does nothing, TERM
# (at its default, whatever ours is) then ends it
if env --ignore-signal=HUP true 2>/dev/null && [ -n "$SIGDFL" ]; then
	rm -f "$sig/started"
	"$SIGDFL" env --ignore-signal=HUP env -i PATH="$bin:/usr/bin:/bin" \
		HOME="$TEST_TMPDIR/home" $nocache "$EP_BIN" --timeout=60000 \
		"$sig/repo" >"$sig/out" 2>&1 &
	pid=$!
	if wait_for "$sig/started"; then
		kill -HUP "$pid"
		kill -TERM "$pid"
		wait "$pid"
		st=$?
		check "HUP ignored on entry stays ignored (status $st, want 143)" [ "$st" = 143 ]
	else
		not_ok "nohup: the fake node never started"
		kill -KILL "$pid" 2>/dev/null
		wait "$pid"
	fi
	check "nohup: no child or grandchild left" [ "$(survivors $marks)" = 0 ]
else
	skip "HUP ignored on entry: env cannot ignore a signal (coreutils 8.31), or nothing resets TERM"
fi

# ---- a child the kernel will not let die: a frozen cgroup ----
# cgroup v1's freezer holds a killed process until it is thawed (state D);
# v2's lets SIGKILL through.  With either, the report is out by the
# deadline; with v1 it names the child it could not reap.
fz=$TEST_TMPDIR/frozen
bin=$fz/bin
mkdir -p "$bin" "$fz/repo"
printf '{"engines": {"node": ">=20"}}\n' >"$fz/repo/package.json"
# where we are in a hierarchy: the mount point of fs type $1 (with
# super option $2 for v1), and our path in it from /proc/self/cgroup
cg_mount() {
	awk -v t="$1" -v o="$2" '{
		split($0, a, " - "); split(a[1], f, " "); split(a[2], g, " ")
		if (g[1] == t && (o == "" || g[3] ~ "(^|,)" o "(,|$)")) { print f[5]; exit }
	}' /proc/self/mountinfo
}
# freeze_test VERSION DIR PROCS FREEZE_FILE FREEZE_VALUE THAW_VALUE
freeze_test() {
	v=$1 cg=$2 procs=$3 ffile=$4 fon=$5 foff=$6
	# first a grandchild in a session of its own, outside the cgroup:
	# its parent never dies while frozen, so it never comes to
	# envpreflight as an orphan; it must be killed all the same
	cat >"$bin/node" <<EOF
#!/bin/sh
setsid sleep 300.${id}6 >/dev/null 2>&1 &
echo \$\$ >"$fz/pid.tmp" && mv "$fz/pid.tmp" "$fz/pid"
echo \$\$ >"$cg/$procs"
echo $fon >"$cg/$ffile"
exec sleep 300.${id}5
EOF
	chmod 755 "$bin/node"
	frozen=
	for budget in 1000 4000; do
		rm -f "$fz/pid"
		t0=$(date +%s%N)
		timeout 60 env -i PATH="$bin:/usr/bin:/bin" HOME="$TEST_TMPDIR/home" \
			$nocache "$EP_BIN" --json --timeout=$budget "$fz/repo" >"$fz/out" 2>"$fz/err"
		st=$?
		t1=$(date +%s%N)
		pid=$(cat "$fz/pid" 2>/dev/null)
		# frozen and still there after envpreflight ended: the case
		if [ -n "$pid" ] && grep -qx "$pid" "$cg/$procs" 2>/dev/null &&
		   [ -d "/proc/$pid" ]; then
			frozen=$pid
			break
		fi
		[ "$v" = 2 ] && break	# v2: killed for good, as it should be
	done
	check "cgroup v$v: envpreflight was not held (status $st)" [ "$st" = 1 ]
	ms=$(((t1 - t0) / 1000000))
	# a generous bound: a run held by its child would wait for the thaw
	check "cgroup v$v: the report came out (${ms} ms for --timeout=$budget)" \
		[ "$ms" -lt $((budget + 5000)) ]
	keep_json "$fz/out"
	if [ "$v" = 1 ]; then
		if [ -n "$frozen" ]; then
			check "cgroup v1: the unreaped child is named: $(grep -o '"message": "[^"]*' "$fz/out")" \
				grep -q "pid $frozen (.*node) could not be reaped" "$fz/out"
			check "cgroup v1: and in the data" \
				sh -c 'tr -d " \n" <"$1" | grep -q "\"unreaped\":\[{\"pid\":$2,"' _ "$fz/out" "$frozen"
			check "cgroup v1: still the program that hung, and for how long" \
				grep -q "node --version' did not answer within [0-9]* ms and was killed" "$fz/out"
		else
			not_ok "cgroup v1: the fake node did not freeze itself before the deadline"
		fi
	else
		check "cgroup v2: a frozen child dies of SIGKILL: nothing unreaped" \
			grep -q '"unreaped": null' "$fz/out"
	fi
	check "cgroup v$v: the grandchild that left the group did not outlive the run" \
		[ "$(survivors 300.${id}6)" = 0 ]
	echo "$foff" >"$cg/$ffile"
	check "cgroup v$v: nothing left once thawed" [ "$(survivors 300.${id}5 "$bin/node")" = 0 ]
	i=0
	while ! rmdir "$cg" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
}
v1=$(cg_mount cgroup freezer)
v1path=$(awk -F: '$2 ~ /(^|,)freezer(,|$)/ { print $3; exit }' /proc/self/cgroup)
if [ -n "$v1" ] && mkdir "$v1${v1path%/}/ep-test-$id" 2>/dev/null; then
	freeze_test 1 "$v1${v1path%/}/ep-test-$id" tasks freezer.state FROZEN THAWED
else
	skip "the unreaped child: no writable cgroup v1 freezer here"
fi
v2=$(cg_mount cgroup2 "")
v2path=$(awk -F: '$1 == "0" { print $3; exit }' /proc/self/cgroup)
if [ -n "$v2" ] && mkdir "$v2${v2path%/}/ep-test-$id" 2>/dev/null &&
   [ -f "$v2${v2path%/}/ep-test-$id/cgroup.freeze" ]; then
	freeze_test 2 "$v2${v2path%/}/ep-test-$id" cgroup.procs cgroup.freeze 1 0
else
	rmdir "$v2${v2path%/}/ep-test-$id" 2>/dev/null
	skip "a frozen child under cgroup v2: no cgroup v2 freezer we may use here (delegation)"
fi

# ---- descendants when the kernel refuses the subreaper ----
# A seccomp sandbox may allow only a list of prctl options: then an
# orphaned setsid grandchild goes to init, and only the mark in its
# environment (ENVPREFLIGHT_SPAWN) leads to it.  nosubreaper.c answers
# prctl(PR_SET_CHILD_SUBREAPER) with EPERM, as such a sandbox does.  The
# fake node waits until its grandchild has left the group, then exits.
ns=$TEST_TMPDIR/nosubreaper
mkdir -p "$ns/bin" "$ns/repo"
printf '{"engines": {"node": ">=20"}}\n' >"$ns/repo/package.json"
nsr=
if ! command -v cc >/dev/null 2>&1; then
	skip "without the subreaper: no C compiler for tests/fixtures/toolchain/nosubreaper.c"
elif ! cc -std=c11 -O2 -o "$ns/nosubreaper" "$top/tests/fixtures/toolchain/nosubreaper.c" 2>"$ns/cc.err"; then
	skip "without the subreaper: nosubreaper.c does not build here: $(head -1 "$ns/cc.err")"
else
	"$ns/nosubreaper" true 2>"$ns/nsr.err"
	st=$?
	if [ "$st" = 0 ]; then
		nsr=$ns/nosubreaper
	else
		skip "without the subreaper: no seccomp filter here (status $st: $(head -1 "$ns/nsr.err"))"
	fi
fi
if [ -n "$nsr" ] && command -v setsid >/dev/null 2>&1; then
	cat >"$ns/bin/node" <<EOF
#!/bin/sh
rm -f "$ns/gc"
setsid sh -c 'echo \$\$ >"$ns/gc"; exec sleep 300.${id}7' >/dev/null 2>&1 &
while [ ! -s "$ns/gc" ]; do sleep 0.01; done
echo v22.1.0
EOF
	chmod 755 "$ns/bin/node"
	"$nsr" env -i PATH="$ns/bin:/usr/bin:/bin" HOME="$TEST_TMPDIR/home" $nocache \
		"$EP_BIN" --json --timeout=60000 "$ns/repo" >"$ns/out" 2>"$ns/err"
	st=$?
	keep_json "$ns/out"
	check "no subreaper: the audit passed (status $st)" [ "$st" = 0 ]
	check "no subreaper: the orphaned grandchild did not outlive the run" \
		[ "$(survivors 300.${id}7)" = 0 ]
	check "no subreaper: nothing to name, it died" grep -q '"unreaped": null' "$ns/out"
elif [ -n "$nsr" ]; then
	skip "without the subreaper: no setsid(1)"
fi
# a grandchild that freezes itself (cgroup v1: SIGKILL waits for the thaw)
# is named in data.unreaped of the check that started it, with the
# subreaper (a stray of ours) and without it (found by its mark)
if [ -n "$v1" ] && mkdir "$v1${v1path%/}/ep-test-$id-gc" 2>/dev/null &&
   command -v setsid >/dev/null 2>&1; then
	cg=$v1${v1path%/}/ep-test-$id-gc
	cat >"$ns/bin/node" <<EOF
#!/bin/sh
rm -f "$ns/gc"
setsid sh -c 'echo \$\$ >"$ns/gc"; echo \$\$ >"$cg/tasks"; echo FROZEN >"$cg/freezer.state"; exec sleep 300.${id}8' >/dev/null 2>&1 &
while [ "\$(cat "$cg/freezer.state")" != FROZEN ]; do sleep 0.01; done
echo v22.1.0
EOF
	chmod 755 "$ns/bin/node"
	for how in subreaper nosubreaper; do
		wrap=
		if [ "$how" = nosubreaper ]; then
			[ -n "$nsr" ] || { skip "a frozen orphan without the subreaper: no seccomp filter here"; continue; }
			wrap=$nsr
		fi
		$wrap env -i PATH="$ns/bin:/usr/bin:/bin" HOME="$TEST_TMPDIR/home" $nocache \
			"$EP_BIN" --json --timeout=60000 "$ns/repo" >"$ns/out" 2>"$ns/err"
		st=$?
		keep_json "$ns/out"
		gc=$(cat "$ns/gc" 2>/dev/null)
		check "frozen orphan ($how): the check still passed (status $st)" [ "$st" = 0 ]
		check "frozen orphan ($how): named in the node check's data.unreaped" \
			sh -c 'tr -d " \n" <"$1" | grep -q "\"unreaped\":\[{\"pid\":$2,\"program\":\"[^\"]*sh\""' _ "$ns/out" "$gc"
		check "frozen orphan ($how): and in its message" \
			grep -q "pid $gc (.*sh) could not be reaped" "$ns/out"
		echo THAWED >"$cg/freezer.state"
		check "frozen orphan ($how): once thawed it dies of the SIGKILL it was sent" \
			[ "$(survivors 300.${id}8)" = 0 ]
	done
	i=0
	while ! rmdir "$cg" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
else
	skip "a frozen orphan named: no writable cgroup v1 freezer here (or no setsid)"
fi

# ---- the non-root cases: as nobody, with setpriv (util-linux) ----
# the binary copied where nobody can reach it (this checkout may be in a
# 0700 home), and the fixtures beside it
asnobody=
if nobody_setup; then
	asnobody=$NOBODY
	nbin=$PUB_BIN
	pub=$PUB
else
	skip "the no-thread case (as nobody): $NOBODY_WHY"
	skip "the unsearchable repository (as nobody): $NOBODY_WHY"
fi

# no worker thread: RLIMIT_NPROC at 1 for a user that has a process
# already (this one) makes every pthread_create and every fork fail
if [ -n "$asnobody" ] && ! command -v prlimit >/dev/null 2>&1; then
	skip "the no-thread case: no prlimit (util-linux)"
elif [ -n "$asnobody" ]; then
	nt=$pub/nothreads
	mkdir -p "$nt/bin" "$nt/repo"
	printf 'A=\n' >"$nt/repo/.env.example"
	printf 'A=1\n' >"$nt/repo/.env"
	printf '{"engines": {"node": ">=20"}}\n' >"$nt/repo/package.json"
	printf '#!/bin/sh\necho v22.0.0\n' >"$nt/bin/node"
	chmod -R a+rX "$nt"
	chmod 755 "$nt/bin/node"
	prlimit --nproc=1:1 $asnobody env -i PATH="$nt/bin:/usr/bin:/bin" HOME="$nt" \
		$nocache LC_ALL=C.UTF-8 "$nbin" --json --timeout=60000 "$nt/repo" \
		>"$TEST_TMPDIR/nothreads.json" 2>/dev/null
	st=$?
	out=$(cat "$TEST_TMPDIR/nothreads.json")
	if printf '%s\n' "$out" | grep -q 'no worker thread could be started'; then
		keep_json "$TEST_TMPDIR/nothreads.json"
		check "no thread: the env check ran and passed: $out" \
			sh -c 'printf "%s\n" "$1" | grep -q "1/1 keys matched"' _ "$out"
		check "no thread: nothing waited out the deadline" \
			sh -c '! printf "%s\n" "$1" | grep -q "deadline passed"' _ "$out"
		check "no thread: the runtime check gives the real cause" \
			sh -c 'printf "%s\n" "$1" | grep -q "could not run .*node --version.*: Resource temporarily unavailable"' _ "$out"
		check "no thread: the hint names the limit" \
			sh -c 'printf "%s\n" "$1" | grep -q "the limit on processes is reached"' _ "$out"
		check "no thread: exit 1 for that error (got $st)" [ "$st" = 1 ]
	else
		skip "the no-thread case: RLIMIT_NPROC did not stop threads here (status $st: $out)"
	fi
fi

# an unsearchable repository directory is blamed, not its first file
if [ -n "$asnobody" ]; then
	ur=$pub/unreadable
	mkdir -p "$ur"
	printf '{"engines": {"node": ">=20"}}\n' >"$ur/package.json"
	for mode in 000 644; do
		chmod $mode "$ur"
		out=$($asnobody env -i PATH=/usr/bin:/bin HOME="$pub" "$nbin" "$ur" 2>&1)
		st=$?
		check "unreadable dir ($mode): exit 2 (got $st)" [ "$st" = 2 ]
		check "unreadable dir ($mode): the directory is named: $out" \
			sh -c 'printf "%s\n" "$1" | grep -q "unreadable: cannot read the directory: Permission denied"' _ "$out"
		out=$($asnobody env -i PATH=/usr/bin:/bin HOME="$pub" "$nbin" --json "$ur" 2>/dev/null)
		check "unreadable dir ($mode): JSON error kind repo-unreadable" \
			sh -c 'printf "%s\n" "$1" | grep -q "\"kind\": \"repo-unreadable\""' _ "$out"
	done
	chmod 711 "$ur"
	out=$($asnobody env -i PATH=/usr/bin:/bin HOME="$pub" "$nbin" --only=runtimes "$ur" 2>&1)
	check "searchable but not listable: audited (exit $?)" \
		sh -c 'printf "%s\n" "$1" | grep -q "Node.js"' _ "$out"
	chmod 755 "$ur"
fi

# ---- PATH not set at all: the system's default search path ----
dp=$(getconf PATH 2>/dev/null)
np=$TEST_TMPDIR/nopath
mkdir -p "$np"
printf 'version: 1\ntools: [sh]\n' >"$np/preflight.yaml"
node_in_dp=
for d in $(printf '%s' "$dp" | tr ':' ' '); do
	[ -x "$d/node" ] && node_in_dp=$d/node && break
done
[ -n "$node_in_dp" ] && printf '{"engines": {"node": ">=0.1"}}\n' >"$np/package.json"
if [ -n "$dp" ]; then
	env -i HOME="$TEST_TMPDIR/home" $nocache LC_ALL=C.UTF-8 "$EP_BIN" --json "$np" \
		>"$TEST_TMPDIR/nopath.json"
	st=$?
	out=$(cat "$TEST_TMPDIR/nopath.json")
	keep_json "$TEST_TMPDIR/nopath.json"
	check "PATH unset: sh found on $dp (exit $st): $out" \
		sh -c 'printf "%s\n" "$1" | grep -q "\"message\": \"found at /"' _ "$out"
	check "PATH unset: the report says so" \
		sh -c 'printf "%s\n" "$1" | grep -q "PATH is not set: looked on the system'"'"'s default search path $2"' _ "$out" "$dp"
	if [ -n "$node_in_dp" ]; then
		check "PATH unset: node found at $node_in_dp" \
			sh -c 'printf "%s\n" "$1" | grep -q "\"path\": \"$2\""' _ "$out" "$node_in_dp"
		check "PATH unset: default_path in the runtime data" \
			sh -c 'printf "%s\n" "$1" | grep -q "\"default_path\": \"$2\""' _ "$out" "$dp"
	else
		skip "PATH unset, the runtime part: no node on $dp"
	fi
	out=$(env -i HOME="$TEST_TMPDIR/home" $nocache LC_ALL=C.UTF-8 "$EP_BIN" --only=tools "$np")
	check "PATH set but empty is not unset" \
		sh -c 'env -i PATH= HOME="$3" "$2" --only=tools "$1" | grep -q "not found on PATH"' _ "$np" "$EP_BIN" "$TEST_TMPDIR/home"
else
	skip "PATH unset: getconf PATH says nothing here"
fi

# ---- no /dev/null (a bare sandbox): nothing is blamed on the runtime ----
dn=$TEST_TMPDIR/devnull
bin=$dn/bin
mkdir -p "$bin" "$dn/repo"
printf '#!/bin/sh\necho v22.0.0\n' >"$bin/node"
chmod 755 "$bin/node"
printf '{"engines": {"node": ">=20"}}\n' >"$dn/repo/package.json"
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null 2>&1 &&
   unshare -m sh -c 'mount -t tmpfs tmpfs /dev && [ ! -e /dev/null ]' 2>/dev/null; then
	out=$(unshare -m sh -c 'mount -t tmpfs tmpfs /dev && exec "$@"' _ \
		env -i PATH="$bin:/usr/bin:/bin" HOME="$TEST_TMPDIR/home" $nocache \
		LC_ALL=C.UTF-8 "$EP_BIN" "$dn/repo" 2>&1)
	check "no /dev/null: the runtime answers (exit $?): $out" \
		sh -c 'printf "%s\n" "$1" | grep -q "v22.0.0 (satisfies >=20"' _ "$out"
	check "no /dev/null: ours is untouched" [ -c /dev/null ]
else
	skip "no /dev/null: cannot hide it here (needs root and unshare -m)"
fi

finish
