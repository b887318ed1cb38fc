/* init.h - `envpreflight init`: a commented preflight.yaml from what
 * discovery found.
 *
 *   init.c      the file's text from a loaded model (pure: no system call)
 *   init_cmd.c  the command line, --snapshot's versions, the atomic write
 *
 * What goes in as a line and what as a comment (the man page's INIT):
 * preflight.yaml adds to what the repository's own files declare (package.json,
 * .nvmrc, compose files, .env...), which are read again on every run.
 * Repeating them here would make a second check of each, so they are
 * comments naming file:line; the lines are what only preflight.yaml says
 * (an earlier preflight.yaml's entries, kept) and --snapshot's pins.  So
 * the file loads back to the same checks with the same verdicts.
 */
#ifndef EP_INIT_H
#define EP_INIT_H

#include <cJSON.h>

#include "spec.h"
#include "util.h"

/* A version found on this machine for one runtime the repository names
 * (--snapshot), asked by the runtimes probe under the deadline. */
struct init_pin {
	const char *name;	/* the runtime (the model's string) */
	int unmet;		/* a check of the repository's failed with it */
	char *version;		/* bare ("22.11.0"), or NULL: none found */
	char *why;		/* version NULL: why, for a comment (no path) */
	char *path;		/* the binary or socket (JSON only: never in
				 * the file, which may be committed) */
};

/* The file, and where each of its entries came from. */
struct init_doc {
	char *content;		/* the YAML text */
	cJSON *derived_from;	/* [{file, line, source, entry, written}] */
	size_t nlines;		/* entries written as lines */
	size_t ncomments;	/* requirements listed as comments */
};

/* The file for spec (loaded with spec_load_any) and the pins of
 * --snapshot (npins of them, or none).  The caller releases out. */
void init_generate(const struct spec *spec, const struct init_pin *pins,
		   size_t npins, struct init_doc *out);
void init_doc_release(struct init_doc *d);

/* The range --snapshot pins for version v of runtime name: at least v,
 * below the next major (0.x: the next minor; python: the next minor).
 * 0, or -1 when v is not a version it can pin. */
int init_pin_range(const char *name, const char *v, struct buf *out);

/* s as a YAML double-quoted scalar that libyaml reads back as exactly s
 * (escapes for every character YAML does not print, and for the line
 * breaks libyaml knows: NEL, LS, PS). */
void init_quote(struct buf *b, const char *s);

/* `envpreflight init [OPTIONS] [DIR]` (argv[0] is "init"): the exit status. */
int init_main(int argc, char **argv);

#endif
