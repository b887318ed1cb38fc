/* toolversions.c - asdf / mise .tool-versions; see toolversions.h */
#include "toolversions.h"
#include "strmap.h"
#include "util.h"
#include "versions.h"

#include <stdlib.h>
#include <string.h>

/* asdf / mise plugin name -> the runtime name the runtimes probe uses.
 * One row per plugin name; a new runtime is one new row. */
static const struct {
	const char *plugin, *runtime;
} plugins[] = {
	{ "nodejs", "node" },
	{ "node", "node" },
	{ "python", "python" },
	{ "golang", "go" },
	{ "go", "go" },
	{ "ruby", "ruby" },
	{ "java", "java" },
	{ "rust", "rust" },
	{ "deno", "deno" },
	{ "bun", "bun" },
	{ "npm", "npm" },
	{ "pnpm", "pnpm" },
	{ "yarn", "yarn" },
	{ "erlang", "erlang" },
	{ "elixir", "elixir" },
	{ "php", "php" },
	{ "dotnet", "dotnet" },
	{ "dotnet-core", "dotnet" },
	{ "terraform", "terraform" },
	{ "kubectl", "kubectl" },
	{ "helm", "helm" },
};

const char *toolversions_runtime(const char *plugin, size_t len)
{
	size_t i;

	if (len > 5 && memcmp(plugin, "core:", 5) == 0)
		plugin += 5, len -= 5;
	for (i = 0; i < ARRAY_SIZE(plugins); i++)
		if (strlen(plugins[i].plugin) == len &&
		    memcmp(plugins[i].plugin, plugin, len) == 0)
			return plugins[i].runtime;
	return NULL;
}

enum toolversions_kind toolversions_classify(const char *s, size_t len)
{
	if (len == 6 && memcmp(s, "system", 6) == 0)
		return TOOLVERSIONS_SYSTEM;
	if (versions_starts(s, len, "ref:"))
		return TOOLVERSIONS_REF;
	if (versions_starts(s, len, "path:"))
		return TOOLVERSIONS_PATH;
	if ((len == 6 && memcmp(s, "latest", 6) == 0) ||
	    (len == 3 && memcmp(s, "lts", 3) == 0) || memchr(s, ':', len))
		return TOOLVERSIONS_OTHER;
	return TOOLVERSIONS_VERSION;
}

/* One line with its comment already cut off: add an entry, or note a
 * duplicate.  Returns 0, or -1 with the error filled in. */
static int parse_line(struct toolversions *out, struct strmap *seen,
		      const struct versions_line *ln, struct parse_error *err)
{
	const char *end = ln->s + ln->len, *tool = ln->s, *ver, *p;
	size_t tlen, vlen, n, i;
	struct toolversions_entry *e;
	unsigned nver = 0;

	/* asdf splits on [[:blank:]]; a CR of a CRLF line is blank to us too */
	tlen = versions_next_word(&tool, end);
	if (!tlen)
		return 0;
	ver = tool + tlen;
	vlen = versions_next_word(&ver, end);
	if (!vlen) {
		char q[VERSIONS_QUOTE_MAX];

		parse_error_set(err, ln->no, (unsigned)(tool - ln->s) + 1,
				"'%s' has no version",
				versions_quote(q, sizeof(q), tool, tlen));
		return -1;
	}
	for (p = ver; (n = versions_next_word(&p, end)); nver++)
		p += n;
	/* a hash set of the tools met: a file of 100,000 tools must not
	 * cost 100,000 comparisons a line (issue 8) */
	i = strmap_get(seen, tool, tlen);
	if (i != STRMAP_NONE) {
		e = &out->v[i];
		if (!e->dup_line)
			e->dup_line = ln->no;
		return 0;
	}
	grow(&out->v, sizeof(*out->v), &out->cap, out->n + 1);
	e = &out->v[out->n++];
	memset(e, 0, sizeof(*e));
	e->tool = xstrndup(tool, tlen);
	strmap_put(seen, e->tool, tlen, out->n - 1);
	e->runtime = toolversions_runtime(tool, tlen);
	e->version = xstrndup(ver, vlen);
	e->kind = toolversions_classify(ver, vlen);
	e->nversions = nver;
	e->line = ln->no;
	e->col = (unsigned)(tool - ln->s) + 1;
	e->version_col = (unsigned)(ver - ln->s) + 1;
	return 0;
}

int toolversions_parse(const char *buf, size_t len, struct toolversions *out,
		       struct parse_error *err)
{
	struct versions_line ln = { NULL, 0, 0 };
	struct strmap seen = STRMAP_INIT;
	size_t pos = 0;

	memset(out, 0, sizeof(*out));
	if (versions_text(buf, len, err) < 0)
		return -1;
	while (versions_next_line(buf, len, &pos, &ln)) {
		const char *hash = memchr(ln.s, '#', ln.len);

		if (hash)
			ln.len = (size_t)(hash - ln.s);
		if (parse_line(out, &seen, &ln, err) < 0) {
			strmap_release(&seen);
			toolversions_release(out);
			return -1;
		}
	}
	strmap_release(&seen);
	return 0;
}

const struct toolversions_entry *
toolversions_find(const struct toolversions *t, const char *runtime)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		const char *name = t->v[i].runtime ? t->v[i].runtime : t->v[i].tool;

		if (strcmp(name, runtime) == 0)
			return &t->v[i];
	}
	return NULL;
}

void toolversions_release(struct toolversions *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		free(t->v[i].tool);
		free(t->v[i].version);
	}
	free(t->v);
	memset(t, 0, sizeof(*t));
}

const char *toolversions_core(const char *s, size_t *len)
{
	const char *dash = strchr(s, '-');
	size_t n;

	if (dash && dash[1] >= '0' && dash[1] <= '9' &&
	    strcspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") <
	    (size_t)(dash - s))
		s = dash + 1;
	if (*s == 'v')
		s++;
	n = strspn(s, "0123456789.");
	while (n && s[n - 1] == '.')
		n--;
	*len = s[0] >= '0' && s[0] <= '9' ? n : 0;
	return s;
}
