/* test_strmap.c - the string -> index hash table: puts, gets, replaces,
 * and a reserve that leaves no rehash to the puts it made room for */
#include "test.h"
#include "strmap.h"
#include "util.h"

#include <stdio.h>

static void basics(void)
{
	static const struct {
		const char *key;
		size_t value;
	} rows[] = {
		{ "a", 1 }, { "b", 2 }, { "", 3 }, { "a", 4 },	/* "a" replaced */
		{ "@scope/name", 5 }, { "name@npm:1.0.0", 6 },
	};
	struct strmap m = STRMAP_INIT;
	size_t i;

	CHECK_INT(strmap_get(&m, "a", 1), STRMAP_NONE, "empty");
	for (i = 0; i < ARRAY_SIZE(rows); i++)
		strmap_put(&m, rows[i].key, strlen(rows[i].key), rows[i].value);
	CHECK_INT(m.n, 5, "keys held");
	CHECK_INT(strmap_get(&m, "a", 1), 4, "the last put");
	CHECK_INT(strmap_get(&m, "", 0), 3, "the empty key");
	CHECK_INT(strmap_get(&m, "@scope/name", 11), 5, "scoped");
	CHECK_INT(strmap_get(&m, "@scope/nam", 10), STRMAP_NONE, "a prefix");
	CHECK_INT(strmap_get(&m, "ab", 1), 4, "by length");
	strmap_release(&m);
}

static void reserve(void)
{
	static const size_t counts[] = { 0, 1, 7, 8, 1000, 4096 };
	static char keys[4096][24];
	size_t c, i;

	for (i = 0; i < ARRAY_SIZE(keys); i++)
		snprintf(keys[i], sizeof(keys[i]), "k%zu", i);
	for (c = 0; c < ARRAY_SIZE(counts); c++) {
		struct strmap m = STRMAP_INIT;
		size_t mask, n = counts[c];

		strmap_reserve(&m, n);
		mask = m.mask;
		CHECK(mask + 1 >= 2 * (n + 1), "%zu: room for %zu keys at most half full", c, n);
		for (i = 0; i < n; i++)
			strmap_put(&m, keys[i], strlen(keys[i]), i);
		CHECK_INT(m.mask, mask, "%zu: no rehash", c);
		for (i = 0; i < n; i++)
			CHECK_INT(strmap_get(&m, keys[i], strlen(keys[i])), i, "%zu: key %zu", c, i);
		/* a smaller reserve later keeps the table */
		strmap_reserve(&m, n / 2);
		CHECK_INT(m.mask, mask, "%zu: a smaller reserve", c);
		strmap_release(&m);
	}
}

void test_main(void)
{
	basics();
	reserve();
}
