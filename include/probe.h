/* probe.h - what a probe is.
 *
 * A probe is a const descriptor listed once in probes.def.  Before any
 * thread starts, the runner asks each selected probe to plan its checks
 * from the model; each planned check is one work item that runs on the
 * thread pool.  Adding a probe takes three things: its source file
 * (src/probe_NAME.c, the descriptor below), one line in probes.def, and
 * its id patterns in the man page's CHECK IDS and the schema's $defs/id.
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
	/* NULL for a probe that runs unless --skip names it.  An opt-in
	 * probe runs only when --only names it, or when opt_in(spec) says
	 * the repository asked for it (the sandbox probe: preflight.yaml has
	 * `sandbox:`); its plan is then asked as any other's.  Only audit.c
	 * decides this (audit_probe_runs). */
	int (*opt_in)(const struct spec *spec);
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
};

struct plan {
	struct check *checks;
	size_t n, cap;
};

/* Add a check; id and title are copied.  Returns the new check. */
struct check *plan_add(struct plan *plan, const struct probe *probe,
		       const char *id, const char *title, struct origin source,
		       const void *arg, size_t index);
void plan_release(struct plan *plan);

/* The registered probes, in report order, NULL-terminated. */
extern const struct probe *const probe_table[];
const struct probe *probe_find(const char *name);

#define PROBE(name) extern const struct probe probe_##name;
#include "probes.def"
#undef PROBE

#endif
