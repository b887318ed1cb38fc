/* format.h - the output formats, named once for the command line, the
 * user's config.ini and the renderers. */
#ifndef EP_FORMAT_H
#define EP_FORMAT_H

enum format { FORMAT_HUMAN, FORMAT_JSON, FORMAT_JUNIT, FORMAT_GITHUB };

/* "human", "json", ... into *out: 0, or -1 for a name that is none. */
int format_parse(const char *s, enum format *out);
/* The name of f (static). */
const char *format_name(enum format f);

#endif
