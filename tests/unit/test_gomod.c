/* test_gomod.c - go.mod go/toolchain lines and Go version order */
#include "test.h"
#include "gomod.h"
#include "util.h"

static const struct {
	const char *in;
	size_t len;		/* 0: strlen */
	int rc;
	const char *go;		/* rc 0 */
	unsigned go_line, go_col;
	const char *toolchain;
	unsigned tc_line, tc_col;
	const char *err;	/* rc -1; the error is at go_line:go_col */
} rows[] = {
	{ "module example.com/x\n\ngo 1.22\n", 0, 0, "1.22", 3, 4, NULL, 0, 0, NULL },
	{ "module m\ngo 1.22.3\ntoolchain go1.22.5\n", 0, 0, "1.22.3", 2, 4,
	  "go1.22.5", 3, 11, NULL },
	{ "module m\n\ngo 1.21rc1\n", 0, 0, "1.21rc1", 3, 4, NULL, 0, 0, NULL },
	{ "go 1.22 // pinned\n", 0, 0, "1.22", 1, 4, NULL, 0, 0, NULL },
	{ "go\t1.22\r\n", 0, 0, "1.22", 1, 4, NULL, 0, 0, NULL },
	{ "  go   1.20\n", 0, 0, "1.20", 1, 8, NULL, 0, 0, NULL },
	{ "// go 1.22\nmodule m\n", 0, 0, NULL, 0, 0, NULL, 0, 0, NULL },
	{ "", 0, 0, NULL, 0, 0, NULL, 0, 0, NULL },
	{ "module m\n\nrequire (\n\tgolang.org/x/text v0.14.0\n\tgo 1.2\n)\n\ngo 1.21\n",
	  0, 0, "1.21", 8, 4, NULL, 0, 0, NULL },
	{ "require(\n\tx v1\n)\ngo 1.21\n", 0, 0, "1.21", 4, 4, NULL, 0, 0, NULL },
	{ "module \"ex//ample\"\ngo 1.22\n", 0, 0, "1.22", 2, 4, NULL, 0, 0, NULL },
	{ "module `raw//x`\ngo 1.22 // c\n", 0, 0, "1.22", 2, 4, NULL, 0, 0, NULL },
	{ "toolchain default\ngo 1.21.0\n", 0, 0, "1.21.0", 2, 4, "default", 1, 11, NULL },
	{ "go 1.21.0\ntoolchain go1.21.0-custom\n", 0, 0, "1.21.0", 1, 4,
	  "go1.21.0-custom", 2, 11, NULL },
	{ "gopher 1\ngo 1.22\n", 0, 0, "1.22", 2, 4, NULL, 0, 0, NULL },
	/* errors */
	{ "go 1.22\ngo 1.23\n", 0, -1, NULL, 2, 1, NULL, 0, 0, "repeated go statement (first on line 1)" },
	{ "toolchain go1.22.0\ntoolchain go1.23.0\n", 0, -1, NULL, 2, 1, NULL, 0, 0,
	  "repeated toolchain statement" },
	{ "go\n", 0, -1, NULL, 1, 1, NULL, 0, 0, "'go' expects exactly one argument" },
	{ "go 1.22 1.23\n", 0, -1, NULL, 1, 1, NULL, 0, 0, "'go' expects exactly one argument" },
	{ "go 1.22.x\n", 0, -1, NULL, 1, 4, NULL, 0, 0,
	  "invalid go version '1.22.x': must match format 1.23.0" },
	{ "go v1.22\n", 0, -1, NULL, 1, 4, NULL, 0, 0, "invalid go version" },
	{ "go 01.22\n", 0, -1, NULL, 1, 4, NULL, 0, 0, "invalid go version" },
	{ "go 1.022\n", 0, -1, NULL, 1, 4, NULL, 0, 0, "invalid go version" },
	{ "go 1\n", 0, -1, NULL, 1, 4, NULL, 0, 0, "invalid go version" },
	{ "go 1.21rc\n", 0, -1, NULL, 1, 4, NULL, 0, 0, "invalid go version" },
	{ "go \"1.22\"\n", 0, -1, NULL, 1, 4, NULL, 0, 0, "invalid go version" },
	{ "go 0.1\n", 0, -1, NULL, 1, 4, NULL, 0, 0, "invalid go version" },
	{ "toolchain 1.22\n", 0, -1, NULL, 1, 11, NULL, 0, 0,
	  "invalid toolchain version '1.22': must match format go1.23.0 or default" },
	{ "toolchain go2\n", 0, -1, NULL, 1, 11, NULL, 0, 0, "invalid toolchain version" },
	{ "go (\n1.22\n)\n", 0, -1, NULL, 1, 1, NULL, 0, 0, "'go' cannot be a block" },
	{ "go 1.22\0", 8, -1, NULL, 1, 8, NULL, 0, 0, "NUL byte" },
	{ "module m\n\xc0\x80\n", 0, -1, NULL, 2, 1, NULL, 0, 0, "invalid UTF-8" },
	{ "go 1.22\x1b[2J\n", 0, -1, NULL, 1, 4, NULL, 0, 0,
	  "invalid go version '1.22?[2J'" },
};

static void test_parse(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct gomod m;
		struct parse_error e = { 0, 0, "" };
		size_t len = rows[i].len ? rows[i].len : strlen(rows[i].in);
		int rc = gomod_parse(rows[i].in, len, &m, &e);

		CHECK_INT(rc, rows[i].rc, "row %zu (%s)", i, e.msg);
		if (rc < 0) {
			CHECK(strstr(e.msg, rows[i].err) && e.line == rows[i].go_line &&
			      e.col == rows[i].go_col && !m.go && !m.toolchain,
			      "row %zu: '%s' at %u:%u", i, e.msg, e.line, e.col);
			continue;
		}
		CHECK_STR(m.go, rows[i].go, "row %zu: go", i);
		CHECK_STR(m.toolchain, rows[i].toolchain, "row %zu: toolchain", i);
		CHECK(m.go_line == rows[i].go_line && m.go_col == rows[i].go_col &&
		      m.toolchain_line == rows[i].tc_line &&
		      m.toolchain_col == rows[i].tc_col,
		      "row %zu: go at %u:%u, toolchain at %u:%u", i, m.go_line,
		      m.go_col, m.toolchain_line, m.toolchain_col);
		gomod_release(&m);
	}
}

static const struct {
	const char *found, *min;
	int want;
} at_least_rows[] = {
	{ "go version go1.22.3 linux/amd64", "1.22", 1 },
	{ "go version go1.22.3 linux/amd64\n", "1.22.3", 1 },
	{ "go version go1.22.3 linux/amd64", "1.22.4", 0 },
	{ "go version go1.21.13 linux/amd64", "1.22", 0 },
	{ "go version go1.22.3 X:boringcrypto linux/amd64", "1.22.3", 1 },
	{ "go version devel go1.23-abc123 Tue Jan 1 2024 linux/amd64", "1.22", 1 },
	{ "go version devel go1.23-abc123 Tue Jan 1 2024 linux/amd64", "1.23.0", 0 },
	{ "go1.22.0", "1.22", 1 },
	{ "go1.22rc1", "1.22", 1 },
	{ "go1.22rc1", "1.22.0", 0 },
	{ "go1.22beta1", "1.22rc1", 0 },
	{ "go1.22rc2", "1.22rc1", 1 },
	{ "go1.22rc10", "1.22rc9", 1 },
	{ "1.20", "1.20.0", 1 },
	{ "1.20.0", "1.20", 1 },
	{ "1.21", "1.21.0", 0 },
	{ "1.21.0", "1.21", 1 },
	{ "go1.22.3", "go1.22.3", 1 },
	{ "go1.10", "1.9", 1 },
	{ "go1.9", "1.10", 0 },
	{ "go1.21.0-custom", "1.21.0", 1 },
	{ "go1.21.0+auto", "go1.21.0", 1 },
	{ "go2", "1.99", 1 },
	{ "go1", "1.0.0", 1 },
	{ "go1.100.0", "1.99.99", 1 },
	{ "garbage", "1.22", -1 },
	{ "go1.22.3", "x", -1 },
	{ "", "1.22", -1 },
	{ "go version", "1.22", -1 },
	{ "go1.22.03", "1.22", -1 },
	{ "go1.22.3rc1", "1.22", -1 },
	{ "go1.22RC1", "1.22", -1 },
	{ "go1..22", "1.22", -1 },
	{ "go1.22.", "1.22", -1 },
};

static void test_at_least(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(at_least_rows); i++)
		CHECK_INT(goversion_at_least(at_least_rows[i].found,
					     at_least_rows[i].min),
			  at_least_rows[i].want, "row %zu: '%s' >= '%s'", i,
			  at_least_rows[i].found, at_least_rows[i].min);
	CHECK_INT(goversion_at_least(NULL, "1.22"), -1, "NULL found");
	CHECK_INT(goversion_at_least("go1.22", NULL), -1, "NULL min");
}

/* The go line straight from gomod_parse feeds goversion_at_least. */
static void test_together(void)
{
	static const char mod[] = "module m\n\ngo 1.22\n\ntoolchain go1.22.3\n";
	struct gomod m;

	CHECK_INT(gomod_parse(mod, sizeof(mod) - 1, &m, NULL), 0,
		  "parse");
	CHECK_INT(goversion_at_least("go version go1.22.0 linux/amd64", m.go), 1,
		  "1.22.0 >= go 1.22");
	CHECK_INT(goversion_at_least("go version go1.22.0 linux/amd64", m.toolchain),
		  0, "1.22.0 < toolchain go1.22.3");
	gomod_release(&m);
}

void test_main(void)
{
	test_parse();
	test_at_least();
	test_together();
}
