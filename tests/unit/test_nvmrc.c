/* test_nvmrc.c - .nvmrc cleanup, spec resolution, matching, descriptions */
#include "test.h"
#include "nvmrc.h"
#include "nodelts.h"
#include "util.h"

#include <unistd.h>

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
	{ ">=18", 0, -1, NULL, 0, 1, "'>=18' holds '=', which nvm reads as a key=value" },
	{ "# pin\n  >=18.16.0 \n", 0, -1, NULL, 0, 2, "nvm has no range syntax" },
	{ "a=1\n", 0, -1, NULL, 0, 0, "no version line" },
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
	{ "lts/-11", 0, 0, "lts/-11", NVMRC_LTS, 1, NULL },
	{ "lts/-0", 0, -1, NULL, 0, 1, "not an LTS name" },
	{ "lts/-x", 0, -1, NULL, 0, 1, "not an LTS name" },
	{ "lts/Iron", 0, -1, NULL, 0, 1, "LTS names must be lowercase" },
	{ "lts/IRON", 0, -1, NULL, 0, 1, "LTS names must be lowercase" },
	{ "lts/lithium", 0, 0, "lts/lithium", NVMRC_LTS, 1, NULL },
	/* a name the table may not know yet: nvm's aliases may */
	{ "lts/magnesium", 0, 0, "lts/magnesium", NVMRC_LTS, 1, NULL },
	{ "lts/", 0, -1, NULL, 0, 1, "not an LTS name" },
	{ "lts/a/b", 0, -1, NULL, 0, 1, "not an LTS name" },
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
		struct parse_error e = { 99, 99, "" };
		int rc = nvmrc_parse(r->in, len, &n, &e);

		CHECK_INT(rc, r->rc, "row %zu: %s (%s)", i, r->in, e.msg);
		if (rc == 0 && r->rc == 0) {
			CHECK(strcmp(n.spec, r->spec) == 0 && n.kind == r->kind &&
			      n.line == r->line,
			      "row %zu: spec '%s' kind %d line %u", i, n.spec,
			      (int)n.kind, n.line);
		} else if (rc < 0 && r->rc < 0) {
			CHECK(strstr(e.msg, r->err) && e.line == r->line && e.col == 0,
			      "row %zu: err '%s' at %u:%u", i, e.msg, e.line, e.col);
			CHECK(n.spec == NULL, "row %zu: out is empty", i);
		}
		nvmrc_release(&n);
	}
}

#define TODAY 20261130L	/* the day the Node 26 "Lithium" rows were checked */

/* Parse spec and settle its LTS line on day today (no nvm): 0 or -1. */
static int parse_at(const char *spec, long today, struct nvmrc *n, char *err,
		    size_t errlen)
{
	struct parse_error e;

	if (nvmrc_parse(spec, strlen(spec), n, &e) < 0) {
		snprintf(err, errlen, "%s", e.msg);
		return -1;
	}
	if (nvmrc_resolve_lts(n, today, NULL, err, errlen) < 0) {
		nvmrc_release(n);
		return -1;
	}
	return 0;
}

/* Every LTS line of nodejs/Release schedule.json (nvmrc.md's table),
 * oldest first, with its LTS start. */
static const struct {
	const char *codename;
	unsigned long major;
	long lts;
} lts_rows[] = {
	{ "argon", 4, 20151012 }, { "boron", 6, 20161018 },
	{ "carbon", 8, 20171031 }, { "dubnium", 10, 20181030 },
	{ "erbium", 12, 20191021 }, { "fermium", 14, 20201027 },
	{ "gallium", 16, 20211026 }, { "hydrogen", 18, 20221025 },
	{ "iron", 20, 20231024 }, { "jod", 22, 20241029 },
	{ "krypton", 24, 20251028 }, { "lithium", 26, 20261028 },
};

/* "lts/" "*" is the newest line whose LTS start is on or before today. */
static const struct {
	long today;
	unsigned long major;
	const char *codename;
} newest_rows[] = {
	{ 20261130, 26, "lithium" },	/* the today */
	{ 20261028, 26, "lithium" },	/* its first day */
	{ 20261027, 24, "krypton" },	/* the day before */
	{ 20251028, 24, "krypton" },
	{ 20251027, 22, "jod" },
	{ 20151012, 4, "argon" },
	{ 20991231, 26, "lithium" },	/* the table's newest, however late */
};

static void test_lts_newest(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(newest_rows); i++) {
		struct nvmrc n;
		char err[256] = "";

		if (parse_at("lts/*\n", newest_rows[i].today, &n, err, sizeof(err)) < 0) {
			CHECK(0, "lts/* on %ld: %s", newest_rows[i].today, err);
			continue;
		}
		CHECK(n.kind == NVMRC_LTS_ANY && n.major == newest_rows[i].major &&
		      !strcmp(n.codename, newest_rows[i].codename) && !n.from_nvm,
		      "lts/* on %ld: major %lu %s", newest_rows[i].today, n.major,
		      n.codename);
		nvmrc_release(&n);
	}
	/* before the first LTS line there is none */
	{
		struct nvmrc n;
		char err[256] = "";

		CHECK_INT(parse_at("lts/*", 20150101, &n, err, sizeof(err)), -1, "2015");
		CHECK(strstr(err, "no LTS line had started by 2015-01-01") != NULL,
		      "%s", err);
	}
	/* lts/-1 counts back from today's newest */
	{
		struct nvmrc n;
		char err[256] = "";

		CHECK_INT(parse_at("lts/-1", TODAY, &n, err, sizeof(err)), 0, "%s", err);
		CHECK_STR(n.codename, "krypton", "lts/-1 today");
		nvmrc_release(&n);
		CHECK_INT(parse_at("lts/-1", 20261001, &n, err, sizeof(err)), 0, "%s", err);
		CHECK_STR(n.codename, "jod", "lts/-1 before lithium");
		nvmrc_release(&n);
	}
}

/* Codenames the table refuses, with why: not yet LTS, not known. */
static const struct {
	const char *spec;
	long today;
	const char *err;
} refuse_rows[] = {
	{ "lts/lithium", 20261027, "Node.js 26 (lithium) enters LTS on 2026-10-28" },
	{ "lts/magnesium", TODAY, "Node.js release schedule of " NODELTS_TABLE_DATE },
	{ "lts/magnesium", TODAY, "lts/argon to lts/lithium" },
	{ "lts/-12", TODAY, "only 11 LTS lines before lts/lithium" },
	{ "lts/-11", 20261027, "only 10 LTS lines before lts/krypton" },
	{ "lts/-99999", TODAY, "That many LTS releases do not exist yet" },
};

static void test_lts_refused(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(refuse_rows); i++) {
		struct nvmrc n;
		char err[256] = "";

		CHECK_INT(parse_at(refuse_rows[i].spec, refuse_rows[i].today, &n, err,
				   sizeof(err)), -1, "row %zu", i);
		CHECK(strstr(err, refuse_rows[i].err) != NULL, "row %zu: %s", i, err);
	}
}

static void test_lts_table(void)
{
	size_t i, nrows = ARRAY_SIZE(lts_rows);
	unsigned long m;

	CHECK_STR(nodelts_first()->codename, "argon", "first");
	CHECK_STR(nodelts_last()->codename, "lithium", "last");
	for (i = 0; i < nrows; i++) {
		char spec[64], ver[32];
		struct nvmrc n;
		char err[256] = "";
		const struct nodelts_line *l = nodelts_by_major(lts_rows[i].major);

		CHECK(l && l->lts == lts_rows[i].lts &&
		      !strcmp(l->codename, lts_rows[i].codename),
		      "table row %s", lts_rows[i].codename);
		snprintf(spec, sizeof(spec), "lts/%s\n", lts_rows[i].codename);
		CHECK_INT(parse_at(spec, TODAY, &n, err, sizeof(err)), 0, "%s: %s",
			  spec, err);
		CHECK(n.kind == NVMRC_LTS && n.major == lts_rows[i].major &&
		      strcmp(n.codename, lts_rows[i].codename) == 0,
		      "%s: major %lu", spec, n.major);
		snprintf(ver, sizeof(ver), "v%lu.9.1", lts_rows[i].major);
		CHECK_INT(nvmrc_matches(&n, ver), 1, "%s vs %s", spec, ver);
		snprintf(ver, sizeof(ver), "v%lu.0.0", lts_rows[i].major + 2);
		CHECK_INT(nvmrc_matches(&n, ver), 0, "%s vs %s", spec, ver);
		nvmrc_release(&n);
		/* its first LTS day resolves; the day before does not */
		CHECK_INT(parse_at(spec, lts_rows[i].lts, &n, err, sizeof(err)), 0,
			  "%s on its day", spec);
		if (n.spec)
			nvmrc_release(&n);
		CHECK_INT(parse_at(spec, lts_rows[i].lts - 1, &n, err, sizeof(err)), -1,
			  "%s the day before", spec);

		/* lts/-N counts back from the newest line */
		if (i == nrows - 1)
			continue;	/* lts/-0 is not a thing */
		snprintf(spec, sizeof(spec), "lts/-%zu", nrows - 1 - i);
		CHECK_INT(parse_at(spec, TODAY, &n, err, sizeof(err)), 0, "%s: %s",
			  spec, err);
		CHECK_STR(n.codename, lts_rows[i].codename, "%s", spec);
		nvmrc_release(&n);
	}
	for (m = 0; m <= 30; m++)
		if (m % 2 == 1 || m < 4 || m > 26)
			CHECK(nodelts_by_major(m) == NULL, "no LTS line %lu", m);
}

static void test_dates(void)
{
	long d = 0;
	char buf[16];

	CHECK_INT(nodelts_date_parse("2026-11-30", &d), 0, "date");
	CHECK_INT(d, 20261130, "date value");
	CHECK_STR(nodelts_date_format(d, buf, sizeof(buf)), "2026-11-30", "format");
	CHECK_INT(nodelts_date_parse("2024-02-29", &d), 0, "leap day");
	CHECK_INT(nodelts_date_parse("2026-02-29", &d), -1, "no leap day");
	CHECK_INT(nodelts_date_parse("2026-13-01", &d), -1, "month");
	CHECK_INT(nodelts_date_parse("2026-1-01", &d), -1, "form");
	CHECK_INT(nodelts_date_parse("2026-11-30x", &d), -1, "trailing");
	CHECK_INT(nodelts_date_parse("", &d), -1, "empty");
	setenv("ENVPREFLIGHT_TODAY", "2026-10-27", 1);
	CHECK_INT(nodelts_today(), 20261027, "ENVPREFLIGHT_TODAY");
	setenv("ENVPREFLIGHT_TODAY", "yesterday", 1);
	CHECK(nodelts_today() > 20250101, "a bad value is the clock");
	unsetenv("ENVPREFLIGHT_TODAY");
}

/* ---- nvm's alias files win ---- */

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f) {
		CHECK(0, "cannot write %s", path);
		return;
	}
	fputs(text, f);
	fclose(f);
}

/* A fake $NVM_DIR as `nvm ls-remote` leaves it: alias/lts/<star> names the
 * newest codename, each alias/lts/<codename> its newest release. */
static char *fake_nvm(const char *tag, const char *newest)
{
	const char *tmp = getenv("TEST_TMPDIR");
	char dir[512], lts[600], cmd[1300];
	static const char *const rows[][2] = {
		{ "hydrogen", "v18.20.8\n" }, { "iron", "v20.19.5 # pinned\n" },
		{ "jod", "\n  \nv22.21.1  \n" }, { "krypton", "v24.11.1\n" },
	};
	size_t i;

	snprintf(dir, sizeof(dir), "%s/nvm-%s", tmp, tag);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s/alias/lts'", dir, dir);
	CHECK(system(cmd) == 0, "%s", cmd);
	snprintf(lts, sizeof(lts), "%s/alias/lts", dir);
	for (i = 0; i < ARRAY_SIZE(rows); i++)
		write_file(lts, rows[i][0], rows[i][1]);
	write_file(lts, "*", newest);
	return strdup(dir);
}

static const struct {
	const char *spec, *node;
	int want;
	const char *codename;
} nvm_rows[] = {
	/* nvm's answer is krypton, older than the table's lithium: nvm wins,
	 * and it wants exactly the release its alias names */
	{ "lts/*", "v24.11.1", 1, "krypton" },
	{ "lts/*", "v24.11.0", 0, "krypton" },
	{ "lts/*", "v26.1.0", 0, "krypton" },
	{ "lts/-1", "v22.21.1", 1, "jod" },
	{ "lts/-2", "v20.19.5", 1, "iron" },
	{ "lts/iron", "v20.19.5", 1, "iron" },
	{ "lts/iron", "v20.18.0", 0, "iron" },
	/* nvm has no alias for lithium yet: the table answers */
	{ "lts/lithium", "v26.0.0", 1, "lithium" },
};

static void test_nvm_aliases(void)
{
	char *dir = fake_nvm("a", "lts/krypton\n");
	char err[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(nvm_rows); i++) {
		struct nvmrc n;

		err[0] = '\0';
		CHECK_INT(nvmrc_parse(nvm_rows[i].spec, strlen(nvm_rows[i].spec), &n,
				      NULL), 0, "%s", nvm_rows[i].spec);
		CHECK_INT(nvmrc_resolve_lts(&n, TODAY, dir, err, sizeof(err)), 0,
			  "row %zu: %s", i, err);
		CHECK_STR(n.codename, nvm_rows[i].codename, "row %zu", i);
		CHECK_INT(nvmrc_matches(&n, nvm_rows[i].node), nvm_rows[i].want,
			  "row %zu: %s vs %s", i, nvm_rows[i].spec, nvm_rows[i].node);
		CHECK(strcmp(nvm_rows[i].codename, "lithium") ? n.from_nvm &&
		      n.nvm_file && strstr(n.nvm_file, "/alias/lts/") : !n.from_nvm,
		      "row %zu: provenance", i);
		nvmrc_release(&n);
	}
	{
		struct nvmrc n;
		char buf[128];

		CHECK_INT(nvmrc_parse("lts/*", 5, &n, NULL), 0, "lts/*");
		CHECK_INT(nvmrc_resolve_lts(&n, TODAY, dir, err, sizeof(err)), 0, "%s", err);
		nvmrc_describe(&n, buf, sizeof(buf));
		CHECK_STR(buf, "lts/* = lts/krypton (v24.11.1 per nvm)", "describe");
		nvmrc_release(&n);
		/* lts/-N past nvm's oldest alias: nvm's own refusal */
		CHECK_INT(nvmrc_parse("lts/-4", 6, &n, NULL), 0, "lts/-4");
		CHECK_INT(nvmrc_resolve_lts(&n, TODAY, dir, err, sizeof(err)), -1, "lts/-4");
		CHECK(strstr(err, "That many LTS releases do not exist yet") != NULL,
		      "%s", err);
		nvmrc_release(&n);
	}
	free(dir);
	/* an alias that loops, one that names no version */
	dir = fake_nvm("b", "lts/loop\n");
	write_file(dir, "alias/lts/loop", "lts/loop2\n");
	write_file(dir, "alias/lts/loop2", "lts/loop\n");
	{
		struct nvmrc n;

		CHECK_INT(nvmrc_parse("lts/*", 5, &n, NULL), 0, "lts/*");
		CHECK_INT(nvmrc_resolve_lts(&n, TODAY, dir, err, sizeof(err)), -1, "loop");
		CHECK(strstr(err, "loop") != NULL, "%s", err);
		nvmrc_release(&n);
	}
	free(dir);
	dir = fake_nvm("c", "lts/krypton\n");
	write_file(dir, "alias/lts/krypton", "# nothing\n\n");
	{
		struct nvmrc n;

		CHECK_INT(nvmrc_parse("lts/*", 5, &n, NULL), 0, "lts/*");
		CHECK_INT(nvmrc_resolve_lts(&n, TODAY, dir, err, sizeof(err)), -1, "empty");
		CHECK(strstr(err, "is empty") != NULL, "%s", err);
		nvmrc_release(&n);
	}
	free(dir);
	/* no alias/lts/<star>: nvm has never listed LTS lines, the table answers */
	dir = fake_nvm("d", "lts/krypton\n");
	{
		char path[700];
		struct nvmrc n;

		snprintf(path, sizeof(path), "%s/alias/lts/*", dir);
		CHECK(unlink(path) == 0, "unlink");
		CHECK_INT(nvmrc_parse("lts/*", 5, &n, NULL), 0, "lts/*");
		CHECK_INT(nvmrc_resolve_lts(&n, TODAY, dir, err, sizeof(err)), 0, "%s", err);
		CHECK(!n.from_nvm && n.major == 26, "table");
		nvmrc_release(&n);
	}
	free(dir);
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
	/* "lts/" "*" is the newest LTS line on 2026-11-30 (lithium), not any
	 * LTS line: nvm resolves it to the newest release of that codename */
	{ "lts/*", "v26.0.0", 1 },
	{ "lts/*", "v26.3.1", 1 },
	{ "lts/*", "v26.0.0-rc.1", 1 },
	{ "lts/*", "v24.11.1", 0 },
	{ "lts/*", "v22.3.0", 0 },
	{ "lts/*", "v20.20.2", 0 },
	{ "lts/*", "v23.1.0", 0 },
	{ "lts/*", "v25.0.0", 0 },
	{ "lts/*", "v27.0.0", 0 },
	{ "lts/*", "v2.0.0", 0 },
	{ "lts/*", "garbage", -1 },
	{ "lts/iron", "v20.18.0", 1 },
	{ "lts/iron", "v22.3.0", 0 },
	{ "lts/-1", "v24.3.0", 1 },
	{ "lts/-2", "v22.3.0", 1 },
	{ "lts/-2", "v24.3.0", 0 },
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

		if (parse_at(match_rows[i].spec, TODAY, &n, err, sizeof(err)) < 0) {
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
	{ "lts/-1", "lts/-1 = lts/krypton (v24.x)" },
	{ "lts/*", "lts/* = lts/lithium (v26.x)" },
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

	for (i = 0; i < ARRAY_SIZE(describe_rows); i++) {
		if (nvmrc_parse(describe_rows[i].spec, strlen(describe_rows[i].spec),
				&n, NULL) < 0 ||
		    nvmrc_resolve_lts(&n, TODAY, NULL, NULL, 0) < 0) {
			CHECK(0, "%s does not parse", describe_rows[i].spec);
			continue;
		}
		nvmrc_describe(&n, buf, sizeof(buf));
		CHECK_STR(buf, describe_rows[i].want, "%s", describe_rows[i].spec);
		nvmrc_release(&n);
	}
	/* a short buffer is cut, still terminated */
	CHECK_INT(parse_at("lts/iron", TODAY, &n, NULL, 0), 0, "lts/iron");
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
	struct parse_error e = { 0, 0, "" };
	unsigned i;

	for (i = 0; i < nkeys; i++)
		buf_printf(&b, "key%u=value\n", i);
	buf_puts(&b, "20\n");
	CHECK_INT(nvmrc_parse(b.s, b.len, &n, &e), 0,
		  "%u distinct keys: %s", nkeys, e.msg);
	CHECK_STR(n.spec, "20", "the bare line");
	nvmrc_release(&n);
	buf_puts(&b, "key7=again\n");
	CHECK_INT(nvmrc_parse(b.s, b.len, &n, &e), -1, "a repeated key");
	CHECK(strstr(e.msg, "duplicate key 'key7' (first on line 8)") != NULL, "%s", e.msg);
	CHECK_INT(e.line, nkeys + 2, "the repeat's line");
	buf_release(&b);
}

void test_main(void)
{
	test_many_keys();
	test_parse();
	test_dates();
	test_lts_table();
	test_lts_newest();
	test_lts_refused();
	test_nvm_aliases();
	test_matches();
	test_describe();
}
