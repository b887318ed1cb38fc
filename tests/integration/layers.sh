#!/bin/sh
# layers.sh - the shape of the program, read from the build: the objects'
# symbols (nm) for calls, the compiler's dependency files (-MMD) for
# includes.
#
# 1. The layer rule.  src/ is one folder a layer; LAYERS below says which
#    layers each may call and include (src/README shows the same table).
#    Any other edge fails.  A header in include/ belongs to the layer of
#    the .c file of its name, or to the one HEADERS gives it; a header
#    beside code belongs to its folder.  The engine names no probe and no
#    runtime but through the registry: the descriptors probes.def lists.
# 2. The pure parsers (src/parse/) make no system call: no object there
#    refers to a function that reads a file, a directory, the environment,
#    the network, the clock or the process table, starts or signals a
#    process, or prints.  util.o reads nothing either.  That is what makes
#    them safe fuzz targets and lets a reader trust "bytes in, values out".
# 3. No import circles between modules, except through the two registries
#    (probe.c's table of probes, probes.def; spec.c's table of spec
#    sources, sources.def): a module is one .c file, or the files that
#    share a private header.
# 4. One owner for threads: only os/pool.o (pool.h, for the runner, the
#    ports scan and the deps probe's readers) and cli/signals.o (the
#    signal watcher) name pthread_create.  The spec loader starts none:
#    every spec is parsed before any thread starts.
#
# Objects come from $EP_BUILD (tests/run.sh sets it), else build/.
. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${EP_BUILD:-$top/build}
if ! command -v nm >/dev/null 2>&1; then
	not_ok "nm is not installed (binutils)"
	finish
	exit
fi
out=$TEST_TMPDIR/layers.out
py - "$top" "$build" >"$out" 2>&1 <<'EOF'
import glob, os, re, subprocess, sys

top, build = sys.argv[1], sys.argv[2]

# What a pure parser never calls (glibc's names, some with their aliases):
# files and directories, the environment, sockets and name lookups, users,
# the machine, the clock, processes and signals, threads, memory maps,
# output.  A new system function a parser starts to use fails here by its
# absence from ALLOWED below, not only by its presence in this list.
FORBIDDEN = set("""
open open64 openat openat64 openat2 creat creat64 close read pread pread64
readv preadv write pwrite writev stat stat64 fstat fstat64 lstat lstat64
fstatat fstatat64 statx __xstat __fxstat __lxstat __fxstatat statfs fstatfs
statvfs access faccessat euidaccess readlink readlinkat realpath
canonicalize_file_name opendir fdopendir readdir readdir64 scandir
closedir dirfd fopen fopen64 fdopen freopen fmemopen open_memstream fclose
fread fgets fgetc getc getline getdelim __getdelim fscanf __isoc99_fscanf
fwrite fputs fputc putc puts putchar printf fprintf vfprintf vprintf
dprintf perror stdout stderr stdin
getenv secure_getenv environ __environ setenv unsetenv putenv
socket connect bind listen accept accept4 recv recvfrom recvmsg send sendto
sendmsg getsockopt setsockopt getaddrinfo gethostbyname poll ppoll select
getpwuid getpwuid_r getpwnam getpwnam_r getgrgid getgrgid_r getuid geteuid
getgid getegid getpid getppid uname gethostname sysconf
time clock_gettime gettimeofday localtime localtime_r gmtime gmtime_r
fork vfork execve execv execvp execl execlp posix_spawn posix_spawnp system
popen kill raise signal sigaction waitpid waitid syscall ioctl fcntl
mmap munmap dlopen pthread_create pthread_join exit _exit
""".split())

# util.o is below every parser: what it may call that a parser may not,
# and why.  The clock: clock_ms() for the runner and the audit, which no
# parser calls (their objects do not name it, checked below).  stderr and
# fprintf: the one out-of-memory message before abort().
UTIL_ALLOWED = {"clock_gettime", "fprintf", "stderr"}
UTIL_ONLY = {"clock_ms"}

# syms(OBJS): {obj: (defined, undefined)}, from one nm for all of them
# (one a file cost 80 ms of CPU each, most of it nm's start)
def syms(objs):
    out = subprocess.run(["nm", "-P", "-A"] + objs, capture_output=True,
                         text=True, check=True).stdout
    r = {o: (set(), set()) for o in objs}
    for line in out.splitlines():
        name, _, rest = line.partition(": ")
        f = rest.split()
        if name not in r or len(f) < 2:
            continue
        d, u = r[name]
        if f[1] == "U":
            u.add(f[0])
        elif f[1] in "TDBRCVW":
            d.add(f[0])
    return r

# layer -> the layers it may call and include (besides its own)
LAYERS = {
    "util":     [],
    "parse":    ["util"],
    "os":       ["parse", "util"],
    "model":    ["os", "parse", "util"],
    "engine":   ["model", "os", "parse", "util"],
    "probes":   ["engine", "model", "os", "parse", "util"],
    "runtimes": ["engine", "model", "os", "parse", "util"],
    "cli":      ["engine", "probes", "runtimes", "model", "os", "parse", "util"],
}
# headers of include/ with no .c file of their name
HEADERS = {"origin.h": "util", "version.h": "util", "format.h": "engine",
           "probes.def": "engine", "spec_workspaces.h": "model",
           "deps_pnpm.h": "parse"}  # src/probes/deps_pnpm.c shares its name

objs = {}
for src in sorted(glob.glob(top + "/src/*/*.c")):
    rel = os.path.relpath(src, top + "/src")[:-2]
    obj = os.path.join(build, rel + ".o")
    if not os.path.exists(obj):
        print("not ok: no object %s (build first)" % obj)
        sys.exit(1)
    objs[rel] = obj
schema = os.path.join(build, "schema.o")
if os.path.exists(schema):
    objs["cli/schema"] = schema
found = syms(list(objs.values()))
mods = {m: found[o] for m, o in objs.items()}

owner = {}
for m, (d, _) in mods.items():
    for s in d:
        owner[s] = m

passed = failed = 0
def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("not ok: " + what)

parse = sorted(m for m in mods if m.startswith("parse/"))
check(len(parse) >= 20, "src/parse/ holds %d parsers" % len(parse))
for m in parse:
    d, u = mods[m]
    bad = sorted(s for s in u if s in FORBIDDEN or s in UTIL_ONLY)
    check(not bad, "%s.o calls %s" % (m, ", ".join(bad)))
    uses = sorted({owner[s] for s in u if s in owner} - set(parse) - {"util/util"})
    check(not uses, "%s.o uses %s, which are not pure parsers" % (m, ", ".join(uses)))
_, u = mods["util/util"]
bad = sorted(s for s in u if s in FORBIDDEN and s not in UTIL_ALLOWED)
check(not bad, "util.o calls %s" % ", ".join(bad))

# -- one owner for threads ---------------------------------------------
THREAD_OWNERS = {"os/pool", "cli/signals"}
starters = sorted(m for m, (_, u) in mods.items() if "pthread_create" in u)
for m in starters:
    check(m in THREAD_OWNERS, "%s.o calls pthread_create: a thread is started "
          "through pool.h (src/os/pool.c); only the signal watcher "
          "(src/cli/signals.c) starts its own" % m)
check("os/pool" in starters, "os/pool.o starts the threads (pthread_create)")

# -- the layer rule ----------------------------------------------------
def layer_of(m):
    return m.split("/")[0]
for m in mods:
    check(layer_of(m) in LAYERS, "src/%s/ is not a layer of LAYERS" % layer_of(m))
probe_defs = set(re.findall(r"^PROBE\((\w+)\)",
                            open(top + "/include/probes.def", encoding="utf-8").read(), re.M))
descriptors = {"probe_" + n for n in probe_defs}
edges = {}
for m, (d, u) in mods.items():
    a = layer_of(m)
    for s in u:
        if s not in owner:
            continue
        b = layer_of(owner[s])
        if b == a or b in LAYERS.get(a, []):
            continue
        if a == "engine" and s in descriptors:
            continue	# the registry: probe.c's table
        edges.setdefault((m, owner[s]), []).append(s)
for (m, o), ss in sorted(edges.items()):
    check(False, "%s calls %s (%s): %s may not use %s" %
          (m, o, ", ".join(sorted(ss)[:4]), layer_of(m), layer_of(o)))

def header_layer(path):
    rel = os.path.relpath(path, top)
    parts = rel.split("/")
    if parts[0] == "src" and len(parts) == 3:
        return parts[1]
    if parts[0] != "include":
        return None
    name = parts[-1]
    if name in HEADERS:
        return HEADERS[name]
    base = os.path.splitext(name)[0]
    found = [p.split("/")[-2] for p in glob.glob(top + "/src/*/" + base + ".c")]
    return found[0] if len(found) == 1 else "?"
headers_seen = set()
for m in mods:
    if m == "cli/schema":
        continue
    dep = os.path.join(build, m + ".d")
    if not os.path.exists(dep):
        check(False, "no dependency file %s (built without -MMD?)" % dep)
        continue
    text = open(dep, encoding="utf-8").read().replace("\\\n", " ")
    first = text.split("\n\n")[0]
    for h in first.split(":", 1)[1].split():
        if h.startswith("/") or not h.endswith((".h", ".def")):
            continue
        p = os.path.normpath(os.path.join(top, h))
        hl = header_layer(p)
        if hl is None:
            continue
        headers_seen.add(os.path.relpath(p, top))
        a = layer_of(m)
        check(hl != "?", "%s has no layer: name it in HEADERS" % os.path.relpath(p, top))
        check(hl in ("?", a) or hl in LAYERS.get(a, []),
              "%s includes %s (%s): %s may not use %s" %
              (m, os.path.relpath(p, top), hl, a, hl))
check(len(headers_seen) > 40, "%d headers read from the dependency files" % len(headers_seen))

# -- import circles ---------------------------------------------------
# modules: files joined by a private header they include
def private_headers(src):
    text = open(src, encoding="utf-8").read()
    d = os.path.dirname(src)
    for h in re.findall(r'^#include "([^"]+)"', text, re.M):
        p = os.path.normpath(os.path.join(d, h))
        if p.startswith(top + "/src/") and os.path.exists(p):
            yield p
group = {m: m for m in mods}
def find(m):
    while group[m] != m:
        m = group[m]
    return m
by_header = {}
for m in mods:
    src = os.path.join(top, "src", m + ".c")
    if os.path.exists(src):
        for h in private_headers(src):
            by_header.setdefault(h, []).append(m)
for h, ms in by_header.items():
    for m in ms[1:]:
        group[find(m)] = find(ms[0])

# the registries' own references to the entries they list
def entries(deffile, macro, prefix):
    path = glob.glob(top + "/include/" + deffile) + glob.glob(top + "/src/*/" + deffile)
    text = open(path[0], encoding="utf-8").read()
    return {prefix + n for n in re.findall(r"^%s\((\w+)\)" % macro, text, re.M)}
registry = {"engine/probe": entries("probes.def", "PROBE", "probe_"),
            "model/spec": entries("sources.def", "SOURCE", "source_")}
for r, names in registry.items():
    check(names and names <= mods[r][1],
          "%s.o names the entries of its table" % r)

graph = {}
for m, (d, u) in mods.items():
    a = find(m)
    graph.setdefault(a, set())
    for s in u:
        if s in registry.get(m, ()) or s not in owner:
            continue
        b = find(owner[s])
        if b != a:
            graph[a].add(b)

# Tarjan's strongly connected components
index, low, stack, on, sccs, counter = {}, {}, [], set(), [], [0]
sys.setrecursionlimit(10000)
def visit(v):
    index[v] = low[v] = counter[0]
    counter[0] += 1
    stack.append(v)
    on.add(v)
    for w in graph[v]:
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop()
            on.discard(w)
            comp.append(w)
            if w == v:
                break
        sccs.append(comp)
for v in sorted(graph):
    if v not in index:
        visit(v)
for comp in sccs:
    if len(comp) > 1:
        members = sorted(comp)
        detail = "; ".join("%s -> %s" % (a, ", ".join(sorted(graph[a] & set(comp))))
                           for a in members)
        check(False, "import circle: " + detail)
check(len(graph) > 40, "%d modules read" % len(graph))
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
EOF
st=$?
grep -v ' passed, ' "$out"
p=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$out")
f=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$out")
if [ -z "$p" ]; then
	not_ok "the nm reader did not finish (status $st)"
else
	T_PASSED=$((T_PASSED + p))
	T_FAILED=$((T_FAILED + f))
fi
finish
