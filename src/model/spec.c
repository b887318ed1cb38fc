/* spec.c - loading the model: run every source loader once, in order */
#include "spec.h"
#include "specfile.h"
#include "saferead.h"
#include "spec_workspaces.h"
#include "ytree.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The names of enum req_source.  key is the last part of a runtime
 * check's id and JSON's source_key: part of envpreflight/1. */
static const struct {
	const char *key, *label;
} source_names[SRC_COUNT] = {
	[SRC_PREFLIGHT] = { "preflight", "preflight.yaml" },
	[SRC_ENGINES] = { "engines", "package.json engines" },
	[SRC_DEV_ENGINES] = { "devEngines", "package.json devEngines" },
	[SRC_PACKAGE_MANAGER] = { "packageManager", "packageManager" },
	[SRC_VOLTA] = { "volta", "volta" },
	[SRC_NVMRC] = { "nvmrc", ".nvmrc" },
	[SRC_NODE_VERSION] = { "node-version", ".node-version" },
	[SRC_PYTHON_VERSION] = { "python-version", ".python-version" },
	[SRC_PYPROJECT] = { "pyproject", "pyproject.toml" },
	[SRC_SETUP_CFG] = { "setup-cfg", "setup.cfg" },
	[SRC_TOOL_VERSIONS] = { "tool-versions", ".tool-versions" },
	[SRC_GO_MOD] = { "go-mod", "go.mod" },
	[SRC_GO_TOOLCHAIN] = { "toolchain", "go.mod toolchain" },
	[SRC_RUBY_VERSION] = { "ruby-version", ".ruby-version" },
	[SRC_RUST_TOOLCHAIN] = { "rust-toolchain", "rust-toolchain" },
	[SRC_MISE] = { "mise", "mise.toml" },
	[SRC_BUN_VERSION] = { "bun-version", ".bun-version" },
	[SRC_POETRY] = { "poetry", "pyproject.toml [tool.poetry]" },
	[SRC_JAVA_VERSION] = { "java-version", ".java-version" },
	[SRC_SDKMANRC] = { "sdkmanrc", ".sdkmanrc" },
	[SRC_MIX] = { "mix", "mix.exs" },
	[SRC_GEMFILE] = { "gemfile", "Gemfile" },
	[SRC_DVMRC] = { "dvmrc", ".dvmrc" },
	[SRC_DENO_VERSION] = { "deno-version", ".deno-version" },
	[SRC_COMPOSE] = { "compose", "compose service" },
	[SRC_ENV_URL] = { "env-url", ".env URL" },
	[SRC_ENV_PORT] = { "env-port", ".env port key" },
};

const char *req_source_key(enum req_source s)
{
	return (unsigned)s < SRC_COUNT ? source_names[s].key : "other";
}

const char *req_source_label(enum req_source s)
{
	return (unsigned)s < SRC_COUNT ? source_names[s].label : "?";
}

int req_source_selects(enum req_source s)
{
	switch (s) {
	case SRC_NVMRC:
	case SRC_NODE_VERSION:
	case SRC_PYTHON_VERSION:
	case SRC_TOOL_VERSIONS:
	case SRC_VOLTA:
	case SRC_PACKAGE_MANAGER:
	case SRC_RUBY_VERSION:
	case SRC_RUST_TOOLCHAIN:
	case SRC_MISE:
	case SRC_BUN_VERSION:
	case SRC_DVMRC:
	case SRC_DENO_VERSION:
	case SRC_JAVA_VERSION:
	case SRC_SDKMANRC:
		return 1;
	default:
		return 0;
	}
}

static const struct spec_source *const sources[] = {
#define SOURCE(name) &source_##name,
#include "sources.def"
#undef SOURCE
};

static void spec_verror(struct errbuf *err, const char *file, unsigned line,
			unsigned col, const char *fmt, va_list ap)
	__attribute__((format(printf, 5, 0)));

static void spec_verror(struct errbuf *err, const char *file, unsigned line,
			unsigned col, const char *fmt, va_list ap)
{
	struct buf b = BUF_INIT;
	size_t prefix;

	buf_add_clean(&b, file);
	if (line)
		buf_printf(&b, ":%u", line);
	if (line && col)
		buf_printf(&b, ":%u", col);
	buf_puts(&b, ": ");
	prefix = b.len;
	buf_vprintf(&b, fmt, ap);
	err_set(err, "%s", buf_str(&b));
	buf_release(&b);
	/* a file at fault: by default what it says is wrong; a reader that
	 * could not read it says so after the call (ERRK_UNREADABLE) */
	err->kind = ERRK_INVALID;
	snprintf(err->file, sizeof(err->file), "%s", file);
	err->line = line;
	err->col = line ? col : 0;
	err->what = prefix < strlen(err->msg) ? prefix : 0;
}

void spec_error(struct errbuf *err, const char *file, unsigned line,
		unsigned col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	spec_verror(err, file, line, col, fmt, ap);
	va_end(ap);
}

int yload_error(const struct yload *y, const struct ynode *n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	spec_verror(y->err, y->file, n ? n->line : 1, n ? n->col : 1, fmt, ap);
	va_end(ap);
	return -1;
}

/* [A-Za-z0-9_.-]: what both kinds of name are made of */
static int name_char(char c)
{
	return c == '_' || c == '.' || c == '-' || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

int env_key_valid(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!name_char(*s))
			return 0;
	return 1;
}

int spec_name_valid(const char *s)
{
	if (!*s || *s == '-' || *s == '.')
		return 0;
	for (; *s; s++)
		if (!name_char(*s) && *s != '+')
			return 0;
	return 1;
}

const char *spec_add_file(struct spec *spec, const char *name)
{
	size_t i;

	for (i = 0; i < spec->nfiles; i++)
		if (!strcmp(spec->files[i], name))
			return spec->files[i];
	grow(&spec->files, sizeof(*spec->files), &spec->files_cap, spec->nfiles + 1);
	spec->files[spec->nfiles] = xstrdup(name);
	return spec->files[spec->nfiles++];
}

const char *spec_intern(struct spec *spec, const char *s)
{
	size_t i;

	for (i = 0; i < spec->nfiles; i++)
		if (!strcmp(spec->files[i], s))
			return spec->files[i];
	for (i = 0; i < spec->nstrings; i++)
		if (!strcmp(spec->strings[i], s))
			return spec->strings[i];
	grow(&spec->strings, sizeof(*spec->strings), &spec->strings_cap,
	     spec->nstrings + 1);
	spec->strings[spec->nstrings] = xstrdup(s);
	return spec->strings[spec->nstrings++];
}

/* A new requirement of the given kind, everything else zero (port_last,
 * capped, proto TCP).  The pointer lasts until the next one is added. */
static struct port_req *port_req_new(struct spec *spec, enum port_req_kind kind,
				     enum req_source src, enum port_expect expect,
				     struct origin origin, const char *service)
{
	struct port_req *p;

	grow(&spec->ports, sizeof(*spec->ports), &spec->ports_cap, spec->nports + 1);
	p = &spec->ports[spec->nports++];
	memset(p, 0, sizeof(*p));
	p->kind = kind;
	p->src = src;
	p->expect = expect;
	p->origin = origin;
	p->service = service ? xstrdup(service) : NULL;
	return p;
}

struct port_req *spec_add_port(struct spec *spec, enum req_source src,
			       unsigned port, enum port_expect expect,
			       struct origin origin, const char *service)
{
	struct port_req *p = port_req_new(spec, PORT_REQ_PORT, src, expect,
					  origin, service);

	p->port = port;
	return p;
}

struct port_req *spec_add_url_mark(struct spec *spec, enum port_req_kind kind,
				   struct origin origin, const char *service)
{
	return port_req_new(spec, kind, SRC_ENV_URL, PORT_LISTENING, origin,
			    service);
}

struct port_req *spec_add_compose_mark(struct spec *spec, struct origin origin,
				       const char *service)
{
	return port_req_new(spec, PORT_REQ_COMPOSE_CAPPED, SRC_COMPOSE, PORT_FREE,
			    origin, service);
}

struct runtime_req *spec_add_runtime(struct spec *spec, enum req_source src,
				     const char *name, const char *text,
				     enum req_kind kind, struct origin origin)
{
	struct runtime_req *r;

	grow(&spec->runtimes, sizeof(*spec->runtimes), &spec->runtimes_cap,
	     spec->nruntimes + 1);
	r = &spec->runtimes[spec->nruntimes++];
	memset(r, 0, sizeof(*r));
	r->name = xstrdup(name);
	r->spec = xstrdup(text);
	r->kind = kind;
	r->src = src;
	r->origin = origin;
	r->nalt = 1;
	return r;
}

int spec_runtime_room(struct spec *spec, struct origin origin)
{
	if (spec->nruntimes < SPEC_RUNTIMES_MAX)
		return 1;
	if (!spec->runtimes_capped++)
		spec->runtimes_capped_origin = origin;
	return 0;
}

struct tool_req *spec_add_tool(struct spec *spec, const char *name,
			       struct origin origin)
{
	struct tool_req *t;

	grow(&spec->tools, sizeof(*spec->tools), &spec->tools_cap, spec->ntools + 1);
	t = &spec->tools[spec->ntools++];
	t->name = xstrdup(name);
	t->origin = origin;
	return t;
}

char *spec_rel(const struct spec *spec, const char *name)
{
	return spec->dir ? path_join(spec->dir, name) : xstrdup(name);
}

const char *spec_first_existing(const struct spec *spec, const char *const *names)
{
	struct stat st;

	for (; *names; names++) {
		char *p = path_join(spec->dir_abs ? spec->dir_abs : spec->root,
				    *names);
		int found = lstat(p, &st) == 0;

		free(p);
		if (found)
			return *names;
	}
	return NULL;
}

/* spec_read could not read name (rather than found it malformed). */
static void read_error(struct errbuf *err, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void read_error(struct errbuf *err, const char *name, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	spec_verror(err, name, 0, 0, fmt, ap);
	va_end(ap);
	err->kind = ERRK_UNREADABLE;
}

int spec_read(struct spec *spec, const char *name, struct blob *out,
	      struct errbuf *err)
{
	struct saferead_error why;

	if (saferead_file(&saferead_spec, spec->root, name, out, &why) == 0) {
		spec_add_file(spec, name);
		return 1;
	}
	switch (why.code) {
	case ENOENT:
	case ENOTDIR:
		if (!why.symlink)
			return 0;
		read_error(err, name, "dangling symlink");
		break;
	case EXDEV:
		/* neither a symlink (of the file or of a directory on the
		 * way) nor a "../" in a configured name leaves the
		 * repository */
		read_error(err, name, "%s outside the repository refused",
			   why.symlink ? "symlink resolving" : "a path");
		break;
	case EILSEQ:
		spec_error(err, name, why.line, why.col, "%s (expected UTF-8 text)",
			   why.what);
		break;
	default:
		read_error(err, name, "%s", saferead_strerror(why.code));
		break;
	}
	return -1;
}

/* yload_read and yload_read_docs: one document (many 0, the rest an
 * error) or every one. */
static int yload_parse(struct yload *y, const char *name, int many,
		       struct ynode ***docs, size_t *ndocs)
{
	struct parse_error ye;
	struct ynode *root = NULL;
	struct blob b;
	int rc;

	*docs = NULL;
	*ndocs = 0;
	rc = spec_read(y->spec, name, &b, y->err);
	if (rc <= 0)
		return rc;
	y->file = spec_add_file(y->spec, name);
	if (many) {
		rc = ytree_parse_docs(b.data, b.len, YTREE_MAX_NODES, docs, ndocs, &ye);
	} else if ((rc = ytree_parse(b.data, b.len, YTREE_MAX_NODES, &root, &ye)) == 0 &&
		   root) {
		/* NOLINTNEXTLINE(bugprone-sizeof-expression): an array of pointers */
		*docs = xmalloc(sizeof(**docs));
		(*docs)[0] = root;
		*ndocs = 1;
	}
	blob_release(&b);
	if (rc < 0) {
		spec_error(y->err, y->file, ye.line, ye.col, "%s", ye.msg);
		return -1;
	}
	return 1;
}

int yload_read(struct yload *y, const char *name, struct ynode **root)
{
	struct ynode **docs;
	size_t n;
	int rc = yload_parse(y, name, 0, &docs, &n);

	*root = n ? docs[0] : NULL;
	free(docs);
	return rc;
}

int yload_read_docs(struct yload *y, const char *name, struct ynode ***docs,
		    size_t *ndocs)
{
	return yload_parse(y, name, 1, docs, ndocs);
}

static void env_release(struct env_spec *e)
{
	size_t i;

	free(e->file);
	free(e->file_abs);
	free(e->example);
	free(e->other_examples);
	for (i = 0; i < e->nrequired; i++)
		free(e->required[i].name);
	free(e->required);
	for (i = 0; i < e->noptional; i++)
		free(e->optional[i].name);
	free(e->optional);
	dotenv_release(&e->example_doc);
	dotenv_release(&e->env_doc);
}

void spec_release_dir(struct spec *spec)
{
	size_t i;

	env_release(&spec->env);
	for (i = 0; i < ARRAY_SIZE(sources); i++)
		if (sources[i]->release)
			sources[i]->release(spec);
	for (i = 0; i < spec->nports; i++) {
		free(spec->ports[i].service);
		free(spec->ports[i].scheme);
	}
	free(spec->ports);
	for (i = 0; i < spec->nport_records; i++)
		free(spec->port_records[i].reqs);
	free(spec->port_records);
	for (i = 0; i < spec->nruntimes; i++) {
		struct runtime_req *r = &spec->runtimes[i];
		char **a;

		free(r->name);
		free(r->spec);
		free(r->problem);
		free(r->platform_version);
		for (a = r->command; a && *a; a++)
			free(*a);
		free(r->command);
		free(r->version_regex);
	}
	free(spec->runtimes);
	for (i = 0; i < spec->ntools; i++)
		free(spec->tools[i].name);
	free(spec->tools);
	for (i = 0; i < spec->nlocks; i++) {
		free(spec->locks[i].id);
		free(spec->locks[i].venv);
	}
	free(spec->locks);
	for (i = 0; i < spec->nfiles; i++)
		free(spec->files[i]);
	free(spec->files);
	for (i = 0; i < spec->nstrings; i++)
		free(spec->strings[i]);
	free(spec->strings);
	free(spec->root);
	free(spec->dir_abs);
	memset(spec, 0, sizeof(*spec));
}

/* Run every loader on spec (a workspace's model skips preflight.yaml,
 * which only the repository has): 0, or -1 with err filled. */
static int load_sources(struct spec *spec, struct errbuf *err)
{
	size_t i;

	spec->env.process_env = 1;
	for (i = 0; i < ARRAY_SIZE(sources); i++) {
		if (spec->parent && sources[i] == &source_preflight)
			continue;
		if (sources[i]->load(spec, err) < 0)
			return -1;
	}
	return 0;
}

/* Spec files read by the repository's model and its workspaces'. */
static size_t files_read(const struct spec *spec)
{
	size_t n = spec->nfiles, i;

	for (i = 0; spec->workspaces && i < spec->workspaces->n; i++)
		n += spec->workspaces->v[i].spec.nfiles;
	return n;
}

int spec_load_root(const char *dir, struct spec *spec, struct errbuf *err)
{
	char real[PATH_MAX];
	struct stat st;

	memset(spec, 0, sizeof(*spec));
	if (!realpath(dir, real) || stat(real, &st) < 0) {
		err_set(err, "%s: %s", dir, strerror(errno));
		err->kind = ERRK_DIR;
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		err_set(err, "%s: not a directory", dir);
		err->kind = ERRK_DIR;
		return -1;
	}
	/* every file is looked up by name in it: without search permission
	 * each would fail with EACCES, and the first one would take the
	 * blame (package.json: Permission denied) */
	if (access(real, X_OK) < 0) {
		err_set(err, "%s: cannot read the directory: %s", dir, strerror(errno));
		err->kind = ERRK_DIR;
		return -1;
	}
	spec->root = xstrdup(real);
	if (load_sources(spec, err) < 0) {
		spec_release_dir(spec);
		return -1;
	}
	return 0;
}

int spec_nothing_found(const struct spec *spec, const char *dir, int any,
		       int workspaces, struct errbuf *err)
{
	struct buf b = BUF_INIT;
	const char *const *n;
	size_t i;

	/* a compose file named (COMPOSE_FILE, compose.files) but not read
	 * is a failed compose.config check, not nothing to audit */
	if (any || files_read(spec) || spec->compose.used)
		return 0;
	/* a long family by its first names (the message must fit its
	 * errbuf, and stay readable: FILES in the man page has them all) */
	for (i = 0; i < ARRAY_SIZE(sources); i++) {
		size_t k = 0, total = 0;

		for (n = sources[i]->files; *n; n++)
			total++;
		for (n = sources[i]->files; *n && (total <= 4 || k < 3); n++, k++)
			buf_printf(&b, "%s%s", b.len ? ", " : "", *n);
		if (k < total)
			buf_printf(&b, " and %zu more %s", total - k, sources[i]->name);
	}
	if (workspaces)
		buf_puts(&b, ", pnpm-workspace.yaml, go.work");
	err_set(err, "nothing to audit in %s: looked for %s", dir, buf_str(&b));
	err->kind = ERRK_NOTHING;
	buf_release(&b);
	return 1;
}

int spec_load_child(const struct spec *parent, const char *dir,
		    struct spec *child, struct errbuf *err)
{
	memset(child, 0, sizeof(*child));
	child->root = xstrdup(parent->root);
	child->dir = dir;
	child->dir_abs = path_join(parent->root, dir);
	child->parent = parent;
	if (load_sources(child, err) < 0) {
		spec_release_dir(child);
		return -1;
	}
	/* no port records: the repository resolves a workspace's ports
	 * with its own (spec_workspaces.c) */
	return 0;
}
