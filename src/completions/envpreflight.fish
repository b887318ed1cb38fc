# fish completion for envpreflight
#
# Installed by make install as
# $(PREFIX)/share/fish/vendor_completions.d/envpreflight.fish.  The probe
# names of --only and --skip come from `envpreflight --list-probes` when they
# are completed, so a new probe needs no edit here; the options, formats and
# subcommands are listed below (tests/integration/completions.sh checks them
# against --help and the JSON Schema).

# The probe names with their summaries, from the envpreflight being
# completed; in a comma list, after the names already given.
function __envpreflight_probes
    set -l cmd (commandline -opc)[1]
    set -l tok (commandline -ct)
    set -l prefix ''
    if string match -q -- '*,*' $tok
        set prefix (string replace -r -- '^(--[a-z-]+=)?(.*,)[^,]*$' '$2' $tok)
    end
    for line in (command $cmd --list-probes 2>/dev/null)
        string replace -r -- '^(\S+)\s+(.*)$' "$prefix\$1\t\$2" $line
    end
end

# true when the command line has subcommand $argv[1] (the first word)
function __envpreflight_using
    set -l words (commandline -opc)
    test (count $words) -ge 2; and test "$words[2]" = $argv[1]
end

function __envpreflight_main
    not __envpreflight_using init; and not __envpreflight_using mcp
end

function __envpreflight_first
    test (count (commandline -opc)) -eq 1
end

complete -c envpreflight -f

# the audit: DIR, or a subcommand as the first word
complete -c envpreflight -n __envpreflight_main -a '(__fish_complete_directories (commandline -ct))'
complete -c envpreflight -n __envpreflight_first -a init -d 'write a commented preflight.yaml'
complete -c envpreflight -n __envpreflight_first -a mcp -d 'serve the audit to agents over MCP'
complete -c envpreflight -n __envpreflight_main -s f -l format -x -a 'human json junit github tap tap13' -d 'output format'
complete -c envpreflight -n __envpreflight_main -l json -d 'same as --format=json'
complete -c envpreflight -n __envpreflight_main -l only -x -a '(__envpreflight_probes)' -d 'run only these probes'
complete -c envpreflight -n __envpreflight_main -l skip -x -a '(__envpreflight_probes)' -d 'skip these probes'
complete -c envpreflight -n __envpreflight_main -s t -l timeout -x -d 'deadline for the whole audit (ms)'
complete -c envpreflight -n __envpreflight_main -l wait -x -d 'run the checks that waiting can change until they pass (30s, 2m)'
complete -c envpreflight -n __envpreflight_main -l interval -x -d 'the pause between rounds of --wait (250ms)'
complete -c envpreflight -n __envpreflight_main -l strict -d 'warnings fail the run'
complete -c envpreflight -n __envpreflight_main -l exit-zero -d 'exit 0 when checks fail or there is nothing to audit'
complete -c envpreflight -n __envpreflight_main -l explain -d 'show where each requirement came from'
complete -c envpreflight -n __envpreflight_main -l no-color -d 'no colour'
complete -c envpreflight -n __envpreflight_main -s q -l quiet -d 'print failures and the summary only'
complete -c envpreflight -n __envpreflight_main -l no-config -d "ignore the user's config.ini"
complete -c envpreflight -n __envpreflight_main -l workspace -x -a '(__fish_complete_directories (commandline -ct | string replace -r -- "^--workspace=" ""))' -d 'audit the repository and this one workspace'
complete -c envpreflight -n __envpreflight_main -l no-workspaces -d 'do not look for workspaces'
complete -c envpreflight -n __envpreflight_main -l list-probes -d 'list the probes and exit'
complete -c envpreflight -n __envpreflight_main -l schema -d 'print the JSON Schema of envpreflight/1 and exit'
complete -c envpreflight -n __envpreflight_main -s V -l version -d 'print the version and exit'
complete -c envpreflight -n __envpreflight_main -s h -l help -d 'print the help and exit'

# envpreflight init [OPTIONS] [DIR]
complete -c envpreflight -n '__envpreflight_using init' -a '(__fish_complete_directories (commandline -ct))'
complete -c envpreflight -n '__envpreflight_using init' -l force -d 'replace an existing preflight.yaml'
complete -c envpreflight -n '__envpreflight_using init' -l stdout -d 'print the file instead of writing it'
complete -c envpreflight -n '__envpreflight_using init' -l snapshot -d 'pin the versions found on this machine'
complete -c envpreflight -n '__envpreflight_using init' -s t -l timeout -x -d 'deadline for --snapshot (ms)'
complete -c envpreflight -n '__envpreflight_using init' -s f -l format -x -a 'human json' -d 'output format'
complete -c envpreflight -n '__envpreflight_using init' -l json -d 'same as --format=json'
complete -c envpreflight -n '__envpreflight_using init' -s h -l help -d 'print the help and exit'

# envpreflight mcp [OPTIONS]
complete -c envpreflight -n '__envpreflight_using mcp' -l allow-dir -x -a '(__fish_complete_directories (commandline -ct | string replace -r -- "^--allow-dir=" ""))' -d 'let the audit tool reach this directory too'
complete -c envpreflight -n '__envpreflight_using mcp' -l no-config -d "ignore the user's config.ini"
complete -c envpreflight -n '__envpreflight_using mcp' -s h -l help -d 'print the help and exit'
