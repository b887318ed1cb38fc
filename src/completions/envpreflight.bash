# bash completion for envpreflight                          -*- shell-script -*-
#
# Installed by make install as
# $(PREFIX)/share/bash-completion/completions/envpreflight, where
# bash-completion loads it the first time envpreflight<Tab> is asked for.
# The probe names of --only and --skip come from `envpreflight --list-probes`
# when they are completed, so a new probe needs no edit here; the options,
# formats and subcommands are listed below (tests/integration/completions.sh
# checks them against --help and the JSON Schema).

# The probe names, one per line, from the envpreflight being completed.
_envpreflight_probes()
{
    local line
    while IFS= read -r line; do
        printf '%s\n' "${line%% *}"
    done < <(command "$1" --list-probes 2>/dev/null)
}

# COMPREPLY from words, with no space after one that ends in '='.
_envpreflight_options()
{
    COMPREPLY=($(compgen -W "$1" -- "$cur"))
    [[ ${#COMPREPLY[@]} == 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace
}

_envpreflight()
{
    local cur prev words cword split
    _init_completion -s || return

    local cmd=${words[0]} sub=
    # a subcommand is the first word, before any option
    if ((cword > 1)) && [[ ${words[1]} == @(init|mcp) ]]; then
        sub=${words[1]}
    fi

    case $sub in
    init)
        case $prev in
        -t | --timeout) return ;;
        -f | --format)
            COMPREPLY=($(compgen -W 'human json' -- "$cur"))
            return
            ;;
        esac
        $split && return
        if [[ $cur == -* ]]; then
            _envpreflight_options '--force --stdout --snapshot --timeout= --format=
                --json --help'
        else
            _filedir -d
        fi
        return
        ;;
    mcp)
        if [[ $prev == --allow-dir ]]; then
            _filedir -d
            return
        fi
        $split && return
        _envpreflight_options '--allow-dir= --no-config --help'
        return
        ;;
    esac

    case $prev in
    -f | --format)
        COMPREPLY=($(compgen -W 'human json junit github tap tap13' -- "$cur"))
        return
        ;;
    --only | --skip)
        # a comma list: complete its last name, keeping the ones before
        local prefix=
        [[ $cur == *,* ]] && prefix=${cur%,*},
        COMPREPLY=($(compgen -W "$(_envpreflight_probes "$cmd")" -P "$prefix" \
            -- "${cur##*,}"))
        return
        ;;
    --workspace)
        _filedir -d
        return
        ;;
    -t | --timeout | --wait | --interval) return ;;
    esac
    $split && return

    if [[ $cur == -* ]]; then
        _envpreflight_options '--format= --json --only= --skip= --timeout= --wait=
            --interval= --strict --exit-zero
            --explain --no-color --quiet --no-config --workspace= --no-workspaces
            --list-probes --schema --version --help'
        return
    fi
    # the directory to audit; first, also a subcommand
    _filedir -d
    if ((cword == 1)); then
        COMPREPLY+=($(compgen -W 'init mcp' -- "$cur"))
    fi
} &&
    complete -F _envpreflight envpreflight

# ex: filetype=sh
