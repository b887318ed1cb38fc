/* nodelts.c - Node.js LTS lines by date; see nodelts.h.  Pure: today's
 * date and nvm's alias files are read in src/nvm_aliases.c.
 *
 * The table is nodejs/Release schedule.json (snapshot NODELTS_TABLE_DATE):
 * every line with an "lts" date, its codename from CODENAMES.md (v26's
 * "codename" field was still empty in that snapshot; CODENAMES.md names it
 * Lithium).  A new LTS line is one new row; rows are oldest first.
 */
#include "nodelts.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct nodelts_line lines[] = {
	{ 4, "argon", 20151012, 20170401, 20180430 },
	{ 6, "boron", 20161018, 20180430, 20190430 },
	{ 8, "carbon", 20171031, 20190101, 20191231 },
	{ 10, "dubnium", 20181030, 20200519, 20210430 },
	{ 12, "erbium", 20191021, 20201130, 20220430 },
	{ 14, "fermium", 20201027, 20211019, 20230430 },
	{ 16, "gallium", 20211026, 20221018, 20230911 },
	{ 18, "hydrogen", 20221025, 20231018, 20250430 },
	{ 20, "iron", 20231024, 20241022, 20260430 },
	{ 22, "jod", 20241029, 20251021, 20270430 },
	{ 24, "krypton", 20251028, 20261020, 20280430 },
	{ 26, "lithium", 20261028, 20271020, 20290430 },
};

const struct nodelts_line *nodelts_first(void)
{
	return &lines[0];
}

const struct nodelts_line *nodelts_last(void)
{
	return &lines[ARRAY_SIZE(lines) - 1];
}

static int days_in_month(long y, long m)
{
	static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;

	return m == 2 && leap ? 29 : days[m - 1];
}

int nodelts_date_parse(const char *s, long *out)
{
	long y, m, d;
	size_t i;

	if (!s || strlen(s) != 10 || s[4] != '-' || s[7] != '-')
		return -1;
	for (i = 0; i < 10; i++)
		if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9'))
			return -1;
	y = strtol(s, NULL, 10);
	m = strtol(s + 5, NULL, 10);
	d = strtol(s + 8, NULL, 10);
	if (y < 1970 || m < 1 || m > 12 || d < 1 || d > days_in_month(y, m))
		return -1;
	*out = y * 10000 + m * 100 + d;
	return 0;
}

const char *nodelts_date_format(long d, char *buf, size_t len)
{
	snprintf(buf, len, "%04ld-%02ld-%02ld", d / 10000, d / 100 % 100, d % 100);
	return buf;
}

const struct nodelts_line *nodelts_newest(long today)
{
	size_t i = ARRAY_SIZE(lines);

	while (i-- > 0)
		if (lines[i].lts <= today)
			return &lines[i];
	return NULL;
}

const struct nodelts_line *nodelts_back(long today, unsigned long n,
					unsigned long *avail)
{
	const struct nodelts_line *newest = nodelts_newest(today);
	unsigned long before = newest ? (unsigned long)(newest - lines) : 0;

	if (avail)
		*avail = before;
	return newest && n <= before ? newest - n : NULL;
}

const struct nodelts_line *nodelts_by_codename(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lines); i++)
		if (strlen(lines[i].codename) == len &&
		    memcmp(lines[i].codename, s, len) == 0)
			return &lines[i];
	return NULL;
}

const struct nodelts_line *nodelts_by_major(unsigned long major)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lines); i++)
		if (lines[i].major == major)
			return &lines[i];
	return NULL;
}

void nodelts_nvm_release(struct nodelts_nvm *n)
{
	free(n->file);
	memset(n, 0, sizeof(*n));
}
