/* test_deps_pnpm.c - pnpm's files as deps_pnpm.h reads them: the documents
 * of pnpm-lock.yaml (pnpm 11's env document first), ids split, importers
 * of lockfile versions 5, 6 and 9, .modules.yaml, satisfiesPackageManifest
 * and depPathToFilename, one row a case. */
#include "test.h"
#include "deps_pnpm.h"
#include "deps.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

#define V9_MAIN \
	"lockfileVersion: '9.0'\n" \
	"settings:\n  autoInstallPeers: true\n  excludeLinksFromLockfile: false\n" \
	"importers:\n  .:\n    dependencies:\n      is-odd:\n        specifier: ^3.0.1\n" \
	"        version: 3.0.1\n" \
	"packages:\n  is-odd@3.0.1:\n    resolution: {integrity: x}\n" \
	"snapshots:\n  is-odd@3.0.1: {}\n"
#define V9_ENV \
	"---\nlockfileVersion: '9.0'\nimporters:\n  .:\n    configDependencies:\n" \
	"      is-number:\n        specifier: 7.0.0\n        version: 7.0.0\n" \
	"packages:\n  is-number@7.0.0:\n    resolution: {integrity: y}\n" \
	"snapshots:\n  is-number@7.0.0: {}\n"

static void documents(void)
{
	static const struct {
		const char *text;
		int rc;
		const char *key;	/* a package it must hold */
		unsigned line;		/* of the error */
		const char *msg;	/* its start */
	} rows[] = {
		{ V9_MAIN, 0, "is-odd@3.0.1", 0, NULL },
		/* pnpm 11: the env document, then the project's */
		{ V9_ENV "---\n" V9_MAIN, 0, "is-odd@3.0.1", 0, NULL },
		{ "\xef\xbb\xbf" V9_ENV "---\n" V9_MAIN, 0, "is-odd@3.0.1", 0, NULL },
		/* three: pnpm refuses the file */
		{ V9_ENV "---\n" V9_MAIN "---\nfoo: 1\n", -1, NULL, 30, "a third YAML document" },
		/* two without the env document */
		{ V9_MAIN "---\nfoo: 1\n", -1, NULL, 16, "a second YAML document" },
		/* the env document alone */
		{ V9_ENV, -1, NULL, 1, "pnpm's env document alone" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct pnpm_lock l;
		struct parse_error e;
		int rc = deps_pnpm_lock(rows[i].text, strlen(rows[i].text), &l, &e);

		CHECK_INT(rc, rows[i].rc, "documents row %zu (%s)", i, e.msg);
		if (rc == 0) {
			CHECK(dep_set_get(&l.pkgs, rows[i].key) != NULL, "row %zu: %s", i, rows[i].key);
			CHECK(!dep_set_get(&l.pkgs, "is-number@7.0.0"), "row %zu: env's not read", i);
			CHECK(l.nimp == 1 && l.imp[0].n == 1, "row %zu: one importer", i);
		} else {
			CHECK_INT(e.line, rows[i].line, "row %zu: the line", i);
			CHECK(!strncmp(e.msg, rows[i].msg, strlen(rows[i].msg)), "row %zu: %s", i, e.msg);
		}
		pnpm_lock_release(&l);
	}
}

static void ids(void)
{
	static const struct {
		const char *lock;
		const char *key, *name, *version;
	} rows[] = {
		{ "lockfileVersion: '9.0'\nsnapshots:\n  react-dom@18.2.0(react@18.2.0): {}\n",
		  "react-dom@18.2.0(react@18.2.0)", "react-dom", "18.2.0" },
		{ "lockfileVersion: '9.0'\nsnapshots:\n  '@s/a@1.0.0(b@2.0.0)(c@3.0.0)': {}\n",
		  "@s/a@1.0.0(b@2.0.0)(c@3.0.0)", "@s/a", "1.0.0" },
		{ "lockfileVersion: '9.0'\nsnapshots:\n  a@git+ssh://git@host/x.git#abc: {}\n",
		  "a@git+ssh://git@host/x.git#abc", "a", "git+ssh://git@host/x.git#abc" },
		{ "lockfileVersion: '6.0'\npackages:\n  /@babel/core@7.24.0:\n    dev: true\n",
		  "@babel/core@7.24.0", "@babel/core", "7.24.0" },
		/* v6 file: ids say their name apart */
		{ "lockfileVersion: '6.0'\npackages:\n  file:../a-1.0.0.tgz:\n    name: tiny-a\n"
		  "    version: 1.0.0\n", "file:../a-1.0.0.tgz", "tiny-a", "1.0.0" },
		{ "lockfileVersion: 5.4\npackages:\n  /react-dom/18.2.0_react@18.2.0:\n    dev: false\n",
		  "react-dom/18.2.0_react@18.2.0", "react-dom", "18.2.0" },
		{ "lockfileVersion: 5.4\npackages:\n  /@types/node/20.1.0:\n    dev: true\n",
		  "@types/node/20.1.0", "@types/node", "20.1.0" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct dep_set s = DEP_SET_INIT;
		struct parse_error e;
		const struct dep *d;

		CHECK(deps_pnpm_parse(rows[i].lock, strlen(rows[i].lock), &s, &e) == 0,
		      "ids row %zu: %s", i, e.msg);
		d = dep_set_get(&s, rows[i].key);
		CHECK(d && !strcmp(d->name, rows[i].name), "ids row %zu: name %s", i,
		      d ? d->name : "(none)");
		if (d && rows[i].version)
			CHECK_STR(d->version, rows[i].version, "ids row %zu: version", i);
		dep_set_release(&s);
	}
}

static void importers(void)
{
	static const char v6[] =
		"lockfileVersion: '6.0'\nsettings:\n  autoInstallPeers: true\n"
		"dependencies:\n  a:\n    specifier: ^1.0.0\n    version: 1.0.1\n"
		"devDependencies:\n  b:\n    specifier: file:../b.tgz\n    version: file:../b.tgz\n";
	static const char v5[] =
		"lockfileVersion: 5.4\nimporters:\n  .:\n    specifiers:\n      a: ^1.0.0\n"
		"    dependencies:\n      a: 1.0.1\n  packages/w:\n    specifiers:\n      a: ^1.0.0\n"
		"    dependencies:\n      a: link:../a\n";
	static const char v9[] =
		"lockfileVersion: '9.0'\nimporters:\n  .: {}\n  packages/a:\n    dependencies:\n"
		"      b:\n        specifier: workspace:*\n        version: link:../b\n"
		"      s:\n        specifier: npm:string-width@^4\n        version: string-width@4.2.3\n"
		"      r:\n        specifier: ^18\n        version: 18.2.0(react@18.2.0)\n";
	struct pnpm_lock l;
	struct parse_error e;
	const struct pnpm_importer *imp;
	char *id;

	CHECK(deps_pnpm_lock(v6, sizeof(v6) - 1, &l, &e) == 0, "v6: %s", e.msg);
	imp = pnpm_lock_importer(&l, ".");
	CHECK(imp && imp->n == 2, "v6: the top-level importer");
	CHECK(l.auto_install_peers == 1 && l.exclude_links == -1 && l.major == 6, "v6 settings");
	if (imp && imp->n == 2) {
		CHECK(!strcmp(imp->v[0].spec, "^1.0.0") && !strcmp(imp->v[0].ref, "1.0.1") &&
		      imp->v[0].field == PNPM_DEPS, "v6: a");
		CHECK(imp->v[1].field == PNPM_DEV, "v6: b dev");
		id = pnpm_ref_id(&l, "b", imp->v[1].ref);
		CHECK_STR(id, "file:../b.tgz", "v6: a file: id");
		free(id);
		id = pnpm_ref_id(&l, "a", imp->v[0].ref);
		CHECK_STR(id, "a@1.0.1", "v6: a registry id");
		free(id);
	}
	pnpm_lock_release(&l);

	CHECK(deps_pnpm_lock(v5, sizeof(v5) - 1, &l, &e) == 0, "v5: %s", e.msg);
	CHECK_INT(l.nimp, 2, "v5: two importers");
	imp = pnpm_lock_importer(&l, "packages/w");
	CHECK(imp && imp->n == 2, "v5: specifiers and dependencies apart");
	id = imp ? pnpm_ref_id(&l, "a", imp->v[1].ref) : NULL;
	CHECK(!id, "v5: link: has no id");
	free(id);
	pnpm_lock_release(&l);

	CHECK(deps_pnpm_lock(v9, sizeof(v9) - 1, &l, &e) == 0, "v9: %s", e.msg);
	imp = pnpm_lock_importer(&l, "packages/a");
	CHECK(imp && imp->n == 3 && pnpm_lock_importer(&l, "."), "v9: importers");
	if (imp && imp->n == 3) {
		id = pnpm_ref_id(&l, "s", imp->v[1].ref);
		CHECK_STR(id, "string-width@4.2.3", "v9: an npm: alias");
		free(id);
		id = pnpm_ref_id(&l, "r", imp->v[2].ref);
		CHECK_STR(id, "r@18.2.0(react@18.2.0)", "v9: peers");
		free(id);
	}
	pnpm_lock_release(&l);
}

static void satisfies(void)
{
	static const char lock[] =
		"lockfileVersion: '9.0'\nsettings:\n  autoInstallPeers: true\n"
		"importers:\n  .:\n    dependencies:\n      a:\n        specifier: ^1.0.0\n"
		"        version: 1.0.1\n    devDependencies:\n      b:\n        specifier: ^2.0.0\n"
		"        version: 2.0.0\n";
	static const struct {
		const char *manifest;
		int ok;
		const char *field, *name;
	} rows[] = {
		{ "{\"dependencies\":{\"a\":\"^1.0.0\"},\"devDependencies\":{\"b\":\"^2.0.0\"}}", 1,
		  NULL, NULL },
		/* scripts, version: not dependencies */
		{ "{\"version\":\"9.9.9\",\"scripts\":{\"t\":\"x\"},\"dependencies\":{\"a\":\"^1.0.0\"},"
		  "\"devDependencies\":{\"b\":\"^2.0.0\"}}", 1, NULL, NULL },
		/* a peer also a dev dependency: the dev spec counts */
		{ "{\"dependencies\":{\"a\":\"^1.0.0\"},\"devDependencies\":{\"b\":\"^2.0.0\"},"
		  "\"peerDependencies\":{\"b\":\"^2\"}}", 1, NULL, NULL },
		{ "{\"dependencies\":{\"a\":\"^1.1.0\"},\"devDependencies\":{\"b\":\"^2.0.0\"}}", 0,
		  NULL, "a" },
		{ "{\"dependencies\":{\"a\":\"^1.0.0\"}}", 0, NULL, "b" },
		{ "{\"dependencies\":{\"a\":\"^1.0.0\",\"c\":\"1\"},\"devDependencies\":{\"b\":\"^2.0.0\"}}",
		  0, NULL, "c" },
		/* moved to another field, same spec */
		{ "{\"dependencies\":{\"a\":\"^1.0.0\",\"b\":\"^2.0.0\"}}", 0, "dependencies", "b" },
		/* a peer alone, with autoInstallPeers: a dependency to lock */
		{ "{\"dependencies\":{\"a\":\"^1.0.0\"},\"devDependencies\":{\"b\":\"^2.0.0\"},"
		  "\"peerDependencies\":{\"p\":\"^3\"}}", 0, NULL, "p" },
	};
	struct pnpm_lock l;
	struct parse_error e;
	size_t i;

	CHECK(deps_pnpm_lock(lock, sizeof(lock) - 1, &l, &e) == 0, "satisfies lock: %s", e.msg);
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct pnpm_manifest m;
		struct pnpm_mismatch why;
		int ok;

		CHECK(deps_pnpm_manifest(rows[i].manifest, strlen(rows[i].manifest), &m) == 0,
		      "satisfies row %zu: manifest", i);
		ok = deps_pnpm_satisfies(&l, &l.imp[0], &m, &why);
		CHECK_INT(ok, rows[i].ok, "satisfies row %zu", i);
		if (!ok && rows[i].name)
			CHECK(why.name && !strcmp(why.name, rows[i].name), "satisfies row %zu: %s", i,
			      why.name ? why.name : "(none)");
		if (!ok && rows[i].field)
			CHECK(why.field && !strcmp(why.field, rows[i].field), "satisfies row %zu: field",
			      i);
		pnpm_manifest_release(&m);
	}
	pnpm_lock_release(&l);
}

static void dirnames(void)
{
	static const struct {
		const char *id, *dir;	/* NULL: shortened with a hash */
	} rows[] = {
		{ "is-odd@3.0.1", "is-odd@3.0.1" },
		{ "@babel/core@7.24.0", "@babel+core@7.24.0" },
		{ "react-dom@18.2.0(react@18.2.0)", "react-dom@18.2.0_react@18.2.0" },
		{ "a@1.0.0(b@2.0.0)(c@3.0.0)", "a@1.0.0_b@2.0.0_c@3.0.0" },
		{ "file:../src/tiny-a-1.0.0.tgz", "file+..+src+tiny-a-1.0.0.tgz" },
		{ "tiny-a@file:../src/tiny-a-1.0.0.tgz", "tiny-a@file+..+src+tiny-a-1.0.0.tgz" },
		{ "/is-odd@3.0.1", "is-odd@3.0.1" },
		{ "JSONStream@1.3.5", NULL },
		{ "a@1.0.0(b@1.0.0)(c@1.0.0)(d@1.0.0)(e@1.0.0)(f@1.0.0)(g@1.0.0)(h@1.0.0)(i@1.0.0)"
		  "(j@1.0.0)(k@1.0.0)(l@1.0.0)(m@1.0.0)(n@1.0.0)(o@1.0.0)(p@1.0.0)(q@1.0.0)", NULL },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		char *d = pnpm_dep_dirname(rows[i].id, 120);

		if (rows[i].dir)
			CHECK_STR(d, rows[i].dir, "dirname row %zu", i);
		else
			CHECK(!d, "dirname row %zu: hashed", i);
		free(d);
	}
}

static void modules(void)
{
	static const char pnpm8[] =
		"included:\n  dependencies: true\n  devDependencies: false\n"
		"  optionalDependencies: true\nnodeLinker: isolated\npackageManager: pnpm@8.15.9\n"
		"skipped:\n  - /fsevents/2.3.3\nvirtualStoreDir: .pnpm\n";
	static const char pnpm12[] =
		"{\"included\":{\"dependencies\":true},\"skipped\":[\"mac-only@file:../m.tgz\"],"
		"\"virtualStoreDir\":\".pnpm\",\"virtualStoreDirMaxLength\":120}";
	struct pnpm_modules m;
	struct parse_error e;

	CHECK(deps_pnpm_modules_read(pnpm8, sizeof(pnpm8) - 1, &m, &e) == 0, "modules 8");
	CHECK(m.included[PNPM_DEPS] == 1 && m.included[PNPM_DEV] == 0, "included");
	CHECK_STR(m.node_linker, "isolated", "nodeLinker");
	/* pnpm 8 writes a v5 id here beside a v6 lockfile: both spellings */
	CHECK(dep_set_get(&m.skipped, "fsevents@2.3.3") && dep_set_get(&m.skipped, "fsevents/2.3.3"),
	      "skipped, both spellings");
	pnpm_modules_release(&m);
	CHECK(deps_pnpm_modules_read(pnpm12, sizeof(pnpm12) - 1, &m, &e) == 0, "modules 12");
	CHECK(dep_set_get(&m.skipped, "mac-only@file:../m.tgz") && m.max_length == 120 &&
	      m.included[PNPM_DEV] == -1, "pnpm 12's JSON");
	CHECK_STR(m.virtual_store_dir, ".pnpm", "virtualStoreDir");
	pnpm_modules_release(&m);
}

void test_main(void)
{
	documents();
	ids();
	importers();
	satisfies();
	dirnames();
	modules();
}
