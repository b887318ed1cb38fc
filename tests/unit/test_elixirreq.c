/* test_elixirreq.c - Elixir's version requirements (src/parse/
 * elixirreq.c), each answer Version.match?/2's (lib/elixir/lib/version.ex:
 * approximate_upper for ~>, pre-releases allowed by default). */
#include "test.h"
#include "elixirreq.h"

static const struct {
	const char *req, *version;
	int want;
} rows[] = {
	{ "~> 1.15", "1.16.2", 1 }, { "~> 1.15", "2.0.0", 0 }, { "~> 1.15", "1.14.5", 0 },
	{ "~> 1.15.2", "1.15.7", 1 }, { "~> 1.15.2", "1.16.0", 0 },
	{ "~>1.15", "1.15.0", 1 }, { "~> 1.15", "2.0.0-rc.0", 0 },
	{ ">= 1.14.0 and < 1.18.0", "1.17.3", 1 }, { ">= 1.14.0 && < 1.18.0", "1.18.0", 0 },
	{ "~> 1.14 or ~> 2.0", "2.1.0", 1 }, { "~> 1.14 || ~> 2.0", "3.0.0", 0 },
	{ "1.16.2", "1.16.2", 1 }, { "== 1.16.2", "1.16.3", 0 }, { "> 1.16.2", "1.16.3", 1 },
	{ "<= 1.16.2", "1.16.2", 1 },
	/* refused by Elixir, or by us (!= has no comparator) */
	{ "== 1.15", "1.15.0", -1 }, { "!= 1.0.0", "1.1.0", -1 }, { "and ~> 1.1", "1.1.0", -1 },
	{ "~> 1.1 and", "1.1.0", -1 }, { "~> ~> 1.1", "1.1.0", -1 }, { "", "1.1.0", -1 },
	{ "~> 1", "1.1.0", -1 }, { "~> 1.15", "banana", -1 },
};

void test_main(void)
{
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int got = elixir_req_check(rows[i].req, rows[i].version);

		CHECK(got == rows[i].want, "'%s' for %s: %d, want %d", rows[i].req,
		      rows[i].version, got, rows[i].want);
	}
}
