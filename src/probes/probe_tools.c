/* probe_tools.c - commands preflight.yaml `tools:` needs on PATH.
 *
 * Presence only: nothing is run.  The lookup is the runtimes probe's
 * (spawn_which_why): relative and empty PATH entries and entries inside
 * the audited repository are skipped, so a repository cannot satisfy its
 * own requirement by shipping a `make` of its own.
 */
#include "probe.h"
#include "spawnrun.h"

#include <stdlib.h>
#include <string.h>

static void tools_run(const struct run_ctx *ctx, const struct check *c,
		      struct result *r)
{
	const struct spec *spec = ctx->spec;
	const struct tool_req *t = c->arg;
	char *why = NULL;
	int dflt;
	const char *search = spawn_search_path(&dflt);
	char *path = spawn_which_why(t->name, search, spec->root, &why);
	size_t i;

	r->data = cJSON_CreateObject();
	cJSON_AddStringToObject(r->data, "tool", t->name);
	cJSON_AddBoolToObject(r->data, "found", path != NULL);
	if (path)
		cJSON_AddStringToObject(r->data, "path", path);
	else
		cJSON_AddNullToObject(r->data, "path");
	if (why)
		cJSON_AddStringToObject(r->data, "skipped_path_entries", why);
	else
		cJSON_AddNullToObject(r->data, "skipped_path_entries");

	if (path) {
		result_set(r, STATUS_PASS, "found at %s", path);
		if (why)
			result_note(r, "%s", why);
	} else {
		result_set(r, STATUS_FAIL, "not found on %s%s%s%s",
			   dflt ? "the default search path " : "PATH",
			   dflt ? search : "", why ? "; " : "", why ? why : "");
		r->reason = REASON_NOT_FOUND;
		/* the name passed preflight.yaml's command-name check */
		result_hint(r, "install %s, or add the directory that holds it to PATH",
			    t->name);
	}
	if (dflt)
		result_note(r, "PATH is not set: looked on the system's default "
			    "search path %s (confstr _CS_PATH), as sh and execvp do",
			    search);
	for (i = 0; i < spec->ntools; i++)
		if (&spec->tools[i] != t && !strcmp(spec->tools[i].name, t->name))
			result_note(r, "also listed at %s:%u", spec->tools[i].origin.file,
				    spec->tools[i].origin.line);
	free(path);
	free(why);
}

/* tool.NAME, once per name: a name listed twice is one check. */
static void tools_plan(const struct spec *spec, struct plan *plan)
{
	struct buf id = BUF_INIT, title = BUF_INIT;
	size_t i, j;

	for (i = 0; i < spec->ntools; i++) {
		const struct tool_req *t = &spec->tools[i];

		for (j = 0; j < i; j++)
			if (!strcmp(spec->tools[j].name, t->name))
				break;
		if (j < i)
			continue;
		buf_printf(&id, "tool.%s", t->name);
		buf_printf(&title, "Tool %s", t->name);
		plan_add(plan, &probe_tools, buf_str(&id), buf_str(&title), t->origin,
			 t, i);
		buf_release(&id);
		buf_release(&title);
	}
}

static const char *const tools_ids[] = {
	"tool.NAME",
	NULL
};

const struct probe probe_tools = {
	.name = "tools",
	.summary = "commands preflight.yaml names under tools: are on PATH",
	.plan = tools_plan,
	.run = tools_run,
	.ids = tools_ids,
};
