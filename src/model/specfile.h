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
	const char *name;		/* for messages: "version files" */
	const char *const *files;	/* the names it looks for, NULL-terminated */
	int (*load)(struct spec *spec, struct errbuf *err);
	/* frees what load put into the model beyond the common parts, or
	 * NULL (spec_release calls it, so spec.c names no loader) */
	void (*release)(struct spec *spec);
};

#define SOURCE(name) extern const struct spec_source source_##name;
#include "sources.def"
#undef SOURCE

/* Read root/name as a spec file, with saferead.h's spec policy: a
 * regular file under the size cap, opened before it is judged, symlinks
 * only while they stay inside the root, UTF-8 without NUL (a UTF-8 BOM is
 * dropped).  Returns 1 and fills out (and records the file in
 * spec->files), 0 when the file does not exist, -1 with err filled. */
int spec_read(struct spec *spec, const char *name, struct blob *out,
	      struct errbuf *err);

/* Once every source is loaded: one port_record per port (spec_ports.c). */
void spec_resolve_ports(struct spec *spec);

/* The first of names that exists in the model's directory (the
 * repository's root, or a workspace's directory), or NULL. */
const char *spec_first_existing(const struct spec *spec, const char *const *names);

/* The repository-relative name of name, a file of the model's directory:
 * name itself for the repository, "apps/web/name" for a workspace.  A new
 * string.  Loaders read and record every file under this name, so that
 * origins are repository-relative whichever model they belong to. */
char *spec_rel(const struct spec *spec, const char *name);

/* One directory's model, the repository's top: every loader run on dir
 * (spec_repo.c adds the workspaces and resolves the ports).  0, or -1
 * with err filled (spec released). */
int spec_load_root(const char *dir, struct spec *spec, struct errbuf *err);
/* What one directory's model owns, without its workspaces. */
void spec_release_dir(struct spec *spec);
/* 1 with err filled ("nothing to audit in DIR: looked for ...") when the
 * model and its workspaces read no spec file and any is 0; else 0.
 * workspaces: the workspace manifests were looked for too. */
int spec_nothing_found(const struct spec *spec, const char *dir, int any,
		       int workspaces, struct errbuf *err);

/* A workspace's model (spec_workspaces.h): loaded with every loader but
 * preflight.yaml's, from parent->root/dir, with parent as its parent.
 * dir must outlive child.  0, or -1 with err filled (child released). */
int spec_load_child(const struct spec *parent, const char *dir,
		    struct spec *child, struct errbuf *err);

/* err = "file:line:col: message" */
void spec_error(struct errbuf *err, const char *file, unsigned line,
		unsigned col, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* 1 when s is a name dotenv accepts as a key ([A-Za-z0-9_.-]+) */
int env_key_valid(const char *s);

/* 1 when s may name a runtime or a tool: [A-Za-z0-9_.+-]+, not starting
 * with '-' or '.', so that it is never an option and fits a check id. */
int spec_name_valid(const char *s);

/* ---- JSON positions (spec_package.c) ----
 * cJSON keeps no positions: these walk the text, which cJSON has already
 * found valid, once more. */

/* Offset of the key path[0].path[1]... (its opening quote), or -1. */
long json_locate(const char *s, size_t len, const char *const *path, size_t depth);
/* The offsets of the items of the array that is the value of the key at
 * offset key, in order, at most max of them: how many were stored (0
 * when the value is not an array). */
size_t json_items(const char *s, size_t len, size_t key, size_t *offs,
		  size_t max);

/* ---- the YAML sources (preflight.yaml, compose files) ---- */

struct ynode;

/* A YAML spec file being loaded; the loader owns it.  file is the
 * spec-owned name, set by yload_read. */
struct yload {
	struct spec *spec;
	const char *file;
	struct errbuf *err;
};

/* Read root/name as spec_read does and parse it: 1 with *root (the
 * caller frees it with ynode_free; NULL for an empty document), 0 when
 * the file does not exist, -1 with y->err filled. */
int yload_read(struct yload *y, const char *name, struct ynode **root);
/* The same for a file of several documents (a compose file): 1 with
 * *docs[0..*ndocs) (each freed with ynode_free, the array with free; none
 * for an empty file). */
int yload_read_docs(struct yload *y, const char *name, struct ynode ***docs,
		    size_t *ndocs);

/* y->err = "file:line:col: message" at node n (1:1 when n is NULL).
 * Returns -1, so that a check can `return yload_error(...)`. */
int yload_error(const struct yload *y, const struct ynode *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
