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
#include "util.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int json_true(const cJSON *o, const char *key)
{
	return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, key));
}

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

static unsigned entry_flags(const cJSON *e)
{
	unsigned f = 0;

	/* npm installs optional packages when it can: absent is fine
	 * (a platform package of another OS, a failed build) */
	if (json_true(e, "optional") || json_true(e, "devOptional"))
		f |= DEP_OPTIONAL;
	/* a stale entry (a workspace since removed): npm prunes, never
	 * installs it */
	if (json_true(e, "extraneous"))
		f |= DEP_OPTIONAL;
	if (json_true(e, "dev"))
		f |= DEP_DEV;
	if (json_true(e, "link"))
		f |= DEP_LINK;
	return f;
}

static void add_entry(struct dep_set *s, const char *path, const cJSON *e)
{
	const char *name = json_str(e, "name");
	unsigned f = entry_flags(e);
	struct dep *d;

	/* "name" is set for aliases (npm:other@1); the folder is the key */
	d = dep_set_add(s, path, name && !(f & DEP_LINK) ? name : deps_npm_path_name(path),
			json_str(e, "version"), f);
	if ((f & DEP_LINK) && json_str(e, "resolved"))
		d->extra = xstrdup(json_str(e, "resolved"));
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
		const cJSON *sub;
		unsigned f;

		if (!cJSON_IsObject(e) || !e->string)
			continue;
		buf_printf(&path, "%s%snode_modules/%s", prefix, *prefix ? "/" : "", e->string);
		f = entry_flags(e);
		dep_set_add(s, buf_str(&path), e->string, json_str(e, "version"), f);
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

int deps_npm_parse(const char *buf, size_t len, struct dep_set *s, int *version,
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
		cJSON_ArrayForEach(e, pk)
			if (cJSON_IsObject(e) && e->string && *e->string)
				add_entry(s, e->string, e);
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
