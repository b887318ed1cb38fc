/* spec_package.c - package.json: engines, packageManager, volta.
 *
 * cJSON validates and reads the document; it keeps no positions, so
 * json_locate() walks the (already valid) text once more to find the line
 * of each key we take a requirement from.
 */
#include "specfile.h"

#include <cJSON.h>
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

/* Offset of the key path[0].path[1]... in valid JSON text, or -1. */
static long json_locate(const char *s, size_t len, const char *const *path, size_t depth)
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
	spec_add_runtime(spec, SRC_PACKAGE_MANAGER, name, pm->valuestring, REQ_EXACT, o);
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

static int package_load(struct spec *spec, struct errbuf *err)
{
	const char *file = files[0];
	const char *end = NULL;
	const cJSON *v;
	cJSON *doc;
	struct blob b;
	int rc;

	rc = spec_read(spec, file, &b, err);
	if (rc <= 0)
		return rc;
	file = spec_add_file(spec, file);
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
