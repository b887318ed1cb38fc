/* result.h - the outcome of one check, filled by a probe, read by renderers.
 *
 * Probes never print: they fill a struct result, and one renderer per
 * output format reads the whole list after every thread has finished.
 */
#ifndef EP_RESULT_H
#define EP_RESULT_H

#include <cJSON.h>

#include "spec.h"

enum status { STATUS_PASS, STATUS_WARN, STATUS_FAIL, STATUS_SKIP, STATUS_ERROR };
#define STATUS_COUNT 5

/* "pass", "warn", ... as in the JSON schema */
const char *status_name(enum status s);

struct result {
	char *id;		/* stable, unique: "env.parity", "ports.tcp.5432" */
	const char *probe;	/* the probe's name (static) */
	enum status status;
	char *title;		/* "Port 5432" */
	char *message;		/* one line; never holds a .env value */
	char *hint;		/* what to do about it, or NULL */
	struct origin source;	/* where the requirement came from */
	char **notes;		/* --explain lines, e.g. further sources */
	size_t nnotes;
	cJSON *data;		/* probe-specific details for JSON, or NULL */
	double duration_ms;
};

/* Setters take printf formats and own what they store. */
void result_set(struct result *r, enum status s, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void result_hint(struct result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void result_note(struct result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void result_release(struct result *r);
/* Name a child process the check started that could not be reaped
 * (killed, but stopped in the kernel): appended to the message, and to
 * data's "unreaped" list when data is an object. */
void result_unreaped(struct result *r, int pid, const char *program,
		     double ran_ms);
/* A deep copy of r into *dst (which is overwritten, not released). */
void result_copy(struct result *dst, const struct result *r);

#endif
