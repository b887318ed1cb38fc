/* deps_yaml.c - pnpm's and yarn's lockfiles and install records as
 * package sets (see deps.h).
 *
 * Lockfiles run to megabytes, so they are not built into a ytree: one
 * pass over libyaml's events keeps only the mapping keys above the
 * current scalar.  Aliases are never expanded (an alias is one empty
 * value), so a "billion laughs" lockfile costs nothing, and nesting is
 * capped.
 */
#include "deps.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#define YW_KEYS 4		/* mapping keys kept above a scalar */
#define YW_MAX_DEPTH 1000

/* One scalar and where it sits: key[0] is its top-level key, key[1] the
 * key below that, ... (depth of them). */
struct ypath {
	unsigned depth;
	const char *key[YW_KEYS];
	const char *value;	/* the scalar (a key itself when is_key) */
	size_t vlen;
	int is_key;
	int in_seq;		/* an item of a sequence */
	unsigned line;
};

typedef int yw_fn(void *ctx, const struct ypath *p);

struct yw_level {
	int map;		/* a mapping (else a sequence) */
	int want_key;		/* mapping: the next scalar is a key */
	char *key;		/* mapping: its current key */
};

static void yw_error(struct parse_error *err, const yaml_mark_t *m, const char *msg)
{
	parse_error_set(err, m ? (unsigned)m->line + 1 : 0,
			m ? (unsigned)m->column + 1 : 0, "%s", msg);
}

/* Walk every scalar of the first document (a mapping at the top). */
static int ywalk(const char *buf, size_t len, yw_fn *fn, void *ctx,
		 struct parse_error *err)
{
	yaml_parser_t parser;
	struct yw_level *lv = NULL;
	size_t n = 0, cap = 0, i;
	int rc = -1, done = 0;
	unsigned end_line, end_col;

	memset(err, 0, sizeof(*err));
	text_yaml_end(buf, len, &end_line, &end_col);
	if (!yaml_parser_initialize(&parser)) {
		parse_error_msg(err, "cannot start the YAML parser");
		return -1;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
	while (!done) {
		yaml_event_t ev;
		struct ypath p;

		if (!yaml_parser_parse(&parser, &ev)) {
			yw_error(err, &parser.problem_mark, parser.problem ? parser.problem :
				 "malformed YAML");
			goto out;
		}
		switch (ev.type) {
		case YAML_MAPPING_START_EVENT:
		case YAML_SEQUENCE_START_EVENT:
			if (n == 0 && ev.type != YAML_MAPPING_START_EVENT) {
				yw_error(err, &ev.start_mark, "expected a mapping at the top");
				yaml_event_delete(&ev);
				goto out;
			}
			if (n >= YW_MAX_DEPTH) {
				yw_error(err, &ev.start_mark, "nested too deeply");
				yaml_event_delete(&ev);
				goto out;
			}
			if (n && lv[n - 1].map)
				lv[n - 1].want_key = 1;	/* the value of a key */
			grow(&lv, sizeof(*lv), &cap, n + 1);
			lv[n].map = ev.type == YAML_MAPPING_START_EVENT;
			lv[n].want_key = 1;
			lv[n].key = NULL;
			n++;
			break;
		case YAML_MAPPING_END_EVENT:
		case YAML_SEQUENCE_END_EVENT:
			if (!n)		/* libyaml pairs them; never below the top */
				break;
			n--;
			free(lv[n].key);
			if (!n)
				done = 1;
			break;
		case YAML_SCALAR_EVENT:
		case YAML_ALIAS_EVENT:
			if (!n) {
				yw_error(err, &ev.start_mark, "expected a mapping at the top");
				yaml_event_delete(&ev);
				goto out;
			}
			memset(&p, 0, sizeof(p));
			p.is_key = lv[n - 1].map && lv[n - 1].want_key;
			p.in_seq = !lv[n - 1].map;
			/* an empty value at the end of a text without a
			 * final newline: a mark past its last line */
			p.line = (unsigned)ev.start_mark.line + 1;
			if (p.line > end_line)
				p.line = end_line;
			if (ev.type == YAML_SCALAR_EVENT) {
				p.value = (const char *)ev.data.scalar.value;
				p.vlen = ev.data.scalar.length;
			} else {
				p.value = "";
			}
			/* the keys of the mappings above, the level itself included
			 * for a value */
			for (i = 0; i < n && p.depth < YW_KEYS; i++) {
				if (!lv[i].map)
					continue;
				if (i == n - 1 && p.is_key)
					break;
				p.key[p.depth++] = lv[i].key ? lv[i].key : "";
			}
			if (lv[n - 1].map) {
				if (p.is_key) {
					free(lv[n - 1].key);
					lv[n - 1].key = xstrndup(p.value, p.vlen);
				}
				lv[n - 1].want_key = !p.is_key;
			}
			if (fn(ctx, &p) < 0) {
				yw_error(err, &ev.start_mark, "");
				yaml_event_delete(&ev);
				goto out;
			}
			break;
		case YAML_STREAM_END_EVENT:
			done = 1;
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
	}
	rc = 0;
out:
	if (rc < 0 && err->line > end_line) {
		err->line = end_line;
		err->col = end_col;
	}
	for (i = 0; i < n; i++)
		free(lv[i].key);
	free(lv);
	yaml_parser_delete(&parser);
	return rc;
}

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

	return ywalk(buf, len, pnpm_fn, &c, err);
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
	return ywalk(buf, len, modules_fn, &c, err);
}

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
	rc = ywalk(buf, len, yarn_fn, &c, err);
	yarn_flush(&c);
	return rc;
}
