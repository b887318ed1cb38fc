/* deps_pnpm.c - pnpm's lockfile (pnpm-lock.yaml), its current lockfile
 * (node_modules/.pnpm/lock.yaml), node_modules/.modules.yaml and a
 * package.json's dependency specs (see deps.h and deps_pnpm.h).
 */
#include "deps_yaml.h"
#include "deps_pnpm.h"
#include "deps.h"
#include "util.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const field_names[PNPM_NFIELDS] = {
	"dependencies", "devDependencies", "optionalDependencies", "peerDependencies",
};

const char *pnpm_field_name(enum pnpm_field f)
{
	return field_names[f];
}

static int field_of(const char *key)
{
	int f;

	for (f = 0; f < PNPM_PEER; f++)
		if (!strcmp(key, field_names[f]))
			return f;
	return -1;
}

/* ---- package ids ---- */

/* A pnpm package id into name and version: "a@1.0.0(peer@2)" (v9),
 * "/a@1.0.0" (v6), "/a/1.0.0_peer@2" (v5), "@s/a@1.0.0" (scoped).  The
 * name ends at the first '@' after its first character, as pnpm's
 * dp.parse and depPathToFilenameUnescaped (deps/path) split it, so that
 * "a@git+ssh://git@host/x" is "a".  The version is shown without its
 * peer suffix ("(react@18.2.0)", v5's "_react@18.2.0"): the id, which
 * keeps it, is the key. */
static void pnpm_split(const char *id, char **name, char **version)
{
	const char *s = id[0] == '/' ? id + 1 : id;
	const char *at = *s ? strchr(s + 1, '@') : NULL;
	int v5 = 0;

	if (id[0] == '/') {
		/* v5: "/a/1.0.0", "/@s/a/1.0.0_p@1": the '/' after the name */
		const char *scope = s[0] == '@' ? strchr(s, '/') : NULL;
		const char *slash = strchr(scope ? scope + 1 : s, '/');

		if (slash && (!at || slash < at)) {
			at = slash;
			v5 = 1;
		}
	}
	if (!at) {
		*name = xstrdup(s);
		*version = NULL;
		return;
	}
	*name = xstrndup(s, (size_t)(at - s));
	*version = xstrndup(at + 1, strcspn(at + 1, v5 ? "(_" : "("));
}

struct pnpm_ctx {
	struct pnpm_lock *l;
	int saw_snapshots;	/* v9: read snapshots, not packages */
	int saw_importers;
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

static struct dep *pnpm_find(struct dep_set *s, const char *id)
{
	const char *k = id[0] == '/' ? id + 1 : id;
	size_t i = strmap_get(&s->index, k, strlen(k));

	return i == STRMAP_NONE ? NULL : &s->v[i];
}

/* ---- importers ---- */

static struct pnpm_importer *importer_get(struct pnpm_lock *l, const char *id, unsigned line)
{
	struct pnpm_importer *imp;
	size_t i;

	for (i = l->nimp; i-- > 0;)
		if (!strcmp(l->imp[i].id, id))
			return &l->imp[i];
	grow(&l->imp, sizeof(*l->imp), &l->impcap, l->nimp + 1);
	imp = &l->imp[l->nimp++];
	memset(imp, 0, sizeof(*imp));
	imp->id = xstrdup(id);
	imp->line = line;
	return imp;
}

const struct pnpm_importer *pnpm_lock_importer(const struct pnpm_lock *l, const char *id)
{
	size_t i;

	for (i = 0; i < l->nimp; i++)
		if (!strcmp(l->imp[i].id, id))
			return &l->imp[i];
	return NULL;
}

/* The entry of alias in field (PNPM_PEER: v5's "specifiers", no field). */
static struct pnpm_direct *direct_get(struct pnpm_direct **v, size_t *n, size_t *cap,
				      const char *alias, enum pnpm_field field, unsigned line)
{
	struct pnpm_direct *d;
	size_t i;

	for (i = *n; i-- > 0;)
		if ((*v)[i].field == field && !strcmp((*v)[i].alias, alias))
			return &(*v)[i];
	grow(v, sizeof(**v), cap, *n + 1);
	d = &(*v)[(*n)++];
	memset(d, 0, sizeof(*d));
	d->alias = xstrdup(alias);
	d->field = field;
	d->line = line;
	return d;
}

static void set_str(char **dst, const struct ypath *p)
{
	free(*dst);
	*dst = xstrndup(p->value, p->vlen);
}

/* importers.<id>.<field>.<alias>.{specifier,version} (v6, v9),
 * importers.<id>.specifiers.<alias> and .<field>.<alias>: <ref> (v5);
 * a lockfile of one project (v5, v6) has them at the top. */
static void importer_fn(struct pnpm_ctx *c, const struct ypath *p)
{
	unsigned base = !strcmp(p->key[0], "importers") ? 2 : 0;
	struct pnpm_importer *imp;
	struct pnpm_direct *d;
	int f;

	if (base && p->depth == 1 && p->is_key) {
		importer_get(c->l, p->value, p->line);
		return;
	}
	if (p->is_key || p->in_seq || p->depth < base + 2 || p->depth > base + 3)
		return;
	f = !strcmp(p->key[base], "specifiers") ? PNPM_PEER : field_of(p->key[base]);
	if (f < 0 || (f == PNPM_PEER && p->depth != base + 2))
		return;
	imp = importer_get(c->l, base ? p->key[1] : ".", p->line);
	d = direct_get(&imp->v, &imp->n, &imp->cap, p->key[base + 1], (enum pnpm_field)f, p->line);
	if (f == PNPM_PEER)
		set_str(&d->spec, p);		/* v5: specifiers.<alias> */
	else if (p->depth == base + 2)
		set_str(&d->ref, p);		/* v5: <field>.<alias>: <ref> */
	else if (!strcmp(p->key[base + 2], "specifier"))
		set_str(&d->spec, p);
	else if (!strcmp(p->key[base + 2], "version"))
		set_str(&d->ref, p);
}

static int top_is(const struct ypath *p, const char *key)
{
	return p->depth == 1 && !p->is_key && !p->in_seq && !strcmp(p->key[0], key);
}

static int pnpm_fn(void *arg, const struct ypath *p)
{
	struct pnpm_ctx *c = arg;
	struct dep_set *s = &c->l->pkgs;
	const char *section = c->saw_snapshots ? "snapshots" : "packages";
	struct dep *d;

	pnpm_lockcfg_capture(&c->l->cfg, p);
	if (p->depth == 0 && p->is_key) {
		if (!strcmp(p->value, "snapshots")) {
			/* v9: snapshots (after packages) are the installed ids,
			 * with their peers; packages then only holds metadata */
			c->saw_snapshots = 1;
			dep_set_release(s);
		} else if (!strcmp(p->value, "importers")) {
			c->saw_importers = 1;
		}
		return 0;
	}
	if (top_is(p, "lockfileVersion")) {
		c->l->major = (unsigned)strtoul(p->value, NULL, 10) % 1000;
		return 0;
	}
	if (p->depth == 2 && !p->is_key && !strcmp(p->key[0], "settings")) {
		int yes = p->vlen == 4 && !memcmp(p->value, "true", 4);

		if (!strcmp(p->key[1], "autoInstallPeers"))
			c->l->auto_install_peers = yes;
		else if (!strcmp(p->key[1], "excludeLinksFromLockfile"))
			c->l->exclude_links = yes;
		return 0;
	}
	if (p->depth == 1 && p->is_key && !strcmp(p->key[0], section)) {
		pnpm_add(s, p->value, p->line);
		return 0;
	}
	if (p->depth == 3 && !p->is_key && !p->in_seq && !strcmp(p->key[0], section) &&
	    (!strcmp(p->key[2], "optional") || !strcmp(p->key[2], "name") ||
	     !strcmp(p->key[2], "version"))) {
		d = pnpm_find(s, p->key[1]);
		/* <section>.<id>.optional: true - pnpm skips it where it cannot go */
		if (d && !strcmp(p->key[2], "optional") && p->vlen == 4 &&
		    !memcmp(p->value, "true", 4))
			d->flags |= DEP_OPTIONAL;
		/* v6's file: and git ids ("file:../a.tgz") say the name apart */
		else if (d && !strcmp(p->key[2], "name") && p->vlen) {
			free(d->name);
			d->name = xstrndup(p->value, p->vlen);
		} else if (d && !d->version && !strcmp(p->key[2], "version") && p->vlen) {
			d->version = xstrndup(p->value, p->vlen);
		}
		return 0;
	}
	importer_fn(c, p);
	return 0;
}

/* The file starts with pnpm's env document ("---\n" after a BOM): the
 * project's is then the second (lockfile/fs yamlDocuments.ts
 * extractMainDocument; pnpm 12 crates/lockfile/src/yaml_documents.rs
 * main_document_of). */
static int has_env_document(const char *buf, size_t len)
{
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3)) {
		buf += 3;
		len -= 3;
	}
	return (len >= 4 && !memcmp(buf, "---\n", 4)) || (len >= 5 && !memcmp(buf, "---\r\n", 5));
}

int deps_pnpm_lock(const char *buf, size_t len, struct pnpm_lock *out, struct parse_error *err)
{
	struct pnpm_ctx c;
	struct yw_docs docs;
	int env = has_env_document(buf, len);
	int rc;

	memset(out, 0, sizeof(*out));
	out->auto_install_peers = out->exclude_links = -1;
	pnpm_lockcfg_release(&out->cfg);
	memset(&c, 0, sizeof(c));
	c.l = out;
	rc = deps_yaml_walk_doc(buf, len, env ? 1 : 0, pnpm_fn, &c, &docs, err);
	out->docs = docs.n;
	if (rc < 0)
		return -1;
	/* pnpm cuts the file at the first "\n---\n" after the env document
	 * and parses the rest as one document: a third fails to parse
	 * (ERR_PNPM_BROKEN_LOCKFILE, pnpm 8's js-yaml "expected a single
	 * document in the stream"), as does a second one without the env
	 * document; an env document alone is no lockfile at all
	 * (ERR_PNPM_NO_LOCKFILE) */
	if (docs.n > (env ? 2u : 1u)) {
		parse_error_set(err, docs.line[env ? 2 : 1], 1,
				"%s YAML document: pnpm reads %s and refuses the file "
				"(ERR_PNPM_BROKEN_LOCKFILE)", env ? "a third" : "a second",
				env ? "its env document and the project's only" : "one document only");
		return -1;
	}
	if (env && docs.n < 2) {
		parse_error_set(err, docs.n ? docs.line[0] : 1, 1, "pnpm's env document alone: "
				"no project lockfile follows it (ERR_PNPM_NO_LOCKFILE)");
		return -1;
	}
	if (!c.saw_importers && !out->nimp)
		importer_get(out, ".", 1);
	return 0;
}

void pnpm_lock_release(struct pnpm_lock *l)
{
	size_t i, j;

	dep_set_release(&l->pkgs);
	for (i = 0; i < l->nimp; i++) {
		for (j = 0; j < l->imp[i].n; j++) {
			free(l->imp[i].v[j].alias);
			free(l->imp[i].v[j].spec);
			free(l->imp[i].v[j].ref);
		}
		free(l->imp[i].v);
		free(l->imp[i].id);
	}
	free(l->imp);
	pnpm_lockcfg_release(&l->cfg);
	memset(l, 0, sizeof(*l));
}

int deps_pnpm_parse(const char *buf, size_t len, struct dep_set *s,
		    struct parse_error *err)
{
	struct pnpm_lock l;
	int rc = deps_pnpm_lock(buf, len, &l, err);

	if (rc == 0) {
		dep_set_release(s);
		*s = l.pkgs;
		memset(&l.pkgs, 0, sizeof(l.pkgs));
	}
	pnpm_lock_release(&l);
	return rc;
}

char *pnpm_ref_id(const struct pnpm_lock *l, const char *alias, const char *ref)
{
	struct buf b = BUF_INIT;
	size_t head;

	if (!ref || !*ref || !strncmp(ref, "link:", 5))
		return NULL;
	if (ref[0] == '/')		/* v5, v6: "/b@1.0.0", "/b/1.0.0" (an alias) */
		return xstrdup(ref + 1);
	head = strcspn(ref, "(");	/* what precedes the peers */
	if (l->major && l->major < 9) {
		if (memchr(ref, ':', head))	/* v6: "file:../a.tgz" is the id */
			return xstrdup(ref);
	} else if (head > 1 && memchr(ref + 1, '@', head - 1) && !memchr(ref, ':', head)) {
		return xstrdup(ref);	/* v9: "b@1.0.0", an alias's package */
	}
	buf_printf(&b, "%s%c%s", alias, l->major && l->major < 6 ? '/' : '@', ref);
	return buf_detach(&b);
}

/* ---- .modules.yaml ---- */

static int modules_fn(void *arg, const struct ypath *p)
{
	struct pnpm_modules *m = arg;

	if (p->depth == 1 && !p->is_key && p->in_seq && !strcmp(p->key[0], "skipped")) {
		struct dep *d = pnpm_add(&m->skipped, p->value, p->line);

		/* pnpm 8 writes v5 ids here ("/fsevents/2.3.3") beside a
		 * v6 lockfile ("/fsevents@2.3.3"): both are kept */
		if (d->version && p->value[0] == '/' &&
		    strlen(d->name) + 2 < p->vlen && p->value[strlen(d->name) + 1] == '/') {
			struct buf k = BUF_INIT;
			struct dep *e;

			buf_printf(&k, "%s@%s", d->name, p->value + strlen(d->name) + 2);
			e = dep_set_add(&m->skipped, buf_str(&k), d->name, d->version, 0);
			e->line = p->line;
			buf_release(&k);
		}
	}
	else if (top_is(p, "packageManager") && !m->by)
		m->by = xstrndup(p->value, p->vlen);
	else if (top_is(p, "virtualStoreDir") && !m->virtual_store_dir)
		m->virtual_store_dir = xstrndup(p->value, p->vlen);
	else if (top_is(p, "nodeLinker") && !m->node_linker)
		m->node_linker = xstrndup(p->value, p->vlen);
	else if (top_is(p, "virtualStoreDirMaxLength"))
		m->max_length = (unsigned)strtoul(p->value, NULL, 10) % 100000;
	else if (p->depth == 3 && !p->is_key && !p->in_seq &&
		 !strcmp(p->key[0], "hoistedDependencies") && m->nhoisted < 100000) {
		struct pnpm_hoist *h;

		grow(&m->hoisted, sizeof(*m->hoisted), &m->hoisted_cap, m->nhoisted + 1);
		h = &m->hoisted[m->nhoisted++];
		h->id = xstrdup(p->key[1]);
		h->alias = xstrdup(p->key[2]);
		h->pub = p->vlen == 6 && !memcmp(p->value, "public", 6);
	}
	else if (p->depth == 2 && !p->is_key && !p->in_seq && !strcmp(p->key[0], "included")) {
		int f = field_of(p->key[1]);

		if (f >= 0 && f < 3)
			m->included[f] = p->vlen == 4 && !memcmp(p->value, "true", 4);
	}
	return 0;
}

int deps_pnpm_modules_read(const char *buf, size_t len, struct pnpm_modules *m,
			   struct parse_error *err)
{
	memset(m, 0, sizeof(*m));
	m->included[0] = m->included[1] = m->included[2] = -1;
	return deps_yaml_walk(buf, len, modules_fn, m, err);
}

void pnpm_modules_release(struct pnpm_modules *m)
{
	size_t i;

	for (i = 0; i < m->nhoisted; i++) {
		free(m->hoisted[i].id);
		free(m->hoisted[i].alias);
	}
	free(m->hoisted);
	dep_set_release(&m->skipped);
	free(m->by);
	free(m->virtual_store_dir);
	free(m->node_linker);
	memset(m, 0, sizeof(*m));
}

int deps_pnpm_modules(const char *buf, size_t len, struct dep_set *skipped,
		      char **by, struct parse_error *err)
{
	struct pnpm_modules m;
	int rc = deps_pnpm_modules_read(buf, len, &m, err);

	dep_set_release(skipped);
	*skipped = m.skipped;
	memset(&m.skipped, 0, sizeof(m.skipped));
	*by = m.by;
	m.by = NULL;
	pnpm_modules_release(&m);
	return rc;
}

/* ---- package.json against its importer ---- */

int deps_pnpm_manifest(const char *buf, size_t len, struct pnpm_manifest *m)
{
	cJSON *doc = cJSON_ParseWithLength(buf, len);
	int f;

	memset(m, 0, sizeof(*m));
	if (!cJSON_IsObject(doc)) {
		cJSON_Delete(doc);
		return -1;
	}
	for (f = 0; f < PNPM_NFIELDS; f++) {
		const cJSON *o = cJSON_GetObjectItemCaseSensitive(doc, field_names[f]), *e;

		cJSON_ArrayForEach(e, o) {
			struct pnpm_direct *d;

			if (!cJSON_IsString(e) || !e->string)
				continue;
			d = direct_get(&m->v, &m->n, &m->cap, e->string, (enum pnpm_field)f, 0);
			free(d->spec);
			d->spec = xstrdup(e->valuestring);
		}
	}
	cJSON_Delete(doc);
	return 0;
}

void pnpm_manifest_release(struct pnpm_manifest *m)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		free(m->v[i].alias);
		free(m->v[i].spec);
		free(m->v[i].ref);
	}
	free(m->v);
	memset(m, 0, sizeof(*m));
}

static const struct pnpm_direct *find_direct(const struct pnpm_direct *v, size_t n,
					     const char *alias, int field)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((field < 0 || (int)v[i].field == field) && !strcmp(v[i].alias, alias))
			return &v[i];
	return NULL;
}

/* The specifier the importer records for alias (v5's "specifiers", else
 * the field entry's "specifier"), or NULL. */
static const char *importer_spec(const struct pnpm_importer *imp, const char *alias)
{
	size_t i;

	for (i = 0; i < imp->n; i++)
		if (imp->v[i].spec && !strcmp(imp->v[i].alias, alias))
			return imp->v[i].spec;
	return NULL;
}

/* The manifest's spec of alias in the merged view satisfiesPackageManifest
 * builds ({...dev, ...dependencies, ...optional}, then peers under them
 * with autoInstallPeers), or NULL. */
static const char *manifest_spec(const struct pnpm_manifest *m, const char *alias, int peers)
{
	static const enum pnpm_field order[] = { PNPM_OPTIONAL, PNPM_DEPS, PNPM_DEV, PNPM_PEER };
	size_t k;

	for (k = 0; k < ARRAY_SIZE(order) - (peers ? 0 : 1); k++) {
		const struct pnpm_direct *d = find_direct(m->v, m->n, alias, (int)order[k]);

		if (d)
			return d->spec;
	}
	return NULL;
}

static int is_link(const char *spec)
{
	return spec && !strncmp(spec, "link:", 5);
}

/* Whether alias, a manifest entry of field f, is one the importer's
 * field f must hold (satisfiesPackageManifest's pkgDepNames): an optional
 * one wins over the others, dependencies over devDependencies; with
 * autoInstallPeers a peer not named elsewhere is a dependency. */
static int manifest_in_field(const struct pnpm_manifest *m, const struct pnpm_direct *d,
			     enum pnpm_field f, int peers, int no_links)
{
	if (no_links && is_link(d->spec))
		return 0;
	if (d->field == PNPM_PEER)
		return peers && f == PNPM_DEPS && !manifest_spec(m, d->alias, 0);
	if (d->field != f)
		return 0;
	if (f == PNPM_DEV)
		return !find_direct(m->v, m->n, d->alias, PNPM_OPTIONAL) &&
		       !find_direct(m->v, m->n, d->alias, PNPM_DEPS);
	if (f == PNPM_DEPS)
		return !find_direct(m->v, m->n, d->alias, PNPM_OPTIONAL);
	return 1;
}

static int mismatch(struct pnpm_mismatch *why, const char *field, const char *name,
		    const char *manifest, const char *lockfile)
{
	why->field = field;
	why->name = name;
	why->manifest = manifest;
	why->lockfile = lockfile;
	return 0;
}

/* Whether an override of the lockfile explains a direct dependency's
 * specifier: pnpm applies overrides to the projects' manifests before it
 * compares them with the importers (pnpm 8 core/src/install/index.ts:
 * the manifests go through the readPackage hook createVersionsOverrider
 * makes, then satisfiesPackageManifest; pnpm 12 alike), so the importer
 * records the override's value, "-" removes the dependency, and "$name"
 * takes the root's own spec of name.  The config check runs first
 * (deps_pnpm_cfg.c): here the lockfile's overrides are the project's.
 * A key "a>b" or "b@range" may target b too; which ones pnpm would apply
 * is not worked out: any that targets the dependency and gives the
 * specifier the importer holds is taken, so no override is a false
 * alarm. */
/* An override's file:/link: value as the importer records it: pnpm 8
 * writes the path made absolute from the project (seen with pnpm 8.15.9:
 * "file:../../src/a.tgz" becomes "file:/.../src/a.tgz"); which project is
 * not known here, so the absolute one need only end in the relative
 * one's path past its leading "../" and "./". */
static int same_value(const char *val, const char *have)
{
	size_t n, h;
	const char *rel;

	if (!strcmp(val, have))
		return 1;
	if (strncmp(val, "file:", 5) && strncmp(val, "link:", 5))
		return 0;
	if (strncmp(val, have, 5) || have[5] != '/')
		return 0;
	rel = val + 5;
	while (!strncmp(rel, "../", 3) || !strncmp(rel, "./", 2))
		rel += rel[1] == '/' ? 2 : 3;
	n = strlen(rel);
	h = strlen(have);
	return n && h > n + 5 && !strcmp(have + h - n, rel) && have[h - n - 1] == '/';
}

static int overridden(const struct pnpm_lock *l, const char *alias, const char *have)
{
	size_t i, n = strlen(alias);

	for (i = 0; i < l->cfg.overrides.n; i++) {
		const struct pnpm_kv *o = &l->cfg.overrides.v[i];
		const char *t = strrchr(o->key, '>'), *at;

		t = t ? t + 1 : o->key;
		at = strchr(t + (t[0] == '@'), '@');
		if ((size_t)(at ? at - t : (ptrdiff_t)strlen(t)) != n || strncmp(t, alias, n) ||
		    !o->val)
			continue;
		if (o->val[0] == '$' || (have ? same_value(o->val, have) : !strcmp(o->val, "-")))
			return 1;
	}
	return 0;
}

int deps_pnpm_satisfies(const struct pnpm_lock *l, const struct pnpm_importer *imp,
			const struct pnpm_manifest *m, struct pnpm_mismatch *why)
{
	/* the settings pnpm runs with: the lockfile's when it says them
	 * (a frozen install whose config differs refuses anyway), else the
	 * default of the pnpm that writes that lockfile version
	 * (autoInstallPeers is true from pnpm 8, lockfile 6) */
	int peers = l->auto_install_peers == 1 || (l->auto_install_peers < 0 && l->major >= 6);
	int no_links = l->exclude_links == 1;
	size_t i, j;
	int f;

	memset(why, 0, sizeof(*why));
	/* the specifiers, all fields merged: a dependency added, removed or
	 * given another spec in package.json (diffFlatRecords of
	 * importer.specifiers and the manifest's merged deps) */
	for (i = 0; i < m->n; i++) {
		const char *want = manifest_spec(m, m->v[i].alias, peers);
		const char *have = importer_spec(imp, m->v[i].alias);

		if (m->v[i].field == PNPM_PEER && !peers)
			continue;
		if (no_links && is_link(want))
			continue;
		if ((!have || strcmp(have, want)) && !overridden(l, m->v[i].alias, have))
			return mismatch(why, NULL, m->v[i].alias, want, have);
	}
	for (i = 0; i < imp->n; i++) {
		const char *have = imp->v[i].spec;

		if (!have || (no_links && is_link(have)))
			continue;
		if (!manifest_spec(m, imp->v[i].alias, peers))
			return mismatch(why, NULL, imp->v[i].alias, NULL, have);
	}
	/* each field holds the names it should (DEPENDENCIES_FIELDS loop) */
	for (f = 0; f < PNPM_PEER; f++) {
		size_t want = 0, have = 0, have_nonlinked = 0;

		for (i = 0; i < m->n; i++) {
			if (!manifest_in_field(m, &m->v[i], (enum pnpm_field)f, peers, no_links))
				continue;
			want++;
			if (!find_direct(imp->v, imp->n, m->v[i].alias, f))
				return mismatch(why, field_names[f], m->v[i].alias,
						m->v[i].spec, NULL);
		}
		for (j = 0; j < imp->n; j++) {
			const char *ref = imp->v[j].ref;

			if ((int)imp->v[j].field != f)
				continue;
			have++;
			if (!ref || (!strstr(ref, "link:") && !strstr(ref, "file:")))
				have_nonlinked++;
		}
		if (want != have && want != have_nonlinked) {
			for (j = 0; j < imp->n; j++)
				if ((int)imp->v[j].field == f &&
				    !find_direct(m->v, m->n, imp->v[j].alias, f))
					return mismatch(why, field_names[f], imp->v[j].alias,
							NULL, importer_spec(imp, imp->v[j].alias));
			return mismatch(why, field_names[f], "", NULL, NULL);
		}
	}
	return 1;
}

/* ---- the virtual store ---- */

int pnpm_dep_dirname_to(const char *id, unsigned max_length, char *out, size_t cap)
{
	const char *s = id;
	size_t i, n = 0, len;
	int upper = 0;

	if (!strncmp(s, "file:", 5)) {
		memcpy(out, "file+", 5);
		n = 5;
		s += 5;
	} else if (*s == '/') {
		s++;
	}
	len = strlen(s);
	if (len + n + 1 > cap)
		return -1;
	memcpy(out + n, s, len + 1);
	n += len;
	for (i = 0; i < n; i++) {
		if (strchr("\\/:*?\"<>|#", out[i]))
			out[i] = '+';
		if (out[i] >= 'A' && out[i] <= 'Z')
			upper = 1;
	}
	if (memchr(out, '(', n)) {
		size_t k = 0;

		if (n && out[n - 1] == ')')
			out[--n] = 0;
		for (i = 0; i < n; i++) {
			if (out[i] == ')' && out[i + 1] == '(') {
				out[k++] = '_';
				i++;
			} else {
				out[k++] = out[i] == '(' || out[i] == ')' ? '_' : out[i];
			}
		}
		out[k] = 0;
		n = k;
	}
	if (n > (max_length ? max_length : 120) || (upper && strncmp(out, "file+", 5)))
		return 0;
	return 1;
}

char *pnpm_dep_dirname(const char *id, unsigned max_length)
{
	size_t cap = strlen(id) + 6;
	char *out = xmalloc(cap);

	if (pnpm_dep_dirname_to(id, max_length, out, cap) <= 0) {
		free(out);
		return NULL;
	}
	return out;
}
