#!/bin/sh
# makefile.sh - the two README commands on a machine without the
# libraries, without touching this one: a copy of the tree, and on PATH a
# fake dpkg-query, apt-get, id, sudo and pkg-config over one "installed"
# flag, with CC a fake compiler that refuses a compile lacking the
# libraries' flags.  It guards the order that failed on a fresh Debian:
# make read pkg-config's answer before its own deps rule had installed
# pkg-config, and the first make run stopped at cJSON.h.
# tests/fresh/run.sh does the same on a real fresh Debian root.
. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)

tree=$TEST_TMPDIR/tree
fake=$TEST_TMPDIR/fake
state=$TEST_TMPDIR/state
mkdir -p "$tree" "$fake" "$state"
cp -R "$top/Makefile" "$top/src" "$top/include" "$top/examples" "$tree/"
rm -f "$tree/examples/webapp/.env"
real_pkgconfig=$(command -v pkg-config)

# dpkg-query -W -f=... PKG: installed once apt-get ran
cat >"$fake/dpkg-query" <<EOF
#!/bin/sh
[ -f "$state/installed" ] && printf 'install ok installed'
EOF
# apt-get: logs its words; FAKE_APT=fail answers as apt does offline
cat >"$fake/apt-get" <<EOF
#!/bin/sh
echo "\$*" >>"$state/apt.log"
case \$* in update*) exit 0 ;; esac
if [ "\${FAKE_APT:-}" = fail ]; then
	echo "E: Failed to fetch http://deb.invalid/pool/x.deb  Temporary failure resolving 'deb.invalid'"
	exit 100
fi
touch "$state/installed"
EOF
cat >"$fake/id" <<EOF
#!/bin/sh
echo "\${FAKE_UID:-0}"
EOF
# sudo -n: no password-less sudo here
cat >"$fake/sudo" <<EOF
#!/bin/sh
echo "sudo \$*" >>"$state/sudo.log"
exit 1
EOF
# pkg-config: nothing until installed; then the real one's answer and a
# mark that the fake compiler looks for
cat >"$fake/pkg-config" <<EOF
#!/bin/sh
[ -f "$state/installed" ] || exit 1
case \$* in *--cflags*) echo "-DEP_LIBS_FOUND \$("$real_pkgconfig" "\$@")"; exit 0 ;; esac
exec "$real_pkgconfig" "\$@"
EOF
# cc: a compile must carry the libraries' flags; outputs are empty files,
# the linked program a script that says it ran
cat >"$fake/cc" <<EOF
#!/bin/sh
out= compile=0 flags=0 prev=
for a in "\$@"; do
	[ "\$prev" = -o ] && out=\$a
	case \$a in -c) compile=1 ;; -DEP_LIBS_FOUND) flags=1 ;; esac
	prev=\$a
done
if [ \$compile = 1 ] && [ \$flags = 0 ]; then
	echo "cc: compiled without the libraries' flags: \$*" >&2
	echo x >>"$state/unflagged"
	exit 1
fi
if [ \$compile = 1 ]; then : >"\$out"; exit 0; fi
printf '#!/bin/sh\necho fake audit of "\$1"\nexit 1\n' >"\$out" && chmod +x "\$out"
EOF
chmod +x "$fake"/*

# mk LOG TARGET... with the fakes first on PATH, nothing of a calling make
mk() {
	mk_log=$1
	shift
	env -i PATH="$fake:/usr/bin:/bin" HOME="$TEST_TMPDIR/home" TMPDIR="$TEST_TMPDIR" \
		FAKE_APT="${FAKE_APT:-}" FAKE_UID="${FAKE_UID:-0}" \
		make -C "$tree" CC="$fake/cc" "$@" >"$mk_log" 2>&1 </dev/null
}
objects() { find "$tree/build" -name '*.o' 2>/dev/null | wc -l; }

# make alone, no libraries: says what to run, builds nothing
mk "$TEST_TMPDIR/all.log"
st=$?
check "make without the libraries fails (status $st)" [ "$st" != 0 ]
check "and says to run make deps-build: $(tr '\n' ' ' <"$TEST_TMPDIR/all.log")" \
	grep -q "run 'make deps-build'" "$TEST_TMPDIR/all.log"
check "and compiles nothing ($(objects) objects)" [ "$(objects)" = 0 ]
check "nor installs anything" [ ! -f "$state/apt.log" ]

# a user who is not root and cannot sudo without a password (no terminal)
FAKE_UID=1000 mk "$TEST_TMPDIR/user.log" run
st=$?
check "make run as a user without sudo rights fails (status $st)" [ "$st" != 0 ]
check "and prints the one line to run: $(tr '\n' ' ' <"$TEST_TMPDIR/user.log")" \
	grep -q "run: sudo apt-get install gcc libc6-dev pkg-config libcjson-dev libinih-dev libyaml-dev zlib1g-dev$" \
	"$TEST_TMPDIR/user.log"
check "and asked sudo only whether it needs a password" \
	sh -c "[ \"\$(cat '$state/sudo.log')\" = 'sudo -n true' ]"
check "and compiles nothing" [ "$(objects)" = 0 ]

# root, offline: the install fails, names the packages, leaves nothing
FAKE_APT=fail mk "$TEST_TMPDIR/offline.log" run
st=$?
check "make run offline fails (status $st)" [ "$st" != 0 ]
check "and names the packages: $(tr '\n' ' ' <"$TEST_TMPDIR/offline.log")" \
	grep -q "could not install: gcc libc6-dev pkg-config libcjson-dev libinih-dev libyaml-dev zlib1g-dev" \
	"$TEST_TMPDIR/offline.log"
check "and shows apt's own error" grep -q "deps:   E: Failed to fetch" "$TEST_TMPDIR/offline.log"
check "and compiles nothing" [ "$(objects)" = 0 ]

# root, online: the first make run installs, then builds with the flags
rm -f "$state/apt.log"
mk "$TEST_TMPDIR/run.log" run
st=$?
check "make run passes on its first run with the network (status $st): $(tail -n 3 "$TEST_TMPDIR/run.log" | tr '\n' ' ')" \
	[ "$st" = 0 ]
check "every compile had the libraries' flags" [ ! -f "$state/unflagged" ]
check "and the example was audited" grep -q "fake audit of examples/webapp" "$TEST_TMPDIR/run.log"
check "make run installs what building needs, no test tool: $(grep install "$state/apt.log" | tr '\n' ' ')" \
	grep -qx "install -y -q --no-install-recommends gcc libc6-dev pkg-config libcjson-dev libinih-dev libyaml-dev zlib1g-dev" \
	"$state/apt.log"

# every target that installs builds in a make of its own, after the
# install: its prerequisites are install targets only
bad=$(sed -n 's/^\([a-z-]*\):\(.*\<deps[a-z-]*\>.*\)$/\1:\2/p' "$top/Makefile" |
	while IFS=: read -r t pre; do
		for p in $pre; do
			case $p in deps|deps-*|npm-deps|fuzz-build|deb) ;; *) echo "$t needs $p" ;; esac
		done
	done)
check "no target builds beside an install in the same make: $bad" [ -z "$bad" ]
finish
