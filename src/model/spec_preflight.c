/* spec_preflight.c - preflight.yaml, version 1.
 *
 * The file is explicit configuration, so it is read strictly: an unknown
 * key, a wrong type or a duplicate key is an error naming file:line:col,
 * so that a typo never passes silently.
 */
#include "sandbox.h"
#include "specfile.h"
#include "ytree.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

static const char *const files[] = { "preflight.yaml", ".preflight.yaml", NULL };

#define MAX_ENTRIES 1024	/* per list or map: keeps duplicate checks cheap */

static struct origin at(const struct yload *y, const struct ynode *n)
{
	struct origin o = { y->file, n->line, n->col };

	return o;
}

/* Every key of map must be a scalar, listed in known, and appear once. */
static int check_keys(struct yload *y, const struct ynode *map, const char *where,
		      const char *const *known)
{
	size_t i, j;

	if (ynode_count(map) > MAX_ENTRIES)
		return yload_error(y, map, "'%s' has more than %d entries", where, MAX_ENTRIES);
	for (i = 0; i < map->n; i += 2) {
		const struct ynode *k = map->items[i];
		const char *const *kn;
		struct buf list = BUF_INIT;

		if (k->kind != YNODE_SCALAR)
			return yload_error(y, k, "'%s' expects plain keys", where);
		for (j = 0; j < i; j += 2)
			if (!strcmp(map->items[j]->text, k->text))
				return yload_error(y, k, "duplicate key '%s' (first at "
						   "line %u)", k->text, map->items[j]->line);
		if (!known)
			continue;
		for (kn = known; *kn; kn++)
			if (!strcmp(*kn, k->text))
				break;
		if (*kn)
			continue;
		for (kn = known; *kn; kn++)
			buf_printf(&list, "%s%s", kn == known ? "" : ", ", *kn);
		{
			char *name = text_clean(k->text);

			yload_error(y, k, "unknown key '%s' in %s (expected one of: %s)",
				    name, where, buf_str(&list));
			free(name);
		}
		buf_release(&list);
		return -1;
	}
	return 0;
}

static int want_map(struct yload *y, const struct ynode *n, const char *where)
{
	if (n->kind != YNODE_MAP)
		return yload_error(y, n, "'%s' expects a mapping, found %s", where,
				   ynode_kind_name(n->kind));
	return 0;
}

static int get_string(struct yload *y, const struct ynode *n, const char *where,
		      const char **out)
{
	if (n->kind != YNODE_SCALAR || ynode_is_null(n))
		return yload_error(y, n, "'%s' expects a string", where);
	*out = n->text;
	return 0;
}

static int get_bool(struct yload *y, const struct ynode *n, const char *where, int *out)
{
	static const char *const t[] = { "true", "True", "TRUE" };
	static const char *const f[] = { "false", "False", "FALSE" };
	size_t i;

	if (n->kind == YNODE_SCALAR && n->plain) {
		for (i = 0; i < ARRAY_SIZE(t); i++) {
			if (!strcmp(n->text, t[i]))
				return *out = 1, 0;
			if (!strcmp(n->text, f[i]))
				return *out = 0, 0;
		}
	}
	return yload_error(y, n, "'%s' expects true or false", where);
}

static int get_long(struct yload *y, const struct ynode *n, const char *where,
		    long min, long max, long *out)
{
	if (n->kind != YNODE_SCALAR || parse_long(n->text, min, max, out) < 0)
		return yload_error(y, n, "'%s' expects a whole number from %ld to %ld",
				   where, min, max);
	return 0;
}

/* A list (or a single scalar) of items, each passed to fn. */
static int each_item(struct yload *y, const struct ynode *n, const char *where,
		     int (*fn)(struct yload *, const struct ynode *, const char *,
			       void *),
		     void *arg)
{
	size_t i;

	if (ynode_is_null(n))
		return 0;
	if (n->kind == YNODE_SCALAR)
		return fn(y, n, where, arg);
	if (n->kind != YNODE_SEQ)
		return yload_error(y, n, "'%s' expects a list", where);
	if (n->n > MAX_ENTRIES)
		return yload_error(y, n, "'%s' has more than %d entries", where, MAX_ENTRIES);
	for (i = 0; i < n->n; i++)
		if (fn(y, n->items[i], where, arg) < 0)
			return -1;
	return 0;
}

static int add_env_key(struct yload *y, const struct ynode *n, const char *where,
		       /* cppcheck-suppress constParameter ; each_item's callback type */
		       void *arg)
{
	int optional = arg != NULL;
	struct env_spec *e = &y->spec->env;
	struct env_key **v = optional ? &e->optional : &e->required;
	size_t *count = optional ? &e->noptional : &e->nrequired;

	if (n->kind != YNODE_SCALAR || ynode_is_null(n))
		return yload_error(y, n, "'%s' expects a list of key names", where);
	if (!env_key_valid(n->text)) {
		char *name = text_clean(n->text);

		yload_error(y, n, "'%s': '%s' is not a valid key name (letters, digits, _ . -)",
			    where, name);
		free(name);
		return -1;
	}
	*v = xrealloc(*v, (*count + 1) * sizeof(**v));
	(*v)[*count].name = xstrdup(n->text);
	(*v)[*count].origin = at(y, n);
	(*count)++;
	return 0;
}

static int load_env(struct yload *y, const struct ynode *n)
{
	static const char *const known[] = {
		"file", "example", "process_env", "required", "optional", NULL
	};
	struct env_spec *e = &y->spec->env;
	const struct ynode *v;
	const char *s = NULL;

	y->spec->has_env = 1;
	if (ynode_is_null(n))
		return 0;
	if (want_map(y, n, "env") < 0 || check_keys(y, n, "'env'", known) < 0)
		return -1;
	if ((v = ynode_get(n, "file"))) {
		if (get_string(y, v, "env.file", &s) < 0)
			return -1;
		/* the repository names a file, so it must be its own: a hostile
		 * repo must not point the parser at ~/.ssh (a .env that is a
		 * symlink the user made may still lead anywhere) */
		if (!path_is_relative_inside(s))
			return yload_error(y, v, "'env.file' must be a relative path inside "
					   "the repository");
		e->file = xstrdup(s);
		e->file_origin = at(y, v);
	}
	if ((v = ynode_get(n, "example"))) {
		if (get_string(y, v, "env.example", &s) < 0)
			return -1;
		if (!path_is_relative_inside(s))
			return yload_error(y, v, "'env.example' must be a relative path "
					   "inside the repository");
		e->example = xstrdup(s);
		e->example_origin = at(y, v);
	}
	if ((v = ynode_get(n, "process_env")) &&
	    get_bool(y, v, "env.process_env", &e->process_env) < 0)
		return -1;
	if ((v = ynode_get(n, "required")) &&
	    each_item(y, v, "env.required", add_env_key, NULL) < 0)
		return -1;
	if ((v = ynode_get(n, "optional")) &&
	    each_item(y, v, "env.optional", add_env_key, (void *)1) < 0)
		return -1;
	return 0;
}

static int add_port(struct yload *y, const struct ynode *n, const char *where,
		    /* cppcheck-suppress constParameter ; each_item's callback type */
		    void *arg)
{
	enum port_expect expect = arg ? PORT_LISTENING : PORT_FREE;
	struct spec *spec = y->spec;
	long port;
	size_t i;

	if (get_long(y, n, where, 1, 65535, &port) < 0)
		return -1;
	for (i = 0; i < spec->nports; i++) {
		struct port_req *p = &spec->ports[i];

		if (p->port != (unsigned)port)
			continue;
		if (p->expect != expect)
			return yload_error(y, n, "port %ld is in both 'ports.free' and "
					   "'ports.listening' (line %u)", port, p->origin.line);
		return 0;	/* listed twice: once is enough */
	}
	spec_add_port(spec, SRC_PREFLIGHT, (unsigned)port, expect, at(y, n), NULL);
	return 0;
}

static int load_ports(struct yload *y, const struct ynode *n)
{
	static const char *const known[] = { "free", "listening", NULL };
	const struct ynode *v;

	if (ynode_is_null(n))
		return 0;
	if (want_map(y, n, "ports") < 0 || check_keys(y, n, "'ports'", known) < 0)
		return -1;
	if ((v = ynode_get(n, "free")) &&
	    each_item(y, v, "ports.free", add_port, NULL) < 0)
		return -1;
	if ((v = ynode_get(n, "listening")) &&
	    each_item(y, v, "ports.listening", add_port, (void *)1) < 0)
		return -1;
	return 0;
}

static int load_command(struct yload *y, const struct ynode *n, struct runtime_req *r)
{
	size_t i;

	if (n->kind != YNODE_SEQ || !n->n)
		return yload_error(y, n, "'runtimes.%s.command' expects a non-empty list "
				   "(an argv, never a shell line)", r->name);
	if (n->n > 64)
		return yload_error(y, n, "'runtimes.%s.command' has more than "
				   "64 arguments", r->name);
	r->command = xcalloc(n->n + 1, sizeof(*r->command));
	for (i = 0; i < n->n; i++) {
		const struct ynode *a = n->items[i];

		if (a->kind != YNODE_SCALAR || ynode_is_null(a))
			return yload_error(y, a, "'runtimes.%s.command' expects "
					   "strings", r->name);
		r->command[i] = xstrdup(a->text);
	}
	if (strchr(r->command[0], '/') && r->command[0][0] != '/')
		return yload_error(y, n->items[0], "'runtimes.%s.command' must start with a "
				   "command name or an absolute path", r->name);
	return 0;
}

static int load_runtime(struct yload *y, const struct ynode *key, const struct ynode *v)
{
	static const char *const known[] = { "version", "command", "version_regex", NULL };
	const char *name = key->text, *range = NULL;
	const struct ynode *rn = v, *cmd = NULL, *rx = NULL;
	struct runtime_req *r;
	enum req_kind kind;

	if (!spec_name_valid(name)) {
		char *clean = text_clean(name);

		yload_error(y, key, "'%s' is not a valid runtime name", clean);
		free(clean);
		return -1;
	}
	if (v->kind == YNODE_MAP) {
		if (check_keys(y, v, "a runtime", known) < 0)
			return -1;
		rn = ynode_get(v, "version");
		cmd = ynode_get(v, "command");
		rx = ynode_get(v, "version_regex");
	}
	if (rn && !ynode_is_null(rn)) {
		if (rn->kind != YNODE_SCALAR)
			return yload_error(y, rn, "'runtimes.%s' expects a version "
					   "range", name);
		range = rn->text;
	} else if (v->kind != YNODE_MAP && !ynode_is_null(v)) {
		return yload_error(y, v, "'runtimes.%s' expects a version range", name);
	}
	kind = !range ? REQ_ANY : !strcmp(name, "python") ? REQ_PEP440 : REQ_SEMVER;
	r = spec_add_runtime(y->spec, SRC_PREFLIGHT, name, range ? range : "", kind,
			     at(y, rn && !ynode_is_null(rn) ? rn : key));
	if (cmd && load_command(y, cmd, r) < 0)
		return -1;
	if (rx) {
		regex_t re;
		const char *s = NULL;

		if (get_string(y, rx, "version_regex", &s) < 0)
			return -1;
		if (regcomp(&re, s, REG_EXTENDED) != 0)
			return yload_error(y, rx, "'runtimes.%s.version_regex' is not a valid "
					   "extended regular expression", name);
		regfree(&re);
		r->version_regex = xstrdup(s);
	}
	return 0;
}

static int load_runtimes(struct yload *y, const struct ynode *n)
{
	size_t i;

	if (ynode_is_null(n))
		return 0;
	if (want_map(y, n, "runtimes") < 0 || check_keys(y, n, "'runtimes'", NULL) < 0)
		return -1;
	for (i = 0; i < n->n; i += 2)
		if (load_runtime(y, n->items[i], n->items[i + 1]) < 0)
			return -1;
	return 0;
}

static int add_tool(struct yload *y, const struct ynode *n, const char *where,
		    void *arg)
{
	if (n->kind != YNODE_SCALAR || ynode_is_null(n) || !spec_name_valid(n->text))
		return yload_error(y, n, "'%s' expects a list of command names", where);
	spec_add_tool(y->spec, n->text, at(y, n));
	return 0;
}

/* compose.files: relative paths inside the repository, as `-f` names
 * them; compose.profiles: profile names (compose-spec's pattern
 * [a-zA-Z0-9][a-zA-Z0-9_.-]*, or "*" for all). */
static int add_compose_name(struct yload *y, const struct ynode *n,
			    /* cppcheck-suppress constParameter ; each_item's callback type */
			    const char *where, void *arg)
{
	struct compose_spec *cs = &y->spec->compose;
	int is_file = arg == NULL;
	struct compose_name **v = is_file ? &cs->pf_files : &cs->pf_profiles;
	size_t *count = is_file ? &cs->npf_files : &cs->npf_profiles;
	const char *s = NULL;

	if (get_string(y, n, where, &s) < 0)
		return -1;
	if (is_file && !path_is_relative_inside(s))
		return yload_error(y, n, "'%s' must be relative paths inside the "
				   "repository", where);
	if (!is_file && strcmp(s, "*") &&
	    (!spec_name_valid(s) || strchr(s, '+'))) {
		char *name = text_clean(s);

		yload_error(y, n, "'%s': '%s' is not a profile name (letters, "
			    "digits, _ . -, or *)", where, name);
		free(name);
		return -1;
	}
	*v = xrealloc(*v, (*count + 1) * sizeof(**v));
	(*v)[*count].name = xstrdup(s);
	(*v)[*count].origin = at(y, n);
	(*count)++;
	return 0;
}

static int load_compose(struct yload *y, const struct ynode *n)
{
	static const char *const known[] = { "files", "profiles", NULL };
	struct compose_spec *cs = &y->spec->compose;
	const struct ynode *v;

	if (ynode_is_null(n))
		return 0;
	if (want_map(y, n, "compose") < 0 || check_keys(y, n, "'compose'", known) < 0)
		return -1;
	if ((v = ynode_get(n, "files"))) {
		if (each_item(y, v, "compose.files", add_compose_name, NULL) < 0)
			return -1;
		cs->pf_has_files = cs->npf_files > 0;
	}
	if ((v = ynode_get(n, "profiles"))) {
		if (each_item(y, v, "compose.profiles", add_compose_name,
			      (void *)1) < 0)
			return -1;
		/* an empty list says: no profile, whatever the .env says */
		cs->pf_has_profiles = 1;
		cs->pf_profiles_at = at(y, v);
	}
	return 0;
}

/* One name of a sandbox.capabilities or sandbox.secrets list. */
static int add_sandbox_name(struct yload *y, const struct ynode *n, const char *where,
			    void *arg)
{
	struct sandbox_expect *e = arg;
	int caps = !strcmp(where, "sandbox.capabilities");
	int bit = -1;

	if (n->kind == YNODE_SCALAR && !ynode_is_null(n))
		bit = caps ? sandbox_cap_parse(n->text) : sandbox_secret_parse(n->text);
	if (bit < 0) {
		char *name = n->kind == YNODE_SCALAR ? text_clean(n->text) : xstrdup("?");

		yload_error(y, n, "'%s': '%s' is not %s", where, name,
			    caps ? "a capability name (CAP_NET_BIND_SERVICE, net_raw, ...)" :
			    "a secret name (ssh, aws, gcloud, docker, npmrc, netrc, git, gh, kube, "
			    "pypirc, environment, mounted)");
		free(name);
		return -1;
	}
	if (caps)
		e->caps |= 1ULL << bit;
	else
		e->secrets |= 1U << bit;
	return 0;
}

/* sandbox.KEY: the key's word, `any`, and for three keys a number
 * (processes) or a list of names (capabilities, secrets). */
static int load_sandbox_key(struct yload *y, enum sandbox_key k, const struct ynode *v)
{
	struct sandbox_expect *e = &y->spec->sandbox.want[k];
	const char *def = sandbox_key_default(k), *alt = sandbox_key_alt(k);
	int listed = k == SANDBOX_CAPABILITIES || k == SANDBOX_SECRETS;
	struct buf where = BUF_INIT, forms = BUF_INIT;
	int rc;

	e->origin = at(y, v);
	if (v->kind == YNODE_SCALAR && !ynode_is_null(v)) {
		if (!strcmp(v->text, "any"))
			return e->want = SANDBOX_WANT_ANY, 0;
		if (def && !strcmp(v->text, def))
			return e->want = SANDBOX_WANT_DEFAULT, 0;
		if (alt && !strcmp(v->text, alt))
			return e->want = SANDBOX_WANT_READ_ONLY, 0;
		if (k == SANDBOX_PROCESSES && parse_long(v->text, 1, 1000000, &e->max) == 0)
			return e->want = SANDBOX_WANT_MAX, 0;
	}
	buf_printf(&where, "sandbox.%s", sandbox_key_name(k));
	if (listed && v->kind == YNODE_SEQ) {
		e->want = SANDBOX_WANT_LIST;
		rc = each_item(y, v, buf_str(&where), add_sandbox_name, e);
		buf_release(&where);
		return rc;
	}
	if (k == SANDBOX_PROCESSES)
		buf_puts(&forms, "a number from 1 to 1000000, or any");
	else if (alt)
		buf_printf(&forms, "%s, %s or any", def, alt);
	else if (listed)
		buf_printf(&forms, "%s, any or a list of %s", def,
			   k == SANDBOX_CAPABILITIES ? "capability names" : "secret names");
	else
		buf_printf(&forms, "%s or any", def);
	rc = yload_error(y, v, "'%s' expects %s", buf_str(&where), buf_str(&forms));
	buf_release(&where);
	buf_release(&forms);
	return rc;
}

/* sandbox: the opt-in sandbox probe's expectations (null: every default);
 * root is the document, for the key's own line */
static int load_sandbox(struct yload *y, const struct ynode *root,
			const struct ynode *n)
{
	const char *known[SANDBOX_KEYS + 1];
	struct sandbox_spec *sb = &y->spec->sandbox;
	const struct ynode *v;
	size_t i;
	int k;

	sb->used = 1;
	sb->origin = at(y, n);
	for (i = 0; i + 1 < root->n; i += 2)
		if (root->items[i + 1] == n)
			sb->origin = at(y, root->items[i]);
	if (ynode_is_null(n))
		return 0;
	for (k = 0; k < SANDBOX_KEYS; k++)
		known[k] = sandbox_key_name((enum sandbox_key)k);
	known[SANDBOX_KEYS] = NULL;
	if (want_map(y, n, "sandbox") < 0 || check_keys(y, n, "'sandbox'", known) < 0)
		return -1;
	for (k = 0; k < SANDBOX_KEYS; k++)
		if ((v = ynode_get(n, known[k])) &&
		    load_sandbox_key(y, (enum sandbox_key)k, v) < 0)
			return -1;
	return 0;
}

static int load_root(struct yload *y, const struct ynode *root)
{
	static const char *const known[] = {
		"version", "env", "ports", "runtimes", "tools", "compose",
		"timeout_ms", "sandbox", NULL
	};
	const struct ynode *v;
	long n;

	if (!root)
		return yload_error(y, NULL, "empty file (expected at least 'version: 1')");
	if (want_map(y, root, "the document") < 0 ||
	    check_keys(y, root, "the top level", known) < 0)
		return -1;
	v = ynode_get(root, "version");
	if (!v)
		return yload_error(y, root, "missing 'version: 1'");
	if (v->kind != YNODE_SCALAR || parse_long(v->text, 0, 1000000, &n) < 0 || n != 1)
		return yload_error(y, v, "unsupported version (expected 1)");
	if ((v = ynode_get(root, "env")) && load_env(y, v) < 0)
		return -1;
	if ((v = ynode_get(root, "ports")) && load_ports(y, v) < 0)
		return -1;
	if ((v = ynode_get(root, "runtimes")) && load_runtimes(y, v) < 0)
		return -1;
	if ((v = ynode_get(root, "compose")) && load_compose(y, v) < 0)
		return -1;
	if ((v = ynode_get(root, "tools")) &&
	    each_item(y, v, "tools", add_tool, NULL) < 0)
		return -1;
	if ((v = ynode_get(root, "sandbox")) && load_sandbox(y, root, v) < 0)
		return -1;
	if ((v = ynode_get(root, "timeout_ms"))) {
		if (get_long(y, v, "timeout_ms", 1, 600000, &y->spec->timeout_ms) < 0)
			return -1;
		y->spec->timeout_origin = at(y, v);
	}
	return 0;
}

static int preflight_load(struct spec *spec, struct errbuf *err)
{
	const char *name = spec_first_existing(spec, files);
	struct yload y = { spec, NULL, err };
	struct ynode *root;
	int rc;

	if (!name)
		return 0;
	rc = yload_read(&y, name, &root);
	if (rc <= 0)
		return rc;
	rc = load_root(&y, root);
	ynode_free(root);
	return rc;
}

const struct spec_source source_preflight = {
	.name = "preflight.yaml",
	.files = files,
	.load = preflight_load,
};
