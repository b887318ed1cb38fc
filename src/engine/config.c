/* config.c - user defaults, via libinih */
#include "config.h"
#include "saferead.h"

#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct ini_ctx {
	struct config *c;
	char msg[256];		/* the first error, inih gives the line */
	const char *text, *pos;	/* what the reader hands inih, line by line */
	unsigned line;		/* of the line inih is on */
	int at_bol;		/* the last piece ended a line */
};

/* An fgets for inih over the file's text, counting lines, so that the
 * run block can say which line set each value. */
static char *ini_read(char *str, int num, void *stream)
{
	struct ini_ctx *x = stream;
	int n = 0;

	if (!*x->pos || num < 2)
		return NULL;
	if (x->at_bol)
		x->line++;
	while (n < num - 1 && x->pos[n] && x->pos[n] != '\n')
		n++;
	if (n < num - 1 && x->pos[n] == '\n')
		n++;
	memcpy(str, x->pos, (size_t)n);
	str[n] = '\0';
	x->at_bol = str[n - 1] == '\n';
	x->pos += n;
	return str;
}

static int parse_bool(const char *v, int *out)
{
	if (!strcmp(v, "true") || !strcmp(v, "yes") || !strcmp(v, "1") || !strcmp(v, "on"))
		return *out = 1, 0;
	if (!strcmp(v, "false") || !strcmp(v, "no") || !strcmp(v, "0") || !strcmp(v, "off"))
		return *out = 0, 0;
	return -1;
}

/* inih calls this per name=value; returning 0 makes it report the line */
static int on_value(void *user, const char *section, const char *name, const char *value)
{
	struct ini_ctx *x = user;
	struct config *c = x->c;

	if (x->msg[0])
		return 1;	/* keep the first error only */
	if (*section && strcmp(section, "defaults")) {
		snprintf(x->msg, sizeof(x->msg), "unknown section [%.64s] (expected [defaults])",
			 section);
		return 0;
	}
	if (!strcmp(name, "format")) {
		if (format_parse(value, &c->format) == 0)
			return c->format_line = x->line, 1;
		snprintf(x->msg, sizeof(x->msg), "'format' expects %s", format_names_text());
	} else if (!strcmp(name, "color")) {
		c->color_line = x->line;
		if (!strcmp(value, "auto"))
			return c->color = COLOR_AUTO, 1;
		if (!strcmp(value, "always"))
			return c->color = COLOR_ALWAYS, 1;
		if (!strcmp(value, "never"))
			return c->color = COLOR_NEVER, 1;
		snprintf(x->msg, sizeof(x->msg), "'color' expects auto, always or never");
	} else if (!strcmp(name, "timeout")) {
		if (parse_long(value, 1, 600000, &c->timeout_ms) == 0)
			return c->timeout_line = x->line, 1;
		snprintf(x->msg, sizeof(x->msg), "'timeout' expects milliseconds from 1 to 600000");
	} else if (!strcmp(name, "strict")) {
		if (parse_bool(value, &c->strict) == 0)
			return c->strict_line = x->line, 1;
		snprintf(x->msg, sizeof(x->msg), "'strict' expects true or false");
	} else {
		char *clean = text_clean(name);

		snprintf(x->msg, sizeof(x->msg),
			 "unknown key '%.64s' (expected format, color, timeout, strict)", clean);
		free(clean);
	}
	return 0;
}

static char *config_path(void)
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	char *dir, *path;

	if (xdg && xdg[0] == '/')
		dir = path_join(xdg, "envpreflight");
	else if (home && home[0] == '/')
		dir = path_join(home, ".config/envpreflight");
	else
		return NULL;
	path = path_join(dir, "config.ini");
	free(dir);
	return path;
}

int config_load(struct config *c, struct errbuf *err)
{
	/* the user's own file: wherever a symlink leads, but text, capped,
	 * and never a FIFO */
	static const struct saferead_policy policy = {
		SAFEREAD_ANYWHERE, SAFEREAD_NO_NUL, SPEC_FILE_CAP
	};
	struct saferead_error why;
	struct ini_ctx x;
	struct blob b;
	char *path;
	int line;

	memset(c, 0, sizeof(*c));
	c->format = FORMAT_HUMAN;
	c->color = COLOR_AUTO;
	path = config_path();
	if (!path)
		return 0;
	if (saferead_file(&policy, NULL, path, &b, &why) < 0) {
		struct stat st;
		int e = why.code;

		/* optional: absent, or behind a directory we may not enter
		 * (a HOME of another user), is the same as no file */
		if (e == ENOENT || e == ENOTDIR || (e == EACCES && stat(path, &st) < 0)) {
			free(path);
			return 0;
		}
		if (e == EILSEQ) {
			err_set(err, "%s: NUL byte (expected text)", path);
			err->kind = ERRK_INVALID;
		} else {
			err_set(err, "%s: %s", path, saferead_strerror(e));
			err->kind = ERRK_UNREADABLE;
		}
		snprintf(err->file, sizeof(err->file), "%s", path);
		free(path);
		return -1;
	}
	memset(&x, 0, sizeof(x));
	x.c = c;
	x.text = x.pos = b.data;
	x.at_bol = 1;
	line = ini_parse_stream(ini_read, &x, on_value, &x);
	if (line != 0) {
		const char *what = x.msg[0] ? x.msg :
				   "malformed line (expected name = value)";

		err_set(err, "%s:%d: %s", path, line > 0 ? line : 0, what);
		err->kind = ERRK_INVALID;
		snprintf(err->file, sizeof(err->file), "%s", path);
		err->line = line > 0 ? (unsigned)line : 0;
		err->what = strlen(err->msg) - strlen(what);
		goto fail;
	}
	blob_release(&b);
	c->path = path;
	return 0;
fail:
	blob_release(&b);
	free(path);
	return -1;
}

void config_release(struct config *c)
{
	free(c->path);
	c->path = NULL;
}
