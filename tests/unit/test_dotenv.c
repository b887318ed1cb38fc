/* test_dotenv.c - the dotenv parser against dotenv's own results
 * (shared/conformance/dotenv-parse.json), then positions, duplicates,
 * issues, secrecy and hostile input, a row a case. */
#include "test.h"
#include "saferead.h"

#include "dotenv.h"
#include "util.h"

#include <cJSON.h>
#include <stdint.h>

/* Parse a copy of exactly len bytes, not NUL-terminated, so that the
 * sanitizers catch any read past the end. */
static void parse_exact(const char *s, size_t len, struct dotenv *d)
{
	char *copy = len ? xmalloc(len) : NULL;

	if (len)
		memcpy(copy, s, len);
	dotenv_parse(copy, len, d);
	free(copy);
}

static void parse_str(const char *s, struct dotenv *d)
{
	parse_exact(s, strlen(s), d);
}

static int value_is(const struct dotenv_entry *e, const char *want, size_t len)
{
	return e && e->value_len == len && !memcmp(e->value, want, len) &&
	       e->value[len] == '\0';
}

static int value_eq(const struct dotenv *d, const char *key, const char *want)
{
	return value_is(dotenv_get(d, key), want, strlen(want));
}

static int count_winners(const struct dotenv *d)
{
	int n = 0;
	size_t i;

	for (i = 0; i < d->n; i++)
		n += !dotenv_is_shadowed(d, i);
	return n;
}

static int has_issue(const struct dotenv *d, const char *needle)
{
	size_t i;

	for (i = 0; i < d->nissues; i++)
		if (strstr(d->issues[i].message, needle))
			return 1;
	return 0;
}

/* Compare the winners with a JSON object of key -> value; describe the
 * first difference in why.  A key JavaScript cannot hold in a plain
 * object (js_artifact) may be present on our side only. */
static int result_matches(const struct dotenv *d, const cJSON *want,
			  int js_artifact, struct buf *why)
{
	const cJSON *item;
	size_t i;

	cJSON_ArrayForEach(item, want) {
		const struct dotenv_entry *e = dotenv_get(d, item->string);

		if (!cJSON_IsString(item)) {
			buf_printf(why, "bad expected value for %s", item->string);
			return 0;
		}
		if (!e) {
			buf_printf(why, "missing key %s", item->string);
			return 0;
		}
		if (!value_is(e, item->valuestring, strlen(item->valuestring))) {
			buf_printf(why, "key %s: got \"%.*s\", want \"%s\"",
				   item->string, (int)e->value_len, e->value,
				   item->valuestring);
			return 0;
		}
	}
	for (i = 0; i < d->n; i++) {
		const char *key = d->entries[i].key;

		if (dotenv_is_shadowed(d, i) ||
		    cJSON_GetObjectItemCaseSensitive(want, key))
			continue;
		if (js_artifact && !strcmp(key, "__proto__"))
			continue;
		buf_printf(why, "unexpected key %s", key);
		return 0;
	}
	return 1;
}

/* Every row of the conformance file.  We implement dotenv's default
 * parse(), so a row is checked against "expected"; "expected_fast_parser"
 * (what parse(src, {fast: true}) gives, where it differs) is not our
 * target.  For a "js_artifact" row the JavaScript result lost a key that
 * only a JS object loses (__proto__): we keep the entry, flag it as an
 * issue, and check both. */
static void test_conformance(void)
{
	const char *path = test_shared("conformance/dotenv-parse.json");
	struct blob file;
	cJSON *root, *row;
	int rows = 0;

	if (saferead_path(path, 16 * SPEC_FILE_CAP, &file) < 0) {
		CHECK(0, "cannot read %s", path);
		return;
	}
	root = cJSON_ParseWithLength(file.data, file.len);
	blob_release(&file);
	CHECK(cJSON_IsArray(root), "%s is not a JSON array", path);
	cJSON_ArrayForEach(row, root) {
		const cJSON *id = cJSON_GetObjectItemCaseSensitive(row, "id");
		const cJSON *in = cJSON_GetObjectItemCaseSensitive(row, "input");
		const cJSON *want = cJSON_GetObjectItemCaseSensitive(row, "expected");
		int js = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "js_artifact"));
		struct buf why = BUF_INIT;
		struct dotenv d;

		rows++;
		if (!cJSON_IsString(in) || !cJSON_IsObject(want)) {
			CHECK(0, "row %d is malformed", rows);
			continue;
		}
		parse_str(in->valuestring, &d);
		CHECK(result_matches(&d, want, js, &why), "case %d: %s",
		      id ? id->valueint : rows, buf_str(&why));
		if (js)
			CHECK(!dotenv_get(&d, "__proto__") ||
			      has_issue(&d, "__proto__"),
			      "case %d: a kept __proto__ must be flagged",
			      id->valueint);
		buf_release(&why);
		dotenv_release(&d);
	}
	CHECK_INT(rows, 179, "conformance rows");
	cJSON_Delete(root);
}

/* Results pinned by dotenv's own tests (tests/test-parse-fast.js and
 * tests/test-fast-parity.js: the "issue #1043" regressions), each also
 * between two other assignments, as dotenv tests them. */
static const struct pinned_row {
	const char *in;
	const char *key, *value;	/* key NULL: no entry at all */
} pinned_rows[] = {
	{ "A=\n\n\"hello\nworld\"", "A", "hello\nworld" },
	{ "A=\n'b'", "A", "b" },
	{ "A=\n'hello\nworld'", "A", "hello\nworld" },
	{ "A=\n\n`hello\nworld`", "A", "hello\nworld" },
	{ "A=\n\n\"x\" junk", "A", "" },
	{ "\fA=1", "A", "1" },
	{ "\vA=1", "A", "1" },
	{ "\xc2\xa0" "A=1", "A", "1" },
	{ "TOKEN=\"abc\" oops", "TOKEN", "\"abc\" oops" },
	{ "KEY=\"line one\\nline two", "KEY", "\"line one\nline two" },
	{ "KEY=\"line one\\rline two", "KEY", "\"line one\rline two" },
	{ "KEY=\"a\" \"b\"", "KEY", "a\" \"b" },
	/* derived from the regex by hand (see dotenv.c) */
	{ "A: \"q\"", "A", "q" },
	{ "A=\"\\\\\"\n# a \"comment\"\n", "A", "\\\\" },
	{ "A=\"\\\\\"\n# a \"\n", "A", "\\\\\"\n# a " },
	{ "A=\"x\\\"\n", "A", "x\\" },
	{ "A=1\xe2\x80\xa8" "B=2", "A", "1\xe2\x80\xa8" "B=2" },
	{ "A=\"x\xe2\x80\xa8y\"", "A", "x\xe2\x80\xa8y" },
	{ "export\nA=1", "A", "1" },
	{ "A\n=1", "A", "1" },
	{ "A B=1", NULL, NULL },
	{ "A=\"x\"\xe2\x80\xa8" "junk", "A", "x" },
};

static void test_pinned(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pinned_rows); i++) {
		const struct pinned_row *r = &pinned_rows[i];
		struct buf around = BUF_INIT;
		struct dotenv d;
		int n = r->key ? 1 : 0;

		parse_str(r->in, &d);
		CHECK(n == 0 ? d.n == 0 :
		      value_eq(&d, r->key, r->value) && count_winners(&d) == 1,
		      "row %zu", i);
		dotenv_release(&d);

		buf_printf(&around, "BEFORE=one\n%s\nAFTER=two\n", r->in);
		parse_str(buf_str(&around), &d);
		CHECK(value_eq(&d, "BEFORE", "one") && value_eq(&d, "AFTER", "two") &&
		      (n == 0 || value_eq(&d, r->key, r->value)) &&
		      count_winners(&d) == n + 2, "row %zu surrounded", i);
		dotenv_release(&d);
		buf_release(&around);
	}
}

static const struct pos_row {
	const char *in;
	const char *key;
	unsigned line, col;
} pos_rows[] = {
	{ "A=1\nB=2\n", "B", 2, 1 },
	{ "  SPACED = x\n", "SPACED", 1, 3 },
	{ "\tTAB=1", "TAB", 1, 2 },
	{ "export   EXP=1\n", "EXP", 1, 10 },
	{ "\n\n\nLATE=1", "LATE", 4, 1 },
	{ "A=\"l1\nl2\nl3\"\nAFTER=1\n", "AFTER", 4, 1 },
	{ "A='x\ny'\n  B=1", "B", 3, 3 },
	{ "A=`x\n\n\ny` # c\nB=1", "B", 5, 1 },
	{ "X=\"a\nb\nc\" # comment\n\n#x\nY=2\n", "Y", 6, 1 },
	{ "A=\"\\\\\"\nB=plain\nC=\"q\"\n", "C", 3, 1 },
	{ "A=1\r\nB=2\r\n", "B", 2, 1 },
	{ "A=\"x\r\ny\"\r\nB=2\r\n", "B", 3, 1 },
	{ "A=1\rB=2\r", "B", 2, 1 },
	{ "\xef\xbb\xbf" "BOM=1\n", "BOM", 1, 4 },
	{ "A=1\n  \n bad line\n    LAST=1", "LAST", 4, 5 },
	{ "A:\nB=1\nC=2", "C", 3, 1 },
};

static void test_positions(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pos_rows); i++) {
		const struct pos_row *r = &pos_rows[i];
		const struct dotenv_entry *e;
		struct dotenv d;

		parse_str(r->in, &d);
		e = dotenv_get(&d, r->key);
		CHECK(e && e->line == r->line && e->col == r->col,
		      "row %zu: %s at %u:%u, want %u:%u", i, r->key,
		      e ? e->line : 0, e ? e->col : 0, r->line, r->col);
		dotenv_release(&d);
	}
}

/* Which quote the value was written in (compose's dotenv substitutes
 * only in unquoted and double-quoted ones): one pair stripped from the
 * value's start, or none. */
static void test_quotes(void)
{
	static const struct {
		const char *in;
		char want;
	} rows[] = {
		{ "A=x\n", 0 }, { "A='x'\n", '\'' }, { "A=\"x\"\n", '"' },
		{ "A=`x`\n", '`' }, { "A='x\n", 0 }, { "A=x'y'\n", 0 },
		{ "A=\"a\nb\"\n", '"' }, { "A=''\n", '\'' }, { "A=\n", 0 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct dotenv_entry *e;
		struct dotenv d;

		parse_str(rows[i].in, &d);
		e = dotenv_get(&d, "A");
		CHECK(e && e->quote == rows[i].want, "row %zu: quote %d, want %d", i,
		      e ? e->quote : -1, rows[i].want);
		dotenv_release(&d);
	}
}

static void test_duplicates(void)
{
	struct dotenv d;
	const struct dotenv_entry *e;

	parse_str("A=1\nB=2\nA=3\nC=4\nexport A=5\n", &d);
	CHECK_INT(d.n, 5, "every assignment is an entry");
	CHECK_INT(count_winners(&d), 3, "three distinct keys");
	e = dotenv_get(&d, "A");
	CHECK(e == &d.entries[4] && value_eq(&d, "A", "5"), "the last A wins");
	CHECK(e && e->line == 5 && e->col == 8, "position of the last A");
	CHECK(dotenv_is_shadowed(&d, 0), "first A shadowed");
	CHECK(!dotenv_is_shadowed(&d, 1), "B not shadowed");
	CHECK(dotenv_is_shadowed(&d, 2), "second A shadowed");
	CHECK(!dotenv_is_shadowed(&d, 3), "C not shadowed");
	CHECK(!dotenv_is_shadowed(&d, 4), "last A not shadowed");
	CHECK(!dotenv_is_shadowed(&d, 99), "out of range");
	CHECK(!strcmp(d.entries[0].value, "1") && !strcmp(d.entries[2].value, "3"),
	      "shadowed values are kept");
	CHECK(dotenv_get(&d, "D") == NULL, "unknown key");
	CHECK(dotenv_get(&d, "") == NULL, "empty key");
	CHECK(dotenv_get(&d, "a") == NULL, "keys are case-sensitive");
	CHECK_INT(d.nissues, 0, "duplicates are not issues");
	dotenv_release(&d);
	CHECK(d.entries == NULL && d.n == 0 && d.nslots == 0, "release zeroes");
}

/* 10,000 keys, a tenth of them assigned twice; lookups of every key. */
static void test_many_keys(void)
{
	struct buf in = BUF_INIT, want = BUF_INIT;
	struct dotenv d;
	int i, bad = 0, shadowed = 0;
	size_t j;

	for (i = 0; i < 10000; i++)
		buf_printf(&in, "KEY_%05d=value_%d\n", i, i);
	for (i = 0; i < 10000; i += 10)
		buf_printf(&in, "export KEY_%05d = \"dup %d\"\n", i, i);
	parse_exact(in.s, in.len, &d);
	CHECK_INT(d.n, 11000, "entries");
	CHECK_INT(d.nissues, 0, "issues");
	for (i = 9999; i >= 0; i--) {
		char key[32];

		snprintf(key, sizeof(key), "KEY_%05d", i);
		want.len = 0;
		if (i % 10)
			buf_printf(&want, "value_%d", i);
		else
			buf_printf(&want, "dup %d", i);
		bad += !value_eq(&d, key, buf_str(&want));
	}
	CHECK_INT(bad, 0, "lookups of 10,000 keys");
	for (j = 0; j < d.n; j++)
		shadowed += dotenv_is_shadowed(&d, j);
	CHECK_INT(shadowed, 1000, "shadowed entries");
	CHECK(dotenv_get(&d, "KEY_10000") == NULL && dotenv_get(&d, "KEY") == NULL,
	      "absent keys");
	dotenv_release(&d);

	/* 10,000 quotes that each meet the next line's quote, then junk */
	in.len = 0;
	for (i = 0; i < 10000; i++)
		buf_printf(&in, "K%d=\"x\n", i);
	parse_exact(in.s, in.len, &d);
	bad = d.n != 10000;
	for (j = 0; j < d.n && !bad; j++)
		bad = strcmp(d.entries[j].value, "\"x") != 0;
	CHECK(!bad, "10,000 unterminated quotes: %zu entries", d.n);
	CHECK_INT(d.nissues, 10000, "one issue a line");
	dotenv_release(&d);

	/* 50,000 blank lines, then a bad line, then a good one */
	in.len = 0;
	for (i = 0; i < 50000; i++)
		buf_puts(&in, i % 2 ? "\n" : "  \t\n");
	buf_puts(&in, "A B\nC=1");
	parse_exact(in.s, in.len, &d);
	CHECK(d.n == 1 && value_eq(&d, "C", "1"), "after blank lines");
	CHECK(d.nissues == 1 && d.issues[0].line == 50001 && d.issues[0].col == 3,
	      "issue after blank lines");
	dotenv_release(&d);

	/* 20,000 lines that each start a PEM block that never ends, then
	 * 20,000 blocks that do: each line is looked at a bounded number of
	 * times (pem_block() remembers where a search stopped) */
	in.len = 0;
	for (i = 0; i < 20000; i++)
		buf_printf(&in, "K%d=-----BEGIN X-----\n", i);
	parse_exact(in.s, in.len, &d);
	CHECK(d.n == 20000 && d.nissues == 0, "heads without an end: %zu issues",
	      d.nissues);
	dotenv_release(&d);
	in.len = 0;
	for (i = 0; i < 20000; i++)
		buf_printf(&in, "K%d=-----BEGIN X-----\nab/c\nT%d=\n-----END X-----\n", i, i);
	parse_exact(in.s, in.len, &d);
	bad = d.n != 40000 || d.nissues != 20000;
	for (j = 0; j < d.n && !bad; j++)
		bad = d.entries[j].place != (j % 2 ? DOTENV_PLACE_INSIDE :
					    j ? DOTENV_PLACE_AFTER : DOTENV_PLACE_CLEAN);
	CHECK(!bad, "20,000 blocks: %zu entries, %zu issues", d.n, d.nissues);
	dotenv_release(&d);

	buf_release(&in);
	buf_release(&want);
}

static void test_edges(void)
{
	static const char nul[] = "A=1\nB=x\0y\nC=3\n\0D=4\nE=\"p\0q\"";
	struct dotenv d;
	const struct dotenv_entry *e;

	dotenv_parse(NULL, 0, &d);
	CHECK(d.n == 0 && d.nissues == 0 && !dotenv_get(&d, "A"), "NULL, 0");
	dotenv_release(&d);
	parse_exact("", 0, &d);
	CHECK(d.n == 0 && d.nissues == 0, "empty input");
	dotenv_release(&d);

	parse_str("A=1\nB=two words", &d);
	CHECK(value_eq(&d, "A", "1") && value_eq(&d, "B", "two words"),
	      "no trailing newline");
	dotenv_release(&d);
	parse_str("B=\"quoted\"", &d);
	CHECK(value_eq(&d, "B", "quoted"), "quoted, no trailing newline");
	dotenv_release(&d);

	parse_str("A=1\r\nB=\"x\"\r\n\r\nC= spaced \r\nD=\"l1\r\nl2\"\r\n", &d);
	CHECK(value_eq(&d, "A", "1") && value_eq(&d, "B", "x") &&
	      value_eq(&d, "C", "spaced") && value_eq(&d, "D", "l1\nl2"),
	      "CRLF");
	dotenv_release(&d);

	/* NUL bytes: buf and len are the truth, not strlen */
	parse_exact(nul, sizeof(nul) - 1, &d);
	CHECK(value_eq(&d, "A", "1") && value_eq(&d, "C", "3"), "around NUL");
	e = dotenv_get(&d, "B");
	CHECK(value_is(e, "x\0y", 3), "NUL inside a value");
	CHECK(value_is(dotenv_get(&d, "E"), "p\0q", 3), "NUL inside quotes");
	CHECK(!dotenv_get(&d, "D"), "a line starting with NUL is ignored");
	CHECK(d.nissues == 1 && d.issues[0].line == 4 && d.issues[0].col == 1,
	      "and reported");
	dotenv_release(&d);
}

/* Inputs cut short in every awkward place: nothing may read past len. */
static const char *const short_rows[] = {
	"A", "A=", "A:", "A: ", "=", "\"", "'", "`", "#", "\\", "\r", "\n",
	"export", "export ", "export A", "export A=", "A=\"", "A=\"\\",
	"A=\"\\\"", "A='\\'", "A=`x\\`", "A=\xe2", "A=\xe2\x80", "\xe2\x80",
	"A=\xc2", "\xc2", "\xef\xbb", "A=x\xe2\x80\xa8", "A=\"x\"\xe2\x80",
	"A:\xc2", "A:\xe2\x80", "A=\"x\" \xc2", "A=\"\n", "A=#", "A= #",
	"\xff\xfe", "A=\xff", "A\r=\r1\r", "A=\"\r",
};

static void test_short(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(short_rows); i++) {
		struct dotenv d;
		size_t j, ok = 1;

		parse_str(short_rows[i], &d);
		for (j = 0; j < d.n; j++)
			ok &= d.entries[j].value[d.entries[j].value_len] == '\0';
		CHECK(ok, "row %zu", i);
		dotenv_release(&d);
	}
}

static void test_long_lines(void)
{
	size_t big = 1 << 20, i;
	struct buf in = BUF_INIT;
	struct dotenv d;
	const struct dotenv_entry *e;
	char *key;

	buf_puts(&in, "BIG=");
	for (i = 0; i < big; i++)
		buf_putc(&in, (char)('a' + i % 26));
	buf_puts(&in, "  # trailing comment\nNEXT=1\n");
	parse_exact(in.s, in.len, &d);
	e = dotenv_get(&d, "BIG");
	CHECK(e && e->value_len == big && e->value[0] == 'a' &&
	      e->value[big - 1] == (char)('a' + (big - 1) % 26), "1 MiB value");
	CHECK(value_eq(&d, "NEXT", "1"), "line after it");
	dotenv_release(&d);

	in.len = 0;
	for (i = 0; i < 100000; i++)
		buf_putc(&in, 'K');
	buf_puts(&in, "=v\n");
	parse_exact(in.s, in.len, &d);
	CHECK(d.n == 1 && strlen(d.entries[0].key) == 100000 &&
	      !strcmp(d.entries[0].value, "v"), "100,000-byte key");
	key = xstrdup(d.n ? d.entries[0].key : "");
	dotenv_release(&d);

	in.len = 0;
	buf_puts(&in, "PEM=\"");
	for (i = 0; i < 200000; i++)
		buf_puts(&in, "line\n");
	buf_puts(&in, "\"\nAFTER=1\n");
	parse_exact(in.s, in.len, &d);
	e = dotenv_get(&d, "AFTER");
	CHECK(e && e->line == 200002 && value_eq(&d, "AFTER", "1"),
	      "after a 200,000-line quoted value");
	e = dotenv_get(&d, "PEM");
	CHECK(e && e->value_len == 200000 * 5, "its length");
	dotenv_release(&d);

	in.len = 0;
	for (i = 0; i < big; i++)
		buf_putc(&in, 'x');
	buf_puts(&in, " y\nOK=1");
	parse_exact(in.s, in.len, &d);
	CHECK(d.n == 1 && d.nissues == 1 && d.issues[0].col == big + 2,
	      "1 MiB line without '='");
	dotenv_release(&d);

	free(key);
	buf_release(&in);
}

static const struct issue_row {
	const char *in;
	size_t nissues;
	enum dotenv_issue_kind kind;	/* of the first issue */
	unsigned line, col;	/* of the first issue */
	const char *says;	/* part of its message */
} issue_rows[] = {
	{ "A=1\n# c\n\n  # d\nexport B=2\nC: 3", 0, 0, 0, 0, NULL },
	{ "A=\"\\\\\"\nB=\"q\"\n", 0, 0, 0, 0, NULL },
	{ "A=\"l1\nl2\"\n", 0, 0, 0, 0, NULL },
	{ "A B=1\n", 1, DOTENV_SKIPPED, 1, 3, "expected '=' after the key name" },
	{ "=x\n", 1, DOTENV_SKIPPED, 1, 1, "missing key name before '='" },
	{ "K@Y=1\n", 1, DOTENV_SKIPPED, 1, 2, "invalid character in key name" },
	{ "KEY$=1\n", 1, DOTENV_SKIPPED, 1, 4, "invalid character in key name" },
	{ "CAF\xc3\x89=1\n", 1, DOTENV_SKIPPED, 1, 4, "invalid character in key name" },
	{ "\xc3\x9c" "BER=1\nOK=2\n", 1, DOTENV_SKIPPED, 1, 1, "expected KEY=VALUE" },
	{ "A:value\n", 1, DOTENV_SKIPPED, 1, 2, "expected '=' or ': ' after the key name" },
	{ "A :x\n", 1, DOTENV_SKIPPED, 1, 3, "expected '=' after the key name" },
	{ "JUSTTEXT\n", 1, DOTENV_SKIPPED, 1, 9, "expected '=' after the key name" },
	{ "export A\n", 1, DOTENV_SKIPPED, 1, 9, "expected '=' after the key name" },
	{ "ok=1\n  $X=1\n", 1, DOTENV_SKIPPED, 2, 3, "expected KEY=VALUE" },
	{ "A=1\r\nB C\r\n", 1, DOTENV_SKIPPED, 2, 3, "expected '=' after the key name" },
	/* what dotenv parses, but not as written */
	{ "A=\"open\nB=2\n", 1, DOTENV_MISREAD, 1, 3, "unterminated quote: the value keeps the quote" },
	{ "A='abc\"\n", 1, DOTENV_MISREAD, 1, 3, "unterminated quote" },
	{ "A=\"x\" y\n", 1, DOTENV_MISREAD, 1, 3, "text after the closing quote: the value keeps the quotes" },
	{ "A:\nB=1\n", 1, DOTENV_MISREAD, 1, 1, "no value on the key's line: the value is taken from line 2" },
	{ "A: x\n", 0, 0, 0, 0, NULL },
	{ "A=\n\"q\"\n", 1, DOTENV_MISREAD, 1, 1, "taken from line 2" },
	{ "A\n=1\n", 1, DOTENV_MISREAD, 2, 1, "the '=' is on line 2: the lines are joined" },
	{ "A=\n\n\"x\" junk\n", 1, DOTENV_SKIPPED, 3, 1, "expected KEY=VALUE" },
	{ "__proto__=x\nSAFE=1\n", 1, DOTENV_MISREAD, 1, 1, "dropped: a JavaScript object" },
	{ "B C\nA=\"open\n", 2, DOTENV_SKIPPED, 1, 3, "expected '=' after the key name" },
	/* a PEM block without quotes: one issue, on its first key */
	{ "K=-----BEGIN KEY-----\nMIIab/cd\nQ2Fi=\n-----END KEY-----\nB=1\n", 1,
	  DOTENV_MISREAD, 1, 1, "its value runs on to line 4 without quotes: only the first line is read" },
	{ "K=\"-----BEGIN KEY-----\nMIIab/cd\nQ2Fi=\n-----END KEY-----\nB=1\n", 1,
	  DOTENV_MISREAD, 1, 1, "its quote does not close, and its value runs on to line 4" },
	{ "  export K = -----BEGIN KEY----- # c\n  MIIab/cd\n-----END KEY-----\n", 1,
	  DOTENV_MISREAD, 1, 10, "runs on to line 3" },
	/* no -----END before a blank line: the lines are skipped */
	{ "K=-----BEGIN KEY-----\nMIIab/cd\n\n-----END KEY-----\n", 2,
	  DOTENV_SKIPPED, 2, 6, "invalid character in key name" },
	/* quoted and closed: nothing to say */
	{ "K=\"-----BEGIN KEY-----\nMIIab/cd\n-----END KEY-----\"\n", 0, 0, 0, 0, NULL },
	{ "K='-----BEGIN KEY-----\\nMII\\n-----END KEY-----'\n", 0, 0, 0, 0, NULL },
};

static void test_issues(void)
{
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(issue_rows); i++) {
		const struct issue_row *r = &issue_rows[i];
		struct dotenv d;
		int sorted = 1, linked = 1;

		parse_str(r->in, &d);
		CHECK_INT(d.nissues, r->nissues, "row %zu", i);
		if (d.nissues && r->nissues)
			CHECK(d.issues[0].kind == r->kind &&
			      d.issues[0].line == r->line && d.issues[0].col == r->col &&
			      strstr(d.issues[0].message, r->says),
			      "row %zu: %d %u:%u: %s", i, d.issues[0].kind,
			      d.issues[0].line, d.issues[0].col, d.issues[0].message);
		for (j = 1; j < d.nissues; j++)
			sorted &= d.issues[j - 1].line < d.issues[j].line ||
				  (d.issues[j - 1].line == d.issues[j].line &&
				   d.issues[j - 1].col <= d.issues[j].col);
		/* a misread names its entry; a skipped line none */
		for (j = 0; j < d.nissues; j++)
			linked &= d.issues[j].kind == DOTENV_MISREAD ?
				  d.issues[j].entry < d.n : d.issues[j].entry == SIZE_MAX;
		CHECK(sorted, "row %zu: issues in file order", i);
		CHECK(linked, "row %zu: issues point at their entries", i);
		dotenv_release(&d);
	}
}

/* Where keys start: a key inside or right after text dotenv skipped or
 * misread may be a piece of a secret.  "places" has one letter per entry
 * in file order: c clean, a after, i inside. */
static const struct place_row {
	const char *in;
	const char *places;
} place_rows[] = {
	{ "A=1\nB=2\n", "cc" },
	/* the unquoted PEM: its base64 tail parses as a key */
	{ "PK=-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEF\nQ2FiAjw=\n"
	  "-----END PRIVATE KEY-----\nNEXT=1\nLAST=2\n", "ciac" },
	/* the tail right after the first line */
	{ "PK=-----BEGIN PRIVATE KEY-----\nQ2FiAjw=\n-----END PRIVATE KEY-----\n", "ci" },
	/* no -----END: right after a skipped line, still hidden */
	{ "PK=x\nMIIEvQIBADANBgkqhkiG9w0BAQEF\nQ2FiAjw=\nB=1\n", "cac" },
	{ "JUST TEXT\nB=1\n\nC=1\n", "ac" },
	/* after an unterminated quote, a value from a later line, an '='
	 * on a later line */
	{ "U=\"open\nT=1\nV=1\n", "cac" },
	{ "A:\nB=1\nC=1\nD=1\n", "cac" },
	{ "A\n=1\nB=1\nC=1\n", "cac" },
	/* text after a quote closed on its line: nothing runs on */
	{ "T=\"x\" y\nB=1\n", "cc" },
	/* a closed multi-line quote is clean, and so is what follows */
	{ "Q=\"a\nb\"\nB=1\n", "cc" },
	/* a comment or blank line ends nothing: the line before counts */
	{ "X Y\n# c\nB=1\n", "c" },
};

static void test_places(void)
{
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(place_rows); i++) {
		const struct place_row *r = &place_rows[i];
		struct buf got = BUF_INIT;
		struct dotenv d;

		parse_str(r->in, &d);
		for (j = 0; j < d.n; j++)
			buf_putc(&got, "cai"[d.entries[j].place]);
		CHECK(!strcmp(buf_str(&got), r->places), "row %zu: places %s, want %s",
		      i, buf_str(&got), r->places);
		for (j = 0; j < d.n; j++)
			CHECK(d.entries[j].place == DOTENV_PLACE_CLEAN ||
			      dotenv_key_hidden(&d.entries[j]), "row %zu: entry %zu hidden", i, j);
		buf_release(&got);
		dotenv_release(&d);
	}
}

/* The data-like rule on its own: long names, or long without '_'. */
static void test_hidden_shape(void)
{
	static const struct {
		const char *key;
		int hidden;
	} rows[] = {
		{ "DATABASE_URL", 0 },
		{ "Q2FiAjw", 0 },	/* short: hidden only by its place */
		{ "ABCDEFGHIJKLMNOPQRSTUVWXY", 1 },
		{ "NEXT_PUBLIC_SOME_VERY_LONG_FEATURE_FLAG_NAME", 0 },
		{ "A_BCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGHIJKLM", 1 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct dotenv_entry e;

		memset(&e, 0, sizeof(e));
		e.key = (char *)rows[i].key;
		CHECK_INT(dotenv_key_hidden(&e), rows[i].hidden, "%s", rows[i].key);
	}
}

/* Keys a comment line assigns. */
static void test_mentions(void)
{
	struct dotenv d;

	parse_str("# SENTRY_DSN=\n## export OTHER = x\n#   SPACED=1\nA=1 # INLINE=1\n"
		  "# Note: X=1\n# plain words\nQ=\"a\n# INQUOTE=1\nb\"\n#EMPTY\n", &d);
	CHECK(dotenv_mentions(&d, "SENTRY_DSN") && dotenv_mentions(&d, "OTHER") &&
	      dotenv_mentions(&d, "SPACED"), "commented keys");
	CHECK(!dotenv_mentions(&d, "INLINE") && !dotenv_mentions(&d, "INQUOTE") &&
	      !dotenv_mentions(&d, "X") && !dotenv_mentions(&d, "Note") &&
	      !dotenv_mentions(&d, "EMPTY") && !dotenv_mentions(&d, "A"),
	      "not comments, or not assignments");
	CHECK_INT(d.ncommented, 3, "mentions");
	CHECK(d.n == 2 && value_eq(&d, "Q", "a\n# INQUOTE=1\nb"), "values unchanged");
	dotenv_release(&d);
	CHECK(d.commented == NULL && d.ncommented == 0, "release zeroes");
}

/* The tool promises never to print a value: no issue message may hold any
 * text of a malformed line but a parsed key's name. */
#define SECRET "Zq7s3cret"
static const char *const secret_rows[] = {
	"FOO " SECRET "\n",
	SECRET "\n",
	"=" SECRET "\n",
	"K@Y=" SECRET "\n",
	"A:" SECRET "\n",
	"A :" SECRET "\n",
	"A=\"" SECRET " unterminated\n",
	"A='" SECRET "' trailing " SECRET "\n",
	"A=`" SECRET "\n",
	"export " SECRET "\n",
	"A:\n" SECRET "=1\n",
	"A=\n\"" SECRET "\"\n",
	"\"" SECRET "\" junk\n",
	"A=\n\n\"" SECRET "\" junk\n",
	"PEM=-----BEGIN KEY-----\nMII" SECRET "Qab+/\n-----END KEY-----\n",
	"A\n=" SECRET "\n",
	"\xc3\x9c" SECRET "=1\n",
	"__proto__=" SECRET "\n",
	"A=\"" SECRET "\\\" more\n",
	"\0" SECRET "\n",
	"PEM=-----BEGIN KEY-----\nMII" SECRET "/ab\n" SECRET "=\n-----END KEY-----\n",
	"PEM=\"-----BEGIN KEY-----\n" SECRET "=\n-----END KEY-----\n",
	"A=\"open\n" SECRET "=1\n",
	"A:\n" SECRET "\n",
};

static void test_secrecy(void)
{
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(secret_rows); i++) {
		const char *in = secret_rows[i];
		size_t len = strlen(in) + (in[0] ? 0 : 1 + strlen(in + 1));
		struct dotenv d;
		int leak = 0;

		parse_exact(in, len, &d);
		for (j = 0; j < d.nissues; j++)
			leak |= strstr(d.issues[j].message, SECRET) != NULL ||
				strstr(d.issues[j].message, "s3cret") != NULL;
		CHECK(d.nissues > 0 && !leak, "row %zu: %zu issues, leak %d",
		      i, d.nissues, leak);
		dotenv_release(&d);
	}
}

void test_main(void)
{
	test_conformance();
	test_pinned();
	test_positions();
	test_quotes();
	test_duplicates();
	test_many_keys();
	test_edges();
	test_short();
	test_long_lines();
	test_issues();
	test_places();
	test_hidden_shape();
	test_mentions();
	test_secrecy();
}
