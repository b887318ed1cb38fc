#!/bin/sh
# install.sh - make install lays the files out where each tool looks for
# them: the binary, the man page (its footer naming the version of
# include/version.h), the bash completion where bash-completion loads it
# on demand, the zsh one in site-functions, the fish one in
# vendor_completions.d, the JSON Schema; and each shell finds its completion
# in the installed tree.  make deb's layout (/usr, Debian's zsh directory)
# is tests/deb.sh's.
. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${EP_BUILD:-$top/build}
version=$(sed -n 's/^#define EP_VERSION "\(.*\)"$/\1/p' "$top/include/version.h")
check "include/version.h says the version ($version)" [ -n "$version" ]

# make install from the build under test, never rebuilding its binary
# (-o: an ASan build stays one); a make that runs us passes no jobserver
dest=$TEST_TMPDIR/dest
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$top" BUILD="$build" \
	-o "$build/envpreflight" install DESTDIR="$dest" >"$TEST_TMPDIR/install.log" 2>&1
check "make install DESTDIR=...: $(tr '\n' ';' <"$TEST_TMPDIR/install.log")" [ $? = 0 ]
p=$dest/usr/local
for f in "bin/envpreflight 755" "share/man/man1/envpreflight.1 644" \
	"share/bash-completion/completions/envpreflight 644" \
	"share/zsh/site-functions/_envpreflight 644" \
	"share/fish/vendor_completions.d/envpreflight.fish 644" \
	"share/envpreflight/envpreflight-1.schema.json 644"; do
	set -- $f
	got=$(stat -c %a "$p/$1" 2>/dev/null)
	check "PREFIX/$1, mode $2 ($got)" [ "$got" = "$2" ]
done
got=$("$p/bin/envpreflight" --version 2>&1)
check "the installed binary: $got" [ "$got" = "envpreflight $version" ]
check "the man page's footer names $version" \
	grep -q "^\.TH ENVPREFLIGHT 1 \".*\" \"envpreflight $version\" " "$p/share/man/man1/envpreflight.1"
sed 1d "$top/man/envpreflight.1" >"$TEST_TMPDIR/man.src"
sed 1d "$p/share/man/man1/envpreflight.1" >"$TEST_TMPDIR/man.installed"
check "the man page is the source's but for its footer" \
	cmp -s "$TEST_TMPDIR/man.src" "$TEST_TMPDIR/man.installed"
check "the installed schema is --schema's" sh -c \
	"'$EP_BIN' --schema | cmp -s - '$p/share/envpreflight/envpreflight-1.schema.json'"
# the directories are make's variables: PREFIX and one overridden
dest2=$TEST_TMPDIR/dest2
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$top" BUILD="$build" \
	-o "$build/envpreflight" install DESTDIR="$dest2" PREFIX=/usr \
	FISHCOMPDIR=/etc/fish/completions >/dev/null 2>&1
check "PREFIX=/usr FISHCOMPDIR=...: where they say" sh -c \
	"[ -x '$dest2/usr/bin/envpreflight' ] && [ -f '$dest2/usr/share/zsh/site-functions/_envpreflight' ] &&
	 [ -f '$dest2/etc/fish/completions/envpreflight.fish' ] &&
	 [ ! -e '$dest2/usr/share/fish/vendor_completions.d/envpreflight.fish' ]"

# each shell finds the completion where it was installed, as on a machine
# where PREFIX/share is a data directory (XDG_DATA_DIRS) or in zsh's fpath
# (fish without --no-config, which leaves out every completion directory)
bashcomp=/usr/share/bash-completion/bash_completion
if [ -f "$bashcomp" ]; then
	got=$(env -i PATH="$p/bin:/usr/bin:/bin" XDG_DATA_DIRS="$p/share" \
		BASH_COMPLETION_USER_DIR="$TEST_TMPDIR/none" bash --norc --noprofile -c \
		'. "$0"; __load_completion envpreflight && complete -p envpreflight' "$bashcomp" 2>/dev/null)
	check "bash-completion loads it from PREFIX/share ($got)" \
		[ "$got" = "complete -F _envpreflight envpreflight" ]
else
	not_ok "bash-completion is missing (apt-get install bash-completion)"
fi
if command -v zsh >/dev/null; then
	got=$(env -i PATH=/usr/bin:/bin HOME="$TEST_TMPDIR/home" zsh -f -c "
		fpath=('$p/share/zsh/site-functions' \$fpath)
		autoload -Uz compinit && compinit -u -D -d '$TEST_TMPDIR/zcompdump'
		print -r -- \$_comps[envpreflight]" 2>&1)
	check "zsh's compinit finds it in site-functions ($got)" [ "$got" = _envpreflight ]
else
	not_ok "zsh is missing (apt-get install zsh)"
fi
if command -v fish >/dev/null; then
	got=$(env -i PATH="$p/bin:/usr/bin:/bin" HOME="$TEST_TMPDIR/home" \
		XDG_CONFIG_HOME="$TEST_TMPDIR/xdg" XDG_DATA_HOME="$TEST_TMPDIR/data" \
		XDG_DATA_DIRS="$p/share" fish -c 'complete -C "envpreflight --fo"' 2>&1 | cut -f1)
	check "fish finds it in vendor_completions.d ($got)" [ "$got" = --format ]
else
	not_ok "fish is missing (apt-get install fish)"
fi
finish
