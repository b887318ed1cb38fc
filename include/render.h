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

/* What --wait did (JSON "wait"). */
struct wait_ready {
	const char *id;		/* the check's id (the plan's string) */
	double after_ms;	/* from the run's start to the end of the
				 * round that found it ready */
};

struct report_wait {
	unsigned rounds;	/* 1: everything was ready at once */
	double waited_ms;	/* from the end of the first round to the end
				 * of the last (0 for one round) */
	int timed_out;		/* DURATION ran out with a check that waiting
				 * could change still failing */
	struct wait_ready *ready;	/* checks that failed at first and
					 * became ready later, in that order */
	size_t nready;
	const char **not_ready;	/* timed_out: the ids of those checks */
	size_t nnot_ready;
};

/* How the audited directory was chosen (JSON root_from). */
enum root_from {
	ROOT_FROM_CWD,		/* "cwd": no DIR, and no work tree above */
	ROOT_FROM_ARGUMENT,	/* "argument": DIR, or the MCP call's dir */
	ROOT_FROM_GIT,		/* "git": no DIR, the top of the git work tree
				 * holding the current directory (gittop.h) */
};

/* "cwd", "argument" or "git" (static). */
const char *root_from_name(enum root_from f);

struct report {
	const char *root;		/* canonical path of the repository, or
					 * NULL when it could not be found */
	const char *display_dir;	/* the DIR argument as given ("." by
					 * default), or the path up to the top
					 * found ("../..") */
	enum root_from root_from;
	const char *root_note;		/* why the search for the top stopped
					 * short (--explain), or NULL */
	const struct result *results;
	size_t n;
	double duration_ms;
	int strict;			/* warnings count as failures */
	const struct report_error *error;	/* the audit did not run, or NULL */
	cJSON *run;			/* JSON's run block (owned by the caller) */
	const struct report_wait *wait;	/* --wait, or NULL */
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
/* The annotations, then the human report with every line defused as
 * render_github_text does. */
void render_github(FILE *out, const struct report *rep, const struct render_opts *o);
/* text (lines ended by LF, CR or CR LF, kept) on out with --format=github,
 * each line changed so that the GitHub Actions runner reads no workflow
 * command in it: a backslash before a "::" that starts the line after
 * blanks, and after every "##[". */
void render_github_text(FILE *out, const char *text);
/* GitHub's job summary in Markdown: a heading, the summary line and one
 * table row per check (status, check, message, source), every text
 * escaped; main appends it to $GITHUB_STEP_SUMMARY with --format=github. */
void render_github_summary(FILE *out, const struct report *rep);
/* TAP: "TAP version 14" (version 14) or 13 (--format=tap13), the plan, a
 * test point per check, a YAML diagnostic for each that did not plainly
 * pass; "Bail out!" when the audit could not run. */
void render_tap(FILE *out, const struct report *rep, int version);

/* --wait's progress line on a terminal (out: stderr), rewritten in place
 * before each pause: "waiting for port 5432 (3.2 s)", naming the first
 * check still waited for (its title, without a trailing source) and how
 * many more, and the time since the start.  *width is the caller's, 0 at
 * first: what is on the line now, for the next call to overwrite.
 * pending NULL clears the line. */
void render_progress(FILE *out, const struct result *pending, size_t n,
		     double elapsed_ms, size_t *width);
/* That line's text, uncut and without the carriage returns (the MCP
 * server's progress notifications): a new string the caller frees. */
char *render_progress_text(const struct result *pending, size_t n,
			   double elapsed_ms);

/* The envpreflight/1 document of rep, as render_json prints it; the
 * caller frees it with cJSON_Delete. */
cJSON *report_json(const struct report *rep);

/* Any JSON document as the JSON report prints it (two-space indent). */
void render_json_value(FILE *out, const cJSON *doc);

#endif
