/* fuzz_toml.c - the TOML 1.0 parser (src/parse/toml.c): pyproject.toml,
 * uv.lock and poetry.lock are the repository's text.
 *
 * Invariants: a failure has no tree, a line and column inside the input
 * and a printable message; a tree is a table whose every value is of a
 * known type, whose strings are NUL-terminated at their length, whose
 * nesting stays within 4 * the depth limit + 1 (toml.h) and whose value count within the
 * value limit; every key of a table without a NUL is found by toml_get;
 * and limits only ever turn a success into a failure: what parses under
 * small limits parses under the default ones to the same number of
 * values.
 */
#include "fuzz.h"
#include "toml.h"

#include <stdlib.h>
#include <string.h>

static size_t walk(const struct toml_value *v, unsigned depth, unsigned max)
{
	size_t n = 1, i;

	/* a header's parts (two levels each for an array of tables), a
	 * key's parts, then inline tables and arrays with their keys' parts:
	 * each at most max (toml.h) */
	FUZZ_CHECK(depth <= 4 * max + 1);
	FUZZ_CHECK(v->type <= TOML_TIME_LOCAL);
	FUZZ_CHECK(v->line >= 1 && v->col >= 1);
	switch (v->type) {
	case TOML_TABLE:
		for (i = 0; i < v->n; i++) {
			const struct toml_kv *kv = &v->kv[i];

			FUZZ_CHECK(kv->key && kv->val);
			if (!memchr(kv->key, '\0', kv->klen))
				FUZZ_CHECK(toml_get(v, kv->key) == kv->val);
			n += walk(kv->val, depth + 1, max);
		}
		break;
	case TOML_ARRAY:
		for (i = 0; i < v->n; i++) {
			FUZZ_CHECK(v->items[i]);
			n += walk(v->items[i], depth + 1, max);
		}
		break;
	case TOML_STRING:
		FUZZ_CHECK(toml_str(v) == v->str);
		/* fall through */
	case TOML_DATETIME:
	case TOML_DATETIME_LOCAL:
	case TOML_DATE_LOCAL:
	case TOML_TIME_LOCAL:
		FUZZ_CHECK(v->str && v->str[v->len] == '\0');
		break;
	default:
		FUZZ_CHECK(toml_str(v) == NULL);
		break;
	}
	return n;
}

/* how many lines data[0..size) has */
static unsigned lines_of(const uint8_t *data, size_t size)
{
	unsigned n = 1;
	size_t i;

	for (i = 0; i < size; i++)
		n += data[i] == '\n';
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct toml_limits small = { 4, 64 };
	struct toml_value *root = NULL, *tiny = NULL;
	struct parse_error err;
	uint8_t *owned;
	size_t nv = 0, ntiny = 0;
	int rc, rc_tiny;

	data = fuzz_scale(data, &size, &owned);
	rc = toml_parse((const char *)data, size, NULL, &root, &err);
	if (rc < 0) {
		FUZZ_CHECK(root == NULL);
		FUZZ_CHECK(err.msg[0] && fuzz_printable(err.msg));
		FUZZ_CHECK(err.line >= 1 && err.line <= lines_of(data, size));
		FUZZ_CHECK(err.col >= 1);
	} else {
		FUZZ_CHECK(root && root->type == TOML_TABLE);
		nv = walk(root, 0, toml_default_limits.max_depth);
		FUZZ_CHECK(nv <= toml_default_limits.max_values + 1);
	}
	/* the small limits: a second parse, cheap for the short inputs
	 * that can pass them */
	if (size <= 4096) {
		rc_tiny = toml_parse((const char *)data, size, &small, &tiny, &err);
		if (rc_tiny == 0) {
			ntiny = walk(tiny, 0, small.max_depth);
			FUZZ_CHECK(rc == 0 && ntiny == nv);
			FUZZ_CHECK(ntiny <= small.max_values + 1);
		} else {
			FUZZ_CHECK(tiny == NULL && err.msg[0]);
		}
		toml_free(tiny);
	}
	toml_free(root);
	free(owned);
	return 0;
}
