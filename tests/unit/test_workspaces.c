/* test_workspaces.c - workspace discovery: the glob matcher, braces,
 * go.work and [tool.uv.workspace] (a row a case), discovery on real
 * directory trees (npm's array and object forms and its ordered
 * negations, pnpm's global ones, node_modules, a symlink leading out,
 * go.work, uv), the models of the workspaces (repository-relative
 * origins, ports resolved with the repository's, --workspace), ranges
 * that exclude each other, and ids prefixed by plan_add.
 */
#include "test.h"

#include "probe.h"
#include "runtimes.h"
#include "semver.h"
#include "spec.h"
#include "spec_workspaces.h"

#include <stdlib.h>
#include <unistd.h>

/* ---- the glob ---------------------------------------------------------- */

static const struct glob_row {
	const char *pattern, *path;
	int want;
} glob_rows[] = {
	{ "apps/*", "apps/web", 1 },
	{ "apps/*", "apps", 0 },
	{ "apps/*", "apps/web/src", 0 },
	{ "apps/*", "packages/web", 0 },
	{ "apps/*", "apps/.hidden", 0 },		/* dot: false */
	{ "apps/.*", "apps/.hidden", 1 },		/* named explicitly */
	{ "apps/.hidden", "apps/.hidden", 1 },
	{ "apps/**", "apps", 1 },			/* ** is none too */
	{ "apps/**", "apps/a/b/c", 1 },
	{ "apps/**", "apps/a/.git/c", 0 },		/* ** skips dot names */
	{ "**", "a/b", 1 },
	{ "**", "", 1 },
	{ "**/test/**", "packages/test", 1 },
	{ "**/test/**", "packages/a/test/x", 1 },
	{ "**/test/**", "packages/tests", 0 },
	{ "packages/**/ui", "packages/ui", 1 },
	{ "packages/**/ui", "packages/a/b/ui", 1 },
	{ "packages/**/ui", "packages/a/b/uix", 0 },
	{ "**/*-app", "a/b/my-app", 1 },
	{ "pkg-?", "pkg-1", 1 },
	{ "pkg-?", "pkg-10", 0 },
	{ "pkg-[ab]", "pkg-b", 1 },
	{ "pkg-[!ab]", "pkg-b", 0 },
	{ "./apps/web", "apps/web", 1 },		/* "." segments dropped */
	{ "apps//web/", "apps/web", 1 },
	{ "apps/web", "apps/web2", 0 },
	{ "*", "", 0 },
	{ "a/**/b/**/c", "a/x/b/y/z/c", 1 },
	{ "a/**/b/**/c", "a/x/y/c", 0 },
	/* many stars: linear, no blow-up */
	{ "**/**/**/**/**/**/**/**/x", "a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/y", 0 },
};

static void test_glob(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(glob_rows); i++) {
		const struct glob_row *r = &glob_rows[i];

		CHECK_INT(ws_glob_match(r->pattern, r->path), r->want, "'%s' ~ '%s'",
			  r->pattern, r->path);
	}
}

static const struct brace_row {
	const char *pattern, *want;	/* alternatives joined by '|'; "" none */
	size_t max;
} brace_rows[] = {
	{ "apps/*", "apps/*", 8 },
	{ "{apps,packages}/*", "apps/*|packages/*", 8 },
	{ "a/{b,c}/{d,e}", "a/b/d|a/b/e|a/c/d|a/c/e", 8 },
	{ "a/{b,{c,d}}", "a/b|a/c|a/d", 8 },
	{ "a/{b}", "a/{b}", 8 },			/* no comma: literal */
	{ "a/{b,c", "a/{b,c", 8 },			/* never closed: literal */
	{ "{a,b}{c,d}{e,f}", "", 4 },			/* more than max */
	{ "x/{,y}", "x/|x/y", 8 },
};

static void test_braces(void)
{
	size_t i, k;

	for (i = 0; i < ARRAY_SIZE(brace_rows); i++) {
		const struct brace_row *r = &brace_rows[i];
		struct buf b = BUF_INIT;
		char **v;
		size_t n = ws_brace_expand(r->pattern, r->max, &v);

		for (k = 0; k < n; k++) {
			buf_printf(&b, "%s%s", k ? "|" : "", v[k]);
			free(v[k]);
		}
		free(v);
		CHECK_STR(buf_str(&b), r->want, "braces of '%s'", r->pattern);
		buf_release(&b);
	}
}

static const struct dir_row {
	const char *dir;
	int want;
} dir_rows[] = {
	{ "apps/web", 1 }, { "packages/@scope/ui", 1 }, { "a.b_c-d+e", 1 },
	{ "", 0 }, { "/abs", 0 }, { "apps/../x", 0 }, { "apps web", 0 },
	{ "apps:web", 0 }, { "apps/", 0 }, { "./apps", 0 }, { "a//b", 0 },
	{ "apps/\xc3\xa9", 0 },
};

static void test_dir_valid(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(dir_rows); i++)
		CHECK_INT(ws_dir_valid(dir_rows[i].dir), dir_rows[i].want, "'%s'",
			  dir_rows[i].dir);
}

/* a sample's directory, by a whole segment's word */
static const struct sample_row {
	const char *dir, *want;
} sample_rows[] = {
	{ "templates/blank", "templates" }, { "examples/with-prisma", "examples" },
	{ "packages/starter", "starter" }, { "docs/example/app", "example" },
	{ "apps/web", NULL }, { "packages/template-utils", NULL },
	{ "my-templates/x", NULL }, { "Templates/x", NULL }, { "apps/examples2", NULL },
};

static void test_dir_sample(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sample_rows); i++) {
		const char *got = ws_dir_sample(sample_rows[i].dir);

		CHECK_STR(got ? got : "(null)", sample_rows[i].want ? sample_rows[i].want : "(null)",
			  "'%s'", sample_rows[i].dir);
	}
}

/* ---- go.work and uv ------------------------------------------------------ */

static char *pats_line(const struct ws_patterns *p)
{
	struct buf b = BUF_INIT;
	size_t i;

	for (i = 0; i < p->n; i++)
		buf_printf(&b, "%s%s%s@%u:%u", i ? " " : "", p->v[i].negate ? "!" : "",
			   p->v[i].text, p->v[i].line, p->v[i].col);
	return b.s ? buf_detach(&b) : xstrdup("");
}

static const struct parse_row {
	const char *what, *text;
	const char *want;	/* pats_line, or "error L:C prefix" */
	int rc;
} gowork_rows[] = {
	{ "single", "go 1.22\n\nuse ./a\n", "./a@3:5", 0 },
	{ "block", "go 1.22\nuse (\n\t./a\n\t./b // why\n)\n", "./a@3:2 ./b@4:2", 0 },
	{ "both", "use ./x\nuse (\n ./y\n)\nuse ./z\n", "./x@1:5 ./y@3:2 ./z@5:5", 0 },
	{ "quoted", "use \"./with space\"\nuse `./raw`\n",
	  "./with space@1:5 ./raw@2:5", 0 },
	{ "comments and others", "// use ./no\ngo 1.22\ntoolchain go1.22.3\n"
	  "replace a => ./b\nuse ./yes // and not this\n", "./yes@5:5", 0 },
	{ "dot", "use .\n", ".@1:5", 0 },
	{ "unclosed block", "use (\n ./a\n", "error 1:1 use block never closed", -1 },
	{ "unclosed quote", "use \"./a\n", "error 1:5 unterminated", -1 },
	{ "two on a line", "use (\n ./a ./b\n)\n", "error 2:6 a use line", -1 },
	{ "bare use", "use\n", "error 1:1 usage", -1 },
	{ "escape", "use \"./a\\tb\"\n", "error 1:5 escape", -1 },
	{ "not text", "use ./a\n\xff\n", "error 2:1 ", -1 },
};

static const struct parse_row uv_rows[] = {
	{ "members", "[project]\nname = \"x\"\n\n[tool.uv.workspace]\n"
	  "members = [\"packages/*\", 'libs/*']\n", "packages/*@5:12 libs/*@5:26", 1 },
	{ "exclude, multi-line", "[tool.uv.workspace]\nmembers = [\n  \"a/*\", # c\n"
	  "  \"b\",\n]\nexclude = [\"a/old\"]\n", "a/*@3:3 b@4:3 !a/old@6:12", 1 },
	{ "none", "[project]\nname = \"x\"\n", "", 0 },
	{ "other table", "[tool.uv]\ndev-dependencies = [\"x\"]\n"
	  "[tool.uv.sources]\nmembers = [\"no\"]\n", "", 0 },
	{ "dotted under tool.uv", "[tool.uv]\nworkspace.members = [\"p/*\"]\n",
	  "p/*@2:22", 1 },
	{ "a header inside a string", "[project]\ndescription = \"\"\"\n"
	  "[tool.uv.workspace]\nmembers = [\"fake\"]\n\"\"\"\n", "", 0 },
	{ "array of tables", "[[tool.uv.index]]\nurl = \"x\"\n", "", 0 },
	{ "columns count characters", "[tool.uv.workspace]\nmembers = [\"\xc3\xa9\", \"x\",\n"
	  " \"y\"]\nexclude = [\"\xc3\xa9/z\"]\n", "\xc3\xa9@2:12 x@2:17 y@3:2 !\xc3\xa9/z@4:12", 1 },
	{ "not an array", "[tool.uv.workspace]\nmembers = \"packages/*\"\n",
	  "error 2:11 'members' in [tool.uv.workspace] expects an array", -1 },
	{ "not strings", "[tool.uv.workspace]\nmembers = [1, 2]\n",
	  "error 2:12 'members'", -1 },
	{ "unterminated", "[tool.uv.workspace]\nmembers = [\"a\"\n",
	  "error 3:1 'members'", -1 },
};

typedef int parse_fn(const char *, size_t, struct ws_patterns *,
		     struct parse_error *);

static void run_parse_rows(const char *name, const struct parse_row *rows,
			   size_t n, parse_fn *fn)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct parse_row *r = &rows[i];
		struct ws_patterns p;
		struct parse_error e = { 0, 0, "" };
		char got[300];
		int rc = fn(r->text, strlen(r->text), &p, &e);
		char *l;

		CHECK_INT(rc, r->rc, "%s: %s: rc (%s)", name, r->what, e.msg);
		if (rc < 0) {
			snprintf(got, sizeof(got), "error %u:%u %s", e.line, e.col, e.msg);
			CHECK(!strncmp(got, r->want, strlen(r->want)), "%s: %s: got '%s', "
			      "want '%s...'", name, r->what, got, r->want);
			continue;
		}
		l = pats_line(&p);
		CHECK_STR(l, r->want, "%s: %s", name, r->what);
		free(l);
		ws_patterns_release(&p);
	}
}

/* 30,000 members: the first WS_PATTERNS_MAX kept, each at its own line,
 * and the exclude after them too (each string's position was counted
 * from the top of the file: quadratic, found by fuzz_workspaces). */
static void test_uv_many(void)
{
	struct buf b = BUF_INIT;
	struct ws_patterns p;
	struct parse_error e = { 0, 0, "" };
	size_t i;

	buf_puts(&b, "[tool.uv.workspace]\nmembers = [\n");
	for (i = 0; i < 30000; i++)
		buf_printf(&b, "  \"m%zu\",\n", i);
	buf_puts(&b, "]\n");
	CHECK_INT(ws_uv_parse(b.s, b.len, &p, &e), 1, "parsed: %s", e.msg);
	CHECK_INT(p.n, WS_PATTERNS_MAX, "the cap");
	if (p.n == WS_PATTERNS_MAX) {
		CHECK_STR(p.v[255].text, "m255", "the last kept");
		CHECK(p.v[255].line == 258 && p.v[255].col == 3, "at %u:%u",
		      p.v[255].line, p.v[255].col);
	}
	ws_patterns_release(&p);
	buf_release(&b);
}

/* ---- discovery on real trees --------------------------------------------- */

struct file {
	const char *name, *text;	/* text "->TARGET": a symlink */
};

static const char *make_tree(const char *tag, const struct file *files)
{
	const char *dir = test_tmpdir(tag);
	static char root[4096];
	size_t i;

	snprintf(root, sizeof(root), "%s", dir);
	for (i = 0; files[i].name; i++) {
		char path[4200];

		if (strncmp(files[i].text, "->", 2)) {
			test_write_str(root, files[i].name, files[i].text);
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", root, files[i].name);
		CHECK(symlink(files[i].text + 2, path) == 0, "symlink %s", path);
	}
	return root;
}

/* "found: a b; findings: unmatched@3 outside:x" */
static char *discovery_line(const struct spec *spec)
{
	static const char *const kinds[] = {
		[WS_UNMATCHED] = "unmatched", [WS_OUTSIDE] = "outside",
		[WS_BAD_NAME] = "bad-name", [WS_NO_MANIFEST] = "no-manifest",
		[WS_INVALID] = "invalid", [WS_CAPPED] = "capped",
	};
	const struct spec_workspaces *w = spec->workspaces;
	struct buf b = BUF_INIT;
	size_t i;

	buf_puts(&b, "found:");
	for (i = 0; w && i < w->n; i++)
		buf_printf(&b, " %s", w->v[i].dir);
	buf_puts(&b, "; findings:");
	for (i = 0; w && i < w->nfindings; i++) {
		buf_printf(&b, " %s", kinds[w->findings[i].kind]);
		if (w->findings[i].dir)
			buf_printf(&b, ":%s", w->findings[i].dir);
		if (w->findings[i].origin.line)
			buf_printf(&b, "@%u", w->findings[i].origin.line);
	}
	return buf_detach(&b);
}

#define PKG "{\"name\":\"x\"}"

static const struct disc_row {
	const char *what;
	struct file files[12];
	const char *want;	/* discovery_line, or "error: PREFIX" */
} disc_rows[] = {
	{ "npm array", {
		{ "package.json", "{\"workspaces\": [\"apps/*\", \"packages/ui\"]}" },
		{ "apps/web/package.json", PKG }, { "apps/docs/package.json", PKG },
		{ "apps/notapkg/README", "x" }, { "packages/ui/package.json", PKG },
		{ "packages/other/package.json", PKG }, { NULL, NULL } },
	  "found: apps/docs apps/web packages/ui; findings:" },
	{ "npm object form", {
		{ "package.json", "{\"workspaces\": {\"packages\": [\"apps/*\"], "
		  "\"nohoist\": [\"**/x\"]}}" },
		{ "apps/web/package.json", PKG }, { NULL, NULL } },
	  "found: apps/web; findings:" },
	{ "npm negation in order", {
		{ "package.json", "{\"workspaces\": [\"apps/*\", \"!apps/old\", "
		  "\"!apps/x\", \"apps/x\"]}" },
		{ "apps/web/package.json", PKG }, { "apps/old/package.json", PKG },
		{ "apps/x/package.json", PKG }, { NULL, NULL } },
	  "found: apps/web apps/x; findings:" },
	{ "npm: ./ and / dropped, !! is not a negation", {
		{ "package.json", "{\"workspaces\": [\"./apps/*\", \"/libs/a\", "
		  "\"!!libs/b\"]}" },
		{ "apps/web/package.json", PKG }, { "libs/a/package.json", PKG },
		{ "libs/b/package.json", PKG }, { NULL, NULL } },
	  "found: apps/web libs/a libs/b; findings:" },
	{ "node_modules never searched", {
		{ "package.json", "{\"workspaces\": [\"**\"]}" },
		{ "a/package.json", PKG }, { "node_modules/dep/package.json", PKG },
		{ "a/node_modules/b/package.json", PKG }, { ".hidden/package.json", PKG },
		{ NULL, NULL } },
	  "found: a; findings:" },
	{ "a pattern that matches nothing", {
		{ "package.json", "{\n  \"workspaces\": [\n    \"apps/*\",\n    \"tools/*\"\n  ]\n}" },
		{ "apps/web/package.json", PKG }, { NULL, NULL } },
	  "found: apps/web; findings: unmatched@4" },
	{ "npm: not an array", {
		{ "package.json", "{\"workspaces\": \"apps/*\"}" }, { NULL, NULL } },
	  "found:; findings: invalid@1" },
	{ "symlink leading out refused", {
		{ "package.json", "{\"workspaces\": [\"apps/*\"]}" },
		{ "apps/web/package.json", PKG }, { "apps/evil", "->/tmp" },
		{ NULL, NULL } },
	  "found: apps/web; findings: outside:apps/evil@1" },
	{ "symlink inside: one workspace, the first name", {
		{ "package.json", "{\"workspaces\": [\"apps/*\", \"libs/*\"]}" },
		{ "libs/core/package.json", PKG }, { "apps/README", "x" },
		{ "apps/core", "->../libs/core" },
		{ NULL, NULL } },
	  "found: apps/core; findings:" },
	{ "braces", {
		{ "package.json", "{\"workspaces\": [\"{apps,libs}/*\"]}" },
		{ "apps/a/package.json", PKG }, { "libs/b/package.json", PKG },
		{ "other/c/package.json", PKG }, { NULL, NULL } },
	  "found: apps/a libs/b; findings:" },
	{ "pnpm: global negation, root skipped, package.yaml", {
		{ "package.json", "{\"workspaces\": [\"ignored/*\"]}" },
		{ "pnpm-workspace.yaml", "packages:\n  - '!apps/old'\n  - 'apps/*'\n"
		  "  - '.'\n  - 'tools/**'\n" },
		{ "apps/web/package.json", PKG }, { "apps/old/package.json", PKG },
		{ "tools/a/b/package.yaml", "name: x\n" },
		{ "ignored/x/package.json", PKG }, { NULL, NULL } },
	  "found: apps/web tools/a/b; findings:" },
	{ "pnpm: settings only", {
		{ "package.json", "{\"workspaces\": [\"apps/*\"]}" },
		{ "pnpm-workspace.yaml", "onlyBuiltDependencies:\n  - esbuild\n" },
		{ "apps/web/package.json", PKG }, { NULL, NULL } },
	  "found: apps/web; findings:" },
	{ "pnpm: not a list", {
		{ "pnpm-workspace.yaml", "packages: apps/*\n" }, { NULL, NULL } },
	  "found:; findings: invalid@1" },
	{ "pnpm: an unquoted negation is a tag", {
		{ "pnpm-workspace.yaml", "packages:\n  - apps/*\n  - !apps/old\n" },
		{ "apps/web/package.json", PKG }, { NULL, NULL } },
	  "found: apps/web; findings: invalid@3" },
	{ "pnpm: not YAML", {
		{ "pnpm-workspace.yaml", "packages:\n  - [apps\n" }, { NULL, NULL } },
	  "error: pnpm-workspace.yaml:3:1: " },
	{ "go.work", {
		{ "go.work", "go 1.22\n\nuse (\n\t./svc/a\n\t./svc/b\n\t../away\n)\n" },
		{ "svc/a/go.mod", "module a\n" }, { "svc/b/main.go", "package main\n" },
		{ NULL, NULL } },
	  "found: svc/a; findings: outside@6 no-manifest:svc/b@5" },
	{ "go.work: malformed", {
		{ "go.work", "use (\n ./a\n" }, { NULL, NULL } },
	  "error: go.work:1:1: use block never closed" },
	{ "uv: members, exclude, hidden", {
		{ "pyproject.toml", "[project]\nname = \"root\"\n[tool.uv.workspace]\n"
		  "members = [\"packages/*\"]\nexclude = [\"packages/legacy\"]\n" },
		{ "packages/a/pyproject.toml", "[project]\nname = \"a\"\n" },
		{ "packages/legacy/README", "x" }, { "packages/.cache/pyproject.toml", "" },
		{ "packages/b/README", "no pyproject" }, { NULL, NULL } },
	  "found: packages/a; findings: no-manifest:packages/b@4" },
	{ "js and go together, one name once", {
		{ "package.json", "{\"workspaces\": [\"svc/*\"]}" },
		{ "go.work", "use ./svc/api\n" },
		{ "svc/api/package.json", PKG }, { "svc/api/go.mod", "module api\n" },
		{ "svc/web/package.json", PKG }, { NULL, NULL } },
	  "found: svc/api svc/web; findings:" },
	{ "a name unfit for an id", {
		{ "package.json", "{\"workspaces\": [\"apps/*\"]}" },
		{ "apps/my app/package.json", PKG }, { NULL, NULL } },
	  "found:; findings: bad-name:apps/my app@1" },
};

static void test_discovery(void)
{
	struct spec_opts o = { 1, NULL, 0 };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(disc_rows); i++) {
		const struct disc_row *r = &disc_rows[i];
		char tag[64];
		const char *dir;
		struct spec spec;
		struct errbuf err;
		char *line;

		snprintf(tag, sizeof(tag), "ws-disc-%zu", i);
		dir = make_tree(tag, r->files);
		if (spec_load_opts(dir, &o, &spec, &err) < 0) {
			char got[600];

			snprintf(got, sizeof(got), "error: %s", err.msg);
			CHECK(!strncmp(got, r->want, strlen(r->want)), "%s: got '%s', "
			      "want '%s'", r->what, got, r->want);
			continue;
		}
		line = discovery_line(&spec);
		CHECK_STR(line, r->want, "%s", r->what);
		free(line);
		spec_release(&spec);
	}
}

/* ---- the workspaces' models ------------------------------------------------ */

static const struct workspace *ws_find(const struct spec *spec, const char *dir)
{
	const struct spec_workspaces *w = spec->workspaces;
	size_t i;

	for (i = 0; w && i < w->n; i++)
		if (!strcmp(w->v[i].dir, dir))
			return &w->v[i];
	return NULL;
}

static void test_models(void)
{
	static const struct file files[] = {
		{ "package.json", "{\"workspaces\": [\"apps/*\"], "
		  "\"engines\": {\"node\": \">=20\"}}" },
		{ ".nvmrc", "22\n" },
		{ "compose.yaml", "services:\n  db:\n    ports: [\"5432:5432\"]\n" },
		{ "apps/web/package.json", "{\"name\":\"web\",\n \"engines\": "
		  "{\"node\": \">=22\"}}" },
		{ "apps/web/.nvmrc", "->../../.nvmrc" },
		{ "apps/web/.env.example", "DATABASE_URL=\nSECRET=\n" },
		{ "apps/web/.env", "DATABASE_URL=postgres://localhost:5432/x\n" },
		{ "apps/api/package.json", "{\"name\":\"api\"}" },
		{ "apps/api/compose.yaml", "services:\n  cache:\n    ports: [\"6379:6379\"]\n" },
		{ "apps/api/.python-version", "3.12\n" },
		{ NULL, NULL }
	};
	struct spec_opts o = { 1, NULL, 0 };
	const char *dir = make_tree("ws-models", files);
	const struct workspace *web, *api;
	struct spec spec;
	struct errbuf err;
	size_t i, n5432 = 0;

	if (spec_load_opts(dir, &o, &spec, &err) < 0) {
		CHECK(0, "load: %s", err.msg);
		return;
	}
	web = ws_find(&spec, "apps/web");
	api = ws_find(&spec, "apps/api");
	CHECK(web && api && web->loaded && api->loaded, "both loaded");
	if (!web || !api) {
		spec_release(&spec);
		return;
	}
	CHECK(web->spec.parent == &spec && !strcmp(web->spec.dir, "apps/web"),
	      "parent and dir");
	CHECK_INT(web->spec.nruntimes, 2, "engines and .nvmrc");
	CHECK_STR(web->spec.runtimes[0].origin.file, "apps/web/package.json",
		  "origins are repository-relative");
	CHECK_INT(web->spec.runtimes[0].origin.line, 2, "its line");
	/* a symlink to the repository's .nvmrc stays in the repository */
	CHECK_STR(web->spec.runtimes[1].origin.file, "apps/web/.nvmrc", ".nvmrc read");
	CHECK_STR(web->spec.runtimes[1].spec, "22", ".nvmrc through the symlink");
	CHECK_STR(web->spec.env.example, "apps/web/.env.example", "example");
	CHECK_STR(web->spec.env.file, "apps/web/.env", ".env beside it");
	CHECK(spec_selects_version(&web->spec, "node"), ".nvmrc selects node");
	CHECK(!spec_selects_version(&web->spec, "python"), "nothing selects python");
	CHECK(spec_selects_version(&api->spec, "python"), ".python-version");
	CHECK(!spec_selects_version(&spec, "node"), "the repository never");
	CHECK(api->spec.compose.used && api->spec.compose.nfiles == 1 &&
	      !strcmp(api->spec.compose.files[0], "apps/api/compose.yaml"),
	      "a workspace's own compose file");
	/* ports: one namespace, the repository's records */
	CHECK_INT(web->spec.nport_records, 0, "no records in a workspace");
	for (i = 0; i < spec.nport_records; i++) {
		const struct port_record *rec = &spec.port_records[i];

		if (rec->req->port != 5432)
			continue;
		n5432++;
		CHECK_INT(rec->rule, PORT_RULE_STACK_UP, "root compose + web URL");
		CHECK(rec->user && rec->user->ws && !strcmp(rec->user->ws, "apps/web"),
		      "the URL is apps/web's");
		CHECK(rec->stack && !rec->stack->ws, "the stack is the repository's");
	}
	CHECK_INT(n5432, 1, "5432 once");
	for (i = 0; i < spec.nport_records; i++)
		if (spec.port_records[i].req->port == 6379)
			CHECK(spec.port_records[i].stack &&
			      !strcmp(spec.port_records[i].stack->ws, "apps/api"),
			      "6379 from apps/api's stack");
	spec_release(&spec);

	/* --workspace: that one only, named any way */
	o.only = "./apps/api/";
	if (spec_load_opts(dir, &o, &spec, &err) < 0) {
		CHECK(0, "load --workspace: %s", err.msg);
		return;
	}
	CHECK_STR(spec.workspaces->only, "apps/api", "only");
	CHECK(!ws_find(&spec, "apps/web")->loaded && ws_find(&spec, "apps/api")->loaded,
	      "one loaded");
	spec_release(&spec);
	o.only = "apps/nope";
	CHECK(spec_load_opts(dir, &o, &spec, &err) < 0 &&
	      strstr(err.msg, "'apps/nope' is not a workspace") &&
	      strstr(err.msg, "apps/api, apps/web"), "unknown --workspace: %s", err.msg);
	/* and off */
	o.workspaces = 0;
	o.only = NULL;
	CHECK(spec_load_opts(dir, &o, &spec, &err) == 0 && !spec.workspaces,
	      "--no-workspaces");
	spec_release(&spec);
}

/* A malformed file in a workspace stops the audit, naming it. */
static void test_child_error(void)
{
	static const struct file files[] = {
		{ "package.json", "{\"workspaces\": [\"apps/*\"]}" },
		{ "apps/web/package.json", "{\"name\": " },
		{ NULL, NULL }
	};
	struct spec_opts o = { 1, NULL, 0 };
	const char *dir = make_tree("ws-child-error", files);
	struct spec spec;
	struct errbuf err;

	CHECK(spec_load_opts(dir, &o, &spec, &err) < 0 &&
	      !strcmp(err.file, "apps/web/package.json") && err.kind == ERRK_INVALID,
	      "child error: %s", err.msg);
}

/* ---- ranges that exclude each other --------------------------------------- */

static const struct disjoint_row {
	const char *a, *b;
	int want;
} disjoint_rows[] = {
	{ ">=22", "<21", 1 },
	{ ">=22", "<=22", 0 },
	{ ">=22", "<22", 1 },
	{ ">20", "<=20", 1 },
	{ "^18", "^20", 1 },
	{ "18.x", ">=18.5 <19", 0 },
	{ "^18 || ^20", ">=20.5", 0 },
	{ "^18 || ^20", "^22 || ^24", 1 },
	{ "*", "<1", 0 },
	/* npm's engines check includes prereleases: ">=22" is >=22.0.0-0 */
	{ ">=22", "22.0.0-rc.1", 0 },
	{ ">=22.0.0", "22.0.0-rc.1", 1 },	/* a prerelease is below 22.0.0 */
	{ "1.2.3", "1.2.4", 1 },
	{ "1.2.3", "1.2.3", 0 },
	{ "~1.2.3", ">=1.3", 1 },
};

static void test_disjoint(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(disjoint_rows); i++) {
		const struct disjoint_row *r = &disjoint_rows[i];
		struct semver_range *a = semver_range_parse(r->a, SEMVER_INCLUDE_PRERELEASE);
		struct semver_range *b = semver_range_parse(r->b, SEMVER_INCLUDE_PRERELEASE);

		CHECK(a && b, "parse '%s' '%s'", r->a, r->b);
		if (a && b) {
			CHECK_INT(runtime_ranges_disjoint(a, b), r->want, "'%s' vs '%s'",
				  r->a, r->b);
			CHECK_INT(runtime_ranges_disjoint(b, a), r->want, "'%s' vs '%s'",
				  r->b, r->a);
		}
		semver_range_free(a);
		semver_range_free(b);
	}
}

/* ---- ids ------------------------------------------------------------------- */

static void test_plan_prefix(void)
{
	struct plan plan = { NULL, 0, 0, NULL, NULL };
	struct origin none = { NULL, 0, 0 };
	struct spec fake;

	memset(&fake, 0, sizeof(fake));
	plan_add(&plan, &probe_env, "env.parity", "t", none, NULL, 0);
	plan.spec = &fake;
	plan.ws = "apps/web";
	plan_add(&plan, &probe_env, "env.parity", "t", none, NULL, 0);
	CHECK_STR(plan.checks[0].id, "env.parity", "the repository's");
	CHECK_STR(plan.checks[1].id, "apps/web:env.parity", "prefixed");
	CHECK(plan.checks[1].spec == &fake && !strcmp(plan.checks[1].workspace,
						      "apps/web"), "tagged");
	CHECK(plan_id_taken(&plan, "env.parity"), "taken in apps/web");
	plan.ws = "apps/docs";
	CHECK(!plan_id_taken(&plan, "env.parity"), "free in apps/docs");
	plan.ws = NULL;
	CHECK(plan_id_taken(&plan, "env.parity"), "taken in the repository");
	plan_release(&plan);
}

void test_main(void)
{
	test_glob();
	test_braces();
	test_dir_valid();
	test_dir_sample();
	run_parse_rows("go.work", gowork_rows, ARRAY_SIZE(gowork_rows), ws_gowork_parse);
	run_parse_rows("uv", uv_rows, ARRAY_SIZE(uv_rows), ws_uv_parse);
	test_uv_many();
	test_discovery();
	test_models();
	test_child_error();
	test_disjoint();
	test_plan_prefix();
}
