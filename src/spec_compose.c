/* spec_compose.c - the host ports a docker compose stack will bind.
 *
 * The file is read as `docker compose` finds it in the repository root:
 * the first of compose.yaml, compose.yml, docker-compose.yml and
 * docker-compose.yaml (compose-go's order), then the first override file
 * beside it (compose.override.yml, ...), whose ports are added, as compose
 * merges them.  Every host port of `services.NAME.ports` becomes a PORT_FREE
 * requirement: the stack will bind it.
 *
 * Only what decides a host port is read strictly: a bad port entry stops
 * the audit with file:line:column, since the stack could not start either.
 * The rest of the file is docker's business and is not validated.
 *
 * Variables (${WEB_PORT:-3000}) are substituted as compose does, from our
 * environment first and then from the .env beside the file.  Substituted
 * text may come from the .env, whose values are secrets, so an error quotes
 * the entry as written, never as substituted.
 */
#include "specfile.h"
#include "portspec.h"
#include "saferead.h"
#include "ytree.h"

#include <stdlib.h>
#include <string.h>

static const char *const files[] = {
	"compose.yaml", "compose.yml", "docker-compose.yml", "docker-compose.yaml",
	NULL
};

static const char *const overrides[] = {
	"compose.override.yml", "compose.override.yaml",
	"docker-compose.override.yml", "docker-compose.override.yaml", NULL
};

#define MAX_HOST_PORTS 1024	/* per repository: each one is a check */
#define MERGE_DEPTH 8		/* <<: *a inside *a inside ... */
#define SUBST_DEPTH 8		/* ${A:-${B:-${C}}} */

struct cload {
	struct yload y;		/* the compose file being read */
	size_t nports;		/* host ports added from compose files */
	/* the .env beside the compose file, for ${VAR}; read on first use */
	int env_state;		/* 0 not yet, 1 read, -1 none */
	const struct dotenv *env;
	struct dotenv own_env;	/* when spec_env did not read that file */
};

/*
 * The value of key in map, following YAML merge keys as compose does:
 * the map's own key wins, then each map merged in by "<<" (one map, or a
 * list of them, earlier ones first), recursively.  ytree copies an alias's
 * node in place, so "<<: *base" arrives here as a map.
 */
static const struct ynode *get_merged(const struct ynode *map, const char *key,
				      unsigned depth)
{
	const struct ynode *v, *m;
	size_t i;

	if (!map || map->kind != YNODE_MAP || depth > MERGE_DEPTH)
		return NULL;
	v = ynode_get(map, key);
	if (v)
		return v;
	m = ynode_get(map, "<<");
	if (!m)
		return NULL;
	if (m->kind == YNODE_MAP)
		return get_merged(m, key, depth + 1);
	for (i = 0; m->kind == YNODE_SEQ && i < m->n; i++)
		if ((v = get_merged(m->items[i], key, depth + 1)))
			return v;
	return NULL;
}

/* ---- ${VAR} ------------------------------------------------------- */

static const struct dotenv *compose_env(struct cload *c)
{
	const struct env_spec *e = &c->y.spec->env;
	char *path;
	struct blob b;

	if (c->env_state)
		return c->env_state > 0 ? c->env : NULL;
	c->env_state = -1;
	path = path_join(c->y.spec->root, ".env");
	/* the env loader has read this very file, unless env.file names
	 * another one */
	if (e->file_abs && !strcmp(e->file_abs, path)) {
		free(path);
		if (e->env_errno)
			return NULL;
		c->env = &e->env_doc;
		c->env_state = 1;
		return c->env;
	}
	if (saferead_path(path, SPEC_FILE_CAP, &b) < 0) {
		free(path);
		return NULL;	/* compose, too, goes on without it */
	}
	free(path);
	dotenv_parse(b.data, b.len, &c->own_env);
	explicit_bzero(b.data, b.len);
	blob_release(&b);
	c->env = &c->own_env;
	c->env_state = 1;
	return c->env;
}

/* The value of variable [name, name+n): our environment first, then the
 * .env (compose's precedence); NULL when unset. */
static const char *var_get(struct cload *c, const char *name, size_t n)
{
	char *key = xstrndup(name, n);
	const struct dotenv *env;
	const struct dotenv_entry *d = NULL;
	const char *v = getenv(key);

	if (!v && (env = compose_env(c)) && (d = dotenv_get(env, key)))
		v = d->value;
	free(key);
	return v;
}

static int var_char(char ch, int first)
{
	return ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (!first && ch >= '0' && ch <= '9');
}

/* The '}' that closes the "${" before s, nested braces counted, or NULL. */
static const char *brace_end(const char *s)
{
	unsigned depth = 1;

	for (; *s; s++) {
		if (s[0] == '$' && s[1] == '{') {
			depth++;
			s++;
		} else if (*s == '}' && --depth == 0) {
			return s;
		}
	}
	return NULL;
}

static int subst(struct cload *c, const char *s, size_t n, struct buf *out,
		 unsigned depth);

/* One "${...}" body [s, s+n) into out.  -1 on a syntax error or an unset
 * ${VAR:?message}. */
static int subst_braced(struct cload *c, const char *s, size_t n,
			struct buf *out, unsigned depth)
{
	size_t k = 0;
	const char *v, *op;
	int colon, set;

	while (k < n && var_char(s[k], k == 0))
		k++;
	if (k == 0)
		return -1;
	v = var_get(c, s, k);
	if (k == n) {
		buf_puts(out, v ? v : "");
		return 0;
	}
	op = s + k;
	colon = *op == ':';
	op += colon;
	if (op >= s + n || !strchr("-?+", *op))
		return -1;
	set = v && (!colon || *v);
	switch (*op) {
	case '-':
		if (set) {
			buf_puts(out, v);
			return 0;
		}
		break;
	case '+':
		if (!set)
			return 0;
		break;
	case '?':
		if (!set)
			return -1;
		buf_puts(out, v);
		return 0;
	}
	op++;
	return subst(c, op, (size_t)(s + n - op), out, depth + 1);
}

/* Substitute compose variables in [s, s+n) into out: $$, $VAR, ${VAR},
 * ${VAR:-default}, ${VAR-default}, ${VAR:?err}, ${VAR?err}, ${VAR:+alt},
 * ${VAR+alt}, defaults nested.  Returns 0, or -1 when the text cannot be
 * substituted. */
static int subst(struct cload *c, const char *s, size_t n, struct buf *out,
		 unsigned depth)
{
	const char *p = s, *end = s + n;

	if (depth > SUBST_DEPTH)
		return -1;
	while (p < end) {
		const char *dollar = memchr(p, '$', (size_t)(end - p));

		if (!dollar) {
			buf_add(out, p, (size_t)(end - p));
			break;
		}
		buf_add(out, p, (size_t)(dollar - p));
		p = dollar + 1;
		if (p < end && *p == '$') {
			buf_putc(out, '$');
			p++;
		} else if (p < end && *p == '{') {
			const char *close = brace_end(p + 1);

			if (!close || close >= end ||
			    subst_braced(c, p + 1, (size_t)(close - p - 1), out,
					 depth) < 0)
				return -1;
			p = close + 1;
		} else if (p < end && var_char(*p, 1)) {
			const char *name = p, *v;

			while (p < end && var_char(*p, 0))
				p++;
			v = var_get(c, name, (size_t)(p - name));
			buf_puts(out, v ? v : "");
		} else {
			return -1;
		}
	}
	return 0;
}

/* The text of scalar n with variables substituted, as a new string in
 * *out; *subst_used says whether there was any.  -1 (err filled) when it
 * cannot be substituted. */
static int scalar_text(struct cload *c, const struct ynode *n, const char *where,
		       char **out, int *subst_used)
{
	struct buf b = BUF_INIT;

	*subst_used = memchr(n->text, '$', n->len) != NULL;
	if (!*subst_used) {
		*out = xstrdup(n->text);
		return 0;
	}
	if (subst(c, n->text, strlen(n->text), &b, 0) < 0) {
		char *raw = text_clean(n->text);

		if (b.s)
			explicit_bzero(b.s, b.len);
		buf_release(&b);
		yload_error(&c->y, n, "'%s': cannot substitute the variables of '%s' "
			    "(unset ${VAR:?...}, or bad ${...} syntax)", where, raw);
		free(raw);
		return -1;
	}
	*out = buf_detach(&b);
	return 0;
}

/* Free a scalar_text result; substituted text may hold a .env value. */
static void text_free(char *text, int subst_used)
{
	if (subst_used)
		explicit_bzero(text, strlen(text));
	free(text);
}

/* ---- ports -------------------------------------------------------- */

struct hostports {
	unsigned lo, hi;	/* lo 0: none */
	int pick_one;		/* any one of lo..hi will do */
	enum port_proto proto;
};

static enum port_proto proto_of(const char *s)
{
	return !strcmp(s, "udp") ? PORT_UDP : !strcmp(s, "sctp") ? PORT_SCTP :
	       PORT_TCP;
}

/* Add the requirements of one entry at n. */
static int add_hostports(struct cload *c, const struct ynode *n,
			 const char *service, const struct hostports *h)
{
	struct origin o = { c->y.file, n->line, n->col };
	unsigned p;

	if (!h->lo)
		return 0;	/* "3000": a container port only */
	if (h->pick_one) {
		struct port_req *r;

		if (++c->nports > MAX_HOST_PORTS)
			goto many;
		r = spec_add_port(c->y.spec, SRC_COMPOSE, h->lo, PORT_FREE, o,
				  service);
		r->port_last = h->hi;
		r->proto = h->proto;
		return 0;
	}
	for (p = h->lo; p <= h->hi; p++) {
		if (++c->nports > MAX_HOST_PORTS)
			goto many;
		spec_add_port(c->y.spec, SRC_COMPOSE, p, PORT_FREE, o,
			      service)->proto = h->proto;
	}
	return 0;
many:
	return yload_error(&c->y, n, "more than %d host ports in compose files",
			   MAX_HOST_PORTS);
}

/* "5433:5432", "127.0.0.1:8080:80/tcp", 3000 */
static int short_entry(struct cload *c, const struct ynode *n, const char *where,
		       const char *service)
{
	struct portspec ps;
	struct hostports h;
	char msg[256], *text;
	int used, rc;

	if (scalar_text(c, n, where, &text, &used) < 0)
		return -1;
	rc = portspec_parse(text, &ps, msg, sizeof(msg));
	text_free(text, used);
	if (rc < 0) {
		char *raw;

		if (!used)
			return yload_error(&c->y, n, "'%s': %s", where, msg);
		raw = text_clean(n->text);
		yload_error(&c->y, n, "'%s': '%s' is not a valid port entry once its "
			    "variables are substituted", where, raw);
		free(raw);
		return -1;
	}
	h.lo = ps.host_lo;
	h.hi = ps.host_hi;
	h.pick_one = ps.pick_one;
	h.proto = proto_of(ps.proto);
	return add_hostports(c, n, service, &h);
}

/* A port or range value of the long syntax into *lo, *hi (0 when empty). */
static int long_range(struct cload *c, const struct ynode *v, const char *where,
		      unsigned *lo, unsigned *hi)
{
	char *text, *raw;
	int used;

	*lo = *hi = 0;
	if (ynode_is_null(v))
		return 0;
	if (v->kind != YNODE_SCALAR)
		return yload_error(&c->y, v, "'%s' expects a port number or range, "
				   "found %s", where, ynode_kind_name(v->kind));
	if (scalar_text(c, v, where, &text, &used) < 0)
		return -1;
	if (!*text || portspec_range(text, lo, hi) == 0) {
		text_free(text, used);
		return 0;
	}
	text_free(text, used);
	raw = text_clean(v->text);
	yload_error(&c->y, v, "'%s': '%s' is not a port number or range "
		    "(1-65535)%s", where, raw,
		    used ? " once its variables are substituted" : "");
	free(raw);
	return -1;
}

/* {target: 5432, published: "5433", protocol: tcp, host_ip: ...} */
static int long_entry(struct cload *c, const struct ynode *n, const char *where,
		      const char *service)
{
	const struct ynode *pub = ynode_get(n, "published");
	const struct ynode *target = ynode_get(n, "target");
	const struct ynode *proto = ynode_get(n, "protocol");
	struct hostports h;
	unsigned tlo, thi;
	struct buf w = BUF_INIT;
	int rc = -1;

	memset(&h, 0, sizeof(h));
	buf_printf(&w, "%s.published", where);
	if (long_range(c, pub, w.s, &h.lo, &h.hi) < 0)
		goto out;
	buf_release(&w);
	buf_printf(&w, "%s.target", where);
	if (long_range(c, target, w.s, &tlo, &thi) < 0)
		goto out;
	h.pick_one = h.hi > h.lo && tlo && tlo == thi;
	if (proto && !ynode_is_null(proto)) {
		char *text;
		int used;

		buf_release(&w);
		buf_printf(&w, "%s.protocol", where);
		if (proto->kind != YNODE_SCALAR) {
			yload_error(&c->y, proto, "'%s' expects tcp, udp or sctp", w.s);
			goto out;
		}
		if (scalar_text(c, proto, w.s, &text, &used) < 0)
			goto out;
		h.proto = proto_of(text);
		if (h.proto == PORT_TCP && strcmp(text, "tcp")) {
			char *raw = text_clean(proto->text);

			yload_error(&c->y, proto, "'%s': unknown protocol '%s' "
				    "(tcp, udp or sctp)", w.s, raw);
			free(raw);
			text_free(text, used);
			goto out;
		}
		text_free(text, used);
	}
	rc = add_hostports(c, pub ? pub : n, service, &h);
out:
	buf_release(&w);
	return rc;
}

/* One service: its "ports", merge keys followed; a service behind a
 * profile is not started by a plain `docker compose up`, so it binds
 * nothing unless asked, and is left out. */
static int load_service(struct cload *c, const struct ynode *key,
			const struct ynode *svc)
{
	const struct ynode *ports, *profiles;
	char *name = text_clean(key->text);
	struct buf where = BUF_INIT;
	size_t i;
	int rc = -1;

	buf_printf(&where, "services.%s", name);
	if (ynode_is_null(svc)) {
		rc = 0;
		goto out;
	}
	if (svc->kind != YNODE_MAP) {
		yload_error(&c->y, svc, "'%s' expects a mapping, found %s", where.s,
			    ynode_kind_name(svc->kind));
		goto out;
	}
	profiles = get_merged(svc, "profiles", 0);
	ports = get_merged(svc, "ports", 0);
	if (ynode_is_null(ports) || (!ynode_is_null(profiles) &&
				     (profiles->kind != YNODE_SEQ || profiles->n))) {
		rc = 0;
		goto out;
	}
	buf_puts(&where, ".ports");
	if (ports->kind != YNODE_SEQ) {
		yload_error(&c->y, ports, "'%s' expects a list, found %s", where.s,
			    ynode_kind_name(ports->kind));
		goto out;
	}
	for (i = 0; i < ports->n; i++) {
		const struct ynode *e = ports->items[i];

		if (e->kind == YNODE_SCALAR && !ynode_is_null(e))
			rc = short_entry(c, e, where.s, name);
		else if (e->kind == YNODE_MAP)
			rc = long_entry(c, e, where.s, name);
		else
			rc = yload_error(&c->y, e, "'%s' expects port strings or "
					 "mappings, found %s", where.s,
					 ynode_is_null(e) ? "null" :
					 ynode_kind_name(e->kind));
		if (rc < 0)
			goto out;
	}
	rc = 0;
out:
	free(name);
	buf_release(&where);
	return rc;
}

static int load_doc(struct cload *c, const struct ynode *root)
{
	const struct ynode *services;
	size_t i;

	if (!root)
		return 0;	/* an empty file starts nothing */
	if (root->kind != YNODE_MAP)
		return yload_error(&c->y, root, "the document expects a mapping, "
				   "found %s", ynode_kind_name(root->kind));
	services = ynode_get(root, "services");
	if (ynode_is_null(services))
		return 0;
	if (services->kind != YNODE_MAP)
		return yload_error(&c->y, services, "'services' expects a mapping, "
				   "found %s", ynode_kind_name(services->kind));
	for (i = 0; i < services->n; i += 2) {
		const struct ynode *k = services->items[i];

		if (k->kind != YNODE_SCALAR)
			return yload_error(&c->y, k, "'services' expects service "
					   "names as keys");
		if (!strcmp(k->text, "<<"))
			continue;	/* not a service */
		if (load_service(c, k, services->items[i + 1]) < 0)
			return -1;
	}
	return 0;
}

/* Read and load one compose file; 0 also when it does not exist. */
static int load_file(struct cload *c, const char *name)
{
	struct ynode *root;
	int rc;

	rc = yload_read(&c->y, name, &root);
	if (rc <= 0)
		return rc;
	rc = load_doc(c, root);
	ynode_free(root);
	return rc;
}

static int compose_load(struct spec *spec, struct errbuf *err)
{
	const char *name = spec_first_existing(spec, files);
	struct cload c;
	int rc;

	if (!name)
		return 0;
	memset(&c, 0, sizeof(c));
	c.y.spec = spec;
	c.y.err = err;
	rc = load_file(&c, name);
	if (rc == 0 && (name = spec_first_existing(spec, overrides)))
		rc = load_file(&c, name);
	dotenv_release(&c.own_env);
	return rc;
}

const struct spec_source source_compose = {
	.name = "compose.yaml",
	.files = files,
	.load = compose_load,
};
