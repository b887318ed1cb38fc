/* probe_compose.c - would `docker compose up` accept the compose project?
 *
 * One check, compose.config, title "Compose file", for a repository that
 * has or names a compose file.  spec_compose.c has read the files as
 * docker compose would (COMPOSE_FILE, profiles, include, !reset) and kept
 * what compose would refuse as problems; this file only words them.
 * Nothing here reads a file or prints a .env value: every name in the
 * model is repository text.
 */
#include "probe.h"

#include <stdlib.h>
#include <string.h>

#define LIST_MAX 4		/* names in a message before "and N more" */
#define NOTES_MAX 16		/* skipped services noted one by one */

static const char *from_key(enum compose_from f)
{
	static const char *const keys[] = {
		[COMPOSE_FROM_ENV] = "env", [COMPOSE_FROM_PREFLIGHT] = "preflight",
		[COMPOSE_FROM_DOTENV] = "dotenv", [COMPOSE_FROM_DEFAULT] = "default",
	};

	return (unsigned)f < ARRAY_SIZE(keys) ? keys[f] : "default";
}

static const char *kind_key(enum compose_problem_kind k)
{
	static const char *const keys[] = {
		[COMPOSE_VAR_UNSET] = "variable-unset",
		[COMPOSE_VAR_SYNTAX] = "variable-syntax",
		[COMPOSE_FILE_MISSING] = "file-missing",
		[COMPOSE_INCLUDE_CYCLE] = "include-cycle",
		[COMPOSE_OUTSIDE] = "outside-repository",
		[COMPOSE_BAD_PORT] = "bad-port",
		[COMPOSE_BAD_DEPENDENCY] = "bad-dependency",
		[COMPOSE_INVALID] = "invalid",
		[COMPOSE_ENV_FILE_MISSING] = "env-file-missing",
	};

	return (unsigned)k < ARRAY_SIZE(keys) ? keys[k] : "invalid";
}

/* "file:line" of o, or "" when it names no file */
static void put_where(struct buf *b, const struct origin *o)
{
	if (!o->file)
		return;
	buf_add_clean(b, o->file);
	if (o->line)
		buf_printf(b, ":%u", o->line);
}

static void add_origin(cJSON *obj, const struct origin *o)
{
	if (o->file)
		cJSON_AddStringToObject(obj, "file", o->file);
	else
		cJSON_AddNullToObject(obj, "file");
	cJSON_AddNumberToObject(obj, "line", o->line);
}

/* "debug, tools" as a JSON list (profile names hold no comma) */
static cJSON *profile_list(const char *joined)
{
	cJSON *a = cJSON_CreateArray();
	const char *p = joined;

	while (*p) {
		size_t n = strcspn(p, ",");
		char *one = xstrndup(p, n);

		cJSON_AddItemToArray(a, cJSON_CreateString(one));
		free(one);
		p += n;
		p += strspn(p, ", ");
	}
	return a;
}

static void set_data(struct result *r, const struct compose_spec *cs)
{
	cJSON *files, *profiles, *skipped, *problems;
	size_t i;

	r->data = cJSON_CreateObject();
	files = cJSON_AddArrayToObject(r->data, "files");
	for (i = 0; i < cs->nfiles; i++)
		cJSON_AddItemToArray(files, cJSON_CreateString(cs->files[i]));
	cJSON_AddStringToObject(r->data, "files_from", from_key(cs->files_from));
	profiles = cJSON_AddArrayToObject(r->data, "profiles");
	for (i = 0; i < cs->nprofiles; i++)
		cJSON_AddItemToArray(profiles, cJSON_CreateString(cs->profiles[i]));
	cJSON_AddStringToObject(r->data, "profiles_from",
				from_key(cs->profiles_from));
	cJSON_AddNumberToObject(r->data, "profiles_not_shown",
				(double)cs->profiles_unnamed);
	skipped = cJSON_AddArrayToObject(r->data, "skipped");
	for (i = 0; i < cs->nskipped; i++) {
		cJSON *s = cJSON_CreateObject();

		cJSON_AddStringToObject(s, "service", cs->skipped[i].service);
		cJSON_AddItemToObject(s, "profiles",
				      profile_list(cs->skipped[i].profiles));
		add_origin(s, &cs->skipped[i].origin);
		cJSON_AddItemToArray(skipped, s);
	}
	problems = cJSON_AddArrayToObject(r->data, "problems");
	for (i = 0; i < cs->nproblems; i++) {
		const struct compose_problem *p = &cs->problems[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "kind", kind_key(p->kind));
		if (p->name)
			cJSON_AddStringToObject(o, "name", p->name);
		else
			cJSON_AddNullToObject(o, "name");
		cJSON_AddStringToObject(o, "message", p->message);
		add_origin(o, &p->origin);
		cJSON_AddItemToArray(problems, o);
	}
	cJSON_AddNumberToObject(r->data, "problems_not_listed",
				(double)cs->problems_more);
}

/* The reason of a problem, and what a person edits to fix it (none of
 * these is a program's to fix: a value, a file to write, a stack to
 * reshape). */
static void reason_for(struct result *r, const struct compose_problem *p)
{
	static const enum reason why[] = {
		[COMPOSE_VAR_UNSET] = REASON_VARIABLE_UNSET,
		[COMPOSE_VAR_SYNTAX] = REASON_SYNTAX,
		[COMPOSE_FILE_MISSING] = REASON_NOT_FOUND,
		[COMPOSE_INCLUDE_CYCLE] = REASON_INVALID_REQUIREMENT,
		[COMPOSE_OUTSIDE] = REASON_REFUSED,
		[COMPOSE_BAD_PORT] = REASON_INVALID_REQUIREMENT,
		[COMPOSE_BAD_DEPENDENCY] = REASON_INVALID_REQUIREMENT,
		[COMPOSE_ENV_FILE_MISSING] = REASON_ENV_MISSING,
		[COMPOSE_INVALID] = REASON_INVALID_REQUIREMENT,
	};

	r->reason = (size_t)p->kind < ARRAY_SIZE(why) && why[p->kind] ?
		    why[p->kind] : REASON_INVALID_REQUIREMENT;
	if (p->kind == COMPOSE_VAR_UNSET)
		result_fix_edit(r, ".env", 0);
	else if (p->kind == COMPOSE_ENV_FILE_MISSING && p->name)
		result_fix_edit(r, p->name, 0);
	else if (p->origin.file)
		result_fix_edit(r, p->origin.file, p->origin.line);
}

static void hint_for(struct result *r, const struct compose_problem *p)
{
	reason_for(r, p);
	switch (p->kind) {
	case COMPOSE_VAR_UNSET:
		result_hint(r, "set %s in the environment or in .env: docker compose "
			    "up stops on it", p->name);
		break;
	case COMPOSE_VAR_SYNTAX:
		result_hint(r, "write a literal $ in a compose file as $$");
		break;
	case COMPOSE_FILE_MISSING:
		result_hint(r, "name compose files that exist (COMPOSE_FILE, "
			    "preflight.yaml compose.files, include)");
		break;
	case COMPOSE_INCLUDE_CYCLE:
		result_hint(r, "remove one include of the cycle");
		break;
	case COMPOSE_OUTSIDE:
		result_hint(r, "keep the compose files this stack needs inside the "
			    "repository");
		break;
	case COMPOSE_BAD_PORT:
		result_hint(r, "a ports entry is [HOST_IP:][HOST_PORT:]CONTAINER_PORT"
			    "[/PROTOCOL] with ports from 1 to 65535");
		break;
	case COMPOSE_BAD_DEPENDENCY:
		result_hint(r, "activate the dependency's profile (COMPOSE_PROFILES), "
			    "or give the dependency required: false");
		break;
	case COMPOSE_ENV_FILE_MISSING:
		result_hint(r, "create %s (from its example, if the repository has "
			    "one), or give the env_file entry required: false",
			    p->name);
		break;
	case COMPOSE_INVALID:
		result_hint(r, "docker compose config shows compose's own message");
		break;
	}
}

static void run_fail(struct result *r, const struct compose_spec *cs)
{
	const struct compose_problem *p = &cs->problems[0];
	size_t more = cs->nproblems - 1 + cs->problems_more, i;
	struct buf b = BUF_INIT;

	put_where(&b, &p->origin);
	buf_printf(&b, "%s%s", b.len ? ": " : "", p->message);
	if (more)
		buf_printf(&b, "; %zu more problem%s", more, more > 1 ? "s" : "");
	result_set(r, STATUS_FAIL, "%s", buf_str(&b));
	buf_release(&b);
	/* the check points where the first problem is, an included file's
	 * line too, not at the file that chose the compose files: an
	 * annotation, JUnit and JSON's source name it as the message does */
	if (p->origin.file)
		r->source = p->origin;
	hint_for(r, p);
	for (i = 1; i < cs->nproblems; i++) {
		p = &cs->problems[i];
		put_where(&b, &p->origin);
		result_note(r, "%s%s%s", buf_str(&b), b.len ? ": " : "", p->message);
		buf_release(&b);
	}
	if (cs->problems_more)
		result_note(r, "and %zu more problems, not listed", cs->problems_more);
}

/* "compose.yaml + compose.override.yaml (COMPOSE_FILE in .env); profile
 * debug (...); 1 service left out by its profiles: admin" */
static void run_pass(struct result *r, const struct compose_spec *cs)
{
	struct buf b = BUF_INIT;
	size_t i;

	for (i = 0; i < cs->nfiles && i < LIST_MAX; i++) {
		buf_puts(&b, i ? " + " : "");
		buf_add_clean(&b, cs->files[i]);
	}
	if (cs->nfiles > LIST_MAX)
		buf_printf(&b, " and %zu more", cs->nfiles - LIST_MAX);
	if (!cs->nfiles)
		buf_puts(&b, "no file");
	if (cs->files_from != COMPOSE_FROM_DEFAULT)
		buf_printf(&b, " (%s)", compose_from_label(cs->files_from, 0));
	if (cs->nprofiles) {
		buf_printf(&b, "; profile%s ", cs->nprofiles > 1 ? "s" : "");
		for (i = 0; i < cs->nprofiles; i++) {
			buf_puts(&b, i ? ", " : "");
			buf_add_clean(&b, cs->profiles[i]);
		}
		buf_printf(&b, " (%s)", compose_from_label(cs->profiles_from, 1));
	}
	if (cs->nskipped) {
		buf_printf(&b, "; %zu service%s left out by %s profiles: ",
			   cs->nskipped, cs->nskipped > 1 ? "s" : "",
			   cs->nskipped > 1 ? "their" : "its");
		for (i = 0; i < cs->nskipped && i < LIST_MAX; i++) {
			buf_puts(&b, i ? ", " : "");
			buf_add_clean(&b, cs->skipped[i].service);
		}
		if (cs->nskipped > LIST_MAX)
			buf_printf(&b, " and %zu more", cs->nskipped - LIST_MAX);
	}
	/* the other stacks, by name only: --explain says more */
	for (i = 0; i < cs->nothers && i < LIST_MAX; i++) {
		buf_puts(&b, i ? ", " : "; not read: ");
		buf_add_clean(&b, cs->others[i].file);
	}
	if (cs->nothers > LIST_MAX)
		buf_printf(&b, " and %zu more", cs->nothers - LIST_MAX);
	result_set(r, STATUS_PASS, "%s", buf_str(&b));
	buf_release(&b);
}

/* --explain: where the files and profiles came from, each service left
 * out, what was not read. */
static void explain(struct result *r, const struct compose_spec *cs)
{
	struct buf b = BUF_INIT;
	size_t i;

	if (cs->files_from != COMPOSE_FROM_DEFAULT) {
		put_where(&b, &cs->files_origin);
		result_note(r, "files from %s%s%s", compose_from_label(cs->files_from, 0),
			    b.len ? " at " : "", buf_str(&b));
		buf_release(&b);
	}
	if (cs->profiles_from != COMPOSE_FROM_DEFAULT) {
		put_where(&b, &cs->profiles_origin);
		result_note(r, "profiles from %s%s%s",
			    compose_from_label(cs->profiles_from, 1),
			    b.len ? " at " : "", buf_str(&b));
		buf_release(&b);
	}
	if (cs->profiles_unnamed)
		result_note(r, "%zu more active profile%s from .env, named by no "
			    "service (not shown: a .env value)", cs->profiles_unnamed,
			    cs->profiles_unnamed > 1 ? "s" : "");
	for (i = 0; i < cs->nskipped && i < NOTES_MAX; i++) {
		const struct compose_skip *s = &cs->skipped[i];

		put_where(&b, &s->origin);
		result_note(r, "service %s (%s) is left out: it starts only with %s %s",
			    s->service, buf_str(&b), strchr(s->profiles, ',') ?
			    "one of the profiles" : "the profile", s->profiles);
		buf_release(&b);
	}
	if (cs->nskipped > NOTES_MAX)
		result_note(r, "and %zu more services left out by their profiles "
			    "(JSON data.skipped lists them all)",
			    cs->nskipped - NOTES_MAX);
	for (i = 0; i < cs->nnotes; i++)
		result_note(r, "%s", cs->notes[i]);
}

/* "docker/docker-compose.yml (3 services; ports 8123, 9000 and 2 more)" */
static void other_words(struct buf *b, const struct compose_other *o)
{
	size_t i;

	buf_add_clean(b, o->file);
	buf_printf(b, " (%zu service%s", o->nservices, o->nservices == 1 ? "" : "s");
	for (i = 0; i < o->nports && i < LIST_MAX; i++)
		buf_printf(b, "%s%u", i ? ", " : o->nports == 1 ? "; port " : "; ports ",
			   o->ports[i].port);
	if (o->nports > LIST_MAX)
		buf_printf(b, " and %zu more", o->nports - LIST_MAX);
	buf_putc(b, ')');
}

/* data.others: each file the project does not read, its services and ports */
static void others_data(struct result *r, const struct compose_spec *cs)
{
	cJSON *arr = cJSON_AddArrayToObject(r->data, "others");
	size_t i, j;

	for (i = 0; i < cs->nothers; i++) {
		const struct compose_other *o = &cs->others[i];
		cJSON *x = cJSON_CreateObject(), *ports = cJSON_CreateArray();

		cJSON_AddStringToObject(x, "file", o->file);
		cJSON_AddNumberToObject(x, "services", (double)o->nservices);
		for (j = 0; j < o->nports; j++)
			if (!j || o->ports[j].port != o->ports[j - 1].port)
				cJSON_AddItemToArray(ports, cJSON_CreateNumber(o->ports[j].port));
		cJSON_AddItemToObject(x, "ports", ports);
		cJSON_AddItemToArray(arr, x);
	}
}

/* No compose file docker compose up reads here, but the repository keeps
 * a stack elsewhere: say where, and how to have it checked. */
static void run_others_only(struct result *r, const struct compose_spec *cs)
{
	struct buf b = BUF_INIT;
	size_t i;

	for (i = 0; i < cs->nothers && i < LIST_MAX; i++) {
		if (i)
			buf_puts(&b, ", ");
		other_words(&b, &cs->others[i]);
	}
	if (cs->nothers > LIST_MAX)
		buf_printf(&b, " and %zu more", cs->nothers - LIST_MAX);
	result_set(r, STATUS_SKIP, "not checked: docker compose up reads no compose "
		   "file here (compose.yaml, docker-compose.yml), and not %s: %s",
		   cs->nothers == 1 ? "this one" : "these", buf_str(&b));
	r->reason = REASON_NOT_APPLICABLE;
	result_hint(r, "to check that stack, name it under compose.files in "
		    "preflight.yaml (or COMPOSE_FILE in .env)");
	buf_release(&b);
}

static void compose_run(const struct run_ctx *ctx, const struct check *c,
			struct result *r)
{
	const struct compose_spec *cs = &ctx->spec->compose;
	size_t i;

	(void)c;
	set_data(r, cs);
	others_data(r, cs);
	if (!cs->used)
		run_others_only(r, cs);
	else if (cs->nproblems)
		run_fail(r, cs);
	else
		run_pass(r, cs);
	/* a workspace's stack (a benchmark's, a template's, a tool's) is not
	 * the one docker compose up at the top starts: what it would refuse
	 * is said for when someone starts it there, never a failure of the
	 * repository's setup (issue 21: karakeep, payload) */
	if (r->status == STATUS_FAIL && ctx->spec->parent && ctx->spec->dir)
		result_set(r, STATUS_WARN, "if you start %s's stack: %s", ctx->spec->dir,
			   r->message ? r->message : "");
	explain(r, cs);
	/* a development stack beside the default one: never read, named */
	for (i = cs->used ? 0 : cs->nothers; i < cs->nothers; i++) {
		struct buf b = BUF_INIT;

		other_words(&b, &cs->others[i]);
		result_note(r, "%s: a compose file docker compose up does not read "
			    "here; compose.files in preflight.yaml picks it", buf_str(&b));
		buf_release(&b);
	}
}

/* compose.config, when the repository has or names a compose file; its
 * source is what chose the files, else the first file read (a failed
 * check's is its first problem's: run_fail). */
static void compose_plan(const struct spec *spec, struct plan *plan)
{
	const struct compose_spec *cs = &spec->compose;
	struct origin src = cs->files_origin;

	if (!cs->used && !cs->nothers)
		return;
	if (!src.file && cs->nfiles)
		src.file = cs->files[0];
	if (!src.file && cs->nothers)
		src.file = cs->others[0].file;
	plan_add(plan, &probe_compose, "compose.config", "Compose file", src, cs, 0);
}

static const char *const compose_ids[] = {
	"compose.config",
	NULL
};

const struct probe probe_compose = {
	.name = "compose",
	.summary = "the compose files docker compose up would read: variables, "
		   "includes, profiles",
	.plan = compose_plan,
	.run = compose_run,
	.ids = compose_ids,
};
