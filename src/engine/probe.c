/* probe.c - the probe table and the plan a run is made of */
#include "probe.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

const struct probe *const probe_table[] = {
#define PROBE(name) &probe_##name,
#include "probes.def"
#undef PROBE
	NULL
};

cJSON *probe_list_json(void)
{
	cJSON *doc = cJSON_CreateObject(), *arr;
	size_t i, k;

	cJSON_AddStringToObject(doc, "schema", "envpreflight-probes/1");
	arr = cJSON_AddArrayToObject(doc, "probes");
	for (i = 0; probe_table[i]; i++) {
		const struct probe *p = probe_table[i];
		cJSON *o = cJSON_CreateObject(), *ids;

		cJSON_AddStringToObject(o, "name", p->name);
		cJSON_AddStringToObject(o, "summary", p->summary);
		ids = cJSON_AddArrayToObject(o, "ids");
		for (k = 0; p->ids && p->ids[k]; k++)
			cJSON_AddItemToArray(ids, cJSON_CreateString(p->ids[k]));
		cJSON_AddItemToArray(arr, o);
	}
	return doc;
}

const struct probe *probe_find(const char *name)
{
	size_t i;

	for (i = 0; probe_table[i]; i++)
		if (!strcmp(probe_table[i]->name, name))
			return probe_table[i];
	return NULL;
}

struct check *plan_add(struct plan *plan, const struct probe *probe,
		       const char *id, const char *title, struct origin source,
		       const void *arg, size_t index)
{
	struct check *c;

	grow(&plan->checks, sizeof(*plan->checks), &plan->cap, plan->n + 1);
	c = &plan->checks[plan->n++];
	c->probe = probe;
	if (plan->ws) {
		struct buf b = BUF_INIT;

		buf_printf(&b, "%s:%s", plan->ws, id);
		c->id = buf_detach(&b);
	} else {
		c->id = xstrdup(id);
	}
	c->title = xstrdup(title);
	c->source = source;
	c->arg = arg;
	c->index = index;
	c->spec = plan->spec;
	c->workspace = plan->ws;
	c->volatile_state = probe->volatile_state;
	return c;
}

int plan_id_taken(const struct plan *plan, const char *id)
{
	size_t i, n = plan->ws ? strlen(plan->ws) : 0;

	for (i = 0; i < plan->n; i++) {
		const struct check *c = &plan->checks[i];

		if (c->workspace != plan->ws &&
		    (!c->workspace || !plan->ws || strcmp(c->workspace, plan->ws)))
			continue;
		if (!strcmp(c->id + (n ? n + 1 : 0), id))
			return 1;
	}
	return 0;
}

void plan_release(struct plan *plan)
{
	size_t i;

	for (i = 0; i < plan->n; i++) {
		free(plan->checks[i].id);
		free(plan->checks[i].title);
	}
	free(plan->checks);
	plan->checks = NULL;
	plan->n = plan->cap = 0;
}
