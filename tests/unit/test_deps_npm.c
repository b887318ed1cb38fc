/* test_deps_npm.c - npm's rules in the deps parsers, one row a case:
 * an optional entry's os/cpu/libc against a machine (npm-install-checks
 * checkPlatform), a package.json spec met by a locked version (arborist
 * dep-valid.js), .npmrc values, the root entry's specs, the specs of
 * every importer (workspaces, file: folders), aliases and git
 * dependencies. */
#include "test.h"
#include "deps.h"
#include "semver.h"
#include "util.h"

#include <stdio.h>

static const struct npm_platform linux_glibc = { "linux", "x64", "glibc" };
static const struct npm_platform linux_musl = { "linux", "x64", "musl" };
static const struct npm_platform linux_nolibc = { "linux", "x64", NULL };

static void platform_rows(void)
{
	static const struct {
		const char *fields;	/* the entry's os/cpu/libc, JSON */
		const struct npm_platform *here;
		int optional;	/* DEP_OPTIONAL stays */
		int not_here;	/* DEP_NOT_HERE: checkPlatform refuses it */
	} rows[] = {
		{ "\"os\": [\"linux\"], \"cpu\": [\"x64\"]", &linux_glibc, 0, 0 },
		{ "\"os\": [\"darwin\"], \"cpu\": [\"arm64\"]", &linux_glibc, 1, 1 },
		{ "\"os\": [\"linux\"], \"cpu\": [\"arm64\"]", &linux_glibc, 1, 1 },
		{ "\"os\": [\"linux\"], \"cpu\": [\"x64\"], \"libc\": [\"glibc\"]", &linux_glibc, 0, 0 },
		{ "\"os\": [\"linux\"], \"cpu\": [\"x64\"], \"libc\": [\"musl\"]", &linux_glibc, 1, 1 },
		{ "\"os\": [\"linux\"], \"cpu\": [\"x64\"], \"libc\": [\"musl\"]", &linux_musl, 0, 0 },
		/* libc unknown here (no /usr/bin/ldd): undecided, stays optional */
		{ "\"os\": [\"linux\"], \"libc\": [\"glibc\"]", &linux_nolibc, 1, 0 },
		{ "\"os\": [\"!win32\"]", &linux_glibc, 0, 0 },
		{ "\"os\": [\"!linux\"]", &linux_glibc, 1, 1 },
		{ "\"os\": \"linux\"", &linux_glibc, 0, 0 },
		{ "\"cpu\": [\"any\"]", &linux_glibc, 0, 0 },
		{ "\"os\": [\"darwin\", \"linux\"]", &linux_glibc, 0, 0 },
		/* no platform named: a failed optional build may be absent */
		{ "\"license\": \"MIT\"", &linux_glibc, 1, 0 },
		{ "\"os\": [\"linux\"]", NULL, 1, 0 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct dep_set s = DEP_SET_INIT;
		struct parse_error e;
		struct buf b = BUF_INIT;
		const struct dep *x;
		int ver;

		buf_printf(&b, "{\"lockfileVersion\": 3, \"packages\": {\"\": {}, "
			   "\"node_modules/p\": {\"version\": \"1.0.0\", \"optional\": true, %s}}}",
			   rows[i].fields);
		CHECK(deps_npm_parse_here(buf_str(&b), b.len, rows[i].here, &s, NULL, &ver,
					  &e) == 0, "row %zu parses", i);
		x = dep_set_get(&s, "node_modules/p");
		CHECK(x && !!(x->flags & DEP_OPTIONAL) == rows[i].optional,
		      "row %zu: %s: optional %d, want %d", i, rows[i].fields,
		      x ? !!(x->flags & DEP_OPTIONAL) : -1, rows[i].optional);
		CHECK(x && !!(x->flags & DEP_NOT_HERE) == rows[i].not_here, "row %zu: not here %d",
		      i, rows[i].not_here);
		dep_set_release(&s);
		buf_release(&b);
	}
}

static void spec_rows(void)
{
	static const struct {
		const char *spec, *version, *real;
		int met;
	} rows[] = {
		{ "^1.0.0", "1.2.3", "a", 1 },
		{ "^1.0.0", "2.0.0", "a", 0 },
		{ "1.0.0", "1.0.0", "a", 1 },
		{ "~1.2", "1.2.9", "a", 1 },
		{ "*", "0.0.1", "a", 1 },
		{ "", "9.9.9", "a", 1 },
		{ ">=1 <2 || ^3", "3.1.0", "a", 1 },
		{ "^1.0.0", NULL, "a", 0 },
		{ "latest", "1.0.0", "a", 1 },
		{ "npm:is-odd@3.0.1", "3.0.1", "is-odd", 1 },
		{ "npm:is-odd@^3", "4.0.0", "is-odd", 0 },
		{ "npm:is-even@3.0.1", "3.0.1", "is-odd", 0 },
		{ "npm:@s/x@^1", "1.5.0", "@s/x", 1 },
		{ "file:../a", "1.0.0", "a", -1 },
		{ "git+https://example.com/a.git#abc", "1.0.0", "a", -1 },
		{ "github:user/repo", "1.0.0", "a", -1 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++)
		CHECK_INT(deps_npm_spec_met(rows[i].spec, rows[i].version, rows[i].real),
			  rows[i].met, "row %zu: %s against %s", i, rows[i].spec,
			  rows[i].version ? rows[i].version : "(none)");
}

static void npmrc_rows(void)
{
	static const struct {
		const char *text, *key, *want;	/* want: values joined by "," */
	} rows[] = {
		{ "omit=dev\n", "omit", "dev" },
		{ "  omit = dev  \n", "omit", "dev" },
		{ "omit[]=dev\nomit[]=optional\n", "omit", "dev,optional" },
		{ "omit=dev\nomit=peer\n", "omit", "peer" },
		{ "# omit=dev\n; omit=dev\n", "omit", "" },
		{ "omit=\"dev\"\r\n", "omit", "dev" },
		{ "[section]\nomit=dev\n", "omit", "" },
		{ "omitx=dev\nxomit=dev\n", "omit", "" },
		{ "registry=https://r.example/\nlibc=musl", "libc", "musl" },
	};
	size_t i, j, n;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		char *vals[4];
		struct buf got = BUF_INIT;

		n = deps_npmrc_values(rows[i].text, strlen(rows[i].text), rows[i].key, vals, 4);
		for (j = 0; j < n; j++) {
			buf_printf(&got, "%s%s", j ? "," : "", vals[j]);
			free(vals[j]);
		}
		CHECK_STR(buf_str(&got), rows[i].want, "row %zu", i);
		buf_release(&got);
	}
}

static void entries(void)
{
	static const char lock[] =
		"{\"lockfileVersion\": 3, \"packages\": {"
		"\"\": {\"dependencies\": {\"odd\": \"npm:is-odd@3.0.1\"}, "
		"\"devDependencies\": {\"g\": \"git+https://h/g.git\"}, "
		"\"optionalDependencies\": {\"o\": \"^1\"}},"
		"\"node_modules/odd\": {\"name\": \"is-odd\", \"version\": \"3.0.1\", "
		"\"integrity\": \"sha512-x\", \"resolved\": \"https://r/is-odd.tgz\"},"
		"\"node_modules/g\": {\"version\": \"1.0.0\", \"dev\": true, "
		"\"resolved\": \"git+https://h/g.git#abc\"},"
		"\"node_modules/w\": {\"resolved\": \"packages/w\", \"link\": true},"
		"\"packages/w\": {\"name\": \"w\", \"version\": \"2.0.0\"}}}";
	static const char manifest[] = "{\"dependencies\": {\"a\": \"^1\", \"b\": \"2\"}, "
				       "\"optionalDependencies\": {\"a\": \"^3\"}}";
	struct dep_set s = DEP_SET_INIT, root = DEP_SET_INIT;
	struct parse_error e;
	const struct dep *x;
	int ver;

	CHECK(deps_npm_parse_here(lock, sizeof(lock) - 1, &linux_glibc, &s, &root, &ver, &e) == 0,
	      "lock: %s", e.msg);
	CHECK_INT(s.n, 4, "the root entry left out");
	x = dep_set_get(&s, "node_modules/odd");
	CHECK(x && !strcmp(x->name, "odd") && (x->flags & DEP_ALIAS) && x->extra &&
	      !strcmp(x->extra, "is-odd"), "an alias: its folder's name, the package beside it");
	x = dep_set_get(&s, "node_modules/g");
	CHECK(x && (x->flags & DEP_RESOLVED) && (x->flags & DEP_DEV) && x->extra &&
	      !strcmp(x->extra, "git+https://h/g.git#abc"), "git: resolved kept");
	x = dep_set_get(&s, "packages/w");
	CHECK(x && !(x->flags & (DEP_ALIAS | DEP_RESOLVED)), "a workspace folder");
	CHECK_INT(root.n, 3, "the root's specs");
	x = dep_set_get(&root, "g");
	CHECK(x && (x->flags & DEP_DEV) && !strcmp(x->version, "git+https://h/g.git"), "dev spec");
	x = dep_set_get(&root, "o");
	CHECK(x && (x->flags & DEP_OPTIONAL), "optional spec");
	dep_set_release(&s);
	dep_set_release(&root);

	CHECK(deps_npm_manifest(manifest, sizeof(manifest) - 1, &root, &e) == 0, "manifest");
	x = dep_set_get(&root, "a");
	CHECK(x && !strcmp(x->version, "^3") && (x->flags & DEP_OPTIONAL),
	      "optionalDependencies win over dependencies");
	dep_set_release(&root);
	CHECK(deps_npm_manifest("[1]", 3, &root, &e) < 0, "not an object");
	CHECK(deps_npm_manifest("{", 1, &root, &e) < 0, "malformed");
	dep_set_release(&root);
}

/* The importers: every entry outside node_modules that is not a link
 * (the root, workspaces, file: folders), in the lockfile's order, each
 * spec's field kept. */
static void importers(void)
{
	static const char lock[] =
		"{\"lockfileVersion\": 3, \"packages\": {"
		"\"\": {\"workspaces\": [\"packages/*\"], "
		"\"devDependencies\": {\"d\": \"^1\"}},"
		"\"node_modules/a\": {\"resolved\": \"packages/a\", \"link\": true},"
		"\"node_modules/d\": {\"version\": \"1.0.0\", \"dev\": true},"
		"\"packages/a\": {\"version\": \"2.0.0\", "
		"\"dependencies\": {\"x\": \"file:../../x.tgz\"}, "
		"\"devDependencies\": {\"d\": \"^1.0.0\"}},"
		"\"packages/a/node_modules/x\": {\"version\": \"1.0.0\", "
		"\"dependencies\": {\"y\": \"1\"}},"
		"\"../outside\": {\"version\": \"1.0.0\"}}}";
	struct npm_importers imp = { NULL, 0, 0 };
	struct dep_set s = DEP_SET_INIT;
	struct parse_error e;
	const struct npm_importer *a;
	const struct dep *x;
	int ver;

	CHECK(deps_npm_parse_all(lock, sizeof(lock) - 1, &linux_glibc, &s, &imp, &ver, &e) == 0,
	      "lock: %s", e.msg);
	CHECK_INT(imp.n, 3, "the root, a workspace, a folder outside; not a link or a package");
	CHECK(imp.n == 3 && !strcmp(imp.v[0].path, "") && !strcmp(imp.v[1].path, "packages/a") &&
	      !strcmp(imp.v[2].path, "../outside"), "in the lockfile's order");
	CHECK(!npm_importer_find(&imp, "packages/a/node_modules/x"), "a package is no importer");
	a = npm_importer_find(&imp, "packages/a");
	CHECK(a && a->specs.n == 2, "the workspace's specs");
	x = a ? dep_set_get(&a->specs, "x") : NULL;
	CHECK(x && !strcmp(x->version, "file:../../x.tgz") && x->extra &&
	      !strcmp(x->extra, "dependencies"), "a spec as written, its field");
	x = a ? dep_set_get(&a->specs, "d") : NULL;
	CHECK(x && (x->flags & DEP_DEV) && x->extra && !strcmp(x->extra, "devDependencies"),
	      "a dev spec");
	CHECK(dep_set_get(&s, "packages/a") && dep_set_get(&s, "node_modules/a"),
	      "the packages set keeps them all");
	npm_importers_release(&imp);
	dep_set_release(&s);
}

/* package.json's overrides read as override-set.js reads them, and the
 * locked tree judged under them (edge.js satisfiedBy): one row a case;
 * the lockfile: root -> is-odd 3.0.1 -> is-number ^6.0.0 (6.0.0). */
static void override_rows(void)
{
	static const char lock[] =
		"{\"lockfileVersion\": 3, \"packages\": {"
		"\"\": {\"dependencies\": {\"is-odd\": \"3.0.1\"}},"
		"\"node_modules/is-odd\": {\"version\": \"3.0.1\", "
		"\"dependencies\": {\"is-number\": \"^6.0.0\"}},"
		"\"node_modules/is-number\": {\"version\": \"6.0.0\"}}}";
	static const struct {
		const char *ovr;	/* package.json's overrides, JSON */
		int miss;		/* 1 an edge made invalid, 2 EOVERRIDE */
		const char *want;	/* the spec made of it */
	} rows[] = {
		{ "{\"is-number\": \"6.0.0\"}", 0, NULL },
		{ "{\"is-number\": \"^6.0.0\"}", 0, NULL },
		{ "{\"is-number\": \"7.0.0\"}", 1, "7.0.0" },
		{ "{\"is-number\": \"\"}", 0, NULL },
		{ "{\"is-number@^6\": \"7.0.0\"}", 1, "7.0.0" },
		{ "{\"is-number@^5\": \"7.0.0\"}", 0, NULL },
		{ "{\"is-number@>=6.0.0 <6.1.0\": \"7.0.0\"}", 1, "7.0.0" },
		{ "{\"is-odd\": {\"is-number\": \"7.0.0\"}}", 1, "7.0.0" },
		{ "{\"other\": {\"is-number\": \"7.0.0\"}}", 0, NULL },
		{ "{\"is-odd\": {\".\": \"3.0.1\", \"is-number\": \"7.0.0\"}}", 1, "7.0.0" },
		{ "{\"is-number\": \"$is-odd\"}", 1, "3.0.1" },
		{ "{\"is-number\": \"$nothing\"}", 0, NULL },
		{ "{\"is-odd\": \"3.0.0\"}", 2, NULL },
		{ "{\"is-odd\": \"3.0.1\"}", 0, NULL },
		{ "{\"is-odd\": \"$is-odd\"}", 0, NULL },
		{ "{\"is-odd@2\": \"3.0.0\"}", 0, NULL },
		{ "{\"is-number\": 7}", 0, NULL },
		{ "\"7.0.0\"", 0, NULL },
		{ "{\"is-number\": \"git+https://h/x.git\"}", 0, NULL },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct npm_overrides o;
		struct npm_override_miss m;
		struct parse_error e;
		struct buf b = BUF_INIT;
		int got;

		buf_printf(&b, "{\"dependencies\": {\"is-odd\": \"3.0.1\"}, \"overrides\": %s}",
			   rows[i].ovr);
		CHECK(deps_npm_overrides(buf_str(&b), b.len, &o, &e) == 0, "row %zu parses", i);
		got = o.direct_name ? 2 :
		      deps_npm_overrides_check(lock, sizeof(lock) - 1, &o, NULL, &m);
		CHECK_INT(got, rows[i].miss, "row %zu: %s", i, rows[i].ovr);
		if (got == 1) {
			CHECK(m.want && !strcmp(m.want, rows[i].want) && !strcmp(m.name, "is-number") &&
			      !strcmp(m.spec, "^6.0.0") && !strcmp(m.locked, "6.0.0") &&
			      !strcmp(m.from, "node_modules/is-odd"), "row %zu: the edge named", i);
			npm_override_miss_release(&m);
		}
		npm_overrides_release(&o);
		buf_release(&b);
	}
}

/* The registry of nested_kept_rows: the version a row names, NULL for
 * none (not known). */
static const char *row_pick(void *ctx, const char *name, const char *range)
{
	(void)name;
	(void)range;
	return ctx;
}

/* A nested copy the override no longer fits below a top-level copy of
 * the override's version: npm keeps it when the copy above is older,
 * removes it when newer (node.js canDedupe); for a range, when the
 * registry's pick in it is the copy above; each row seen with npm 11
 * (tests/integration/deps_npm.sh state 6). */
static void nested_kept_rows(void)
{
	static const struct {
		const char *top, *nested, *resolved, *ovr, *pick;
		int miss;
	} rows[] = {
		{ "4.3.0", "5.2.0", "https://r/a.tgz", "4.3.0", NULL, 0 },	/* kept */
		{ "5.2.0", "4.3.0", "https://r/a.tgz", "5.2.0", NULL, 1 },	/* removed */
		{ "4.3.0", "5.2.0", "https://r/a.tgz", "^4.0.0", "4.3.0", 0 },	/* the registry's newest */
		{ "4.3.0", "5.2.0", "https://r/a.tgz", "^4.0.0", "4.3.1", 1 },	/* a newer: re-resolved */
		{ "4.3.0", "5.2.0", "https://r/a.tgz", "^4.0.0", NULL, 2 },	/* the registry decides */
		{ "5.2.0", "4.3.0", "https://r/a.tgz", "^5.0.0", "5.2.0", 1 },	/* removed, whatever */
		{ "4.3.0", "5.2.0", "https://r/a.tgz", "^3.0.0", "3.2.1", 1 },	/* the copy above is not in it */
		{ "4.3.0", "5.2.0", "file:a.tgz", "4.3.0", NULL, 1 },	/* not the registry's */
		{ "4.3.0", "5.2.0", "file:a.tgz", "^4.0.0", NULL, 1 },
		{ "4.3.0", "5.2.0", "https://r/a.tgz", "4.2.0", NULL, 1 },	/* not the copy above */
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct npm_overrides o;
		struct npm_override_miss m;
		struct parse_error e;
		struct buf lock = BUF_INIT, pkg = BUF_INIT;
		struct npm_registry reg;

		buf_printf(&lock, "{\"lockfileVersion\": 3, \"packages\": {"
			   "\"\": {\"dependencies\": {\"a\": \"1.0.0\", \"b\": \"1.0.0\"}},"
			   "\"node_modules/a\": {\"version\": \"1.0.0\", \"integrity\": \"sha512-a\","
			   " \"dependencies\": {\"ansi-styles\": \"^%c.0.0\"}},"
			   "\"node_modules/ansi-styles\": {\"version\": \"%s\", \"resolved\": \"%s\","
			   " \"integrity\": \"sha512-t\"},"
			   "\"node_modules/b\": {\"version\": \"1.0.0\", \"integrity\": \"sha512-b\","
			   " \"dependencies\": {\"ansi-styles\": \"^%c.0.0\"}},"
			   "\"node_modules/b/node_modules/ansi-styles\": {\"version\": \"%s\","
			   " \"integrity\": \"sha512-n\"}}}",
			   rows[i].top[0], rows[i].top, rows[i].resolved, rows[i].nested[0], rows[i].nested);
		buf_printf(&pkg, "{\"dependencies\": {\"a\": \"1.0.0\", \"b\": \"1.0.0\"},"
			   " \"overrides\": {\"ansi-styles\": \"%s\"}}", rows[i].ovr);
		CHECK(deps_npm_overrides(buf_str(&pkg), pkg.len, &o, &e) == 0, "row %zu parses", i);
		reg.pick = row_pick;
		reg.ctx = (void *)rows[i].pick;
		CHECK_INT(deps_npm_overrides_check(buf_str(&lock), lock.len, &o, &reg, &m),
			  rows[i].miss, "row %zu: %s above, %s nested, %s", i, rows[i].top,
			  rows[i].nested, rows[i].ovr);
		CHECK(rows[i].miss == 0 || (m.name && !strcmp(m.name, "ansi-styles") &&
					    !strcmp(m.want, rows[i].ovr)), "row %zu: the edge named", i);
		npm_override_miss_release(&m);
		npm_overrides_release(&o);
		buf_release(&lock);
		buf_release(&pkg);
	}
}

/* npm-pick-manifest on a packument (lib/index.js): the latest tag when
 * the range holds it and it is not deprecated, else the greatest in
 * range, the deprecated last.  Each row's answer is the one npm 11's own
 * npm-pick-manifest gave under node (NULL: it threw). */
static void pick_rows(void)
{
	static const struct {
		const char *range, *doc, *want;
	} rows[] = {
		{ "^4.1.0", "{\"dist-tags\":{\"latest\":\"7.0.0\"},\"versions\":{\"4.2.1\":{},"
		  "\"4.3.0\":{},\"5.2.0\":{},\"7.0.0\":{}}}", "4.3.0" },
		{ "*", "{\"dist-tags\":{\"latest\":\"1.0.0\"},\"versions\":{\"1.0.0\":{},"
		  "\"2.0.0\":{}}}", "1.0.0" },	/* the tag over a greater */
		{ "*", "{\"dist-tags\":{\"latest\":\"1.0.0\"},\"versions\":{\"1.0.0\":"
		  "{\"deprecated\":\"x\"},\"0.9.0\":{},\"2.0.0-rc.1\":{}}}", "0.9.0" },
		{ "^1.0.0", "{\"versions\":{\"1.0.0\":{},\"1.5.0\":{\"deprecated\":\"x\"}}}",
		  "1.0.0" },	/* the deprecated last */
		{ "^1.0.0", "{\"versions\":{\"1.5.0\":{\"deprecated\":\"x\"},"
		  "\"1.6.0\":{\"deprecated\":\"y\"}}}", "1.6.0" },
		{ "^1.0.0", "{\"versions\":{\"1.1.0-beta.1\":{},\"1.0.0\":{}}}", "1.0.0" },
		{ "^1.1.0-beta.0", "{\"versions\":{\"1.1.0-beta.1\":{},\"1.0.0\":{}}}",
		  "1.1.0-beta.1" },
		{ "*", "{\"dist-tags\":{\"latest\":\"2.0.0-rc.1\"},\"versions\":{\"1.0.0\":{},"
		  "\"2.0.0-rc.1\":{}}}", "2.0.0-rc.1" },	/* "*" takes the tag's */
		{ "^1.0.0", "{\"versions\":{\"1.0.0\":{},\"1.5.0\":{\"deprecated\":\"\"}}}",
		  "1.5.0" },	/* an empty message is no deprecation */
		{ "^3", "{\"versions\":{\"1.0.0\":{}}}", NULL },
		{ "^1", "[1]", NULL },
		{ "not a range", "{\"versions\":{\"1.0.0\":{}}}", NULL },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		char *got = deps_npm_pick(rows[i].doc, strlen(rows[i].doc), rows[i].range, "latest");

		CHECK((!got && !rows[i].want) || (got && rows[i].want && !strcmp(got, rows[i].want)),
		      "row %zu: %s picks %s, want %s", i, rows[i].range, got ? got : "none",
		      rows[i].want ? rows[i].want : "none");
		free(got);
	}
}

/* semver_range_intersects, what an override's selector is held to
 * (override-set.js getEdgeRule): each row's answer is node-semver
 * 7's intersects() on the machine's npm. */
static void intersect_rows(void)
{
	static const struct {
		const char *a, *b;
		int x;
	} rows[] = {
		{ "^6.0.0", "^6", 1 }, { "^6.0.0", "^5", 0 }, { ">=1 <2", ">=3 <4", 0 },
		{ "1.2.3", ">=1.0.0", 1 }, { "*", "^1", 1 }, { "1.0.0-beta", "^1.0.0", 0 },
		{ "1.0.0-beta", "*", 0 }, { "<0.0.0-0", "*", 1 }, { "~1.2.3", ">=1.2.5", 1 },
		{ ">1.0.0", "<=1.0.0", 0 }, { ">=1.0.0", "<=1.0.0", 1 }, { "^1 || ^3", "3.1.0", 1 },
		{ ">=2 <1", "*", 0 }, { "1.x", "1.5.0", 1 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct semver_range *a = semver_range_parse(rows[i].a, 0);
		struct semver_range *b = semver_range_parse(rows[i].b, 0);

		CHECK(a && b && semver_range_intersects(a, b) == rows[i].x, "row %zu: %s and %s: %d",
		      i, rows[i].a, rows[i].b, rows[i].x);
		semver_range_free(a);
		semver_range_free(b);
	}
}

void test_main(void)
{
	platform_rows();
	spec_rows();
	npmrc_rows();
	entries();
	importers();
	override_rows();
	nested_kept_rows();
	pick_rows();
	intersect_rows();
}
