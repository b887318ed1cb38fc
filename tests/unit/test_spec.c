/* test_spec.c - loading preflight.yaml, package.json, the env files and
 * config.ini into the model: every error path names file:line:column. */
#include "test.h"
#include "config.h"
#include "spec.h"
#include "ytree.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

struct row {
	const char *file, *text;
	const char *want_err;	/* NULL: loads; else a substring of the message */
	size_t len;		/* 0: strlen(text); set for rows holding a NUL */
};

/* One file in an otherwise empty repository. */
static const struct row rows[] = {
	/* preflight.yaml: good */
	{ "preflight.yaml", "version: 1\n", NULL },
	{ "preflight.yaml", "version: 1\nports:\n  free: [3000, 5173]\n  listening: 5432\n", NULL },
	{ "preflight.yaml", "version: 1\nenv:\n  required: [A, B]\n  optional: C\n", NULL },
	{ "preflight.yaml", "version: 1\nruntimes:\n  node: \">=20 <23\"\n  python: \">=3.10\"\n", NULL },
	{ "preflight.yaml", "version: 1\nruntimes:\n  mytool:\n    version: \">=1\"\n"
	  "    command: [mytool, --version]\n    version_regex: 'v([0-9.]+)'\n", NULL },
	{ "preflight.yaml", "version: 1\ntools: [git, make]\ntimeout_ms: 500\n", NULL },
	{ "preflight.yaml", "version: 1\nenv:\n", NULL },
	{ ".preflight.yaml", "version: 1\n", NULL },
	{ "preflight.yaml", "version: 1\nports: {free: [1, 65535]}\n", NULL },
	/* preflight.yaml: errors, each with file:line:col */
	{ "preflight.yaml", "", "preflight.yaml:1:1: empty file" },
	{ "preflight.yaml", "version: 2\n", "preflight.yaml:1:10: unsupported version (expected 1)" },
	{ "preflight.yaml", "ports: {}\n", "preflight.yaml:1:1: missing 'version: 1'" },
	{ "preflight.yaml", "version: 1\nportz: {}\n", "preflight.yaml:2:1: unknown key 'portz' in the top level" },
	{ "preflight.yaml", "version: 1\nenv:\n  fiel: .env\n", "preflight.yaml:3:3: unknown key 'fiel' in 'env'" },
	{ "preflight.yaml", "version: 1\nports:\n  free: [3000, 70000]\n", "preflight.yaml:3:16: 'ports.free' expects a whole number from 1 to 65535" },
	{ "preflight.yaml", "version: 1\nports:\n  free: [http]\n", "preflight.yaml:3:10: 'ports.free' expects a whole number" },
	{ "preflight.yaml", "version: 1\nports:\n  free: [0]\n", "preflight.yaml:3:10: 'ports.free'" },
	{ "preflight.yaml", "version: 1\nports:\n  free: [5432]\n  listening: [5432]\n", "preflight.yaml:4:15: port 5432 is in both" },
	{ "preflight.yaml", "version: 1\nports: [3000]\n", "preflight.yaml:2:8: 'ports' expects a mapping, found a list" },
	{ "preflight.yaml", "version: 1\nenv:\n  process_env: maybe\n", "preflight.yaml:3:16: 'env.process_env' expects true or false" },
	{ "preflight.yaml", "version: 1\nenv:\n  required: [\"BAD KEY\"]\n", "preflight.yaml:3:14: 'env.required': 'BAD KEY' is not a valid key name" },
	{ "preflight.yaml", "version: 1\nenv:\n  required: {A: 1}\n", "preflight.yaml:3:13: 'env.required' expects a list" },
	{ "preflight.yaml", "version: 1\nenv:\n  file: [a]\n", "preflight.yaml:3:9: 'env.file' expects a string" },
	{ "preflight.yaml", "version: 1\nenv:\n  example: /etc/passwd\n", "preflight.yaml:3:12: 'env.example' must be a relative path inside the repository" },
	{ "preflight.yaml", "version: 1\nenv:\n  example: nope.example\n", "preflight.yaml:3:12: 'env.example': no file named 'nope.example'" },
	{ "preflight.yaml", "version: 1\nruntimes:\n  node: [20]\n", "preflight.yaml:3:9: 'runtimes.node' expects a version range" },
	{ "preflight.yaml", "version: 1\nruntimes:\n  x:\n    command: []\n", "preflight.yaml:4:14: 'runtimes.x.command' expects a non-empty list" },
	{ "preflight.yaml", "version: 1\nruntimes:\n  x:\n    command: [./bin/x]\n", "preflight.yaml:4:15: 'runtimes.x.command' must start with a command name" },
	{ "preflight.yaml", "version: 1\nruntimes:\n  x:\n    version_regex: '('\n", "preflight.yaml:4:20: 'runtimes.x.version_regex' is not a valid" },
	{ "preflight.yaml", "version: 1\nruntimes:\n  x:\n    versoin: 1\n", "preflight.yaml:4:5: unknown key 'versoin' in a runtime" },
	{ "preflight.yaml", "version: 1\nruntimes:\n  \"a b\": 1\n", "preflight.yaml:3:3: 'a b' is not a valid runtime name" },
	{ "preflight.yaml", "version: 1\ntools: [\"rm -rf\"]\n", "preflight.yaml:2:9: 'tools' expects a list of command names" },
	{ "preflight.yaml", "version: 1\ntimeout_ms: -5\n", "preflight.yaml:2:13: 'timeout_ms' expects a whole number from 1 to 600000" },
	{ "preflight.yaml", "version: 1\nversion: 1\n", "preflight.yaml:2:1: duplicate key 'version' (first at line 1)" },
	{ "preflight.yaml", "version: 1\nports:\n  free: [3000\n", "preflight.yaml:4:1:" },
	{ "preflight.yaml", "version: 1\n\tports: {}\n", "preflight.yaml:2:1:" },
	{ "preflight.yaml", "- just\n- a list\n", "preflight.yaml:1:1: 'the document' expects a mapping" },
	{ "preflight.yaml", "version: 1\n---\nversion: 1\n", "preflight.yaml:2:1: only one YAML document is allowed" },
	{ "preflight.yaml", "version: 1\nenv: *nowhere\n", "preflight.yaml:2:6: unknown alias '*nowhere'" },
	{ "preflight.yaml", "version: 1\n\x1b[2Jports: {}\n", "preflight.yaml:2:1:" },
	{ "preflight.yaml", "version: 1\nx\xff: 1\n", "preflight.yaml:2:2: invalid UTF-8 (expected UTF-8 text)" },
	/* package.json */
	{ "package.json", "{\"name\": \"x\"}", NULL },
	{ "package.json", "{\"engines\": {\"node\": \">=20\", \"npm\": \"^10\", \"vscode\": \"^1.80\"}}", NULL },
	{ "package.json", "{\"packageManager\": \"pnpm@9.1.0+sha512.abc\"}", NULL },
	{ "package.json", "{\"volta\": {\"node\": \"20.11.1\", \"extends\": \"../package.json\"}}", NULL },
	{ "package.json", "", "package.json:1:1: malformed JSON" },
	{ "package.json", "{\n  \"name\": \"x\",\n  \"engines\": {\"node\": }\n}\n", "package.json:3:23: malformed JSON" },
	{ "package.json", "{\"a\": 1} trailing", "package.json:1:10: malformed JSON" },
	{ "package.json", "[1, 2]", "package.json:1:1: expected a JSON object at the top level" },
	{ "package.json", "{\n  \"engines\": \">=20\"\n}", "package.json:2:3: 'engines' expects an object" },
	{ "package.json", "{\n  \"engines\": {\n    \"node\": 20\n  }\n}", "package.json:3:5: 'engines.node' expects a version range string" },
	{ "package.json", "{\"packageManager\": 9}", "package.json:1:2: 'packageManager' expects a string" },
	{ "package.json", "{\"volta\": []}", "package.json:1:2: 'volta' expects an object" },
	{ "package.json", "{\"volta\": {\"node\": 20}}", "package.json:1:12: 'volta.node' expects a version string" },
	{ "package.json", "{\"name\": \"a\0b\"}", "package.json:1:12: NUL byte", 15 },
	/* brackets in strings are no nesting: a plain syntax error */
	{ "package.json", "{\"a\": \"[[{\\\"\", \"b\": [}", "package.json:1:22: malformed JSON" },
	{ "package.json", "{\"a\": [[[{\"b\": ]]]}", "package.json:1:16: malformed JSON" },
	/* the example */
	{ ".env.example", "A=\nB=2\n", NULL },
	{ ".env.sample", "A=\n", NULL },
	{ ".env.template", "export A=1\n", NULL },
	{ ".env.example", "A=1\nthis is not an assignment\n", ".env.example:2:6: expected" },
	{ ".env.example", "A=\0\n", ".env.example:1:3: NUL byte", 4 },
};

static int load_one(const struct row *row, struct spec *spec, struct errbuf *err)
{
	const char *dir = test_tmpdir("spec");
	size_t len = row->len ? row->len : strlen(row->text);

	test_write(dir, row->file, row->text, len);
	return spec_load(dir, spec, err);
}

static void test_rows(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct spec spec;
		struct errbuf err = { "" };
		int rc = load_one(&rows[i], &spec, &err);

		if (!rows[i].want_err) {
			CHECK(rc == 0, "row %zu (%s): %s", i, rows[i].file, err.msg);
		} else {
			CHECK(rc < 0 && strstr(err.msg, rows[i].want_err),
			      "row %zu: got \"%s\", want \"%s\"", i, rc < 0 ? err.msg : "(loaded)",
			      rows[i].want_err);
			CHECK(!strchr(err.msg, '\033'), "row %zu: escape in message", i);
		}
		if (rc == 0)
			spec_release(&spec);
	}
}

/* The model remembers what was asked and where it came from. */
static void test_model(void)
{
	const char *dir = test_tmpdir("model");
	struct spec spec;
	struct errbuf err = { "" };

	test_write_str(dir, "preflight.yaml",
		       "version: 1\n"
		       "env:\n  file: config/.env.local\n  process_env: false\n"
		       "  required: [EXTRA]\n  optional: [SENTRY_DSN]\n"
		       "ports:\n  free: [3000]\n  listening: [5432, 5432]\n"
		       "runtimes:\n  node: \">=20\"\n  python: \">=3.10,<3.13\"\n  docker:\n"
		       "tools: [git]\ntimeout_ms: 1500\n");
	test_write_str(dir, "package.json",
		       "{\n  \"engines\": {\n    \"node\": \">=18\"\n  },\n"
		       "  \"packageManager\": \"pnpm@9.1.0\"\n}\n");
	test_write_str(dir, ".env.example", "A=\nB=\n");
	if (spec_load(dir, &spec, &err) < 0) {
		CHECK(0, "load: %s", err.msg);
		return;
	}
	CHECK_INT(spec.nports, 2, "ports (duplicate listed once)");
	CHECK_INT(spec.ports[0].port, 3000, "first port");
	CHECK_INT(spec.ports[0].expect, PORT_FREE, "free");
	CHECK_INT(spec.ports[1].expect, PORT_LISTENING, "listening");
	CHECK_STR(spec.ports[1].origin.file, "preflight.yaml", "port origin");
	CHECK_INT(spec.ports[1].origin.line, 9, "port line");
	CHECK_INT(spec.ports[1].origin.col, 15, "port col");
	CHECK_INT(spec.nruntimes, 5, "runtimes: 3 from yaml, 2 from package.json");
	CHECK_STR(spec.runtimes[0].name, "node", "yaml node");
	CHECK_INT(spec.runtimes[0].kind, REQ_SEMVER, "semver");
	CHECK_INT(spec.runtimes[1].kind, REQ_PEP440, "python is PEP 440");
	CHECK_INT(spec.runtimes[2].kind, REQ_ANY, "docker with no range");
	CHECK_STR(spec.runtimes[3].spec, ">=18", "engines.node");
	CHECK_STR(spec.runtimes[3].origin.file, "package.json", "engines origin");
	CHECK_INT(spec.runtimes[3].origin.line, 3, "engines.node line");
	CHECK_INT(spec.runtimes[3].origin.col, 5, "engines.node col");
	CHECK_STR(spec.runtimes[4].name, "pnpm", "packageManager name");
	CHECK_INT(spec.runtimes[4].kind, REQ_EXACT, "packageManager exact");
	CHECK_INT(spec.runtimes[4].origin.line, 5, "packageManager line");
	CHECK_INT(spec.ntools, 1, "tools");
	CHECK_INT(spec.timeout_ms, 1500, "timeout");
	CHECK_INT(spec.env.process_env, 0, "process_env");
	CHECK_STR(spec.env.file, "config/.env.local", "env file");
	CHECK_STR(spec.env.example, ".env.example", "example found");
	CHECK_INT(spec.env.nrequired, 1, "required");
	CHECK_INT(spec.env.noptional, 1, "optional");
	CHECK_INT(spec.env.env_errno, ENOENT, ".env missing");
	CHECK_INT(spec.env.example_doc.n, 2, "example keys");
	CHECK(spec.has_env, "has env");
	spec_release(&spec);
}

static void test_limits(void)
{
	const char *dir;
	struct spec spec;
	struct errbuf err = { "" };
	struct buf b = BUF_INIT;
	int i, rc;

	/* nothing to audit */
	dir = test_tmpdir("empty");
	rc = spec_load(dir, &spec, &err);
	CHECK(rc < 0 && strstr(err.msg, "nothing to audit") &&
	      strstr(err.msg, "preflight.yaml") && strstr(err.msg, ".env.example"),
	      "empty: %s", err.msg);
	CHECK(spec_load_any(dir, &spec, &err) == 0, "load_any on empty");
	spec_release(&spec);

	/* over the size cap */
	dir = test_tmpdir("big");
	buf_puts(&b, "version: 1\n");
	while (b.len <= SPEC_FILE_CAP)
		buf_puts(&b, "# padding padding padding padding padding padding padding\n");
	test_write(dir, "preflight.yaml", b.s, b.len);
	buf_release(&b);
	rc = spec_load(dir, &spec, &err);
	CHECK(rc < 0 && strstr(err.msg, "preflight.yaml: larger than the 1024 KiB limit"),
	      "cap: %s", err.msg);

	/* billion laughs: aliases are bounded */
	dir = test_tmpdir("laughs");
	buf_puts(&b, "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
	for (i = 1; i < 12; i++)
		buf_printf(&b, "a%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n",
			   i, i, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1);
	test_write(dir, "preflight.yaml", b.s, b.len);
	buf_release(&b);
	rc = spec_load(dir, &spec, &err);
	CHECK(rc < 0 && strstr(err.msg, "too many nodes"), "laughs: %s", err.msg);

	/* one large anchored scalar, aliased many times: text is budgeted too */
	dir = test_tmpdir("bigalias");
	buf_puts(&b, "version: 1\nx: &a ");
	for (i = 0; i < 600000; i++)
		buf_putc(&b, 'x');
	buf_puts(&b, "\ny: [");
	for (i = 0; i < 40; i++)
		buf_puts(&b, i ? ", *a" : "*a");
	buf_puts(&b, "]\n");
	test_write(dir, "preflight.yaml", b.s, b.len);
	buf_release(&b);
	rc = spec_load(dir, &spec, &err);
	CHECK(rc < 0 && strstr(err.msg, "more than 8 MiB of text"), "big alias: %s", err.msg);

	/* deep nesting */
	dir = test_tmpdir("deep");
	for (i = 0; i < 5000; i++)
		buf_putc(&b, '[');
	test_write(dir, "preflight.yaml", b.s, b.len);
	buf_release(&b);
	rc = spec_load(dir, &spec, &err);
	CHECK(rc < 0 && strstr(err.msg, "preflight.yaml:"), "deep: %s", err.msg);

	/* a symlink out of the repository is refused; inside is fine */
	dir = test_tmpdir("link");
	test_write_str(dir, "real/package.json", "{}");
	{
		char target[4096], link[4096];

		snprintf(target, sizeof(target), "%s/real/package.json", dir);
		snprintf(link, sizeof(link), "%s/repo/package.json", dir);
		test_write_str(dir, "repo/.keep", "");
		CHECK(symlink(target, link) == 0, "symlink");
		snprintf(link, sizeof(link), "%s/repo", dir);
		rc = spec_load(link, &spec, &err);
		CHECK(rc < 0 && strstr(err.msg, "package.json: symlink resolving outside"),
		      "outside: %s", err.msg);
		snprintf(link, sizeof(link), "%s/real/.env.example", dir);
		test_write_str(dir, "real/example.txt", "A=1\n");
		CHECK(symlink("example.txt", link) == 0, "symlink inside");
		snprintf(link, sizeof(link), "%s/real", dir);
		rc = spec_load(link, &spec, &err);
		CHECK(rc == 0, "inside: %s", err.msg);
		if (rc == 0)
			spec_release(&spec);
	}

	/* a directory where a file should be */
	dir = test_tmpdir("dir");
	test_write_str(dir, "package.json/x", "");
	rc = spec_load(dir, &spec, &err);
	CHECK(rc < 0 && strstr(err.msg, "package.json: is a directory"), "dir: %s", err.msg);

	/* not a directory */
	rc = spec_load("/nonexistent/envpreflight", &spec, &err);
	CHECK(rc < 0 && strstr(err.msg, "No such file"), "missing dir: %s", err.msg);
}

static void test_config(void)
{
	static const struct {
		const char *text, *want_err;
	} crows[] = {
		{ "format = json\ncolor = never\ntimeout = 100\nstrict = true\n", NULL },
		{ "[defaults]\nformat = junit\n", NULL },
		{ "; comment\n", NULL },
		{ "format = xml\n", "config.ini:1: 'format' expects" },
		{ "\ncolor = pink\n", "config.ini:2: 'color' expects" },
		{ "timeout = 0\n", "config.ini:1: 'timeout' expects" },
		{ "strict = maybe\n", "config.ini:1: 'strict' expects" },
		{ "colour = never\n", "config.ini:1: unknown key 'colour'" },
		{ "[other]\nformat = json\n", "config.ini:2: unknown section [other]" },
		{ "this is not ini\n", "config.ini:1: malformed line" },
	};
	const char *dir = test_tmpdir("xdg");
	size_t i;

	setenv("XDG_CONFIG_HOME", dir, 1);
	for (i = 0; i < ARRAY_SIZE(crows); i++) {
		struct config c;
		struct errbuf err = { "" };
		int rc;

		test_write_str(dir, "envpreflight/config.ini", crows[i].text);
		rc = config_load(&c, &err);
		if (!crows[i].want_err)
			CHECK(rc == 0, "config row %zu: %s", i, err.msg);
		else
			CHECK(rc < 0 && strstr(err.msg, crows[i].want_err),
			      "config row %zu: got \"%s\"", i, rc < 0 ? err.msg : "(loaded)");
		if (rc == 0)
			config_release(&c);
	}
	{
		struct config c;
		struct errbuf err;

		test_write_str(dir, "envpreflight/config.ini",
			       "format = json\ncolor = never\ntimeout = 100\nstrict = true\n");
		CHECK(config_load(&c, &err) == 0, "load");
		CHECK_INT(c.format, FORMAT_JSON, "format");
		CHECK_INT(c.color, COLOR_NEVER, "color");
		CHECK_INT(c.timeout_ms, 100, "timeout");
		CHECK_INT(c.strict, 1, "strict");
		config_release(&c);
	}
	unsetenv("XDG_CONFIG_HOME");
}

/* Issue 8, finding 1.4: every alias scanned every anchor (50,000 of
 * each took 9.5 s).  Anchors are indexed: the slots looked at stay a small
 * multiple of anchors plus aliases, and the latest definition wins. */
static void test_yaml_anchor_cost(void)
{
	const size_t n = 45000;
	struct buf b = BUF_INIT;
	struct ytree_stats st;
	struct parse_error ye;
	struct ynode *root = NULL;
	const struct ynode *v;
	size_t i;
	int rc;

	buf_puts(&b, "a: [");
	for (i = 0; i < n; i++)
		buf_printf(&b, "%s&%zx %zu", i ? ", " : "", i, i);
	buf_puts(&b, "]\nb: [");
	for (i = 0; i < n; i++)
		buf_printf(&b, "%s*%zx", i ? ", " : "", n - 1 - i);
	buf_puts(&b, "]\nc: &1 first\nd: &1 second\ne: *1\n");
	rc = ytree_parse_stats(b.s, b.len, YTREE_MAX_NODES, &root, &ye, &st);
	CHECK_INT(rc, 0, "parse: %s", ye.msg);
	CHECK_INT(st.anchors, n + 2, "anchors");
	CHECK_INT(st.aliases, n + 1, "aliases");
	CHECK(st.anchor_probes <= 4 * (st.anchors + st.aliases),
	      "linear: %zu slots looked at for %zu anchors and %zu aliases",
	      st.anchor_probes, st.anchors, st.aliases);
	v = ynode_get(root, "b");
	CHECK(v && v->n == n && !strcmp(v->items[0]->text, "44999") &&
	      !strcmp(v->items[n - 1]->text, "0"), "aliases resolved");
	v = ynode_get(root, "e");
	CHECK(v && !strcmp(v->text, "second"), "a redefined anchor: the latest wins");
	ynode_free(root);
	buf_release(&b);
}

/* An error at the end of a text without a final newline: libyaml puts
 * its mark on a line after the last, and the message named it (a 2-line
 * preflight.yaml "at 3:1"; found by fuzzing the lockfile readers, which
 * share the cause).  It names the end of the last line. */
static void test_yaml_error_at_end(void)
{
	static const struct {
		const char *text;
		unsigned line, col;
	} ends[] = {
		{ "a: b\nc: [", 2, 5 },
		{ "a: b\nc d", 2, 4 },
		{ "a: b\nc: [\n", 3, 1 },
		{ "a: b\n  c: d\n e", 2, 4 },
		{ "a: \"b", 1, 6 },
		/* libyaml's lines: a CR, CR LF or NEL ends one too */
		{ "a: b\rc: [", 2, 5 },
		{ "a: b\r\nc d", 2, 4 },
		{ "a: b\r\nc: [\r\n", 3, 1 },
		{ "a: b\xc2\x85" "c: [", 2, 5 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ends); i++) {
		struct parse_error ye;
		struct ynode *root = NULL;
		int rc = ytree_parse(ends[i].text, strlen(ends[i].text), 100, &root, &ye);

		CHECK(rc < 0 && ye.line == ends[i].line && ye.col == ends[i].col,
		      "row %zu: %u:%u, want %u:%u", i, ye.line, ye.col, ends[i].line,
		      ends[i].col);
		ynode_free(root);
	}
	/* a node there too: the empty value of a last "? key" */
	{
		struct parse_error ye;
		struct ynode *root = NULL;
		const struct ynode *v = NULL;

		if (ytree_parse("a: b\n? c", 8, 100, &root, &ye) == 0)
			v = ynode_get(root, "c");
		CHECK(v && v->line == 2 && v->col == 4, "the empty value at %u:%u",
		      v ? v->line : 0, v ? v->col : 0);
		ynode_free(root);
	}
}

void test_main(void)
{
	test_yaml_error_at_end();
	test_yaml_anchor_cost();
	test_rows();
	test_model();
	test_limits();
	test_config();
}
