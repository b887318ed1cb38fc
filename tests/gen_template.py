#!/usr/bin/env python3
"""tests/gen_template.py [SEED] [N] - compose interpolation inputs for a
differential run against compose-go's template.Substitute (issue 21): one
JSON object a line, {"text": ..., "env": {NAME: VALUE}}, from a grammar of
what compose files hold: $ and $$, ${VAR} with every operator (:- - :? ?
:+ +), nested and broken forms, shell text ($1, awk '{print $2}', regexes
ending in $), braces, quotes, newlines.  The same seed gives the same
inputs.  tests/conformance/compose-template.json holds compose-go's
answers to a run of it (see its README)."""
import json
import random
import sys

NAMES = ["A", "B", "FOO", "a_b9", "_X", "EMPTY", "UNSET", "PORT"]
LIT = ["x", " ", "-", ":", "/", "{", "}", "'", '"', "\\", "1", "a b", "\n", "$", "$$",
       "^", "[", "]", ",", "=", "\t", "é"]
OPS = [":-", "-", ":?", "?", ":+", "+", "", ":", "!", ":x"]


def name(r):
    n = r.choice(NAMES)
    if r.random() < 0.08:
        return r.choice(["1A", "", " A", "A ", "a-b", "9"])
    return n


def atom(r, depth):
    k = r.random()
    if k < 0.25:
        return r.choice(LIT)
    if k < 0.35:
        return "$" + name(r)
    if k < 0.42:
        return "$" + r.choice(["1", "{", "}", " ", "", "$", "-", "(", "@"])
    if k < 0.85 and depth < 4:
        op = r.choice(OPS)
        word = "".join(atom(r, depth + 1) for _ in range(r.randrange(0, 3))) if op else ""
        close = "}" if r.random() < 0.93 else ""
        return "${" + name(r) + op + word + close
    return r.choice(["echo $1", "awk '{print $2}'", "^x$", "a $ b", "${", "}", "{}",
                     "{\"a\":1}", "$}", "${}"])


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 21
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    r = random.Random(seed)
    for _ in range(n):
        text = "".join(atom(r, 0) for _ in range(r.randrange(1, 5)))
        env = {}
        for v in NAMES:
            if v == "UNSET":
                continue
            if v == "EMPTY":
                env[v] = ""
            elif r.random() < 0.6:
                env[v] = r.choice(["", "v", "1", "a b", "$A", "${B}", "{x}", "3000"])
        print(json.dumps({"text": text, "env": env}, ensure_ascii=False))


if __name__ == "__main__":
    main()
