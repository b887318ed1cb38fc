/* test_toolversions.c - asdf / mise .tool-versions */
#include "test.h"
#include "spec.h"
#include "toolversions.h"
#include "util.h"

static const struct {
	const char *in;
	size_t len;		/* 0: strlen */
	int rc;
	size_t n;		/* entries */
	/* the first entry, or where the error is */
	const char *tool, *runtime, *version;
	enum toolversions_kind kind;
	unsigned nversions, line, col, version_col, dup_line;
	const char *err;
} rows[] = {
	{ "nodejs 20.11.1\n", 0, 0, 1, "nodejs", "node", "20.11.1",
	  TOOLVERSIONS_VERSION, 1, 1, 1, 8, 0, NULL },
	{ "python 3.11.7 3.10.13\n", 0, 0, 1, "python", "python", "3.11.7",
	  TOOLVERSIONS_VERSION, 2, 1, 1, 8, 0, NULL },
	{ "  golang   1.22.3  # pinned\n", 0, 0, 1, "golang", "go", "1.22.3",
	  TOOLVERSIONS_VERSION, 1, 1, 3, 12, 0, NULL },
	{ "# tools\n\nnodejs 20\r\npython 3.12\r\n", 0, 0, 2, "nodejs", "node", "20",
	  TOOLVERSIONS_VERSION, 1, 3, 1, 8, 0, NULL },
	{ "nodejs 20#comment\n", 0, 0, 1, "nodejs", "node", "20",
	  TOOLVERSIONS_VERSION, 1, 1, 1, 8, 0, NULL },
	{ "\tnodejs\t20\n", 0, 0, 1, "nodejs", "node", "20",
	  TOOLVERSIONS_VERSION, 1, 1, 2, 9, 0, NULL },
	{ "nodejs 20\nnodejs 22\n", 0, 0, 1, "nodejs", "node", "20",
	  TOOLVERSIONS_VERSION, 1, 1, 1, 8, 2, NULL },
	{ "ruby ref:v3.3.0\n", 0, 0, 1, "ruby", "ruby", "ref:v3.3.0",
	  TOOLVERSIONS_REF, 1, 1, 1, 6, 0, NULL },
	{ "java path:/opt/jdk-21\n", 0, 0, 1, "java", "java", "path:/opt/jdk-21",
	  TOOLVERSIONS_PATH, 1, 1, 1, 6, 0, NULL },
	{ "python system\n", 0, 0, 1, "python", "python", "system",
	  TOOLVERSIONS_SYSTEM, 1, 1, 1, 8, 0, NULL },
	{ "nodejs latest\n", 0, 0, 1, "nodejs", "node", "latest",
	  TOOLVERSIONS_OTHER, 1, 1, 1, 8, 0, NULL },
	{ "node lts\n", 0, 0, 1, "node", "node", "lts",
	  TOOLVERSIONS_OTHER, 1, 1, 1, 6, 0, NULL },
	{ "python prefix:3.11\n", 0, 0, 1, "python", "python", "prefix:3.11",
	  TOOLVERSIONS_OTHER, 1, 1, 1, 8, 0, NULL },
	{ "python 3.11.7 system\n", 0, 0, 1, "python", "python", "3.11.7",
	  TOOLVERSIONS_VERSION, 2, 1, 1, 8, 0, NULL },
	{ "core:node 20\n", 0, 0, 1, "core:node", "node", "20",
	  TOOLVERSIONS_VERSION, 1, 1, 1, 11, 0, NULL },
	{ "deno 1.40.0\n", 0, 0, 1, "deno", "deno", "1.40.0",
	  TOOLVERSIONS_VERSION, 1, 1, 1, 6, 0, NULL },
	{ "terraform 1.7.0\n", 0, 0, 1, "terraform", "terraform", "1.7.0",
	  TOOLVERSIONS_VERSION, 1, 1, 1, 11, 0, NULL },
	{ "awscli 2.15.0\n", 0, 0, 1, "awscli", NULL, "2.15.0",
	  TOOLVERSIONS_VERSION, 1, 1, 1, 8, 0, NULL },
	{ "java temurin-21.0.2+13.0.LTS\n", 0, 0, 1, "java", "java",
	  "temurin-21.0.2+13.0.LTS", TOOLVERSIONS_VERSION, 1, 1, 1, 6, 0, NULL },
	{ "", 0, 0, 0, NULL, NULL, NULL, 0, 0, 0, 0, 0, 0, NULL },
	{ "# only comments\n  # here\n\n", 0, 0, 0, NULL, NULL, NULL, 0, 0, 0, 0, 0, 0, NULL },
	/* errors */
	{ "nodejs\n", 0, -1, 0, NULL, NULL, NULL, 0, 0, 1, 1, 0, 0, "'nodejs' has no version" },
	{ "python 3.12\n  nodejs # 20\n", 0, -1, 0, NULL, NULL, NULL, 0, 0, 2, 3, 0, 0,
	  "'nodejs' has no version" },
	{ "nodejs 20\0", 10, -1, 0, NULL, NULL, NULL, 0, 0, 1, 10, 0, 0, "NUL byte" },
	{ "nodejs \xff\n", 0, -1, 0, NULL, NULL, NULL, 0, 0, 1, 8, 0, 0, "invalid UTF-8" },
	{ "\x1b]0;x\x07\n", 0, -1, 0, NULL, NULL, NULL, 0, 0, 1, 1, 0, 0, "has no version" },
};

static void test_parse(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct toolversions t;
		const struct toolversions_entry *e;
		struct parse_error pe = { 0, 0, "" };
		size_t len = rows[i].len ? rows[i].len : strlen(rows[i].in);
		int rc = toolversions_parse(rows[i].in, len, &t, &pe);

		CHECK_INT(rc, rows[i].rc, "row %zu (%s)", i, pe.msg);
		if (rc < 0) {
			CHECK(strstr(pe.msg, rows[i].err) && pe.line == rows[i].line &&
			      pe.col == rows[i].col && t.n == 0,
			      "row %zu: '%s' at %u:%u", i, pe.msg, pe.line, pe.col);
			continue;
		}
		CHECK_INT(t.n, rows[i].n, "row %zu: entries", i);
		if (!t.n || !rows[i].n) {
			toolversions_release(&t);
			continue;
		}
		e = &t.v[0];
		CHECK(strcmp(e->tool, rows[i].tool) == 0 &&
		      strcmp(e->version, rows[i].version) == 0 &&
		      e->kind == rows[i].kind &&
		      e->nversions == rows[i].nversions,
		      "row %zu: '%s' '%s' kind %d n %u", i, e->tool, e->version,
		      (int)e->kind, e->nversions);
		CHECK_STR(e->runtime, rows[i].runtime, "row %zu: runtime", i);
		CHECK(e->line == rows[i].line && e->col == rows[i].col &&
		      e->version_col == rows[i].version_col &&
		      e->dup_line == rows[i].dup_line,
		      "row %zu: at %u:%u, version col %u, dup %u", i, e->line,
		      e->col, e->version_col, e->dup_line);
		toolversions_release(&t);
	}
}

static const struct {
	const char *plugin, *runtime;
} map_rows[] = {
	{ "nodejs", "node" }, { "node", "node" }, { "python", "python" },
	{ "golang", "go" }, { "go", "go" }, { "ruby", "ruby" },
	{ "java", "java" }, { "rust", "rust" }, { "pnpm", "pnpm" },
	{ "yarn", "yarn" }, { "core:python", "python" }, { "NodeJS", NULL },
	{ "nodejs2", NULL }, { "", NULL }, { "core:", NULL },
};

static void test_map(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(map_rows); i++)
		CHECK_STR(toolversions_runtime(map_rows[i].plugin,
					       strlen(map_rows[i].plugin)),
			  map_rows[i].runtime, "%s", map_rows[i].plugin);
}

static void test_find(void)
{
	static const char in[] = "golang 1.22.3\nnodejs 20.11.1\nawscli 2\n";
	struct toolversions t;
	const struct toolversions_entry *e;

	CHECK_INT(toolversions_parse(in, sizeof(in) - 1, &t, NULL),
		  0, "parse");
	CHECK_INT(t.n, 3, "three tools");
	e = toolversions_find(&t, "node");
	CHECK(e && strcmp(e->version, "20.11.1") == 0 && e->line == 2, "node");
	e = toolversions_find(&t, "go");
	CHECK(e && strcmp(e->tool, "golang") == 0, "go");
	e = toolversions_find(&t, "awscli");
	CHECK(e && e->runtime == NULL, "an unknown plugin by its own name");
	CHECK(toolversions_find(&t, "python") == NULL, "python absent");
	toolversions_release(&t);
}

/* Issue 8, finding 1.3: 100,000 tools (under the 1 MiB cap) were one
 * linear lookup a line and one runtime requirement each.  The parse keeps
 * every tool and spots duplicates through a hash set; the model takes the
 * first SPEC_RUNTIMES_MAX and counts the rest.  Asserted by what is
 * kept, not by how long it takes. */
static void test_many(void)
{
	const size_t n = 100000;
	struct buf b = BUF_INIT;
	struct toolversions t;
	struct spec spec;
	struct errbuf err;
	const char *dir;
	size_t i;

	for (i = 0; i < n; i++)
		buf_printf(&b, "t%zx 1\n", i);
	buf_puts(&b, "t5 2\n");	/* a repeat, which asdf ignores */
	CHECK_INT(toolversions_parse(b.s, b.len, &t, NULL), 0, "parse");
	CHECK_INT(t.n, n, "every tool once");
	CHECK(t.n > 5 && t.v[5].dup_line == n + 1, "the repeat is noted: %u",
	      t.n > 5 ? t.v[5].dup_line : 0);
	toolversions_release(&t);

	dir = test_tmpdir("toolversions-many");
	test_write(dir, ".tool-versions", b.s, b.len);
	CHECK(b.len < SPEC_FILE_CAP, "under the size cap: %zu", b.len);
	CHECK_INT(spec_load(dir, &spec, &err), 0, "load: %s", err.msg);
	CHECK_INT(spec.nruntimes, SPEC_RUNTIMES_MAX, "requirements capped");
	CHECK_INT(spec.runtimes_capped, n - SPEC_RUNTIMES_MAX, "the rest counted");
	CHECK(spec.runtimes_capped_origin.file &&
	      !strcmp(spec.runtimes_capped_origin.file, ".tool-versions") &&
	      spec.runtimes_capped_origin.line == SPEC_RUNTIMES_MAX + 1,
	      "the first one not taken: line %u", spec.runtimes_capped_origin.line);
	spec_release(&spec);
	buf_release(&b);
}

void test_main(void)
{
	test_parse();
	test_map();
	test_find();
	test_many();
}
