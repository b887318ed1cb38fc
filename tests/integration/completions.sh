#!/bin/sh
# completions.sh - the shell completions in src/completions/: bash (with
# bash-completion loaded, the completion function driven as readline would:
# COMP_WORDS, COMP_CWORD, COMP_LINE, COMP_POINT, then COMPREPLY read back),
# fish (complete -C) and zsh (typed into on a pseudo-terminal); probe names come from
# --list-probes when asked; and every option of --help, every format of the
# schema and both subcommands are in all three files.
. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
comp=$top/src/completions

# envpreflight on PATH, as a user has it; a directory tree to complete in
bin=$TEST_TMPDIR/bin
mkdir -p "$bin" "$TEST_TMPDIR/tree/examples" "$TEST_TMPDIR/tree/apps/web"
ln -s "$EP_BIN" "$bin/envpreflight"
: >"$TEST_TMPDIR/tree/extra.txt"
probes=$("$EP_BIN" --list-probes | sed 's/ .*//' | sort | tr '\n' ' ')
# the formats, from the schema's enum that lists them (run.options.format)
formats=$("$EP_BIN" --schema | py -c '
import json, sys
def enums(o):
    if isinstance(o, dict):
        if "junit" in o.get("enum", []):
            yield o["enum"]
        for v in o.values():
            yield from enums(v)
    elif isinstance(o, list):
        for v in o:
            yield from enums(v)
print(" ".join(sorted(next(enums(json.load(sys.stdin))))))')
check "the schema lists the formats ($formats)" [ -n "$formats" ]

# ---- bash, with bash-completion loaded as an interactive shell has it
bashcomp=/usr/share/bash-completion/bash_completion
if [ -f "$bashcomp" ] && command -v bash >/dev/null; then
	# the completion is found the way bash-completion finds it, in an
	# installed tree (XDG_DATA_DIRS), laid out as make install does
	share=$TEST_TMPDIR/share
	mkdir -p "$share/bash-completion/completions"
	cp "$comp/envpreflight.bash" "$share/bash-completion/completions/envpreflight"
	# bcomp LINE WORD...: the candidates for the last word (the one
	# being completed, maybe empty), sorted, space-separated; LINE as
	# typed, the words as readline splits it ('=' breaks words:
	# "--only=" is --only, =, "")
	bcomp() {
		(cd "$TEST_TMPDIR/tree" && env -i PATH="$bin:/usr/bin:/bin" HOME="$TEST_TMPDIR/home" \
			XDG_DATA_DIRS="$share" BASH_COMPLETION_USER_DIR="$TEST_TMPDIR/none" \
			bash --norc --noprofile -c '
			. "$0" || exit 3
			__load_completion envpreflight || exit 4
			complete -p envpreflight >/dev/null || exit 5
			COMP_LINE=$1
			COMP_POINT=${#COMP_LINE}
			shift
			COMP_WORDS=("$@")
			COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
			_envpreflight envpreflight "${COMP_WORDS[COMP_CWORD]}" \
				"${COMP_WORDS[COMP_CWORD-1]}"
			printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' "$bashcomp" "$@" 2>/dev/null)
	}
	got=$(bcomp 'envpreflight --fo' envpreflight --fo)
	check "bash: --fo<Tab> is --format= ($got)" [ "$got" = "--format= " ]
	got=$(bcomp 'envpreflight --only=' envpreflight --only = "")
	check "bash: --only=<Tab> lists the probes ($got; want $probes)" [ "$got" = "$probes" ]
	got=$(bcomp 'envpreflight --skip=s' envpreflight --skip = "s")
	check "bash: --skip=s<Tab> ($got)" [ "$got" = "sandbox " ]
	got=$(bcomp 'envpreflight --only=env,po' envpreflight --only = "env,po")
	check "bash: --only=env,po<Tab> keeps env ($got)" [ "$got" = "env,ports " ]
	got=$(bcomp 'envpreflight --format=' envpreflight --format = "")
	check "bash: --format=<Tab> lists the formats ($got)" [ "$got" = "$formats " ]
	got=$(bcomp 'envpreflight -f t' envpreflight -f "t")
	check "bash: -f t<Tab> ($got)" [ "$got" = "tap tap13 " ]
	got=$(bcomp 'envpreflight ' envpreflight "")
	check "bash: the first word: directories and the subcommands ($got)" \
		[ "$got" = "apps examples init mcp " ]
	got=$(bcomp 'envpreflight --strict ' envpreflight --strict "")
	check "bash: after an option, directories only ($got)" [ "$got" = "apps examples " ]
	got=$(bcomp 'envpreflight --workspace=ap' envpreflight --workspace = "ap")
	check "bash: --workspace=<Tab> completes directories ($got)" [ "$got" = "apps " ]
	got=$(bcomp 'envpreflight --w' envpreflight --w)
	check "bash: --w<Tab> ($got)" [ "$got" = "--wait= --workspace= " ]
	got=$(bcomp 'envpreflight --wait=' envpreflight --wait = "")
	# (no candidate: printf's one empty line, a lone space here)
	check "bash: --wait=<Tab> offers nothing to pick ($got)" [ "$got" = " " ]
	got=$(bcomp 'envpreflight --no-w' envpreflight --no-w)
	check "bash: --no-w<Tab> ($got)" [ "$got" = "--no-workspaces " ]
	got=$(bcomp 'envpreflight init --s' envpreflight init --s)
	check "bash: init --s<Tab> ($got)" [ "$got" = "--snapshot --stdout " ]
	got=$(bcomp 'envpreflight init --format=' envpreflight init --format = "")
	check "bash: init --format=<Tab> ($got)" [ "$got" = "human json " ]
	got=$(bcomp 'envpreflight mcp --' envpreflight mcp --)
	check "bash: mcp --<Tab> ($got)" [ "$got" = "--allow-dir= --help --no-config " ]
	got=$(bcomp 'envpreflight mcp --allow-dir=e' envpreflight mcp --allow-dir = "e")
	check "bash: mcp --allow-dir=<Tab> completes directories ($got)" [ "$got" = "examples " ]
	# a probe added to the binary is offered with no edit of the completion
	fake=$TEST_TMPDIR/fake
	mkdir -p "$fake"
	printf '#!/bin/sh\n[ "$1" = --list-probes ] && printf "%%-10s %%s\\n" env "dot env" brandnew "a new probe"\n' \
		>"$fake/envpreflight"
	chmod +x "$fake/envpreflight"
	got=$(bin=$fake bcomp 'envpreflight --only=' envpreflight --only = "")
	check "bash: a new probe needs no edit ($got)" [ "$got" = "brandnew env " ]
else
	not_ok "bash-completion is missing (apt-get install bash-completion)"
fi

# ---- fish: complete -C asks the completions as the shell would
if command -v fish >/dev/null; then
	fcomp() {
		(cd "$TEST_TMPDIR/tree" && env -i PATH="$bin:/usr/bin:/bin" HOME="$TEST_TMPDIR/home" \
			XDG_CONFIG_HOME="$TEST_TMPDIR/xdg" XDG_DATA_HOME="$TEST_TMPDIR/data" \
			fish --no-config -c "source '$comp/envpreflight.fish'; complete -C '$1'" |
			sed 's/\t.*//' | sort | tr '\n' ' ')
	}
	got=$(fcomp 'envpreflight --fo')
	check "fish: --fo<Tab> ($got)" [ "$got" = "--format " ]
	got=$(fcomp 'envpreflight --only=')
	want=$(for p in $probes; do printf -- '--only=%s ' "$p"; done)
	check "fish: --only=<Tab> lists the probes ($got)" [ "$got" = "$want" ]
	got=$(fcomp 'envpreflight --only=env,po')
	check "fish: --only=env,po<Tab> keeps env ($got)" [ "$got" = "--only=env,ports " ]
	got=$(fcomp 'envpreflight --format=tap')
	check "fish: --format=tap<Tab> ($got)" [ "$got" = "--format=tap --format=tap13 " ]
	got=$(fcomp 'envpreflight ')
	check "fish: the first word: directories and the subcommands ($got)" \
		[ "$got" = "apps/ examples/ init mcp " ]
	got=$(fcomp 'envpreflight --wa')
	check "fish: --wa<Tab> ($got)" [ "$got" = "--wait " ]
	got=$(fcomp 'envpreflight init --s')
	check "fish: init --s<Tab> ($got)" [ "$got" = "--snapshot --stdout " ]
	got=$(fcomp 'envpreflight mcp --')
	check "fish: mcp --<Tab> ($got)" [ "$got" = "--allow-dir --help --no-config " ]
	got=$(fcomp 'envpreflight --workspace=ap')
	check "fish: --workspace=<Tab> completes directories ($got)" [ "$got" = "--workspace=apps/ " ]
else
	not_ok "fish is missing (apt-get install fish)"
fi

# ---- zsh: compinit registers the function from its #compdef line; then
# zcomp.zsh types LINE<Tab> into an interactive zsh on a pseudo-terminal
# and reads back every candidate the completion added
if command -v zsh >/dev/null; then
	got=$(env -i PATH="/usr/bin:/bin" HOME="$TEST_TMPDIR/home" zsh -f -c "
		fpath=('$comp' \$fpath)
		autoload -Uz compinit && compinit -u -D -d '$TEST_TMPDIR/zcompdump'
		print -r -- \$_comps[envpreflight]" 2>&1)
	check "zsh: compinit maps envpreflight to _envpreflight ($got)" [ "$got" = "_envpreflight" ]
	check "zsh: the function parses" zsh -n "$comp/_envpreflight"
	# compinit rewrites the dump file it is given: never /dev/null
	check "zsh: /dev/null is still the device" [ -c /dev/null ]
	zcomp() {
		(cd "$TEST_TMPDIR/tree" && env -i PATH="$bin:/usr/bin:/bin" HOME="$TEST_TMPDIR/home" \
			timeout 120 zsh -f "$top/tests/integration/zcomp.zsh" "$comp" \
			"$TEST_TMPDIR/zcomp.out" "$1" >/dev/null 2>&1 || echo "(zsh exit $?)"
		 grep -v '^$' "$TEST_TMPDIR/zcomp.out" | sort -u | tr '\n' ' ')
	}
	got=$(zcomp 'envpreflight --fo')
	check "zsh: --fo<Tab> ($got)" [ "$got" = "--format " ]
	got=$(zcomp 'envpreflight --only=')
	check "zsh: --only=<Tab> lists the probes ($got)" [ "$got" = "$probes" ]
	got=$(zcomp 'envpreflight --only=env,po')
	check "zsh: --only=env,po<Tab> ($got)" [ "$got" = "ports " ]
	got=$(zcomp 'envpreflight --format=')
	check "zsh: --format=<Tab> lists the formats ($got)" [ "$got" = "$formats " ]
	got=$(zcomp 'envpreflight ')
	check "zsh: the first word: directories and the subcommands ($got)" \
		[ "$got" = "apps examples init mcp " ]
	got=$(zcomp 'envpreflight --i')
	check "zsh: --i<Tab> ($got)" [ "$got" = "--interval " ]
	got=$(zcomp 'envpreflight init --s')
	check "zsh: init --s<Tab> ($got)" [ "$got" = "--snapshot --stdout " ]
	got=$(zcomp 'envpreflight mcp --')
	check "zsh: mcp --<Tab> ($got)" [ "$got" = "--allow-dir --help --no-config " ]
	if [ -n "${fake:-}" ]; then
		got=$(bin=$fake zcomp 'envpreflight --skip=')
		check "zsh: a new probe needs no edit ($got)" [ "$got" = "brandnew env " ]
	fi
else
	not_ok "zsh is missing (apt-get install zsh)"
fi

# ---- every option of --help, every format and both subcommands, everywhere
opts=$("$EP_BIN" --help | grep -oE -- '--[a-z][a-z-]*' | sort -u)
init_opts=$("$EP_BIN" init --help | grep -oE -- '--[a-z][a-z-]*' | sort -u)
mcp_opts=$("$EP_BIN" mcp --help | grep -oE -- '--[a-z][a-z-]*' | sort -u)
check "--help has options" [ -n "$opts" ] && [ -n "$init_opts" ] && [ -n "$mcp_opts" ]
for f in envpreflight.bash envpreflight.fish _envpreflight; do
	for o in $opts $init_opts $mcp_opts; do
		case $f in
		*.fish) pat="-l ${o#--}\\b" ;;
		*) pat="$o\\b" ;;
		esac
		grep -qE -- "$pat" "$comp/$f" || echo "$f lacks $o"
	done
	for w in $formats init mcp; do
		grep -qw -- "$w" "$comp/$f" || echo "$f lacks $w"
	done
done >"$TEST_TMPDIR/lacking"
check "every option, format and subcommand is completed: $(tr '\n' ';' <"$TEST_TMPDIR/lacking")" \
	[ ! -s "$TEST_TMPDIR/lacking" ]
finish
