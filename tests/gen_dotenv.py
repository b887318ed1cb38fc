#!/usr/bin/env python3
"""tests/gen_dotenv.py [SEED] [N] - .env files for a differential run of
composeenv against compose-go's own dotenv (dotenv.ParseWithLookup, the
reader docker compose runs on a project's .env; issue 21): one JSON object
a line, {"input": TEXT}.  Lines are drawn from what .env files hold and
where the readers part: export, "KEY: value", a bare KEY, spaces around
and inside keys, ' " and ` quotes with escapes and line breaks inside,
" #" and "#" comments, ${VAR} of earlier keys with every operator, octal
and shell escapes, CR and CRLF, a byte-order mark, keys compose refuses.
The same seed gives the same files.  tests/fixtures/compose/README says
how compose-go's answers to a run of it were made."""
import json
import random
import sys

KEYS = ["A", "B", "DB_URL", "x.y", "a-b", "K[0]", "_U", "Z9"]
BAD_KEYS = ["A B", "1A", "A$", "\ufeffA", "é", "A\tB", "", "A/B"]
VALUES = ["v", "", "a b", "x#y", "x #y", "#c", "$A", "${A}", "${B:-d}", "${U:?m}",
          "${A:+alt}", "$$A", "\\$A", "a\\nb", "\\0101", "\\0128", "\\t", "\\\\", "\\\"",
          "'", '"', "`x`", "{\"j\":1}", "http://h:1/p#f", " sp ", "é", "${", "$1",
          "\\'"]


def value(r):
    v = "".join(r.choice(VALUES) for _ in range(r.randrange(0, 3)))
    q = r.random()
    if q < 0.45:
        return v
    if q < 0.7:
        return '"' + v.replace('"', r.choice(['\\"', '"', ""])) + ('"' if r.random() < 0.9 else "")
    if q < 0.9:
        return "'" + v.replace("'", r.choice(["\\'", "'", ""])) + ("'" if r.random() < 0.9 else "")
    return "`" + v + "`"


def line(r):
    k = r.random()
    if k < 0.08:
        return r.choice(["", " ", "# comment", "  # indented", "#A=1"])
    key = r.choice(BAD_KEYS) if r.random() < 0.03 else r.choice(KEYS)
    if k < 0.13:
        return key
    pre = r.choice(["", "", "", "export ", "export\t", " ", "exported "])
    sep = r.choice(["=", "=", "=", " = ", ": ", ":", "= "])
    tail = r.choice(["", "", "", " # c", "#c", "  ", "\t"])
    return pre + key + sep + value(r) + tail


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 21
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    r = random.Random(seed)
    for _ in range(n):
        nl = r.choice(["\n", "\n", "\n", "\r\n", "\r"])
        text = nl.join(line(r) for _ in range(r.randrange(1, 6)))
        if r.random() < 0.7:
            text += nl
        if r.random() < 0.03:
            text = "\ufeff" + text
        print(json.dumps({"input": text}, ensure_ascii=False))


if __name__ == "__main__":
    main()
