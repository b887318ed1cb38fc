/* deps_npm.c - npm's lockfiles as package sets (see deps.h).
 *
 * package-lock.json, npm-shrinkwrap.json and the hidden lockfile
 * node_modules/.package-lock.json share one format: since lockfileVersion
 * 2 a "packages" object keyed by the folder each package is installed in
 * ("node_modules/a/node_modules/b"), "" being the project itself; version
 * 1 (npm 5 and 6) nests "dependencies" instead, which is turned into the
 * same paths here.  (npm/cli workspaces/arborist/lib/shrinkwrap.js.)
 */
#include "deps.h"
#include "semver.h"
#include "util.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *json_str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* The package name of an install path: what follows its last
 * "node_modules/" ("@s/b" for a scoped one), else the path itself (a
 * workspace folder such as "packages/web"). */
const char *deps_npm_path_name(const char *path)
{
	const char *p = path, *last = NULL;

	while ((p = strstr(p, "node_modules/"))) {
		if (p == path || p[-1] == '/')
			last = p + 13;
		p += 13;
	}
	return last ? last : path;
}

/* npm-install-checks lib/index.js checkList: value matches none of the
 * negated entries ("!darwin") and, when there are others, one of them;
 * ["any"] matches anything.  A missing value matches nothing but a list
 * of negations only. */
static int check_list(const char *value, const cJSON *list)
{
	const cJSON *x;
	int negated = 0, plain = 0, match = 0;

	if (cJSON_IsString(list))
		return !strcmp(list->valuestring, "any") ||
		       (list->valuestring[0] == '!' ?
			!value || strcmp(list->valuestring + 1, value) :
			value && !strcmp(list->valuestring, value));
	if (cJSON_GetArraySize(list) == 1 && cJSON_IsString(list->child) &&
	    !strcmp(list->child->valuestring, "any"))
		return 1;
	cJSON_ArrayForEach(x, list) {
		if (!cJSON_IsString(x))
			continue;
		if (x->valuestring[0] == '!') {
			negated++;
			if (value && !strcmp(x->valuestring + 1, value))
				return 0;
		} else {
			plain++;
			match |= value && !strcmp(x->valuestring, value);
		}
	}
	return negated && !plain ? 1 : match;
}

/* Whether the entry's package is for this machine, as npm-install-
 * checks checkPlatform decides from its os, cpu and libc (recorded in
 * the lockfile by arborist's shrinkwrap.js): 1 yes, 0 no, -1 it names
 * none of them or cannot be decided here (an unknown field of ours). */
static int for_here(const cJSON *e, const struct npm_platform *here)
{
	static const char *const fields[] = { "os", "cpu", "libc" };
	const char *have[3] = { here->os, here->cpu, here->libc };
	int named = 0, unknown = 0;
	size_t i;

	for (i = 0; i < 3; i++) {
		const cJSON *list = cJSON_GetObjectItemCaseSensitive(e, fields[i]);

		if (!list || (!cJSON_IsString(list) && !cJSON_IsArray(list)))
			continue;
		named = 1;
		if (!have[i]) {
			unknown = 1;
			continue;
		}
		if (!check_list(have[i], list))
			return 0;
	}
	return named && !unknown ? 1 : -1;
}

/* What an entry says, read in one pass over its fields (a lockfile has
 * tens of thousands of entries: one lookup a field would walk each
 * entry's fields nine times); a field given twice is its last, as
 * JSON.parse reads it. */
struct entry_fields {
	const char *name, *version, *resolved;
	int integrity, optional, dev_optional, extraneous, dev, link;
};

static void entry_read(const cJSON *e, struct entry_fields *x)
{
	const cJSON *c;

	memset(x, 0, sizeof(*x));
	for (c = e->child; c; c = c->next) {
		const char *k = c->string;
		const char *str = cJSON_IsString(c) ? c->valuestring : NULL;
		int yes = cJSON_IsTrue(c);

		if (!k)
			continue;
		switch (k[0]) {
		case 'n':
			if (!strcmp(k, "name"))
				x->name = str;
			break;
		case 'v':
			if (!strcmp(k, "version"))
				x->version = str;
			break;
		case 'r':
			if (!strcmp(k, "resolved"))
				x->resolved = str;
			break;
		case 'i':
			if (!strcmp(k, "integrity"))
				x->integrity = str != NULL;
			break;
		case 'o':
			if (!strcmp(k, "optional"))
				x->optional = yes;
			break;
		case 'd':
			if (!strcmp(k, "dev"))
				x->dev = yes;
			else if (!strcmp(k, "devOptional"))
				x->dev_optional = yes;
			break;
		case 'e':
			if (!strcmp(k, "extraneous"))
				x->extraneous = yes;
			break;
		case 'l':
			if (!strcmp(k, "link"))
				x->link = yes;
			break;
		default:
			break;
		}
	}
}

static unsigned entry_flags(const cJSON *e, const struct entry_fields *x,
			    const struct npm_platform *here)
{
	unsigned f = 0;

	/* npm installs optional packages when it can: absent is fine (a
	 * failed build) unless the entry says it is this platform's
	 * (esbuild's @esbuild/linux-x64): arborist build-ideal-tree.js
	 * #checkEngineAndPlatform marks inert only the optional packages
	 * that checkPlatform refuses, and adds the others */
	if (x->optional || x->dev_optional) {
		int ok = here ? for_here(e, here) : -1;

		if (ok != 1)
			f |= DEP_OPTIONAL;
		/* inert (only an "optional" node is: a devOptional one that
		 * checkPlatform refuses is an error of npm's): reify removes
		 * it when it is there */
		if (ok == 0 && x->optional)
			f |= DEP_NOT_HERE;
	}
	/* a stale entry (a workspace since removed): npm prunes, never
	 * installs it */
	if (x->extraneous)
		f |= DEP_OPTIONAL;
	if (x->dev)
		f |= DEP_DEV;
	if (x->link)
		f |= DEP_LINK;
	return f;
}

static void add_entry(struct dep_set *s, const char *path, const cJSON *e,
		      const struct npm_platform *here)
{
	const char *folder = deps_npm_path_name(path);
	struct entry_fields x;
	unsigned f;
	struct dep *d;

	entry_read(e, &x);
	f = entry_flags(e, &x, here);
	/* arborist lib/diff.js getAction: with no integrity on either side,
	 * the same version is the same package only if "resolved" is too
	 * (a git dependency at another commit is fetched again) */
	if (!(f & DEP_LINK) && x.resolved && !x.integrity)
		f |= DEP_RESOLVED;
	/* "name" is set for aliases (npm:other@1): the folder is the name
	 * npm ls shows (alias@npm:other@1), the real package beside it */
	else if (!(f & DEP_LINK) && x.name && folder != path && strcmp(x.name, folder))
		f |= DEP_ALIAS;
	/* a workspace's folder ("packages/web") is named by its package */
	d = dep_set_add(s, path, folder == path && x.name && !(f & DEP_LINK) ? x.name : folder,
			x.version, f);
	if ((f & (DEP_LINK | DEP_RESOLVED)) && x.resolved)
		d->extra = xstrdup(x.resolved);
	else if (f & DEP_ALIAS)
		d->extra = xstrdup(x.name);
}

/* lockfileVersion 1: "dependencies" nested as the folders are. */
static int add_v1(struct dep_set *s, const cJSON *deps, const char *prefix,
		  unsigned depth)
{
	const cJSON *e;

	if (depth > 200)
		return -1;
	cJSON_ArrayForEach(e, deps) {
		struct buf path = BUF_INIT;
		struct entry_fields x;
		const cJSON *sub;
		unsigned f;

		if (!cJSON_IsObject(e) || !e->string)
			continue;
		buf_printf(&path, "%s%snode_modules/%s", prefix, *prefix ? "/" : "", e->string);
		entry_read(e, &x);
		f = entry_flags(e, &x, NULL);
		dep_set_add(s, buf_str(&path), e->string, x.version, f);
		sub = cJSON_GetObjectItemCaseSensitive(e, "dependencies");
		if (cJSON_IsObject(sub) && add_v1(s, sub, buf_str(&path), depth + 1) < 0) {
			buf_release(&path);
			return -1;
		}
		buf_release(&path);
	}
	return 0;
}

/* cJSON without a terminator: it stops where the text stops being JSON,
 * and what follows the document must be blank. */
static cJSON *json_parse(const char *buf, size_t len, struct parse_error *err)
{
	const char *end = NULL;
	cJSON *doc = cJSON_ParseWithLengthOpts(buf, len, &end, 0);
	size_t off;

	if (doc && end) {
		while (end < buf + len && (*end == ' ' || *end == '\t' || *end == '\n' ||
					   *end == '\r'))
			end++;
		if (end == buf + len)
			return doc;
		cJSON_Delete(doc);
		doc = NULL;
		parse_error_msg(err, "unexpected text after the JSON document");
	} else {
		if (!end)
			end = cJSON_GetErrorPtr();
		parse_error_msg(err, "malformed JSON");
	}
	off = end && end >= buf && end <= buf + len ? (size_t)(end - buf) : 0;
	text_pos(buf, len, off, &err->line, &err->col);
	return NULL;
}

/* The dependency specs of a package.json or of a lockfile's root entry
 * into s, keyed by name, the field that names it as extra.  Later kinds
 * win where a name is in two, as arborist's Node#loadDeps reads them
 * (optional over prod, prod over dev for the root). */
static void add_specs(struct dep_set *s, const cJSON *o)
{
	static const struct {
		const char *field;
		unsigned flags;
	} kinds[] = {
		{ "peerDependencies", DEP_OPTIONAL },
		{ "devDependencies", DEP_DEV },
		{ "dependencies", 0 },
		{ "optionalDependencies", DEP_OPTIONAL },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		const cJSON *deps = cJSON_GetObjectItemCaseSensitive(o, kinds[i].field), *e;

		if (!cJSON_IsObject(deps))
			continue;
		cJSON_ArrayForEach(e, deps) {
			struct dep *d;

			if (!cJSON_IsString(e) || !e->string)
				continue;
			d = dep_set_add(s, e->string, e->string, e->valuestring, kinds[i].flags);
			d->extra = xstrdup(kinds[i].field);
		}
	}
}

/* The importer at path, added when new. */
static struct npm_importer *importer_get(struct npm_importers *x, const char *path)
{
	size_t i;

	for (i = 0; i < x->n; i++)
		if (!strcmp(x->v[i].path, path))
			return &x->v[i];
	grow(&x->v, sizeof(*x->v), &x->cap, x->n + 1);
	memset(&x->v[x->n], 0, sizeof(x->v[x->n]));
	x->v[x->n].path = xstrdup(path);
	return &x->v[x->n++];
}

const struct npm_importer *npm_importer_find(const struct npm_importers *x, const char *path)
{
	size_t i;

	for (i = 0; x && i < x->n; i++)
		if (!strcmp(x->v[i].path, path))
			return &x->v[i];
	return NULL;
}

void npm_importers_release(struct npm_importers *x)
{
	size_t i;

	for (i = 0; i < x->n; i++) {
		free(x->v[i].path);
		dep_set_release(&x->v[i].specs);
	}
	free(x->v);
	memset(x, 0, sizeof(*x));
}

int deps_npm_parse_all(const char *buf, size_t len, const struct npm_platform *here,
		       struct dep_set *s, struct npm_importers *imp, int *version,
		       struct parse_error *err)
{
	const cJSON *pk, *e, *lv;
	cJSON *doc;
	int rc = 0;

	memset(err, 0, sizeof(*err));
	*version = 0;
	if (!(doc = json_parse(buf, len, err)))
		return -1;
	if (!cJSON_IsObject(doc)) {
		parse_error_set(err, 1, 1, "expected a JSON object");
		cJSON_Delete(doc);
		return -1;
	}
	lv = cJSON_GetObjectItemCaseSensitive(doc, "lockfileVersion");
	if (cJSON_IsNumber(lv) && lv->valuedouble >= 0 && lv->valuedouble < 1000)
		*version = (int)lv->valuedouble;
	pk = cJSON_GetObjectItemCaseSensitive(doc, "packages");
	if (cJSON_IsObject(pk)) {
		cJSON_ArrayForEach(e, pk) {
			if (!cJSON_IsObject(e) || !e->string)
				continue;
			if (*e->string)
				add_entry(s, e->string, e, here);
			/* a folder of the project's own (the root "", a
			 * workspace, a file: folder): arborist load-virtual.js
			 * reads its package.json from the disk, and its
			 * entry keeps the specs it was locked with */
			if (imp && deps_npm_path_name(e->string) == e->string &&
			    !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "link")))
				add_specs(&importer_get(imp, e->string)->specs, e);
		}
	} else if ((pk = cJSON_GetObjectItemCaseSensitive(doc, "dependencies")) &&
		   cJSON_IsObject(pk)) {
		if (add_v1(s, pk, "", 0) < 0) {
			parse_error_msg(err, "dependencies nested too deeply");
			rc = -1;
		}
	}
	cJSON_Delete(doc);
	return rc;
}

int deps_npm_parse_here(const char *buf, size_t len, const struct npm_platform *here,
			struct dep_set *s, struct dep_set *root, int *version,
			struct parse_error *err)
{
	struct npm_importers imp = { NULL, 0, 0 };
	struct npm_importer *r;
	int rc = deps_npm_parse_all(buf, len, here, s, root ? &imp : NULL, version, err);

	if (root && (r = (struct npm_importer *)npm_importer_find(&imp, ""))) {
		struct dep_set t = *root;

		*root = r->specs;
		r->specs = t;
	}
	npm_importers_release(&imp);
	return rc;
}

int deps_npm_parse(const char *buf, size_t len, struct dep_set *s, int *version,
		   struct parse_error *err)
{
	return deps_npm_parse_here(buf, len, NULL, s, NULL, version, err);
}

int deps_npm_manifest(const char *buf, size_t len, struct dep_set *s,
		      struct parse_error *err)
{
	cJSON *doc;

	memset(err, 0, sizeof(*err));
	if (!(doc = json_parse(buf, len, err)))
		return -1;
	if (!cJSON_IsObject(doc)) {
		parse_error_set(err, 1, 1, "expected a JSON object");
		cJSON_Delete(doc);
		return -1;
	}
	add_specs(s, doc);
	cJSON_Delete(doc);
	return 0;
}

int deps_npm_spec_met(const char *spec, const char *version, const char *real)
{
	struct semver v = SEMVER_INIT;
	struct semver_range *r;
	const char *at;
	int met;

	/* arborist dep-valid.js: an alias is judged by its sub-spec */
	if (!strncmp(spec, "npm:", 4)) {
		spec += 4;
		at = strchr(spec + (*spec == '@'), '@');
		if (real && strncmp(spec, real, at ? (size_t)(at - spec) : strlen(spec)))
			return 0;
		spec = at ? at + 1 : "*";
	}
	/* dep-valid.js: '*' (and npm-package-arg's empty spec) is any
	 * version; a range or version is semver.satisfies(v, spec, loose) */
	if (!*spec || !strcmp(spec, "*"))
		return 1;
	if (!(r = semver_range_parse(spec, SEMVER_LOOSE))) {
		/* a tag ("latest", "next"): dep-valid.js takes any registry
		 * package; a file:, git or URL spec is left to the caller */
		return strpbrk(spec, ":/#") || *spec == '.' || *spec == '~' ? -1 : 1;
	}
	met = version && semver_parse(version, SEMVER_LOOSE, &v) == 0 &&
	      semver_satisfies(&v, r, SEMVER_LOOSE);
	semver_release(&v);
	semver_range_free(r);
	return met;
}

/* One .npmrc value: blanks trimmed, a "quoted" or 'quoted' one unquoted
 * (the ini package's unsafe()). */
static char *npmrc_value(const char *v, size_t n)
{
	while (n && (*v == ' ' || *v == '\t')) {
		v++;
		n--;
	}
	while (n && (v[n - 1] == ' ' || v[n - 1] == '\t' || v[n - 1] == '\r'))
		n--;
	if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
		v++;
		n -= 2;
	}
	return xstrndup(v, n);
}

size_t deps_npmrc_values(const char *buf, size_t len, const char *key, char **vals,
			 size_t max)
{
	const char *p = buf, *end = buf + len;
	size_t klen = strlen(key), n = 0;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p)), *k, *eq, *ke;

		if (!eol)
			eol = end;
		for (k = p; k < eol && (*k == ' ' || *k == '\t'); k++)
			;
		p = eol + 1;
		/* the ini package: a [section] starts keys that are not
		 * npm's config (npm reads the top level only) */
		if (k < eol && *k == '[')
			break;
		if (k == eol || *k == '#' || *k == ';' || !(eq = memchr(k, '=', (size_t)(eol - k))))
			continue;
		for (ke = eq; ke > k && (ke[-1] == ' ' || ke[-1] == '\t'); ke--)
			;
		if ((size_t)(ke - k) == klen + 2 && !strncmp(k, key, klen) &&
		    !strncmp(k + klen, "[]", 2)) {
			if (n < max)	/* "key[]=": one more of a list */
				vals[n++] = npmrc_value(eq + 1, (size_t)(eol - eq - 1));
		} else if ((size_t)(ke - k) == klen && !strncmp(k, key, klen)) {
			while (n)	/* "key=" again: the last one */
				free(vals[--n]);
			if (max)
				vals[n++] = npmrc_value(eq + 1, (size_t)(eol - eq - 1));
		}
	}
	return n;
}

char *deps_npm_package_version(const char *buf, size_t len)
{
	struct parse_error err;
	cJSON *doc = json_parse(buf, len, &err);
	const char *v;
	char *out = NULL;

	if (!doc)
		return NULL;
	v = cJSON_IsObject(doc) ? json_str(doc, "version") : NULL;
	if (v)
		out = xstrdup(v);
	cJSON_Delete(doc);
	return out;
}
