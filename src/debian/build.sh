#!/bin/sh
# src/debian/build.sh VERSION WORKDIR OUTDIR MAINTAINER - what `make deb` runs:
# OUTDIR/envpreflight_VERSION_ARCH.deb, from a release build installed into
# a staging tree by `make install DESTDIR=...` (the binary, the man page, the
# three shell completions, the JSON Schema), plus what Debian wants beside
# them: the copyright file in Debian's machine-readable format (made from
# LICENSE), the changelog, the md5sums, and a control file whose Depends: is
# computed from the binary by dpkg-shlibdeps.
#
# The package is native (version without a Debian revision) and built
# without root: dpkg-deb --root-owner-group owns every file by root.  The
# times in it are SOURCE_DATE_EPOCH's (default: the last commit's), so that
# two builds of one commit give the same package.
set -eu
version=$1
work=$2
outdir=$3
maintainer=$4
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/src/debian

# each tool with the Debian package that has it (dpkg is essential, so
# what a machine lacks is in practice dpkg-dev)
for tool in dpkg-deb:dpkg dpkg-shlibdeps:dpkg-dev dpkg-buildflags:dpkg-dev \
	dpkg-architecture:dpkg-dev strip:binutils; do
	command -v "${tool%%:*}" >/dev/null 2>&1 || {
		echo "make deb: ${tool%%:*} is missing (apt-get install ${tool#*:}, or make deps as root)" >&2
		exit 1
	}
done
case $version in
'' | *[!0-9A-Za-z.+~]*)
	echo "make deb: '$version' is not a version (read from include/version.h)" >&2
	exit 1
	;;
esac
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
umask 022
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
	SOURCE_DATE_EPOCH=$(git -C "$top" log -1 --format=%ct 2>/dev/null || date +%s)
fi
export SOURCE_DATE_EPOCH
mkdir -p "$work"
work=$(cd "$work" && pwd)
stage=$work/stage
rm -rf "$stage"

# the release build: Debian's flags with every hardening feature (PIE,
# stack protector, _FORTIFY_SOURCE, relro and bindnow), in its own build
# directory so that ./envpreflight and build/ are left alone
export DEB_BUILD_MAINT_OPTIONS=hardening=+all
make -C "$top" -s BUILD="$work/obj" \
	CFLAGS="$(dpkg-buildflags --get CFLAGS)" CPPFLAGS="$(dpkg-buildflags --get CPPFLAGS)" \
	LDFLAGS="$(dpkg-buildflags --get LDFLAGS)" \
	install DESTDIR="$stage" PREFIX=/usr ZSHCOMPDIR=/usr/share/zsh/vendor-completions

# what dh_strip and dh_installman would do: no debug symbols (there is no
# -dbgsym package), the man page compressed
strip --remove-section=.comment --remove-section=.note --strip-unneeded \
	"$stage/usr/bin/envpreflight"
gzip -9n "$stage/usr/share/man/man1/envpreflight.1"

# lintian: the runtimes probe reads dpkg's file list of nodejs (read-only,
# never written) to tell whether Debian's node came without npm, so that
# the hint for a missing npm can name `apt-get install npm`; asking
# dpkg-query would mean running a program for it
install -d "$stage/usr/share/lintian/overrides"
printf '%s\n' "envpreflight: uses-dpkg-database-directly [usr/bin/envpreflight]" \
	>"$stage/usr/share/lintian/overrides/envpreflight"

# /usr/share/doc/envpreflight: copyright (LICENSE in Debian's format) and
# the changelog a native package has
doc=$stage/usr/share/doc/envpreflight
install -d "$doc"
holder=$(sed -n 's/^Copyright (c) //p' "$top/LICENSE" | head -n 1)
[ -n "$holder" ] || { echo "make deb: no 'Copyright (c)' line in LICENSE" >&2; exit 1; }
{
	sed "s|@COPYRIGHT@|$holder|" "$here/copyright.in"
	# the license text after the copyright line, each line indented by one
	# space and a blank line written " ."
	sed '1,/^Copyright (c) /d' "$top/LICENSE" | sed '/./,$!d' |
		sed -e 's/^$/./' -e 's/^/ /'
} >"$doc/copyright"
date=$(date -u -R -d "@$SOURCE_DATE_EPOCH")
sed -e "s|@VERSION@|$version|g" -e "s|@MAINTAINER@|$maintainer|" -e "s|@DATE@|$date|" \
	"$here/changelog.in" | gzip -9n >"$doc/changelog.gz"
chmod 0644 "$doc/copyright" "$doc/changelog.gz"

# Depends: from the libraries the binary links, as dpkg-shlibdeps finds
# them (it wants a debian/control to read, so it gets a minimal one)
src=$work/shlibdeps
rm -rf "$src"
mkdir -p "$src/debian"
printf 'Source: envpreflight\n\nPackage: envpreflight\nArchitecture: any\n' >"$src/debian/control"
depends=$(cd "$src" && dpkg-shlibdeps -O "-e$stage/usr/bin/envpreflight" 2>"$work/shlibdeps.err" |
	sed -n 's/^shlibs:Depends=//p') || true
if [ -z "$depends" ]; then
	echo "make deb: dpkg-shlibdeps found no dependency:" >&2
	cat "$work/shlibdeps.err" >&2
	exit 1
fi

install -d -m 0755 "$stage/DEBIAN"
(cd "$stage" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum) >"$stage/DEBIAN/md5sums"
size=$(du -sk --apparent-size "$stage/usr" | cut -f1)
sed -e "s|@VERSION@|$version|" -e "s|@ARCH@|$arch|" -e "s|@MAINTAINER@|$maintainer|" \
	-e "s|@INSTALLED_SIZE@|$size|" -e "s|@DEPENDS@|$depends|" \
	"$here/control.in" >"$stage/DEBIAN/control"
chmod 0644 "$stage/DEBIAN/control" "$stage/DEBIAN/md5sums"

mkdir -p "$outdir"
deb=$outdir/envpreflight_${version}_$arch.deb
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null
echo "make deb: $deb (Depends: $depends)"
