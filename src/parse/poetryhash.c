/* poetryhash.c - see poetryhash.h
 *
 * poetry's Locker._get_content_hash (src/poetry/packages/locker.py):
 *
 *   sha256(json.dumps(relevant_content, sort_keys=True).encode()).hexdigest()
 *
 * and relevant_content by release:
 *
 *   1.x      {key: tool.poetry.get(key) for the legacy keys "dependencies",
 *            "source", "extras", "dev-dependencies" (null when absent)},
 *            plus "group" when present;
 *   2.0      with [project] content ("requires-python", "dependencies",
 *            "optional-dependencies", each when present): {"project": it,
 *            "tool": {"poetry": the keys above, each only when present}};
 *            without, 1.x's;
 *   2.3      [dependency-groups] (when not empty) as "dependency-groups"
 *            beside "project" (when present), the legacy keys left out
 *            when absent as soon as either is there.
 *
 * A lock is fresh when its hash is any of these (a lock is not told which
 * poetry wrote it).  json.dumps with its defaults: ", " and ": " between
 * items, keys sorted by code point (byte order in UTF-8), ensure_ascii:
 * every byte outside ' '..'~' escaped, \" \\ \b \f \n \r \t by name, the
 * rest as \u00XX or, past ASCII, \uXXXX (two surrogates past U+FFFF),
 * lowercase hex.
 */
#include "poetryhash.h"
#include "digest.h"
#include "toml.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* One key of an object being written: val NULL is JSON null. */
struct member {
	const char *key;
	size_t klen;
	const struct toml_value *val;
};

static int dump(struct buf *b, const struct toml_value *v);

static void dump_str(struct buf *b, const char *s, size_t n)
{
	size_t i = 0;

	buf_putc(b, '"');
	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		unsigned long cp;
		int k;

		if (c == '"' || c == '\\') {
			buf_putc(b, '\\');
			buf_putc(b, (char)c);
		} else if (c >= 0x20 && c < 0x7f) {
			buf_putc(b, (char)c);
		} else if (c < 0x80) {
			const char *named = c == '\b' ? "\\b" : c == '\f' ? "\\f" :
					    c == '\n' ? "\\n" : c == '\r' ? "\\r" :
					    c == '\t' ? "\\t" : NULL;

			if (named)
				buf_puts(b, named);
			else
				buf_printf(b, "\\u%04x", c);
		} else {
			/* TOML text is valid UTF-8 (toml.c checks it) */
			k = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : 1;
			cp = c & (0x3f >> k);
			while (k-- > 0 && i + 1 < n)
				cp = (cp << 6) | ((unsigned char)s[++i] & 0x3f);
			if (cp >= 0x10000) {
				cp -= 0x10000;
				buf_printf(b, "\\u%04lx\\u%04lx", 0xd800 + (cp >> 10),
					   0xdc00 + (cp & 0x3ff));
			} else {
				buf_printf(b, "\\u%04lx", cp);
			}
		}
		i++;
	}
	buf_putc(b, '"');
}

static int member_cmp(const void *pa, const void *pb)
{
	const struct member *a = pa, *b = pb;
	size_t n = a->klen < b->klen ? a->klen : b->klen;
	int c = memcmp(a->key, b->key, n);

	return c ? c : a->klen < b->klen ? -1 : a->klen > b->klen;
}

static int dump_members(struct buf *b, struct member *m, size_t n)
{
	size_t i;

	qsort(m, n, sizeof(*m), member_cmp);
	buf_putc(b, '{');
	for (i = 0; i < n; i++) {
		if (i)
			buf_puts(b, ", ");
		dump_str(b, m[i].key, m[i].klen);
		buf_puts(b, ": ");
		if (!m[i].val)
			buf_puts(b, "null");
		else if (dump(b, m[i].val) < 0)
			return -1;
	}
	buf_putc(b, '}');
	return 0;
}

static int dump(struct buf *b, const struct toml_value *v)
{
	struct member *m;
	size_t i;
	int rc;

	switch (v->type) {
	case TOML_STRING:
		dump_str(b, v->str, v->len);
		return 0;
	case TOML_INTEGER:
		buf_printf(b, "%lld", v->i);
		return 0;
	case TOML_BOOL:
		buf_puts(b, v->b ? "true" : "false");
		return 0;
	case TOML_ARRAY:
		buf_putc(b, '[');
		for (i = 0; i < v->n; i++) {
			if (i)
				buf_puts(b, ", ");
			if (dump(b, v->items[i]) < 0)
				return -1;
		}
		buf_putc(b, ']');
		return 0;
	case TOML_TABLE:
		m = xcalloc(v->n ? v->n : 1, sizeof(*m));
		for (i = 0; i < v->n; i++) {
			m[i].key = v->kv[i].key;
			m[i].klen = v->kv[i].klen;
			m[i].val = v->kv[i].val;
		}
		rc = dump_members(b, m, v->n);
		free(m);
		return rc;
	default:
		/* a float is Python's repr; a date or time makes json.dumps
		 * raise: not ours to guess */
		return -1;
	}
}

static const char *const legacy_keys[] = {
	"dependencies", "source", "extras", "dev-dependencies",
};
static const char *const project_keys[] = {
	"requires-python", "dependencies", "optional-dependencies",
};

/* [tool.poetry]'s relevant keys into m (at most 5): the legacy ones as
 * null when absent unless skip_absent, "group" only when present. */
static size_t poetry_members(const struct toml_value *poetry, int skip_absent,
			     struct member *m)
{
	size_t i, n = 0;

	for (i = 0; i < ARRAY_SIZE(legacy_keys); i++) {
		const struct toml_value *v = toml_get(poetry, legacy_keys[i]);

		if (!v && skip_absent)
			continue;
		m[n].key = legacy_keys[i];
		m[n].klen = strlen(legacy_keys[i]);
		m[n++].val = v;
	}
	if (toml_get(poetry, "group")) {
		m[n].key = "group";
		m[n].klen = 5;
		m[n++].val = toml_get(poetry, "group");
	}
	return n;
}

int poetry_hash_text(const struct toml_value *pyproject, int k, char **out)
{
	const struct toml_value *poetry = toml_get(toml_get(pyproject, "tool"), "poetry");
	const struct toml_value *project = toml_get(pyproject, "project");
	const struct toml_value *groups = toml_get(pyproject, "dependency-groups");
	struct member pm[5] = { { NULL, 0, NULL } }, prj[3] = { { NULL, 0, NULL } };
	struct member top[3] = { { NULL, 0, NULL } };
	struct buf b = BUF_INIT;
	size_t i, np = 0, ntop = 0;
	int rc = 0, use_groups = k >= 2 && groups && groups->type == TOML_TABLE && groups->n;

	*out = NULL;
	for (i = 0; k >= 1 && i < ARRAY_SIZE(project_keys); i++) {
		const struct toml_value *v = toml_get(project, project_keys[i]);

		if (!v)
			continue;
		prj[np].key = project_keys[i];
		prj[np].klen = strlen(project_keys[i]);
		prj[np++].val = v;
	}
	if (!np && !use_groups) {
		/* 1.x's, which 2.x keeps for a project of [tool.poetry] alone */
		size_t npm = poetry_members(poetry, 0, pm);

		rc = dump_members(&b, pm, npm);
		goto out;
	}
	/* {"project": ..., "dependency-groups": ..., "tool": {"poetry": ...}},
	 * written by hand: "project" and "tool" are not TOML values here */
	if (np) {
		top[ntop].key = "project";
		top[ntop].klen = 7;
		top[ntop++].val = NULL;
	}
	if (use_groups) {
		top[ntop].key = "dependency-groups";
		top[ntop].klen = 17;
		top[ntop++].val = groups;
	}
	top[ntop].key = "tool";
	top[ntop].klen = 4;
	top[ntop++].val = NULL;
	qsort(top, ntop, sizeof(*top), member_cmp);
	buf_putc(&b, '{');
	for (i = 0; i < ntop && rc == 0; i++) {
		if (i)
			buf_puts(&b, ", ");
		dump_str(&b, top[i].key, top[i].klen);
		buf_puts(&b, ": ");
		if (!strcmp(top[i].key, "project")) {
			rc = dump_members(&b, prj, np);
		} else if (!strcmp(top[i].key, "tool")) {
			size_t npm = poetry_members(poetry, 1, pm);

			buf_puts(&b, "{\"poetry\": ");
			rc = dump_members(&b, pm, npm);
			buf_putc(&b, '}');
		} else {
			rc = dump(&b, top[i].val);
		}
	}
	buf_putc(&b, '}');
out:
	if (rc < 0) {
		buf_release(&b);
		return -1;
	}
	*out = buf_detach(&b);
	return 0;
}

int poetry_hash_fresh(const struct toml_value *pyproject, const char *hash, int since)
{
	static const char hex[] = "0123456789abcdef";
	int k, untold = 0;

	if (!hash || strlen(hash) != 64)
		return -1;
	for (k = since < 0 ? 0 : since; k < 3; k++) {
		unsigned char d[32];
		char text[65], *json;
		size_t i;

		if (poetry_hash_text(pyproject, k, &json) < 0) {
			untold = 1;	/* that release's hash is not known */
			continue;
		}
		digest_sha256((const unsigned char *)json, strlen(json), d);
		free(json);
		for (i = 0; i < 32; i++) {
			text[2 * i] = hex[d[i] >> 4];
			text[2 * i + 1] = hex[d[i] & 15];
		}
		text[64] = '\0';
		if (!strcmp(text, hash))
			return 1;
	}
	return untold ? -1 : 0;
}
