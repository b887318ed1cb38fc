/* deps_yarn.c - yarn's lockfile (yarn.lock of yarn 2 and later) as yarn
 * reads it, and the node-modules linker's node_modules/.yarn-state.yml
 * (see deps.h and yarnstate.h).
 *
 * yarn.lock is not a list of what is installed: berry's linkers install
 * what the resolution reaches from the workspaces (yarnpkg-core
 * Project.ts resolveEverything: accessibleLocators), a built-in compat
 * patch in place of the package it patches (plugin-compat: the
 * reduceDependency hook turns "typescript@npm:5.4.5" into
 * "typescript@patch:typescript@npm%3A5.4.5#optional!builtin<compat/typescript>",
 * whose npm: source entry is then fetched to build the patch but never
 * linked), and not an optional package whose `conditions` do not hold for
 * supportedArchitectures (resolveEverything: a conditional locator in
 * optionalBuilds that isPackageCompatible rejects goes to
 * disabledLocators), nor what only such a package reaches.
 */
#include "deps_yaml.h"
#include "deps.h"
#include "yarnstate.h"
#include "util.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- locators and descriptors ---- */

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

/* What a locator pins, for a message: "4.17.21" of "lodash@npm:4.17.21";
 * a patch's "::version=5.4.5" parameter (berry's patchUtils: the patched
 * package's version); else all after the name's '@'.  A new string. */
static char *locator_version(const char *loc)
{
	const char *at = locator_at(loc), *p, *e;

	if (!at)
		return NULL;
	if (!strncmp(at + 1, "patch:", 6) && (p = strstr(at, "::"))) {
		for (p += 2; *p; p = e + (*e == '&')) {
			e = p + strcspn(p, "&");
			if (!strncmp(p, "version=", 8))
				return xstrndup(p + 8, (size_t)(e - p - 8));
			if (!*e)
				break;
		}
	}
	return xstrdup(!strncmp(at + 1, "npm:", 4) ? at + 5 : at + 1);
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

char *yarn_normalize_range(const char *range)
{
	/* berry's Manifest/Project: a range without a protocol is the
	 * defaultProtocol's ("npm:"); yarn 3 writes "ms: 2.1.2" in the
	 * lockfile's dependencies and "ms@npm:2.1.2" in its keys */
	if (strchr(range, ':'))
		return xstrdup(range);
	{
		struct buf b = BUF_INIT;

		buf_puts(&b, "npm:");
		buf_puts(&b, range);
		return buf_detach(&b);
	}
}

char *yarn_descriptor(const char *name, size_t nlen, const char *range)
{
	struct buf b = BUF_INIT;
	char *r = yarn_normalize_range(range);

	buf_add(&b, name, nlen);
	buf_putc(&b, '@');
	buf_puts(&b, r);
	free(r);
	return buf_detach(&b);
}

/* %XX decoded (berry encodes a patch's source with encodeURIComponent). */
static char *percent_decode(const char *s, size_t len)
{
	struct buf b = BUF_INIT;
	size_t i;

	for (i = 0; i < len; i++) {
		int hi, lo;

		if (s[i] == '%' && i + 2 < len + 0 && (hi = hex_digit(s[i + 1])) >= 0 &&
		    (lo = hex_digit(s[i + 2])) >= 0) {
			buf_putc(&b, (char)(hi * 16 + lo));
			i += 2;
		} else {
			buf_putc(&b, s[i]);
		}
	}
	return buf_detach(&b);
}

/* ---- yarn.lock ---- */

struct lock_ctx {
	struct yarn_lock *y;
	struct yarn_entry *cur;	/* the entry being read, or NULL */
	int meta;		/* in __metadata */
	char **opt;		/* dependenciesMeta optional names of cur */
	size_t nopt, opt_cap;
};

static void lock_flush(struct lock_ctx *c)
{
	size_t i, j;

	if (c->cur)
		for (i = 0; i < c->nopt; i++)
			for (j = 0; j < c->cur->ndeps; j++)
				if (!strcmp(c->cur->deps[j].name, c->opt[i]))
					c->cur->deps[j].optional = 1;
	for (i = 0; i < c->nopt; i++)
		free(c->opt[i]);
	c->nopt = 0;
	c->cur = NULL;
}

static int lock_fn(void *arg, const struct ypath *p)
{
	struct lock_ctx *c = arg;
	struct yarn_entry *e;

	if (p->depth == 0 && p->is_key) {
		lock_flush(c);
		c->meta = !strcmp(p->value, "__metadata");
		if (c->meta)
			return 0;
		grow(&c->y->v, sizeof(*c->y->v), &c->y->cap, c->y->n + 1);
		e = c->cur = &c->y->v[c->y->n++];
		memset(e, 0, sizeof(*e));
		e->key = xstrndup(p->value, p->vlen);
		e->line = p->line;
		return 0;
	}
	if (p->is_key || p->depth < 2)
		return 0;
	if (c->meta) {
		long v;

		if (p->depth == 2 && !strcmp(p->key[1], "version") && !p->in_seq) {
			c->y->meta_version = parse_long(p->value, 0, 1000000, &v) == 0 ? v : -2;
			c->y->meta_line = p->line;
		}
		return 0;
	}
	if (!(e = c->cur))
		return 0;
	if (p->depth == 2 && !p->in_seq) {
		char **f = !strcmp(p->key[1], "version") ? &e->version :
			   !strcmp(p->key[1], "resolution") ? &e->resolution :
			   !strcmp(p->key[1], "conditions") ? &e->conditions : NULL;

		if (f && !*f)
			*f = xstrndup(p->value, p->vlen);
	} else if (p->depth == 3 && !p->in_seq && (!strcmp(p->key[1], "dependencies") ||
						     !strcmp(p->key[1], "peerDependencies"))) {
		/* from 2, not grow's 8: most entries have a few (a page of
		 * memory touched costs more than the copies here) */
		if (e->ndeps == e->cap) {
			e->cap = e->cap ? e->cap * 2 : 2;
			e->deps = xrealloc(e->deps, e->cap * sizeof(*e->deps));
		}
		e->deps[e->ndeps].name = xstrdup(p->key[2]);
		e->deps[e->ndeps].range = xstrndup(p->value, p->vlen);
		e->deps[e->ndeps].peer = p->key[1][0] == 'p';
		e->deps[e->ndeps++].optional = 0;
	} else if (p->depth == 4 && !strcmp(p->key[1], "dependenciesMeta") &&
		   !strcmp(p->key[3], "optional") && p->vlen == 4 &&
		   !memcmp(p->value, "true", 4)) {
		grow(&c->opt, sizeof(*c->opt), &c->opt_cap, c->nopt + 1);
		c->opt[c->nopt++] = xstrdup(p->key[2]);
	}
	return 0;
}

static void keep_key(struct yarn_lock *y, struct strmap *m, char *k, size_t value)
{
	grow(&y->keys, sizeof(*y->keys), &y->keys_cap, y->nkeys + 1);
	y->keys[y->nkeys++] = k;
	strmap_put(m, k, strlen(k), value);
}

/* Index the entries by descriptor (a key lists several, ", "-separated:
 * Project.ts setupResolutions splits on / *, * /, so the spaces around a
 * comma go and those at the key's two ends stay: AFFiNE's key
 * "p-limit@npm:3.1.0, p-limit@npm:^3.1.0 " is the descriptor of a
 * dependency written "npm:^3.1.0 "), and the compat patches by the
 * descriptor they patch. */
static void lock_index(struct yarn_lock *y)
{
	size_t i;

	y->same_name = xmalloc(sizeof(*y->same_name) * (y->n + 1));
	strmap_reserve(&y->names, y->n);
	for (i = y->n; i-- > 0;) {
		struct yarn_entry *e = &y->v[i];
		char *name;
		size_t first;

		y->same_name[i] = STRMAP_NONE;
		if (!e->resolution)
			continue;
		name = locator_name(e->resolution);
		first = strmap_get(&y->names, name, strlen(name));
		y->same_name[i] = first;
		keep_key(y, &y->names, name, i);
	}
	for (i = 0; i < y->n; i++) {
		struct yarn_entry *e = &y->v[i];
		const char *s = e->key;

		e->workspace = e->resolution && strstr(e->resolution, "@workspace:") != NULL;
		while (*s) {
			size_t len = strcspn(s, ",");
			const char *at, *b = s, *end = s + len;
			char *d, *one;

			while (b > e->key && b < end && *b == ' ')
				b++;
			while (*end == ',' && end > b && end[-1] == ' ')
				end--;
			one = xstrndup(b, (size_t)(end - b));
			if ((at = locator_at(one))) {
				d = yarn_descriptor(one, (size_t)(at - one), at + 1);
				keep_key(y, &y->desc, d, i);
				/* plugin-compat: "name@patch:<source>#...builtin<compat/...>" */
				if (!strncmp(at + 1, "patch:", 6) && strstr(at, "builtin<compat/")) {
					const char *src = at + 7, *hash = strchr(src, '#');
					char *dec = hash ? percent_decode(src, (size_t)(hash - src)) : NULL;
					const char *sat = dec ? locator_at(dec) : NULL;

					if (sat) {
						d = yarn_descriptor(dec, (size_t)(sat - dec), sat + 1);
						keep_key(y, &y->compat, d, i);
					}
					free(dec);
				}
			}
			free(one);
			s += len;
			if (*s == ',')
				s++;
		}
	}
}

static size_t lock_resolve(const struct yarn_lock *y, const struct yarn_entry *e,
			   const struct yarn_dep *d);

int yarn_lock_parse(const char *buf, size_t len, struct yarn_lock *y, struct parse_error *err)
{
	struct lock_ctx c;
	size_t head = len < 512 ? len : 512;
	int rc;

	memset(err, 0, sizeof(*err));
	/* yarn 1 writes its own format (not YAML) and says so at the top */
	if (memmem(buf, head, "# yarn lockfile v1", 18))
		return 1;
	memset(&c, 0, sizeof(c));
	c.y = y;
	rc = deps_yaml_walk(buf, len, lock_fn, &c, err);
	lock_flush(&c);
	free(c.opt);
	if (rc == 0) {
		size_t i, j;

		lock_index(y);
		/* each edge resolved once, not once a walk */
		for (i = 0; i < y->n; i++)
			for (j = 0; j < y->v[i].ndeps; j++)
				y->v[i].deps[j].to = y->v[i].deps[j].peer ? STRMAP_NONE :
						     lock_resolve(y, &y->v[i], &y->v[i].deps[j]);
	}
	return rc;
}

void yarn_lock_release(struct yarn_lock *y)
{
	size_t i, j;

	for (i = 0; i < y->n; i++) {
		struct yarn_entry *e = &y->v[i];

		for (j = 0; j < e->ndeps; j++) {
			free(e->deps[j].name);
			free(e->deps[j].range);
		}
		free(e->deps);
		free(e->key);
		free(e->resolution);
		free(e->version);
		free(e->conditions);
	}
	free(y->v);
	strmap_release(&y->desc);
	strmap_release(&y->compat);
	strmap_release(&y->names);
	free(y->same_name);
	for (i = 0; i < y->nkeys; i++)
		free(y->keys[i]);
	free(y->keys);
	memset(y, 0, sizeof(*y));
	y->meta_version = -1;
}

/* ---- conditions ---- */

/* berry's Manifest.getConditions writes "os=darwin & cpu=arm64", a
 * field of several values "(os=linux | os=darwin)", a negated one
 * "!os=win32"; Project.ts isPackageCompatible evaluates it (the grammar
 * of @yarnpkg/parsers' makeParser) with each "field=value" true when
 * supportedArchitectures[field] holds the value.  1 true, 0 false, -1
 * not read. */
struct cond {
	const char *s;
	const struct yarn_arch *arch;
	int bad, depth;
};

static int cond_or(struct cond *c);

static void cond_space(struct cond *c)
{
	while (*c->s == ' ')
		c->s++;
}

static int cond_atom(struct cond *c)
{
	const char *f, *v, *want;
	size_t flen, vlen;

	cond_space(c);
	if (*c->s == '!') {
		c->s++;
		return !cond_atom(c);
	}
	if (*c->s == '(') {
		int r;

		if (++c->depth > 64) {
			c->bad = 1;
			return 0;
		}
		c->s++;
		r = cond_or(c);
		cond_space(c);
		if (*c->s != ')')
			c->bad = 1;
		else
			c->s++;
		c->depth--;
		return r;
	}
	f = c->s;
	flen = strspn(f, "abcdefghijklmnopqrstuvwxyz");
	if (f[flen] != '=') {
		c->bad = 1;
		return 0;
	}
	v = f + flen + 1;
	vlen = strspn(v, "abcdefghijklmnopqrstuvwxyz0123456789_-");
	c->s = v + vlen;
	if (flen == 2 && !memcmp(f, "os", 2))
		want = c->arch->os;
	else if (flen == 3 && !memcmp(f, "cpu", 3))
		want = c->arch->cpu;
	else if (flen == 4 && !memcmp(f, "libc", 4))
		want = c->arch->libc;
	else {
		c->bad = 1;
		return 0;
	}
	return want && strlen(want) == vlen && !memcmp(want, v, vlen);
}

static int cond_and(struct cond *c)
{
	int r = cond_atom(c);

	for (cond_space(c); *c->s == '&' && !c->bad; cond_space(c)) {
		c->s++;
		r = cond_atom(c) && r;
	}
	return r;
}

static int cond_or(struct cond *c)
{
	int r = cond_and(c);

	for (cond_space(c); *c->s == '|' && !c->bad; cond_space(c)) {
		c->s++;
		r = cond_and(c) || r;
	}
	return r;
}

static int cond_eval(const char *s, const struct yarn_arch *arch)
{
	struct cond c = { s, arch, 0, 0 };
	int r = cond_or(&c);

	cond_space(&c);
	return c.bad || *c.s ? -1 : r;
}

/* ---- what the linker installs ---- */

/* encodeURIComponent (berry binds a relative descriptor to its parent
 * with "::locator=" and the parent's locator so encoded). */
static void uri_encode(struct buf *b, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    strchr("-_.!~*'()", c)) {
			buf_putc(b, (char)c);
		} else {
			buf_putc(b, '%');
			buf_putc(b, hex[c >> 4]);
			buf_putc(b, hex[c & 15]);
		}
	}
}

/* The entry a dependency of e resolves to: a compat patch first (what
 * plugin-compat's reduceDependency makes of it), else the descriptor's
 * own entry, else the descriptor bound to e (structUtils.bindDescriptor:
 * a file:, link:, portal: or patch: range relative to its parent);
 * STRMAP_NONE when the lockfile has none of them. */
static size_t lock_resolve(const struct yarn_lock *y, const struct yarn_entry *e,
			   const struct yarn_dep *d)
{
	char *k = yarn_descriptor(d->name, strlen(d->name), d->range);
	size_t v = strmap_get((struct strmap *)&y->compat, k, strlen(k));

	if (v == STRMAP_NONE)
		v = strmap_get((struct strmap *)&y->desc, k, strlen(k));
	if (v == STRMAP_NONE && e->resolution && !strchr(k + strlen(d->name), '#')) {
		struct buf b = BUF_INIT;

		buf_puts(&b, k);
		buf_puts(&b, "::locator=");
		uri_encode(&b, e->resolution);
		v = strmap_get((struct strmap *)&y->desc, buf_str(&b), b.len);
		buf_release(&b);
	}
	free(k);
	return v;
}

enum { SEEN = 1, DISABLED = 2, REQUIRED = 4, UNDECIDED = 8 };

/* Mark what the workspaces reach (mark bit), through optional edges too
 * when all, never into a DISABLED entry.  A dependency the lockfile does
 * not resolve (a resolutions override) reaches every entry of its name. */
static void lock_walk(const struct yarn_lock *y, unsigned char *st, unsigned char mark, int all,
		      size_t *skipped)
{
	size_t *stack = xmalloc(sizeof(*stack) * (y->n + 1)), n = 0, i, j, k;


	for (i = 0; i < y->n; i++)
		if (y->v[i].workspace) {
			st[i] |= mark;
			stack[n++] = i;
		}
	while (n) {
		const struct yarn_entry *e = &y->v[stack[--n]];

		for (j = 0; j < e->ndeps; j++) {
			size_t to;

			if (e->deps[j].peer || (!all && e->deps[j].optional))
				continue;
			to = e->deps[j].to;
			/* unresolved (a resolutions override): every entry of
			 * the name */
			k = to;
			if (to == STRMAP_NONE)
				k = strmap_get((struct strmap *)&y->names, e->deps[j].name,
					       strlen(e->deps[j].name));
			for (; k != STRMAP_NONE && k < y->n;
			     k = to == STRMAP_NONE ? y->same_name[k] : STRMAP_NONE) {
				if (st[k] & DISABLED) {
					if (skipped && !(st[k] & SEEN)) {
						st[k] |= SEEN;
						(*skipped)++;
					}
				} else if (!(st[k] & mark)) {
					st[k] |= mark;
					stack[n++] = k;
				}
			}
		}
	}
	free(stack);
}

void yarn_lock_wanted(const struct yarn_lock *y, const struct yarn_arch *arch,
		      struct dep_set *out, size_t *skipped)
{
	unsigned char *st = xcalloc(y->n + 1, 1);
	const unsigned char WANT = 16;
	size_t i, dummy = 0;

	if (!skipped)
		skipped = &dummy;
	*skipped = 0;
	dep_set_reserve(out, y->n);
	/* optionalBuilds: what no non-optional path reaches */
	lock_walk(y, st, REQUIRED, 0, NULL);
	for (i = 0; i < y->n; i++) {
		const struct yarn_entry *e = &y->v[i];
		int ok;

		if (!e->conditions || (st[i] & REQUIRED))
			continue;
		ok = arch ? cond_eval(e->conditions, arch) : -1;
		if (ok == 0)
			st[i] |= DISABLED;
		else if (ok < 0)
			st[i] |= UNDECIDED;
	}
	lock_walk(y, st, WANT, 1, skipped);
	for (i = 0; i < y->n; i++) {
		const struct yarn_entry *e = &y->v[i];
		char *name, *ver;
		struct dep *d;

		if (!(st[i] & WANT) || e->workspace || !e->resolution)
			continue;
		name = locator_name(e->resolution);
		ver = e->version ? xstrdup(e->version) : locator_version(e->resolution);
		d = dep_set_add(out, e->resolution, name, ver,
				(st[i] & UNDECIDED) ? DEP_OPTIONAL : 0);
		d->line = e->line;
		free(name);
		free(ver);
	}
	free(st);
}

const struct yarn_entry *yarn_lock_workspace(const struct yarn_lock *y, const char *cwd)
{
	size_t i, clen = strlen(cwd);

	for (i = 0; i < y->n; i++) {
		const char *r = y->v[i].resolution, *w;

		if (y->v[i].workspace && (w = strstr(r, "@workspace:")) &&
		    strlen(w + 11) == clen && !memcmp(w + 11, cwd, clen))
			return &y->v[i];
	}
	return NULL;
}

/* ---- a workspace's manifest ---- */

/* Whether the manifest's (name, range) is in ws's list (peer or not)
 * with the same normalised range. */
static int ws_has(const struct yarn_entry *ws, int peer, const char *name, const char *range)
{
	size_t i;

	for (i = 0; i < ws->ndeps; i++)
		if (ws->deps[i].peer == peer && !strcmp(ws->deps[i].name, name)) {
			char *a = yarn_normalize_range(range);
			char *b = yarn_normalize_range(ws->deps[i].range);
			int same = !strcmp(a, b);

			free(a);
			free(b);
			return same;
		}
	return 0;
}

static void differ(size_t *n, char **why, const char *name, const char *mine, const char *locked)
{
	if (!(*n)++ && why) {
		struct buf b = BUF_INIT;

		buf_printf(&b, "%s: package.json %s, yarn.lock %s", name, mine ? mine : "(none)",
			   locked ? locked : "(none)");
		*why = buf_detach(&b);
	}
}

/* The entry's range of name (peer or not), or NULL. */
static const char *ws_range(const struct yarn_entry *ws, int peer, const char *name)
{
	size_t i;

	for (i = 0; i < ws->ndeps; i++)
		if (ws->deps[i].peer == peer && !strcmp(ws->deps[i].name, name))
			return ws->deps[i].range;
	return NULL;
}

int yarn_manifest_differs(const char *buf, size_t len, const struct yarn_entry *ws, char **why)
{
	/* berry's Manifest.load: optionalDependencies join dependencies;
	 * the workspace's lockfile entry lists dependencies and
	 * devDependencies together (Project.ts resolveEverything) */
	static const char *const fields[] = { "dependencies", "optionalDependencies",
					      "devDependencies", "peerDependencies" };
	cJSON *root = cJSON_ParseWithLength(buf, len), *seen = cJSON_CreateObject();
	size_t n = 0, f, i;

	if (why)
		*why = NULL;
	if (!cJSON_IsObject(root)) {
		cJSON_Delete(root);
		cJSON_Delete(seen);
		return -1;
	}
	for (f = 0; f < ARRAY_SIZE(fields); f++) {
		cJSON *m = cJSON_GetObjectItemCaseSensitive(root, fields[f]), *it;
		cJSON *obj = cJSON_IsObject(m) ? m : NULL;
		int peer = f == 3;

		cJSON_ArrayForEach(it, obj) {
			struct buf k = BUF_INIT;

			if (!cJSON_IsString(it) || !it->string)
				continue;
			buf_printf(&k, "%d%s", peer, it->string);
			if (cJSON_GetObjectItemCaseSensitive(seen, buf_str(&k)))
				cJSON_ReplaceItemInObjectCaseSensitive(seen, buf_str(&k),
					cJSON_CreateString(it->valuestring));
			else
				cJSON_AddStringToObject(seen, buf_str(&k), it->valuestring);
			buf_release(&k);
		}
	}
	{
		cJSON *it;

		cJSON_ArrayForEach(it, seen) {
			int peer = it->string[0] == '1';
			const char *name = it->string + 1;

			if (!ws_has(ws, peer, name, it->valuestring))
				differ(&n, why, name, it->valuestring, ws_range(ws, peer, name));
		}
	}
	for (i = 0; i < ws->ndeps; i++) {
		struct buf k = BUF_INIT;

		buf_printf(&k, "%d%s", ws->deps[i].peer, ws->deps[i].name);
		if (!cJSON_GetObjectItemCaseSensitive(seen, buf_str(&k)))
			differ(&n, why, ws->deps[i].name, NULL, ws->deps[i].range);
		buf_release(&k);
	}
	cJSON_Delete(root);
	cJSON_Delete(seen);
	return (int)(n > 1000000 ? 1000000 : n);
}

char *yarn_rc_linker(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;

	/* a top-level "nodeLinker: X" line (berry's Configuration: the
	 * nodeLinker setting, "pnp" by default) */
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		size_t l = (size_t)((eol ? eol : end) - p);

		if (l > 11 && !memcmp(p, "nodeLinker:", 11)) {
			const char *v = p + 11, *ve = p + l, *q;

			while (v < ve && (*v == ' ' || *v == '\t'))
				v++;
			/* a quoted scalar to its quote; a plain one to a
			 * comment (" #") or the end, trailing blanks off */
			if (v < ve && (*v == '"' || *v == '\'') &&
			    (q = memchr(v + 1, *v, (size_t)(ve - v - 1))))
				return xstrndup(v + 1, (size_t)(q - v - 1));
			for (q = v; q < ve && !(*q == '#' && q > v && (q[-1] == ' ' || q[-1] == '\t')); q++)
				;
			while (q > v && (q[-1] == ' ' || q[-1] == '\r' || q[-1] == '\t'))
				q--;
			return xstrndup(v, (size_t)(q - v));
		}
		p = eol ? eol + 1 : end;
	}
	return NULL;
}

/* ---- node_modules/.yarn-state.yml ---- */

struct state_ctx {
	struct dep_set *s;
	struct yarn_loc **locs;
	size_t *nlocs, cap;
};

static int state_fn(void *arg, const struct ypath *p)
{
	struct state_ctx *c = arg;

	if (p->depth == 0 && p->is_key) {
		if (strcmp(p->value, "__metadata") && !strstr(p->value, "@workspace:")) {
			char *loc = devirtualize(p->value, p->vlen);
			char *name = locator_name(loc), *ver = locator_version(loc);
			struct dep *d = dep_set_add(c->s, loc, name, ver, 0);

			d->line = p->line;
			free(name);
			free(ver);
			free(loc);
		}
		return 0;
	}
	/* the folders the linker made: NodeModulesLinker persistNodeModules
	 * writes each locator's "locations" (workspaces too) */
	if (c->locs && p->depth == 2 && p->in_seq && !p->is_key &&
	    !strcmp(p->key[1], "locations") && strcmp(p->key[0], "__metadata")) {
		struct yarn_loc *l;

		grow(c->locs, sizeof(**c->locs), &c->cap, *c->nlocs + 1);
		l = &(*c->locs)[(*c->nlocs)++];
		l->path = xstrndup(p->value, p->vlen);
		l->locator = xstrdup(p->key[0]);
	}
	return 0;
}

void yarn_locs_release(struct yarn_loc *locs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(locs[i].path);
		free(locs[i].locator);
	}
	free(locs);
}

int yarn_nm_state_parse(const char *buf, size_t len, struct dep_set *s, struct yarn_loc **locs,
			size_t *nlocs, struct parse_error *err)
{
	struct state_ctx c = { s, locs, nlocs, 0 };

	if (locs) {
		*locs = NULL;
		*nlocs = 0;
	}
	return deps_yaml_walk(buf, len, state_fn, &c, err);
}

/* ---- the older interface (deps.h) ---- */

int deps_yarn_parse(const char *buf, size_t len, int state, struct dep_set *s,
		    struct parse_error *err)
{
	struct yarn_lock y = YARN_LOCK_INIT;
	int rc;

	if (state)
		return yarn_nm_state_parse(buf, len, s, NULL, NULL, err);
	rc = yarn_lock_parse(buf, len, &y, err);
	if (rc == 0)
		yarn_lock_wanted(&y, NULL, s, NULL);
	yarn_lock_release(&y);
	return rc;
}
