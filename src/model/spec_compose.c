/* spec_compose.c - the compose project `docker compose up` would start:
 * which files it reads, which services it starts, the host ports they
 * bind, and what would make it refuse to start at all.
 *
 * The rules are compose-go's (compose-spec/compose-go v2, which docker
 * compose v2 uses); each is cited where it is implemented.  In short:
 *
 *  - Files: COMPOSE_FILE (split on COMPOSE_PATH_SEPARATOR, default ':'),
 *    else the first of compose.yaml, compose.yml, docker-compose.yml,
 *    docker-compose.yaml in the root and the first override file beside
 *    it (cli/options.go WithConfigFileEnv, WithDefaultConfigPath,
 *    DefaultFileNames, DefaultOverrideFileNames).  preflight.yaml's
 *    compose.files stands for `docker compose -f`; our precedence is
 *    exported COMPOSE_FILE > compose.files > the .env's COMPOSE_FILE >
 *    the default files (the man page, FILES, says why).
 *  - Variables: our environment first, then the .env in the root, then
 *    the .env beside the first compose file; an earlier one wins
 *    (docker/compose cmd/compose/compose.go toProjectOptions: WithOsEnv,
 *    then WithEnvFiles+WithDotEnv twice; types.Mapping.Merge never
 *    overwrites).  COMPOSE_DISABLE_ENV_FILE=true reads no .env.  Every
 *    value of every file is interpolated before anything else (loader.go
 *    processRawYaml, interpolation.Interpolate), so an unset
 *    ${VAR:?message} anywhere refuses the whole project.
 *  - Profiles: COMPOSE_PROFILES (comma-separated, spaces trimmed;
 *    cli/options.go WithDefaultProfiles); a service with profiles starts
 *    only when one is active, "*" activates all (types/project.go
 *    HasProfile).  A started service that depends_on a service left out
 *    refuses the project unless the dependency says required: false
 *    (loader/validate.go checkConsistency): plain `docker compose up` does
 *    not start it for you.
 *  - include: (string, or path / project_directory / env_file) is read
 *    before the including file's own services, which are merged over the
 *    included ones (loader/include.go ApplyInclude, importResources).
 *  - Merging files: sequences such as ports append (duplicates dropped,
 *    override/uncity.go), profiles too, depends_on merges per service
 *    (override/merge.go); a value tagged !reset is dropped and !override
 *    replaces what earlier files said (loader/reset.go).
 *
 * What compose would refuse is recorded in the model as a problem (the
 * compose probe fails its check naming file:line), never an exit 2: only
 * YAML that does not parse, or a file our reader refuses (size, symlink
 * out of the repository, not text), stops the audit.  Substituted text
 * may hold a .env value, which is a secret: a message quotes text as
 * written in the compose file, never as substituted, and a file name that
 * came from a .env value is not shown.
 */
#include "specfile.h"
#include "composeenv.h"
#include "composevar.h"
#include "portspec.h"
#include "saferead.h"
#include "strmap.h"
#include "ytree.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const files[] = {
	"compose.yaml", "compose.yml", "docker-compose.yml", "docker-compose.yaml",
	NULL
};

static const char *const overrides[] = {
	"compose.override.yml", "compose.override.yaml",
	"docker-compose.override.yml", "docker-compose.override.yaml", NULL
};

#define MAX_HOST_PORTS PORTS_COMPOSE_MAX	/* per repository: each one is a check */
#define MERGE_DEPTH 8		/* <<: *a inside *a inside ... */
#define MAX_PROBLEMS 64		/* then only counted */
#define MAX_FILES 64		/* compose files read, included ones too */
#define MAX_INCLUDE_DEPTH 16
#define MAX_SERVICES 4096
#define MSG_QUOTE 80		/* bytes of a ${VAR:?message} quoted */

/* The variables one file is interpolated with: our environment, then
 * docs in order (the first that has a key wins). */
struct cenv {
	const struct dotenv **docs;
	size_t n;
};

/* One host port entry of a service, already substituted. */
struct cport {
	unsigned lo, hi;	/* lo 0: none */
	int pick_one;		/* any one of lo..hi will do */
	enum port_proto proto;
	struct origin origin;
};

struct cdep {
	char *name;
	int required;
	struct origin origin;
};

/* An env_file of a service: compose refuses to start the service when a
 * required one does not exist (types/project.go loadEnvFile). */
struct cenvfile {
	char *rel;		/* repository-relative path */
	char *shown;		/* as written (or substituted without a
				 * variable): repository text */
	int required;
	struct origin origin;
};

/* A service as the files read so far define it, merged. */
struct csvc {
	char *name;
	int defined;		/* 0 once a !reset dropped it */
	struct origin origin;	/* its first definition */
	struct cport *ports;
	size_t nports, ports_cap;
	char **profiles;
	size_t nprofiles, profiles_cap;
	struct strmap profile_set;	/* profiles -> index, keys borrowed */
	struct cdep *deps;
	size_t ndeps, deps_cap;
	struct strmap dep_index;	/* deps by name, keys borrowed */
	struct cenvfile *envfiles;
	size_t nenvfiles, envfiles_cap;
};

struct cload {
	struct yload y;		/* the compose file being read */
	struct compose_spec *cs;
	const struct cenv *env;	/* the variables of the file being read */
	const char *pdir;	/* its project directory, repository-relative
				 * ("" for the root) */
	int no_dotenv;		/* COMPOSE_DISABLE_ENV_FILE */
	struct cenv top;	/* our environment, the root .env, the .env
				 * beside the first file */
	const char *top_names[2];	/* the names of those .env files */
	struct dotenv **owned;	/* .env files parsed here */
	size_t nowned, owned_cap;
	struct cenv **envs;	/* include environments */
	size_t nenvs, envs_cap;
	const char **chain;	/* the files including the current one */
	size_t depth;
	struct csvc *svcs;
	size_t nsvcs, svcs_cap;
	struct strmap svc_index;	/* services by name, keys borrowed */
	struct strmap active;	/* the active profiles (cs->profiles) */
	int active_empty;	/* the profile "" is active too (top_profiles) */
	int active_all;		/* "*" among them */
	size_t nhostports;
	size_t capped_at;	/* spec->ports index of the mark for the host
				 * ports past the cap, or SIZE_MAX */
	struct composevar_error serr;	/* why a substitution failed */
};

const char *compose_from_label(enum compose_from from, int profiles)
{
	switch (from) {
	case COMPOSE_FROM_ENV:
		return profiles ? "COMPOSE_PROFILES in the environment" :
		       "COMPOSE_FILE in the environment";
	case COMPOSE_FROM_PREFLIGHT:
		return profiles ? "preflight.yaml compose.profiles" :
		       "preflight.yaml compose.files";
	case COMPOSE_FROM_DOTENV:
		return profiles ? "COMPOSE_PROFILES in .env" : "COMPOSE_FILE in .env";
	case COMPOSE_FROM_DEFAULT:
		break;
	}
	return profiles ? "no profile" : "the default file names";
}

/* ---- the model: problems and notes ------------------------------- */

static struct origin origin_at(const struct cload *c, const struct ynode *n)
{
	struct origin o = { c->y.file, n ? n->line : 0, n ? n->col : 0 };

	return o;
}

static void problem_add(struct cload *c, enum compose_problem_kind kind,
			const char *name, struct origin o, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Record what compose would refuse; name and the message are repository
 * text (cleaned when shown), never a .env value. */
static void problem_add(struct cload *c, enum compose_problem_kind kind,
			const char *name, struct origin o, const char *fmt, ...)
{
	struct compose_spec *cs = c->cs;
	struct compose_problem *p;
	va_list ap;

	if (cs->nproblems >= MAX_PROBLEMS) {
		cs->problems_more++;
		return;
	}
	grow(&cs->problems, sizeof(*cs->problems), &cs->problems_cap,
	     cs->nproblems + 1);
	p = &cs->problems[cs->nproblems++];
	p->kind = kind;
	p->name = name ? xstrdup(name) : NULL;
	va_start(ap, fmt);
	p->message = xvformat(fmt, ap);
	va_end(ap);
	p->origin = o;
}

static void note_add(struct compose_spec *cs, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note_add(struct compose_spec *cs, const char *fmt, ...)
{
	va_list ap;

	grow(&cs->notes, sizeof(*cs->notes), &cs->notes_cap, cs->nnotes + 1);
	va_start(ap, fmt);
	cs->notes[cs->nnotes++] = xvformat(fmt, ap);
	va_end(ap);
}

/* A shape compose's schema rejects, at node n. */
static void invalid(struct cload *c, const struct ynode *n, const char *where,
		    const char *expects)
{
	int quoted = strncmp(where, "the ", 4) != 0;

	problem_add(c, COMPOSE_INVALID, NULL, origin_at(c, n),
		    "%s%s%s expects %s, found %s", quoted ? "'" : "", where,
		    quoted ? "'" : "", expects,
		    ynode_is_null(n) ? "null" : ynode_kind_name(n->kind));
}

/* ---- paths -------------------------------------------------------- */

/* base (a repository-relative directory, "" for the root) joined with p
 * and normalised without asking the file system, as a new string ("" for
 * the root itself); NULL when it leaves the repository.  An absolute p
 * counts when it lies under root. */
static char *rel_path(const char *root, const char *base, const char *p)
{
	struct buf in = BUF_INIT, out = BUF_INIT;
	const char *s;
	char *r;

	if (*p == '/') {
		if (!path_is_inside(p, root))
			return NULL;
		p += strlen(root);
		base = "";
	}
	buf_printf(&in, "%s/%s", base, p);
	for (s = buf_str(&in); *s;) {
		size_t n = strcspn(s, "/");

		if (n == 2 && s[0] == '.' && s[1] == '.') {
			char *slash;

			if (!out.len) {
				buf_release(&in);
				buf_release(&out);
				return NULL;
			}
			slash = strrchr(out.s, '/');
			out.len = slash ? (size_t)(slash - out.s) : 0;
			out.s[out.len] = '\0';
		} else if (n && !(n == 1 && s[0] == '.')) {
			if (out.len)
				buf_putc(&out, '/');
			buf_add(&out, s, n);
		}
		s += n;
		s += *s == '/';
	}
	buf_release(&in);
	r = out.s ? buf_detach(&out) : xstrdup("");
	return r;
}

/* The model's directory, repository-relative: "" for the repository,
 * "apps/web" for a workspace, whose compose project lives there. */
static const char *spec_base(const struct spec *spec)
{
	return spec->dir ? spec->dir : "";
}

/* The directory of a repository-relative file name, as a new string. */
static char *rel_dir(const char *name)
{
	const char *slash = strrchr(name, '/');

	return slash ? xstrndup(name, (size_t)(slash - name)) : xstrdup("");
}

/* 0 regular file (or anything not a directory), 1 directory, -1 absent */
static int rel_stat(const struct spec *spec, const char *name)
{
	char *p = path_join(spec->root, name);
	struct stat st;
	int rc = stat(p, &st) < 0 ? -1 : S_ISDIR(st.st_mode) ? 1 : 0;

	free(p);
	return rc;
}

/* compose-go's remote resource loaders (git, OCI) take these; we read
 * only files of the repository. */
static int is_remote(const char *p)
{
	return strstr(p, "://") != NULL || !strncmp(p, "git@", 4);
}

/* ---- variables ----------------------------------------------------- */

/* compose-go reads a .env with a dotenv of its own (composeenv.h), which
 * substitutes variables in unquoted and double-quoted values, each looked
 * up in the environment compose runs with first (ours, then what the .env
 * files read before set: WithDotEnv merges each into o.Environment, which
 * GetEnvFromFile's lookup reads), then among the keys read before it: so
 * COMPOSE_PROFILES=${STORE:-weaviate} names weaviate. */
static const char *env_before(void *ctx, const char *name, size_t n)
{
	const struct cload *c = ctx;
	char *key = xstrndup(name, n);
	const char *v = getenv(key);
	size_t i;

	for (i = 0; !v && i < c->top.n; i++) {
		const struct dotenv_entry *e = dotenv_get(c->top.docs[i], key);

		v = e ? e->value : NULL;
	}
	free(key);
	return v;
}

/* Parse the .env-format file at repository-relative name for variables,
 * as compose reads it (composeenv.h).  NULL when it cannot be read:
 * compose would stop on an env_file it cannot read, the caller decides.
 * One compose refuses ("failed to read .env") is a problem, and gives no
 * variable.  The values stay in memory, wiped when freed. */
static const struct dotenv *dotenv_for(struct cload *c, const char *name)
{
	char *path = path_join(c->y.spec->root, name);
	struct composeenv_error err;
	struct dotenv *d;
	struct blob b;

	/* a .env is the user's secrets file, not a spec file: it may be a
	 * symlink that leads anywhere (as the env loader reads it) */
	if (saferead_path(path, SPEC_FILE_CAP, &b) < 0) {
		free(path);
		return NULL;
	}
	free(path);
	d = xcalloc(1, sizeof(*d));
	if (composeenv_parse(b.data, b.len, env_before, c, d, &err) < 0) {
		/* neither the key (it may be a piece of a secret) nor the
		 * value is shown */
		struct origin o = { spec_intern(c->y.spec, name), err.line, 1 };

		problem_add(c, COMPOSE_INVALID, NULL, o, "%s", err.what);
	}
	explicit_bzero(b.data, b.len);
	blob_release(&b);
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): an array of pointers */
	grow(&c->owned, sizeof(*c->owned), &c->owned_cap, c->nowned + 1);
	c->owned[c->nowned++] = d;
	return d;
}

static void env_push(struct cenv *env, const struct dotenv *d)
{
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): an array of pointers */
	env->docs = xrealloc(env->docs, (env->n + 1) * sizeof(*env->docs));
	env->docs[env->n++] = d;
}

/* The value of key in env: our environment first, then the .env files in
 * order; NULL when unset.  *line_out (when not NULL) gets the .env entry
 * that gave it (NULL: the environment). */
static const char *env_lookup(const struct cenv *env, const char *key,
			      const struct dotenv_entry **entry)
{
	const char *v = getenv(key);
	size_t i;

	if (entry)
		*entry = NULL;
	if (v)
		return v;
	for (i = 0; env && i < env->n; i++) {
		const struct dotenv_entry *d = dotenv_get(env->docs[i], key);

		if (d) {
			if (entry)
				*entry = d;
			return d->value;
		}
	}
	return NULL;
}

static const char *var_get(struct cload *c, const char *name, size_t n)
{
	char *key = xstrndup(name, n);
	const char *v = env_lookup(c->env, key, NULL);

	free(key);
	return v;
}

/* composevar_lookup over the variables of the file being read */
static const char *var_lookup(void *ctx, const char *name, size_t n)
{
	return var_get(ctx, name, n);
}

/* Substitute [s, s+n) with the current file's variables into out; -1
 * with c->serr (its pointers into s) when compose would refuse it. */
static int subst(struct cload *c, const char *s, size_t n, struct buf *out)
{
	return composevar_subst(s, n, var_lookup, c, out, &c->serr);
}

/* The text of scalar n with variables substituted, as a new string in
 * *out; *subst_used says whether there was any.  -1 when it cannot be
 * substituted: scan_vars has recorded why for the whole file already. */
static int scalar_text(struct cload *c, const struct ynode *n, char **out,
		       int *subst_used)
{
	struct buf b = BUF_INIT;

	*subst_used = memchr(n->text, '$', n->len) != NULL;
	if (!*subst_used) {
		*out = xstrdup(n->text);
		return 0;
	}
	if (subst(c, n->text, n->len, &b) < 0) {
		if (b.s)
			explicit_bzero(b.s, b.len);
		buf_release(&b);
		return -1;
	}
	*out = b.s ? buf_detach(&b) : xstrdup("");
	return 0;
}

/* Free a scalar_text result; substituted text may hold a .env value. */
static void text_free(char *text, int subst_used)
{
	if (subst_used)
		explicit_bzero(text, strlen(text));
	free(text);
}

static int tagged(const struct ynode *n, const char *tag)
{
	return n && n->tag && !strcmp(n->tag, tag);
}

/* Repository text [s, s+n) for a message: cleaned, cut at MSG_QUOTE. */
static char *quote(const char *s, size_t n)
{
	size_t cut = n < MSG_QUOTE ? n : MSG_QUOTE;
	char *raw, *q;

	/* never in the middle of a UTF-8 sequence */
	while (cut < n && cut && ((unsigned char)s[cut] & 0xC0) == 0x80)
		cut--;
	raw = xstrndup(s, cut);
	q = text_clean(raw);
	free(raw);
	if (n > cut) {
		struct buf b = BUF_INIT;

		buf_printf(&b, "%s...", q);
		free(q);
		q = buf_detach(&b);
	}
	return q;
}

/* Why scalar n could not be substituted (c->serr), as a problem. */
static void scan_report(struct cload *c, const struct ynode *n)
{
	const struct compose_spec *cs = c->cs;
	const struct composevar_error *e = &c->serr;
	char *q, *name;
	size_t i;

	if (e->status != COMPOSEVAR_UNSET) {
		q = quote(n->text, n->len);
		problem_add(c, COMPOSE_VAR_SYNTAX, NULL, origin_at(c, n),
			    "invalid interpolation format in '%s' (a literal $ "
			    "is written $$)", q);
		free(q);
		return;
	}
	name = xstrndup(e->name, e->name_len);
	for (i = 0; i < cs->nproblems; i++)
		if (cs->problems[i].kind == COMPOSE_VAR_UNSET &&
		    !strcmp(cs->problems[i].name, name))
			break;	/* once a variable */
	if (i == cs->nproblems) {
		/* the message as written: it may name other variables,
		 * never their values */
		q = e->msg_len ? quote(e->msg, e->msg_len) : NULL;
		problem_add(c, COMPOSE_VAR_UNSET, name, origin_at(c, n),
			    "required variable %s is missing a value%s%s", name,
			    q ? ": " : "", q ? q : "");
		free(q);
	}
	free(name);
}

/* Every value of the file is interpolated before compose reads anything
 * (interpolation.Interpolate walks values, not keys); a value compose
 * drops with !reset never is.  Each variable that is unset is reported
 * once. */
static void scan_vars(struct cload *c, const struct ynode *n)
{
	size_t i;

	if (!n || tagged(n, "!reset"))
		return;
	if (n->kind == YNODE_MAP) {
		for (i = 1; i < n->n; i += 2)
			scan_vars(c, n->items[i]);
		return;
	}
	if (n->kind == YNODE_SEQ) {
		for (i = 0; i < n->n; i++)
			scan_vars(c, n->items[i]);
		return;
	}
	if (memchr(n->text, '$', n->len)) {
		struct buf b = BUF_INIT;

		if (subst(c, n->text, n->len, &b) < 0)
			scan_report(c, n);
		if (b.s)
			explicit_bzero(b.s, b.len);
		buf_release(&b);
	}
}

/* go-yaml v3 refuses a mapping that has a key twice (decode.go mapping,
 * uniqueKeys: "line 6: mapping key \"command\" already defined at line
 * 5", compose-go's Test_DuplicateReset), !reset or not: each later key,
 * at its place.  Keys are compared as go-yaml compares them, by kind and
 * text; a key that is not a scalar is left alone. */
struct keyref {
	const struct ynode *k;
	size_t at;
};

static int keyref_cmp(const void *a, const void *b)
{
	const struct keyref *x = a, *y = b;

	if (x->k->len != y->k->len)
		return x->k->len < y->k->len ? -1 : 1;
	if (x->k->len) {
		int c = memcmp(x->k->text, y->k->text, x->k->len);

		if (c)
			return c;
	}
	return x->at < y->at ? -1 : x->at > y->at;
}

static void dup_keys(struct cload *c, const struct ynode *n)
{
	struct keyref *v;
	size_t i, k = 0, first, step;

	if (!n || n->kind == YNODE_SCALAR)
		return;
	/* a mapping's values (its keys are scalars), a sequence's items */
	step = n->kind == YNODE_MAP ? 2 : 1;
	for (i = step - 1; i < n->n; i += step)
		dup_keys(c, n->items[i]);
	if (n->kind != YNODE_MAP || n->n < 4)
		return;
	v = xcalloc(n->n / 2, sizeof(*v));
	for (i = 0; i + 1 < n->n; i += 2)
		if (n->items[i]->kind == YNODE_SCALAR) {
			v[k].k = n->items[i];
			v[k].at = i;
			k++;
		}
	qsort(v, k, sizeof(*v), keyref_cmp);
	/* sorted by text, then by place: a run of equal keys starts with the
	 * first written */
	for (i = 1, first = 0; i < k; i++) {
		char *q;

		if (v[i].k->len != v[first].k->len ||
		    memcmp(v[i].k->text, v[first].k->text, v[i].k->len)) {
			first = i;
			continue;
		}
		if (c->cs->nproblems >= MAX_PROBLEMS) {
			c->cs->problems_more++;
			continue;
		}
		q = quote(v[i].k->text, v[i].k->len);
		problem_add(c, COMPOSE_INVALID, NULL, origin_at(c, v[i].k),
			    "mapping key '%s' already defined at line %u", q,
			    v[first].k->line);
		free(q);
	}
	free(v);
}

/* ---- services, merged across files --------------------------------- */

static void envfiles_clear(struct csvc *s)
{
	while (s->nenvfiles) {
		struct cenvfile *e = &s->envfiles[--s->nenvfiles];

		free(e->rel);
		free(e->shown);
	}
}

static void svc_clear(struct csvc *s)
{
	size_t i;

	for (i = 0; i < s->nprofiles; i++)
		free(s->profiles[i]);
	for (i = 0; i < s->ndeps; i++)
		free(s->deps[i].name);
	envfiles_clear(s);
	s->nports = s->nprofiles = s->ndeps = 0;
	strmap_release(&s->profile_set);
	strmap_release(&s->dep_index);
}

static void svc_release(struct csvc *s)
{
	svc_clear(s);
	free(s->name);
	free(s->ports);
	free(s->profiles);
	free(s->deps);
	free(s->envfiles);
}

/* Every lookup by name goes through an index: a compose file of
 * thousands of services, profiles or dependencies must not turn the load
 * quadratic (fuzz_compose's cost pass; a 724 KB file took 42 s). */
static struct csvc *svc_find(struct cload *c, const char *name)
{
	size_t i = strmap_get(&c->svc_index, name, strlen(name));

	return i == STRMAP_NONE ? NULL : &c->svcs[i];
}

static struct csvc *svc_get(struct cload *c, const char *name)
{
	struct csvc *s = svc_find(c, name);

	if (s || c->nsvcs >= MAX_SERVICES)
		return s;
	grow(&c->svcs, sizeof(*c->svcs), &c->svcs_cap, c->nsvcs + 1);
	s = &c->svcs[c->nsvcs];
	memset(s, 0, sizeof(*s));
	s->name = xstrdup(name);
	strmap_put(&c->svc_index, s->name, strlen(s->name), c->nsvcs++);
	return s;
}

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

/* What a later file's value does to the merged one (loader/reset.go):
 * 1 drop it and read nothing (!reset), 0 replace it (!override, or the
 * caller's rule), -1 merge (the default). */
static int reset_rule(const struct ynode *v)
{
	return tagged(v, "!reset") ? 1 : tagged(v, "!override") ? 0 : -1;
}

/* ---- ports -------------------------------------------------------- */

static enum port_proto proto_of(const char *s)
{
	return !strcmp(s, "udp") ? PORT_UDP : !strcmp(s, "sctp") ? PORT_SCTP :
	       PORT_TCP;
}

/* Add a host port entry; an entry a later file repeats is one (compose
 * drops duplicates: override/uncity.go portIndexer). */
static void port_push(struct csvc *s, const struct cport *p)
{
	size_t i;

	if (!p->lo)
		return;	/* "3000": a container port only */
	/* past MAX_HOST_PORTS entries finish() stops with its note anyway:
	 * holding no more keeps this scan for repeats linear in the file */
	if (s->nports > MAX_HOST_PORTS)
		return;
	for (i = 0; i < s->nports; i++)
		if (s->ports[i].lo == p->lo && s->ports[i].hi == p->hi &&
		    s->ports[i].proto == p->proto &&
		    s->ports[i].pick_one == p->pick_one)
			return;
	grow(&s->ports, sizeof(*s->ports), &s->ports_cap, s->nports + 1);
	s->ports[s->nports++] = *p;
}

/* "5433:5432", "127.0.0.1:8080:80/tcp", 3000 */
static void short_entry(struct cload *c, struct csvc *s, const struct ynode *n,
			const char *where)
{
	struct portspec ps;
	struct cport p;
	char msg[256], *text;
	int used, rc;

	if (scalar_text(c, n, &text, &used) < 0)
		return;	/* its variable is reported already */
	rc = portspec_parse(text, &ps, msg, sizeof(msg));
	text_free(text, used);
	if (rc < 0) {
		char *raw;

		if (!used) {
			problem_add(c, COMPOSE_BAD_PORT, s->name, origin_at(c, n),
				    "'%s': %s", where, msg);
			return;
		}
		raw = quote(n->text, n->len);
		problem_add(c, COMPOSE_BAD_PORT, s->name, origin_at(c, n),
			    "'%s': '%s' is not a valid port entry once its "
			    "variables are substituted", where, raw);
		free(raw);
		return;
	}
	memset(&p, 0, sizeof(p));
	p.lo = ps.host_lo;
	p.hi = ps.host_hi;
	p.pick_one = ps.pick_one;
	p.proto = proto_of(ps.proto);
	p.origin = origin_at(c, n);
	port_push(s, &p);
}

/* A port or range value of the long syntax into *lo, *hi (0 when empty).
 * -1 when it is not one (a problem is recorded). */
static int long_range(struct cload *c, struct csvc *s, const struct ynode *v,
		      const char *where, unsigned *lo, unsigned *hi)
{
	char *text, *raw;
	int used;

	*lo = *hi = 0;
	if (ynode_is_null(v))
		return 0;
	if (v->kind != YNODE_SCALAR) {
		invalid(c, v, where, "a port number or range");
		return -1;
	}
	if (scalar_text(c, v, &text, &used) < 0)
		return -1;
	if (!*text || portspec_range(text, lo, hi) == 0) {
		text_free(text, used);
		return 0;
	}
	text_free(text, used);
	raw = quote(v->text, v->len);
	problem_add(c, COMPOSE_BAD_PORT, s->name, origin_at(c, v),
		    "'%s': '%s' is not a port number or range (1-65535)%s", where,
		    raw, used ? " once its variables are substituted" : "");
	free(raw);
	return -1;
}

/* {target: 5432, published: "5433", protocol: tcp, host_ip: ...} */
static void long_entry(struct cload *c, struct csvc *s, const struct ynode *n,
		       const char *where)
{
	const struct ynode *pub = ynode_get(n, "published");
	const struct ynode *target = ynode_get(n, "target");
	const struct ynode *proto = ynode_get(n, "protocol");
	struct cport p;
	unsigned tlo, thi;
	struct buf w = BUF_INIT;

	memset(&p, 0, sizeof(p));
	buf_printf(&w, "%s.published", where);
	if (long_range(c, s, pub, w.s, &p.lo, &p.hi) < 0)
		goto out;
	buf_release(&w);
	buf_printf(&w, "%s.target", where);
	if (long_range(c, s, target, w.s, &tlo, &thi) < 0)
		goto out;
	p.pick_one = p.hi > p.lo && tlo && tlo == thi;
	if (proto && !ynode_is_null(proto)) {
		char *text;
		int used;

		buf_release(&w);
		buf_printf(&w, "%s.protocol", where);
		if (proto->kind != YNODE_SCALAR) {
			invalid(c, proto, w.s, "tcp, udp or sctp");
			goto out;
		}
		if (scalar_text(c, proto, &text, &used) < 0)
			goto out;
		p.proto = proto_of(text);
		if (p.proto == PORT_TCP && strcmp(text, "tcp")) {
			char *raw = quote(proto->text, proto->len);

			problem_add(c, COMPOSE_BAD_PORT, s->name,
				    origin_at(c, proto), "'%s': unknown protocol "
				    "'%s' (tcp, udp or sctp)", w.s, raw);
			free(raw);
			text_free(text, used);
			goto out;
		}
		text_free(text, used);
	}
	p.origin = origin_at(c, pub ? pub : n);
	port_push(s, &p);
out:
	buf_release(&w);
}

static void load_ports(struct cload *c, struct csvc *s, const struct ynode *ports,
		       const char *where)
{
	size_t i;

	if (ports->kind != YNODE_SEQ) {
		invalid(c, ports, where, "a list");
		return;
	}
	for (i = 0; i < ports->n; i++) {
		const struct ynode *e = ports->items[i];

		if (e->kind == YNODE_SCALAR && !ynode_is_null(e))
			short_entry(c, s, e, where);
		else if (e->kind == YNODE_MAP)
			long_entry(c, s, e, where);
		else
			invalid(c, e, where, "port strings or mappings");
	}
}

/* ---- profiles and depends_on --------------------------------------- */

static void load_profiles(struct cload *c, struct csvc *s, const struct ynode *v,
			  const char *where)
{
	size_t i;

	if (v->kind != YNODE_SEQ) {
		invalid(c, v, where, "a list of profile names");
		return;
	}
	for (i = 0; i < v->n; i++) {
		const struct ynode *e = v->items[i];
		char *text;
		int used;

		if (e->kind != YNODE_SCALAR || ynode_is_null(e)) {
			invalid(c, e, where, "profile names");
			continue;
		}
		if (scalar_text(c, e, &text, &used) < 0)
			continue;
		/* profiles merge as a set (override/uncity.go) */
		if (strmap_get(&s->profile_set, text, strlen(text)) != STRMAP_NONE) {
			text_free(text, used);
			continue;
		}
		grow(&s->profiles, sizeof(*s->profiles), &s->profiles_cap,
		     s->nprofiles + 1);
		strmap_put(&s->profile_set, text, strlen(text), s->nprofiles);
		s->profiles[s->nprofiles++] = text;
	}
}

/* "required: false" (a boolean, or after substitution a string strconv
 * reads as false); anything else keeps the default, required. */
static int dep_required(struct cload *c, const struct ynode *dep)
{
	const struct ynode *r = ynode_get(dep, "required");
	static const char *const no[] = { "false", "False", "FALSE", "0", "f", "F" };
	char *text;
	int used, req = 1;
	size_t i;

	if (!r || r->kind != YNODE_SCALAR || scalar_text(c, r, &text, &used) < 0)
		return 1;
	for (i = 0; i < ARRAY_SIZE(no); i++)
		if (!strcmp(text, no[i]))
			req = 0;
	text_free(text, used);
	return req;
}

static void dep_push(struct csvc *s, const struct ynode *key, int required,
		     struct origin o)
{
	size_t i = strmap_get(&s->dep_index, key->text, strlen(key->text));

	/* a later file's entry for the same service wins (merge per key) */
	if (i != STRMAP_NONE) {
		s->deps[i].required = required;
		s->deps[i].origin = o;
		return;
	}
	grow(&s->deps, sizeof(*s->deps), &s->deps_cap, s->ndeps + 1);
	s->deps[s->ndeps].name = xstrdup(key->text);
	strmap_put(&s->dep_index, s->deps[s->ndeps].name, strlen(key->text), s->ndeps);
	s->deps[s->ndeps].required = required;
	s->deps[s->ndeps].origin = o;
	s->ndeps++;
}

/* depends_on: [db] or {db: {condition: ..., required: false}} */
static void load_deps(struct cload *c, struct csvc *s, const struct ynode *v,
		      const char *where)
{
	size_t i;

	if (v->kind == YNODE_SEQ) {
		for (i = 0; i < v->n; i++) {
			const struct ynode *e = v->items[i];

			if (e->kind != YNODE_SCALAR || ynode_is_null(e))
				invalid(c, e, where, "service names");
			else
				dep_push(s, e, 1, origin_at(c, e));
		}
		return;
	}
	if (v->kind != YNODE_MAP) {
		invalid(c, v, where, "a list or a mapping");
		return;
	}
	for (i = 0; i + 1 < v->n; i += 2) {
		const struct ynode *k = v->items[i], *d = v->items[i + 1];

		if (k->kind != YNODE_SCALAR)
			invalid(c, k, where, "service names as keys");
		else
			dep_push(s, k, d->kind == YNODE_MAP ? dep_required(c, d) : 1,
				 origin_at(c, k));
	}
}

/* One env_file entry: "path" or {path, required, format}; relative to
 * the project directory of the file that names it (loader/paths.go).
 * One outside the repository is not looked at. */
static void envfile_push(struct cload *c, struct csvc *s, const struct ynode *e,
			 const char *where)
{
	const struct ynode *p = e->kind == YNODE_MAP ? ynode_get(e, "path") : e;
	struct cenvfile *f;
	char *text, *rel;
	int used, required = 1;

	if (!p || p->kind != YNODE_SCALAR || ynode_is_null(p)) {
		invalid(c, e, where, "paths or {path, required}");
		return;
	}
	if (e->kind == YNODE_MAP)
		required = dep_required(c, e);
	if (scalar_text(c, p, &text, &used) < 0)
		return;
	rel = rel_path(c->y.spec->root, c->pdir, text);
	if (!rel) {
		char *q = quote(p->text, p->len);

		note_add(c->cs, "%s:%u: env_file '%s' of service %s is outside the "
			 "repository: not checked", c->y.file, p->line, q, s->name);
		free(q);
		text_free(text, used);
		return;
	}
	grow(&s->envfiles, sizeof(*s->envfiles), &s->envfiles_cap,
	     s->nenvfiles + 1);
	f = &s->envfiles[s->nenvfiles++];
	f->rel = rel;
	f->shown = used ? quote(p->text, p->len) : quote(text, strlen(text));
	f->required = required;
	f->origin = origin_at(c, p);
	text_free(text, used);
}

static void load_envfiles(struct cload *c, struct csvc *s, const struct ynode *v,
			  const char *where)
{
	size_t i;

	if (v->kind != YNODE_SEQ) {
		envfile_push(c, s, v, where);
		return;
	}
	for (i = 0; i < v->n; i++)
		envfile_push(c, s, v->items[i], where);
}

/* One attribute of a service from a later file: !reset drops what earlier
 * files said, !override replaces it, anything else merges. */
static void load_attr(struct cload *c, struct csvc *s, const struct ynode *svc,
		      const char *key, const char *name)
{
	const struct ynode *v = get_merged(svc, key, 0);
	struct buf where = BUF_INIT;
	int rule = reset_rule(v);

	if (!v)
		return;
	if (rule >= 0) {
		if (!strcmp(key, "ports"))
			s->nports = 0;
		else if (!strcmp(key, "profiles")) {
			while (s->nprofiles)
				free(s->profiles[--s->nprofiles]);
			strmap_release(&s->profile_set);
		} else if (!strcmp(key, "env_file")) {
			envfiles_clear(s);
		} else {
			while (s->ndeps)
				free(s->deps[--s->ndeps].name);
			strmap_release(&s->dep_index);
		}
	}
	if (rule == 1 || ynode_is_null(v))
		return;
	buf_printf(&where, "services.%s.%s", name, key);
	if (!strcmp(key, "ports"))
		load_ports(c, s, v, where.s);
	else if (!strcmp(key, "profiles"))
		load_profiles(c, s, v, where.s);
	else if (!strcmp(key, "env_file"))
		load_envfiles(c, s, v, where.s);
	else
		load_deps(c, s, v, where.s);
	buf_release(&where);
}

static void load_service(struct cload *c, const struct ynode *key,
			 const struct ynode *svc)
{
	char *name = text_clean(key->text);
	struct csvc *s;
	struct buf where = BUF_INIT;

	if (tagged(svc, "!reset")) {
		if ((s = svc_find(c, key->text))) {
			svc_clear(s);
			s->defined = 0;
		}
		goto out;
	}
	s = svc_get(c, key->text);
	if (!s) {
		note_add(c->cs, "more than %d services: the rest are not read",
			 MAX_SERVICES);
		goto out;
	}
	if (tagged(svc, "!override"))
		svc_clear(s);
	if (!s->defined) {
		s->defined = 1;
		s->origin = origin_at(c, key);
	}
	if (ynode_is_null(svc))
		goto out;
	buf_printf(&where, "services.%s", name);
	if (svc->kind != YNODE_MAP) {
		invalid(c, svc, where.s, "a mapping");
		goto out;
	}
	load_attr(c, s, svc, "profiles", name);
	load_attr(c, s, svc, "ports", name);
	load_attr(c, s, svc, "depends_on", name);
	load_attr(c, s, svc, "env_file", name);
out:
	buf_release(&where);
	free(name);
}

static int load_file(struct cload *c, const char *name, const struct cenv *env,
		     const char *pdir);

/* ---- include ------------------------------------------------------- */

/* The scalar text of an include value, substituted; NULL (a problem is
 * recorded or a variable was) when it is not a string.  *shown is the
 * text to name it by: the substituted text when no variable was used,
 * else the text as written. */
static char *include_text(struct cload *c, const struct ynode *v,
			  const char *where, char **shown)
{
	char *text;
	int used;

	*shown = NULL;
	if (v->kind != YNODE_SCALAR || ynode_is_null(v)) {
		invalid(c, v, where, "a path");
		return NULL;
	}
	if (scalar_text(c, v, &text, &used) < 0)
		return NULL;
	*shown = quote(used ? v->text : text, used ? v->len : strlen(text));
	return text;
}

/* The include's env_file entries (relative to the including project) or
 * its project directory's .env, pushed onto env; -1 when compose would
 * stop on one. */
static int include_env(struct cload *c, const struct ynode *ef,
		       const char *ipdir, struct cenv *env)
{
	const struct dotenv *found[16];
	size_t nfound = 0, i;

	if (ynode_is_null(ef)) {
		char *dflt = rel_path(c->y.spec->root, ipdir, ".env");

		if (dflt && rel_stat(c->y.spec, dflt) == 0 &&
		    (found[0] = dotenv_for(c, dflt)))
			nfound = 1;
		free(dflt);
	} else {
		size_t n = ef->kind == YNODE_SEQ ? ef->n : 1;

		for (i = 0; i < n && nfound < ARRAY_SIZE(found); i++) {
			const struct ynode *e = ef->kind == YNODE_SEQ ? ef->items[i] : ef;
			char *shown, *text = include_text(c, e, "include.env_file", &shown);
			char *rel = NULL;
			int rc = -1;

			if (!text)
				return -1;
			if (!strcmp(text, "/dev/null"))
				rc = 0;
			else if (!(rel = rel_path(c->y.spec->root, c->pdir, text)))
				problem_add(c, COMPOSE_OUTSIDE, shown, origin_at(c, e),
					    "include env_file '%s' leaves the "
					    "repository: refused, not read", shown);
			else if (rel_stat(c->y.spec, rel) != 0)
				problem_add(c, COMPOSE_FILE_MISSING, shown,
					    origin_at(c, e), "include env_file '%s' "
					    "is not a file", shown);
			else if (!(found[nfound] = dotenv_for(c, rel)))
				problem_add(c, COMPOSE_FILE_MISSING, shown,
					    origin_at(c, e), "include env_file '%s' "
					    "cannot be read", shown);
			else
				nfound++, rc = 0;
			text_free(text, 1);
			free(shown);
			free(rel);
			if (rc < 0)
				return -1;
		}
	}
	/* a later env_file wins over an earlier one (dotenv.GetEnvFromFile
	 * fills one map in order); all lose to the including project's */
	while (nfound)
		env_push(env, found[--nfound]);
	return 0;
}

/* An include path, resolved against the including project directory;
 * NULL (a problem or a note recorded) when it is not to be read. */
static char *include_path(struct cload *c, const struct ynode *v)
{
	char *shown, *text = include_text(c, v, "include.path", &shown);
	char *rel = NULL;
	size_t i;

	if (!text)
		return NULL;
	if (is_remote(text)) {
		note_add(c->cs, "%s:%u: include of a remote project (%s) is not read",
			 c->y.file, v->line, shown);
	} else if (!(rel = rel_path(c->y.spec->root, c->pdir, text))) {
		problem_add(c, COMPOSE_OUTSIDE, shown, origin_at(c, v),
			    "include '%s' leaves the repository: refused, not read",
			    shown);
	} else if (rel_stat(c->y.spec, rel) != 0) {
		problem_add(c, COMPOSE_FILE_MISSING, shown, origin_at(c, v),
			    "include '%s': no such file", shown);
		free(rel);
		rel = NULL;
	} else {
		for (i = 0; i < c->depth; i++)
			if (!strcmp(c->chain[i], rel))
				break;
		if (i < c->depth) {
			struct buf b = BUF_INIT;

			for (; i < c->depth; i++)
				buf_printf(&b, "%s includes ", c->chain[i]);
			buf_puts(&b, rel);
			problem_add(c, COMPOSE_INCLUDE_CYCLE, rel, origin_at(c, v),
				    "include cycle: %s", buf_str(&b));
			buf_release(&b);
			free(rel);
			rel = NULL;
		}
	}
	text_free(text, 1);
	free(shown);
	return rel;
}

/* One entry of include: "path" or {path, project_directory, env_file}.
 * -1 only when a file it names cannot be parsed (exit 2). */
static int load_include(struct cload *c, const struct ynode *e)
{
	const struct ynode *path = e, *pd = NULL, *ef = NULL;
	char **rels = NULL, *ipdir = NULL;
	struct cenv *env;
	size_t n = 1, i, nrels = 0;
	int rc = 0;

	if (e->kind == YNODE_MAP) {
		path = ynode_get(e, "path");
		pd = ynode_get(e, "project_directory");
		ef = ynode_get(e, "env_file");
		if (ynode_is_null(path)) {
			invalid(c, e, "include", "a path");
			return 0;
		}
		if (path->kind == YNODE_SEQ)
			n = path->n;
	} else if (e->kind != YNODE_SCALAR) {
		invalid(c, e, "include", "paths or mappings");
		return 0;
	}
	if (!n)
		return 0;
	rels = xcalloc(n, sizeof(*rels));
	for (i = 0; i < n; i++) {
		rels[i] = include_path(c, path->kind == YNODE_SEQ ? path->items[i] : path);
		if (!rels[i])
			goto out;	/* compose stops on it */
		nrels++;
	}
	/* the project directory: project_directory, relative to the
	 * including one, else the first file's directory */
	if (!ynode_is_null(pd)) {
		char *shown, *text = include_text(c, pd, "include.project_directory",
						  &shown);

		if (text && !(ipdir = rel_path(c->y.spec->root, c->pdir, text)))
			problem_add(c, COMPOSE_OUTSIDE, shown, origin_at(c, pd),
				    "include project_directory '%s' leaves the "
				    "repository: refused", shown);
		if (text)
			text_free(text, 1);
		free(shown);
		if (!ipdir)
			goto out;
	} else {
		ipdir = rel_dir(rels[0]);
	}
	env = xcalloc(1, sizeof(*env));
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): an array of pointers */
	grow(&c->envs, sizeof(*c->envs), &c->envs_cap, c->nenvs + 1);
	c->envs[c->nenvs++] = env;
	for (i = 0; i < c->env->n; i++)
		env_push(env, c->env->docs[i]);
	if (include_env(c, ef, ipdir, env) < 0)
		goto out;
	for (i = 0; i < nrels && rc == 0; i++)
		rc = load_file(c, rels[i], env, ipdir);
out:
	for (i = 0; i < nrels; i++)
		free(rels[i]);
	free(rels);
	free(ipdir);
	return rc;
}

static int load_includes(struct cload *c, const struct ynode *inc)
{
	size_t i;

	if (ynode_is_null(inc) || tagged(inc, "!reset"))
		return 0;
	if (inc->kind != YNODE_SEQ) {
		invalid(c, inc, "include", "a list");
		return 0;
	}
	if (c->depth > MAX_INCLUDE_DEPTH) {
		problem_add(c, COMPOSE_INVALID, NULL, origin_at(c, inc),
			    "includes nested more than %d deep", MAX_INCLUDE_DEPTH);
		return 0;
	}
	for (i = 0; i < inc->n; i++)
		if (load_include(c, inc->items[i]) < 0)
			return -1;
	return 0;
}

/* ---- one file ------------------------------------------------------ */

static int load_doc(struct cload *c, const struct ynode *root)
{
	const struct ynode *services;
	size_t i;

	if (!root)
		return 0;	/* an empty file starts nothing */
	if (root->kind != YNODE_MAP) {
		invalid(c, root, "the document", "a mapping");
		return 0;
	}
	scan_vars(c, root);
	/* includes first, so that this file's services merge over theirs
	 * (loader.go loadYamlFile: ApplyInclude, then override.Merge) */
	if (load_includes(c, ynode_get(root, "include")) < 0)
		return -1;
	services = ynode_get(root, "services");
	if (ynode_is_null(services) || tagged(services, "!reset"))
		return 0;
	if (services->kind != YNODE_MAP) {
		invalid(c, services, "services", "a mapping");
		return 0;
	}
	for (i = 0; i + 1 < services->n; i += 2) {
		const struct ynode *k = services->items[i];

		if (k->kind != YNODE_SCALAR) {
			invalid(c, k, "services", "service names as keys");
			continue;
		}
		if (!strcmp(k->text, "<<"))
			continue;	/* not a service */
		load_service(c, k, services->items[i + 1]);
	}
	return 0;
}

/* Read and load one compose file (repository-relative name, known to
 * exist) with its variables and project directory.  -1 (err filled) only
 * when it cannot be read or parsed: exit 2. */
static int load_file(struct cload *c, const char *name, const struct cenv *env,
		     const char *pdir)
{
	struct compose_spec *cs = c->cs;
	const char *saved_file = c->y.file, *saved_pdir = c->pdir;
	const struct cenv *saved_env = c->env;
	struct ynode **docs;
	size_t ndocs, i;
	int rc;

	if (cs->nfiles >= MAX_FILES) {
		note_add(cs, "more than %d compose files: %s and later ones are "
			 "not read", MAX_FILES, name);
		return 0;
	}
	rc = yload_read_docs(&c->y, name, &docs, &ndocs);
	if (rc <= 0)
		return rc;
	grow(&cs->files, sizeof(*cs->files), &cs->files_cap, cs->nfiles + 1);
	cs->files[cs->nfiles++] = c->y.file;
	c->env = env;
	c->pdir = pdir;
	c->chain = xrealloc(c->chain, (c->depth + 1) * sizeof(*c->chain));
	c->chain[c->depth++] = c->y.file;
	/* each document over the ones before, as one more file would be
	 * (loader.go loadYamlFile: one Decode per document, each merged
	 * into the model) */
	for (i = 0, rc = 0; i < ndocs; i++) {
		dup_keys(c, docs[i]);
		if (rc == 0)
			rc = load_doc(c, docs[i]);
		ynode_free(docs[i]);
	}
	free(docs);
	c->depth--;
	c->y.file = saved_file;
	c->env = saved_env;
	c->pdir = saved_pdir;
	return rc;
}

/* ---- which files, which profiles ----------------------------------- */

/* strconv.ParseBool's true, for COMPOSE_DISABLE_ENV_FILE */
static int env_true(const char *v)
{
	static const char *const yes[] = { "1", "t", "T", "TRUE", "true", "True" };
	size_t i;

	for (i = 0; v && i < ARRAY_SIZE(yes); i++)
		if (!strcmp(v, yes[i]))
			return 1;
	return 0;
}

/* A variable of the first ndocs .env files of the project (the root's,
 * then the one beside the first compose file), not of our environment;
 * *o gets its line.  COMPOSE_FILE and COMPOSE_PATH_SEPARATOR are read
 * from the root's only: WithConfigFileEnv runs before compose reads the
 * other. */
static const char *dot_var(struct cload *c, const char *key, size_t ndocs,
			   struct origin *o)
{
	size_t i;

	memset(o, 0, sizeof(*o));
	for (i = 0; i < c->top.n && i < ndocs; i++) {
		const struct dotenv_entry *d = dotenv_get(c->top.docs[i], key);

		if (d) {
			o->file = c->top_names[i];
			o->line = d->line;
			o->col = d->col;
			return d->value;
		}
	}
	return NULL;
}

/* Take one compose file name chosen by the user or the repository: it
 * must be a file inside the repository.  show: the name may be printed
 * (it did not come from a .env value). */
static void take_file(struct cload *c, const char *entry, struct origin o,
		      int show, const char *what, size_t k, size_t n, char ***out,
		      size_t *nout)
{
	char *rel, *shown = show ? text_clean(entry) : NULL;
	struct buf b = BUF_INIT;

	/* "COMPOSE_FILE names 'x.yml'" or, for a .env value, "COMPOSE_FILE
	 * in .env: entry 2 of 2 names" */
	if (show)
		buf_printf(&b, "%s names '%s'", what, shown);
	else
		buf_printf(&b, "%s: entry %zu of %zu names", what, k + 1, n);
	if (!*entry) {
		problem_add(c, COMPOSE_FILE_MISSING, NULL, o, "%s: entry %zu of %zu "
			    "is empty: docker compose cannot read it", what, k + 1, n);
	} else if (is_remote(entry) || !strcmp(entry, "-")) {
		note_add(c->cs, "%s a remote file or stdin: not read", buf_str(&b));
	} else if (!(rel = rel_path(c->y.spec->root, spec_base(c->y.spec),
				    entry))) {
		problem_add(c, COMPOSE_OUTSIDE, shown, o, "%s a file outside the "
			    "repository: refused, not read%s", buf_str(&b),
			    show ? "" : " (not shown: a .env value)");
	} else if (rel_stat(c->y.spec, rel) != 0) {
		problem_add(c, COMPOSE_FILE_MISSING, shown, o, "%s no file%s",
			    buf_str(&b), show ? "" : " (not shown: a .env value)");
		free(rel);
	} else {
		*out = xrealloc(*out, (*nout + 1) * sizeof(**out));
		(*out)[(*nout)++] = rel;
	}
	free(shown);
	buf_release(&b);
}

/* Split a COMPOSE_FILE value on the separator (strings.Split: empty
 * entries are kept, and compose fails on them). */
static void take_list(struct cload *c, const char *value, const char *sep,
		      struct origin o, int show, const char *what, char ***out,
		      size_t *nout)
{
	size_t n = 1, k = 0, seplen = strlen(sep);
	const char *p;

	for (p = value; (p = strstr(p, sep)); p += seplen)
		n++;
	for (p = value;; k++) {
		const char *end = strstr(p, sep);
		char *entry = xstrndup(p, end ? (size_t)(end - p) : strlen(p));

		take_file(c, entry, o, show, what, k, n, out, nout);
		free(entry);
		if (!end || k > MAX_FILES)
			break;
		p = end + seplen;
	}
}

/* The files `docker compose up` starts from, in *out (new strings). */
static void top_files(struct cload *c, char ***out, size_t *nout)
{
	struct compose_spec *cs = c->cs;
	struct origin none = { NULL, 0, 0 }, dot, sepo;
	const char *env = getenv("COMPOSE_FILE");
	const char *fromdot = dot_var(c, "COMPOSE_FILE", 1, &dot);
	const char *sep = getenv("COMPOSE_PATH_SEPARATOR");
	const char *name;
	size_t i;

	if (!sep)
		sep = dot_var(c, "COMPOSE_PATH_SEPARATOR", 1, &sepo);
	if (!sep || !*sep)
		sep = ":";	/* os.PathListSeparator */
	if (env) {
		cs->files_from = COMPOSE_FROM_ENV;
		take_list(c, env, sep, none, 1, "COMPOSE_FILE", out, nout);
	} else if (cs->pf_has_files) {
		cs->files_from = COMPOSE_FROM_PREFLIGHT;
		cs->files_origin = cs->pf_files[0].origin;
		for (i = 0; i < cs->npf_files; i++)
			take_file(c, cs->pf_files[i].name, cs->pf_files[i].origin, 1,
				  "compose.files", i, cs->npf_files, out, nout);
	} else if (fromdot) {
		cs->files_from = COMPOSE_FROM_DOTENV;
		cs->files_origin = dot;
		take_list(c, fromdot, sep, dot, 0, "COMPOSE_FILE in .env", out, nout);
	} else {
		cs->files_from = COMPOSE_FROM_DEFAULT;
		if ((name = spec_first_existing(c->y.spec, files))) {
			*out = xcalloc(2, sizeof(**out));
			(*out)[(*nout)++] = spec_rel(c->y.spec, name);
			if ((name = spec_first_existing(c->y.spec, overrides)))
				(*out)[(*nout)++] = spec_rel(c->y.spec, name);
		}
	}
	if (fromdot && cs->files_from != COMPOSE_FROM_DOTENV)
		note_add(cs, "COMPOSE_FILE in %s:%u is not used: %s wins", dot.file,
			 dot.line, compose_from_label(cs->files_from, 0));
	if (env && cs->pf_has_files)
		note_add(cs, "preflight.yaml compose.files (line %u) is not used: "
			 "COMPOSE_FILE in the environment wins",
			 cs->pf_files[0].origin.line);
}

/* Every profile some service names (keys borrowed from the services,
 * which do not change while the active profiles are read). */
static void profiles_named(const struct cload *c, struct strmap *named)
{
	size_t i, j;

	for (i = 0; i < c->nsvcs; i++)
		for (j = 0; j < c->svcs[i].nprofiles; j++)
			strmap_put(named, c->svcs[i].profiles[j],
				   strlen(c->svcs[i].profiles[j]), 1);
}

/* Add one active profile (trimmed, once).  A profile that came from a
 * .env value is kept in the model only when it is repository text too (a
 * service names it, in named, or "*"): a .env value is never shown. */
static void profile_add(struct cload *c, const char *p, size_t n,
			struct strmap *named)
{
	struct compose_spec *cs = c->cs;
	char *name;
	int known;

	while (n && strchr(" \t\r\n\v\f", *p))
		p++, n--;
	while (n && strchr(" \t\r\n\v\f", p[n - 1]))
		n--;
	if (!n)
		return;
	name = xstrndup(p, n);
	known = strmap_get(&c->active, name, n) != STRMAP_NONE;
	if (known || (named && strcmp(name, "*") &&
		      strmap_get(named, name, n) == STRMAP_NONE)) {
		if (!known)
			cs->profiles_unnamed++;
		free(name);
		return;
	}
	grow(&cs->profiles, sizeof(*cs->profiles), &cs->profiles_cap,
	     cs->nprofiles + 1);
	strmap_put(&c->active, name, n, cs->nprofiles);
	c->active_all |= !strcmp(name, "*");
	cs->profiles[cs->nprofiles++] = name;
}

/* COMPOSE_PROFILES (comma-separated, cli/options.go
 * WithDefaultProfiles), read once every .env of the project is known. */
static void top_profiles(struct cload *c)
{
	struct compose_spec *cs = c->cs;
	const char *env = getenv("COMPOSE_PROFILES"), *v = env;
	struct origin dot;
	const char *fromdot = dot_var(c, "COMPOSE_PROFILES", 2, &dot);
	struct strmap named = STRMAP_INIT;
	size_t i;

	if (env) {
		cs->profiles_from = COMPOSE_FROM_ENV;
	} else if (cs->pf_has_profiles) {
		cs->profiles_from = COMPOSE_FROM_PREFLIGHT;
		cs->profiles_origin = cs->pf_profiles_at;
		for (i = 0; i < cs->npf_profiles; i++)
			profile_add(c, cs->pf_profiles[i].name,
				    strlen(cs->pf_profiles[i].name), NULL);
	} else if (fromdot) {
		cs->profiles_from = COMPOSE_FROM_DOTENV;
		cs->profiles_origin = dot;
		v = fromdot;
	} else {
		cs->profiles_from = COMPOSE_FROM_DEFAULT;
	}
	if (cs->profiles_from == COMPOSE_FROM_DOTENV)
		profiles_named(c, &named);
	/* WithDefaultProfiles splits COMPOSE_PROFILES, set or not, at
	 * commas and trims each: unset, empty, or ",," activates the
	 * profile "" (a service with profiles: ["", x] starts) */
	if (cs->profiles_from == COMPOSE_FROM_DEFAULT)
		c->active_empty = 1;
	while (v) {
		const char *comma = strchr(v, ',');
		size_t n = comma ? (size_t)(comma - v) : strlen(v), k;

		for (k = 0; k < n && strchr(" \t\r\n\v\f", v[k]); k++)
			;
		if (k == n)
			c->active_empty = 1;
		profile_add(c, v, comma ? (size_t)(comma - v) : strlen(v),
			    cs->profiles_from == COMPOSE_FROM_DOTENV ? &named : NULL);
		v = comma ? comma + 1 : NULL;
	}
	strmap_release(&named);
	if (fromdot && cs->profiles_from != COMPOSE_FROM_DOTENV)
		note_add(cs, "COMPOSE_PROFILES in %s:%u is not used: %s wins",
			 dot.file, dot.line,
			 compose_from_label(cs->profiles_from, 1));
}

/* ---- what `docker compose up` starts ------------------------------- */

/* Asked once the active profiles are known (top_profiles). */
static int svc_enabled(struct cload *c, const struct csvc *s)
{
	size_t j;

	if (!s->nprofiles || c->active_all)
		return 1;
	for (j = 0; j < s->nprofiles; j++)
		if ((!*s->profiles[j] && c->active_empty) ||
		    strmap_get(&c->active, s->profiles[j],
			       strlen(s->profiles[j])) != STRMAP_NONE)
			return 1;
	return 0;
}

static char *profiles_joined(const struct csvc *s)
{
	struct buf b = BUF_INIT;
	size_t i;

	for (i = 0; i < s->nprofiles; i++)
		buf_printf(&b, "%s%s", i ? ", " : "",
			   *s->profiles[i] ? s->profiles[i] : "\"\"");
	return b.s ? buf_detach(&b) : xstrdup("");
}

/* A started service's depends_on must name a started service, unless the
 * dependency is not required (loader/validate.go checkConsistency). */
static void check_deps(struct cload *c, const struct csvc *s)
{
	size_t i;

	for (i = 0; i < s->ndeps; i++) {
		const struct cdep *d = &s->deps[i];
		const struct csvc *t = svc_find(c, d->name);
		char *profiles;

		if (t && t->defined && svc_enabled(c, t))
			continue;
		if (!t || !t->defined) {
			problem_add(c, COMPOSE_BAD_DEPENDENCY, s->name, d->origin,
				    "service %s depends on undefined service %s",
				    s->name, d->name);
			continue;
		}
		if (!d->required)
			continue;
		profiles = profiles_joined(t);
		problem_add(c, COMPOSE_BAD_DEPENDENCY, s->name, d->origin,
			    "service %s depends on service %s, which only profile%s "
			    "%s start%s: docker compose up refuses (depends on "
			    "undefined service)", s->name, d->name,
			    t->nprofiles > 1 ? "s" : "", profiles,
			    t->nprofiles > 1 ? "" : "s");
		free(profiles);
	}
}

/* A started service's required env_file must exist; a file several
 * services name is one problem, reported with the first of them and a
 * count of the others.  One pass groups the files by path (an index, not
 * a scan of every service per file: 4,000 services of 20 missing files
 * each took 42 s), then each path is looked at once. */
struct envfile_use {
	const struct csvc *svc;		/* the first service naming it */
	const struct cenvfile *file;	/* as that service names it */
	const struct csvc *last;	/* the last service counted */
	size_t others;			/* other services naming it */
};

static void check_envfiles(struct cload *c)
{
	struct strmap index = STRMAP_INIT;
	struct envfile_use *uses = NULL;
	size_t nuses = 0, cap = 0, i, j;

	for (i = 0; i < c->nsvcs; i++) {
		const struct csvc *s = &c->svcs[i];

		if (!s->defined || !svc_enabled(c, s))
			continue;
		for (j = 0; j < s->nenvfiles; j++) {
			const struct cenvfile *f = &s->envfiles[j];
			size_t k;

			if (!f->required)
				continue;
			k = strmap_get(&index, f->rel, strlen(f->rel));
			if (k == STRMAP_NONE) {
				grow(&uses, sizeof(*uses), &cap, nuses + 1);
				uses[nuses].svc = uses[nuses].last = s;
				uses[nuses].file = f;
				uses[nuses].others = 0;
				strmap_put(&index, f->rel, strlen(f->rel), nuses++);
			} else if (k < nuses && uses[k].last != s) {
				uses[k].last = s;
				uses[k].others++;
			}
		}
	}
	for (i = 0; i < nuses; i++) {
		const struct cenvfile *f = uses[i].file;
		size_t others = uses[i].others;

		if (rel_stat(c->y.spec, f->rel) == 0)
			continue;
		if (others)
			problem_add(c, COMPOSE_ENV_FILE_MISSING, f->shown,
				    f->origin, "env_file '%s' of service %s "
				    "and %zu more service%s does not exist: "
				    "docker compose up stops (env file not "
				    "found)", f->shown, uses[i].svc->name, others,
				    others > 1 ? "s" : "");
		else
			problem_add(c, COMPOSE_ENV_FILE_MISSING, f->shown,
				    f->origin, "env_file '%s' of service %s "
				    "does not exist: docker compose up stops "
				    "(env file not found)", f->shown, uses[i].svc->name);
	}
	free(uses);
	strmap_release(&index);
}

/* The services' verdicts into the model: host ports of the started ones,
 * the skipped ones, dependencies on services left out. */

/* n more host ports of entry p of service s past the cap: counted in the
 * one mark that stands for them all (an index: spec->ports may move). */
static void capped_add(struct cload *c, const struct cport *p, const struct csvc *s,
		       unsigned n)
{
	if (c->capped_at == SIZE_MAX) {
		c->capped_at = c->y.spec->nports;
		spec_add_compose_mark(c->y.spec, p->origin, s->name);
	}
	c->y.spec->ports[c->capped_at].capped += n;
}

static void finish(struct cload *c)
{
	struct compose_spec *cs = c->cs;
	size_t i, j;

	for (i = 0; i < c->nsvcs; i++) {
		const struct csvc *s = &c->svcs[i];

		if (!s->defined)
			continue;
		if (!svc_enabled(c, s)) {
			struct compose_skip *k;

			grow(&cs->skipped, sizeof(*cs->skipped), &cs->skipped_cap,
			     cs->nskipped + 1);
			k = &cs->skipped[cs->nskipped++];
			k->service = xstrdup(s->name);
			k->profiles = profiles_joined(s);
			k->origin = s->origin;
			continue;
		}
		check_deps(c, s);
		/* past MAX_HOST_PORTS a service keeps no more entries
		 * (port_add): the count of the rest is then a floor */
		if (s->nports > MAX_HOST_PORTS)
			cs->capped_floor = 1;
		for (j = 0; j < s->nports; j++) {
			const struct cport *p = &s->ports[j];
			unsigned port, last = p->pick_one ? p->lo : p->hi;

			if (c->nhostports >= MAX_HOST_PORTS) {
				/* one skipped check names them: never "all
				 * ok" over ports nobody looked at */
				capped_add(c, p, s, last - p->lo + 1);
				continue;
			}
			for (port = p->lo; port <= last; port++) {
				struct port_req *r;

				if (++c->nhostports > MAX_HOST_PORTS) {
					capped_add(c, p, s, last - port + 1);
					break;
				}
				r = spec_add_port(c->y.spec, SRC_COMPOSE, port,
						  PORT_FREE, p->origin, s->name);
				r->proto = p->proto;
				if (p->pick_one)
					r->port_last = p->hi;
			}
		}
	}
	if (c->capped_at != SIZE_MAX)
		note_add(cs, "more than %d host ports in compose files: %s%u more "
			 "are not checked", MAX_HOST_PORTS, cs->capped_floor ?
			 "at least " : "", c->y.spec->ports[c->capped_at].capped);
}

static void cload_release(struct cload *c)
{
	size_t i;

	for (i = 0; i < c->nsvcs; i++)
		svc_release(&c->svcs[i]);
	free(c->svcs);
	strmap_release(&c->svc_index);
	strmap_release(&c->active);
	for (i = 0; i < c->nowned; i++) {
		dotenv_release(c->owned[i]);
		free(c->owned[i]);
	}
	free(c->owned);
	for (i = 0; i < c->nenvs; i++) {
		free(c->envs[i]->docs);
		free(c->envs[i]);
	}
	free(c->envs);
	free(c->top.docs);
	free(c->chain);
}

/* ---- the repository's other compose files ---------------------------- */

#define OTHERS_MAX 16		/* files named */
#define OTHERS_DIRS 256		/* directories looked into */
#define OTHER_PORTS_MAX 256	/* ports kept a file */

/* A name compose files are given: "compose" in it, .yml or .yaml. */
static int compose_named(const char *name)
{
	size_t n = strlen(name);

	return strstr(name, "compose") &&
	       ((n > 4 && !strcmp(name + n - 4, ".yml")) ||
		(n > 5 && !strcmp(name + n - 5, ".yaml")));
}

/* A directory a development stack is kept in: not a dependency folder,
 * not hidden but the two that hold stacks. */
static int stack_dir(const char *name)
{
	static const char *const skip[] = {
		"node_modules", "vendor", "target", "dist", "build", "venv", NULL
	};
	size_t i;

	if (name[0] == '.')
		return !strcmp(name, ".devcontainer") || !strcmp(name, ".docker");
	for (i = 0; skip[i]; i++)
		if (!strcmp(name, skip[i]))
			return 0;
	return 1;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int other_port_cmp(const void *a, const void *b)
{
	const struct compose_other_port *x = a, *y = b;

	return x->port < y->port ? -1 : x->port > y->port;
}

/* The compose-named files of dir ("" for the root) into *v, d_type read
 * as readdir gives it (a symlink is taken too: saferead judges it). */
static void others_in(const char *root, const char *dir, char ***v, size_t *n,
		      size_t *cap, char ***dirs, size_t *ndirs, size_t *dcap)
{
	char *path = *dir ? path_join(root, dir) : xstrdup(root);
	DIR *d = opendir(path);
	struct dirent *de;

	free(path);
	while (d && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.' && (!de->d_name[1] ||
		    (de->d_name[1] == '.' && !de->d_name[2])))
			continue;
		if ((de->d_type == DT_REG || de->d_type == DT_LNK ||
		     de->d_type == DT_UNKNOWN) && compose_named(de->d_name)) {
			grow(v, sizeof(**v), cap, *n + 1);
			(*v)[(*n)++] = *dir ? path_join(dir, de->d_name) :
					      xstrdup(de->d_name);
		} else if (dirs && de->d_type == DT_DIR && stack_dir(de->d_name) &&
			   *ndirs < OTHERS_DIRS) {
			grow(dirs, sizeof(**dirs), dcap, *ndirs + 1);
			(*dirs)[(*ndirs)++] = xstrdup(de->d_name);
		}
	}
	if (d)
		closedir(d);
}

/* The host ports a service's ports entry publishes, into o (TCP only;
 * variables substituted as in the project, the text wiped after). */
static void other_entry(struct cload *c, struct compose_other *o, size_t *cap,
			const char *service, const struct ynode *e)
{
	const struct ynode *pub = e->kind == YNODE_MAP ? ynode_get(e, "published") : e;
	const struct ynode *proto = e->kind == YNODE_MAP ? ynode_get(e, "protocol") : NULL;
	struct buf b = BUF_INIT;
	struct portspec ps;
	unsigned lo = 0, hi = 0, p;
	char err[128];

	if (!pub || pub->kind != YNODE_SCALAR || (proto && proto->kind == YNODE_SCALAR &&
						   strcmp(proto->text, "tcp")))
		return;
	if (subst(c, pub->text, pub->len, &b) == 0 && b.s) {
		if (e->kind == YNODE_MAP) {
			if (portspec_range(b.s, &lo, &hi) < 0)
				lo = 0;
		} else if (portspec_parse(b.s, &ps, err, sizeof(err)) == 0 && ps.tcp) {
			lo = ps.host_lo;
			hi = ps.pick_one ? ps.host_lo : ps.host_hi;
		}
	}
	memset(&c->serr, 0, sizeof(c->serr));
	if (b.s)
		explicit_bzero(b.s, b.len);
	buf_release(&b);
	for (p = lo; lo && p <= hi && o->nports < OTHER_PORTS_MAX; p++) {
		grow(&o->ports, sizeof(*o->ports), cap, o->nports + 1);
		o->ports[o->nports].port = p;
		o->ports[o->nports++].service = xstrdup(service);
	}
}

/* One other file: its services and their host ports, best effort (what
 * cannot be read is left out: the file is only named). */
static void other_read(struct cload *c, const char *rel)
{
	struct compose_spec *cs = c->cs;
	struct compose_other *o;
	struct parse_error pe;
	struct ynode **docs;
	size_t ndocs = 0, i, j, k, cap = 0;
	struct blob b;

	if (saferead_file(&saferead_spec, c->y.spec->root, rel, &b, NULL) < 0)
		return;
	if (ytree_parse_docs(b.data, b.len, YTREE_MAX_NODES, &docs, &ndocs, &pe) < 0)
		ndocs = 0, docs = NULL;
	blob_release(&b);
	cs->others = xrealloc(cs->others, (cs->nothers + 1) * sizeof(*cs->others));
	o = &cs->others[cs->nothers++];
	memset(o, 0, sizeof(*o));
	o->file = spec_intern(c->y.spec, rel);
	{
		const char *base = strrchr(rel, '/');
		const char *const *f;

		base = base ? base + 1 : rel;
		for (f = files; *f && !o->default_name; f++)
			o->default_name = !strcmp(base, *f);
	}
	for (i = 0; i < ndocs; i++) {
		const struct ynode *svcs = ynode_get(docs[i], "services");

		for (j = 0; svcs && svcs->kind == YNODE_MAP && j + 1 < svcs->n; j += 2) {
			const struct ynode *name = svcs->items[j];
			const struct ynode *ports = ynode_get(svcs->items[j + 1], "ports");

			if (name->kind != YNODE_SCALAR)
				continue;
			o->nservices++;
			for (k = 0; ports && ports->kind == YNODE_SEQ && k < ports->n; k++)
				other_entry(c, o, &cap, name->text, ports->items[k]);
		}
		ynode_free(docs[i]);
	}
	free(docs);
	if (o->nports)
		qsort(o->ports, o->nports, sizeof(*o->ports), other_port_cmp);
}

/* The compose files of the repository's top and of its first-level
 * directories that the project does not read: a development stack kept
 * beside the default one (lago's docker-compose.dev.yml, trigger.dev's
 * docker/docker-compose.yml).  The repository's model only: a
 * workspace's directory is one of those looked into. */
static void others_find(struct cload *c)
{
	struct spec *spec = c->y.spec;
	struct compose_spec *cs = c->cs;
	char **v = NULL, **dirs = NULL;
	size_t n = 0, cap = 0, ndirs = 0, dcap = 0, i, j;

	if (spec->parent)
		return;
	others_in(spec->root, "", &v, &n, &cap, &dirs, &ndirs, &dcap);
	if (ndirs)	/* qsort's base must not be NULL, even for none */
		qsort(dirs, ndirs, sizeof(*dirs), str_cmp);
	for (i = 0; i < ndirs; i++) {
		others_in(spec->root, dirs[i], &v, &n, &cap, NULL, NULL, NULL);
		free(dirs[i]);
	}
	free(dirs);
	if (n)
		qsort(v, n, sizeof(*v), str_cmp);
	c->env = &c->top;
	for (i = 0; i < n; i++) {
		int read = 0;

		for (j = 0; j < cs->nfiles && !read; j++)
			read = !strcmp(cs->files[j], v[i]);
		if (!read && cs->nothers < OTHERS_MAX)
			other_read(c, v[i]);
		free(v[i]);
	}
	free(v);
}

static int compose_load(struct spec *spec, struct errbuf *err)
{
	struct compose_spec *cs = &spec->compose;
	struct cload c;
	char **tops = NULL, *pdir = NULL, *dot;
	size_t ntops = 0, i;
	int rc = 0;

	memset(&c, 0, sizeof(c));
	c.capped_at = SIZE_MAX;
	c.y.spec = spec;
	c.y.err = err;
	c.cs = cs;
	c.pdir = spec_base(spec);
	/* docker compose reads the .env of the directory it runs in (here:
	 * the repository, or the workspace's directory), unless
	 * COMPOSE_DISABLE_ENV_FILE says not to */
	c.no_dotenv = env_true(getenv("COMPOSE_DISABLE_ENV_FILE"));
	dot = spec_rel(spec, ".env");
	if (!c.no_dotenv && rel_stat(spec, dot) == 0) {
		const struct dotenv *d = dotenv_for(&c, dot);

		if (d) {
			env_push(&c.top, d);
			c.top_names[0] = spec_intern(spec, dot);
		}
	}
	free(dot);
	top_files(&c, &tops, &ntops);
	/* a COMPOSE_FILE exported for other projects says nothing about a
	 * repository that has no compose file and names none */
	cs->used = ntops || cs->files_from == COMPOSE_FROM_PREFLIGHT ||
		   cs->files_from == COMPOSE_FROM_DOTENV ||
		   spec_first_existing(spec, files);
	if (ntops) {
		/* then the .env beside the first file, which loses to the
		 * root's (compose.go: WithEnvFiles and WithDotEnv again) */
		pdir = rel_dir(tops[0]);
		/* compose.files is docker compose -f: the .env compose reads,
		 * for COMPOSE_PROFILES as for variables, is then the first
		 * file's directory's alone, since WithEnvFiles looks in
		 * GetWorkingDir, the first -f file's directory, before and
		 * after COMPOSE_FILE is read (compose.go setEnvWithDotEnv and
		 * toProjectOptions; compose-go cli/options.go) */
		if (cs->files_from == COMPOSE_FROM_PREFLIGHT && c.top.n &&
		    strcmp(pdir, spec_base(spec)))
			c.top.n = 0;
		if (!c.no_dotenv && strcmp(pdir, spec_base(spec))) {
			char *p = rel_path(spec->root, pdir, ".env");
			const struct dotenv *d = NULL;

			if (p && rel_stat(spec, p) == 0 && (d = dotenv_for(&c, p))) {
				c.top_names[c.top.n] = spec_intern(spec, p);
				env_push(&c.top, d);
			}
			free(p);
		}
	}
	for (i = 0; i < ntops && rc == 0; i++)
		rc = load_file(&c, tops[i], &c.top, pdir);
	if (rc == 0) {
		top_profiles(&c);
		finish(&c);
		check_envfiles(&c);
		others_find(&c);
	}
	for (i = 0; i < ntops; i++)
		free(tops[i]);
	free(tops);
	free(pdir);
	cload_release(&c);
	return rc;
}

static void compose_release(struct spec *spec)
{
	struct compose_spec *cs = &spec->compose;
	size_t i, j;

	free(cs->files);
	for (i = 0; i < cs->nothers; i++) {
		for (j = 0; j < cs->others[i].nports; j++)
			free(cs->others[i].ports[j].service);
		free(cs->others[i].ports);
	}
	free(cs->others);
	for (i = 0; i < cs->nprofiles; i++)
		free(cs->profiles[i]);
	free(cs->profiles);
	for (i = 0; i < cs->nskipped; i++) {
		free(cs->skipped[i].service);
		free(cs->skipped[i].profiles);
	}
	free(cs->skipped);
	for (i = 0; i < cs->nproblems; i++) {
		free(cs->problems[i].name);
		free(cs->problems[i].message);
	}
	free(cs->problems);
	for (i = 0; i < cs->nnotes; i++)
		free(cs->notes[i]);
	free(cs->notes);
	for (i = 0; i < cs->npf_files; i++)
		free(cs->pf_files[i].name);
	free(cs->pf_files);
	for (i = 0; i < cs->npf_profiles; i++)
		free(cs->pf_profiles[i].name);
	free(cs->pf_profiles);
	memset(cs, 0, sizeof(*cs));
}

const struct spec_source source_compose = {
	.name = "compose files",
	.files = files,
	.load = compose_load,
	.release = compose_release,
};
