/* spec_urls.c - local services the .env points at.
 *
 * A key whose name ends in _URL or _URI (DATABASE_URL, REDIS_URL, and
 * MONGODB_URI, which is MongoDB's own convention) and whose value is a URL
 * naming this machine (localhost, 127.0.0.0/8, ::1, 0.0.0.0, ::) gives a
 * PORT_LISTENING requirement: the service must be up.  The winning
 * assignment of each key is used, as dotenv would.
 *
 * The .env is the user's secrets file: the env loader has parsed it, and
 * nothing of its values is kept here.  A requirement carries the key name
 * (service) and the key's line; its file is interned, not recorded as a
 * spec file, so a .env alone never makes a repository auditable.  Whatever
 * is wrong with the .env is the env probe's to report: this loader never
 * fails.
 */
#include "specfile.h"
#include "portspec.h"

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

	(void)err;
	if (!e->env_errno)
		add_urls(spec, &e->env_doc, e->file);
	return 0;
}

const struct spec_source source_urls = {
	.name = ".env URLs",
	.files = none,
	.load = urls_load,
};
