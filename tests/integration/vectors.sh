#!/bin/sh
# vectors.sh - the suite reads the conformance vectors from its own copy
# (tests/conformance/, hermetic); where the project's shared/ folder sits
# beside the checkout, every vector file there must be the same as ours,
# so that a vector updated upstream is not silently left out.
. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
ours=$top/tests/conformance
shared=$top/../shared/conformance
for f in dotenv-parse.json semver-compare.tsv semver-range-parse.tsv semver-ranges.tsv semver-valid.tsv; do
	check "our copy has $f" [ -s "$ours/$f" ]
done
if [ -d "$shared" ]; then
	for f in "$shared"/*.json "$shared"/*.tsv; do
		[ -f "$f" ] || continue
		b=$(basename "$f")
		check "$b: our copy is shared/'s" cmp -s "$f" "$ours/$b"
	done
else
	skip "the copy against shared/: no shared/ beside the checkout"
fi
finish
