/* audit.h - one audit of one repository: load the model, plan, run, and
 * the report to render, as the command line and the MCP server run it.
 *
 * The caller owns struct audit and releases it with audit_release, unless
 * a check was abandoned at the deadline (a->abandoned): a stuck worker may
 * still read the model then, so it is left alone until the process ends.
 */
#ifndef EP_AUDIT_H
#define EP_AUDIT_H

#include "config.h"
#include "probe.h"
#include "render.h"
#include "spec.h"
#include "version.h"

#define DEFAULT_TIMEOUT_MS 3000
/* A repository may set its own deadline, but may not buy itself more
 * than this inside a harness; only the caller can go further. */
#define REPO_TIMEOUT_MAX_MS 30000
/* --wait: how long at most, and the default pause between rounds */
#define WAIT_MAX_MS 3600000
#define DEFAULT_INTERVAL_MS 250

/* Where an effective option came from: JSON run.options.*.from
 * ("default", "command line", "tool call" for the MCP server's
 * arguments, or file:line). */
enum opt_from { FROM_DEFAULT, FROM_CLI, FROM_CONFIG, FROM_REPO, FROM_CALL };

struct audit_opts {
	const char *dir;		/* NULL: "." */
	enum root_from dir_from;	/* how dir was chosen */
	const char *dir_note;		/* why the search for a work tree's
					 * top stopped short, or NULL
					 * (gittop_from_cwd) */
	const char *only, *skip;	/* comma lists of probe names, or NULL */
	enum format format;
	enum opt_from format_from, strict_from, timeout_from, probes_from;
	long timeout_ms;		/* the caller's (timeout_from FROM_CLI or
					 * FROM_CALL: may exceed the repository's cap) */
	int strict;
	int exit_zero;			/* --exit-zero: the exit status is 0
					 * when checks fail or nothing is
					 * audited (the report still says so) */
	int no_config;			/* the user's config.ini was not read */
	int no_workspaces;		/* --no-workspaces: no discovery */
	const char *workspace;		/* --workspace=PATH, or NULL */
	/* --wait: run the checks that waiting can change again until they
	 * pass or wait_ms (counted from the run's start) runs out, pausing
	 * interval_ms between rounds (0: DEFAULT_INTERVAL_MS, at most
	 * wait_ms); wait_ms 0: no wait */
	long wait_ms, interval_ms;
	enum opt_from wait_from, interval_from;
	/* Called before each pause with the first check still waited for
	 * and how many are, and the time since the start; and once, pending
	 * NULL, when the wait is over.  NULL: nothing to call (the MCP
	 * server). */
	void (*progress)(void *arg, const struct result *pending, size_t n,
			 double elapsed_ms);
	void *progress_arg;
};

/* 1 when the options leave probe p in: --only names it (or there is no
 * --only) and --skip does not.  An opt-in probe left in may still not
 * run: see audit_probe_runs. */
int audit_probe_selected(const struct audit_opts *o, const struct probe *p);
/* 1 when the options ask for probe p whatever the repository says: it is
 * selected, and an opt-in probe is named by --only.  --only and --skip
 * that leave none are a usage error. */
int audit_probe_requested(const struct audit_opts *o, const struct probe *p);
/* 1 when probe p runs in an audit of spec (NULL: not loaded): selected,
 * and for an opt-in probe (probe.h) named by --only or asked for by the
 * model. */
int audit_probe_runs(const struct audit_opts *o, const struct probe *p,
		     const struct spec *spec);

struct audit {
	struct spec spec;
	int loaded;			/* spec is valid */
	struct plan plan;
	struct result *results;		/* plan.n of them */
	size_t abandoned;		/* checks left running at the deadline */
	long timeout_ms;		/* the deadline that was used */
	char *timeout_note;		/* a clamped repository timeout, or NULL */
	struct errbuf err;		/* when the audit could not run */
	struct report_error error;
	struct report_wait wait;	/* --wait's (rep.wait points here) */
	struct probe_mark marks[PROBE_COUNT];	/* each probe's run_mark,
					 * by its place in probe_table */
	struct report rep;		/* ready to render (rep.error set when it
					 * could not run; rep.run only for
					 * FORMAT_JSON) */
};

/*
 * Run one audit with options o (settings from cfg, which may be NULL,
 * fill in what o left open), counting the deadline from start (a
 * clock_ms() time).  With o->wait_ms, the checks that waiting can change
 * (struct check's volatile_state) and that fail for a reason that
 * waiting can change run again, round after round, each round under a
 * deadline of its own (timeout_ms from the round's start), until they
 * pass or wait_ms from start runs out: the audit then ends by start +
 * wait_ms + timeout_ms (plus the children's grace) at the latest.  Returns 0 with a->rep ready, or -1 when the audit
 * could not run (a->err says why, a->rep.error is set; the caller exits
 * 2).  o is updated with where each setting came from.
 */
int audit_run(struct audit *a, struct audit_opts *o, const struct config *cfg,
	      double start);
void audit_release(struct audit *a);

/* JSON error.kind for an error of kind k from loading a repository:
 * "spec-invalid", "spec-unreadable", "nothing-to-audit",
 * "repo-unreadable", else "usage" (static). */
const char *audit_error_kind(enum err_kind k);

/* An audit that could not run because of err (of kind, see struct
 * report_error) before it started: a->rep as audit_run would leave it. */
void audit_fail(struct audit *a, const struct audit_opts *o,
		const struct config *cfg, const struct errbuf *err,
		const char *kind, double start);

#endif
