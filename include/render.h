/* render.h - one renderer per output format over the same results. */
#ifndef EP_RENDER_H
#define EP_RENDER_H

#include <stdio.h>

#include "format.h"
#include "result.h"

/* Why the audit could not be run as asked (exit 2): JSON's error. */
struct report_error {
	const char *kind;	/* "usage", "nothing-to-audit", "spec-invalid",
				 * "spec-unreadable", "repo-unreadable",
				 * "config-invalid" */
	const char *file;	/* NULL when no file is at fault */
	unsigned line, col;	/* 0 when unknown */
	const char *message;	/* without the file:line:col prefix */
};

struct report {
	const char *root;		/* canonical path of the repository, or
					 * NULL when it could not be found */
	const char *display_dir;	/* the DIR argument as given ("." by default) */
	const struct result *results;
	size_t n;
	double duration_ms;
	int strict;			/* warnings count as failures */
	const struct report_error *error;	/* the audit did not run, or NULL */
	cJSON *run;			/* JSON's run block (owned by the caller) */
};

/* JSON's outcome: "passed", "failed", "not-run" or "nothing-to-check". */
const char *report_outcome(const struct report *rep);

struct render_opts {
	int color;		/* ANSI colour */
	int utf8;		/* ✔ ✖ or [ok] [FAIL] */
	int quiet;		/* failures and the summary only */
	int explain;		/* provenance lines */
};

/* 1 when the run as a whole failed: a fail or error, or a warning under strict */
int report_failed(const struct report *rep);

void render_human(FILE *out, const struct report *rep, const struct render_opts *o);
void render_json(FILE *out, const struct report *rep, const struct render_opts *o);
void render_junit(FILE *out, const struct report *rep, const struct render_opts *o);
void render_github(FILE *out, const struct report *rep, const struct render_opts *o);
/* GitHub's job summary in Markdown: a heading, the summary line and one
 * table row per check (status, check, message, source), every text
 * escaped; main appends it to $GITHUB_STEP_SUMMARY with --format=github. */
void render_github_summary(FILE *out, const struct report *rep);
/* TAP: "TAP version 14" (version 14) or 13 (--format=tap13), the plan, a
 * test point per check, a YAML diagnostic for each that did not plainly
 * pass; "Bail out!" when the audit could not run. */
void render_tap(FILE *out, const struct report *rep, int version);

/* The envpreflight/1 document of rep, as render_json prints it; the
 * caller frees it with cJSON_Delete. */
cJSON *report_json(const struct report *rep);

/* Any JSON document as the JSON report prints it (two-space indent). */
void render_json_value(FILE *out, const cJSON *doc);

#endif
