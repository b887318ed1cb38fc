/* deps_yarn.c - yarn's lockfile (yarn.lock of yarn 2 and later) and the
 * node-modules linker's node_modules/.yarn-state.yml as package sets
 * (see deps.h).
 */
#include "deps_yaml.h"
#include "deps.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- yarn ---- */

/* The '@' after a locator's name (a scope's own '@' skipped), or NULL;
 * an empty locator (a key "") has none, and nothing after its NUL is
 * read (fuzz_yarnlock: strchr(loc + 1) read past an empty key). */
static const char *locator_at(const char *loc)
{
	return *loc ? strchr(loc + 1, '@') : NULL;
}

/* "lodash@npm:4.17.21" -> "lodash"; "@s/a@npm:1.0.0" -> "@s/a". */
static char *locator_name(const char *loc)
{
	const char *at = locator_at(loc);

	return at ? xstrndup(loc, (size_t)(at - loc)) : xstrdup(loc);
}

/* What a locator pins, for a message: "4.17.21" of "lodash@npm:4.17.21",
 * else all after the name's '@'. */
static const char *locator_version(const char *loc)
{
	const char *at = locator_at(loc);

	if (!at)
		return NULL;
	return !strncmp(at + 1, "npm:", 4) ? at + 5 : at + 1;
}

/* The install state names a package with peer dependencies by a virtual
 * locator, "debug@virtual:<hash>#npm:4.3.4"; the lockfile by the package
 * itself, "debug@npm:4.3.4" (berry's structUtils.devirtualizeLocator). */
static char *devirtualize(const char *loc, size_t len)
{
	const char *at = len > 1 ? memchr(loc + 1, '@', len - 1) : NULL;
	const char *hash;

	if (!at || (size_t)(loc + len - at) < 9 || memcmp(at + 1, "virtual:", 8) ||
	    !(hash = memchr(at, '#', (size_t)(loc + len - at))))
		return xstrndup(loc, len);
	{
		struct buf b = BUF_INIT;

		buf_add(&b, loc, (size_t)(at - loc) + 1);
		buf_add(&b, hash + 1, (size_t)(loc + len - hash - 1));
		return buf_detach(&b);
	}
}

struct yarn_ctx {
	struct dep_set *s;
	int state;
	/* the entry being read (yarn.lock): its descriptor line and fields */
	char *version, *resolution;
	int conditions;
	unsigned line;
};

static void yarn_flush(struct yarn_ctx *c)
{
	if (c->resolution && !strstr(c->resolution, "@workspace:")) {
		char *name = locator_name(c->resolution);
		struct dep *d = dep_set_add(c->s, c->resolution, name,
					    c->version ? c->version :
					    locator_version(c->resolution),
					    c->conditions ? DEP_OPTIONAL : 0);

		d->line = c->line;
		free(name);
	}
	free(c->version);
	free(c->resolution);
	c->version = c->resolution = NULL;
	c->conditions = 0;
}

static int yarn_fn(void *arg, const struct ypath *p)
{
	struct yarn_ctx *c = arg;

	if (p->depth == 0 && p->is_key) {
		yarn_flush(c);
		c->line = p->line;
		if (c->state && strcmp(p->value, "__metadata") &&
		    !strstr(p->value, "@workspace:")) {
			char *loc = devirtualize(p->value, p->vlen);
			char *name = locator_name(loc);
			struct dep *d = dep_set_add(c->s, loc, name, locator_version(loc), 0);

			d->line = p->line;
			free(name);
			free(loc);
		}
		return 0;
	}
	if (c->state || p->depth != 2 || p->is_key || p->in_seq ||
	    !strcmp(p->key[0], "__metadata"))
		return 0;
	if (!strcmp(p->key[1], "version") && !c->version)
		c->version = xstrndup(p->value, p->vlen);
	else if (!strcmp(p->key[1], "resolution") && !c->resolution)
		c->resolution = xstrndup(p->value, p->vlen);
	else if (!strcmp(p->key[1], "conditions"))
		c->conditions = 1;	/* os=darwin & cpu=arm64: only where it fits */
	return 0;
}

int deps_yarn_parse(const char *buf, size_t len, int state, struct dep_set *s,
		    struct parse_error *err)
{
	struct yarn_ctx c;
	size_t head = len < 512 ? len : 512;
	int rc;

	memset(err, 0, sizeof(*err));
	/* yarn 1 writes its own format (not YAML) and says so at the top */
	if (!state && memmem(buf, head, "# yarn lockfile v1", 18))
		return 1;
	memset(&c, 0, sizeof(c));
	c.s = s;
	c.state = state;
	rc = deps_yaml_walk(buf, len, yarn_fn, &c, err);
	yarn_flush(&c);
	return rc;
}
