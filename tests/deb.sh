#!/bin/sh
# tests/deb.sh VERSION DIR - the package make deb built (make check-deb runs
# this): named and versioned from include/version.h, Depends: naming the
# package of every library the binary links, installed with dpkg into a
# throw-away root (dpkg --root, its own database) where the binary runs, the
# man page renders and the completions load from where they landed; removed
# cleanly; lintian finds no error or warning; the copyright file holds
# LICENSE; make deb without its tools says what to install.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
version=$1
arch=$(dpkg --print-architecture)
deb=$2/envpreflight_${version}_$arch.deb
case $deb in /*) ;; *) deb=$top/$deb ;; esac

check "the version is read from include/version.h ($version)" \
	grep -qx "#define EP_VERSION \"$version\"" "$top/include/version.h"
check "make deb wrote $deb" [ -s "$deb" ]
field() { dpkg-deb -f "$deb" "$1"; }
check "Package: envpreflight" [ "$(field Package)" = envpreflight ]
check "Version: $version" [ "$(field Version)" = "$version" ]
check "Architecture: $arch" [ "$(field Architecture)" = "$arch" ]

# Depends: names the package of every library the binary needs (as
# dpkg-shlibdeps computed it, not a list written by hand)
x=$TEST_TMPDIR/x
dpkg-deb -x "$deb" "$x"
depends=$(field Depends)
ldd "$x/usr/bin/envpreflight" | sed -n 's/^[[:space:]]*\([^ ]*\) => \(\/[^ ]*\) .*/\1 \2/p' |
while read -r lib path; do
	# the path as the loader found it, or as the package ships it (usrmerge)
	pkg=$(dpkg -S "$path" 2>/dev/null || dpkg -S "$(readlink -f "$path")" 2>/dev/null ||
		dpkg -S "${path#/usr}" 2>/dev/null)
	pkg=$(printf '%s\n' "$pkg" | sed -n '1s/:.*//p')
	[ -n "$pkg" ] || { echo "no package holds $lib"; continue; }
	printf '%s\n' "$depends" | tr ',' '\n' | sed 's/^ *//; s/ .*//' | grep -qx "$pkg" ||
		echo "Depends: lacks $pkg (for $lib)"
done >"$TEST_TMPDIR/deps"
check "Depends: ($depends) covers every NEEDED library: $(tr '\n' ';' <"$TEST_TMPDIR/deps")" \
	[ ! -s "$TEST_TMPDIR/deps" ]
check "Depends: has the four libraries" sh -c \
	"printf '%s' '$depends' | grep -q libcjson && printf '%s' '$depends' | grep -q libinih &&
	 printf '%s' '$depends' | grep -q libyaml && printf '%s' '$depends' | grep -q zlib1g"

# what is in it: every file make install puts there, root-owned
dpkg-deb -c "$deb" >"$TEST_TMPDIR/contents"
for f in usr/bin/envpreflight usr/share/man/man1/envpreflight.1.gz \
	usr/share/bash-completion/completions/envpreflight \
	usr/share/zsh/vendor-completions/_envpreflight \
	usr/share/fish/vendor_completions.d/envpreflight.fish \
	usr/share/envpreflight/envpreflight-1.schema.json \
	usr/share/doc/envpreflight/copyright usr/share/doc/envpreflight/changelog.gz; do
	check "the package holds /$f" grep -q " \./$f\$" "$TEST_TMPDIR/contents"
done
check "every file is root's" [ -z "$(awk '$2 != "root/root"' "$TEST_TMPDIR/contents")" ]

# the copyright file: Debian's format, LICENSE's text in it
cr=$x/usr/share/doc/envpreflight/copyright
check "copyright: machine-readable format" \
	grep -qx 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' "$cr"
check "copyright: the holder of LICENSE" grep -qx \
	"Copyright: $(sed -n 's/^Copyright (c) //p' "$top/LICENSE")" "$cr"
sed -n '/^License: Expat$/,$p' "$cr" | sed '1d' | sed -e 's/^ //' -e 's/^\.$//' >"$TEST_TMPDIR/license"
sed '1,/^Copyright (c) /d' "$top/LICENSE" | sed '/./,$!d' >"$TEST_TMPDIR/license.want"
check "copyright: the license text is LICENSE's" cmp -s "$TEST_TMPDIR/license" "$TEST_TMPDIR/license.want"

# ---- installed by dpkg into a throw-away root with its own database; the
# libraries come from this machine, so their packages' absence from that
# database is forced past
root=$TEST_TMPDIR/root
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
: >"$root/var/lib/dpkg/status"
dpkg() { command dpkg --root="$root" --force-not-root --force-depends --log=/dev/null "$@"; }
dpkg -i "$deb" >"$TEST_TMPDIR/install.log" 2>&1
check "dpkg --root -i: installed ($(tail -n 3 "$TEST_TMPDIR/install.log" | tr '\n' ';'))" [ $? = 0 ]
check "dpkg --root -s: install ok installed" \
	sh -c "dpkg-query --admindir='$root/var/lib/dpkg' -W -f='\${Status} \${Version}' envpreflight |
	       grep -qx 'install ok installed $version'"
bin=$root/usr/bin/envpreflight
got=$("$bin" --version 2>&1)
check "the installed envpreflight --version: $got" [ "$got" = "envpreflight $version" ]
got=$("$bin" --json --only=tools "$top/examples/webapp" 2>/dev/null |
	python3 -c 'import json, sys; print(json.load(sys.stdin)["run"]["version"])')
check "the installed envpreflight audits (run.version $got)" [ "$got" = "$version" ]
"$bin" --schema >"$TEST_TMPDIR/schema.json"
check "--schema prints the installed schema" \
	cmp -s "$TEST_TMPDIR/schema.json" "$root/usr/share/envpreflight/envpreflight-1.schema.json"
if command -v man >/dev/null; then
	got=$(MANWIDTH=80 man -l "$root/usr/share/man/man1/envpreflight.1.gz" 2>/dev/null | head -n 5 | tr -s ' \n' ' ')
	check "the installed man page renders ($got)" sh -c "printf '%s' '$got' | grep -q 'envpreflight'"
fi
zcat "$root/usr/share/man/man1/envpreflight.1.gz" | head -n 1 >"$TEST_TMPDIR/th"
check "the man page's footer names $version ($(cat "$TEST_TMPDIR/th"))" \
	grep -qF "\"envpreflight $version\"" "$TEST_TMPDIR/th"
bashcomp=/usr/share/bash-completion/bash_completion
if [ -f "$bashcomp" ]; then
	got=$(env -i PATH="$root/usr/bin:/usr/bin:/bin" XDG_DATA_DIRS="$root/usr/share" \
		BASH_COMPLETION_USER_DIR=/nonexistent bash --norc --noprofile -c \
		'. "$0"; __load_completion envpreflight && complete -p envpreflight' "$bashcomp" 2>/dev/null)
	check "bash-completion loads the installed completion ($got)" \
		[ "$got" = "complete -F _envpreflight envpreflight" ]
fi
if command -v zsh >/dev/null; then
	got=$(env -i PATH=/usr/bin:/bin zsh -f -c "fpath=('$root/usr/share/zsh/vendor-completions' \$fpath)
		autoload -Uz compinit && compinit -u -D -d '$TEST_TMPDIR/zcompdump' && print -r -- \$_comps[envpreflight]" 2>&1)
	check "zsh's compinit finds the installed completion ($got)" [ "$got" = _envpreflight ]
	# compinit rewrites the dump file it is given: never /dev/null
	check "zsh: /dev/null is still the device" [ -c /dev/null ]
fi
if command -v fish >/dev/null; then
	got=$(env -i PATH="$root/usr/bin:/usr/bin:/bin" HOME="$TEST_TMPDIR" XDG_CONFIG_HOME="$TEST_TMPDIR/xdg" XDG_DATA_DIRS="$root/usr/share" \
		fish -c 'complete -C "envpreflight --fo"' 2>&1 | cut -f1)
	check "fish finds the installed completion ($got)" [ "$got" = --format ]
fi
dpkg -r envpreflight >"$TEST_TMPDIR/remove.log" 2>&1
check "dpkg --root -r: removed ($(tail -n 2 "$TEST_TMPDIR/remove.log" | tr '\n' ';'))" [ $? = 0 ]
left=$(cd "$root" && find usr -type f 2>/dev/null)
check "nothing is left behind: $left" [ -z "$left" ]

# ---- lintian: no error, no warning
if command -v lintian >/dev/null; then
	lintian --tag-display-limit 0 "$deb" >"$TEST_TMPDIR/lintian" 2>&1
	st=$?
	grep -v 'running with root privileges' "$TEST_TMPDIR/lintian" | sed 's/^/    /'
	check "lintian: exit 0 ($st)" [ $st = 0 ]
	check "lintian: no error or warning" [ -z "$(grep -E '^[EW]: ' "$TEST_TMPDIR/lintian")" ]
else
	not_ok "lintian is missing (make deps installs it)"
fi

# ---- without its tools, make deb says what to install: a machine with
# dpkg (essential) and binutils, without dpkg-dev
mkdir -p "$TEST_TMPDIR/nobin"
for t in dirname dpkg dpkg-deb strip; do
	ln -s "$(command -v $t)" "$TEST_TMPDIR/nobin/$t"
done
PATH=$TEST_TMPDIR/nobin /bin/sh "$top/src/debian/build.sh" "$version" "$TEST_TMPDIR/w" "$TEST_TMPDIR/o" \
	'x <x@example.org>' >/dev/null 2>"$TEST_TMPDIR/nodpkg.err"
check "no dpkg-dev: exit 1" [ $? = 1 ]
check "no dpkg-dev: says what to install ($(cat "$TEST_TMPDIR/nodpkg.err"))" \
	grep -q '^make deb: dpkg-shlibdeps is missing (apt-get install dpkg-dev, or make deps as root)$' \
	"$TEST_TMPDIR/nodpkg.err"
check "no dpkg-dev: nothing built" sh -c "[ ! -e '$TEST_TMPDIR/w' ] && [ ! -e '$TEST_TMPDIR/o' ]"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	# not root: the missing package named, with the command to run
	setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/nonexistent \
		make -s -C "$top" deps-deb DEPS_PKG=no-such-package-envpreflight \
		>"$TEST_TMPDIR/deps.out" 2>&1
	check "make deps-deb, not root, a package missing: exit 2 (make's)" [ $? = 2 ]
	check "make deps-deb: the sudo line ($(cat "$TEST_TMPDIR/deps.out" | head -n 1))" \
		grep -q 'run: sudo apt-get install no-such-package-envpreflight' "$TEST_TMPDIR/deps.out"
fi
finish
