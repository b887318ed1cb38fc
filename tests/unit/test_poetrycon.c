/* test_poetrycon.c - poetry's python constraints (src/parse/poetrycon.c),
 * each row's answer poetry-core's (parse_constraint(c).allows(v); -1 for
 * ParseConstraintError), checked with Debian's 1.4 where it agrees with
 * the current 2.x, and with 2.x's source where not (marked).
 * tests/integration/poetry.sh holds 4,000 more against poetry-core. */
#include "test.h"
#include "poetrycon.h"
#include "util.h"

static const struct {
	const char *constraint, *version;
	int want;
} rows[] = {
	{ "^3.10", "3.11.7", 1 }, { "^3.10", "4.0.0", 0 }, { "^3.10", "3.9.18", 0 },
	{ "^0.2", "0.2.5", 1 }, { "^0.2", "0.3.0", 0 }, { "^0.0.3", "0.0.4", 0 },
	{ "~3.11", "3.11.7", 1 }, { "~3.11", "3.12.0", 0 }, { "~3", "3.12.0", 1 },
	{ "~3", "4.0.0", 0 }, { "~3.11.2", "3.11.7", 1 }, { "~3.11.2", "3.12.0", 0 },
	{ "~=3.10", "3.12.0", 1 }, { "~=3.10", "4.0.0", 0 }, { "~=3.10.1", "3.11.0", 0 },
	{ "~=3", "3.0.5", 1 }, { "~=3", "3.1.0", 0 },	/* poetry's reading */
	{ ">=3.10 <3.12", "3.11.7", 1 }, { ">= 3.10, < 3.12", "3.12.0", 0 },
	{ ">=3.8,", "3.11.7", 1 }, { ">=3.12 || 3.11.*", "3.11.7", 1 },
	{ ">=3.9,<3.11 || >=3.11.5", "3.11.2", 0 }, { "3.11 | 3.12", "3.12.0", 1 },
	{ "3.11", "3.11.7", 0 }, { "3.11.7", "3.11.7", 1 }, { "==3.11.*", "3.11.7", 1 },
	{ "!=3.11.*", "3.11.7", 0 }, { "<>3.11.7", "4.0.0", 0 }, { "=3.11.7", "3.11.7", 1 },
	{ "*", "3.11.7", 1 }, { "x.x", "0.1", 1 },
	{ "^ 3.10", "3.11.7", 1 },	/* 2.x: CARET_CONSTRAINT's \s* */
	{ "3.10.x", "3.10.2", -1 },	/* 2.x: X_CONSTRAINT takes .* only */
	{ "3.8.9.*", "3.8.18", 0 },	/* 2.x: 3.8.9's line */
	{ "", "3.11.7", -1 }, { "nope", "3.11.7", -1 }, { "^", "3.11.7", -1 },
	{ ">=", "3.11.7", -1 }, { "nope || *", "3.11.7", -1 }, { "^3.1abc", "3.11.7", -1 },
	{ "^3.10 ||", "2.7.18", -1 }, { "^3.10 | ", "2.7.18", -1 }, { "||", "2.7.18", -1 },
	{ "^3.10 |||3.12", "2.7.18", -1 },
};

void test_main(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		char err[256] = "";
		int got = poetry_check(rows[i].constraint, rows[i].version, err, sizeof(err));

		CHECK(got == rows[i].want, "'%s' for %s: %d, want %d (%s)", rows[i].constraint,
		      rows[i].version, got, rows[i].want, err);
	}
}
