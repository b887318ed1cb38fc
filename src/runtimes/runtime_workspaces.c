/* runtime_workspaces.c - runtime.NAME.workspaces: requirements of several
 * workspaces that no one version can meet.
 *
 * One install serves a whole monorepo: `pnpm install` (or npm's, yarn's)
 * at the root checks the engines of every workspace project against the
 * one node it runs on.  So when apps/web's package.json wants ">=22" and
 * packages/legacy's "<21", no node satisfies both, and every machine fails
 * one of them: that is a fault of the repository, not of this machine,
 * and it is a check of its own, planned for the repository's model.
 *
 * Which requirements are compared: npm semver ranges from package.json
 * engines (of the repository and of each workspace) and from
 * preflight.yaml runtimes.  Version files (.nvmrc, .python-version,
 * .tool-versions) choose a version per directory, and a version manager
 * switches between them: they may differ by design, and are not compared.
 * A range that is invalid or never satisfied on its own fails its own
 * check and is left out here.
 *
 * Conservative: a pair is reported only when runtime_ranges_disjoint is
 * certain that no version lies in both; the check passes otherwise, and
 * its message says what was compared (pairwise: with "||" unions, three
 * ranges can exclude each other together while every two overlap, which
 * this check does not claim to see).
 */
#include "probe.h"
#include "runtimes.h"
#include "spec_workspaces.h"

#include <stdlib.h>
#include <string.h>

#define REQS_MAX 512		/* requirements compared for one runtime */
#define CONFLICTS_MAX 16	/* pairs kept in data */

/* The requirements this check compares. */
static int comparable(const struct runtime_req *r, const char *name)
{
	return r->kind == REQ_SEMVER && !r->problem && r->nalt &&
	       (r->src == SRC_ENGINES || r->src == SRC_PREFLIGHT) &&
	       !strcmp(r->name, name);
}

#define MODELS_MAX (WS_MAX + 1)

/* The models of the run: the repository's, then each workspace's loaded. */
static size_t models(const struct spec *top, const struct spec **v, size_t max)
{
	const struct spec_workspaces *w = top->workspaces;
	size_t n = 0, i;

	v[n++] = top;
	for (i = 0; w && i < w->n && n < max; i++)
		if (w->v[i].loaded)
			v[n++] = &w->v[i].spec;
	return n;
}


/* 1 when another model than m names a comparable requirement of name. */
static int named_elsewhere(const struct spec *const *mv, size_t nm, size_t m,
			   const char *name)
{
	size_t k, i;

	for (k = 0; k < nm; k++) {
		if (k == m)
			continue;
		for (i = 0; i < mv[k]->nruntimes; i++)
			if (comparable(&mv[k]->runtimes[i], name))
				return 1;
	}
	return 0;
}

void runtime_workspaces_plan(const struct probe *self, const struct spec *spec,
			     struct plan *plan)
{
	const struct spec **mv;
	const char *done[64];
	size_t nm, ndone = 0, m, i, d;

	if (spec->parent || !spec->workspaces)
		return;
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): an array of pointers */
	mv = xcalloc(MODELS_MAX, sizeof(*mv));
	nm = models(spec, mv, MODELS_MAX);
	for (m = 0; m < nm; m++) {
		for (i = 0; i < mv[m]->nruntimes; i++) {
			const struct runtime_req *r = &mv[m]->runtimes[i];
			const struct known_runtime *k;
			struct buf id = BUF_INIT, title = BUF_INIT;

			if (!comparable(r, r->name) || ndone == ARRAY_SIZE(done))
				continue;
			for (d = 0; d < ndone && strcmp(done[d], r->name); d++)
				;
			if (d < ndone || !named_elsewhere(mv, nm, m, r->name))
				continue;
			done[ndone++] = r->name;
			k = runtime_table_find(r->name);
			/* runtime.NAME.SOURCE with the source "workspaces": no
			 * requirement's own source has that key */
			buf_printf(&id, "runtime.%s.workspaces", r->name);
			buf_printf(&title, "%s (workspaces)", k ? k->display : r->name);
			plan_add(plan, self, buf_str(&id), buf_str(&title),
				 r->origin, r, RUNTIME_WORKSPACES_CHECK);
			buf_release(&id);
			buf_release(&title);
		}
	}
	free(mv);
}

/* One requirement compared: its range, and who wants it. */
struct cmp {
	const struct runtime_req *r;
	const char *ws;			/* NULL: the repository */
	size_t same;			/* index of the first one with the same
					 * text (itself if none): it holds the
					 * range, parsed once */
	struct semver_range *range;	/* the first of its text only */
	char want[RUNTIME_QUOTE_MAX];	/* the text, quoted for messages */
};

/* "(apps/web)", or the repository's file: "(package.json)" */
static const char *who(const struct cmp *c)
{
	return c->ws ? c->ws : runtime_req_from(c->r);
}

static cJSON *req_json(const struct cmp *c)
{
	cJSON *o = cJSON_CreateObject();

	if (c->ws)
		cJSON_AddStringToObject(o, "workspace", c->ws);
	else
		cJSON_AddNullToObject(o, "workspace");
	cJSON_AddStringToObject(o, "file", runtime_req_from(c->r));
	cJSON_AddNumberToObject(o, "line", c->r->origin.line);
	cJSON_AddStringToObject(o, "required", c->r->spec);
	cJSON_AddStringToObject(o, "source", req_source_key(c->r->src));
	return o;
}

/* Every comparable requirement of name, in model order, into v.  A text
 * is parsed once (fifty workspaces that all say ">=18" are one range); an
 * invalid range, or one no version satisfies on its own, fails its own
 * check and is left out here. */
static size_t gather(const struct spec *top, const char *name, struct cmp *v,
		     size_t max)
{
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): an array of pointers */
	const struct spec **mv = xcalloc(MODELS_MAX, sizeof(*mv));
	size_t nm = models(top, mv, MODELS_MAX), n = 0, m, i, j;

	for (m = 0; m < nm; m++) {
		for (i = 0; i < mv[m]->nruntimes && n < max; i++) {
			const struct runtime_req *r = &mv[m]->runtimes[i];
			struct cmp *c = &v[n];

			if (!comparable(r, name))
				continue;
			memset(c, 0, sizeof(*c));
			c->r = r;
			c->ws = mv[m]->dir;
			c->same = n;
			for (j = 0; j < n; j++)
				if (!strcmp(v[j].r->spec, r->spec)) {
					c->same = v[j].same;
					break;
				}
			if (c->same == n) {
				c->range = semver_range_parse(r->spec,
							      SEMVER_INCLUDE_PRERELEASE);
				if (!c->range || runtime_ranges_disjoint(c->range,
									 c->range)) {
					semver_range_free(c->range);
					continue;
				}
			} else if (!v[c->same].range) {
				continue;
			}
			versions_quote(c->want, sizeof(c->want), r->spec,
				       strlen(r->spec));
			n++;
		}
	}
	free(mv);
	return n;
}

void runtime_workspaces_run(const struct run_ctx *ctx, const struct check *c,
			    struct result *res)
{
	const struct runtime_req *first = c->arg;
	struct cmp *v = xcalloc(REQS_MAX, sizeof(*v));
	size_t n = gather(spec_top(ctx->spec), first->name, v, REQS_MAX);
	size_t i, j, nconf = 0, a0 = 0, b0 = 0;
	cJSON *reqs, *conf;

	res->data = cJSON_CreateObject();
	cJSON_AddStringToObject(res->data, "runtime", first->name);
	reqs = cJSON_AddArrayToObject(res->data, "requirements");
	conf = cJSON_AddArrayToObject(res->data, "conflicts");
	for (i = 0; i < n; i++)
		cJSON_AddItemToArray(reqs, req_json(&v[i]));
	/* distinct ranges only: fifty workspaces that all say ">=18" are
	 * one range to compare */
	for (i = 0; i < n; i++) {
		if (v[i].same != i)
			continue;
		for (j = i + 1; j < n; j++) {
			cJSON *pair;

			if (v[j].same != j ||
			    !runtime_ranges_disjoint(v[i].range, v[j].range))
				continue;
			if (!nconf++) {
				a0 = i;
				b0 = j;
			}
			if (nconf > CONFLICTS_MAX)
				continue;
			pair = cJSON_CreateObject();
			cJSON_AddItemToObject(pair, "a", req_json(&v[i]));
			cJSON_AddItemToObject(pair, "b", req_json(&v[j]));
			cJSON_AddItemToArray(conf, pair);
		}
	}
	if (nconf) {
		result_set(res, STATUS_FAIL, "no %s satisfies %s (%s) and %s (%s)%s",
			   first->name, v[a0].want, who(&v[a0]), v[b0].want,
			   who(&v[b0]), nconf > 1 ? "; and more pairs (data.conflicts)" : "");
		res->reason = REASON_UNSATISFIABLE;
		result_hint(res, "make the ranges overlap: edit %s:%u or %s:%u "
			    "(one install serves every workspace)",
			    runtime_req_from(v[a0].r), v[a0].r->origin.line,
			    runtime_req_from(v[b0].r), v[b0].r->origin.line);
		result_fix_edit(res, runtime_req_from(v[b0].r), v[b0].r->origin.line);
		for (i = 0; i < n; i++)
			result_note(res, "%s:%u wants %s", runtime_req_from(v[i].r),
				    v[i].r->origin.line, v[i].want);
	} else {
		size_t distinct = 0;

		for (i = 0; i < n; i++)
			distinct += v[i].same == i;
		result_set(res, STATUS_PASS, "no two of the %zu %s requirements "
			   "(%zu distinct) exclude each other", n, first->name,
			   distinct);
	}
	for (i = 0; i < n; i++)
		semver_range_free(v[i].range);
	free(v);
}
