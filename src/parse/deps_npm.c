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
	size_t i = strmap_get(&x->index, path, strlen(path));

	if (i != STRMAP_NONE)
		return &x->v[i];
	grow(&x->v, sizeof(*x->v), &x->cap, x->n + 1);
	memset(&x->v[x->n], 0, sizeof(x->v[x->n]));
	x->v[x->n].path = xstrdup(path);
	/* the key is the entry's own copy, which stays where it is */
	strmap_put(&x->index, x->v[x->n].path, strlen(path), x->n);
	return &x->v[x->n++];
}

const struct npm_importer *npm_importer_find(struct npm_importers *x, const char *path)
{
	size_t i = x ? strmap_get(&x->index, path, strlen(path)) : STRMAP_NONE;

	return i == STRMAP_NONE ? NULL : &x->v[i];
}

void npm_importers_release(struct npm_importers *x)
{
	size_t i;

	for (i = 0; i < x->n; i++) {
		free(x->v[i].path);
		dep_set_release(&x->v[i].specs);
	}
	free(x->v);
	strmap_release(&x->index);
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
	struct npm_importers imp = NPM_IMPORTERS_INIT;
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

/* ---- overrides (npm 8.3 and later) ---- */

/* npm-package-arg's name of an override key ("b", "@s/b", "b@^1",
 * "@s/b@^1"): the name's length; *spec the selector after it ("" when
 * none). */
static size_t override_key_name(const char *key, const char **spec)
{
	const char *at = strchr(key + (*key == '@'), '@');

	*spec = at ? at + 1 : "";
	return at ? (size_t)(at - key) : strlen(key);
}

/* A "$name" value: the root's spec of name, looked up as arborist edge.js
 * #calculateReferentialOverrideSpec does (devDependencies, then optional,
 * prod, peer), or NULL. */
static const char *override_ref(const cJSON *pkg, const char *ref)
{
	static const char *const fields[] = { "devDependencies", "optionalDependencies",
					      "dependencies", "peerDependencies" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		const cJSON *d = cJSON_GetObjectItemCaseSensitive(pkg, fields[i]);
		const char *v = cJSON_IsObject(d) ? json_str(d, ref) : NULL;

		if (v && *v)
			return v;
	}
	return NULL;
}

/* One rule (override-set.js: a string is {".": string}; "" is "*"),
 * then its children. */
static void override_add(struct npm_overrides *o, const cJSON *pkg, const char *key,
			 const cJSON *val, size_t parent, unsigned depth)
{
	struct npm_override *r;
	const char *spec, *dot = NULL;
	const cJSON *c;
	size_t me, n;

	if (depth > 32 || (!cJSON_IsString(val) && !cJSON_IsObject(val))) {
		o->undecided = 1;
		return;
	}
	if (cJSON_IsString(val))
		dot = val->valuestring;
	else if ((c = cJSON_GetObjectItemCaseSensitive(val, ".")))
		dot = cJSON_IsString(c) ? c->valuestring : NULL;
	n = override_key_name(key, &spec);
	grow(&o->v, sizeof(*o->v), &o->cap, o->n + 1);
	me = o->n++;
	r = &o->v[me];
	memset(r, 0, sizeof(*r));
	r->key = xstrdup(key);
	r->name = xstrndup(key, n);
	r->key_spec = xstrdup(*spec ? spec : "*");
	r->parent = parent;
	if (dot && !*dot)
		dot = "*";
	if (dot && *dot == '$')
		dot = override_ref(pkg, dot + 1);
	else if (!dot)
		dot = r->key_spec;
	r->value = dot ? xstrdup(dot) : NULL;
	if (!cJSON_IsObject(val))
		return;
	cJSON_ArrayForEach(c, val)
		if (c->string && strcmp(c->string, "."))
			override_add(o, pkg, c->string, c, me, depth + 1);
}

static int override_matches(const struct npm_override *r, const char *name,
			    const char *spec);

/* arborist node.js assertRootOverrides: a rule of the root set that
 * changes the spec of a dependency of the root's is refused (EOVERRIDE),
 * by npm install as by npm ci. */
static void override_direct(struct npm_overrides *o, const cJSON *pkg)
{
	static const char *const fields[] = { "dependencies", "devDependencies",
					      "optionalDependencies", "peerDependencies" };
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(fields) && !o->direct_name; i++) {
		const cJSON *d = cJSON_GetObjectItemCaseSensitive(pkg, fields[i]), *e;

		if (!cJSON_IsObject(d))
			continue;
		cJSON_ArrayForEach(e, d) {
			const struct npm_override *r = NULL;

			if (!cJSON_IsString(e) || !e->string)
				continue;
			/* getEdgeRule: the first rule of the root's that names it */
			for (j = 0; j < o->n && !r; j++)
				if (o->v[j].parent == NPM_OVR_ROOT &&
				    override_matches(&o->v[j], e->string, e->valuestring) == 1)
					r = &o->v[j];
			if (!r || !r->value || !strcmp(r->value, "*") ||
			    !strcmp(r->value, e->valuestring))
				continue;
			o->direct_name = xstrdup(e->string);
			o->direct_field = xstrdup(fields[i]);
			o->direct_spec = xstrdup(e->valuestring);
			o->direct_value = xstrdup(r->value);
			break;
		}
	}
}

int deps_npm_overrides(const char *buf, size_t len, struct npm_overrides *o,
		       struct parse_error *err)
{
	const cJSON *ov, *c;
	cJSON *doc;

	memset(o, 0, sizeof(*o));
	memset(err, 0, sizeof(*err));
	if (!(doc = json_parse(buf, len, err)))
		return -1;
	ov = cJSON_IsObject(doc) ? cJSON_GetObjectItemCaseSensitive(doc, "overrides") : NULL;
	/* node.js: a root set of anything but an object has no rules */
	if (cJSON_IsObject(ov)) {
		cJSON_ArrayForEach(c, ov)
			if (c->string && strcmp(c->string, "."))
				override_add(o, doc, c->string, c, NPM_OVR_ROOT, 0);
		if (!o->undecided)
			override_direct(o, doc);
	}
	cJSON_Delete(doc);
	return 0;
}

void npm_overrides_release(struct npm_overrides *o)
{
	size_t i;

	for (i = 0; i < o->n; i++) {
		free(o->v[i].key);
		free(o->v[i].name);
		free(o->v[i].key_spec);
		free(o->v[i].value);
	}
	free(o->v);
	free(o->direct_name);
	free(o->direct_field);
	free(o->direct_spec);
	free(o->direct_value);
	memset(o, 0, sizeof(*o));
}

/* override-set.js getEdgeRule for one rule: 1 it applies to a dependency
 * name@spec, 0 not, -1 cannot tell here.  A selector applies to a range
 * or version spec it intersects (an alias by its sub-spec), to a tag,
 * file or directory spec always, to git only through #semver:. */
static int override_matches(const struct npm_override *r, const char *name,
			    const char *spec)
{
	struct semver_range *a, *b;
	const char *at;
	int x;

	if (strcmp(r->name, name))
		return 0;
	if (!strcmp(r->key_spec, "*"))
		return 1;
	if (!strncmp(spec, "npm:", 4)) {
		spec += 4;
		at = strchr(spec + (*spec == '@'), '@');
		spec = at ? at + 1 : "*";
	}
	if (!(b = semver_range_parse(r->key_spec, 0)))
		return -1;	/* npm throws: not ours to say */
	if (!(a = semver_range_parse(*spec ? spec : "*", 0))) {
		semver_range_free(b);
		/* a tag applies; git, file, URL specs are left undecided */
		return strpbrk(spec, ":/#") || *spec == '.' || *spec == '~' ? -1 : 1;
	}
	x = semver_range_intersects(a, b);
	semver_range_free(a);
	semver_range_free(b);
	return x;
}

/* ---- the lockfile's tree under the overrides ---- */

#define OVR_UNSEEN ((size_t)-2)

struct ovr_node {
	const char *key;
	const cJSON *e;
	size_t set;		/* its override set: a rule, NPM_OVR_ROOT, or
				 * OVR_UNSEEN */
	int queued;
	int merged;		/* set to two sets' common one */
};

struct ovr_tree {
	const struct npm_overrides *o;
	const struct npm_registry *reg;	/* or NULL */
	struct npm_override_miss maybe;	/* the first edge only the registry decides */
	struct ovr_node *v;
	size_t n;
	struct strmap index;
	size_t *queue, qhead, qtail, qcap;
	size_t work;
};

/* Whether rule a is b or nested in it (NPM_OVR_ROOT holds every rule). */
static int ovr_within(const struct npm_overrides *o, size_t a, size_t b)
{
	for (;;) {
		if (a == b)
			return 1;
		if (a == NPM_OVR_ROOT)
			return 0;
		a = o->v[a].parent;
	}
}

/* override-set.js getEdgeRule: the first rule of set's ruleset (its
 * children, then itself, then its parent's children ...; a key seen
 * once) that applies, else set itself; OVR_UNSEEN: cannot tell. */
static size_t ovr_edge_rule(const struct npm_overrides *o, size_t set, const char *name,
			    const char *spec)
{
	size_t anc = set, i, j;
	int m;

	for (;;) {
		for (i = 0; i < o->n; i++) {
			int shadowed = 0;

			if (o->v[i].parent != anc)
				continue;
			/* a key already met nearer wins */
			for (j = 0; j < o->n && !shadowed; j++)
				shadowed = j != i && !strcmp(o->v[j].key, o->v[i].key) &&
					   o->v[j].parent != anc && ovr_within(o, set, o->v[j].parent) &&
					   !ovr_within(o, anc, o->v[j].parent);
			if (shadowed)
				continue;
			m = override_matches(&o->v[i], name, spec);
			if (m)
				return m > 0 ? i : OVR_UNSEEN;
		}
		if (anc == NPM_OVR_ROOT)
			return set;
		m = override_matches(&o->v[anc], name, spec);
		if (m)
			return m > 0 ? anc : OVR_UNSEEN;
		anc = o->v[anc].parent;
	}
}

/* The node a dependency name of the node at key resolves to (arborist
 * node.js resolve: its own node_modules, then each folder above), a link
 * followed to its target; NULL when none. */
static struct ovr_node *ovr_resolve(struct ovr_tree *t, const char *key, const char *name)
{
	struct buf b = BUF_INIT;
	size_t end = strlen(key), i;
	struct ovr_node *n = NULL;

	for (;;) {
		b.len = 0;
		if (end)
			buf_printf(&b, "%.*s/", (int)end, key);
		buf_printf(&b, "node_modules/%s", name);
		if ((i = strmap_get(&t->index, buf_str(&b), b.len)) != STRMAP_NONE) {
			n = &t->v[i];
			break;
		}
		if (!end)
			break;
		while (end && key[end - 1] != '/')
			end--;
		if (end)
			end--;
	}
	buf_release(&b);
	if (n && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(n->e, "link"))) {
		const char *to = json_str(n->e, "resolved");

		i = to ? strmap_get(&t->index, to, strlen(to)) : STRMAP_NONE;
		n = i == STRMAP_NONE ? NULL : &t->v[i];
	}
	return n;
}

static void ovr_enqueue(struct ovr_tree *t, struct ovr_node *n)
{
	if (n->queued)
		return;
	n->queued = 1;
	grow(&t->queue, sizeof(*t->queue), &t->qcap, t->qtail + 1);
	t->queue[t->qtail++] = (size_t)(n - t->v);
}

/* One edge's rule carried to its target (node.js updateOverridesEdgeInAdded:
 * the more specific of two sets; two apart, their nearest common set).
 * Returns -1 when that cannot be followed here. */
static int ovr_carry(struct ovr_tree *t, struct ovr_node *to, size_t rule)
{
	const struct npm_overrides *o = t->o;
	size_t a;

	if (to->set == OVR_UNSEEN || (!to->merged && ovr_within(o, rule, to->set))) {
		if (to->set != rule) {
			to->set = rule;
			to->queued = 0;
			ovr_enqueue(t, to);
		}
		return 0;
	}
	if (ovr_within(o, to->set, rule))
		return 0;
	/* two sets apart (the shared dependency of two overridden packages):
	 * findSpecificOverrideSet's nearest common set, where neither has
	 * rules of its own to conflict (haveConflictingRules); else not
	 * followed here */
	for (a = 0; a < o->n; a++)
		if (o->v[a].parent == rule || o->v[a].parent == to->set)
			return -1;
	for (a = rule; !ovr_within(o, to->set, a); a = o->v[a].parent)
		;
	to->merged = 1;
	if (to->set != a) {
		to->set = a;
		to->queued = 0;
		ovr_enqueue(t, to);
	}
	return 0;
}

static const char *const ovr_fields[] = { "dependencies", "optionalDependencies",
					  "peerDependencies", "devDependencies" };

/* The spec of an edge and whether npm holds it against the node it
 * resolves to: 1 valid, 0 not, -1 cannot tell.  want: the spec
 * overrides make of it. */
static int ovr_valid(const struct npm_overrides *o, size_t rule, const char *name,
		     const char *raw, const struct ovr_node *to, const char **want)
{
	const char *version = json_str(to->e, "version");
	const char *real = json_str(to->e, "name");
	const struct npm_override *r = rule == NPM_OVR_ROOT ? NULL : &o->v[rule];
	int met;

	real = real ? real : deps_npm_path_name(to->key);
	*want = raw;
	/* edge.js satisfiedBy: bundled and shrinkwrapped packages are held
	 * to the spec as written */
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(to->e, "inBundle")) ||
	    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(to->e, "hasShrinkwrap")) || !r)
		return deps_npm_spec_met(raw, version, real);
	if (!strcmp(r->name, name) && r->value && strcmp(r->value, "*"))
		*want = r->value;
	else if (!strcmp(r->name, name) && !r->value)
		return -1;
	/* the overriding spec, else the spec as written but not what the
	 * selector names */
	met = deps_npm_spec_met(*want, version, real);
	if (met)
		return met;
	met = deps_npm_spec_met(raw, version, real);
	if (met <= 0)
		return met;
	met = deps_npm_spec_met(r->key_spec, version, real);
	return met < 0 ? -1 : !met;
}

/* Whether npm keeps, as the lockfile has it, the copy `to` that node n's
 * edge name no longer fits under the overrides (want: the spec they make
 * of it).  build-ideal-tree.js #initTree queues n (the edge is not
 * valid); #buildDepStep fetches want (#fetchManifest: pacote.manifest,
 * npm-pick-manifest's choice in the registry's packument) and
 * place-dep.js walks up from n: in n's own node_modules can-place-dep.js
 * checkCanPlaceCurrent says REPLACE (the deepest target, target ===
 * edge.from), and at the root, whose copy is the very package fetched
 * (dep.matches(current): the same integrity), KEEP; the walk ends there,
 * nothing is placed, and place-dep.js calls pruneDedupable(root), which
 * drops the nested copy only when node.js canDedupe says so: the copy
 * above (resolved from to.resolveParent.resolveParent) is the same
 * version, or a greater one (`!this.overridden && semver.gt(other.version,
 * this.version)`).  A copy above of a lower version leaves the nested
 * copy and its invalid edge in the ideal tree: npm ci accepts
 * (validate-lockfile.js compares only the versions of the ideal tree's
 * nodes) and npm install writes the lockfile as it was.  A fetch of
 * another version places that one instead: the lockfile changes.  When
 * want is a range, what is fetched is the registry's to say (t->reg);
 * not known, -1.  Followed only for a top-level registry copy and a
 * nested copy in n's own node_modules below a package in node_modules;
 * anything else is judged as an edge npm re-resolves.  1 kept, else 0. */
static int ovr_nested_kept(struct ovr_tree *t, const struct ovr_node *n, const char *name,
			   const char *want, const struct ovr_node *to, const char **above_v)
{
	size_t nl = strlen(n->key);
	const char *above = NULL, *v_up, *v_to, *res, *real, *pick;
	struct semver a = SEMVER_INIT, b = SEMVER_INIT;
	const struct ovr_node *up;
	struct buf p = BUF_INIT;
	size_t i;
	int kept;

	/* to is nl/node_modules/name, n a package in node_modules */
	if (strncmp(n->key, "node_modules/", 13) || strncmp(to->key, n->key, nl) ||
	    strncmp(to->key + nl, "/node_modules/", 14) || strcmp(to->key + nl + 14, name))
		return 0;
	/* the copy n's parent folder resolves name to: the root's */
	for (i = 0; i + 14 <= nl; i++)
		if (!strncmp(n->key + i, "/node_modules/", 14))
			above = n->key + i;
	buf_printf(&p, "%.*s", above ? (int)(above - n->key) : 0, n->key);
	up = ovr_resolve(t, buf_str(&p), name);
	buf_release(&p);
	if (!up || strncmp(up->key, "node_modules/", 13) || strcmp(up->key + 13, name))
		return 0;
	v_up = json_str(up->e, "version");
	v_to = json_str(to->e, "version");
	res = json_str(up->e, "resolved");
	real = json_str(up->e, "name");
	/* dep.matches(current): the registry's package of that version */
	if (!v_up || !v_to || !json_str(up->e, "integrity") ||
	    (real && strcmp(real, name)) || (res && !strncmp(res, "file:", 5)) ||
	    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(up->e, "link")) ||
	    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(up->e, "inBundle")))
		return 0;
	if (semver_parse(v_up, SEMVER_LOOSE, &a) || semver_parse(v_to, SEMVER_LOOSE, &b)) {
		semver_release(&a);
		return 0;
	}
	kept = semver_compare(&a, &b) < 0;
	semver_release(&a);
	semver_release(&b);
	if (!kept || !strcmp(want, v_up))
		return kept;
	/* a range: what the registry gives for it must be the copy above */
	if (semver_satisfies_str(v_up, want, SEMVER_LOOSE) != 1)
		return 0;
	pick = t->reg ? t->reg->pick(t->reg->ctx, name, want) : NULL;
	*above_v = v_up;
	return pick ? !strcmp(pick, v_up) : -1;
}

static void ovr_miss_set(struct npm_override_miss *m, const struct ovr_node *n,
			 const cJSON *e, const char *want, const struct ovr_node *to)
{
	const char *locked = json_str(to->e, "version");

	m->from = xstrdup(n->key);
	m->name = xstrdup(e->string);
	m->spec = xstrdup(e->valuestring);
	m->want = xstrdup(want);
	m->at = xstrdup(to->key);
	m->locked = locked ? xstrdup(locked) : NULL;
}

/* Every edge of node n: carried (pass 0), or judged (pass 1).  Returns 1
 * with m set, -1 cannot tell, else 0. */
static int ovr_edges(struct ovr_tree *t, struct ovr_node *n, int pass,
		     struct npm_override_miss *m)
{
	const cJSON *meta = cJSON_GetObjectItemCaseSensitive(n->e, "peerDependenciesMeta");
	size_t f;

	for (f = 0; f < ARRAY_SIZE(ovr_fields); f++) {
		const cJSON *d = cJSON_GetObjectItemCaseSensitive(n->e, ovr_fields[f]), *e;

		if (!cJSON_IsObject(d))
			continue;
		cJSON_ArrayForEach(e, d) {
			struct ovr_node *to;
			const char *want, *above = NULL;
			size_t rule;
			int peer = f == 2, v;

			if (!cJSON_IsString(e) || !e->string || ++t->work > 4000000)
				return t->work > 4000000 ? -1 : 0;
			rule = ovr_edge_rule(t->o, n->set, e->string, e->valuestring);
			if (rule == OVR_UNSEEN)
				return -1;
			if (!(to = ovr_resolve(t, n->key, e->string)))
				continue;	/* a missing edge is not this check's */
			if (!pass) {
				if (ovr_carry(t, to, rule) < 0)
					return -1;
				continue;
			}
			v = ovr_valid(t->o, rule, e->string, e->valuestring, to, &want);
			if (v < 0 || v > 0)
				continue;
			/* build-ideal-tree.js #problemEdges: npm ci trusts a
			 * peerOptional edge; a peer edge is only judged when an
			 * override changed it (a --legacy-peer-deps tree has
			 * others) */
			if (peer && (!strcmp(want, e->valuestring) ||
				     cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
				     cJSON_GetObjectItemCaseSensitive(meta, e->string), "optional"))))
				continue;
			v = ovr_nested_kept(t, n, e->string, want, to, &above);
			if (v > 0 || (v < 0 && t->maybe.name))
				continue;
			ovr_miss_set(v < 0 ? &t->maybe : m, n, e, want, to);
			if (v < 0)
				t->maybe.above = xstrdup(above);
			if (v == 0)
				return 1;
		}
	}
	return 0;
}

/* A JSON value as JavaScript's truth: mani.deprecated is a message. */
static int npm_truthy(const cJSON *v)
{
	return v && !cJSON_IsFalse(v) && !cJSON_IsNull(v) &&
	       !(cJSON_IsString(v) && !*v->valuestring) &&
	       !(cJSON_IsNumber(v) && (v->valuedouble == 0 || v->valuedouble != v->valuedouble));
}

/* npm-pick-manifest (lib/index.js pickManifest) on a packument, for a
 * semver range, as arborist's #fetchManifest asks it (no `avoid`, no
 * `before`): the default dist-tag's version when the range holds it and
 * it is not deprecated; else, of the versions the range holds (loose, no
 * prerelease unless the range names one), the greatest, one not
 * deprecated before any that is (its sort: notdepr, then engine, then
 * semver.rcompare).  Not followed: the engine preference (npm prefers a
 * version whose engines fit the node and npm that run it, which are not
 * known here) and staged or restricted versions. */
char *deps_npm_pick(const char *buf, size_t len, const char *range, const char *tag)
{
	struct semver_range *r = semver_range_parse(range, SEMVER_LOOSE);
	struct semver best = SEMVER_INIT;
	struct parse_error err;
	const cJSON *versions, *v;
	const char *latest, *pick = NULL;
	int best_depr = 1;
	char *out = NULL;
	cJSON *doc;

	if (!r)
		return NULL;
	if (!(doc = json_parse(buf, len, &err)) || !cJSON_IsObject(doc)) {
		cJSON_Delete(doc);
		semver_range_free(r);
		return NULL;
	}
	versions = cJSON_GetObjectItemCaseSensitive(doc, "versions");
	latest = json_str(cJSON_GetObjectItemCaseSensitive(doc, "dist-tags"), tag);
	/* "*" takes the tag's version whatever it is, a prerelease too */
	if (latest && (v = cJSON_GetObjectItemCaseSensitive(versions, latest)) &&
	    npm_truthy(v) && !npm_truthy(cJSON_GetObjectItemCaseSensitive(v, "deprecated")) &&
	    (!strcmp(range, "*") || semver_satisfies_str(latest, range, SEMVER_LOOSE) == 1))
		pick = latest;
	if (pick || !cJSON_IsObject(versions))
		versions = NULL;	/* the tag's, or none */
	cJSON_ArrayForEach(v, versions) {
		int depr = npm_truthy(cJSON_GetObjectItemCaseSensitive(v, "deprecated"));
		struct semver sv;

		if (!v->string || semver_parse(v->string, SEMVER_LOOSE, &sv))
			continue;
		if (semver_satisfies(&sv, r, SEMVER_LOOSE) &&
		    (!pick || depr < best_depr ||
		     (depr == best_depr && semver_compare(&sv, &best) > 0))) {
			semver_release(&best);
			best = sv;
			best_depr = depr;
			pick = v->string;
			continue;
		}
		semver_release(&sv);
	}
	if (pick)
		out = xstrdup(pick);
	semver_release(&best);
	semver_range_free(r);
	cJSON_Delete(doc);
	return out;
}

void npm_override_miss_release(struct npm_override_miss *m)
{
	free(m->from);
	free(m->name);
	free(m->spec);
	free(m->want);
	free(m->at);
	free(m->locked);
	free(m->above);
	memset(m, 0, sizeof(*m));
}

/* arborist build-ideal-tree.js #initTree: the tree loaded from the
 * lockfile (load-virtual.js), the root's overrides carried along its
 * edges (node.js addEdgeOut, updateOverridesEdgeInAdded), and every node
 * reached from the root with an edge that is not valid queued for
 * re-resolution, whose result then differs from the lockfile (npm ci:
 * "Missing"/"Invalid", validate-lockfile.js) or leaves out a package
 * the lockfile names.  Pass 0 carries the override sets to a fixed
 * point, pass 1 judges each node's edges in the order reached. */
int deps_npm_overrides_check(const char *lock, size_t len, const struct npm_overrides *o,
			     const struct npm_registry *reg, struct npm_override_miss *m)
{
	struct parse_error err;
	struct ovr_tree t;
	const cJSON *pk, *e;
	cJSON *doc;
	size_t i, root = STRMAP_NONE;
	int rc = 0;

	memset(m, 0, sizeof(*m));
	if ((!o->n && !o->every) || o->undecided)
		return 0;
	if (!(doc = json_parse(lock, len, &err)))
		return -1;
	pk = cJSON_IsObject(doc) ? cJSON_GetObjectItemCaseSensitive(doc, "packages") : NULL;
	if (!cJSON_IsObject(pk)) {	/* lockfileVersion 1: no edges to read */
		cJSON_Delete(doc);
		return 0;
	}
	memset(&t, 0, sizeof(t));
	t.o = o;
	t.reg = reg;
	t.v = xmalloc(((size_t)cJSON_GetArraySize(pk) + 1) * sizeof(*t.v));
	cJSON_ArrayForEach(e, pk) {
		if (!cJSON_IsObject(e) || !e->string)
			continue;
		t.v[t.n].key = e->string;
		t.v[t.n].e = e;
		t.v[t.n].set = OVR_UNSEEN;
		t.v[t.n].queued = t.v[t.n].merged = 0;
		strmap_put(&t.index, e->string, strlen(e->string), t.n);
		if (!*e->string)
			root = t.n;
		t.n++;
	}
	if (root == STRMAP_NONE) {
		rc = 0;
		goto out;
	}
	/* the root, and the folders of the project (workspaces: the root's
	 * workspace edges carry its set to them) */
	for (i = 0; i < t.n; i++) {
		const char *k = t.v[i].key;

		if (deps_npm_path_name(k) != k || !strncmp(k, "../", 3) ||
		    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(t.v[i].e, "link")))
			continue;
		t.v[i].set = NPM_OVR_ROOT;
		ovr_enqueue(&t, &t.v[i]);
	}
	while (t.qhead < t.qtail && !rc) {
		struct ovr_node *n = &t.v[t.queue[t.qhead++]];

		n->queued = 0;
		rc = ovr_edges(&t, n, 0, m);
	}
	/* then every node reached, in the lockfile's order */
	for (i = 0; i < t.n && !rc; i++)
		if (t.v[i].set != OVR_UNSEEN)
			rc = ovr_edges(&t, &t.v[i], 1, m);
	if (rc < 0)
		rc = 0;		/* not judged: no maybe either */
	else if (!rc && t.maybe.name) {
		*m = t.maybe;
		memset(&t.maybe, 0, sizeof(t.maybe));
		rc = 2;
	}
out:
	if (!rc)
		npm_override_miss_release(m);
	npm_override_miss_release(&t.maybe);
	free(t.queue);
	free(t.v);
	strmap_release(&t.index);
	cJSON_Delete(doc);
	return rc;
}
