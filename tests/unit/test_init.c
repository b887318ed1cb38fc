/* test_init.c - what `envpreflight init` writes: every value quoted so
 * that libyaml reads back exactly the text, the ranges --snapshot pins,
 * and a generated file that loads back to the same model. */
#include "test.h"
#include "init.h"
#include "ytree.h"

#include <stdlib.h>

/* init_quote's output, parsed by libyaml as the value of a key. */
static char *reread(const char *s)
{
	struct buf b = BUF_INIT;
	struct parse_error e;
	struct ynode *root = NULL;
	const struct ynode *v;
	char *out = NULL;

	buf_puts(&b, "k: ");
	init_quote(&b, s);
	buf_puts(&b, "  # a comment: #\n");
	if (ytree_parse(b.s, b.len, 100, &root, &e) == 0 && (v = ynode_get(root, "k")) &&
	    v->kind == YNODE_SCALAR && !v->plain)
		out = xstrdup(v->text);
	ynode_free(root);
	buf_release(&b);
	return out;
}

static void test_quote(void)
{
	static const char *const rows[] = {
		"", ">=20 <23", "1: #2", "\"", "'", "\\", "\\\\n", "a\tb", "a\nb",
		"a\r\nb", "\x1b[31mred", "\x7f", "\xc2\x85", "\xe2\x80\xa8\xe2\x80\xa9",
		"\357\273\277bom", "\xc3\xa9t\xc3\xa9", "\xf0\x9f\x98\x80", "null", "~",
		"- a", "[x]", "{y}", "&a *b !c |d >e %f @g `h", "  lead and trail  ",
		"\xef\xbf\xbe", "\x01\x02\x1f",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		char *got = reread(rows[i]);

		CHECK(got && !strcmp(got, rows[i]), "row %zu reads back as %s", i,
		      got ? got : "(no value)");
		free(got);
	}
	/* bytes that are not UTF-8 cannot be kept: replaced, never broken */
	{
		char *got = reread("a\xff" "b");

		CHECK_STR(got, "a\xef\xbf\xbd" "b", "invalid UTF-8");
		free(got);
	}
}

static void test_pins(void)
{
	static const struct {
		const char *name, *found, *want;	/* want NULL: not pinned */
	} rows[] = {
		{ "node", "22.11.0", ">=22.11.0 <23" },
		{ "node", "23.0.0-rc.1", ">=23.0.0-rc.1 <24" },
		{ "pnpm", "9.1.0+sha.1", ">=9.1.0 <10" },
		{ "go", "1.22", ">=1.22 <2" },
		{ "zig", "0.13.0", ">=0.13.0 <0.14" },
		{ "docker", "27", ">=27 <28" },
		{ "python", "3.12.4", ">=3.12.4,<3.13" },
		{ "python", "3.13.0rc1", ">=3.13.0rc1,<3.14" },
		{ "python", "3.12.0+", ">=3.12.0,<3.13" },
		{ "python", "3", ">=3,<4" },
		{ "node", "v22.1.0", NULL },
		{ "node", "22.1.0 <1", NULL },
		{ "node", "22.1.0rc1", NULL },
		{ "node", "", NULL },
		{ "node", "1234567890.1.1", NULL },
		{ "python", "3.12-x", NULL },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct buf b = BUF_INIT;
		int rc = init_pin_range(rows[i].name, rows[i].found, &b);

		if (rows[i].want)
			CHECK_STR(rc == 0 ? buf_str(&b) : "(refused)", rows[i].want,
				  "%s %s", rows[i].name, rows[i].found);
		else
			CHECK(rc < 0, "%s %s pinned as %s", rows[i].name, rows[i].found,
			      buf_str(&b));
		buf_release(&b);
	}
}

/* A repository's preflight.yaml, generated again: the model is the same. */
static void test_generate(void)
{
	static const char yaml[] =
		"version: 1\n"
		"env:\n  file: \"a b.env\"\n  required: [K1, \"yes\"]\n  optional: [O]\n"
		"  process_env: false\n"
		"ports:\n  listening: [5432]\n  free: [3000, 3001]\n"
		"runtimes:\n  node: \">=20 <23\"\n  git:\n  \"c++\":\n    command: [\"c++\", \"-v\"]\n"
		"    version_regex: \"v(.*)\"\n"
		"tools: [make, make]\ntimeout_ms: 900\n";
	const char *dir = test_tmpdir("init-generate");
	struct spec a, b;
	struct errbuf err;
	struct init_doc doc;
	size_t i;

	test_write(dir, "preflight.yaml", yaml, sizeof(yaml) - 1);
	{
		static const char pkg[] = "{\"engines\": {\"node\": \">=18\"}}";

		test_write(dir, "package.json", pkg, sizeof(pkg) - 1);
	}
	CHECK(spec_load(dir, &a, &err) == 0, "%s", err.msg);
	init_generate(&a, NULL, 0, &doc);
	CHECK(doc.nlines == 14, "%zu lines", doc.nlines);
	CHECK(doc.ncomments == 1, "%zu comments", doc.ncomments);
	CHECK(strstr(doc.content, "#   node \">=18\"  (package.json:1, package.json "
			"engines)\n") != NULL, "%s", doc.content);
	test_write(dir, "preflight.yaml", doc.content, strlen(doc.content));
	CHECK(spec_load(dir, &b, &err) == 0, "%s", err.msg);
	CHECK_STR(b.env.file, a.env.file, "env.file");
	CHECK_INT(b.env.process_env, 0, "process_env");
	CHECK_INT(b.env.nrequired, 2, "required");
	CHECK_INT(b.env.noptional, 1, "optional");
	CHECK_INT(b.nports, a.nports, "ports");
	for (i = 0; i < a.nports && i < b.nports; i++)
		CHECK(a.ports[i].port == b.ports[i].port &&
		      a.ports[i].expect == b.ports[i].expect, "port %zu", i);
	CHECK_INT(b.nruntimes, a.nruntimes, "runtimes");
	for (i = 0; i < a.nruntimes && i < b.nruntimes; i++) {
		CHECK_STR(b.runtimes[i].name, a.runtimes[i].name, "name %zu", i);
		CHECK_STR(b.runtimes[i].spec, a.runtimes[i].spec, "spec %zu", i);
		CHECK_INT(b.runtimes[i].kind, a.runtimes[i].kind, "kind %zu", i);
		CHECK_INT(b.runtimes[i].src, a.runtimes[i].src, "src %zu", i);
	}
	CHECK_INT(b.ntools, 2, "tools");
	CHECK_INT(b.timeout_ms, 900, "timeout_ms");
	init_doc_release(&doc);
	spec_release(&a);
	spec_release(&b);
}

void test_main(void)
{
	test_quote();
	test_pins();
	test_generate();
}
