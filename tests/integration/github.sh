#!/bin/sh
# github.sh - no text of the repository starts a GitHub Actions workflow
# command in --format=github output, on standard output or standard error.
#
# runner.py below reads the two streams as the Actions runner does
# (actions/runner: Handlers/OutputManager.cs, ActionCommandManager.cs,
# Runner.Common/ActionCommand.cs): lines ended by LF, CR or CR LF, each
# tried as a V2 command ("::name props::data" after TrimStart) and then as
# a legacy one ("##[name props]data" anywhere in the line), a registered
# name only, and ::stop-commands::TOKEN silencing both until TOKEN.  It
# prints, as JSON, every command the runner would carry out.  The test
# asserts that those are exactly our annotations, one per check that
# warns, fails or errs, with the check's title and message, and nothing
# from standard error.
. "$(dirname "$0")/../lib.sh"
cat >"$TEST_TMPDIR/runner.py" <<'EOF'
import json, sys

# the registered commands (the runner's IActionCommandExtension list and
# stop-commands itself; names compare ignoring case)
REGISTERED = {"add-mask", "add-matcher", "add-path", "debug", "echo", "endgroup",
              "error", "group", "notice", "remove-matcher", "save-state", "set-env",
              "set-output", "warning", "stop-commands"}
# char.IsWhiteSpace, what String.TrimStart() takes away
SPACE = set("\t\n\v\f\r \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000") | \
    {chr(c) for c in range(0x2000, 0x200b)}

def lines(data):
    """StreamReader.ReadLine: LF, CR or CR LF end a line."""
    text = data.decode("utf-8", "replace")
    out, cur, i = [], [], 0
    while i < len(text):
        c = text[i]
        if c in "\r\n":
            out.append("".join(cur))
            cur = []
            if c == "\r" and text[i + 1:i + 2] == "\n":
                i += 1
        else:
            cur.append(c)
        i += 1
    if cur:
        out.append("".join(cur))
    return out

def unescape(s, pairs):
    for k, v in pairs:
        s = s.replace(k, v)
    return s

DATA_V2 = [("%0D", "\r"), ("%0A", "\n"), ("%25", "%")]
PROP_V2 = [("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")]
LEGACY = [("%3B", ";"), ("%0D", "\r"), ("%0A", "\n"), ("%5D", "]"), ("%25", "%")]

def parse_v2(line, registered):
    msg = line
    while msg and msg[0] in SPACE:
        msg = msg[1:]
    if not msg.startswith("::"):
        return None
    end = msg.find("::", 2)
    if end < 0:
        return None
    info = msg[2:end]
    sp = info.find(" ")
    name = info if sp < 0 else info[:sp]
    if name.lower() not in registered:
        return None
    props = {}
    if sp > 0:
        for p in [x for x in info[sp + 1:].strip().split(",") if x]:
            pair = [x for x in p.split("=", 1) if x]
            if len(pair) == 2:
                props[pair[0].lower()] = unescape(pair[1], PROP_V2)
    return name, props, unescape(msg[end + 2:], DATA_V2)

def parse_legacy(line, registered):
    at = line.find("##[")
    if at < 0:
        return None
    rb = line.find("]", at)
    if rb < 0:
        return None
    info = line[at + 3:rb]
    sp = info.find(" ")
    name = info if sp < 0 else info[:sp]
    if name.lower() not in registered:
        return None
    props = {}
    if sp > 0:
        for p in [x for x in info[sp + 1:].split(";") if x]:
            pair = [x for x in p.split("=", 1) if x]
            if len(pair) == 2:
                props[pair[0].lower()] = unescape(pair[1], LEGACY)
    return name, props, unescape(line[rb + 1:], LEGACY)

class Runner:
    def __init__(self):
        self.registered = set(REGISTERED)
        self.stop_token = None
        self.done = []

    def line(self, stream, line):
        if "##[" not in line and "::" not in line:
            return
        cmd = parse_v2(line, self.registered) or parse_legacy(line, self.registered)
        if not cmd:
            return
        name = cmd[0].lower()
        if self.stop_token is not None:
            if name == self.stop_token.lower():
                self.registered.discard(self.stop_token.lower())
                self.stop_token = None
                self.done.append({"stream": stream, "command": "resume", "line": line})
            return
        if name == "stop-commands":
            self.stop_token = cmd[2]
            self.registered.add(cmd[2].lower())
        self.done.append({"stream": stream, "command": name, "props": cmd[1],
                          "data": cmd[2], "line": line})

def run(out, err):
    """What the runner carries out of the two streams' files."""
    r = Runner()
    for stream, path in (("stdout", out), ("stderr", err)):
        for l in lines(open(path, "rb").read()):
            r.line(stream, l)
    return {"commands": r.done, "stopped": r.stop_token is not None}

if __name__ == "__main__":
    json.dump(run(sys.argv[1], sys.argv[2]), sys.stdout)
EOF

# the checks from the JSON report that get an annotation, and whether what
# the runner carries out of the streams (runner.py, in the same process:
# a python start is 50 ms on a slow machine) is exactly those annotations
cat >"$TEST_TMPDIR/judge.py" <<'EOF'
import json, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[0])))
from runner import run
ran = run(sys.argv[1], sys.argv[2])
rep = json.load(open(sys.argv[3]))
strict = sys.argv[4] == "strict"
want = [c for c in rep["checks"] if c["status"] in ("fail", "error", "warn")]
if rep.get("error"):
    want = [{"status": "error", "title": "envpreflight " + rep["error"]["kind"],
             "message": None}]
bad = []
cmds = ran["commands"]
if ran["stopped"]:
    bad.append("commands left stopped")
for c in cmds:
    if c["stream"] != "stdout" or c["command"] not in ("error", "warning") \
            or not c["line"].startswith("::"):
        bad.append("forged: %r" % c["line"])
if len(cmds) != len(want):
    bad.append("%d commands for %d annotated checks" % (len(cmds), len(want)))
for c, w in zip(cmds, want):
    kind = "warning" if w["status"] == "warn" and not strict else "error"
    if c["command"] != kind or c["props"].get("title") != w["title"]:
        bad.append("annotation %r is not %s %r" % (c["line"], kind, w["title"]))
    msg = c["data"].split("\nhint: ")[0]
    if w["message"] is not None and msg != w["message"]:
        bad.append("annotation message %r is not %r" % (msg, w["message"]))
for b in bad[:5]:
    print("   ", b)
sys.exit(1 if bad else 0)
EOF

# audit DESC ARGS...: --format=github and --json over the same repository;
# the runner model over the first's streams, judged against the second
audit() {
	desc=$1
	shift
	strict=plain
	case " $* " in *" --strict "*) strict=strict ;; esac
	ep --format=github "$@" >"$TEST_TMPDIR/gh.out" 2>"$TEST_TMPDIR/gh.err"
	gst=$?
	ep --json "$@" >"$TEST_TMPDIR/gh.json" 2>/dev/null
	jst=$?
	check "$desc: exit $gst, as JSON's $jst" [ "$gst" = "$jst" ]
	check "$desc: the runner carries out our annotations only" \
		py "$TEST_TMPDIR/judge.py" "$TEST_TMPDIR/gh.out" "$TEST_TMPDIR/gh.err" \
		"$TEST_TMPDIR/gh.json" $strict
}

# the model itself: it finds what the runner would
printf '::error title=t::m\n  ::add-mask::s\rx ##[set-output name=ready]true\r\n##[stop-commands]tok\n::error::hidden\n::tok::\n::warning::after\n' \
	>"$TEST_TMPDIR/m.out"
printf 'e ##[error]x\n' >"$TEST_TMPDIR/m.err"
python3 "$TEST_TMPDIR/runner.py" "$TEST_TMPDIR/m.out" "$TEST_TMPDIR/m.err" >"$TEST_TMPDIR/m.json"
check "runner model: every command found, the stopped one not" py -c '
import json, sys
d = json.load(open(sys.argv[1]))
got = [(c["stream"], c["command"]) for c in d["commands"]]
want = [("stdout", "error"), ("stdout", "add-mask"), ("stdout", "set-output"),
        ("stdout", "stop-commands"), ("stdout", "resume"), ("stdout", "warning"),
        ("stderr", "error")]
so = d["commands"][2]
sys.exit(0 if got == want and so["props"] == {"name": "ready"} and so["data"] == "true"
         and not d["stopped"] else 1)' "$TEST_TMPDIR/m.json"

# what the repository's text may carry: both syntaxes, the stop that would
# silence our annotations, a mask, a leading blank (U+2003 em space, U+3000,
# a BOM), and line breaks (CR, LF, NEL, U+2028)
cr=$(printf '\r')
hostile="##[error]x
##[set-output name=ready]true
##[stop-commands]tok
::error::x
::add-mask::mask
 ::warning::lead
$(printf '\342\200\203')::error::em
$(printf '\343\200\200\357\273\277')::error::wide
a${cr}::error::cr
b${cr}##[error]cr
$(printf 'c\302\205')::error::nel
$(printf 'd\342\200\250')::error::ls"
r=$TEST_TMPDIR/r
i=0
printf '%s\n' "$hostile" >"$TEST_TMPDIR/hostile.txt"
while IFS= read -r h; do
	i=$((i + 1))
	# as JSON and YAML double-quoted strings (\r in a JSON string is a CR)
	js=$(printf '%s' "$h" | py -c 'import json, sys; print(json.dumps(sys.stdin.read()))')
	# engines ranges
	rm -rf "$r"
	mkdir -p "$r"
	printf '{"engines": {"node": %s, "npm": %s}}\n' "$js" "$js" >"$r/package.json"
	audit "engines $i" "$r"
	audit "engines $i, --explain --strict" --explain --strict "$r"
	# a compose ${VAR:?message}
	rm -rf "$r"
	mkdir -p "$r"
	printf 'services:\n  app:\n    image: x\n    environment:\n      - "K=${NEED:?%s}"\n' \
		"$(printf '%s' "$h" | sed 's/"/\\"/g')" >"$r/compose.yaml"
	audit "compose message $i" --explain "$r"
	# .env.example lines: as a key name, and as a line that is no KEY=VALUE
	printf 'A=\n%s=\n' "$h" >"$r/.env.example"
	audit ".env.example key $i" "$r"
	printf 'A=\n%s\n' "$h" >"$r/.env.example"
	audit ".env.example line $i" "$r"
	# a directory name, audited and as a workspace, and a file named so
	case $h in *"$cr"*) continue ;; esac	# a path keeps its CR: done above
	rm -rf "$r"
	mkdir -p "$r/$h/packages/$h"
	printf '{"name": "w", "engines": {"node": ">=999"}}\n' >"$r/$h/packages/$h/package.json"
	printf '{"name": "root", "workspaces": ["packages/*"], "engines": {"node": ">=999"}}\n' \
		>"$r/$h/package.json"
	printf 'A=\n' >"$r/$h/$h.env"
	printf 'version: 1\nenv:\n  example: %s\n' \
		"$(printf '%s.env' "$h" | py -c 'import json, sys; print(json.dumps(sys.stdin.read()))')" \
		>"$r/$h/preflight.yaml"
	audit "directory $i" --explain "$r/$h"
	audit "directory $i, --quiet" --quiet "$r/$h"
	# the error path, where the message quotes the text
	printf 'version: 1\n%s: 1\n' "$js" >"$r/$h/preflight.yaml"
	audit "spec error $i" "$r/$h"
	audit "nothing to audit $i" "$r/$h/packages"
done <"$TEST_TMPDIR/hostile.txt"

# the defused lines still read as the text: a backslash added, nothing lost
rm -rf "$r"
mkdir -p "$r"
printf '{"engines": {"node": "##[error]x ::error::y"}}\n' >"$r/package.json"
ep --format=github "$r" >"$TEST_TMPDIR/gh.out" 2>&1
check "the human line shows the range with a backslash" \
	grep -qF "invalid range '##[\\error]x ::error::y'" "$TEST_TMPDIR/gh.out"
check "the annotation keeps it as it is" \
	grep -qF "::invalid range '##[error]x ::error::y'" "$TEST_TMPDIR/gh.out"
finish
