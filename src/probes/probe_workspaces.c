/* probe_workspaces.c - one check, workspaces.discovery: which workspaces
 * were found and from where, and what stood in the way of the others.
 *
 * Discovery itself happens at load time (spec_workspaces.c), before any
 * probe runs; this check only words what the model holds.  It is planned
 * for the repository's model when a manifest declares workspaces (or one
 * that tried to could not be read as its tool reads it), so a repository
 * that is no monorepo has no such check.  Its status is the worst
 * finding's: what the tool itself would refuse (a go.work directory
 * without go.mod, a uv member without pyproject.toml, a workspace list
 * that is not a list) fails; a pattern that matches nothing, a workspace
 * refused because it leads out of the repository, and the caps warn.
 */
#include "probe.h"
#include "spec_workspaces.h"

#include <stdlib.h>
#include <string.h>

#define NAMES_IN_MESSAGE 5

static enum status finding_status(enum ws_finding_kind k)
{
	return k == WS_NO_MANIFEST || k == WS_INVALID ? STATUS_FAIL : STATUS_WARN;
}

static enum reason finding_reason(enum ws_finding_kind k)
{
	switch (k) {
	case WS_UNMATCHED:
		return REASON_NO_MATCH;
	case WS_OUTSIDE:
		return REASON_REFUSED;
	case WS_BAD_NAME:
	case WS_CAPPED:
		return REASON_OUT_OF_SCOPE;
	case WS_NO_MANIFEST:
	case WS_INVALID:
		break;
	}
	return REASON_INVALID_REQUIREMENT;
}

static const char *finding_key(enum ws_finding_kind k)
{
	static const char *const names[] = {
		[WS_UNMATCHED] = "unmatched", [WS_OUTSIDE] = "outside",
		[WS_BAD_NAME] = "bad-name", [WS_NO_MANIFEST] = "no-manifest",
		[WS_INVALID] = "invalid", [WS_CAPPED] = "capped",
	};

	return names[k];
}

/* "apps/docs, apps/web and 3 more" */
static void names_text(struct buf *b, const struct spec_workspaces *w)
{
	size_t i;

	for (i = 0; i < w->n && i < NAMES_IN_MESSAGE; i++)
		buf_printf(b, "%s%s", i ? (i + 1 == w->n ? " and " : ", ") : "",
			   w->v[i].dir);
	if (w->n > NAMES_IN_MESSAGE)
		buf_printf(b, " and %zu more", w->n - NAMES_IN_MESSAGE);
}

/* "pnpm-workspace.yaml, go.work" */
static void sources_text(struct buf *b, const struct spec_workspaces *w)
{
	size_t i;

	for (i = 0; i < w->nsources; i++)
		buf_printf(b, "%s%s", i ? ", " : "", w->sources[i].file);
}

static cJSON *data_new(const struct spec_workspaces *w)
{
	cJSON *d = cJSON_CreateObject(), *arr;
	size_t i;

	arr = cJSON_AddArrayToObject(d, "found");
	for (i = 0; i < w->n; i++)
		cJSON_AddItemToArray(arr, cJSON_CreateString(w->v[i].dir));
	arr = cJSON_AddArrayToObject(d, "audited");
	for (i = 0; i < w->n; i++)
		if (w->v[i].loaded)
			cJSON_AddItemToArray(arr, cJSON_CreateString(w->v[i].dir));
	arr = cJSON_AddArrayToObject(d, "sources");
	for (i = 0; i < w->nsources; i++) {
		cJSON *s = cJSON_CreateObject();

		cJSON_AddStringToObject(s, "kind", ws_kind_key(w->sources[i].kind));
		cJSON_AddStringToObject(s, "file", w->sources[i].file);
		cJSON_AddItemToArray(arr, s);
	}
	arr = cJSON_AddArrayToObject(d, "findings");
	for (i = 0; i < w->nfindings; i++) {
		const struct ws_finding *f = &w->findings[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "kind", finding_key(f->kind));
		if (f->dir)
			cJSON_AddStringToObject(o, "dir", f->dir);
		else
			cJSON_AddNullToObject(o, "dir");
		if (f->origin.file)
			cJSON_AddStringToObject(o, "file", f->origin.file);
		else
			cJSON_AddNullToObject(o, "file");
		if (f->origin.line)
			cJSON_AddNumberToObject(o, "line", f->origin.line);
		else
			cJSON_AddNullToObject(o, "line");
		cJSON_AddStringToObject(o, "message", f->message);
		cJSON_AddItemToArray(arr, o);
	}
	return d;
}

static void hint_for(struct result *r, const struct ws_finding *f)
{
	const char *file = f->origin.file ? f->origin.file : "the manifest";

	switch (f->kind) {
	case WS_UNMATCHED:
		result_hint(r, "fix or remove the pattern at %s:%u", file,
			    f->origin.line);
		break;
	case WS_OUTSIDE:
		result_hint(r, "a workspace outside the repository is not audited "
			    "with it: audit that directory on its own "
			    "(envpreflight DIR)");
		return;
	case WS_BAD_NAME:
		result_hint(r, "rename the directory, or audit it on its own "
			    "(envpreflight DIR)");
		return;
	case WS_NO_MANIFEST:
		result_hint(r, "add the missing manifest to %s, or leave it out "
			    "of %s:%u", f->dir ? f->dir : "the directory", file,
			    f->origin.line);
		break;
	case WS_INVALID:
		result_hint(r, "fix the workspace list at %s:%u", file,
			    f->origin.line);
		break;
	case WS_CAPPED:
		result_hint(r, "audit the workspaces that matter with "
			    "--workspace=PATH");
		return;
	}
	if (f->origin.file)
		result_fix_edit(r, f->origin.file, f->origin.line);
}

static void workspaces_run(const struct run_ctx *ctx, const struct check *c,
			   struct result *r)
{
	const struct spec_workspaces *w = c->arg;
	const struct ws_finding *worst = NULL;
	struct buf names = BUF_INIT, files = BUF_INIT;
	size_t i;

	(void)ctx;
	r->data = data_new(w);
	for (i = 0; i < w->nfindings; i++) {
		const struct ws_finding *f = &w->findings[i];

		result_note(r, "%s%s%u: %s", f->origin.file ? f->origin.file : "",
			    f->origin.file ? ":" : "", f->origin.line, f->message);
		if (!worst || finding_status(f->kind) > finding_status(worst->kind))
			worst = f;
	}
	names_text(&names, w);
	sources_text(&files, w);
	if (w->only) {
		result_note(r, "only %s is audited (--workspace)", w->only);
		result_note(r, "found: %s", buf_str(&names));
	}
	if (worst) {
		struct buf at = BUF_INIT;

		if (worst->origin.file && worst->origin.line)
			buf_printf(&at, " (%s:%u)", worst->origin.file,
				   worst->origin.line);
		result_set(r, finding_status(worst->kind), "%s%s%s; %zu "
			   "workspace%s found (%s)", worst->message, buf_str(&at),
			   w->nfindings > 1 ? ", and more (see the notes)" : "",
			   w->n, w->n == 1 ? "" : "s", buf_str(&files));
		buf_release(&at);
		r->reason = finding_reason(worst->kind);
		hint_for(r, worst);
	} else if (w->only) {
		result_set(r, STATUS_PASS, "%s, 1 of %zu workspaces (%s)", w->only,
			   w->n, buf_str(&files));
	} else if (!w->n) {
		result_set(r, STATUS_PASS, "no workspace: %s lists none",
			   buf_str(&files));
	} else {
		result_set(r, STATUS_PASS, "%zu workspace%s: %s (%s)", w->n,
			   w->n == 1 ? "" : "s", buf_str(&names), buf_str(&files));
	}
	buf_release(&names);
	buf_release(&files);
}

static void workspaces_plan(const struct spec *spec, struct plan *plan)
{
	const struct spec_workspaces *w = spec->workspaces;
	struct origin src = { NULL, 0, 0 };

	if (!w || (!w->nsources && !w->nfindings))
		return;
	if (w->nsources) {
		src.file = w->sources[0].file;
		src.line = w->sources[0].pats.n ? w->sources[0].pats.v[0].line : 0;
	} else {
		src = w->findings[0].origin;
	}
	plan_add(plan, &probe_workspaces, "workspaces.discovery", "Workspaces",
		 src, w, 0);
}

static const char *const workspaces_ids[] = {
	"workspaces.discovery",
	NULL
};

const struct probe probe_workspaces = {
	.name = "workspaces",
	.summary = "the workspaces of a monorepo (package.json, "
		   "pnpm-workspace.yaml, go.work, uv): found, and what stood in "
		   "the way",
	.plan = workspaces_plan,
	.run = workspaces_run,
	.ids = workspaces_ids,
};
