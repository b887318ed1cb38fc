/* test_duration.c - duration_parse, one row a case. */
#include "duration.h"
#include "test.h"

static const struct {
	const char *in;
	enum duration_error want;
	long ms;
} rows[] = {
	{ "500ms", DURATION_OK, 500 },
	{ "30s", DURATION_OK, 30000 },
	{ "2m", DURATION_OK, 120000 },
	{ "1h", DURATION_OK, 3600000 },
	{ "1m30s", DURATION_OK, 90000 },
	{ "1m1s1ms", DURATION_OK, 61001 },
	{ "1.5s", DURATION_OK, 1500 },
	{ ".5s", DURATION_OK, 500 },
	{ "1.s", DURATION_OK, 1000 },
	{ "0.25s", DURATION_OK, 250 },
	{ "1ms", DURATION_OK, 1 },
	{ "1.4ms", DURATION_OK, 1 },
	{ "1.5ms", DURATION_OK, 2 },
	{ "0.5ms", DURATION_OK, 1 },
	{ "007s", DURATION_OK, 7000 },
	{ "3s3s", DURATION_OK, 6000 },	/* Go adds them up too */
	{ "60m", DURATION_OK, 3600000 },	/* the limit of these rows */
	{ "", DURATION_SYNTAX, 0 },
	{ "abc", DURATION_SYNTAX, 0 },
	{ "s", DURATION_SYNTAX, 0 },
	{ ".s", DURATION_SYNTAX, 0 },
	{ "5 s", DURATION_SYNTAX, 0 },
	{ " 5s", DURATION_SYNTAX, 0 },
	{ "5s ", DURATION_SYNTAX, 0 },
	{ "+5s", DURATION_SYNTAX, 0 },
	{ "5sec", DURATION_SYNTAX, 0 },
	{ "5S", DURATION_SYNTAX, 0 },
	{ "5us", DURATION_SYNTAX, 0 },
	{ "5d", DURATION_SYNTAX, 0 },
	{ "1.5.5s", DURATION_SYNTAX, 0 },
	{ "1e3ms", DURATION_SYNTAX, 0 },
	{ "30", DURATION_NO_UNIT, 0 },
	{ "1m30", DURATION_NO_UNIT, 0 },
	{ "0", DURATION_NO_UNIT, 0 },
	{ "-5s", DURATION_NEGATIVE, 0 },
	{ "-0s", DURATION_NEGATIVE, 0 },
	{ "-", DURATION_NEGATIVE, 0 },
	{ "0s", DURATION_ZERO, 0 },
	{ "0ms", DURATION_ZERO, 0 },
	{ "0.4ms", DURATION_ZERO, 0 },
	{ "0h0m", DURATION_ZERO, 0 },
	{ "61m", DURATION_TOO_LONG, 0 },
	{ "3600001ms", DURATION_TOO_LONG, 0 },
	{ "99999999999999999999999h", DURATION_TOO_LONG, 0 },
	{ "1h0.5ms", DURATION_TOO_LONG, 0 },
};

void test_main(void)
{
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		long ms = -7;
		enum duration_error e = duration_parse(rows[i].in, strlen(rows[i].in),
						       3600000, &ms);

		CHECK_INT(e, rows[i].want, "'%s'", rows[i].in);
		CHECK_INT(ms, rows[i].want == DURATION_OK ? rows[i].ms : -7,
			  "'%s' ms", rows[i].in);
	}
	/* a length, not a NUL, ends the input */
	{
		long ms = 0;

		CHECK_INT(duration_parse("5s9", 2, 3600000, &ms), DURATION_OK, "len 2");
		CHECK_INT(ms, 5000, "len 2 ms");
	}
}
