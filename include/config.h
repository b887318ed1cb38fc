/* config.h - the user's defaults from $XDG_CONFIG_HOME/envpreflight/config.ini
 * (or ~/.config/envpreflight/config.ini), read with libinih.
 *
 *   [defaults]            ; the section line is optional
 *   format = human        ; human | json | junit | github
 *   color = auto          ; auto | always | never
 *   timeout = 3000        ; milliseconds
 *   strict = false
 */
#ifndef EP_CONFIG_H
#define EP_CONFIG_H

#include "format.h"
#include "util.h"

enum color_mode { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };

struct config {
	enum format format;
	enum color_mode color;
	long timeout_ms;	/* 0: not set */
	int strict;
	char *path;		/* the file read, or NULL */
	/* the line that set each value, 0 when the file did not: the run
	 * block says where each effective option came from */
	unsigned format_line, color_line, timeout_line, strict_line;
};

/* Fill c with defaults, then the file's settings if it exists.  Returns
 * 0, or -1 with err as "path:line: message" (the caller exits 2). */
int config_load(struct config *c, struct errbuf *err);
void config_release(struct config *c);

#endif
