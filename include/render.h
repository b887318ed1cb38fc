/* render.h - one renderer per output format over the same results. */
#ifndef EP_RENDER_H
#define EP_RENDER_H

#include <stdio.h>

#include "result.h"

enum format { FORMAT_HUMAN, FORMAT_JSON, FORMAT_JUNIT, FORMAT_GITHUB };

struct report {
	const char *root;		/* canonical path of the repository */
	const char *display_dir;	/* the DIR argument as given ("." by default) */
	const struct result *results;
	size_t n;
	double duration_ms;
	int strict;			/* warnings count as failures */
};

struct render_opts {
	int color;		/* ANSI colour */
	int utf8;		/* ✔ ✖ or [ok] [FAIL] */
	int quiet;		/* failures and the summary only */
	int explain;		/* provenance lines */
};

/* 1 when the run as a whole failed: a fail or error, or a warning under strict */
int report_failed(const struct report *rep);

int format_parse(const char *s, enum format *out);

void render_human(FILE *out, const struct report *rep, const struct render_opts *o);
void render_json(FILE *out, const struct report *rep, const struct render_opts *o);
void render_junit(FILE *out, const struct report *rep, const struct render_opts *o);
void render_github(FILE *out, const struct report *rep, const struct render_opts *o);

#endif
