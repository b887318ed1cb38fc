/* specfile.h - what the source loaders (spec_*.c) share.
 *
 * Each spec source is one loader listed once in sources.def; spec_load
 * calls them in that order, so later sources see what earlier ones set
 * (preflight.yaml first: it can name the env files the env loader reads).
 */
#ifndef EP_SPECFILE_H
#define EP_SPECFILE_H

#include "spec.h"
#include "util.h"

/* A loader gets the spec being built.  It reads the files it knows
 * (spec_read), adds requirements, and returns 0, or -1 with err filled
 * (already prefixed with file:line:column). */
struct spec_source {
	const char *name;		/* for messages: "preflight.yaml" */
	const char *const *files;	/* the names it looks for, NULL-terminated */
	int (*load)(struct spec *spec, struct errbuf *err);
};

#define SOURCE(name) extern const struct spec_source source_##name;
#include "sources.def"
#undef SOURCE

/* Read root/name as a spec file: size cap, symlinks must resolve inside
 * the root, text must be UTF-8 without NUL (a UTF-8 BOM is dropped).
 * Returns 1 and fills out (and records the file in spec->files), 0 when
 * the file does not exist, -1 with err filled. */
int spec_read(struct spec *spec, const char *name, struct blob *out,
	      struct errbuf *err);

/* The first of names that exists under the root, or NULL. */
const char *spec_first_existing(const struct spec *spec, const char *const *names);

/* err = "file:line:col: message" */
void spec_error(struct errbuf *err, const char *file, unsigned line,
		unsigned col, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* 1 when s is a name dotenv accepts as a key ([A-Za-z0-9_.-]+) */
int env_key_valid(const char *s);

#endif
