/* spec_package.c - package.json: engines, devEngines, packageManager,
 * volta.
 *
 * cJSON validates and reads the document; it keeps no positions, so
 * json_locate() walks the (already valid) text once more to find the line
 * of each key we take a requirement from.
 */
#include "specfile.h"
#include "saferead.h"
#include "versions.h"
#include "ytree.h"

#include <cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const files[] = { "package.json", NULL };

/* engines the runtimes probe knows how to ask */
static const char *const engine_names[] = { "node", "npm", "pnpm", "yarn", "bun", NULL };

static size_t skip_ws(const char *s, size_t len, size_t i)
{
	while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
		i++;
	return i;
}

/* Index just past the string starting at s[i] == '"'. */
static size_t skip_string(const char *s, size_t len, size_t i)
{
	for (i++; i < len && s[i] != '"'; i++)
		if (s[i] == '\\')
			i++;
	return i + 1;
}

/* Index just past the value starting at s[i]; nesting handled with a
 * counter, not recursion. */
static size_t skip_value(const char *s, size_t len, size_t i)
{
	size_t depth = 0;

	do {
		i = skip_ws(s, len, i);
		if (i >= len)
			return len;
		if (s[i] == '"') {
			i = skip_string(s, len, i);
		} else if (s[i] == '{' || s[i] == '[') {
			depth++;
			i++;
		} else if (s[i] == '}' || s[i] == ']') {
			depth--;
			i++;
		} else if (depth && (s[i] == ',' || s[i] == ':')) {
			i++;
		} else {
			while (i < len && !strchr(",}] \t\r\n", s[i]))
				i++;
		}
	} while (depth && i < len);
	return i;
}

long json_locate(const char *s, size_t len, const char *const *path, size_t depth)
{
	size_t i = skip_ws(s, len, 0), d;

	for (d = 0; d < depth; d++) {
		size_t want = strlen(path[d]);
		int found = 0;

		if (i >= len || s[i] != '{')
			return -1;
		i = skip_ws(s, len, i + 1);
		while (i < len && s[i] == '"') {
			size_t key = i, end = skip_string(s, len, i);

			i = skip_ws(s, len, end);
			i = skip_ws(s, len, i + 1);	/* the ':' */
			if (end - key - 2 == want && !memcmp(s + key + 1, path[d], want)) {
				if (d + 1 == depth)
					return (long)key;
				found = 1;
				break;
			}
			i = skip_ws(s, len, skip_value(s, len, i));
			if (i < len && s[i] == ',')
				i = skip_ws(s, len, i + 1);
		}
		if (!found)
			return -1;
	}
	return -1;
}

size_t json_items(const char *s, size_t len, size_t key, size_t *offs,
		  size_t max)
{
	size_t i = skip_ws(s, len, skip_string(s, len, key)), n = 0;

	i = skip_ws(s, len, i + 1);	/* the ':' */
	if (i >= len || s[i] != '[')
		return 0;
	i = skip_ws(s, len, i + 1);
	while (i < len && s[i] != ']') {
		if (n < max)
			offs[n] = i;
		n++;
		i = skip_ws(s, len, skip_value(s, len, i));
		if (i < len && s[i] == ',')
			i = skip_ws(s, len, i + 1);
	}
	return n < max ? n : max;
}

/* How many arrays and objects are open just before s[off] (strings
 * skipped), for telling cJSON's depth limit from a syntax error. */
static size_t json_depth_at(const char *s, size_t len, size_t off)
{
	size_t i, depth = 0;

	for (i = 0; i < off && i < len; i++) {
		if (s[i] == '"')
			i = skip_string(s, len, i) - 1;
		else if (s[i] == '{' || s[i] == '[')
			depth++;
		else if ((s[i] == '}' || s[i] == ']') && depth)
			depth--;
	}
	return depth;
}

static struct origin locate(const char *file, const struct blob *b,
			    const char *const *path, size_t depth)
{
	struct origin o = { file, 0, 0 };
	long off = json_locate(b->data, b->len, path, depth);

	if (off >= 0)
		text_pos(b->data, b->len, (size_t)off, &o.line, &o.col);
	return o;
}

static int load_engines(struct spec *spec, const char *file, const struct blob *b,
			const cJSON *engines, struct errbuf *err)
{
	const char *path[2] = { "engines", NULL };
	const char *const *name;

	if (!cJSON_IsObject(engines)) {
		struct origin o = locate(file, b, path, 1);

		spec_error(err, file, o.line, o.col, "'engines' expects an object");
		return -1;
	}
	for (name = engine_names; *name; name++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(engines, *name);
		struct origin o;

		if (!v)
			continue;
		path[1] = *name;
		o = locate(file, b, path, 2);
		if (!cJSON_IsString(v)) {
			spec_error(err, file, o.line, o.col,
				   "'engines.%s' expects a version range string", *name);
			return -1;
		}
		spec_add_runtime(spec, SRC_ENGINES, *name, v->valuestring, REQ_SEMVER, o);
	}
	return 0;
}

/* ---- what a packageManager pin makes of another version ----
 *
 * pnpm (pnpm/src/main.ts checkPackageManager, v9.2 to v10): another pnpm
 * version goes on unless package-manager-strict-version is true (then
 * an error, or a warning when package-manager-strict is false); pnpm 10
 * with manage-package-manager-versions (its default) even switches to the
 * pinned version itself.  pnpm 11 replaces these with pmOnFail (download,
 * the default, error, warn, ignore).  Read from the repository's .npmrc
 * and pnpm-workspace.yaml; the user's own ~/.npmrc is not read.
 * npm does not look at packageManager at all: only corepack, once
 * `corepack enable npm` shims npm, runs exactly the pinned version. */

struct pnpm_cfg {
	int strict;		/* package-manager-strict: -1 unset, 0, 1 */
	int strict_version;	/* package-manager-strict-version */
	int manage;		/* manage-package-manager-versions */
	char on_fail[16];	/* pmOnFail, or "" */
	unsigned line;		/* where the deciding one was set */
	const char *file;
};

/* "true"/"false" into *out; anything else leaves it. */
static void cfg_bool(const char *v, size_t n, int *out)
{
	if (n == 4 && !memcmp(v, "true", 4))
		*out = 1;
	else if (n == 5 && !memcmp(v, "false", 5))
		*out = 0;
}

static int key_eq(const char *k, size_t n, const char *kebab, const char *camel)
{
	return (strlen(kebab) == n && !memcmp(k, kebab, n)) ||
	       (strlen(camel) == n && !memcmp(k, camel, n));
}

static void pnpm_setting(struct pnpm_cfg *c, const char *k, size_t kn,
			 const char *v, size_t vn, const char *file, unsigned line)
{
	int hit = 1;

	if (key_eq(k, kn, "package-manager-strict", "packageManagerStrict"))
		cfg_bool(v, vn, &c->strict);
	else if (key_eq(k, kn, "package-manager-strict-version",
			"packageManagerStrictVersion"))
		cfg_bool(v, vn, &c->strict_version);
	else if (key_eq(k, kn, "pm-on-fail", "pmOnFail") && vn < sizeof(c->on_fail))
		memcpy(c->on_fail, v, vn), c->on_fail[vn] = '\0';
	else if (key_eq(k, kn, "manage-package-manager-versions",
			"managePackageManagerVersions")) {
		cfg_bool(v, vn, &c->manage);
		hit = 0;	/* it decides no severity: not the rule's place */
	} else {
		hit = 0;
	}
	if (hit) {
		c->file = file;
		c->line = line;
	}
}

/* .npmrc and pnpm-workspace.yaml are read for a few settings only, and
 * skipped when they cannot be: read as spec files are (inside the
 * repository, a regular file under the cap), but any bytes. */
static const struct saferead_policy repo_settings = {
	SAFEREAD_BENEATH, SAFEREAD_BYTES, SPEC_FILE_CAP
};

/* .npmrc: "key = value" lines, ';' and '#' comments (npm's ini). */
static void pnpm_npmrc(struct spec *spec, struct pnpm_cfg *c)
{
	struct blob b;
	const char *p;
	unsigned line = 0;

	if (saferead_file(&repo_settings, spec->root, ".npmrc", &b, NULL) < 0)
		return;
	for (p = b.data; p < b.data + b.len;) {
		size_t n = strcspn(p, "\n"), kn, vn;
		const char *eq = memchr(p, '=', n), *k = p, *v;

		line++;
		if (eq && *p != ';' && *p != '#') {
			kn = (size_t)(eq - p);
			v = eq + 1;
			vn = n - kn - 1;
			while (kn && strchr(" \t", k[kn - 1]))
				kn--;
			while (kn && strchr(" \t", *k))
				k++, kn--;
			while (vn && strchr(" \t", *v))
				v++, vn--;
			while (vn && strchr(" \t\r", v[vn - 1]))
				vn--;
			pnpm_setting(c, k, kn, v, vn, ".npmrc", line);
		}
		p += n + 1;
	}
	blob_release(&b);
}

/* pnpm-workspace.yaml's top-level settings (pnpm 10 and 11). */
static void pnpm_workspace(struct spec *spec, struct pnpm_cfg *c)
{
	struct ynode *root = NULL;
	struct parse_error err;
	struct blob b;
	size_t i;

	if (saferead_file(&repo_settings, spec->root, "pnpm-workspace.yaml", &b,
			  NULL) < 0)
		return;
	if (ytree_parse(b.data, b.len, YTREE_MAX_NODES, &root, &err) == 0) {
		for (i = 0; root && root->kind == YNODE_MAP && i + 1 < root->n; i += 2) {
			const struct ynode *k = root->items[i], *v = root->items[i + 1];

			if (k->kind == YNODE_SCALAR && v->kind == YNODE_SCALAR)
				pnpm_setting(c, k->text, strlen(k->text), v->text,
					     strlen(v->text), "pnpm-workspace.yaml",
					     k->line);
		}
	}
	ynode_free(root);
	blob_release(&b);
}

/* Set r->unmet from the manager's own rule for another version. */
static void pin_severity(struct spec *spec, struct runtime_req *r)
{
	struct pnpm_cfg c = { -1, -1, -1, "", 0, NULL };
	char rule[240];

	if (!strcmp(r->name, "npm")) {
		r->unmet = SEV_WARN;
		r->unmet_rule = "npm does not enforce packageManager: only "
				"corepack, once 'corepack enable npm' shims npm, runs "
				"exactly the pinned version";
		return;
	}
	if (!strcmp(r->name, "bun")) {
		/* bun 1.4.5's install and run go on, silently, under
		 * packageManager "bun@1.0.0" (tried: tests/managers' bun) */
		r->unmet = SEV_WARN;
		r->unmet_rule = "bun does not enforce packageManager (corepack does "
				"not manage bun): another version runs the project";
		return;
	}
	if (strcmp(r->name, "pnpm"))
		return;		/* yarn 1.22.20+ and corepack refuse another */
	pnpm_npmrc(spec, &c);
	pnpm_workspace(spec, &c);
	{
		struct pkgmanager pm;
		char why[160];

		if (pkgmanager_parse(r->spec, strlen(r->spec), &pm, why, sizeof(why)) == 0) {
			spec->pnpm_pin = spec_intern(spec, pm.version);
			pkgmanager_release(&pm);
		}
	}
	spec->pnpm_manage = c.manage < 0 ? 0 : c.manage ? 1 : -1;
	memcpy(spec->pnpm_on_fail, c.on_fail, sizeof(spec->pnpm_on_fail));
	if (c.on_fail[0]) {
		r->unmet = !strcmp(c.on_fail, "error") ? SEV_FAIL :
			   !strcmp(c.on_fail, "ignore") ? SEV_SKIP : SEV_WARN;
		snprintf(rule, sizeof(rule), "pmOnFail is '%.15s' in %s:%u (pnpm 11%s)",
			 c.on_fail, c.file, c.line, !strcmp(c.on_fail, "download") ?
			 ": pnpm downloads and runs the pinned version" : "");
	} else if (c.strict_version == 1) {
		r->unmet = c.strict == 0 ? SEV_WARN : SEV_FAIL;
		snprintf(rule, sizeof(rule), "package-manager-strict-version is "
			 "true in %s:%u%s", c.file, c.line, c.strict == 0 ?
			 ", but package-manager-strict is false: pnpm warns" : "");
	} else {
		r->unmet = SEV_WARN;
		snprintf(rule, sizeof(rule), "pnpm 9.2 and later go on with another "
			 "version of pnpm (pnpm 10 switches to the pinned one "
			 "itself) unless package-manager-strict-version is true");
	}
	if (r->unmet != SEV_FAIL)
		r->unmet_rule = spec_intern(spec, rule);
}

/* packageManager "pnpm@9.1.0+sha512..." is kept as written: the runtimes
 * probe validates it, so a bad value is a clear check result. */
static int load_package_manager(struct spec *spec, const char *file,
				const struct blob *b, const cJSON *pm, struct errbuf *err)
{
	static const char *const path[] = { "packageManager" };
	struct origin o = locate(file, b, path, 1);
	const char *at;
	char *name;

	if (!cJSON_IsString(pm)) {
		spec_error(err, file, o.line, o.col, "'packageManager' expects a string");
		return -1;
	}
	at = strchr(pm->valuestring, '@');
	name = xstrndup(pm->valuestring, at && at != pm->valuestring ?
			(size_t)(at - pm->valuestring) : strlen(pm->valuestring));
	pin_severity(spec, spec_add_runtime(spec, SRC_PACKAGE_MANAGER, name,
					    pm->valuestring, REQ_EXACT, o));
	free(name);
	return 0;
}

static int load_volta(struct spec *spec, const char *file, const struct blob *b,
		      const cJSON *volta, struct errbuf *err)
{
	const char *path[2] = { "volta", NULL };
	const cJSON *v;

	if (!cJSON_IsObject(volta)) {
		struct origin o = locate(file, b, path, 1);

		spec_error(err, file, o.line, o.col, "'volta' expects an object");
		return -1;
	}
	cJSON_ArrayForEach(v, volta) {
		const char *const *name;
		struct origin o;

		for (name = engine_names; *name; name++)
			if (v->string && !strcmp(v->string, *name))
				break;
		if (!*name)
			continue;	/* "extends" and friends */
		path[1] = *name;
		o = locate(file, b, path, 2);
		if (!cJSON_IsString(v)) {
			spec_error(err, file, o.line, o.col,
				   "'volta.%s' expects a version string", *name);
			return -1;
		}
		spec_add_runtime(spec, SRC_VOLTA, *name, v->valuestring, REQ_EXACT, o);
	}
	return 0;
}

/* ---- devEngines, as npm 11 enforces it ----
 *
 * npm-install-checks lib/dev-engines.js (checkDevEngines), called by npm's
 * lib/base-cmd.js before install, ci and run: each key is an object or an
 * array of objects {name, version, onFail}; a key fails when every entry
 * fails; the last entry's onFail (default "error"; "download" counts as
 * "error") decides whether that is an error, a warning or ignored.  A
 * version that is a valid semver range is matched with semver.satisfies
 * (no includePrerelease), anything else as exact text.  Whatever
 * checkDevEngines throws on (an unknown key or property, a missing name,
 * a bad onFail) stops npm whatever onFail says: here it is one failed
 * check naming file:line, and the other keys are still checked. */

static const char *const dev_keys[] = { "runtime", "packageManager", "cpu", "os", "libc" };

/* A devEngines key npm would refuse: one failed check named after name
 * (the key, or "devEngines" for the whole field). */
static void dev_problem(struct spec *spec, const char *name, struct origin o,
			const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void dev_problem(struct spec *spec, const char *name, struct origin o,
			const char *fmt, ...)
{
	struct runtime_req *r = spec_add_runtime(spec, SRC_DEV_ENGINES, name, "",
						 REQ_ANY, o);
	va_list ap;

	va_start(ap, fmt);
	r->problem = xvformat(fmt, ap);
	va_end(ap);
}

/* checkDependency's refusals for one entry of key: NULL, or why. */
static const char *dev_entry_bad(const cJSON *dep, const char *key, char *why,
				 size_t n)
{
	static const char *const fail[] = { "ignore", "warn", "error", "download" };
	const cJSON *p, *f, *v;
	size_t i;

	if (!cJSON_IsObject(dep)) {
		snprintf(why, n, "an entry of 'devEngines.%s' is not an object", key);
		return why;
	}
	cJSON_ArrayForEach(p, dep) {
		if (strcmp(p->string, "name") && strcmp(p->string, "version") &&
		    strcmp(p->string, "onFail")) {
			char *q = text_clean(p->string);

			snprintf(why, n, "unknown property '%.40s' in 'devEngines.%s'", q, key);
			free(q);
			return why;
		}
	}
	if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(dep, "name"))) {
		snprintf(why, n, "'devEngines.%s' needs a \"name\" string", key);
		return why;
	}
	f = cJSON_GetObjectItemCaseSensitive(dep, "onFail");
	for (i = 0; f && cJSON_IsString(f) && i < ARRAY_SIZE(fail); i++)
		if (!strcmp(f->valuestring, fail[i]))
			break;
	if (f && (!cJSON_IsString(f) || i == ARRAY_SIZE(fail))) {
		snprintf(why, n, "'onFail' in 'devEngines.%s' must be \"error\", "
			 "\"warn\", \"ignore\" or \"download\"", key);
		return why;
	}
	v = cJSON_GetObjectItemCaseSensitive(dep, "version");
	if (v && !cJSON_IsString(v)) {
		snprintf(why, n, "'version' in 'devEngines.%s' must be a string", key);
		return why;
	}
	if (v && (!strcmp(key, "cpu") || !strcmp(key, "libc"))) {
		snprintf(why, n, "'devEngines.%s' cannot have a version: npm cannot "
			 "tell the version of a %s", key, key);
		return why;
	}
	return NULL;
}

/* The last entry's onFail, as npm takes it. */
static enum req_severity dev_severity(const cJSON *last)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(last, "onFail");

	if (!cJSON_IsString(f))
		return SEV_FAIL;
	return !strcmp(f->valuestring, "warn") ? SEV_WARN :
	       !strcmp(f->valuestring, "ignore") ? SEV_SKIP : SEV_FAIL;
}

static void load_dev_key(struct spec *spec, const char *file, const char *key,
			 const cJSON *val, struct origin o)
{
	const cJSON *deps[64], *d;
	size_t n = 0, i, first = spec->nruntimes;
	int platform = strcmp(key, "runtime") && strcmp(key, "packageManager");
	enum req_severity sev;
	char why[200];

	if (cJSON_IsArray(val)) {
		cJSON_ArrayForEach(d, val) {
			if (n == ARRAY_SIZE(deps)) {
				dev_problem(spec, key, o, "'devEngines.%s' lists more "
					    "than %zu entries", key, ARRAY_SIZE(deps));
				return;
			}
			deps[n++] = d;
		}
		if (!n)
			return;		/* npm skips an empty list */
	} else {
		deps[n++] = val;
	}
	for (i = 0; i < n; i++) {
		if (dev_entry_bad(deps[i], key, why, sizeof(why))) {
			dev_problem(spec, key, o, "%s (npm stops before install, ci "
				    "and run)", why);
			return;
		}
		if (!platform && !spec_name_valid(cJSON_GetObjectItemCaseSensitive(
				deps[i], "name")->valuestring)) {
			dev_problem(spec, key, o, "'devEngines.%s' names no program "
				    "envpreflight could ask", key);
			return;
		}
	}
	sev = dev_severity(deps[n - 1]);
	for (i = 0; i < n; i++) {
		const char *name = cJSON_GetObjectItemCaseSensitive(deps[i], "name")->valuestring;
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(deps[i], "version");
		struct runtime_req *r;

		r = spec_add_runtime(spec, SRC_DEV_ENGINES, platform ? key : name,
				     platform ? name : v ? v->valuestring : "",
				     platform ? REQ_PLATFORM : REQ_DEV_ENGINES, o);
		if (platform && v)
			r->platform_version = xstrdup(v->valuestring);
		r->nalt = 0;
		r->unmet = r->missing = sev;
	}
	spec->runtimes[first].nalt = (unsigned)n;
	if (sev != SEV_FAIL) {
		char rule[160];

		snprintf(rule, sizeof(rule), "npm %s it (onFail \"%s\" in %s:%u)",
			 sev == SEV_WARN ? "only warns about" : "ignores",
			 sev == SEV_WARN ? "warn" : "ignore", file, o.line);
		spec->runtimes[first].unmet_rule = spec_intern(spec, rule);
	}
}

static int load_dev_engines(struct spec *spec, const char *file,
			    const struct blob *b, const cJSON *de)
{
	const char *path[2] = { "devEngines", NULL };
	const cJSON *k;
	size_t i;

	if (!cJSON_IsObject(de)) {
		dev_problem(spec, "devEngines", locate(file, b, path, 1),
			    "'devEngines' must be an object (npm stops before "
			    "install, ci and run)");
		return 0;
	}
	cJSON_ArrayForEach(k, de) {
		struct origin o;

		path[1] = k->string;
		o = locate(file, b, path, 2);
		for (i = 0; i < ARRAY_SIZE(dev_keys); i++)
			if (!strcmp(k->string, dev_keys[i]))
				break;
		if (i == ARRAY_SIZE(dev_keys)) {
			char *q = text_clean(k->string);

			dev_problem(spec, "devEngines", o, "unknown key "
				    "'devEngines.%.40s': npm knows runtime, "
				    "packageManager, cpu, os and libc (npm stops "
				    "before install, ci and run)", q);
			free(q);
			continue;
		}
		load_dev_key(spec, file, dev_keys[i], k, o);
	}
	return 0;
}

static int package_load(struct spec *spec, struct errbuf *err)
{
	char *name = spec_rel(spec, files[0]);
	const char *file;
	const char *end = NULL;
	const cJSON *v;
	cJSON *doc;
	struct blob b;
	int rc;

	rc = spec_read(spec, name, &b, err);
	file = rc > 0 ? spec_add_file(spec, name) : NULL;
	free(name);
	if (rc <= 0)
		return rc;
	/* the length includes our NUL terminator: cJSON wants to see it */
	doc = cJSON_ParseWithLengthOpts(b.data, b.len + 1, &end, 1);
	if (!doc) {
		unsigned line, col;
		size_t off = end && end >= b.data ? (size_t)(end - b.data) : 0;

		/* cJSON reports where it stopped: the first bad byte */
		if (!end)
			end = cJSON_GetErrorPtr();
		if (end && end >= b.data && end <= b.data + b.len)
			off = (size_t)(end - b.data);
		text_pos(b.data, b.len, off, &line, &col);
		/* cJSON stops at the array or object one level too deep */
		if (off < b.len && (b.data[off] == '[' || b.data[off] == '{') &&
		    json_depth_at(b.data, b.len, off) >= CJSON_NESTING_LIMIT)
			spec_error(err, file, line, col, "nested too deeply (more "
				   "than %d levels of arrays and objects)",
				   CJSON_NESTING_LIMIT);
		else
			spec_error(err, file, line, col, "malformed JSON (expected "
				   "a JSON object)");
		blob_release(&b);
		return -1;
	}
	rc = 0;
	if (!cJSON_IsObject(doc)) {
		spec_error(err, file, 1, 1, "expected a JSON object at the top level");
		rc = -1;
	}
	if (!rc && (v = cJSON_GetObjectItemCaseSensitive(doc, "engines")))
		rc = load_engines(spec, file, &b, v, err);
	if (!rc && (v = cJSON_GetObjectItemCaseSensitive(doc, "devEngines")))
		rc = load_dev_engines(spec, file, &b, v);
	if (!rc && (v = cJSON_GetObjectItemCaseSensitive(doc, "packageManager")))
		rc = load_package_manager(spec, file, &b, v, err);
	if (!rc && (v = cJSON_GetObjectItemCaseSensitive(doc, "volta")))
		rc = load_volta(spec, file, &b, v, err);
	cJSON_Delete(doc);
	blob_release(&b);
	return rc;
}

const struct spec_source source_package = {
	.name = "package.json",
	.files = files,
	.load = package_load,
};
