/* test_nvmrc.c - .nvmrc cleanup, spec resolution, matching, descriptions */
#include "test.h"
#include "nvmrc.h"
#include "util.h"

/* A row's input is a C string unless len says otherwise (for NUL bytes). */
static const struct parse_row {
	const char *in;
	size_t len;		/* 0: strlen(in) */
	int rc;
	const char *spec;	/* rc 0: the spec found */
	enum nvmrc_kind kind;
	unsigned line;		/* rc 0: the spec's line; rc -1: err_line */
	const char *err;	/* rc -1: a part of the message */
} parse_rows[] = {
	/* the cleanup examples of nvmrc.md */
	{ "  20  ", 0, 0, "20", NVMRC_VERSION, 1, NULL },
	{ "20 # pin", 0, 0, "20", NVMRC_VERSION, 1, NULL },
	{ "lts/*\r\n", 0, 0, "lts/*", NVMRC_LTS_ANY, 1, NULL },
	{ "20\nfoo=bar", 0, 0, "20", NVMRC_VERSION, 1, NULL },
	{ "20\n22", 0, -1, NULL, 0, 2, "second version line" },
	{ "20\nnode=20", 0, -1, NULL, 0, 2, "'node' cannot be a key" },
	{ "\"20\"", 0, -1, NULL, 0, 1, "does not strip quotes" },
	{ "", 0, -1, NULL, 0, 0, "no version line" },
	/* more cleanup */
	{ "20\n", 0, 0, "20", NVMRC_VERSION, 1, NULL },
	{ "# pinned by the team\n\n  v20.11.1\t\n", 0, 0, "v20.11.1", NVMRC_VERSION, 3, NULL },
	{ "20\r\n# comment\r\n", 0, 0, "20", NVMRC_VERSION, 1, NULL },
	{ "key = value\n18\n", 0, 0, "18", NVMRC_VERSION, 2, NULL },
	{ "a=1\nb=2\n\n   \n22.3\n", 0, 0, "22.3", NVMRC_VERSION, 5, NULL },
	{ "# only a comment\n", 0, -1, NULL, 0, 0, "no version line" },
	{ "   \n\t\n\r\n", 0, -1, NULL, 0, 0, "no version line" },
	{ "foo=bar\n", 0, -1, NULL, 0, 0, "no version line" },
	{ "foo=1\nfoo=2\n20\n", 0, -1, NULL, 0, 2, "duplicate key 'foo'" },
	{ " node = 20\n18\n", 0, -1, NULL, 0, 1, "'node' cannot be a key" },
	{ "20\n\n# x\n22 # y\n", 0, -1, NULL, 0, 4, "the first is on line 1" },
	{ "=20\n", 0, -1, NULL, 0, 1, "no range syntax" },
	{ "'20'", 0, -1, NULL, 0, 1, "does not strip quotes" },
	/* version numbers */
	{ "20", 0, 0, "20", NVMRC_VERSION, 1, NULL },
	{ "v20", 0, 0, "v20", NVMRC_VERSION, 1, NULL },
	{ "20.11", 0, 0, "20.11", NVMRC_VERSION, 1, NULL },
	{ "20.11.1", 0, 0, "20.11.1", NVMRC_VERSION, 1, NULL },
	{ "2", 0, 0, "2", NVMRC_VERSION, 1, NULL },
	{ "0.10", 0, 0, "0.10", NVMRC_VERSION, 1, NULL },
	{ "20.x", 0, -1, NULL, 0, 1, "no range syntax" },
	{ "^20", 0, -1, NULL, 0, 1, "no range syntax" },
	/* nvm reads a line with '=' in it as key=value: ">" = "18" */
	{ ">=18", 0, -1, NULL, 0, 0, "no version line" },
	{ ">=18\n20\n", 0, 0, "20", NVMRC_VERSION, 2, NULL },
	{ "~20.1", 0, -1, NULL, 0, 1, "no range syntax" },
	{ "20 || 22", 0, -1, NULL, 0, 1, "no range syntax" },
	{ "*", 0, -1, NULL, 0, 1, "no range syntax" },
	{ "v20.11.1.2", 0, -1, NULL, 0, 1, "not a node version" },
	{ "020", 0, -1, NULL, 0, 1, "not a node version" },
	{ "20.", 0, -1, NULL, 0, 1, "not a node version" },
	{ "20.11.1-rc.1", 0, -1, NULL, 0, 1, "not a node version" },
	/* aliases */
	{ "node", 0, 0, "node", NVMRC_NODE, 1, NULL },
	{ "stable", 0, 0, "stable", NVMRC_NODE, 1, NULL },
	{ "system", 0, 0, "system", NVMRC_SYSTEM, 1, NULL },
	{ "unstable", 0, 0, "unstable", NVMRC_UNSTABLE, 1, NULL },
	{ "iojs", 0, 0, "iojs", NVMRC_IOJS, 1, NULL },
	{ "iojs-v3", 0, 0, "iojs-v3", NVMRC_IOJS, 1, NULL },
	{ "iojs-3.3", 0, 0, "iojs-3.3", NVMRC_IOJS, 1, NULL },
	{ "iojs-v4", 0, -1, NULL, 0, 1, "io.js releases are v1 to v3" },
	{ "iojs-x", 0, -1, NULL, 0, 1, "not an io.js version" },
	{ "default", 0, 0, "default", NVMRC_ALIAS, 1, NULL },
	{ "latest", 0, 0, "latest", NVMRC_ALIAS, 1, NULL },
	{ "my-alias_2.0", 0, 0, "my-alias_2.0", NVMRC_ALIAS, 1, NULL },
	{ "lts/*", 0, 0, "lts/*", NVMRC_LTS_ANY, 1, NULL },
	{ "lts/iron", 0, 0, "lts/iron", NVMRC_LTS, 1, NULL },
	{ "lts/-1", 0, 0, "lts/-1", NVMRC_LTS, 1, NULL },
	{ "lts/-10", 0, 0, "lts/-10", NVMRC_LTS, 1, NULL },
	{ "lts/-11", 0, -1, NULL, 0, 1, "has only 10 lines" },
	{ "lts/-0", 0, -1, NULL, 0, 1, "unknown LTS codename" },
	{ "lts/Iron", 0, -1, NULL, 0, 1, "LTS names must be lowercase" },
	{ "lts/IRON", 0, -1, NULL, 0, 1, "LTS names must be lowercase" },
	{ "lts/lithium", 0, -1, NULL, 0, 1, "unknown LTS codename" },
	{ "lts/", 0, -1, NULL, 0, 1, "unknown LTS codename" },
	{ "lts", 0, -1, NULL, 0, 1, "write 'lts/*'" },
	{ "20 22", 0, -1, NULL, 0, 1, "no range syntax" },
	{ "v 20", 0, -1, NULL, 0, 1, "no range syntax" },
	/* garbage */
	{ "20\0", 3, -1, NULL, 0, 1, "NUL byte" },
	{ "\n\n\0", 3, -1, NULL, 0, 3, "NUL byte" },
	{ "\xff\xfe", 0, -1, NULL, 0, 1, "invalid UTF-8" },
	{ "\xef\xbb\xbf" "20", 0, -1, NULL, 0, 1, "not a node version" },
	{ "\x1b[31m20", 0, -1, NULL, 0, 1, "not a node version" },
	{ "20\x7f", 0, -1, NULL, 0, 1, "not a node version" },
	{ "\xc3\xa9t\xc3\xa9", 0, -1, NULL, 0, 1, "not a node version" },
};

static void test_parse(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(parse_rows); i++) {
		const struct parse_row *r = &parse_rows[i];
		size_t len = r->len ? r->len : strlen(r->in);
		struct nvmrc n;
		char err[256] = "";
		unsigned line = 99;
		int rc = nvmrc_parse(r->in, len, &n, err, sizeof(err), &line);

		CHECK_INT(rc, r->rc, "row %zu: %s (%s)", i, r->in, err);
		if (rc == 0 && r->rc == 0) {
			CHECK(strcmp(n.spec, r->spec) == 0 && n.kind == r->kind &&
			      n.line == r->line,
			      "row %zu: spec '%s' kind %d line %u", i, n.spec,
			      (int)n.kind, n.line);
		} else if (rc < 0 && r->rc < 0) {
			CHECK(strstr(err, r->err) && line == r->line,
			      "row %zu: err '%s' line %u", i, err, line);
			CHECK(n.spec == NULL, "row %zu: out is empty", i);
		}
		nvmrc_release(&n);
	}
}

/* Every LTS line of nvmrc.md's table, oldest first. */
static const struct {
	const char *codename;
	unsigned long major;
} lts_rows[] = {
	{ "argon", 4 }, { "boron", 6 }, { "carbon", 8 }, { "dubnium", 10 },
	{ "erbium", 12 }, { "fermium", 14 }, { "gallium", 16 },
	{ "hydrogen", 18 }, { "iron", 20 }, { "jod", 22 }, { "krypton", 24 },
};

/* "lts/" "*" resolves to the last row of the table when it is parsed. */
static void test_lts_newest(void)
{
	struct nvmrc n;

	CHECK_INT(nvmrc_parse("lts/*\n", 6, &n, NULL, 0, NULL), 0, "lts/*");
	CHECK(n.kind == NVMRC_LTS_ANY && n.major == 24 && n.codename &&
	      !strcmp(n.codename, "krypton"), "lts/*: major %lu", n.major);
	nvmrc_release(&n);
}

static void test_lts_table(void)
{
	size_t i, nrows = ARRAY_SIZE(lts_rows);
	unsigned long m;

	for (i = 0; i < nrows; i++) {
		char spec[64], ver[32];
		struct nvmrc n;
		unsigned line;
		char err[256] = "";

		snprintf(spec, sizeof(spec), "lts/%s\n", lts_rows[i].codename);
		CHECK_INT(nvmrc_parse(spec, strlen(spec), &n, err, sizeof(err), &line),
			  0, "%s: %s", spec, err);
		CHECK(n.kind == NVMRC_LTS && n.major == lts_rows[i].major &&
		      n.codename && strcmp(n.codename, lts_rows[i].codename) == 0,
		      "%s: major %lu", spec, n.major);
		CHECK_STR(nvmrc_lts_codename(lts_rows[i].major),
			  lts_rows[i].codename, "codename of %lu", lts_rows[i].major);
		snprintf(ver, sizeof(ver), "v%lu.9.1", lts_rows[i].major);
		CHECK_INT(nvmrc_matches(&n, ver), 1, "%s vs %s", spec, ver);
		snprintf(ver, sizeof(ver), "v%lu.0.0", lts_rows[i].major + 2);
		CHECK_INT(nvmrc_matches(&n, ver), 0, "%s vs %s", spec, ver);
		nvmrc_release(&n);

		/* lts/-N counts back from the newest line */
		snprintf(spec, sizeof(spec), "lts/-%zu", nrows - 1 - i);
		if (i == nrows - 1)
			continue;	/* lts/-0 is not a thing */
		CHECK_INT(nvmrc_parse(spec, strlen(spec), &n, err, sizeof(err), &line),
			  0, "%s: %s", spec, err);
		CHECK_STR(n.codename, lts_rows[i].codename, "%s", spec);
		nvmrc_release(&n);
	}
	for (m = 0; m <= 30; m++)
		if (m % 2 == 1 || m < 4 || m > 24)
			CHECK(nvmrc_lts_codename(m) == NULL, "no codename for %lu", m);
}

static const struct {
	const char *spec, *version;
	int want;
} match_rows[] = {
	/* nvmrc.md's checked resolutions, as matches of installed versions */
	{ "20", "v20.18.0", 1 },
	{ "20", "v20.11.1", 1 },
	{ "20.11", "v20.11.1", 1 },
	{ "20.11", "v20.18.0", 0 },
	{ "2", "v2.0.0", 1 },
	{ "2", "v20.11.1", 0 },
	{ "21", "v20.18.0", 0 },
	{ "21", "v22.3.0", 0 },
	{ "v20.11.1", "v20.11.1", 1 },
	{ "20.11.1", "v20.11.0", 0 },
	{ "20.11.1", "v20.11.10", 0 },
	{ "node", "v23.1.0", 1 },
	{ "stable", "v16.20.2", 1 },
	{ "system", "v18.20.4", 1 },
	/* "lts/" "*" is the newest LTS line (krypton in the table), not any LTS
	 * line: nvm resolves it to the newest release of the newest codename */
	{ "lts/*", "v24.0.0", 1 },
	{ "lts/*", "v24.11.1", 1 },
	{ "lts/*", "v24.0.0-rc.1", 1 },
	{ "lts/*", "v22.3.0", 0 },
	{ "lts/*", "v20.18.0", 0 },
	{ "lts/*", "v20.20.2", 0 },
	{ "lts/*", "v23.1.0", 0 },
	{ "lts/*", "v25.0.0", 0 },
	{ "lts/*", "v26.0.0", 0 },
	{ "lts/*", "v2.0.0", 0 },
	{ "lts/*", "garbage", -1 },
	{ "lts/iron", "v20.18.0", 1 },
	{ "lts/iron", "v22.3.0", 0 },
	{ "lts/-1", "v22.3.0", 1 },
	{ "lts/-2", "v20.18.0", 1 },
	{ "lts/-2", "v22.3.0", 0 },
	{ "iojs", "v2.0.0", 1 },
	{ "iojs", "v3.3.1", 1 },
	{ "iojs", "v20.0.0", 0 },
	{ "iojs-v3", "v3.3.1", 1 },
	{ "iojs-v3", "v2.5.0", 0 },
	{ "unstable", "v0.11.16", 1 },
	{ "unstable", "v0.12.0", 0 },
	{ "0.10", "v0.10.48", 1 },
	/* version spellings */
	{ "20", "20.1.0", 1 },
	{ "20", "  v20.1.0\n", 1 },
	{ "22", "v22.0.0-rc.1", 1 },
	{ "22", "v22.0.0-nightly20240101abc", 1 },
	{ "22", "v22.0.0+build", 1 },
	/* cannot decide */
	{ "default", "v20.1.0", -1 },
	{ "20", "v20", -1 },
	{ "20", "v20.1", -1 },
	{ "20", "garbage", -1 },
	{ "20", "", -1 },
	{ "20", "v20.1.0-", -1 },
	{ "20", "v20.1.0 extra", -1 },
	{ "20", "v20.01.0", -1 },
	{ "20", "vv20.1.0", -1 },
	{ "20", "v20.1.0\x1b", -1 },
};

static void test_matches(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(match_rows); i++) {
		struct nvmrc n;
		char err[256] = "";
		unsigned line;

		if (nvmrc_parse(match_rows[i].spec, strlen(match_rows[i].spec),
				&n, err, sizeof(err), &line) < 0) {
			CHECK(0, "row %zu: %s: %s", i, match_rows[i].spec, err);
			continue;
		}
		CHECK_INT(nvmrc_matches(&n, match_rows[i].version),
			  match_rows[i].want, "row %zu: %s vs %s", i,
			  match_rows[i].spec, match_rows[i].version);
		nvmrc_release(&n);
	}
}

static const struct {
	const char *spec, *want;
} describe_rows[] = {
	{ "20", "v20.x" },
	{ "v20.11", "v20.11.x" },
	{ "20.11.1", "v20.11.1" },
	{ "lts/iron", "lts/iron (v20.x)" },
	{ "lts/-1", "lts/-1 = lts/jod (v22.x)" },
	{ "lts/*", "lts/* = lts/krypton (v24.x)" },
	{ "node", "node (any version)" },
	{ "system", "system (any version)" },
	{ "iojs", "iojs (io.js v1 to v3)" },
	{ "iojs-v3", "iojs-v3 (io.js v3.x)" },
	{ "unstable", "unstable (v0.11.x)" },
	{ "default", "alias 'default' (only nvm can resolve it)" },
};

static void test_describe(void)
{
	size_t i;
	struct nvmrc n;
	char buf[128], small[6];
	unsigned line;

	for (i = 0; i < ARRAY_SIZE(describe_rows); i++) {
		if (nvmrc_parse(describe_rows[i].spec, strlen(describe_rows[i].spec),
				&n, NULL, 0, &line) < 0) {
			CHECK(0, "%s does not parse", describe_rows[i].spec);
			continue;
		}
		nvmrc_describe(&n, buf, sizeof(buf));
		CHECK_STR(buf, describe_rows[i].want, "%s", describe_rows[i].spec);
		nvmrc_release(&n);
	}
	/* a short buffer is cut, still terminated */
	CHECK_INT(nvmrc_parse("lts/iron", 8, &n, NULL, 0, NULL), 0, "lts/iron");
	nvmrc_describe(&n, small, sizeof(small));
	CHECK_STR(small, "lts/i", "truncated");
	nvmrc_release(&n);
}

/* Many key=value lines (a hash set since fuzzing found a linear search per
 * key quadratic): every one distinct is fine, and a repeat of any earlier
 * key, however far back, is still refused naming its first line. */
static void test_many_keys(void)
{
	static const unsigned nkeys = 20000;
	struct buf b = BUF_INIT;
	struct nvmrc n;
	char err[256];
	unsigned line = 0, i;

	for (i = 0; i < nkeys; i++)
		buf_printf(&b, "key%u=value\n", i);
	buf_puts(&b, "20\n");
	CHECK_INT(nvmrc_parse(b.s, b.len, &n, err, sizeof(err), &line), 0,
		  "%u distinct keys: %s", nkeys, err);
	CHECK_STR(n.spec, "20", "the bare line");
	nvmrc_release(&n);
	buf_puts(&b, "key7=again\n");
	CHECK_INT(nvmrc_parse(b.s, b.len, &n, err, sizeof(err), &line), -1,
		  "a repeated key");
	CHECK(strstr(err, "duplicate key 'key7' (first on line 8)") != NULL, "%s", err);
	CHECK_INT(line, nkeys + 2, "the repeat's line");
	buf_release(&b);
}

void test_main(void)
{
	test_many_keys();
	test_parse();
	test_lts_table();
	test_lts_newest();
	test_matches();
	test_describe();
}
