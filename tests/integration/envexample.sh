#!/bin/sh
# envexample.sh - the example and the .env as a new user meets them (issue 7,
# items 8-11): what dotenv parses never stops the audit, what it skips in the
# example does; keys the example leaves empty warn; the example's names and
# their order; keys commented out in the example are not extra.
. "$(dirname "$0")/../lib.sh"
repo=$TEST_TMPDIR/repo
out=$TEST_TMPDIR/out
err=$TEST_TMPDIR/err

run() { ep "$@" >"$out" 2>"$err"; st=$?; }
fresh() { rm -rf "$repo"; mkdir -p "$repo"; }
# example TEXT: a repository whose .env is a copy of the example
example() { fresh; printf "$1" >"$repo/.env.example"; cp "$repo/.env.example" "$repo/.env"; }

# 8. lines dotenv parses, not as written: never exit 2, a warning naming
# key and line, and never the "silently skips" hint
for text in 'A=1\nB="open\nC=2\n' 'A="x" y\nC=2\n' 'A:\nB=1\n' 'A\n=1\n' \
	'K=-----BEGIN KEY-----\nab/cd\nQ2FiAjw=\n-----END KEY-----\n' 'A: value\n'; do
	example "$text"
	run --explain --only=env "$repo"
	check "parsed by dotenv: no exit 2 ($text, got $st)" [ "$st" -le 1 ]
	check "parsed by dotenv: no skip hint ($text)" sh -c "! grep -q 'silently skips' '$out'"
done
example 'A=1\nB="open\nC=2\n'
run --only=env "$repo"
check "unterminated quote warns (got $st)" [ "$st" = 0 ]
check "it names key and line" grep -q 'dotenv misreads B at .env:2 (unterminated quote' "$out"
run --explain --only=env "$repo"
check "the example's own misread is a note" grep -q 'note: .env.example:2: B: unterminated quote' "$out"
example 'A: value\n'
run --only=env "$repo"
check "'A: value' is a key, no finding" grep -q 'parity: 1/1 keys matched to .env.example$' "$out"
example 'A:\nB=1\n'
run --only=env "$repo"
check "'A:' takes the next line" grep -q "dotenv misreads A at .env:1 (no value on the key's line: the value is taken from line 2)" "$out"
# what dotenv skips stops the audit when the example has it
for text in 'A=1\nnot an assignment\n' 'A:value\n' 'K=-----BEGIN KEY-----\nab/cd\n\n-----END KEY-----\n'; do
	example "$text"
	run "$repo"
	check "skipped by dotenv: exit 2 ($text, got $st)" [ "$st" = 2 ]
	check "skipped by dotenv: says so ($text)" grep -q '(dotenv skips this line)' "$err"
done
# ... and fails the check, with the true hint, when the .env has it
example 'A=\n'
printf 'A=1\nnot an assignment\n' >"$repo/.env"
run --only=env "$repo"
check "a .env line dotenv skips fails (got $st)" [ "$st" = 1 ]
check "with the skip hint" grep -q 'dotenv silently skips lines' "$out"

# 9. a key that may be a piece of a secret: by length and line only
example 'A=\n'
printf 'A=1\nPEM=-----BEGIN KEY-----\nab/cd\nQ2FiAjw=\n-----END KEY-----\nXq9Zt=1\nstray text\nYq9Zt=2\n' >"$repo/.env"
for fmt in human json junit github; do
	run --format=$fmt --explain --only=env "$repo"
	check "$fmt: a fragment is never named" sh -c "! grep -q 'Q2FiAjw' '$out'"
	check "$fmt: nor a key right after a value dotenv skipped" sh -c "! grep -q 'q9Zt' '$out'"
done
run --json --only=env "$repo"
check "json: extra keys by length and line" grep -q '"extra": \["PEM", "(a 5-character name on line 6)", "(a 5-character name on line 8)"\]' "$out"
check "json: the PEM is one misread" grep -q '"key": "PEM"' "$out"

# 10. keys empty in the example and still empty: a warning
example 'A=\nB=\nC=\nD=set\n'
run --only=env "$repo"
check "still empty: exit 0 (got $st)" [ "$st" = 0 ]
check "still empty: warning" grep -q '⚠ .env parity: 1/4 keys matched to .env.example; 3 keys are still empty, as in .env.example: A, B, C' "$out"
check "still empty: the hint names env.optional and env.required" grep -q 'env.optional.*env.required' "$out"
run --strict --only=env "$repo"
check "still empty under --strict: exit 1 (got $st)" [ "$st" = 1 ]
printf 'version: 1\nenv:\n  required: [B]\n' >"$repo/preflight.yaml"
run --only=env "$repo"
check "still empty but env.required: fails (got $st)" [ "$st" = 1 ]
check "... as empty" grep -q '1 empty (B); 2 keys are still empty' "$out"
printf 'version: 1\nenv:\n  optional: [A, B, C]\n' >"$repo/preflight.yaml"
run --only=env "$repo"
check "env.optional: a pass (got $st)" grep -q '✔ .env parity: 1/1 keys matched' "$out"
rm "$repo/preflight.yaml"
printf 'A=\nB=\nD=\n' >"$repo/.env"
run --only=env "$repo"
check "a key with a value in the example, empty in .env, fails (got $st)" [ "$st" = 1 ]
check "... named empty" grep -q '1 empty (D)' "$out"
printf 'A=\nD=x\n' >"$repo/.env"
run --only=env "$repo"
check "a missing key fails, empty in the example or not (got $st)" grep -q '2 of 4 keys missing (B, C)' "$out"
# keys commented out in the example are known: uncommenting them is no extra
example 'A=\n# SENTRY_DSN=\n## export DEBUG_PORT = 9229\n'
printf 'A=1\nSENTRY_DSN=x\nDEBUG_PORT=9229\nOTHER=1\n' >"$repo/.env"
run --only=env "$repo"
check "commented-out keys are not extra" grep -q '1 extra key (OTHER) not in .env.example' "$out"

# a key the example assigns twice may be assigned twice in its copy
example 'A=1\nB=2\nA=3\n'
run --only=env "$repo"
check "a duplicate copied from the example passes (got $st)" grep -q 'parity: 2/2 keys matched' "$out"
printf 'A=1\nB=2\nB=3\n' >"$repo/.env"
run --only=env "$repo"
check "a duplicate of its own fails (got $st)" grep -q 'duplicate key B (.env:3 overrides line 2)' "$out"

# 11. the example's names, in order; the others named with --explain
for name in .env.example .env.sample .env.template .env.dist example.env \
	.env.local.example .env.development.example .env.dev.example; do
	fresh
	printf 'ONLY_KEY=\n' >"$repo/$name"
	run --json --only=env "$repo"
	check "$name is an example (got $st)" grep -q "\"example\": \"$name\"" "$out"
done
fresh
printf 'A=\n' >"$repo/.env.dist"
printf 'B=\n' >"$repo/.env.sample"
printf 'C=\n' >"$repo/example.env"
run --explain --only=env "$repo"
check ".env.sample before .env.dist and example.env" grep -q 'no .env; 1 of 1 key missing (B)' "$out"
check "--explain names the others" grep -q 'note: also here, not read: .env.dist, example.env' "$out"
run --json --only=env "$repo"
check "json: other_examples" grep -q '"other_examples": \[".env.dist", "example.env"\]' "$out"
printf 'version: 1\nenv:\n  example: example.env\n' >"$repo/preflight.yaml"
run --json --only=env "$repo"
check "env.example chooses; the rest are others" grep -q '"other_examples": \[".env.sample", ".env.dist"\]' "$out"
# .env.local.example is copied to .env.local, unless only .env is there
fresh
printf 'A=\n' >"$repo/.env.local.example"
run --only=env "$repo"
check ".env.local.example: the hint copies to .env.local" grep -q 'cp .env.local.example .env.local' "$out"
printf 'A=1\n' >"$repo/.env.local"
run --only=env "$repo"
check ".env.local is read" grep -q '.env.local parity: 1/1 keys matched' "$out"
rm "$repo/.env.local"
printf 'A=1\n' >"$repo/.env"
run --only=env "$repo"
check "only .env: .env is read" grep -q '^✔ .env parity: 1/1 keys matched' "$out"
finish
