/* test_semver.c - node-semver conformance: every row of the shared
 * conformance TSVs is one assertion, then a table of edge cases of our own
 * (each expected value checked against node-semver 7.8.6). */
#include "test.h"
#include "saferead.h"

#include "semver.h"
#include "util.h"

/* "", "loose", "includePrerelease" or "loose,includePrerelease". */
static unsigned row_opts(const char *s)
{
	unsigned o = 0;

	if (strstr(s, "loose"))
		o |= SEMVER_LOOSE;
	if (strstr(s, "includePrerelease"))
		o |= SEMVER_INCLUDE_PRERELEASE;
	return o;
}

/* What valid(s, opts) returns, or "INVALID"; the caller frees it. */
static char *valid_text(const char *s, unsigned opts)
{
	char buf[SEMVER_TEXT_MAX];
	struct semver v;

	if (semver_parse(s, opts, &v))
		return xstrdup("INVALID");
	semver_format(&v, buf, sizeof(buf));
	semver_release(&v);
	return xstrdup(buf);
}

/* What validRange(s, opts) returns, or "INVALID"; the caller frees it. */
static char *range_text(const char *s, unsigned opts)
{
	struct semver_range *r = semver_range_parse(s, opts);
	char *t;

	if (!r)
		return xstrdup("INVALID");
	t = semver_range_format(r);
	semver_range_free(r);
	return t;
}

/* compare(a, b, opts), or 2 when either does not parse. */
static int compare_str(const char *a, const char *b, unsigned opts)
{
	struct semver va, vb;
	int ea = semver_parse(a, opts, &va), eb = semver_parse(b, opts, &vb);
	int c = ea || eb ? 2 : semver_compare(&va, &vb);

	semver_release(&va);
	semver_release(&vb);
	return c;
}

typedef void row_fn(const char *file, unsigned line, char **f, size_t nf);

/* Call fn for every data row of a conformance TSV: fields are literal,
 * split on tabs only, and '#' lines are comments.  The file is one
 * assertion when it cannot be read. */
static void each_row(const char *name, size_t want_fields, row_fn *fn)
{
	struct blob b;
	char *line, *next, *f[8];
	unsigned lineno = 0, rows = 0;

	if (saferead_path(test_shared(name), SPEC_FILE_CAP, &b)) {
		CHECK(0, "cannot read %s", test_shared(name));
		return;
	}
	for (line = b.data; line && *line; line = next) {
		size_t nf = 0;
		char *p = line;

		lineno++;
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (line[0] == '#')
			continue;
		f[nf++] = p;
		while (nf < ARRAY_SIZE(f) && (p = strchr(p, '\t'))) {
			*p++ = '\0';
			f[nf++] = p;
		}
		if (nf < want_fields) {
			CHECK(0, "%s:%u: %zu fields, want %zu", name, lineno,
			      nf, want_fields);
			continue;
		}
		fn(name, lineno, f, nf);
		rows++;
	}
	CHECK(rows > 100, "%s: only %u rows", name, rows);
	blob_release(&b);
}

/* input, normalized-or-INVALID, options, source */
static void valid_row(const char *file, unsigned line, char **f, size_t nf)
{
	char *got = valid_text(f[0], row_opts(f[2]));

	CHECK_STR(got, f[1], "%s:%u: valid('%s', %s)", file, line, f[0],
		  f[2]);
	free(got);
}

/* range, canonical-or-INVALID, options */
static void range_row(const char *file, unsigned line, char **f, size_t nf)
{
	char *got = range_text(f[0], row_opts(f[2]));

	CHECK_STR(got, f[1], "%s:%u: validRange('%s', %s)", file, line,
		  f[0], f[2]);
	free(got);
}

/* range, version, 1/0, options */
static void satisfies_row(const char *file, unsigned line, char **f,
			  size_t nf)
{
	CHECK_INT(semver_satisfies_str(f[1], f[0], row_opts(f[3])),
		  f[2][0] == '1', "%s:%u: satisfies('%s', '%s', %s)", file,
		  line, f[1], f[0], f[3]);
}

/* a, b, -1/0/1, options, source */
static void compare_row(const char *file, unsigned line, char **f,
			size_t nf)
{
	long want;

	if (parse_long(f[2], -1, 1, &want)) {
		CHECK(0, "%s:%u: bad expected value '%s'", file, line, f[2]);
		return;
	}
	CHECK_INT(compare_str(f[0], f[1], row_opts(f[3])), want,
		  "%s:%u: compare('%s', '%s', %s)", file, line, f[0], f[1],
		  f[3]);
}

enum { L = SEMVER_LOOSE, P = SEMVER_INCLUDE_PRERELEASE };

/* kind: 'V' valid(a) == want, 'R' validRange(a) == want, 'S' satisfies(b,
 * a) == want[0], 'C' compare(a, b) == want.  a is followed by pad copies of
 * padc, for the length limits. */
static const struct edge {
	char kind;
	unsigned opts;
	const char *a;
	char padc;
	size_t pad;
	const char *b, *want;
} edges[] = {
	/* numbers: 2^53-1 is the limit; bigger prerelease numbers are text */
	{ 'V', 0, "9007199254740991.9007199254740991.9007199254740991", 0, 0,
	  NULL, "9007199254740991.9007199254740991.9007199254740991" },
	{ 'V', 0, "9007199254740992.0.0", 0, 0, NULL, "INVALID" },
	{ 'V', 0, "99999999999999999999999.0.0", 0, 0, NULL, "INVALID" },
	{ 'V', 0, "0.0.0-9007199254740992", 0, 0, NULL,
	  "0.0.0-9007199254740992" },
	{ 'V', L, "00009007199254740991.0.0", 0, 0, NULL,
	  "9007199254740991.0.0" },
	{ 'R', 0, "^9007199254740991", 0, 0, NULL, "INVALID" },
	{ 'C', 0, "1.2.3-9007199254740991", 0, 0, "1.2.3-9007199254740990",
	  "1" },
	{ 'C', 0, "1.2.3-99999999999999999999.a", 0, 0,
	  "1.2.3-99999999999999999998.b", "0" },	/* as doubles */
	/* 256 characters, counted before trimming */
	{ 'V', 0, "1.2.3-", 'a', 250, NULL, NULL },	/* valid: itself */
	{ 'V', 0, "1.2.3-", 'a', 251, NULL, "INVALID" },
	{ 'V', 0, "1.2.3", ' ', 251, NULL, "1.2.3" },
	{ 'V', 0, "1.2.3", ' ', 252, NULL, "INVALID" },
	/* a comparator's loose version may normalise to 257 characters:
	 * node-semver then throws out of satisfies(), which is a no */
	{ 'S', L, ">=1.2.3", 'a', 251, "1.2.4", "1" },
	{ 'S', L | P, ">=1.2.3", 'a', 251, "1.2.4", "0" },
	{ 'S', L | P, "1.0.0 || >=1.2.3", 'a', 251, "1.0.0", "1" },
	/* garbage, control characters, Unicode whitespace */
	{ 'V', 0, "", 0, 0, NULL, "INVALID" },
	{ 'V', 0, "\xff\xfe", 0, 0, NULL, "INVALID" },
	{ 'V', 0, "\x7f" "1.2.3", 0, 0, NULL, "INVALID" },
	{ 'V', 0, "1.2.3\x01", 0, 0, NULL, "INVALID" },
	{ 'V', 0, "\x1b[31m1.2.3", 0, 0, NULL, "INVALID" },
	{ 'V', 0, "\xc2\xa0" "1.2.3\xe3\x80\x80", 0, 0, NULL, "1.2.3" },
	{ 'V', 0, "1.2.3-a..b", 0, 0, NULL, "INVALID" },
	{ 'R', 0, "\xff", 0, 0, NULL, "INVALID" },
	{ 'R', 0, "\xc2\xa0>=1.2.3\xe3\x80\x80<2", 0, 0, NULL,
	  ">=1.2.3 <2.0.0-0" },
	{ 'R', 0, "lts/*", 0, 0, NULL, "INVALID" },
	{ 'R', 0, "node >= 18", 0, 0, NULL, "INVALID" },
	{ 'R', L, "node >= 18", 0, 0, NULL, ">=18.0.0" },
	/* loose quirks */
	{ 'V', L, "1.2.34.5", 0, 0, NULL, "1.2.3-4.5" },
	{ 'V', L, "1.2.3-", 0, 0, NULL, "1.2.3--" },
	{ 'R', L, ">1.999999999999999999999 || 1.2.3", 0, 0, NULL, "1.2.3" },
	/* range syntax */
	{ 'R', 0, "", 0, 0, NULL, "*" },
	{ 'R', 0, ">= 18.0.0", 0, 0, NULL, ">=18.0.0" },
	{ 'R', 0, "> = 18", 0, 0, NULL, "INVALID" },
	{ 'R', 0, "^0.0.1", 0, 0, NULL, ">=0.0.1 <0.0.2-0" },
	{ 'R', 0, "^0.x", 0, 0, NULL, "<1.0.0-0" },
	{ 'R', 0, "~1", 0, 0, NULL, ">=1.0.0 <2.0.0-0" },
	{ 'R', 0, "~> 1", 0, 0, NULL, ">=1.0.0 <2.0.0-0" },
	{ 'R', 0, "18 - 20", 0, 0, NULL, ">=18.0.0 <21.0.0-0" },
	{ 'R', P, "18 - 20", 0, 0, NULL, ">=18.0.0-0 <21.0.0-0" },
	{ 'R', 0, "1.2.3-2.3.4", 0, 0, NULL, "1.2.3-2.3.4" },
	{ 'R', 0, "1.2.3 -2.0.0", 0, 0, NULL, "INVALID" },
	{ 'R', 0, "x.1", 0, 0, NULL, "INVALID" },
	{ 'R', 0, ">=20.x", 0, 0, NULL, ">=20.0.0" },
	{ 'R', 0, "^1.2.3 ||", 0, 0, NULL, "*" },
	{ 'R', 0, ">=18 <19 || >=20", 0, 0, NULL,
	  ">=18.0.0 <19.0.0-0||>=20.0.0" },
	{ 'R', 0, "~1.2.3 || ^2 || 3.x || 4 - 5", 0, 0, NULL,
	  ">=1.2.3 <1.3.0-0||>=2.0.0 <3.0.0-0||>=3.0.0 <4.0.0-0||"
	  ">=4.0.0 <6.0.0-0" },
	{ 'R', 0, "<0.0.0-0 || 1.2.3", 0, 0, NULL, "1.2.3" },
	{ 'R', 0, "<0.0.0-0 || <0.0.0-0", 0, 0, NULL, "<0.0.0-0" },
	{ 'R', 0, "1.2.3 1.2.3 >=1.2.3", 0, 0, NULL, "1.2.3 >=1.2.3" },
	/* satisfies: npm's engines check is includePrerelease, not loose */
	{ 'S', P, ">=18", 0, 0, "21.0.0-nightly20230101", "1" },
	{ 'S', 0, ">=18", 0, 0, "21.0.0-nightly20230101", "0" },
	{ 'S', 0, ">=20.0.0-rc.0", 0, 0, "20.0.0-rc.1", "1" },
	{ 'S', 0, ">=20.0.0-rc.0", 0, 0, "20.1.0-rc.1", "0" },
	{ 'S', P, "<2.0.0", 0, 0, "2.0.0-rc.1", "1" },
	{ 'S', P, "<2", 0, 0, "2.0.0-rc.1", "0" },
	{ 'S', P, "^1.0.0", 0, 0, "2.0.0-rc.1", "0" },
	{ 'S', P, ">=20 <23", 0, 0, "22.11.0", "1" },
	{ 'S', P, ">=20 <23", 0, 0, "23.0.0-rc.1", "0" },
	{ 'S', 0, "^1.2.3+build", 0, 0, "1.2.3", "1" },
	{ 'S', 0, ">=18", 0, 0, "20", "0" },
	{ 'S', 0, ">=18", 0, 0, "20.11", "0" },
	{ 'S', 0, ">=18", 0, 0, "v20.11.1", "1" },
	{ 'S', 0, ">=18", 0, 0, "20.11.1 ", "1" },
	{ 'S', 0, ">=18", 0, 0, "=20.11.1", "0" },
	{ 'S', 0, "lts/*", 0, 0, "20.0.0", "0" },
	/* prerelease ordering */
	{ 'C', 0, "1.2.3-r100", 0, 0, "1.2.3-R2", "1" },
	{ 'C', 0, "1.2.3-a", 0, 0, "1.2.3-a.b", "-1" },
	{ 'C', 0, "1.2.3-2", 0, 0, "1.2.3-10", "-1" },
	{ 'C', 0, "1.2.3-alpha", 0, 0, "1.2.3-1", "1" },
};

static void edge_rows(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(edges); i++) {
		const struct edge *e = &edges[i];
		struct buf a = BUF_INIT;
		char *got;
		size_t k;
		long want;

		buf_puts(&a, e->a);
		for (k = 0; k < e->pad; k++)
			buf_putc(&a, e->padc);
		switch (e->kind) {
		case 'V':
			got = valid_text(buf_str(&a), e->opts);
			CHECK_STR(got, e->want ? e->want : buf_str(&a),
				  "edge %zu: valid('%.40s')", i, buf_str(&a));
			free(got);
			break;
		case 'R':
			got = range_text(buf_str(&a), e->opts);
			CHECK_STR(got, e->want, "edge %zu: validRange('%s')",
				  i, buf_str(&a));
			free(got);
			break;
		case 'S':
			CHECK_INT(semver_satisfies_str(e->b, buf_str(&a),
						       e->opts),
				  e->want[0] == '1',
				  "edge %zu: satisfies('%s', '%.40s')", i, e->b,
				  buf_str(&a));
			break;
		default:
			parse_long(e->want, -1, 1, &want);
			CHECK_INT(compare_str(buf_str(&a), e->b, e->opts),
				  want, "edge %zu: compare('%s', '%s')", i,
				  buf_str(&a), e->b);
		}
		buf_release(&a);
	}
}

/* Thousands of alternatives and comparators: the right answer, and no
 * quadratic blow-up (the test would time out). */
static void big_rows(void)
{
	struct buf b = BUF_INIT;
	char *got;
	size_t i;

	for (i = 0; i < 20000; i++)
		buf_puts(&b, "1.2.3 || ");
	buf_puts(&b, "2.0.0");
	got = range_text(buf_str(&b), 0);
	CHECK(got && strlen(got) == 20000 * strlen("1.2.3||") + 5 &&
	      !strcmp(got + strlen(got) - 12, "1.2.3||2.0.0"),
	      "20001 alternatives: '%.30s'", got);
	free(got);

	b.len = 0;
	for (i = 0; i < 20000; i++)
		buf_puts(&b, "^1 ");
	got = range_text(buf_str(&b), 0);
	CHECK_STR(got, ">=1.0.0 <2.0.0-0", "20000 equal comparators");
	free(got);

	b.len = 0;
	for (i = 0; i < 20000; i++)
		buf_puts(&b, "||");
	buf_puts(&b, "nonsense");
	got = range_text(buf_str(&b), 0);
	CHECK_STR(got, "INVALID", "an error after 20000 empty alternatives");
	free(got);
	buf_release(&b);
}

/* The parts of the API the tables do not reach. */
static void api_rows(void)
{
	struct semver_range *r;
	struct semver v;
	char small[6];

	CHECK(semver_parse_mem("1.2.3\0", 6, 0, &v) == -1,
	      "a NUL byte inside the buffer is not a version");
	CHECK(semver_parse_mem("1.2.3-rc.1 junk", 10, 0, &v) == 0 &&
	      v.nids == 2 && !v.ids[0].is_num && v.ids[1].is_num &&
	      v.ids[1].num == 1 && v.major == 1 && v.patch == 3,
	      "parse from a length: identifiers and numbers");
	CHECK_STR(semver_format(&v, small, sizeof(small)), "1.2.3",
		  "format truncates like snprintf");
	r = semver_range_parse_mem(">=1.2.0 garbage", 7, 0);
	CHECK(r && semver_satisfies(&v, r, SEMVER_INCLUDE_PRERELEASE) &&
	      !semver_satisfies(&v, r, 0),
	      "satisfies with a parsed version, with and without prereleases");
	semver_range_free(r);
	semver_release(&v);
	semver_range_free(NULL);
	CHECK(!semver_satisfies_str("1.2.3", "not a range", 0) &&
	      !semver_satisfies_str("nope", "*", 0),
	      "invalid input satisfies nothing");
}

void test_main(void)
{
	each_row("conformance/semver-valid.tsv", 3, valid_row);
	each_row("conformance/semver-compare.tsv", 4, compare_row);
	each_row("conformance/semver-ranges.tsv", 4, satisfies_row);
	each_row("conformance/semver-range-parse.tsv", 3, range_row);
	edge_rows();
	big_rows();
	api_rows();
}
