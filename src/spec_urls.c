/* spec_urls.c - local services the .env points at.
 *
 * A key whose name ends in _URL or _URI (DATABASE_URL, REDIS_URL, and
 * MONGODB_URI, which is MongoDB's own convention) and whose value is a URL
 * naming this machine (localhost, 127.0.0.0/8, ::1, 0.0.0.0, ::) gives a
 * PORT_LISTENING requirement: the service must be up.  The winning
 * assignment of each key is used, as dotenv would.
 *
 * The .env is the user's secrets file: its values are parsed here and
 * nothing of them is kept.  A requirement carries the key name (service)
 * and the key's line; its file is interned, not recorded as a spec file,
 * so a .env alone never makes a repository auditable.  Whatever is wrong
 * with the .env is the env probe's to report: this loader never fails.
 */
#include "specfile.h"
#include "portspec.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const none[] = { NULL };

/* Whether key names a URL: "..._URL" or "..._URI", any case. */
static int url_key(const char *key)
{
	size_t n = strlen(key);

	return n > 4 && (!strcasecmp(key + n - 4, "_URL") ||
			 !strcasecmp(key + n - 4, "_URI"));
}

static void add_urls(struct spec *spec, const struct dotenv *d, const char *name)
{
	const char *file = NULL;
	size_t i;

	for (i = 0; i < d->n; i++) {
		const struct dotenv_entry *e = &d->entries[i];
		struct origin o;
		unsigned port;

		if (!url_key(e->key) || dotenv_is_shadowed(d, i) || !e->value_len ||
		    memchr(e->value, '\0', e->value_len) ||
		    portspec_local_url(e->value, &port, NULL) != 1)
			continue;
		if (!file)
			file = spec_intern(spec, name);
		o.file = file;
		o.line = e->line;
		o.col = e->col;
		spec_add_port(spec, port, PORT_LISTENING, o, e->key);
	}
}

static int urls_load(struct spec *spec, struct errbuf *err)
{
	const struct env_spec *e = &spec->env;
	const char *name = e->file ? e->file : ".env";
	struct dotenv own;
	struct blob b;
	char *path;

	(void)err;
	/* read already when the env probe has something to compare */
	if (e->file_abs) {
		if (!e->env_errno)
			add_urls(spec, &e->env_doc, name);
		return 0;
	}
	path = path_join(spec->root, name);
	if (file_read(path, SPEC_FILE_CAP, &b) < 0) {
		free(path);
		return 0;
	}
	free(path);
	/* as load_dotenv does: text that is not clean UTF-8 is still parsed */
	dotenv_parse(b.data, b.len, &own);
	explicit_bzero(b.data, b.len);
	blob_release(&b);
	add_urls(spec, &own, name);
	dotenv_release(&own);
	return 0;
}

const struct spec_source source_urls = {
	.name = ".env URLs",
	.files = none,
	.load = urls_load,
};
