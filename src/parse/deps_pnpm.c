/* deps_pnpm.c - pnpm's lockfile (pnpm-lock.yaml), its current lockfile
 * (node_modules/.pnpm/lock.yaml) and node_modules/.modules.yaml as
 * package sets (see deps.h).
 */
#include "deps_yaml.h"
#include "deps.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- pnpm ---- */

/* A pnpm package id into name and version: "a@1.0.0(peer@2)" (v9),
 * "/a@1.0.0" (v6), "/a/1.0.0_peer@2" (v5), "@s/a@1.0.0" (scoped).  The
 * version keeps a peer suffix: two ids differ by it. */
static void pnpm_split(const char *id, char **name, char **version)
{
	const char *s = id[0] == '/' ? id + 1 : id;
	const char *paren = strchr(s, '(');
	const char *stop = paren ? paren : s + strlen(s);
	const char *at = NULL, *q;

	for (q = s + 1; q < stop; q++)
		if (*q == '@')
			at = q;
	if (!at && id[0] == '/') {	/* v5: the last '/' splits */
		const char *slash = strrchr(s, '/');

		if (slash && slash > s)
			at = slash;
	}
	if (!at) {
		*name = xstrdup(s);
		*version = NULL;
		return;
	}
	*name = xstrndup(s, (size_t)(at - s));
	*version = xstrdup(at + 1);
}

struct pnpm_ctx {
	struct dep_set *s;
	int saw_snapshots;	/* v9: read snapshots, not packages */
};

/* The id (key) without v5/v6's leading '/', so that a v6 record of a v9
 * lockfile still matches by name and version. */
static struct dep *pnpm_add(struct dep_set *s, const char *id, unsigned line)
{
	char *name, *version;
	struct dep *d;

	pnpm_split(id, &name, &version);
	d = dep_set_add(s, id[0] == '/' ? id + 1 : id, name, version, 0);
	d->line = line;
	free(name);
	free(version);
	return d;
}

static int pnpm_fn(void *arg, const struct ypath *p)
{
	struct pnpm_ctx *c = arg;
	const char *section = c->saw_snapshots ? "snapshots" : "packages";

	if (p->depth == 0 && p->is_key && !strcmp(p->value, "snapshots")) {
		/* v9: snapshots (after packages) are the installed ids, with
		 * their peers; packages then only holds metadata */
		c->saw_snapshots = 1;
		dep_set_release(c->s);
		return 0;
	}
	if (p->depth == 1 && p->is_key && !strcmp(p->key[0], section)) {
		pnpm_add(c->s, p->value, p->line);
		return 0;
	}
	/* <section>.<id>.optional: true - pnpm skips it where it cannot go */
	if (p->depth == 3 && !p->is_key && !p->in_seq && !strcmp(p->key[0], section) &&
	    !strcmp(p->key[2], "optional") && p->vlen == 4 && !memcmp(p->value, "true", 4)) {
		const char *id = p->key[1][0] == '/' ? p->key[1] + 1 : p->key[1];
		size_t i = strmap_get(&c->s->index, id, strlen(id));

		if (i != STRMAP_NONE)
			c->s->v[i].flags |= DEP_OPTIONAL;
	}
	return 0;
}

int deps_pnpm_parse(const char *buf, size_t len, struct dep_set *s,
		    struct parse_error *err)
{
	struct pnpm_ctx c = { s, 0 };

	return deps_yaml_walk(buf, len, pnpm_fn, &c, err);
}

struct modules_ctx {
	struct dep_set *skipped;
	char **by;
};

static int modules_fn(void *arg, const struct ypath *p)
{
	struct modules_ctx *c = arg;

	if (p->depth == 1 && !p->is_key && p->in_seq && !strcmp(p->key[0], "skipped"))
		pnpm_add(c->skipped, p->value, p->line);
	else if (p->depth == 1 && !p->is_key && !p->in_seq &&
		 !strcmp(p->key[0], "packageManager") && !*c->by)
		*c->by = xstrndup(p->value, p->vlen);
	return 0;
}

int deps_pnpm_modules(const char *buf, size_t len, struct dep_set *skipped,
		      char **by, struct parse_error *err)
{
	struct modules_ctx c = { skipped, by };

	*by = NULL;
	return deps_yaml_walk(buf, len, modules_fn, &c, err);
}

