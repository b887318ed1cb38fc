#!/usr/bin/python3
"""expect.py RESPONSES EXPECTATION... - check what `envpreflight mcp` wrote.

RESPONSES holds the server's stdout.  Every line must be one JSON-RPC 2.0
response object, and there must be exactly one line per EXPECTATION.
Calls run side by side, so responses are matched by id, not by place:
the responses with one id (null too) in the order of the expectations
with that id; notifications are left out.  An EXPECTATION is

    ID CODE              an error with this code (ID "null": id null)
    ID ok                a result
    ID ok PATH=JSON ...  a result where each PATH (dots and [n], from the
                         response: result.content[0].type) holds JSON

Prints "not ok: ..." for each mismatch; exits 1 when there was one.
"""
import json
import re
import sys


def lookup(doc, path):
    for part in re.findall(r"[^.\[\]]+|\[\d+\]", path):
        if part.startswith("["):
            doc = doc[int(part[1:-1])]
        else:
            doc = doc[part]
    return doc


def main():
    text = open(sys.argv[1], encoding="utf-8").read()
    lines = text.split("\n")
    bad = []
    if lines and lines[-1] == "":
        lines.pop()
    else:
        bad.append("the output does not end with a line end")
    wants = sys.argv[2:]
    # notifications (progress) are not responses: progress.py checks them
    lines = [l for l in lines if not l.startswith('{"jsonrpc":"2.0","method":')]
    if len(lines) != len(wants):
        bad.append(f"{len(lines)} responses, want {len(wants)}")
    got = {}	# id as JSON text -> [(n, line, msg)] in order
    for n, line in enumerate(lines, 1):
        try:
            msg = json.loads(line)
        except ValueError as e:
            bad.append(f"response {n} is not JSON ({e}): {line[:200]}")
            continue
        if msg.get("jsonrpc") != "2.0" or "id" not in msg:
            bad.append(f"response {n} is not JSON-RPC 2.0: {line[:200]}")
            continue
        got.setdefault(json.dumps(msg["id"]), []).append((n, line, msg))
    for want in wants:
        words = want.split()
        wid = None if words[0] == "null" else json.loads(words[0])
        queue = got.get(json.dumps(wid))
        if not queue:
            bad.append(f"no response with id {wid!r} for '{want}'")
            continue
        n, line, msg = queue.pop(0)
        if words[1] == "ok":
            if "result" not in msg or "error" in msg:
                bad.append(f"response {n}: want a result: {line[:300]}")
                continue
            for cond in words[2:]:
                path, value = cond.split("=", 1)
                try:
                    val = lookup(msg, path)
                except (KeyError, IndexError, TypeError):
                    bad.append(f"response {n}: no {path}: {line[:300]}")
                    continue
                if val != json.loads(value):
                    bad.append(f"response {n}: {path} is {val!r}, want {value}")
        else:
            code = msg.get("error", {}).get("code")
            if code != int(words[1]):
                bad.append(f"response {n}: code {code}, want {words[1]}: {line[:300]}")
    for b in bad:
        print("not ok:", b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
