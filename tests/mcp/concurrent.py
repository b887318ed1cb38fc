#!/usr/bin/python3
"""concurrent.py BINARY ROOT MARK PATH HOME - `envpreflight mcp` as a
server of calls side by side (run by tests/integration/mcp.sh).

ROOT is the server's directory, holding the repositories pass (passes
anywhere), hangescape (a node requirement; PATH's node hangs after leaving
a setsid grandchild, both marked with MARK) and later (a port that must
listen, written here).  Nothing here waits on the clock for a verdict:
each step waits for what the server wrote (a guard of 120 s against a
hang is the only timeout), and the order asserted is made by the test
itself (the port listens only after the other answers came).

Prints "not ok: ..." for each failure and a last line
"concurrent: N passed, M failed".
"""
import json
import os
import select
import socket
import subprocess
import sys
import time

BIN, ROOT, MARK, PATH, HOME = sys.argv[1:6]
passed = failed = 0


def check(desc, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print(f"not ok: {desc}" + (f": {detail}" if detail else ""))


def marked_running():
    """The live processes whose command line holds the fixture's marks."""
    n = 0
    marks = [f"41.{MARK}6".encode(), f"41.{MARK}7".encode()]
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmd = open(f"/proc/{pid}/cmdline", "rb").read()
            state = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if any(m in cmd for m in marks) and state != "Z":
            n += 1
    return n


def until(cond, what, limit=120):
    """Wait for cond (a guard against a hang, not a timing assertion)."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.02)
    print(f"not ok: gave up waiting for {what}")
    return False


class Server:
    def __init__(self):
        self.p = subprocess.Popen(
            [BIN, "mcp", "--no-config"], cwd=ROOT, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env={"PATH": PATH, "HOME": HOME, "LC_ALL": "C.UTF-8",
                 "XDG_CACHE_HOME": "/dev/null/no-cache"})
        self.buf = b""
        self.seen = []		# every message, in the order written

    def send(self, msg):
        self.p.stdin.write((json.dumps(msg) + "\n").encode())
        self.p.stdin.flush()

    def call(self, id, args, token=None):
        params = {"name": "audit", "arguments": args}
        if token is not None:
            params["_meta"] = {"progressToken": token}
        self.send({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                   "params": params})

    def pump(self, timeout):
        r, _, _ = select.select([self.p.stdout], [], [], timeout)
        if not r:
            return False
        chunk = os.read(self.p.stdout.fileno(), 65536)
        if not chunk:
            return None
        self.buf += chunk
        while b"\n" in self.buf:
            line, self.buf = self.buf.split(b"\n", 1)
            self.seen.append(json.loads(line))
        return True

    def answer(self, id):
        for m in self.seen:
            if "method" not in m and m.get("id") == id:
                return m
        return None

    def wait_answer(self, id, limit=120):
        end = time.monotonic() + limit
        while self.answer(id) is None and time.monotonic() < end:
            if self.pump(0.1) is None:
                break
        return self.answer(id)

    def close(self):
        self.p.stdin.close()
        while self.pump(120):
            pass
        return self.p.wait(120)


# a port bound, not listening: nobody else can take it; it listens when
# the test says so
hold = socket.socket()
hold.bind(("127.0.0.1", 0))
port = hold.getsockname()[1]
os.makedirs(os.path.join(ROOT, "later"), exist_ok=True)
with open(os.path.join(ROOT, "later", "preflight.yaml"), "w") as f:
    f.write(f"version: 1\nports:\n  listening: [{port}]\n")

s = Server()
s.send({"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "py", "version": "1"}}})
check("initialize", s.wait_answer(0) is not None)

# ---- a long wait does not hold up a ping nor another call
s.call(1, {"dir": "later", "wait_ms": 600000, "interval_ms": 100}, token="p1")
s.call(2, {"dir": "pass"})
s.send({"jsonrpc": "2.0", "id": 3, "method": "ping"})
a2, a3 = s.wait_answer(2), s.wait_answer(3)
check("a call beside a waiting one is answered", a2 is not None and
      a2["result"]["structuredContent"]["ok"] is True, a2)
check("a ping beside a waiting call is answered", a3 is not None and a3.get("result") == {}, a3)
check("the waiting call is not answered yet", s.answer(1) is None)
progress = lambda: [m for m in s.seen if m.get("method") == "notifications/progress"]
until(lambda: s.pump(0.1) is None or len(progress()) >= 2, "progress notifications")
hold.listen(1)
a1 = s.wait_answer(1)
check("the waiting call passes once its port listens", a1 is not None and
      a1["result"]["structuredContent"]["ok"] is True, a1)
hold.close()
notes = progress()
check("progress notifications during wait_ms", len(notes) >= 2, len(notes))
p = [n["params"] for n in notes]
check("... each with the call's token", all(x["progressToken"] == "p1" for x in p), p[:2])
check("... progress grows", all(a["progress"] < b["progress"] for a, b in zip(p, p[1:])), p[:3])
check("... the total is wait_ms", all(x["total"] == 600000 for x in p), p[:2])
check("... the message names the port", all(f"port {port}" in x["message"] for x in p), p[:2])
last = max(i for i, m in enumerate(s.seen) if m.get("method"))
check("... none after the answer", s.seen.index(a1) > last)
check("no progress without a token", all(m.get("method") != "notifications/progress"
      or m["params"]["progressToken"] == "p1" for m in s.seen))

# ---- cancelled: no answer, and its children (a hung version query and
# its setsid grandchild) are ended
s.call(4, {"dir": "hangescape", "timeout_ms": 600000})
until(lambda: marked_running() >= 2, "the hung runtime and its grandchild")
s.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 4, "reason": "test"}})
s.send({"jsonrpc": "2.0", "id": 5, "method": "ping"})
check("a ping after a cancellation", s.wait_answer(5) is not None)
check("a cancelled call's children end", until(lambda: marked_running() == 0,
                                               "the cancelled call's children", 30))

# ---- a duplicate id while the first runs; a cancellation of an unknown
# id; a call cancelled while it waits for a slot never starts
s.call(6, {"dir": "hangescape", "timeout_ms": 600000})
until(lambda: marked_running() >= 2, "the second hung runtime")
s.call(6, {"dir": "pass"})
s.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 99}})
s.send({"jsonrpc": "2.0", "id": 7, "method": "ping"})
check("a ping after a cancellation of an unknown id", s.wait_answer(7) is not None)
s.send({"jsonrpc": "2.0", "id": 6, "method": "ping"})	# any method
s.send({"jsonrpc": "2.0", "id": 8, "method": "ping"})
s.wait_answer(8)
dup = [m for m in s.seen if m.get("id") is None and "error" in m]
check("a duplicate id is refused with id null, an audit's or a ping's",
      len(dup) == 2 and all(d["error"]["code"] == -32600 and "6" in d["error"]["message"]
                            for d in dup), dup)
s.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 6}})
check("the second cancelled call's children end", until(lambda: marked_running() == 0,
                                                        "the second call's children", 30))
for i in range(10, 16):		# more than run at once: some wait for a slot
    s.call(i, {"dir": "hangescape", "timeout_ms": 600000})
until(lambda: marked_running() >= 8, "four calls running")
for i in range(10, 16):
    s.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": {"requestId": i}})
s.send({"jsonrpc": "2.0", "id": 16, "method": "ping"})
check("a ping after six cancellations", s.wait_answer(16) is not None)
check("six cancelled calls leave nothing", until(lambda: marked_running() == 0,
                                                 "the six calls' children", 30))

# ---- a call's process killed from outside (the OOM killer): the call
# is answered with an error, what it left is killed by the server (its
# subreaper), and the other call killed at once is answered too
s.call(20, {"dir": "hangescape", "timeout_ms": 600000})
s.call(21, {"dir": "hangescape", "timeout_ms": 600000})
until(lambda: marked_running() >= 4, "two more calls running")
kids = open(f"/proc/{s.p.pid}/task/{s.p.pid}/children").read().split()
for k in kids:
    os.kill(int(k), 9)
a20, a21 = s.wait_answer(20), s.wait_answer(21)
check("killed calls' processes: each call answered -32603",
      all(a and a.get("error", {}).get("code") == -32603 for a in (a20, a21)), (a20, a21))
check("... and what they left is ended", until(lambda: marked_running() == 0,
                                                "the killed calls' children", 30))
s.send({"jsonrpc": "2.0", "id": 22, "method": "ping"})
check("... and the server goes on", s.wait_answer(22) is not None)

# ---- the end of input: answered calls only, exit 0
st = s.close()
check(f"exit 0 at the end of input (got {st})", st == 0)
answered = [m.get("id") for m in s.seen if "method" not in m]
check("no cancelled call was answered", not set(answered) & {4, 6, 10, 11, 12, 13, 14, 15},
      answered)
check("nothing left running", marked_running() == 0)
# ---- the client gone mid-call (the read end of its stdout closed): the
# server sees it at once, not at its next write: its call's children end
# and it exits 1
g = Server()
g.send({"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "py", "version": "1"}}})
g.wait_answer(0)
g.call(1, {"dir": "hangescape", "timeout_ms": 600000})
until(lambda: marked_running() >= 2, "the call before the client goes")
g.p.stdout.close()
try:
    st = g.p.wait(120)
except subprocess.TimeoutExpired:
    st = None
    g.p.kill()
check(f"client gone mid-call: exit 1 (got {st})", st == 1)
check("... its call's children ended", until(lambda: marked_running() == 0,
                                              "the gone client's call's children", 30))
g.p.stdin.close()
print(f"concurrent: {passed} passed, {failed} failed")
