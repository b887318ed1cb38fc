#!/usr/bin/python3
"""tests/validate.py SCHEMA FILE... - validate each JSON document against the
JSON Schema (draft 2020-12) with Debian's python3-jsonschema, a validator we
did not write.  An empty file (a run killed on purpose) is skipped.  Prints
one line per failure and a closing 'schema: N passed, M failed'."""
import json
import sys

try:
    from jsonschema import Draft202012Validator
except ImportError:
    print("schema: python3-jsonschema is missing (make deps installs it)")
    print("schema: 0 passed, 1 failed")
    sys.exit(1)

with open(sys.argv[1]) as f:
    schema = json.load(f)
Draft202012Validator.check_schema(schema)
validator = Draft202012Validator(schema)
passed = failed = 0
for path in sys.argv[2:]:
    with open(path, "rb") as f:
        raw = f.read()
    if not raw.strip():
        continue
    try:
        doc = json.loads(raw)
    except ValueError as e:
        print(f"not ok: {path}: not JSON: {e}")
        failed += 1
        continue
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    if errors:
        failed += 1
        for e in errors[:5]:
            where = "/".join(str(p) for p in e.absolute_path)
            print(f"not ok: {path}: /{where}: {e.message[:300]}")
    else:
        passed += 1
print(f"schema: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
