/* probe.h - what a probe is.
 *
 * A probe is a const descriptor listed once in probes.def.  Before any
 * thread starts, the runner asks each selected probe to plan its checks
 * from the model; each planned check is one work item that runs on the
 * thread pool.  Adding a probe is one source file plus one line in
 * probes.def.
 */
#ifndef EP_PROBE_H
#define EP_PROBE_H

#include "result.h"
#include "spec.h"

struct check;
struct plan;

struct run_memo;

/* Given to every check when it runs. */
struct run_ctx {
	const struct spec *spec;
	double deadline_ms;	/* absolute clock_ms() time the check must end by */
	struct run_memo *memo;	/* owned by the runner: see run_once */
};

/* Work several checks of one run share (one read of the socket tables for
 * every port, one exec of node for every node requirement): the first
 * check to ask for key runs make(ctx, arg) while later ones wait for its
 * value.  The value lives until the run's last thread is gone, then
 * release(value) frees it.  key is copied; make must not call run_once. */
void *run_once(const struct run_ctx *ctx, const char *key,
	       void *(*make)(const struct run_ctx *ctx, const void *arg),
	       const void *arg, void (*release)(void *value));

struct probe {
	const char *name;	/* "env": --only/--skip and ids use it */
	const char *summary;	/* one line for --list-probes */
	/* Add this probe's checks for spec to the plan (see plan_add).
	 * Must not block or touch the system beyond the model. */
	void (*plan)(const struct spec *spec, struct plan *plan);
	/* Run one check.  r->id, probe, title and source are set from the
	 * planned check; run sets status, message and the rest. */
	void (*run)(const struct run_ctx *ctx, const struct check *c,
		    struct result *r);
	/* Whether its results can change while we wait (ports: yes), for a
	 * future --wait. */
	int volatile_state;
	/* The id patterns its checks can have, NULL-terminated, as the man
	 * page's CHECK IDS grammar writes them ("ports.tcp.PORT[-LAST]"):
	 * --list-probes --format=json lists them. */
	const char *const *ids;
};

/* One planned check.  arg points into the read-only model, or is an
 * index the probe understands. */
struct check {
	const struct probe *probe;
	char *id;
	char *title;
	struct origin source;
	const void *arg;
	size_t index;
	const struct spec *spec;	/* the model it was planned from (a
					 * workspace's, or NULL: the run's);
					 * it runs with ctx->spec = spec */
	const char *workspace;		/* that model's spec->dir, or NULL */
};

/* The checks of a run.  spec and ws are the caller's: before it asks a
 * probe to plan a workspace's model, it sets spec to that model and ws to
 * its directory, and plan_add tags each check with them and prefixes its
 * id ("apps/web:env.parity"), so that no probe needs to know about
 * workspaces to plan for one. */
struct plan {
	struct check *checks;
	size_t n, cap;
	const struct spec *spec;	/* NULL: the run's model */
	const char *ws;			/* NULL: the repository */
};

/* Add a check; id and title are copied (id after the workspace prefix).
 * Returns the new check. */
struct check *plan_add(struct plan *plan, const struct probe *probe,
		       const char *id, const char *title, struct origin source,
		       const void *arg, size_t index);
/* 1 when id (as a probe writes it, without the prefix) is planned
 * already for the model being planned. */
int plan_id_taken(const struct plan *plan, const char *id);
void plan_release(struct plan *plan);

/* The registered probes, in report order, NULL-terminated. */
extern const struct probe *const probe_table[];
const struct probe *probe_find(const char *name);

#define PROBE(name) extern const struct probe probe_##name;
#include "probes.def"
#undef PROBE

#endif
