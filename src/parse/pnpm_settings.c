/* pnpm_settings.c - the configuration pnpm records in pnpm-lock.yaml and
 * compares with the project's before a frozen install (pnpm_settings.h).
 *
 * The rule, by the lockfile's version:
 *  - 6.0, pnpm 8: pkg-manager/core/src/install/index.ts
 *    getOutdatedLockfileSetting (overrides, neverBuiltDependencies,
 *    onlyBuiltDependencies, packageExtensionsChecksum, patchedDependencies,
 *    settings.autoInstallPeers, settings.excludeLinksFromLockfile), thrown
 *    as LockfileConfigMismatchError (ERR_PNPM_LOCKFILE_CONFIG_MISMATCH)
 *    when frozen;
 *  - 9.0, pnpm 12: crates/lockfile/src/freshness.rs check_lockfile_settings
 *    (catalogs, overrides, packageExtensionsChecksum,
 *    ignoredOptionalDependencies, patchedDependencies, settings.*,
 *    pnpmfileChecksum), called by crates/package-manager
 *    install/lockfile_freshness.rs check_lockfile_settings_drift
 *    (ERR_PNPM_OUTDATED_LOCKFILE when frozen).
 * dedupePeers and peersSuffixMaxLength (pnpm 12) are not compared.
 */
#include "deps_yaml.h"
#include "digest.h"
#include "deps.h"
#include "pnpm_settings.h"
#include "ytree.h"
#include "util.h"

#include <cJSON.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- the lockfile's fields ---- */

static struct pnpm_kv *kv_add(struct pnpm_kvs *s, const char *key, size_t kn)
{
	struct pnpm_kv *e;
	size_t i;

	for (i = 0; i < s->n; i++)
		if (strlen(s->v[i].key) == kn && !memcmp(s->v[i].key, key, kn))
			return &s->v[i];
	grow(&s->v, sizeof(*s->v), &s->cap, s->n + 1);
	e = &s->v[s->n++];
	memset(e, 0, sizeof(*e));
	e->key = xstrndup(key, kn);
	return e;
}

static const struct pnpm_kv *kv_get(const struct pnpm_kvs *s, const char *key)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].key, key))
			return &s->v[i];
	return NULL;
}

static void kv_set(char **dst, const char *v, size_t n)
{
	free(*dst);
	*dst = xstrndup(v, n);
}

static void kvs_release(struct pnpm_kvs *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->v[i].key);
		free(s->v[i].val);
		free(s->v[i].path);
	}
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static int yes(const struct ypath *p)
{
	return p->vlen == 4 && !memcmp(p->value, "true", 4);
}

static struct pnpm_kvs *lock_field(struct pnpm_lockcfg *c, const char *k)
{
	if (!strcmp(k, "overrides"))
		return &c->overrides;
	if (!strcmp(k, "patchedDependencies"))
		return &c->patched;
	if (!strcmp(k, "catalogs"))
		return &c->catalogs;
	if (!strcmp(k, "ignoredOptionalDependencies"))
		return &c->ignored_optional;
	if (!strcmp(k, "neverBuiltDependencies"))
		return &c->never_built;
	if (!strcmp(k, "onlyBuiltDependencies"))
		return &c->only_built;
	return NULL;
}

int pnpm_lockcfg_capture(struct pnpm_lockcfg *c, const struct ypath *p)
{
	const char *top = p->depth ? p->key[0] : p->value;
	struct pnpm_kvs *s;
	struct pnpm_kv *e;

	/* the walk's hot keys first: nothing of theirs is kept here */
	if ((top[0] == 'p' && !strcmp(top, "packages")) ||
	    (top[0] == 's' && !strcmp(top, "snapshots")) ||
	    (top[0] == 'i' && !strcmp(top, "importers")))
		return 0;
	if (p->depth == 0) {
		if (!p->is_key)
			return 0;
		if (!strcmp(top, "settings"))
			c->settings = 1;
		else if ((s = lock_field(c, top)))
			s->set = 1;
		else
			return 0;
		return 1;
	}
	if (p->is_key && p->depth < 3)
		return 0;
	if (p->depth == 1 && !p->in_seq) {
		if (!strcmp(top, "packageExtensionsChecksum"))
			kv_set(&c->pkgext_checksum, p->value, p->vlen);
		else if (!strcmp(top, "pnpmfileChecksum"))
			kv_set(&c->pnpmfile_checksum, p->value, p->vlen);
		else
			return 0;
		return 1;
	}
	if (!strcmp(top, "settings")) {
		if (p->depth != 2)
			return 0;
		if (!strcmp(p->key[1], "autoInstallPeers"))
			c->auto_install_peers = yes(p);
		else if (!strcmp(p->key[1], "excludeLinksFromLockfile"))
			c->exclude_links = yes(p);
		else if (!strcmp(p->key[1], "injectWorkspacePackages"))
			c->inject_workspace = yes(p);
		return 1;
	}
	if (!(s = lock_field(c, top)))
		return 0;
	if (s == &c->ignored_optional || s == &c->never_built || s == &c->only_built) {
		if (p->depth == 1 && p->in_seq)
			kv_add(s, p->value, p->vlen);
	} else if (s == &c->catalogs) {
		/* catalogs.<name>.<alias>.specifier */
		if (p->depth == 4 && !strcmp(p->key[3], "specifier")) {
			struct buf k = BUF_INIT;

			buf_printf(&k, "%s\n%s", p->key[1], p->key[2]);
			e = kv_add(s, buf_str(&k), strlen(buf_str(&k)));
			kv_set(&e->val, p->value, p->vlen);
			buf_release(&k);
		}
	} else if (p->depth == 2 && !p->in_seq) {
		e = kv_add(s, p->key[1], strlen(p->key[1]));
		kv_set(&e->val, p->value, p->vlen);
	} else if (s == &c->patched && p->depth == 3 && !p->in_seq) {
		/* lockfile 6: patchedDependencies.<key>.{hash,path} */
		e = kv_add(s, p->key[1], strlen(p->key[1]));
		c->patched_objects = 1;
		if (!strcmp(p->key[2], "hash"))
			kv_set(&e->val, p->value, p->vlen);
		else if (!strcmp(p->key[2], "path"))
			kv_set(&e->path, p->value, p->vlen);
	}
	return 1;
}

void pnpm_lockcfg_release(struct pnpm_lockcfg *c)
{
	kvs_release(&c->overrides);
	kvs_release(&c->patched);
	kvs_release(&c->catalogs);
	kvs_release(&c->ignored_optional);
	kvs_release(&c->never_built);
	kvs_release(&c->only_built);
	free(c->pkgext_checksum);
	free(c->pnpmfile_checksum);
	memset(c, 0, sizeof(*c));
	c->auto_install_peers = c->exclude_links = c->inject_workspace = -1;
}

/* ---- the project's config ---- */

void pnpm_config_init(struct pnpm_config *c)
{
	memset(c, 0, sizeof(*c));
	c->auto_install_peers.v = c->exclude_links.v = c->inject_workspace.v = -1;
}

void pnpm_config_release(struct pnpm_config *c)
{
	kvs_release(&c->overrides);
	kvs_release(&c->patched);
	kvs_release(&c->catalogs);
	kvs_release(&c->ignored_optional);
	kvs_release(&c->never_built);
	kvs_release(&c->only_built);
	free(c->pkgext_json);
	pnpm_config_init(c);
}

static void json_strings(const cJSON *o, struct pnpm_kvs *s)
{
	const cJSON *e;

	if (!cJSON_IsObject(o))
		return;
	s->set = 1;
	cJSON_ArrayForEach(e, o) {
		struct pnpm_kv *kv;

		if (!e->string)
			continue;
		kv = kv_add(s, e->string, strlen(e->string));
		/* a value that is no string is kept as none: not compared */
		if (cJSON_IsString(e))
			kv_set(&kv->val, e->valuestring, strlen(e->valuestring));
	}
}

static void json_list(const cJSON *a, struct pnpm_kvs *s)
{
	const cJSON *e;

	if (!cJSON_IsArray(a))
		return;
	s->set = 1;
	cJSON_ArrayForEach(e, a)
		if (cJSON_IsString(e))
			kv_add(s, e->valuestring, strlen(e->valuestring));
}

int pnpm_config_manifest(const char *buf, size_t len, struct pnpm_config *c)
{
	cJSON *doc = cJSON_ParseWithLength(buf, len);
	const cJSON *pnpm, *ext;

	if (!cJSON_IsObject(doc)) {
		cJSON_Delete(doc);
		return -1;
	}
	pnpm = cJSON_GetObjectItemCaseSensitive(doc, "pnpm");
	/* {...manifest.resolutions, ...manifest.pnpm?.overrides} */
	json_strings(cJSON_GetObjectItemCaseSensitive(doc, "resolutions"), &c->overrides);
	json_strings(cJSON_GetObjectItemCaseSensitive(pnpm, "overrides"), &c->overrides);
	json_list(cJSON_GetObjectItemCaseSensitive(pnpm, "ignoredOptionalDependencies"),
		  &c->ignored_optional);
	json_list(cJSON_GetObjectItemCaseSensitive(pnpm, "neverBuiltDependencies"), &c->never_built);
	json_list(cJSON_GetObjectItemCaseSensitive(pnpm, "onlyBuiltDependencies"), &c->only_built);
	c->only_built_file = cJSON_HasObjectItem(pnpm, "onlyBuiltDependenciesFile");
	json_strings(cJSON_GetObjectItemCaseSensitive(pnpm, "patchedDependencies"), &c->patched);
	ext = cJSON_GetObjectItemCaseSensitive(pnpm, "packageExtensions");
	if (cJSON_IsObject(ext) && ext->child) {
		free(c->pkgext_json);
		c->pkgext_json = cJSON_PrintUnformatted(ext);
		c->pkgext_exact = 1;	/* JSON's own: pnpm_pkgext_checksum says
					 * when it cannot reproduce it */
	}
	ext = cJSON_GetObjectItemCaseSensitive(doc, "packageManager");
	if (cJSON_IsString(ext))
		c->pnpm_major = pnpm_major_of(ext->valuestring, strlen(ext->valuestring));
	c->file = "package.json";
	cJSON_Delete(doc);
	return 0;
}

unsigned pnpm_major_of(const char *s, size_t len)
{
	unsigned long v = 0;
	size_t i;

	if (len < 6 || memcmp(s, "pnpm@", 5) || s[5] < '0' || s[5] > '9')
		return 0;
	for (i = 5; i < len && s[i] >= '0' && s[i] <= '9' && v < 100000; i++)
		v = v * 10 + (unsigned long)(s[i] - '0');
	return (unsigned)v;
}

unsigned pnpm_modules_major(const char *buf, size_t len)
{
	static const char key[] = "packageManager";
	const char *p = buf, *end = buf + len;

	/* the key at a line's start, as pnpm's write-yaml-file writes it
	 * (pnpm 8, 9: "packageManager: pnpm@9.15.9") or its JSON (pnpm 10:
	 * '  "packageManager": "pnpm@10.34.8",'); no other key of the file
	 * has that name */
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl ? nl : end;

		while (p < e && (*p == ' ' || *p == '"' || *p == '\''))
			p++;
		if ((size_t)(e - p) > sizeof(key) - 1 && !memcmp(p, key, sizeof(key) - 1)) {
			p += sizeof(key) - 1;
			while (p < e && (*p == ' ' || *p == '"' || *p == '\'' || *p == ':'))
				p++;
			return pnpm_major_of(p, (size_t)(e - p));
		}
		p = nl ? nl + 1 : end;
	}
	return 0;
}

static void kvs_take(struct pnpm_kvs *dst, struct pnpm_kvs *src)
{
	kvs_release(dst);
	*dst = *src;
	memset(src, 0, sizeof(*src));
}

void pnpm_config_manifest_over(struct pnpm_config *c, struct pnpm_config *m,
			       unsigned pnpm_major)
{
	if (pnpm_major < 10) {
		/* pnpm 9 config: getOptionsFromRootManifest for the settings,
		 * pnpm-workspace.yaml for its packages and catalogs only */
		struct pnpm_kvs catalogs = c->catalogs;

		memset(&c->catalogs, 0, sizeof(c->catalogs));
		pnpm_config_release(c);
		c->catalogs = catalogs;
		c->file = "package.json";
	}
	/* pnpm 10 config: the workspace's settings are set over the root
	 * manifest's (getOptionsFromPnpmSettings), but the install command
	 * spreads getOptionsFromRootManifest after them (installDeps: {
	 * ...opts, ...getOptionsFromRootManifest(...) }): a field the
	 * manifest has wins; its overrides only when not empty (deleted
	 * then, getOptionsFromPnpmSettings) */
	if (m->overrides.n) {
		kvs_take(&c->overrides, &m->overrides);
		c->file = "package.json";
	}
	if (m->patched.set)
		kvs_take(&c->patched, &m->patched);
	if (m->ignored_optional.set)
		kvs_take(&c->ignored_optional, &m->ignored_optional);
	if (m->never_built.set)
		kvs_take(&c->never_built, &m->never_built);
	if (m->only_built.set)
		kvs_take(&c->only_built, &m->only_built);
	if (m->only_built_file)
		c->only_built_file = 1;
	if (m->pkgext_json) {
		free(c->pkgext_json);
		c->pkgext_json = m->pkgext_json;
		c->pkgext_exact = m->pkgext_exact;
		m->pkgext_json = NULL;
	}
	c->pnpm_major = m->pnpm_major;
}

/* A YAML node as JSON (scalars as strings, plain true/false/null as
 * theirs); *exact cleared by what JSON.stringify or serde would write
 * otherwise (a plain number). */
static cJSON *ynode_json(const struct ynode *n, int *exact)
{
	cJSON *o;
	size_t i;

	if (!n)
		return cJSON_CreateNull();
	if (n->kind == YNODE_SCALAR) {
		if (n->plain && (!strcmp(n->text, "true") || !strcmp(n->text, "false")))
			return cJSON_CreateBool(n->text[0] == 't');
		if (ynode_is_null(n))
			return cJSON_CreateNull();
		if (n->plain && strspn(n->text, "0123456789.-+eE") == n->len)
			*exact = 0;
		return cJSON_CreateString(n->text);
	}
	if (n->kind == YNODE_SEQ) {
		o = cJSON_CreateArray();
		for (i = 0; i < n->n; i++)
			cJSON_AddItemToArray(o, ynode_json(n->items[i], exact));
		return o;
	}
	o = cJSON_CreateObject();
	for (i = 0; i + 1 < n->n; i += 2) {
		if (n->items[i]->kind != YNODE_SCALAR) {
			*exact = 0;
			continue;
		}
		cJSON_AddItemToObject(o, n->items[i]->text, ynode_json(n->items[i + 1], exact));
	}
	return o;
}

static void yaml_strings(const struct ynode *m, struct pnpm_kvs *s)
{
	size_t i;

	if (!m || m->kind != YNODE_MAP)
		return;
	s->set = 1;
	for (i = 0; i + 1 < m->n; i += 2) {
		const struct ynode *k = m->items[i], *v = m->items[i + 1];
		struct pnpm_kv *kv;

		if (k->kind != YNODE_SCALAR)
			continue;
		kv = kv_add(s, k->text, k->len);
		if (v->kind == YNODE_SCALAR)
			kv_set(&kv->val, v->text, v->len);
	}
}

static void yaml_catalog(const struct ynode *m, const char *name, struct pnpm_kvs *s)
{
	size_t i;

	if (!m || m->kind != YNODE_MAP)
		return;
	s->set = 1;
	for (i = 0; i + 1 < m->n; i += 2) {
		const struct ynode *k = m->items[i], *v = m->items[i + 1];
		struct buf key = BUF_INIT;
		struct pnpm_kv *kv;

		if (k->kind != YNODE_SCALAR)
			continue;
		buf_printf(&key, "%s\n%s", name, k->text);
		kv = kv_add(s, buf_str(&key), strlen(buf_str(&key)));
		if (v->kind == YNODE_SCALAR)
			kv_set(&kv->val, v->text, v->len);
		buf_release(&key);
	}
}

static void yaml_flag(const struct ynode *root, const char *key, struct pnpm_flag *f)
{
	const struct ynode *v = ynode_get(root, key);

	if (v && v->kind == YNODE_SCALAR && (!strcmp(v->text, "true") || !strcmp(v->text, "false"))) {
		f->v = v->text[0] == 't';
		f->from = "pnpm-workspace.yaml";
	}
}

int pnpm_config_workspace(const char *buf, size_t len, struct pnpm_config *c,
			  struct parse_error *err)
{
	struct ynode *root = NULL;
	const struct ynode *v, *cats;
	size_t i;

	if (ytree_parse(buf, len, YTREE_MAX_NODES, &root, err) < 0)
		return -1;
	if (!root || root->kind != YNODE_MAP) {
		ynode_free(root);
		return 0;
	}
	c->file = "pnpm-workspace.yaml";
	yaml_strings(ynode_get(root, "overrides"), &c->overrides);
	yaml_strings(ynode_get(root, "patchedDependencies"), &c->patched);
	/* catalog: is the default catalog, as catalogs.default (pnpm
	 * catalogs-config getCatalogsFromWorkspaceManifest) */
	yaml_catalog(ynode_get(root, "catalog"), "default", &c->catalogs);
	cats = ynode_get(root, "catalogs");
	for (i = 0; cats && cats->kind == YNODE_MAP && i + 1 < cats->n; i += 2)
		if (cats->items[i]->kind == YNODE_SCALAR)
			yaml_catalog(cats->items[i + 1], cats->items[i]->text, &c->catalogs);
	v = ynode_get(root, "ignoredOptionalDependencies");
	for (i = 0; v && v->kind == YNODE_SEQ && i < v->n; i++) {
		c->ignored_optional.set = 1;
		if (v->items[i]->kind == YNODE_SCALAR)
			kv_add(&c->ignored_optional, v->items[i]->text, v->items[i]->len);
	}
	v = ynode_get(root, "packageExtensions");
	if (v && v->kind == YNODE_MAP && v->n) {
		int exact = 1;
		cJSON *j = ynode_json(v, &exact);

		free(c->pkgext_json);
		c->pkgext_json = cJSON_PrintUnformatted(j);
		c->pkgext_exact = exact;
		cJSON_Delete(j);
	}
	yaml_flag(root, "autoInstallPeers", &c->auto_install_peers);
	yaml_flag(root, "excludeLinksFromLockfile", &c->exclude_links);
	yaml_flag(root, "injectWorkspacePackages", &c->inject_workspace);
	c->pnpmfile_set = ynode_get(root, "pnpmfile") || ynode_get(root, "ignorePnpmfile");
	ynode_free(root);
	return 0;
}

int pnpm_npmrc_bool(const char *buf, size_t len, const char *key)
{
	char *vals[8];
	size_t n = deps_npmrc_values(buf, len, key, vals, 8);
	int v = -1;

	/* npm's ini: the last line wins; pnpm 8 reads the value as a
	 * Boolean ("true"/"false"; another word is not ours to guess) */
	if (n && !strcmp(vals[n - 1], "true"))
		v = 1;
	else if (n && !strcmp(vals[n - 1], "false"))
		v = 0;
	while (n)
		free(vals[--n]);
	return v;
}

/* ---- checksums ---- */

static void hex(struct buf *b, const unsigned char *d, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		buf_printf(b, "%02x", d[i]);
}

static void base64(struct buf *b, const unsigned char *d, size_t n)
{
	static const char a[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i;

	for (i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)d[i] << 16 | (i + 1 < n ? (uint32_t)d[i + 1] << 8 : 0) |
			     (i + 2 < n ? d[i + 2] : 0);

		buf_printf(b, "%c%c%c%c", a[v >> 18 & 63], a[v >> 12 & 63],
			   i + 1 < n ? a[v >> 6 & 63] : '=', i + 2 < n ? a[v & 63] : '=');
	}
}

/* rfc4648's base32, lower case, no padding (createBase32Hash) */
static void base32(struct buf *b, const unsigned char *d, size_t n)
{
	static const char a[] = "abcdefghijklmnopqrstuvwxyz234567";
	uint32_t acc = 0;
	unsigned bits = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		acc = acc << 8 | d[i];
		bits += 8;
		while (bits >= 5) {
			buf_printf(b, "%c", a[acc >> (bits - 5) & 31]);
			bits -= 5;
		}
	}
	if (bits)
		buf_printf(b, "%c", a[acc << (5 - bits) & 31]);
}

/* Whether buf is UTF-8 (node reads the file as 'utf8': other bytes would
 * become U+FFFD before hashing, which is not reproduced). */
static int utf8_ok(const char *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)buf, *e = p + len;

	while (p < e) {
		unsigned c = *p, n = 9;

		if (c < 0x80)
			n = 0;
		else if (c >= 0xc2 && c < 0xe0)
			n = 1;
		else if (c >= 0xe0 && c < 0xf0)
			n = 2;
		else if (c >= 0xf0 && c < 0xf5)
			n = 3;

		if (n == 9 || (size_t)(e - p) <= n)
			return n == 0;
		for (p++; n; n--, p++)
			if ((*p & 0xc0) != 0x80)
				return 0;
	}
	return 1;
}

char *pnpm_file_hash(const char *buf, size_t len, enum pnpm_hash how)
{
	struct buf out = BUF_INIT, text = BUF_INIT;
	unsigned char d[32];
	size_t i;

	if (!utf8_ok(buf, len))
		return NULL;
	/* content.split('\r\n').join('\n'), in every form (pnpm 10's
	 * createHexHashFromFile reads it with readNormalizedFile, and pnpm 12
	 * hashes a patch with CRLF line ends as the same text with LF ones:
	 * trigger.dev's antlr4ts patch); a BOM is kept (node's 'utf8'
	 * decoding keeps U+FEFF, as Rust's read_to_string does) */
	for (i = 0; i < len; i++)
		if (!(buf[i] == '\r' && i + 1 < len && buf[i + 1] == '\n'))
			buf_putc(&text, buf[i]);
	if (how == PNPM_SHA256_HEX) {
		digest_sha256((const unsigned char *)buf_str(&text), text.len, d);
		hex(&out, d, 32);
	} else if (how == PNPM_MD5_BASE32) {
		digest_md5((const unsigned char *)buf_str(&text), text.len, d);
		base32(&out, d, 16);
	} else {
		digest_sha256((const unsigned char *)buf_str(&text), text.len, d);
		buf_puts(&out, "sha256-");
		base64(&out, d, 32);
	}
	buf_release(&text);
	return buf_detach(&out);
}

/* ---- packageExtensionsChecksum ---- */

/* One member of an object, for sorting by its key. */
struct member {
	const cJSON *j;
};

static int cmp_keys(const void *a, const void *b)
{
	return strcmp(((const struct member *)a)->j->string, ((const struct member *)b)->j->string);
}

/* An object's members sorted by key (a new array of n), or NULL when a
 * key would not sort or print as pnpm's does: non-ASCII (JS sorts UTF-16
 * units), an array index (JS puts those first), twice. */
static struct member *sorted_members(const cJSON *o, size_t *n)
{
	struct member *v;
	const cJSON *e;
	size_t i = 0, k;

	*n = (size_t)cJSON_GetArraySize(o);
	v = xcalloc(*n ? *n : 1, sizeof(*v));
	cJSON_ArrayForEach(e, o) {
		const char *s = e->string;

		for (k = 0; s && s[k]; k++)
			if ((unsigned char)s[k] >= 0x80)
				s = NULL;
		if (!s || (s[0] >= '0' && s[0] <= '9' && strspn(s, "0123456789") == strlen(s) &&
			   (s[0] != '0' || !s[1]))) {
			free(v);
			return NULL;
		}
		v[i++].j = e;
	}
	qsort(v, *n, sizeof(*v), cmp_keys);
	for (i = 1; i < *n; i++)
		if (!strcmp(v[i - 1].j->string, v[i].j->string)) {
			free(v);
			return NULL;
		}
	return v;
}

/* JSON.stringify's string (quote, backslash, \b \f \n \r \t, else \u00xx
 * below 0x20; the rest as it is). */
static void js_string(struct buf *b, const char *s)
{
	buf_putc(b, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			buf_printf(b, "\\%c", c);
		else if (c == '\b')
			buf_puts(b, "\\b");
		else if (c == '\f')
			buf_puts(b, "\\f");
		else if (c == '\n')
			buf_puts(b, "\\n");
		else if (c == '\r')
			buf_puts(b, "\\r");
		else if (c == '\t')
			buf_puts(b, "\\t");
		else if (c < 0x20)
			buf_printf(b, "\\u%04x", c);
		else
			buf_putc(b, (char)c);
	}
	buf_putc(b, '"');
}

/* JSON.stringify(sortKeys(v, {deep: true})) (pnpm 8 createObjectChecksum);
 * -1 on what is not reproduced (a number). */
static int js_stringify(struct buf *b, const cJSON *v)
{
	struct member *m;
	const cJSON *e;
	size_t n, i;

	if (cJSON_IsString(v)) {
		js_string(b, v->valuestring);
	} else if (cJSON_IsBool(v)) {
		buf_puts(b, cJSON_IsTrue(v) ? "true" : "false");
	} else if (cJSON_IsNull(v)) {
		buf_puts(b, "null");
	} else if (cJSON_IsArray(v)) {
		buf_putc(b, '[');
		cJSON_ArrayForEach(e, v) {
			buf_puts(b, e != v->child ? "," : "");
			if (js_stringify(b, e) < 0)
				return -1;
		}
		buf_putc(b, ']');
	} else if (cJSON_IsObject(v) && (m = sorted_members(v, &n))) {
		buf_putc(b, '{');
		for (i = 0; i < n; i++) {
			buf_puts(b, i ? "," : "");
			js_string(b, m[i].j->string);
			buf_putc(b, ':');
			if (js_stringify(b, m[i].j) < 0) {
				free(m);
				return -1;
			}
		}
		free(m);
		buf_putc(b, '}');
	} else {
		return -1;
	}
	return 0;
}

static void oh_string(struct buf *b, const char *s)
{
	size_t units = 0;
	const unsigned char *p;

	/* JS .length: UTF-16 units (a 4-byte UTF-8 sequence is two) */
	for (p = (const unsigned char *)s; *p; p++)
		units += (*p & 0xc0) != 0x80 ? ((*p & 0xf8) == 0xf0 ? 2 : 1) : 0;
	buf_printf(b, "string:%zu:%s", units, s);
}

/* object-hash's stream with unorderedObjects (pnpm 12 graph-hasher
 * object_hasher.rs serialize) of packageExtensions as pnpm 12's typed
 * PackageExtension serializes it (config workspace_yaml.rs: dependencies,
 * optionalDependencies, peerDependencies of strings; peerDependenciesMeta
 * and other keys are not reproduced). */
static int object_hash(struct buf *b, const cJSON *v, int depth)
{
	struct member *m;
	size_t n, i;

	if (depth == 3) {	/* a dependency's spec */
		if (!cJSON_IsString(v))
			return -1;
		oh_string(b, v->valuestring);
		return 0;
	}
	if (!cJSON_IsObject(v) || !(m = sorted_members(v, &n)))
		return -1;
	buf_printf(b, "object:%zu:", n);
	for (i = 0; i < n; i++) {
		const char *k = m[i].j->string;

		if (depth == 1 && strcmp(k, "dependencies") && strcmp(k, "optionalDependencies") &&
		    strcmp(k, "peerDependencies")) {
			free(m);
			return -1;
		}
		oh_string(b, k);
		buf_putc(b, ':');
		if (object_hash(b, m[i].j, depth + 1) < 0) {
			free(m);
			return -1;
		}
		buf_putc(b, ',');
	}
	free(m);
	return 0;
}

char *pnpm_pkgext_checksum(const char *json, unsigned major)
{
	cJSON *v = cJSON_Parse(json);
	struct buf s = BUF_INIT, out = BUF_INIT;
	unsigned char d[32];
	int rc;

	if (!cJSON_IsObject(v) || !v->child) {
		cJSON_Delete(v);
		return NULL;
	}
	rc = major < 9 ? js_stringify(&s, v) : object_hash(&s, v, 0);
	cJSON_Delete(v);
	if (rc < 0) {
		buf_release(&s);
		return NULL;
	}
	if (major < 9) {
		digest_md5((const unsigned char *)buf_str(&s), s.len, d);
		hex(&out, d, 16);
	} else {
		digest_sha256((const unsigned char *)buf_str(&s), s.len, d);
		buf_puts(&out, "sha256-");
		base64(&out, d, 32);
	}
	buf_release(&s);
	return buf_detach(&out);
}

/* ---- the comparison ---- */

static int differ(struct pnpm_cfg_mismatch *why, const char *setting, const char *key,
		  const char *config, const char *lockfile, const char *from)
{
	why->setting = setting;
	why->key = key;
	why->config = config;
	why->lockfile = lockfile;
	why->from = from;
	return 0;
}

/* Two maps of strings (ramda's equals of two objects): the first key
 * that differs into why.  A config value that is no string, or one pnpm
 * rewrites before recording ("$name" of pnpm 8's version references,
 * "catalog:" of pnpm 12's), is compared by its key alone. */
static int maps_equal(const struct pnpm_kvs *lock, const struct pnpm_kvs *cfg,
		      const char *setting, const char *from, struct pnpm_cfg_mismatch *why)
{
	size_t i;

	for (i = 0; i < cfg->n; i++) {
		const struct pnpm_kv *c = &cfg->v[i], *l = kv_get(lock, c->key);

		if (!l)
			return differ(why, setting, c->key, c->val, NULL, from);
		if (!c->val || c->val[0] == '$' || !strncmp(c->val, "catalog:", 8))
			continue;
		if (!l->val || strcmp(l->val, c->val))
			return differ(why, setting, c->key, c->val, l->val, from);
	}
	for (i = 0; i < lock->n; i++)
		if (!kv_get(cfg, lock->v[i].key))
			return differ(why, setting, lock->v[i].key, NULL, lock->v[i].val, from);
	return 1;
}

/* A boolean setting the lockfile records (rec: -1 not recorded) against
 * the one pnpm runs with (-1: not told, not compared). */
static int flag_equal(int rec, const struct pnpm_flag *f, const char *setting,
		      struct pnpm_cfg_mismatch *why)
{
	if (rec < 0 || f->v < 0 || rec == f->v)
		return 1;
	return differ(why, setting, NULL, f->v ? "true" : "false", rec ? "true" : "false",
		      f->from);
}

/* patchedDependencies: the lockfile's keys and, per entry, the hash of
 * the patch file as this pnpm computes it. */
static int patches_equal(const struct pnpm_lockcfg *l, const struct pnpm_config *c,
			 const struct pnpm_cfg_files *f, struct pnpm_cfg_mismatch *why,
			 char **scratch)
{
	size_t i;

	for (i = 0; i < c->patched.n; i++) {
		const struct pnpm_kv *p = &c->patched.v[i], *e = kv_get(&l->patched, p->key);
		char *h;

		if (!e)
			return differ(why, "patchedDependencies", p->key, p->val, NULL, c->file);
		if (f && f->patch_missing && f->patch_missing[i]) {
			/* pnpm cannot hash it: both installs fail (ENOENT) */
			why->missing_file = 1;
			return differ(why, "patchedDependencies", p->key, p->val, e->val, c->file);
		}
		if (!f || !f->patch_data || !f->patch_data[i] || !e->val)
			continue;
		/* the hash as the lockfile's pnpm writes it, told by its form:
		 * sha256 hex (pnpm 10 calcPatchHashes createHexHashFromFile,
		 * {hash, path} in lockfile 9 as pnpm 9 wrote them; pnpm 12 the
		 * hex alone), else md5 base32 (pnpm 8 and 9) */
		if (strlen(e->val) == 64 && strspn(e->val, "0123456789abcdef") == 64)
			h = pnpm_file_hash(f->patch_data[i], f->patch_len[i], PNPM_SHA256_HEX);
		else if (l->patched_objects)
			h = pnpm_file_hash(f->patch_data[i], f->patch_len[i], PNPM_MD5_BASE32);
		else
			h = NULL;	/* another pnpm's hash: only presence is compared */
		if (h && strcmp(h, e->val)) {
			/* the patch file's hash: named by the file */
			free(*scratch);
			*scratch = h;
			return differ(why, "patchedDependencies", p->key, h, e->val, p->val);
		}
		free(h);
	}
	for (i = 0; i < l->patched.n; i++)
		if (!kv_get(&c->patched, l->patched.v[i].key))
			return differ(why, "patchedDependencies", l->patched.v[i].key, NULL,
				      l->patched.v[i].val, c->file);
	return 1;
}

/* The checksum is pnpm's, not the lockfile format's: pnpm 8 and 9 write
 * md5 hex (pnpm 9 core createObjectChecksum, lockfile 9 as well), pnpm 10
 * and later "sha256-" (hashObjectNullableWithPrefix): the recorded one's
 * form says which to compute. */
static int pkgext_equal(const struct pnpm_lockcfg *l, unsigned major,
			const struct pnpm_config *c, struct pnpm_cfg_mismatch *why, char **scratch)
{
	unsigned how = l->pkgext_checksum ? (strncmp(l->pkgext_checksum, "sha256-", 7) ? 8 : 9) :
		       major;
	char *sum = c->pkgext_json && (how < 9 || c->pkgext_exact) ?
		    pnpm_pkgext_checksum(c->pkgext_json, how) : NULL;

	if (!c->pkgext_json)
		return l->pkgext_checksum ? differ(why, "packageExtensionsChecksum", NULL, NULL,
						   l->pkgext_checksum, c->file) : 1;
	/* a checksum not reproduced: only that there is one is compared */
	if (!sum)
		return l->pkgext_checksum ? 1 : differ(why, "packageExtensionsChecksum", NULL,
						       "(packageExtensions)", NULL, c->file);
	if (l->pkgext_checksum && !strcmp(sum, l->pkgext_checksum)) {
		free(sum);
		return 1;
	}
	free(*scratch);
	*scratch = sum;
	return differ(why, "packageExtensionsChecksum", NULL, sum, l->pkgext_checksum, c->file);
}

/* catalogs (freshness.rs all_catalogs_are_up_to_date): every entry the
 * lockfile records is in the config with the same specifier; new
 * entries are not a difference. */
static int catalogs_equal(const struct pnpm_lockcfg *l, const struct pnpm_config *c,
			  struct pnpm_cfg_mismatch *why)
{
	size_t i;

	for (i = 0; i < l->catalogs.n; i++) {
		const struct pnpm_kv *e = &l->catalogs.v[i], *k = kv_get(&c->catalogs, e->key);

		if (!k || !k->val || !e->val || strcmp(k->val, e->val))
			return differ(why, "catalogs", e->key, k ? k->val : NULL, e->val,
				      "pnpm-workspace.yaml");
	}
	return 1;
}

/* pnpmfileChecksum (pnpm 12 crates/hooks current_pnpmfile_checksum): with
 * one recorded, the pnpmfile's own hash (sha256 base64 of its text) is
 * compared, whether or not it still exports hooks, and none at all when
 * the file is gone.  With none recorded, pnpm records one only when the
 * pnpmfile exports hooks, which only running it tells: not compared. */
static int pnpmfile_equal(const struct pnpm_lockcfg *l, const struct pnpm_config *c,
			  const struct pnpm_cfg_files *f, struct pnpm_cfg_mismatch *why,
			  char **scratch)
{
	char *h;

	if (!l->pnpmfile_checksum || !f || c->pnpmfile_set)
		return 1;
	if (f->pnpmfile_missing)
		return differ(why, "pnpmfileChecksum", NULL, NULL, l->pnpmfile_checksum,
			      ".pnpmfile.cjs");
	if (!f->pnpmfile)
		return 1;
	/* pnpm 9 recorded createBase32HashFromFile's md5 (pnpm 9 hooks
	 * requireHooks), pnpm 10 and later createHashFromFile's sha256: the
	 * recorded one's form says which */
	h = pnpm_file_hash(f->pnpmfile, f->pnpmfile_len,
			   strncmp(l->pnpmfile_checksum, "sha256-", 7) ? PNPM_MD5_BASE32 :
			   PNPM_SHA256_B64);
	if (!h || !strcmp(h, l->pnpmfile_checksum)) {
		free(h);
		return 1;
	}
	free(*scratch);
	*scratch = h;
	return differ(why, "pnpmfileChecksum", NULL, h, l->pnpmfile_checksum, f->pnpmfile_name);
}

/* Two lists as sets (a name listed twice is kept once), the first name
 * of one that the other lacks into why. */
static int sets_equal(const struct pnpm_kvs *lock, const struct pnpm_kvs *cfg,
		      const char *setting, const char *from, struct pnpm_cfg_mismatch *why)
{
	size_t i;

	for (i = 0; i < cfg->n; i++)
		if (!kv_get(lock, cfg->v[i].key))
			return differ(why, setting, cfg->v[i].key, cfg->v[i].key, NULL, from);
	for (i = 0; i < lock->n; i++)
		if (!kv_get(cfg, lock->v[i].key))
			return differ(why, setting, lock->v[i].key, NULL, lock->v[i].key, from);
	return 1;
}

/* pnpm 8's onlyBuiltDependencies: equals(config?.sort(), lockfile), so
 * that a list on one side only differs even when empty. */
static int only_built_equal(const struct pnpm_lockcfg *l, const struct pnpm_config *c,
			    struct pnpm_cfg_mismatch *why)
{
	if (c->only_built_file)
		return 1;
	if (c->only_built.set != l->only_built.set)
		return differ(why, "onlyBuiltDependencies", NULL,
			      c->only_built.set ? "(a list)" : NULL,
			      l->only_built.set ? "(a list)" : NULL, c->file);
	return sets_equal(&l->only_built, &c->only_built, "onlyBuiltDependencies", c->file, why);
}

int pnpm_settings_match(const struct pnpm_lockcfg *l, unsigned major,
			const struct pnpm_config *c, const struct pnpm_cfg_files *f,
			struct pnpm_cfg_mismatch *why, char **scratch)
{
	memset(why, 0, sizeof(*why));
	if (major < 6)
		return 1;	/* pnpm 7's lockfile 5: not this rule */
	if (major < 9) {
		/* pnpm 8 getOutdatedLockfileSetting, in its order; the
		 * settings only when the lockfile records them */
		return maps_equal(&l->overrides, &c->overrides, "overrides", c->file, why) &&
		       sets_equal(&l->never_built, &c->never_built, "neverBuiltDependencies",
				  c->file, why) &&
		       only_built_equal(l, c, why) &&
		       pkgext_equal(l, major, c, why, scratch) &&
		       patches_equal(l, c, f, why, scratch) &&
		       flag_equal(l->auto_install_peers, &c->auto_install_peers,
				  "settings.autoInstallPeers", why) &&
		       flag_equal(l->exclude_links, &c->exclude_links,
				  "settings.excludeLinksFromLockfile", why);
	}
	/* pnpm 12 check_lockfile_settings, in its order (injectWorkspacePackages
	 * unrecorded is false: recorded_inject_workspace_packages) */
	return catalogs_equal(l, c, why) &&
	       maps_equal(&l->overrides, &c->overrides, "overrides", c->file, why) &&
	       pkgext_equal(l, major, c, why, scratch) &&
	       sets_equal(&l->ignored_optional, &c->ignored_optional,
			  "ignoredOptionalDependencies", c->file, why) &&
	       patches_equal(l, c, f, why, scratch) &&
	       flag_equal(l->auto_install_peers, &c->auto_install_peers,
			  "settings.autoInstallPeers", why) &&
	       flag_equal(l->exclude_links, &c->exclude_links,
			  "settings.excludeLinksFromLockfile", why) &&
	       pnpmfile_equal(l, c, f, why, scratch) &&
	       flag_equal(l->inject_workspace < 0 ? 0 : l->inject_workspace, &c->inject_workspace,
			  "settings.injectWorkspacePackages", why);
}
