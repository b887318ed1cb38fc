# zsh -f tests/integration/zcomp.zsh COMPDIR OUT LINE - the candidates zsh's
# completion system offers for LINE<Tab>, one per line in OUT (for
# completions.sh).  An interactive zsh on a pseudo-terminal (zsh/zpty) loads
# the completions of COMPDIR with compinit, compadd is wrapped to write down
# every candidate it is given, and LINE and a Tab are typed.  The markers the
# shell prints are computed, so that the echo of the typed command never
# matches them; each read waits for its marker (the caller's timeout bounds
# a shell that hangs).  LINE<Tab> is typed only once the prompt after the
# first marker is drawn: zle puts the terminal in raw mode before it draws
# it (zrefresh calls zsetterm), while between two commands the terminal is
# in canonical mode, where the kernel would take a ^U typed after the Tab as
# its own kill character and erase LINE<Tab> before zle ever read it.  For
# the same reason the line is killed with ^Xk, bound to kill-buffer, which no
# terminal mode treats specially (zle leaves raw mode while it lists).
zmodload zsh/zpty || exit 3
comp=$1 out=$2 line=$3
: >$out
zpty z zsh -f -i || exit 4
zpty -w z "PS1='> '; fpath=(${(q)comp} \$fpath); autoload -Uz compinit; compinit -u -D -d ${(q)out}.dump; bindkey -e; bindkey '^Xk' kill-buffer"
zpty -w z "compadd() { local -a h; builtin compadd -O h \"\$@\"; print -rl -- \$h >>${(q)out}; builtin compadd \"\$@\"; }"
zpty -w z 'print M$((40+2))K'
zpty -r z buf '*M42K*> *' || exit 5
zpty -n -w z "$line"$'\t'
zpty -n -w z $'\C-xk''print D$((40+3))NE'$'\n'
zpty -r z buf '*D43NE*' || exit 6
zpty -d z
