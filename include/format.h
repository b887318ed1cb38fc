/* format.h - the output formats, named once for the command line, the
 * user's config.ini and the renderers. */
#ifndef EP_FORMAT_H
#define EP_FORMAT_H

/* tap is TAP version 14; tap13 the same stream announced as version 13,
 * for harnesses that refuse a later version (prove of Test::Harness 3.44,
 * as in Debian 12): TAP 14 keeps to what TAP 13 parsers read, but for the
 * version line.  A new format: a name below (render.c's format_names),
 * its renderer, main.c's render(), the schema's run.options.format enum,
 * the three completions in src/completions/ and the man page's OPTIONS. */
enum format { FORMAT_HUMAN, FORMAT_JSON, FORMAT_JUNIT, FORMAT_GITHUB, FORMAT_TAP,
	      FORMAT_TAP13 };

/* The names of every format for a message: "human, json, junit, github,
 * tap or tap13" (static). */
const char *format_names_text(void);
/* "human", "json", ... into *out: 0, or -1 for a name that is none. */
int format_parse(const char *s, enum format *out);
/* The name of f (static). */
const char *format_name(enum format f);

#endif
