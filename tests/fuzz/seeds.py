#!/usr/bin/env python3
"""seeds.py - build tests/fuzz/corpus/<target>/ from the test fixtures.

Run from the top of the tree: python3 tests/fuzz/seeds.py [TARGET...]
(only the targets named, when some are)
The seeds come from the conformance vectors (tests/conformance), the golden
cases' repositories (tests/cases/*/repo), the /proc fixtures, the rows of
the unit tests (string literals of their tables) and a few lines written
here.  Each target keeps at most MAX_SEEDS distinct inputs of at most
MAX_BYTES, so the committed corpus stays small; libFuzzer grows its own
working corpus under build-asan/ from these.  The script is deterministic:
running it again rewrites the same files.
"""
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

MAX_SEEDS = 40
MAX_BYTES = 4096
BIG = {"uvlock": 8192}	# a real uv.lock of a small project is 4.4 KB
OUT = "tests/fuzz/corpus"


def strip_comments(text):
    """text without its /* */ and // comments (string and character
    literals kept whole: "lts/*" is not the start of a comment)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
            out.append(" ")
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def c_rows(path):
    """Rows of a C table: for every '{' followed by a string literal, the
    fields up to the matching '}', a field being the decoded concatenation
    of string literals (bytes) or None for anything else."""
    text = open(path, encoding="utf-8").read()
    text = strip_comments(text)
    rows = []
    i = 0
    while True:
        m = re.compile(r'\{\s*"').search(text, i)
        if not m:
            return rows
        i = m.start() + 1
        fields, cur, depth, j = [], None, 0, i
        other = False
        while j < len(text):
            c = text[j]
            if c == "'":	# a character literal, '"' among them
                m = re.match(r"'(\\.|[^\\'])'", text[j:])
                if m:
                    other = True
                    j += len(m.group(0))
                    continue
            if c == '"':
                s, j = c_string(text, j)
                cur = (cur or b"") + s
                continue
            if c in "{(":
                depth += 1
            elif c in "})":
                if depth == 0:
                    fields.append(None if other else cur)
                    break
                depth -= 1
            elif c == "," and depth == 0:
                fields.append(None if other else cur)
                cur, other = None, False
            elif not c.isspace():
                other = True
            j += 1
        rows.append(fields)
        i = j


def c_string(text, j):
    """Decode the C string literal at text[j] == '"'; returns (bytes, end)."""
    out = bytearray()
    j += 1
    simple = {"n": 10, "t": 9, "r": 13, "f": 12, "v": 11, "a": 7, "b": 8,
              "\\": 92, '"': 34, "'": 39, "?": 63}
    while text[j] != '"':
        c = text[j]
        if c != "\\":
            out += c.encode("utf-8")
            j += 1
            continue
        e = text[j + 1]
        if e in simple:
            out.append(simple[e])
            j += 2
        elif e == "x":
            m = re.match(r"[0-9a-fA-F]+", text[j + 2:])
            out.append(int(m.group(0), 16) & 0xFF)
            j += 2 + len(m.group(0))
        elif e in "01234567":
            m = re.match(r"[0-7]{1,3}", text[j + 1:])
            out.append(int(m.group(0), 8) & 0xFF)
            j += 1 + len(m.group(0))
        else:
            out += e.encode()
            j += 2
    return bytes(out), j + 1


def c_table(path, name, after=None):
    """Rows of the C table named name (its initializer after "name[] =",
    the first one past the text after when it is given):
    each field the decoded string literals (bytes), or the raw text of any
    other field (str)."""
    text = open(path, encoding="utf-8").read()
    text = strip_comments(text)
    start = text.index(after) if after else 0
    m = re.compile(r"\b%s\[\] = \{" % re.escape(name)).search(text, start)
    if not m:
        raise SystemExit("%s: no table %s" % (path, name))
    i, depth, rows = m.end(), 1, []
    fields, cur, raw = [], None, ""
    while depth:
        c = text[i]
        if c == '"':
            s, i = c_string(text, i)
            cur = (cur or b"") + s
            continue
        if c == "{":
            depth += 1
            if depth == 2:
                fields, cur, raw = [], None, ""
            elif depth > 2:
                raw += c
        elif c == "}":
            depth -= 1
            if depth == 1:
                fields.append(cur if cur is not None else raw.strip())
                rows.append(fields)
            elif depth > 1:
                raw += c
        elif c == "," and depth == 2:
            fields.append(cur if cur is not None else raw.strip())
            cur, raw = None, ""
        elif depth >= 2:
            raw += c
        i += 1
    return rows


def strings(path):
    """Every string literal of a C file (adjacent ones joined)."""
    text = open(path, encoding="utf-8").read()
    text = strip_comments(text)
    out, i = [], 0
    while True:
        j = text.find('"', i)
        if j < 0:
            return out
        if text[j - 1] == "'" and text[j + 1] == "'":
            i = j + 1
            continue
        cur = b""
        while j < len(text) and text[j] == '"':
            s, j = c_string(text, j)
            cur += s
            while j < len(text) and text[j] in " \t\n":
                j += 1
        out.append(cur)
        i = j


def field(rows, n):
    return [r[n] for r in rows if len(r) > n and r[n] is not None]


def files(pattern):
    return [open(p, "rb").read() for p in sorted(glob.glob(pattern, recursive=True))]


def tsv(path, ncols):
    rows = []
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        cols = line.split("\t")
        rows.append(cols + [""] * (ncols - len(cols)))
    return rows


# Units that fuzz_scale (fuzz.h) repeats to FUZZ_SCALE_MAX bytes: M is the
# mark, S the slot that takes the number of the copy.  "M head M unit M tail".
M, S = b"\xfe", b"\xff"
SCALED = {
    "dotenv": [M + b"K" + S + b"=v" + S + b"\n", M + b"A" + S + b'="x\n',
               M + b"export K" + S + b"='a b' # c\n"],
    "toolversions": [M + b"x" + S + b" 1\n", M + b"nodejs 20." + S + b"\n"],
    "gomod": [M + b"module m\n" + M + b"require x" + S + b" v1\n" + M + b"go 1.22\n",
              M + b"require (\n" + M + b"\tx" + S + b" v1\n" + M + b")\ngo 1.21\n"],
    "nvmrc": [M + b"# " + S + b"\n" + M + b"k" + S + b"=v\n" + M + b"20\n"],
    "pyversion": [M + b"3." + S + b"\n", M + b"# " + S + b"\n"],
    "gitignore": [M + b"a" + S + b"/**/*.log\n!b" + S + b"\n\0a/b/c.log\nb1",
                  M + b"*" + S + b"*" + S + b"*\n\0" + b"a" * 200],
    "procnet": [b"\0" + M + b"  sl  local_address\n" + M +
                b"   " + S + b": 00000000:1538 00000000:0000 0A 00000000:00000000 "
                b"00:00000000 00000000   105        0 1" + S + b" 1\n"],
    "ytree": [M + b"- &a" + S + b" x\n- *a0\n", M + b"k" + S + b": [" + S + b"]\n",
              M + b"a: " + M + b"[" + M + b"]\n"],
    "preflight": [M + b"version: 1\ntools:\n" + M + b"  - t" + S + b"\n",
                  M + b"version: 1\nenv:\n  required:\n" + M + b"    - K" + S + b"\n"],
    "compose": [M + b"services:\n" + M + b"  s" + S + b":\n    ports: [\"1" + S + b":80\"]\n",
                M + b"x: &p {a: 1}\nservices:\n" + M + b"  s" + S + b": {<<: *p}\n"],
    "package": [M + b'{"a":{' + M + b'"k' + S + b'":1,' + M + b'"z":0},"engines":{"node":">=1"}}',
                M + b'{"engines":' + M + b'[' + M + b']}'],
    "pyproject": [M + b"[project]\n" + M + b"x" + S + b" = 1\n" + M + b'requires-python = ">=3"\n',
                  M + b"[t" + S + b"]\n"],
    "setupcfg": [M + b"[options]\n" + M + b"k" + S + b" = v\n" + M + b"python_requires = >=3\n"],
    "config": [M + b"; " + S + b"\n", M + b"[defaults]\n" + M + b"format = json\n"],
    "semver": [b"\0" + M + M + b">=1." + S + b".0 || " + M + b"1.0.0\x001.0.0",
               b"\1" + M + b"~" + S + b" \x001.2.3"],
    "pep440": [M + M + b">=1." + S + b"," + M + b"<9\x003.11"],
    "toml": [M + b"[t" + S + b"]\nk = [1, {a = 'x'}]\n",
             M + b"a" + S + b".b.c = " + M + b'"v"\n',
             M + b"[[p]]\nname = \"x" + S + b"\"\nversion = \"1\"\n"],
    "composevar": [M + b"${A" + S + b":-x}$$" + M + b"\0A0=1\n"],
    "composeproject": [M + b"services:\n" + M + b"  s" + S + b":\n    ports: [\"${P:-1}" + S +
                       b':80"]\n    env_file: [app.env]\n' + M + b"\0P=2\n"],
    "npmlock": [M + b'{"lockfileVersion":3,"packages":{' + M + b'"node_modules/p' + S +
                b'":{"version":"1.0.' + S + b'"},' + M + b'"":{}}}'],
    "npmpick": [b"^1.0.0\0" + M + b'{"dist-tags":{"latest":"9.0.0"},"versions":{' + M +
                b'"1.' + S + b'.0":{"deprecated":"no"},' + M + b'"1.0.0":{}}}'],
    "bunlock": [M + b'{"lockfileVersion":1,"workspaces":{"":{"dependencies":{' + M + b'"p' + S +
                b'":"1",' + M + b'}},' + M + b'"w' + S + b'":{"name":"w' + S + b'"},' + M +
                b'},"packages":{' + M + b'"p' + S + b'":["p' + S + b'@1.0.0","",{},"s"],' + M +
                b'"w' + S + b'":["w' + S + b'@workspace:w' + S + b'"],' + M + b'}}'],
    "pnpmlock": [b"\0" + M + b"lockfileVersion: '9.0'\nsnapshots:\n" + M + b"  p" + S +
                 b"@1.0.0: {}\n"],
    "yarnlock": [b"\0" + M + b"__metadata:\n  version: 8\n" + M + b'"p' + S + b'@npm:^1":\n'
                 b'  version: 1.0.0\n  resolution: "p' + S + b'@npm:1.0.0"\n'],
    "uvlock": [b"\0" + M + b'version = 1\n[[package]]\nname = "root"\nversion = "0"\n'
               b'source = { virtual = "." }\ndependencies = [' + M + b'{ name = "p' + S +
               b'" },' + M + b']\n' + M + b'[[package]]\nname = "p' + S + b'"\nversion = "1"\n'],
    "poetrylock": [b"\0" + M + b'[[package]]\nname = "p' + S + b'"\nversion = "1.0"\n'
                   b'optional = false\n'],
    "pipreq": [b"\0" + M + b"p" + S + b"==1." + S + b' ; python_version >= "3"\n'],
    "pymeta": [M + b"Metadata-Version: 2.1\n" + M + b"X-" + S + b": y\n" + M + b"Name: p\n"],
    "sandbox": [b"\0" + M + b"Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nGroups:\t" + M + S +
                b" " + M + b"\nNoNewPrivs:\t1\nSeccomp:\t2\nCapEff:\t0\n",
                b"\1" + M + b"h\nh\n" + M + b"  e" + S + b": 1 2\n",
                b"\x08" + M + b"u" + S + b":x:" + S + b":0::/h" + S + b":/bin/sh\n"],
    "sudoers": [M + b"User_Alias A" + S + b" = dev\n" + M + b"A" + S +
                b" ALL=(ALL) NOPASSWD: ALL\n"],
    "workspaces": [b"\0" + M + b"go 1.22\nuse (\n" + M + b"\t./m" + S + b"\n" + M + b")\n",
                   b"\1" + M + b"[tool.uv.workspace]\nmembers = [" + M + b'"p' + S + b'", ' +
                   M + b"]\n",
                   b"\2" + M + b"{a,b}/" + M + b"**/" + M + b"\0a/b/c"],
    "mcp": [M + b'{"jsonrpc":"2.0","id":' + S + b',"method":"ping"}\n'],
}


ONLY = set(sys.argv[1:])


def write(target, seeds):
    if ONLY and target not in ONLY:
        return
    d = os.path.join(OUT, target)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    scaled = SCALED.get(target, [])
    kept = []
    for s in seeds:
        if isinstance(s, str):
            s = s.encode("utf-8")
        if len(s) > BIG.get(target, MAX_BYTES) or s in kept or s in scaled:
            continue
        kept.append(s)
    # spread the choice over the whole list, not only its head
    room = MAX_SEEDS - len(scaled)
    if len(kept) > room:
        step = len(kept) / room
        kept = [kept[int(k * step)] for k in range(room)]
    kept = scaled + kept
    for s in kept:
        name = hashlib.sha1(s).hexdigest()[:16]
        open(os.path.join(d, name), "wb").write(s)
    print("%-13s %3d seeds" % (target, len(kept)))


def git(repo, *args):
    subprocess.run(["git", "-C", repo, "-c", "user.name=x", "-c",
                    "user.email=x@x.invalid", *args], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def git_indexes():
    """Real index files: versions 2, 3 (an intent-to-add entry has the
    extended flags) and 4 (prefix-compressed paths), SHA-1 and SHA-256."""
    out = []
    for fmt in ("sha1", "sha256"):
        with tempfile.TemporaryDirectory() as t:
            subprocess.run(["git", "init", "-q", "--object-format=" + fmt, t],
                           check=True, stdout=subprocess.DEVNULL)
            for name in (".env", "a/.env", "a/b/c.txt", "README"):
                os.makedirs(os.path.dirname(os.path.join(t, name)) or t, exist_ok=True)
                open(os.path.join(t, name), "w").write(name + "\n")
            git(t, "add", ".env", "a/.env", "README")
            git(t, "add", "-N", "a/b/c.txt")
            for v in ("2", "3", "4"):
                git(t, "update-index", "--index-version", v)
                out.append(open(os.path.join(t, ".git/index"), "rb").read())
    return out


def dotenv_inputs():
    return [v["input"] for v in json.load(open("tests/conformance/dotenv-parse.json"))
            if isinstance(v.get("input"), str)]


def main():
    cases = "tests/cases/*/repo/"
    conf = "tests/conformance/"

    dotenv = [v["input"] for v in json.load(open(conf + "dotenv-parse.json"))
              if isinstance(v.get("input"), str)]
    write("dotenv", files(cases + ".env*") + files("examples/**/.env*") +
          field(c_rows("tests/unit/test_dotenv.c"), 0) + dotenv)

    semver = []
    def opts(o):	# the first byte of fuzz_semver's input
        return chr(("loose" in o) | ("includePrerelease" in o) << 1)
    for r in tsv(conf + "semver-ranges.tsv", 4):
        semver.append(opts(r[3]) + r[0] + "\0" + r[1])
    for r in tsv(conf + "semver-range-parse.tsv", 3):
        semver.append(opts(r[2]) + r[0])
    for r in tsv(conf + "semver-valid.tsv", 3):
        semver.append(("\1" if "loose" in r[2] else "\0") + ">=" + r[0] + "\0" + r[0])
    write("semver", semver)

    pep = [r[0] + b"\0" + r[1] for r in c_rows("tests/unit/test_pep440.c")
           if len(r) > 1 and r[0] is not None and r[1] is not None]
    write("pep440", pep)

    write("poetrycon", [r[0] + b"\0" + r[1] for r in c_rows("tests/unit/test_poetrycon.c")
                        if len(r) > 1 and r[0] is not None and r[1] is not None])
    write("elixirreq", [r[0] + b"\0" + r[1] for r in c_rows("tests/unit/test_elixirreq.c")
                        if len(r) > 1 and r[0] is not None and r[1] is not None])

    write("pyversion", files(cases + ".python-version") + [
        "3.11\n", "3.12.1\n3.11.7\n", "system\n", "# comment\n3.10\n",
        "pypy3.10-7.3.12\n", "3.13t\n", "3.14-dev\n", "../x\n",
        "miniconda3-latest 3.11\n", "  3.9.18  \r\n", "3.13.0rc1\n", "\n\n",
    ])

    write("nvmrc", files(cases + ".nvmrc") +
          field(c_rows("tests/unit/test_nvmrc.c"), 0))
    write("toolversions", files(cases + ".tool-versions") +
          field(c_rows("tests/unit/test_toolversions.c"), 0))
    write("gomod", files(cases + "go.mod") +
          field(c_rows("tests/unit/test_gomod.c"), 0))

    procnet = []
    for p in sorted(glob.glob("tests/fixtures/proc/*/net/tcp*") +
                    glob.glob("tests/fixtures/proc/*/self/net/tcp*")):
        procnet.append((b"\1" if p.endswith("6") else b"\0") + open(p, "rb").read())
    header = b"  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
    for r in c_rows("tests/unit/test_procnet.c"):
        if len(r) > 2 and r[2] is not None:
            procnet.append(b"\0" + header + r[2] + b"\n")
            procnet.append(b"\1" + header + r[2] + b"\n")
    # the other /proc texts (fuzz_procnet.c's first byte, bits 1-2):
    # <pid>/stat lines, <pid>/status texts, and mountinfo, a socket link
    # and a pid directory name
    for kind, sel in (("stat", b"\2"), ("status", b"\4")):
        for p in sorted(glob.glob("tests/fixtures/proc/*/[0-9]*/" + kind))[:6]:
            procnet.append(sel + open(p, "rb").read())
    for p in sorted(glob.glob("tests/fixtures/proc/*/self/mountinfo")):
        procnet.append(b"\6" + open(p, "rb").read())
    procnet += [b"\6socket:[123456]", b"\x064242", b"\6/proc\\040x\\134y",
                b"\2" + b"42 (a) b) c) S 1 42 42 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 77 0 0\n"]
    write("procnet", procnet)

    write("portspec", field(c_rows("tests/unit/test_portspec.c"), 0))

    write("gitignore", [
        b"*.log\n!keep.log\0debug.log\nkeep.log\na/b.log",
        b".env\n.env.*\n!.env.example\0.env\n.env.local\n.env.example",
        b"/build/\nnode_modules\0build\nbuild/x\nsrc/node_modules/y",
        b"**/logs\nfoo/**/bar\na/**\0logs/x\nfoo/a/b/bar\na/.env",
        b"[a-c]*.txt\n\\#hash\n\\!bang\n  trailing  \0b.txt\n#hash\n!bang",
        b"\xef\xbb\xbf*.o\r\n# comment\r\n\r\ndir/\0x.o\ndir\ndir/f",
        b"*\n!*/\n!.gitignore\0a/b\na/.gitignore",
        b"[!a-z]?\n[[:digit:]]*\n\\[x]\0Z1\n9z\n[x]",
        b"a/b/c\n/d\ne/\0a/b/c\nd\ne/f",
        b".env\0.env\na/.env",
    ])

    write("gitindex", git_indexes() + [b"", b"DIRC", b"DIRC\0\0\0\2\0\0\0\0",
                                       b"DIRC\0\0\0\3\0\0\0\1"])

    write("config", [
        "[defaults]\nformat = json\ncolor = never\ntimeout = 5000\nstrict = true\n",
        "format = human\n", "; comment\n# also\n[defaults]\ncolor=always\n",
        "[other]\nx = 1\n", "timeout = 0\n", "strict = maybe\n", "nokey\n",
        "format = github\nstrict = off\ncolor = auto\n", "unknown = 1\n",
        "[defaults\nformat = junit\n", "timeout = 600001\n", "",
    ])

    spec_rows = c_rows("tests/unit/test_spec.c")
    compose_rows = c_rows("tests/unit/test_compose.c")

    def spec_files(name):
        return [r[1] for r in spec_rows if len(r) > 1 and r[0] == name.encode()
                and r[1] is not None]

    compose = files(cases + "compose.yaml") + files(cases + "docker-compose.yml")
    for r in compose_rows:
        if len(r) > 2 and r[1] is not None and r[0] is not None:
            compose.append(r[1] + (b"\0" + r[2] if r[2] is not None else b""))
    write("compose", compose)

    preflight = files(cases + "preflight.yaml") + spec_files("preflight.yaml")
    write("preflight", preflight)

    write("ytree", preflight[:15] + compose[:15] + [
        b"a: &x [1, 2]\nb: *x\nc: *x\n",
        b"base: &b {x: 1}\nsvc:\n  <<: *b\n  y: 2\n",
        b"a: &a [x, x]\nb: &b [*a, *a]\nc: &c [*b, *b]\nd: [*c, *c]\n",
        b"- !!str 1\n- ? complex\n  : key\n- |\n  block\n- >-\n  folded\n",
        b"---\na: 1\n...\n---\nb: 2\n",
        b"{\"json\": [1, 2.5, null, true, \"s\\u00e9\"]}\n",
        b"%YAML 1.1\n---\n'quoted': \"double\\x41\"\n",
    ])

    package = files(cases + "package.json") + spec_files("package.json")
    for pm in field(c_rows("tests/unit/test_versions.c"), 0)[:12]:
        package.append(b'{"packageManager": ' + json.dumps(pm.decode("utf-8", "replace")).encode() + b"}\n")
    write("package", package)

    write("pyproject", files(cases + "pyproject.toml") + spec_files("pyproject.toml") + [
        '[project]\nrequires-python = ">=3.10"\n',
        "[project]\nname = 'x'\nrequires-python = '~=3.11'\n",
        '[tool.poetry.dependencies]\npython = "^3.11"\n',
        '[project]\nrequires-python = """>=3.9"""\n',
        "# c\n[ project ]\nrequires-python=\">=3.8,<4\" # trailing\n",
        '[project]\nrequires-python = ">=3.10"\n[project]\n',
    ])

    write("setupcfg", spec_files("setup.cfg") + [
        "[options]\npython_requires = >=3.8\n",
        "[metadata]\nname = x\n[options]\npython_requires = ~=3.11\ninstall_requires =\n    a\n    b\n",
        "[options]\npython_requires=\n", "; c\n[options]\n  python_requires = >=3.10, <3.13\n",
        "[options\npython_requires = 3\n",
    ])

    new_targets()


def new_targets():
    cases = "tests/cases/*/repo/"
    fix = "tests/fixtures/deps/"

    toml = files(cases + "pyproject.toml") + files(fix + "*/*.lock") + \
        files(fix + "*/pyproject.toml")
    toml += [open(p, "rb").read() for p in
             sorted(glob.glob("tests/conformance/toml-test/**/*.toml", recursive=True))]
    write("toml", toml)

    # compose's .env reader: the .env files of the cases, the dotenv
    # conformance inputs and some of compose-go's vectors
    vec = [json.loads(l)["input"] for l in
           open("tests/fixtures/compose/dotenv-vectors.jsonl", encoding="utf-8")]
    write("composeenv", files(cases + ".env*") + dotenv_inputs() + vec[:200])

    rows = c_table("tests/unit/test_compose_project.c", "var_rows")
    write("composevar", [r[0] + b"\0" + r[1] for r in rows
                         if isinstance(r[0], bytes) and isinstance(r[1], bytes)])

    project = []
    names = ["compose.yaml", ".env", "compose.override.yaml", "inc/compose.yaml",
             "inc/.env", "app.env"]
    for repo in sorted(glob.glob("tests/cases/compose-*/repo")):
        parts = []
        for n in names:
            p = os.path.join(repo, n)
            if n == "compose.yaml" and not os.path.isfile(p):
                p = os.path.join(repo, "docker-compose.yml")
            parts.append(open(p, "rb").read() if os.path.isfile(p) else b"")
        while parts and not parts[-1]:
            parts.pop()
        if parts:
            project.append(b"\0".join(parts))
    for r in c_table("tests/unit/test_compose_project.c", "rows"):
        if len(r) < 2 or not isinstance(r[1], str):
            continue
        got = dict(re.findall(r'\{\s*"([^"]+)"\s*,\s*(\w+)', r[1]))
        if not got:
            continue
    project += [
        b"include:\n  - inc/compose.yaml\nservices:\n  web:\n    ports: [\"3000:3000\"]\n"
        b"\0COMPOSE_PROFILES=debug\n\0\0services:\n  db:\n    ports: [\"${DB_PORT:-5432}:5432\"]\n"
        b"    profiles: [debug]\n\0DB_PORT=5433\n",
        b"services:\n  app:\n    env_file: [app.env]\n    ports: [\"${PORT}:80\"]\n"
        b"\0COMPOSE_FILE=compose.yaml:compose.override.yaml\n\0services:\n  app:\n"
        b"    ports: !override [\"81:80\"]\n\0\0\0PORT=8080\n",
        b"services:\n  a:\n    extends: {file: inc/compose.yaml, service: b}\n"
        b"    depends_on: {b: {condition: service_started, required: false}}\n"
        b"\0COMPOSE_PATH_SEPARATOR=;\nCOMPOSE_FILE=compose.yaml;inc/compose.yaml\n\0\0"
        b"services:\n  b:\n    ports: [\"7000-7002:7000-7002/udp\"]\n",
    ]
    write("composeproject", project)

    init = (b'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":'
            b'"%s","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}')
    mcp = []
    for table in ("before_init", "garbage", "newest"):
        msgs = [r[0] for r in c_table("tests/unit/test_mcp.c", table)
                if r and isinstance(r[0], bytes)]
        for v in (b"2025-06-18", b"2025-11-25", b"2024-11-05"):
            mcp.append(init % v + b"\n" + b"\n".join(m for m in msgs if b"\n" not in m))
        mcp += msgs
    mcp.append(init % b"2025-11-25" + b'\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n'
               b'{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n'
               b'{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_probes",'
               b'"arguments":{}}}\n'
               b'{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"audit",'
               b'"arguments":{"dir":".","only":["env"],"timeout_ms":100}}}')
    write("mcp", mcp)

    # the MCP SDK's real lockfile (v3), cut to its first packages
    lock = json.load(open("tests/mcp/package-lock.json"))
    lock["packages"] = dict(list(lock["packages"].items())[:6])
    small = json.dumps(lock, indent=1).encode()
    # packuments as npm's cache holds them (the registry's, cut down)
    write("npmpick", [
        b'^4.1.0\0{"_id":"ansi-styles","name":"ansi-styles","dist-tags":{"latest":"7.0.0"},'
        b'"versions":{"4.2.1":{"version":"4.2.1"},"4.3.0":{"version":"4.3.0"},'
        b'"5.2.0":{"version":"5.2.0"},"7.0.0":{"version":"7.0.0"}}}',
        b'*\0{"dist-tags":{"latest":"2.0.0","next":"3.0.0-rc.1"},"versions":{'
        b'"2.0.0":{"deprecated":"use 2.0.1"},"2.0.1":{},"1.9.9":{},"3.0.0-rc.1":{}}}',
        b'>=1.0.0-rc.0 <2\0{"versions":{"1.0.0-rc.1":{},"1.0.0":{"deprecated":true},'
        b'"0.9.0":{}},"dist-tags":{}}',
        b'~1.2\0{"versions":{"1.2.0":{"deprecated":"x"},"1.2.9":{"deprecated":"y"}}}',
    ])
    write("npmlock", [small] + [
        b'{"lockfileVersion":3,"packages":{"":{"name":"x"},"node_modules/a":{"version":"1.0.0",'
        b'"optional":true},"node_modules/a/node_modules/b":{"version":"2.0.0","dev":true,'
        b'"devOptional":true}}}',
        b'{"lockfileVersion":1,"dependencies":{"a":{"version":"1.0.0","dependencies":'
        b'{"b":{"version":"2.0.0","optional":true}}},"c":{"version":"3.0.0","dev":true}}}',
        b'{"lockfileVersion":3,"packages":{"":{"name":"x"},"node_modules/a":{"version":"1.0.0"},'
        b'"node_modules/@s/b":{"version":"2.0.0","dev":true},"packages/w":{"version":"0.0.1"},'
        b'"node_modules/w":{"resolved":"packages/w","link":true}}}',
        b'{"name":"x","version":"1.2.3"}', b"{}", b"[]", b'{"lockfileVersion":"3"}',
    ])
    write("bunlock", files("tests/fixtures/deps/bun/*") + [
        b'{"lockfileVersion":2,"configVersion":1,"workspaces":{"":{"name":"a","dependencies":'
        b'{"is-odd":"^3.0.1",},},},"packages":{"is-odd":["is-odd@3.0.1","",{"dependencies":'
        b'{"is-number":"^6.0.0"}},"sha512-x"],"is-odd/is-number":["is-number@6.0.0","",{},'
        b'"sha512-y"],},}',
        b"// c\n{'lockfileVersion': 0x1, /* c */ 'workspaces': {'': {}, 'p/w': {'name': 'w'}},"
        b"'packages': {'w': ['w@workspace:p/w'], 't': ['t@../t.tgz', {}, 'sha512-t'],"
        b"'g': ['g@github:u/g#1', {'os': ['!win32'], 'cpu': 'arm64'}, 'u-g-1'],"
        b"'w/@s/x': ['@s/x@1_0.0', '', {}, '']}} tail",
        b'{"lockfileVersion": 9}', b'{"name":"a","version":"v1.0.0+b"}', b"", b"[]",
    ])
    ws = (b"overrides:\n  tiny-b: 1.0.0\npatchedDependencies:\n  tiny-a: p.patch\n"
          b"packageExtensions:\n  tiny-a:\n    dependencies:\n      tiny-c: '*'\n"
          b"catalog:\n  tiny-a: 1.0.0\ncatalogs:\n  o:\n    z: ^1\n"
          b"ignoredOptionalDependencies:\n  - fsevents\nautoInstallPeers: false\n")
    lock9 = (b"lockfileVersion: '9.0'\nsettings:\n  autoInstallPeers: true\n"
             b"catalogs:\n  default:\n    tiny-a:\n      specifier: 1.0.0\n"
             b"      version: 1.0.0\noverrides:\n  tiny-b: 1.0.0\n"
             b"packageExtensionsChecksum: sha256-x\npnpmfileChecksum: sha256-y\n"
             b"patchedDependencies:\n  tiny-a: 44b2\nignoredOptionalDependencies:\n"
             b"  - fsevents\nimporters:\n  .: {}\n")
    lock6 = (b"lockfileVersion: '6.0'\nsettings:\n  autoInstallPeers: true\n"
             b"overrides:\n  tiny-b: 1.0.0\npackageExtensionsChecksum: 0669\n"
             b"patchedDependencies:\n  tiny-a@1.0.0:\n    hash: qfpa\n    path: p.patch\n")
    write("pnpmcfg", [
        b"\0" + ws, b"\0auto-install-peers = false\r\n", b"\0catalogs: [1]\n",
        b'\1{"pnpm":{"overrides":{"a":"1","b":"$b"},"patchedDependencies":{"a@1":"p"},'
        b'"packageExtensions":{"a":{"dependencies":{"b":"*"}}}}}',
        b'\2{"tiny-a":{"dependencies":{"tiny-c":"*"}},"b":{"peerDependencies":{"x":"1"}}}',
        b'\2{"a\\u00e9":{"dependencies":{"\\ud83d\\ude00":"\\n"}}}',
        b"\3" + lock9 + b"\0" + ws + b"\0diff --git a/x b/x\r\n",
        b"\3" + lock6 + b"\0" + ws + b"\0",
    ])
    write("pnpmlock", [b"\0" + x for x in files(fix + "pnpm/*lock.yaml")] +
          [b"\1" + x for x in files(fix + "pnpm/modules.yaml")] + [
        b"\0lockfileVersion: 5.4\npackages:\n  /a/1.0.0:\n    dev: false\n"
        b"  /@s/b/2.0.0_peer@1.0.0:\n    optional: true\n",
        b"\0lockfileVersion: '6.0'\npackages:\n  /a@1.0.0:\n    resolution: {integrity: x}\n",
        b"\0lockfileVersion: '9.0'\nimporters:\n  .:\n    dependencies:\n      w:\n"
        b"        specifier: workspace:*\n        version: link:packages/w\n"
        b"snapshots:\n  a@1.0.0(peer@2.0.0): {}\n  '@s/b@2.0.0':\n    optional: true\n",
        b"\1packageManager: pnpm@9.12.0\nskipped:\n  - fsevents@2.3.3\n",
        b"\1{\"included\":{\"devDependencies\":false},\"skipped\":[\"/fsevents/2.3.3\"],"
        b"\"virtualStoreDir\":\".pnpm\",\"virtualStoreDirMaxLength\":120}",
        b"\2---\nlockfileVersion: '9.0'\nimporters:\n  .:\n    configDependencies: {}\n---\n"
        b"lockfileVersion: '9.0'\nsettings:\n  autoInstallPeers: true\nimporters:\n  .:\n"
        b"    dependencies:\n      a:\n        specifier: ^1\n        version: 1.0.0(p@2)\n"
        b"      s:\n        specifier: npm:b@1\n        version: b@1.0.0\n"
        b"snapshots:\n  a@1.0.0(p@2): {}\n  b@1.0.0: {}\n---\nx: 1\n",
        b"\2lockfileVersion: 5.4\nimporters:\n  .:\n    specifiers:\n      a: ^1\n"
        b"    dependencies:\n      a: 1.0.0\npackages:\n  /a/1.0.0: {}\n",
        b'\3{"dependencies":{"a":"^1"},"devDependencies":{"b":"2"},"peerDependencies":{"p":"*"}}'
        b"\0lockfileVersion: '6.0'\nsettings:\n  autoInstallPeers: true\ndependencies:\n"
        b"  a:\n    specifier: ^1\n    version: 1.0.0\n",
    ])
    # the fast walk against libyaml's: yarn's own texts, and the edges of
    # the subset (what it leaves to libyaml, what it reads itself)
    write("gemreq", [
        b"3.4.4\0" + b"3.4.4", b"~> 3.3\0" + b"3.3.0", b"~> 3.3, < 3.3.5\0" + b"3.3.4",
        b">= 3.1, < 3.4\0" + b"3.4.0", b"!= 3.3.0\0" + b"3.3", b"3.4.0.preview1\0" + b"3.4.0",
        b"~> 3.4.0-rc1\0" + b"3.4.0.pre.rc1", b"3.x\0" + b"3.3.0", b"=> 3\0" + b"3",
        b"\0" + b"3.3.0", b"~> 0\0" + b"0.9", b"1.0-rc-1.2\0" + b"1.0.pre.rc.1.2",
    ])
    write("yamlfast", files(fix + "yarn-*/yarn.lock") + files(fix + "yarn-*/yarn-state.yml") +
          files(fix + "pnpm/pnpm-lock.yaml") + [
        b"---\nlockfileVersion: '9.0'\nimporters:\n  .:\n    configDependencies: {}\n---\n"
        b"lockfileVersion: '9.0'\npackages:\n  a@1.0.0:\n    resolution: {integrity: sha512-A==}\n"
        b"    cpu: [x64, arm64]\n    engines: {node: '>=12', npm: \"*\"}\n"
        b"    resolution2: {tarball: https://x.test/a.tgz}\nsnapshots:\n  a@1.0.0: {}\n  b: []\n",
        b"a: {b: c, d: [e]}\n",
        b"a: {b: c,}\nb: [c,d]\nc: {x:y: z}\nd: {a: b: c}\ne: [a: b]\n",
        b"a: 1\n---\n---\nb: 2\n",
        b"a: 1\n--- # c\nb: 2\n",
        b"- {a: b}\n",
        b"a:\n  - {b: 'c', \"d\": e}\n  - [f, 'g']\n",
        b'# c\n\n"a b":\n  k: v # c\n  e:\n  q: \'it\'\'s\'\n  s:\n    - "x\\"y"\n'
        b'    - z\n  t: \n"b": STOP\nlast:',
        b"a:\n  - x\nb:\n- y\n",
        b"a: b: c\n",
        b"a: b\n  c\n",
        b"a:\n  b:\n    c: d\n e: f\n",
        b"- a\n",
        b"a: {b: c}\n",
        b"a: 'x\n  y'\n",
        b"a: \"\\u0041\"\nb: \"\\t\"\n",
        b"a:    \n\n  # x\n  b: c#d #e\n",
        b"key with spaces  : v\n\"q\": w\n'r':\n",
        b"---\na: 1\n",
        b"...: 1\n",
        b"a:\tb\n",
        b"a: b\r\n",
        b"x: STOP\n",
        # keys near libyaml's 1024 bytes, quoted, padded, in a flow
        b'"' + b"a" * 1100 + b'": x\n', b"a" * 990 + b" " * 60 + b": x\n",
        b'k: {"' + b"a" * 1100 + b'": x}\n', b"a" * 999 + b": x\n",
    ])
    write("yarnlock", [b"\0" + x for x in files(fix + "yarn-*/yarn.lock")] +
          [b"\1" + x for x in files(fix + "yarn-*/yarn-state.yml")] + [
        b"\0# yarn lockfile v1\n\na@^1:\n  version \"1.0.0\"\n",
        b'\0__metadata:\n  version: 8\n\n"a@npm:^1, a@npm:^1.1":\n  version: 1.2.0\n'
        b'  resolution: "a@npm:1.2.0"\n\n"w@workspace:packages/w":\n  version: 0.0.0-use.local\n'
        b'  resolution: "w@workspace:packages/w"\n',
        b'\1__metadata:\n  version: 1\n  nmMode: classic\n\n"a@npm:1.2.0":\n'
        b'  locations:\n    - "node_modules/a"\n',
    ])
    write("yarngraph", [b"\0" + x + b"\0{}" for x in files(fix + "yarn-*/yarn.lock")] +
          [b"\1" + x for x in files(fix + "yarn-*/yarn-state.yml")] + [
        b'\0__metadata:\n  version: 8\n"app@workspace:.":\n  resolution: "app@workspace:."\n'
        b'  dependencies:\n    c: "npm:3.6.0"\n    t: "npm:5.4.5"\n  peerDependencies:\n    r: "*"\n'
        b'"c@npm:3.6.0":\n  version: 3.6.0\n  resolution: "c@npm:3.6.0"\n  dependencies:\n'
        b'    f: "npm:~2.3.2"\n  dependenciesMeta:\n    f:\n      optional: true\n'
        b'"f@patch:f@npm%3A~2.3.2#optional!builtin<compat/f>":\n  version: 2.3.3\n'
        b'  resolution: "f@patch:f@npm%3A2.3.3#optional!builtin<compat/f>::version=2.3.3"\n'
        b'  dependencies:\n    g: "npm:latest"\n  conditions: (os=darwin | os=linux) & !cpu=arm64\n'
        b'"g@npm:latest":\n  version: 1.0.0\n  resolution: "g@npm:1.0.0"\n'
        b'"t@patch:t@5.4.5#~builtin<compat/t>":\n  version: 5.4.5\n'
        b'  resolution: "t@patch:t@npm%3A5.4.5#~builtin<compat/t>::version=5.4.5"\n'
        b'\0{"dependencies":{"c":"3.6.0"},"devDependencies":{"t":"5.4.4"},"peerDependencies":{"r":"*"}}',
    ])
    write("yarnstate", files(fix + "yarn-pnp/install-state.v8") + [
        b"\xff\x0fo\"\x10lockFileChecksum\"\x03abc\"\x12accessibleLocators'\"\x01a,\x01{\x02",
        b"\xff\x0fo\"\x0estoredPackages;\"\x01ho\"\x0cdependencies;:\x00{\x01:\x02{\x01",
    ])
    write("uvlock", [b"\0" + x for x in files(fix + "uv/uv.lock")] +
          [b"\1" + x for x in files(fix + "uv/uv.lock")] + [
        # with a pyproject.toml after a NUL: the sync check's input
        b'\0version = 1\n[[package]]\nname = "app"\nversion = "0.1.0"\nsource = { virtual = "." }\n'
        b'[package.metadata]\nrequires-dist = [{ name = "rich" }]\n[package.metadata.requires-dev]\n'
        b'dev = [{ name = "pytest" }]\n\0[project]\nname = "app"\ndependencies = ["rich>=13"]\n'
        b'[project.optional-dependencies]\nx = ["app[y]", "httpx"]\n[dependency-groups]\n'
        b'dev = ["pytest", {include-group = "lint"}]\nlint = ["ruff"]\n[tool.uv]\n'
        b'dev-dependencies = ["ipython"]\n',
        b'\0version = 1\nrequires-python = ">=3.10"\n[[package]]\nname = "app"\n'
        b'version = "0.1.0"\nsource = { editable = "." }\ndependencies = [\n'
        b'  { name = "a", marker = "sys_platform == \'win32\'" },\n  { name = "b", extra = ["x"] },\n]\n'
        b'[package.optional-dependencies]\nfast = [{ name = "c" }]\n[package.dev-dependencies]\n'
        b'dev = [{ name = "d" }]\n[[package]]\nname = "a"\nversion = "1"\n[[package]]\n'
        b'name = "b"\nversion = "2"\n[package.optional-dependencies]\nx = [{ name = "c" }]\n'
        b'[[package]]\nname = "c"\nversion = "3"\n[[package]]\nname = "d"\nversion = "4"\n',
    ])
    write("poetrylock", [b"\0" + x for x in files(fix + "poetry/poetry.lock")] +
          [b"\3" + x for x in files(fix + "poetry/poetry.lock")] +
          [b"\4" + p + b"\0" + x for p, x in zip(files(fix + "poetry/pyproject.toml"),
                                               files(fix + "poetry/poetry.lock"))] + [
        b'\4[tool.poetry.dependencies]\npython = ">=3.8"\na = "*"\n'
        b'w = {version = "*", markers = "sys_platform == \'win32\'", python = "<3", platform = "darwin"}\n'
        b'[tool.poetry.dev-dependencies]\nd = [{version = "1"}, {version = "2", python = "^3.12"}]\n'
        b'[tool.poetry.group.docs]\noptional = true\n[tool.poetry.group.docs.dependencies]\ne = "*"\n\0'
        b'[[package]]\nname = "a"\nversion = "1.0"\noptional = false\n[package.dependencies]\nb = "*"\n'
        b'[[package]]\nname = "b"\nversion = "1.0"\noptional = false\n'
        b'[[package]]\nname = "w"\nversion = "1.0"\noptional = false\n'
        b'[[package]]\nname = "d"\nversion = "2"\noptional = false\n'
        b'[metadata]\nlock-version = "2.0"\n',
        b'\0[[package]]\nname = "a"\nversion = "1.0"\noptional = false\n'
        b'markers = "python_version >= \\"3.8\\""\ngroups = ["main", "dev"]\n'
        b'[package.dependencies]\nb = {version = ">=1", markers = "sys_platform == \'linux\'"}\n'
        b'[[package]]\nname = "b"\nversion = "2.0"\noptional = false\n'
        b'[metadata]\nlock-version = "2.1"\n',
    ])
    deps_strings = strings("tests/unit/test_deps.c")
    py_strings = strings("tests/unit/test_deps_py.c")
    write("pipreq", [b"\0" + x for x in deps_strings if b"==" in x and b"\n" in x] +
          [b"\0" + x for x in py_strings if b"==" in x] + [
        b"\0a==1\nb===2 ; python_version < '3'\n-r other.txt\n--hash=sha256:x\nc>=1\n",
        b"\1d[x,y]==3 \\\n  --hash=sha256:aa\ne==4; extra == 'z'\n",
    ])
    write("pymeta", [x for x in deps_strings if b"Name:" in x or b"Version:" in x] + [
        b"Metadata-Version: 2.1\r\nName: Typing_Extensions\r\nVersion: 4.12.2\r\n\r\nbody\n",
        b"Name: a\n  continued\nVersion:1\n", b"Zope.Interface", b"A-_.-B",
    ])
    write("pymarker", [r[0] for r in c_table("tests/unit/test_deps.c", "marker_rows")
                       if isinstance(r[0], bytes)] +
          [r[0] for r in c_table("tests/unit/test_deps_py.c", "marker_rows")
           if isinstance(r[0], bytes)])

    sb = "tests/unit/test_sandbox.c"
    sandbox = []
    st = strings(sb)
    for x in st:
        if b"Uid:" in x:
            sandbox.append(b"\0" + x)
        if b" - proc " in x or b"/proc " in x:
            sandbox.append(b"\5" + x)
        if b":x:" in x:
            sandbox.append(b"\x08" + x)
        if x.endswith(b"]") and b":[" in x:
            sandbox.append(b"\6" + x)
        if b"nameserver" in x:
            sandbox.append(b"\4" + x)
        if b"_authToken" in x or b"password" in x or b"aws_" in x or b'"auth' in x:
            sandbox.append(b"\x09" + x)
    for x in st:
        if b"Inter-" in x or b": " in x and b"\n" in x:
            sandbox.append(b"\1" + x)
        if b"Iface" in x or b"00000000" in x:
            sandbox.append(b"\2" + x + b"\n")
            sandbox.append(b"\3" + x + b"\n")
    sandbox += [b"\7         0          0 4294967295\n", b"\7         0       1000          1\n",
                b"\6pid:[4026531836]", b"\6CAP_NET_RAW", b"\6net_admin", b"\6npmrc",
                b"\6README", b"\6x~"]
    write("sandbox", sandbox)
    write("credkind", [
        b"\0-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEA\n",
        b"\0Bag Attributes\n    localKeyID: 01\n-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIF\n",
        b"\0PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\n",
        b"\0---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\n",
        b"\1https://me:tok@github.com\nhttps://other@host/x\n",
        b"\1github.com:\n    user: me\n    oauth_token: gho_x\n",
        b"\1users:\n- name: u\n  user:\n    client-key-data: LS0t\n    token: x\n",
        b"\1[pypi]\nusername = __token__\npassword = pypi-x\n",
        b"\2GITHUB_TOKEN", b"\2db_password_file", b"\2npm_config__authToken"])
    write("sudoers", [r[0] for r in c_table(sb, "rows", "test_sudoers(void)") if r and isinstance(r[0], bytes)
                      and (b"ALL" in r[0] or b"Defaults" in r[0])] + [
        b"User_Alias DEVS = dev, %docker\nDEVS ALL=(ALL) NOPASSWD: ALL\0",
        b"Defaults:dev !authenticate\n\0%#999 ALL = NOPASSWD:/bin/x \\\n  , /bin/y\n",
    ])

    redact = []
    for r in c_table("tests/unit/test_redact.c", "rows"):
        if r and isinstance(r[0], bytes):
            redact.append(b"\x70\0" + r[0].replace(b"|", b"\0"))
    redact += [b"\x10SECRET1\nhunter22\0app\0--x\0hunter22\0SECRET1",
               b"\xffa b c d\n\0x\0a b c d e"]
    write("redact", redact)

    ws = "tests/unit/test_workspaces.c"
    wsp = [b"\0" + x for x in files(cases + "go.work")]
    wsp += [b"\1" + x for x in files(cases + "pyproject.toml")]
    wsp += [b"\0" + r[1] for r in c_table(ws, "gowork_rows") if isinstance(r[1], bytes)]
    wsp += [b"\1" + r[1] for r in c_table(ws, "uv_rows") if isinstance(r[1], bytes)]
    for r in c_table(ws, "glob_rows"):
        if len(r) > 1 and isinstance(r[0], bytes) and isinstance(r[1], bytes):
            wsp.append(b"\2" + r[0] + b"\0" + r[1])
    for r in c_table(ws, "brace_rows"):
        if r and isinstance(r[0], bytes):
            wsp.append(b"\3" + r[0] + b"\0apps/web")
    for r in c_table(ws, "dir_rows"):
        if r and isinstance(r[0], bytes):
            wsp.append(b"\2x\0" + r[0])
    write("workspaces", wsp)

    quote = strings("tests/unit/test_init.c")
    write("initquote", [x for x in quote if b"\0" not in x] + [
        b"", b">=20 <23", "\u00e9t\u00e9 \u2028 \u0085".encode("utf-8"), b"\t\r\n\x1b",
    ])


if __name__ == "__main__":
    main()
