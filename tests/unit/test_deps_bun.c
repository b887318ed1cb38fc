/* test_deps_bun.c - bun.lock (src/parse/deps_bun.c): bun's JSON dialect,
 * row by row as bun 1.4.5 (tests/managers) was seen to accept or refuse
 * each (`bun install --frozen-lockfile` on a bun.lock so edited), then
 * bun.lock's own rules, where packages go, and bun's version check. */
#include "test.h"
#include "deps.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A bun.lock as bun 1.4.5 writes it (trailing commas and all), with a
 * hole for one member before "configVersion" and one text after it. */
#define HEAD "{\n  \"lockfileVersion\": 2,\n"
#define BODY "  \"configVersion\": 1,\n" \
	"  \"workspaces\": {\n    \"\": {\n      \"name\": \"app\",\n" \
	"      \"dependencies\": {\n        \"is-odd\": \"^3.0.1\",\n      },\n    },\n  },\n" \
	"  \"packages\": {\n" \
	"    \"is-odd\": [\"is-odd@3.0.1\", \"\", { \"dependencies\": { \"is-number\": \"^6.0.0\" } }, \"sha512-x\"],\n" \
	"    \"is-number\": [\"is-number@6.0.0\", \"\", {}, \"sha512-y\"],\n  }\n}\n"

static void dialect(void)
{
	static const struct {
		const char *extra;	/* a member before configVersion */
		const char *after;	/* text after the document */
		int ok;			/* bun accepts it */
		unsigned line;		/* where it fails */
	} rows[] = {
		{ "", "", 1, 0 },
		{ "// a comment\n  /* and a block */", "", 1, 0 },
		{ "", "garbage", 1, 0 },		/* the next token is whole */
		{ "", "}", 1, 0 },
		{ "", "// to the end", 1, 0 },
		{ "", "/* x", 0, 18 },			/* unterminated, after the end */
		{ "", "\"abc", 0, 18 },
		{ "'x': 'single',", "", 1, 0 },
		{ "\"x\": \"\\x41\\u0042\\uD800\\/\\v\",", "", 1, 0 },
		{ "\"x\": [1, 0x2, 0o7, 0b10, 02, 1_0, .5, 5., 2e0, 1e400, -0, -1, true, null],", "", 1, 0 },
		{ "\"x\": {\"a\": 1,},", "", 1, 0 },
		{ "x: 1,", "", 0, 3 },			/* an unquoted key */
		{ "\"x\": `a`,", "", 0, 3 },
		{ "\"x\": +2,", "", 0, 3 },
		{ "\"x\": NaN,", "", 0, 3 },
		{ "\"x\": Infinity,", "", 0, 3 },
		{ "\"x\": undefined,", "", 0, 3 },
		{ "\"x\": [1,,2],", "", 0, 3 },
		{ "\"x\": {,},", "", 0, 3 },
		{ ",", "", 0, 3 },
		{ "\"x\": \"a\tb\",", "", 0, 3 },	/* a control character */
		{ "\"x\": \"a\nb\",", "", 0, 3 },
		{ "\"x\": \"\\q\",", "", 0, 3 },
		{ "\"x\": \"\\0\",", "", 0, 3 },
		{ "\"x\": \"\\u{41}\",", "", 0, 3 },
		{ "\"x\": \"a\\\nb\",", "", 0, 3 },
		{ "/* open", "", 0, 3 },
	};
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char text[2048];
		struct bun_lock l;
		struct parse_error e;
		int rc;

		snprintf(text, sizeof(text), HEAD "  %s\n" BODY "%s", rows[i].extra, rows[i].after);
		rc = deps_bun_parse(text, strlen(text), NULL, &l, &e);
		if (rows[i].ok) {
			CHECK(rc == 0 && l.npkgs == 2, "row %zu: accepted (%d %u:%u %s)", i, rc,
			      e.line, e.col, e.msg);
		} else {
			CHECK(rc == -1 && e.line == rows[i].line && e.msg[0],
			      "row %zu: refused at line %u (%d %u:%u %s)", i, rows[i].line, rc,
			      e.line, e.col, e.msg);
		}
		bun_lock_release(&l);
	}
}

/* bun.lock's rules: the version, the objects bun asks for, each with the
 * line bun names. */
static void rules(void)
{
	static const struct {
		const char *text;
		int rc;
		unsigned line;
		const char *msg;	/* a part of the message */
	} rows[] = {
		{ "", -1, 1, "missing lockfile version" },
		{ "[]", -1, 1, "missing lockfile version" },
		{ "{\"workspaces\": {\"\": {}}}", -1, 1, "missing lockfile version" },
		{ "{\"lockfileVersion\": \"2\"}", -1, 1, "invalid lockfile version" },
		{ "{\"lockfileVersion\": 2.5}", -1, 1, "invalid lockfile version" },
		{ "{\"lockfileVersion\": -1}", -1, 1, "invalid lockfile version" },
		{ "{\n\"lockfileVersion\": 4}", 1, 2, "unsupported lockfile version 4" },
		{ "{\"lockfileVersion\": 2, \"lockfileVersion\": 9, \"workspaces\": {\"\": {}}}",
		  0, 0, NULL },			/* the first of two wins */
		{ "{\"lockfileVersion\": 9, \"lockfileVersion\": 2}", 1, 1, "unsupported" },
		{ "{\"lockfileVersion\": 1}", -1, 1, "missing a workspaces object" },
		{ "{\"lockfileVersion\": 1, \"workspaces\": {}}", -1, 1, "expected root package" },
		{ "{\"lockfileVersion\": 1, \"workspaces\": {\"\": {}, \"\": {}}}", -1, 1,
		  "duplicate root package" },
		{ "{\"lockfileVersion\": 1, \"workspaces\": {\"\": {}, \"p\": {}}}", -1, 1,
		  "expected a string name" },
		{ "{\"lockfileVersion\": 1, \"configVersion\": \"1\", \"workspaces\": {\"\": {}}}",
		  -1, 1, "configVersion" },
		{ "{\"lockfileVersion\": 1, \"workspaces\": {\"\": {}},\n \"packages\": {\"a\": {}}}",
		  -1, 2, "expected an array" },
		{ "{\"lockfileVersion\": 1, \"workspaces\": {\"\": {}},\n \"packages\": {\"a\": []}}",
		  -1, 2, "missing package info" },
		{ "{\"lockfileVersion\": 1, \"workspaces\": {\"\": {}},\n \"packages\": {\"a\": [\"a\"]}}",
		  -1, 2, "invalid package resolution" },
		{ "{\"lockfileVersion\": 1, \"workspaces\": {\"\": {}},\n \"packages\": {\"a\": [\"a@1.0.0\", \"\", {}]}}",
		  -1, 2, "missing integrity" },
		{ "{\"lockfileVersion\": 1, \"workspaces\": {\"\": {}},\n \"packages\": {\"a\": [\"a@1.0.0\"]}}",
		  -1, 2, "missing npm registry" },
		{ "{\"lockfileVersion\": 1, \"workspaces\": {\"\": {}},\n \"packages\": {\"a\": [\"a@github:u/r\", {}]}}",
		  -1, 2, "missing git dependency tag" },
		{ "{\"lockfileVersion\": 1, \"workspaces\": {\"\": {}},\n \"packages\": {\"a\": [\"a@workspace:p\"]}}",
		  -1, 2, "unknown workspace" },
		{ "{\"lockfileVersion\": 1, \"workspaces\": {\"\": {}}, \"packages\": {\"a\": [\"a@1.0.0\", \"\", {}, \"s\"],\n \"a\": [\"a@1.0.0\", \"\", {}, \"s\"]}}",
		  -1, 2, "duplicate package path" },
		{ "{\"lockfileVersion\": 1, \"workspaces\": {\"\": {}},\n \"packages\": {\"../a\": [\"a@1.0.0\", \"\", {}, \"s\"]}}",
		  -1, 2, "invalid package path" },
		/* every edge finds its package up the key, else bun refuses */
		{ "{\"lockfileVersion\": 1, \"workspaces\": {\"\": {}}, \"packages\": {\n"
		  "\"a\": [\"a@1.0.0\", \"\", {\"dependencies\": {\"b\": \"1\"}}, \"s\"]}}",
		  -1, 2, "failed to resolve prod dependency 'b' for package 'a'" },
		{ "{\"lockfileVersion\": 1, \"workspaces\": {\"\": {}}, \"packages\": {\n"
		  "\"x/@s/a/c\": [\"c@1.0.0\", \"\", {\"dependencies\": {\"b\": \"1\"}, \"optionalDependencies\": {\"o\": \"1\"}, \"peerDependencies\": {\"p\": \"1\"}}, \"s\"],"
		  "\"x/b\": [\"b@1.0.0\", \"\", {}, \"s\"]}}", 0, 0, NULL },
		{ "{\"lockfileVersion\": 1, \"workspaces\": {\"\": {}}, \"packages\": {\n"
		  "\"@s/a/c\": [\"c@1.0.0\", \"\", {\"dependencies\": {\"b\": \"1\"}}, \"s\"],"
		  "\"@s/b\": [\"b@1.0.0\", \"\", {}, \"s\"]}}", -1, 2, "dependency 'b' for package '@s/a/c'" },
		{ "{\"lockfileVersion\": 1, \"workspaces\": {\"\": {\"devDependencies\": {\n\"d\": \"1\"}}}}",
		  -1, 2, "failed to resolve root dev dependency 'd'" },
		{ "{\"lockfileVersion\": 1, \"workspaces\": {\"\": {}, \"p/w\": {\"name\": \"w\", \"dependencies\": {\"d\": \"1\"}}},"
		  " \"packages\": {\"w/d\": [\"d@1.0.0\", \"\", {}, \"s\"]}}", 0, 0, NULL },
		{ "{\"lockfileVersion\": 1, \"workspaces\": {\"\": {},\n \"../w\": {\"name\": \"w\"}}}",
		  -1, 2, "invalid workspace path" },
	};
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct bun_lock l;
		struct parse_error e;
		int rc = deps_bun_parse(rows[i].text, strlen(rows[i].text), NULL, &l, &e);

		CHECK(rc == rows[i].rc, "row %zu: rc %d, want %d (%s)", i, rc, rows[i].rc, e.msg);
		if (rows[i].msg)
			CHECK(strstr(e.msg, rows[i].msg) && e.line == rows[i].line,
			      "row %zu: %u:%u %s, want line %u '%s'", i, e.line, e.col, e.msg,
			      rows[i].line, rows[i].msg);
		bun_lock_release(&l);
	}
}

/* What each entry becomes: kind, version, .bun-tag, path, platform. */
static void packages(void)
{
	static const char text[] =
		"{\n"
		"  \"lockfileVersion\": 1,\n"
		"  \"workspaces\": {\n"
		"    \"\": { \"name\": \"root\", \"dependencies\": { \"a\": \"^1\" },"
		" \"devDependencies\": { \"t\": \"file:../t.tgz\" } },\n"
		"    \"packages/w\": { \"name\": \"@s/w\", \"version\": \"1.2.0\","
		" \"dependencies\": { \"b\": \"2\" } },\n"
		"  },\n"
		"  \"packages\": {\n"
		"    \"a\": [\"a@1.0.0\", \"\", {}, \"sha512-a\"],\n"
		"    \"t\": [\"t@../t.tgz\", {}, \"sha512-t\"],\n"
		"    \"g\": [\"g@github:u/g#abc\", {}, \"u-g-abc\"],\n"
		"    \"f\": [\"f@file:../f\", {}],\n"
		"    \"@s/w\": [\"@s/w@workspace:packages/w\"],\n"
		"    \"mac\": [\"mac@1.0.0\", \"\", { \"os\": \"darwin\" }, \"sha512-m\"],\n"
		"    \"arm\": [\"arm@1.0.0\", \"\", { \"cpu\": [\"arm64\", \"!x64\"] }, \"sha512-m\"],\n"
		"    \"nowin\": [\"nowin@1.0.0\", \"\", { \"os\": \"!win32\" }, \"sha512-m\"],\n"
		"    \"a/@s/c\": [\"@s/c@3.0.0\", \"\", {}, \"sha512-c\"],\n"
		"    \"@s/w/b\": [\"b@2.0.0\", \"\", {}, \"sha512-b\"],\n"
		"  }\n"
		"}\n";
	static const struct {
		const char *key, *path, *name, *tag;
		enum bun_kind kind;
		int other;
		unsigned line;
	} want[] = {
		{ "a", "node_modules/a", "a", NULL, BUN_NPM, 0, 8 },
		{ "t", "node_modules/t", "t", "sha512-t", BUN_TARBALL, 0, 9 },
		{ "g", "node_modules/g", "g", "u-g-abc", BUN_GIT, 0, 10 },
		{ "f", "node_modules/f", "f", NULL, BUN_FOLDER, 0, 11 },
		{ "@s/w", "node_modules/@s/w", "@s/w", NULL, BUN_WORKSPACE, 0, 12 },
		{ "mac", "node_modules/mac", "mac", NULL, BUN_NPM, 1, 13 },
		{ "arm", "node_modules/arm", "arm", NULL, BUN_NPM, 1, 14 },
		{ "nowin", "node_modules/nowin", "nowin", NULL, BUN_NPM, 0, 15 },
		{ "a/@s/c", "node_modules/a/node_modules/@s/c", "@s/c", NULL, BUN_NPM, 0, 16 },
		{ "@s/w/b", "packages/w/node_modules/b", "b", NULL, BUN_NPM, 0, 17 },
	};
	const struct bun_platform here = { "linux", "x64", "glibc" };
	struct bun_lock l;
	struct parse_error e;
	size_t i;

	CHECK(deps_bun_parse(text, sizeof(text) - 1, &here, &l, &e) == 0, "%u:%u %s", e.line,
	      e.col, e.msg);
	CHECK(l.version == 1 && l.config_version == -1, "version %u, config %d", l.version,
	      l.config_version);
	CHECK(l.npkgs == sizeof(want) / sizeof(want[0]), "%zu packages", l.npkgs);
	for (i = 0; i < l.npkgs && i < sizeof(want) / sizeof(want[0]); i++) {
		CHECK_STR(l.pkgs[i].key, want[i].key, "key %zu", i);
		CHECK_STR(l.pkgs[i].path, want[i].path, "path %zu", i);
		CHECK_STR(l.pkgs[i].name, want[i].name, "name %zu", i);
		CHECK_STR(l.pkgs[i].tag, want[i].tag, "tag %zu", i);
		CHECK(l.pkgs[i].kind == want[i].kind, "kind %zu: %d", i, (int)l.pkgs[i].kind);
		CHECK(l.pkgs[i].other_platform == want[i].other, "platform %zu", i);
		CHECK(l.pkgs[i].line == want[i].line, "line %zu: %u", i, l.pkgs[i].line);
	}
	CHECK_STR(l.pkgs[0].resolution, "1.0.0", "npm resolution");
	/* what only devDependencies reach: t (the root's dev one) */
	CHECK(!l.pkgs[0].dev_only && l.pkgs[1].dev_only && !l.pkgs[4].dev_only &&
	      !l.pkgs[9].dev_only, "dev-only: a %d t %d w %d w/b %d", l.pkgs[0].dev_only,
	      l.pkgs[1].dev_only, l.pkgs[4].dev_only, l.pkgs[9].dev_only);
	CHECK(l.nws == 2, "%zu workspaces", l.nws);
	if (l.nws == 2) {
		CHECK_STR(l.ws[0].path, "", "root path");
		CHECK(l.ws[0].ndeps == 2 && l.ws[0].deps[1].group == 1, "root deps");
		CHECK_STR(l.ws[1].name, "@s/w", "workspace name");
		CHECK_STR(l.ws[1].version, "1.2.0", "workspace version");
		CHECK(l.ws[1].ndeps == 1 && !strcmp(l.ws[1].deps[0].spec, "2"), "w deps");
	}
	bun_lock_release(&l);
}

/* What bun does not install here: a libc it rules out (glibc on Linux),
 * what only a disabled package reaches (Tree.zig skips its subtree),
 * what only an optional peer reaches; with the isolated linker, bun.lock's
 * resolution of a peer the package's users provide. */
static void reach(void)
{
	static const char text[] =
		"{\n"
		"  \"lockfileVersion\": 1,\n"
		"  \"workspaces\": {\n"
		"    \"\": { \"dependencies\": { \"r\": \"1\", \"x\": \"1\", \"lr\": \"1\" } },\n"
		"  },\n"
		"  \"packages\": {\n"
		"    \"r\": [\"r@1.0.0\", \"\", { \"optionalDependencies\": { \"wasm\": \"1\", \"musl\": \"1\", \"gnu\": \"1\" }, \"peerDependencies\": { \"op\": \"1\" }, \"optionalPeers\": [\"op\"] }, \"s\"],\n"
		"    \"wasm\": [\"wasm@1.0.0\", \"\", { \"dependencies\": { \"rt\": \"1\", \"x\": \"1\" }, \"cpu\": \"none\" }, \"s\"],\n"
		"    \"rt\": [\"rt@1.0.0\", \"\", {}, \"s\"],\n"
		"    \"x\": [\"x@1.0.0\", \"\", {}, \"s\"],\n"
		"    \"musl\": [\"musl@1.0.0\", \"\", { \"os\": \"linux\", \"libc\": \"musl\" }, \"s\"],\n"
		"    \"gnu\": [\"gnu@1.0.0\", \"\", { \"os\": \"linux\", \"libc\": [\"glibc\"] }, \"s\"],\n"
		"    \"op\": [\"op@1.0.0\", \"\", {}, \"s\"],\n"
		"    \"lr\": [\"lr@1.0.0\", \"\", { \"peerDependencies\": { \"x\": \"^0.9\" } }, \"s\"],\n"
		"    \"lr/x\": [\"x@0.9.0\", \"\", {}, \"s\"],\n"
		"  }\n"
		"}\n";
	const struct bun_platform here = { "linux", "x64", "glibc" };
	struct bun_lock l;
	struct parse_error e;
	size_t i;
	static const struct {
		const char *key;
		int other, only;
	} want[] = {
		{ "r", 0, 0 }, { "wasm", 1, 0 }, { "rt", 0, 1 }, { "x", 0, 0 },
		{ "musl", 1, 0 }, { "gnu", 0, 0 }, { "op", 0, 1 }, { "lr", 0, 0 }, { "lr/x", 0, 0 },
	};

	CHECK(deps_bun_parse(text, sizeof(text) - 1, &here, &l, &e) == 0, "%u:%u %s", e.line,
	      e.col, e.msg);
	CHECK(l.npkgs == sizeof(want) / sizeof(want[0]), "%zu packages", l.npkgs);
	for (i = 0; i < l.npkgs && i < sizeof(want) / sizeof(want[0]); i++) {
		CHECK_STR(l.pkgs[i].key, want[i].key, "key %zu", i);
		CHECK(l.pkgs[i].other_platform == want[i].other, "%s: other %d", l.pkgs[i].key,
		      l.pkgs[i].other_platform);
		CHECK(l.pkgs[i].platform_only == want[i].only, "%s: unreached %d", l.pkgs[i].key,
		      l.pkgs[i].platform_only);
	}
	/* users: lr's of the root workspace, lr/x's of lr */
	CHECK(l.npkgs == 9 && l.pkgs[8].nusers == 1 && l.pkgs[8].users[0] == 7, "lr/x users");
	/* the isolated linker: lr's peer x comes from the root, which has x */
	l.isolated = 1;
	deps_bun_dev_only(&l);
	CHECK(l.npkgs == 9 && l.pkgs[8].platform_only && !l.pkgs[3].platform_only,
	      "isolated: lr/x unreached %d, x %d", l.pkgs[8].platform_only, l.pkgs[3].platform_only);
	bun_lock_release(&l);
}

static void installed(void)
{
	static const struct {
		const char *found, *want;
		int ok;
	} rows[] = {
		{ "1.0.0", "1.0.0", 1 },
		{ "1.0.0+build.5", "1.0.0", 1 },	/* build tags left out */
		{ "1.0.0", "1.0.0+sha", 1 },
		{ "v1.0.0", "1.0.0", 1 },		/* leading v, =, blanks */
		{ " =v1.0.0", "1.0.0", 1 },
		{ "v1.0.0+b", "1.0.0", 0 },		/* both at once: bun says no */
		{ "1.0.1", "1.0.0", 0 },
		{ "vvv", "1.0.0", 0 },
		{ "", "1.0.0", 0 },
	};
	size_t i;
	char *name, *version;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		CHECK(deps_bun_version_matches(rows[i].found, rows[i].want) == rows[i].ok,
		      "row %zu: %s against %s", i, rows[i].found, rows[i].want);
	CHECK(deps_bun_package_json("{'name': 'a', version: 1}", 25, &name, &version) == -1,
	      "bun refuses an unquoted key");
	CHECK(deps_bun_package_json("{\"name\": \"a\", // c\n \"version\": \"1.0.0\",}", 40,
				    &name, &version) == 0 && name && version &&
	      !strcmp(name, "a") && !strcmp(version, "1.0.0"), "package.json read");
	free(name);
	free(version);
}

/* package.json against bun.lock, as bun 1.4.5's frozen install answered
 * each row (deps_bun.sh makes the same states with the real bun). */
static void manifests(void)
{
	static const char lock_text[] =
		"{\"lockfileVersion\": 1, \"workspaces\": {\n"
		" \"\": {\"name\": \"app\", \"dependencies\": {\"is-odd\": \"^3.0.1\"},"
		" \"devDependencies\": {\"t\": \"file:../t.tgz\"}},\n"
		" \"packages/w\": {\"name\": \"w\", \"version\": \"1.0.0\","
		" \"dependencies\": {\"b\": \"2\"}}},\n"
		"\"packages\": {\"is-odd\": [\"is-odd@3.0.1\", \"\", {}, \"s\"],"
		" \"t\": [\"t@../t.tgz\", {}, \"s\"], \"w\": [\"w@workspace:packages/w\"],"
		" \"w/b\": [\"b@2.0.0\", \"\", {}, \"s\"]}}";
	static const struct {
		size_t ws;
		const char *pkg;
		int stale;
	} rows[] = {
		{ 0, "{\"name\": \"app\", \"dependencies\": {\"is-odd\": \"^3.0.1\"}, \"devDependencies\": {\"t\": \"file:../t.tgz\"}}", 0 },
		{ 0, "{\"name\": \"app2\", \"version\": \"9.0.0\", \"dependencies\": {\"is-odd\": \"^3.0.1\"}, \"devDependencies\": {\"t\": \"file:../t.tgz\"}}", 0 },
		{ 0, "{\"dependencies\": {\"is-odd\": \"^3.0.0\"}, \"devDependencies\": {\"t\": \"file:../t.tgz\"}}", 0 },
		{ 0, "{\"dependencies\": {\"is-odd\": \"3.0.1\"}, \"devDependencies\": {\"t\": \"file:../t.tgz\"}}", 0 },
		{ 0, "{\"dependencies\": {\"is-odd\": \"latest\"}, \"devDependencies\": {\"t\": \"file:../t.tgz\"}}", 0 },
		{ 0, "{\"dependencies\": {\"is-odd\": \"npm:is-odd@^3\"}, \"devDependencies\": {\"t\": \"file:../t.tgz\"}}", 0 },
		{ 0, "{\"dependencies\": {\"is-odd\": \"^3.0.2\"}, \"devDependencies\": {\"t\": \"file:../t.tgz\"}}", 1 },
		{ 0, "{\"dependencies\": {\"is-odd\": \"npm:is-even@^3\"}, \"devDependencies\": {\"t\": \"file:../t.tgz\"}}", 1 },
		{ 0, "{\"dependencies\": {\"is-odd\": \"^3.0.1\", \"x\": \"1\"}, \"devDependencies\": {\"t\": \"file:../t.tgz\"}}", 1 },
		{ 0, "{\"dependencies\": {\"is-odd\": \"^3.0.1\"}}", 1 },
		{ 0, "{\"dependencies\": {\"is-odd\": \"^3.0.1\", \"t\": \"file:../t.tgz\"}}", 0 },
		{ 0, "{\"dependencies\": {\"is-odd\": \"^3.0.1\"}, \"optionalDependencies\": {\"t\": \"file:../t.tgz\"}, \"peerDependencies\": {\"p\": \"*\"}}", 0 },
		{ 0, "{\"dependencies\": {\"is-odd\": \"^3.0.1\"}, \"devDependencies\": {\"t\": \"file:../t2.tgz\"}}", 1 },
		{ 1, "{\"name\": \"w\", \"version\": \"1.1.0\", \"dependencies\": {\"b\": \"2\"}}", 0 },
		{ 1, "{\"name\": \"w\", \"dependencies\": {\"b\": \"^2.0.0\"}}", 0 },
		{ 1, "{\"name\": \"w\", \"dependencies\": {\"b\": \"^3\"}}", 1 },
		{ 1, "{\"name\": \"w2\", \"dependencies\": {\"b\": \"2\"}}", 1 },
	};
	struct bun_lock l;
	struct parse_error e;
	size_t i;

	CHECK(deps_bun_parse(lock_text, sizeof(lock_text) - 1, NULL, &l, &e) == 0, "%u:%u %s",
	      e.line, e.col, e.msg);
	for (i = 0; l.nws == 2 && i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct bun_workspace m;
		struct buf why = BUF_INIT;
		char *linker;
		int got;

		CHECK(deps_bun_manifest(rows[i].pkg, strlen(rows[i].pkg), &m, &linker, &e) == 0,
		      "row %zu parses: %s", i, e.msg);
		got = deps_bun_manifest_stale(&l, rows[i].ws, &m, &why);
		CHECK(got == rows[i].stale && (!got || why.len), "row %zu: stale %d (%s)", i, got,
		      buf_str(&why));
		bun_workspace_release(&m);
		free(linker);
		buf_release(&why);
	}
	/* is-odd moved to devDependencies (no change to bun.lock): dev-only
	 * once the groups are package.json's */
	if (l.nws == 2) {
		static const char moved[] = "{\"devDependencies\": {\"is-odd\": \"^3.0.1\", \"t\": \"file:../t.tgz\"}}";
		struct bun_workspace m;
		char *linker;

		CHECK(!l.pkgs[0].dev_only && l.pkgs[1].dev_only, "before: is-odd %d, t %d",
		      l.pkgs[0].dev_only, l.pkgs[1].dev_only);
		CHECK(deps_bun_manifest(moved, sizeof(moved) - 1, &m, &linker, &e) == 0, "moved");
		deps_bun_regroup(&l.ws[0], &m);
		deps_bun_dev_only(&l);
		CHECK(l.pkgs[0].dev_only && !l.pkgs[3].dev_only, "after: is-odd %d, w/b %d",
		      l.pkgs[0].dev_only, l.pkgs[3].dev_only);
		bun_workspace_release(&m);
		free(linker);
	}
	bun_lock_release(&l);
}

void test_main(void)
{
	manifests();
	dialect();
	rules();
	packages();
	reach();
	installed();
}
