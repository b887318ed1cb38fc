/* probe.h - what a probe is.
 *
 * A probe is a const descriptor listed once in probes.def.  Before any
 * thread starts, the runner asks each selected probe to plan its checks
 * from the model; each planned check is one work item that runs on the
 * thread pool.
 *
 * What adding a probe takes, as it really is (in the manner of git's
 * builtin.h).  Two edits are the probe; what follows them is written by
 * hand because no program can say it, and a test fails until it is:
 *
 *  1. src/probes/probe_NAME.c defines `const struct probe probe_NAME` with
 *     .name, .summary, .plan, .run and .ids: every id pattern its checks
 *     can have, the variable words in capitals ("ports.tcp.PORT-LAST",
 *     "runtime.NAME.SOURCE"; test_probes checks the ids it plans fit
 *     them).  plan only reads the model; run fills the result: status,
 *     message, `reason` for anything but a pass (a word of REASONS in
 *     result.h: append one if none fits), hint, a fix where the remedy is
 *     known, data.  It never prints or exits.  A run that may block until
 *     the deadline (a program, a socket) first publishes what it would
 *     say if cut off (run_publish), and starts processes with
 *     spawn_run_for(ctx->check, ...).  The Makefile finds the file.
 *  2. One line PROBE(NAME) in include/probes.def, where its checks go in
 *     the report.  A probe that only a request runs (sandbox) sets
 *     .opt_in; audit.c alone decides with it.
 *     From these two come, with no edit: probe_table and the externs,
 *     --list-probes (and --format=json, with .ids), the MCP tool
 *     list_probes, --only/--skip and their messages, the shell
 *     completions of --only/--skip (they ask --list-probes), the run
 *     block's options.probes, and every test that names the probes
 *     (test_probes' self-test on an empty repository, test_mcp, the MCP
 *     SDK client, cli.sh, completions.sh, contract.sh, docs.sh read the
 *     registry).
 *  3. If it needs something the model does not hold yet: the fields in
 *     include/spec.h, set by a loader (a src/model/spec_*.c listed in
 *     src/model/sources.def, or an existing one), with a typed source
 *     (enum req_source) on every requirement; if the repository can
 *     configure it, its key in src/model/spec_preflight.c (strict: unknown
 *     keys are errors).
 *  4. By hand, src/schema/envpreflight-1.schema.json: its ids in the
 *     pattern of $defs/id (contract.sh fails on an id pattern of .ids it
 *     does not admit); the shape of its data, an if/then on "probe" (the
 *     suite validates every report against the schema); a new reason in
 *     $defs/reason as in result.h (docs.sh fails when they differ).
 *  5. By hand, man/envpreflight.1 (docs.sh fails on any of these missing):
 *     an item (.TP, .B NAME) under DESCRIPTION's Probes; its id patterns,
 *     as .ids writes them, in CHECK IDS's list by probe (and the grammar
 *     above it); its data under JSON: every property name and enum value
 *     the schema gains; a new reason's item under REASONS.  And README.md:
 *     an item "- **NAME** — ..." under "## Probes" (docs.sh checks it).
 *  6. Tests: a golden case, tests/cases/NAME-.../ (see tests/cases/README:
 *     a fixture and args by hand, the expected output written by the next
 *     command).  Then `make golden UPDATE=1` rewrites every case the probe
 *     changes (one that runs by default joins run.options.probes of every
 *     JSON case, and any check it plans joins that report): review
 *     `git diff tests/cases` before committing it.  A parser of its own
 *     gets a table-driven tests/unit/test_*.c (the Makefile finds it).
 */
#ifndef EP_PROBE_H
#define EP_PROBE_H

#include "result.h"
#include "spec.h"

struct check;
struct plan;

struct run_memo;
struct run_job;

/* A probe's note of process-wide state when an audit starts (see
 * probe.run_mark): small and opaque to the engine. */
struct probe_mark {
	unsigned n[4];
};

/* Given to every check when it runs: one for each check. */
struct run_ctx {
	const struct spec *spec;
	double deadline_ms;	/* absolute clock_ms() time the check must end by */
	struct run_memo *memo;	/* owned by the runner: see run_once */
	const struct check *check;	/* the check this context runs */
	struct run_job *job;	/* the runner's: see run_publish */
};

/* Publish what this check would report should the run's deadline cut it
 * off from now on: a copy of r as it stands (status, message, hint, notes,
 * data), replacing any earlier one.  A check that may block until the
 * deadline calls it first, so that a check the deadline cuts off keeps its
 * data and says what it was waiting for (the runner adds the time it ran,
 * and a hint when r has none); its own result, when it comes in time,
 * replaces it as usual.  r stays the caller's.  A no-op outside the
 * runner (ctx->job NULL). */
void run_publish(const struct run_ctx *ctx, const struct result *r);

/* Work several checks of one run share (one read of the socket tables for
 * every port, one exec of node for every node requirement): the first
 * check to ask for key runs make(ctx, arg), with its own ctx, while later
 * ones wait for its value.  The value lives until the run's last thread
 * is gone, then release(value) frees it.  key is copied; make must not
 * call run_once. */
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
	/* Whether its checks' results can change while we wait (ports:
	 * yes): the default that plan_add gives each check, which its plan
	 * may change on the check plan_add returns (see struct check). */
	int volatile_state;
	/* The id patterns its checks can have, NULL-terminated, the variable
	 * words in capitals ("ports.tcp.PORT-LAST"), as the man page's CHECK
	 * IDS lists them by probe: --list-probes --format=json lists them. */
	const char *const *ids;
	/* NULL for a probe that runs unless --skip names it.  An opt-in
	 * probe runs only when --only names it, or when opt_in(spec) says
	 * the repository asked for it (the sandbox probe: preflight.yaml has
	 * `sandbox:`); its plan is then asked as any other's.  Only audit.c
	 * decides this (audit_probe_runs). */
	int (*opt_in)(const struct spec *spec);
	/* What the probe says of the whole run, under run_key in the JSON
	 * report's run block (the runtimes probe: its version cache), or
	 * NULL.  run_mark notes the process-wide state when an audit starts
	 * (an MCP server runs many audits in one process); run_json gives
	 * this audit's share from that note.  The engine names no probe: it
	 * asks each of the table that has a run_key. */
	const char *run_key;
	void (*run_mark)(struct probe_mark *m);
	cJSON *(*run_json)(const struct probe_mark *m);
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
	/* 1 when waiting can change its result (a port, the docker
	 * daemon): --wait runs it again until it passes.  Decided when it
	 * is planned: the probe's volatile_state, or its plan's word for
	 * this check (a UDP port, a URL with no valid port: 0). */
	int volatile_state;
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
/* {"schema": "envpreflight-probes/1", "probes": [{name, summary, ids}]}:
 * --list-probes --format=json and the MCP tool list_probes.  The caller
 * frees it with cJSON_Delete. */
cJSON *probe_list_json(void);

#define PROBE(name) extern const struct probe probe_##name;
#include "probes.def"
#undef PROBE

/* How many probe_table holds (without its NULL). */
enum {
#define PROBE(name) PROBE_INDEX_##name,
#include "probes.def"
#undef PROBE
	PROBE_COUNT
};

#endif
