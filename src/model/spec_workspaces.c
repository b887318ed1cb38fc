/* spec_workspaces.c - a monorepo's workspaces: found as their package
 * manager finds them, each loaded into a model of its own.
 *
 * The manifests, each read as a spec file of the repository:
 *  - pnpm-workspace.yaml "packages" (pnpm: @pnpm/workspace.find-packages
 *    and @pnpm/fs.find-packages): each pattern names directories that hold
 *    a package.json (or package.json5, package.yaml); "!pattern" excludes
 *    whatever the other patterns match, in any order (fast-glob negative
 *    patterns); node_modules and bower_components are never searched; the
 *    root is a project itself (here: the repository's own model).  When
 *    the file is there with a packages list, pnpm ignores package.json's
 *    "workspaces", and so do we.  A file that is not YAML is refused by
 *    pnpm too: exit 2, spec-invalid, naming file:line.
 *  - package.json "workspaces", an array or {"packages": [...]} (npm,
 *    yarn, bun; @npmcli/map-workspaces): patterns relative to the root, a
 *    leading "/" or "./" dropped, an odd number of leading '!' negates, and
 *    patterns apply in order (a negation removes what earlier patterns
 *    matched, a later pattern adds it back); only directories match, ones
 *    without a package.json are skipped, node_modules is never searched.
 *  - go.work "use" (golang.org/x/mod/modfile): one directory per use,
 *    single or block form; go refuses a workspace whose directory has no
 *    go.mod.
 *  - pyproject.toml [tool.uv.workspace] members and exclude (uv,
 *    crates/uv-workspace): globs; hidden directories never match; uv
 *    refuses a member without a pyproject.toml.
 *
 * Globs are matched by our own code against directory listings
 * (workspaces.c's matcher, one fnmatch(3) per path segment, "**" spanning
 * directories, braces expanded for npm and pnpm as minimatch and fast-glob
 * do), never by a shell.  A directory outside the repository is never
 * listed or read: a workspace that is a symlink leading out of it (or a
 * go.work path that does) is refused, and the discovery check says so.
 * Caps: WS_MAX workspaces, WS_DEPTH_MAX levels, WS_VISIT_MAX directories
 * listed.
 *
 * Each workspace is then loaded with every loader but preflight.yaml's
 * (spec_load_child), file names repository-relative ("apps/web/.nvmrc").
 * Ports are one namespace for the whole machine: a workspace's port
 * requirements are copied into the repository's model (port_req.ws says
 * whose) and resolved with its own, so a port that apps/api's compose file
 * publishes and apps/web's DATABASE_URL points at is one check.
 */
#include "specfile.h"
#include "spec_workspaces.h"
#include "saferead.h"
#include "ytree.h"

#include <cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define BRACES_MAX 64		/* alternatives one pattern may expand to */

const struct spec *spec_top(const struct spec *spec)
{
	return spec->parent ? spec->parent : spec;
}

/* ---- findings --------------------------------------------------------- */

static void finding(struct spec_workspaces *w, enum ws_finding_kind kind,
		    const char *dir, struct origin o, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static void finding(struct spec_workspaces *w, enum ws_finding_kind kind,
		    const char *dir, struct origin o, const char *fmt, ...)
{
	struct ws_finding *f;
	va_list ap;
	char *raw;

	grow(&w->findings, sizeof(*w->findings), &w->findings_cap,
	     w->nfindings + 1);
	f = &w->findings[w->nfindings++];
	f->kind = kind;
	f->dir = dir ? text_clean(dir) : NULL;
	f->origin = o;
	va_start(ap, fmt);
	raw = xvformat(fmt, ap);
	va_end(ap);
	f->message = text_clean(raw);
	free(raw);
}

static struct origin pat_origin(const struct ws_source *src, size_t k)
{
	struct origin o = { src->file, 0, 0 };

	if (k < src->pats.n) {
		o.line = src->pats.v[k].line;
		o.col = src->pats.v[k].col;
	}
	return o;
}

/* ---- the manifests ---------------------------------------------------- */

static struct ws_source *source_new(struct spec_workspaces *w, enum ws_kind kind,
				    const char *file)
{
	struct ws_source *s = &w->sources[w->nsources++];

	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->file = file;
	return s;
}

/* npm's normalisation: '!'s counted off (odd: negated), then a leading
 * "./" or "/" dropped (map-workspaces: /^\.?\/+/), and a trailing '/'
 * (it only says "directories", which is all we match anyway). */
static void add_npm_pattern(struct ws_patterns *p, const char *text,
			    unsigned line, unsigned col)
{
	size_t bangs = strspn(text, "!"), n;

	/* pnpm's entries get the same: fast-glob reads "./x" as "x", and
	 * "!" negates there too */
	text += bangs;
	if (text[0] == '.' && text[1] == '/')
		text++;
	text += strspn(text, "/");
	n = strlen(text);
	while (n > 1 && text[n - 1] == '/')
		n--;
	if (p->n < WS_PATTERNS_MAX)
		ws_patterns_add(p, text, n, bangs % 2 == 1, line, col);
}

/* package.json "workspaces": 1 when the key is there (the source filled,
 * or a finding when npm would refuse it), 0 when not.  The file has
 * been read and found valid by the package.json loader already. */
static int read_npm(struct spec *spec, struct spec_workspaces *w)
{
	static const char *const key[] = { "workspaces" };
	static const char *const pkgs[] = { "workspaces", "packages" };
	const char *file;
	const cJSON *ws, *arr, *item;
	struct blob b;
	struct origin o = { NULL, 0, 0 };
	size_t offs[WS_PATTERNS_MAX], n, k = 0;
	long at;
	cJSON *doc;

	if (saferead_file(&saferead_spec, spec->root, "package.json", &b, NULL) < 0)
		return 0;
	doc = cJSON_ParseWithLength(b.data, b.len);
	ws = cJSON_GetObjectItemCaseSensitive(doc, "workspaces");
	if (!ws) {
		cJSON_Delete(doc);
		blob_release(&b);
		return 0;
	}
	o.file = file = spec_add_file(spec, "package.json");
	/* map-workspaces getPatterns: workspaces.packages when it is an
	 * array, else workspaces itself, which must be an array */
	arr = cJSON_GetObjectItemCaseSensitive(ws, "packages");
	at = json_locate(b.data, b.len, cJSON_IsArray(arr) ? pkgs : key,
			 cJSON_IsArray(arr) ? 2 : 1);
	if (!cJSON_IsArray(arr))
		arr = ws;
	if (at >= 0)
		text_pos(b.data, b.len, (size_t)at, &o.line, &o.col);
	if (!cJSON_IsArray(arr)) {
		finding(w, WS_INVALID, NULL, o, "'workspaces' is neither an array "
			"nor {\"packages\": [...]}: npm refuses it (\"workspaces "
			"config expects an Array\")");
	} else {
		struct ws_source *src = source_new(w, WS_NPM, file);

		n = at >= 0 ? json_items(b.data, b.len, (size_t)at, offs,
					 ARRAY_SIZE(offs)) : 0;
		cJSON_ArrayForEach(item, arr) {
			struct origin io = o;

			if (k < n)
				text_pos(b.data, b.len, offs[k], &io.line, &io.col);
			k++;
			if (!cJSON_IsString(item)) {
				finding(w, WS_INVALID, NULL, io, "an entry of "
					"'workspaces' is not a string: npm "
					"cannot read it");
				continue;
			}
			add_npm_pattern(&src->pats, item->valuestring, io.line,
					io.col);
		}
	}
	cJSON_Delete(doc);
	blob_release(&b);
	return 1;
}

/* pnpm-workspace.yaml "packages": 1 when it gives the list (pnpm then
 * ignores package.json's), 0 when the file or the key is not there, -1
 * when the file is not YAML (exit 2). */
static int read_pnpm(struct spec *spec, struct spec_workspaces *w,
		     struct errbuf *err)
{
	struct yload y = { spec, NULL, err };
	struct ynode *root;
	const struct ynode *pk;
	struct ws_source *src;
	int rc = yload_read(&y, "pnpm-workspace.yaml", &root);
	size_t i;

	if (rc <= 0)
		return rc;
	/* @pnpm/workspace.read-manifest: an empty file, or one without
	 * packages (pnpm 10 keeps settings there), names no workspace */
	pk = root && root->kind == YNODE_MAP ? ynode_get(root, "packages") : NULL;
	if (root && root->kind != YNODE_MAP) {
		struct origin o = { y.file, root->line, root->col };

		finding(w, WS_INVALID, NULL, o, "pnpm-workspace.yaml is not a "
			"mapping: pnpm refuses it (\"Expected object\")");
		ynode_free(root);
		return 1;
	}
	if (!pk || ynode_is_null(pk)) {
		ynode_free(root);
		return 0;
	}
	src = source_new(w, WS_PNPM, y.file);
	if (pk->kind != YNODE_SEQ) {
		struct origin o = { y.file, pk->line, pk->col };

		finding(w, WS_INVALID, NULL, o, "'packages' is not a list: pnpm "
			"refuses it (\"packages field is not an array\")");
	}
	for (i = 0; pk->kind == YNODE_SEQ && i < pk->n; i++) {
		const struct ynode *it = pk->items[i];
		struct origin o = { y.file, it->line, it->col };

		if (it->tag) {
			/* - !apps/legacy: YAML reads a tag there, pnpm's
			 * YAML reader refuses the file */
			finding(w, WS_INVALID, NULL, o, "'%s' is read as a YAML "
				"tag, not a pattern: quote it ('%s')", it->tag,
				it->tag);
			continue;
		}
		if (it->kind != YNODE_SCALAR || !*it->text) {
			finding(w, WS_INVALID, NULL, o, "an entry of 'packages' is "
				"%s: pnpm refuses it", it->kind == YNODE_SCALAR ?
				"empty" : "not a string");
			continue;
		}
		add_npm_pattern(&src->pats, it->text, it->line, it->col);
	}
	ynode_free(root);
	return 1;
}

/* go.work: 0 or -1 (not text, or a use go could not parse: exit 2). */
static int read_go(struct spec *spec, struct spec_workspaces *w,
		   struct errbuf *err)
{
	struct ws_patterns p;
	struct ws_source *src;
	struct parse_error pe;
	struct blob b;
	size_t i;
	int rc = spec_read(spec, "go.work", &b, err);

	if (rc <= 0)
		return rc;
	rc = ws_gowork_parse(b.data, b.len, &p, &pe);
	blob_release(&b);
	if (rc < 0) {
		spec_error(err, spec_add_file(spec, "go.work"), pe.line, pe.col,
			   "%s", pe.msg);
		return -1;
	}
	src = source_new(w, WS_GO, spec_add_file(spec, "go.work"));
	/* go resolves a use path against go.work's directory; an absolute
	 * one counts when it lies in the repository (then it is made
	 * relative), and is refused otherwise */
	for (i = 0; i < p.n; i++) {
		struct ws_pattern *u = &p.v[i];
		size_t n = strlen(spec->root);

		if (u->text[0] != '/')
			continue;
		if (!strncmp(u->text, spec->root, n) &&
		    (u->text[n] == '/' || !u->text[n])) {
			memmove(u->text, u->text + n, strlen(u->text + n) + 1);
		} else {
			struct origin o = { src->file, u->line, u->col };

			finding(w, WS_OUTSIDE, u->text, o, "%s is outside the "
				"repository: refused, not read", u->text);
			u->text[0] = '\0';	/* matches nothing, warns nothing */
			u->negate = 1;
		}
	}
	src->pats = p;
	return 0;
}

/* pyproject.toml [tool.uv.workspace]. */
static void read_uv(struct spec *spec, struct spec_workspaces *w)
{
	struct ws_patterns p;
	struct parse_error pe;
	struct blob b;
	int rc;

	/* the versions loader read it already (a file we could not read
	 * stopped the audit there) */
	if (saferead_file(&saferead_spec, spec->root, "pyproject.toml", &b, NULL) < 0)
		return;
	rc = ws_uv_parse(b.data, b.len, &p, &pe);
	blob_release(&b);
	if (rc < 0) {
		struct origin o = { spec_add_file(spec, "pyproject.toml"), pe.line, pe.col };

		finding(w, WS_INVALID, NULL, o, "%s: uv refuses it", pe.msg);
		return;
	}
	if (rc == 0) {
		ws_patterns_release(&p);
		return;
	}
	source_new(w, WS_UV, spec_add_file(spec, "pyproject.toml"))->pats = p;
}

/* ---- expanding the patterns ------------------------------------------- */

/* What one match is.  A directory of the repository that holds its
 * manifest, inside the repository, with a name fit for an id, is a
 * workspace; the root is the repository's own model; a directory without
 * the manifest is skipped by npm and pnpm, and refused (with the whole
 * workspace) by go and uv. */
enum cand_class {
	CAND_OK,
	CAND_SILENT,		/* not a workspace, nothing to say */
	CAND_OUTSIDE,
	CAND_NO_MANIFEST,
	CAND_BAD_NAME,
};

/* One match of a source's pattern, before the negations. */
struct cand {
	char *dir;
	size_t pattern;
	int cls;		/* enum cand_class */
	int linked;		/* reached through a symbolic link */
};

struct walk {
	struct spec *spec;
	struct spec_workspaces *w;
	const struct ws_source *src;
	size_t pattern;
	struct cand *v;			/* what the pattern matched */
	size_t n, cap;
	size_t *visited;		/* directories listed, for the cap */
	int *capped;
};

/* The names a package manager never searches (npm: any node_modules;
 * pnpm: and bower_components). */
static int skipped_name(enum ws_kind k, const char *name, size_t n)
{
	if (k != WS_NPM && k != WS_PNPM)
		return 0;
	return (n == 12 && !memcmp(name, "node_modules", 12)) ||
	       (k == WS_PNPM && n == 16 && !memcmp(name, "bower_components", 16));
}

/* 1 when root/rel (which exists) is inside the repository once every
 * symlink is resolved. */
static int inside(const struct spec *spec, const char *rel)
{
	char *p = path_join(spec->root, rel), *real = realpath(p, NULL);
	int in = real && path_is_inside(real, spec->root);

	free(p);
	free(real);
	return in;
}

/* What root/rel is: 0 not a directory, 1 a directory, 2 a symbolic link
 * to one (followed). */
static int dir_kind(const struct spec *spec, const char *rel)
{
	char *p = path_join(spec->root, *rel ? rel : ".");
	struct stat st;
	int d = 0;

	if (lstat(p, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			d = 1;
		else if (S_ISLNK(st.st_mode) && stat(p, &st) == 0 && S_ISDIR(st.st_mode))
			d = 2;
	}
	free(p);
	return d;
}

static enum cand_class cand_classify(const struct walk *k, const char *dir,
				     int linked);

/* A directory the pattern names; linked: a symbolic link was followed on
 * the way (only then can it lie outside the repository, and only then is
 * its canonical path asked for: a tree of a thousand directories costs no
 * readlink).  What can never be a workspace is not kept. */
static void cand_add(struct walk *k, const char *dir, int linked)
{
	enum cand_class cls = cand_classify(k, dir, linked);

	if (cls == CAND_SILENT)
		return;
	if (k->n >= WS_MAX * 2) {
		*k->capped = 1;
		return;
	}
	grow(&k->v, sizeof(*k->v), &k->cap, k->n + 1);
	k->v[k->n].dir = xstrdup(dir);
	k->v[k->n].cls = cls;
	k->v[k->n].linked = linked;
	k->v[k->n++].pattern = k->pattern;
}

/* path + "/" + name (or name at the root) into out (reset first). */
static void join_rel(struct buf *out, const char *path, const char *name, size_t n)
{
	out->len = 0;
	if (out->s)
		out->s[0] = '\0';
	if (*path) {
		buf_puts(out, path);
		buf_putc(out, '/');
	}
	buf_add(out, name, n);
}

static void walk_segs(struct walk *k, const char *const *segs, size_t nseg,
		      size_t at, const char *path, unsigned depth, int linked);

/* List root/path (a directory inside the repository) and go on with
 * every subdirectory whose name fits: wild (a pattern segment, or NULL
 * for "**": any name not starting with '.'). */
static void walk_list(struct walk *k, const char *path, const char *wild,
		      const char *const *segs, size_t nseg, size_t next,
		      unsigned depth, int follow, int linked)
{
	char *abs;
	DIR *d;
	struct dirent *de;
	struct buf sub = BUF_INIT;

	if (depth >= WS_DEPTH_MAX || *k->capped)
		return;
	if (*k->visited >= WS_VISIT_MAX) {
		*k->capped = 1;
		return;
	}
	/* never list a directory outside the repository: a symlink on the
	 * way may lead out */
	if (linked && *path && !inside(k->spec, path))
		return;
	++*k->visited;
	abs = path_join(k->spec->root, *path ? path : ".");
	d = opendir(abs);
	free(abs);
	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		const char *name = de->d_name;
		size_t n = strlen(name);
		int dir = de->d_type == DT_DIR, sublinked = linked;

		if (name[0] == '.' && (n == 1 || (n == 2 && name[1] == '.')))
			continue;
		if (skipped_name(k->src->kind, name, n))
			continue;
		if (wild ? fnmatch(wild, name, FNM_PERIOD) != 0 : name[0] == '.')
			continue;
		join_rel(&sub, path, name, n);
		if (de->d_type == DT_LNK || de->d_type == DT_UNKNOWN) {
			int kind = dir_kind(k->spec, buf_str(&sub));

			/* "**" does not descend into symlinked directories
			 * (glob's follow: false), a named segment may be one */
			if (kind == 2 && !follow)
				continue;
			dir = kind != 0;
			sublinked |= kind == 2;
		}
		if (!dir)
			continue;
		if (!wild)	/* "**" takes this one, and more below it */
			walk_list(k, buf_str(&sub), NULL, segs, nseg, next,
				  depth + 1, 0, sublinked);
		walk_segs(k, segs, nseg, next, buf_str(&sub), depth + 1, sublinked);
	}
	closedir(d);
	buf_release(&sub);
}

static void walk_segs(struct walk *k, const char *const *segs, size_t nseg,
		      size_t at, const char *path, unsigned depth, int linked)
{
	const char *s;
	struct buf sub = BUF_INIT;
	int kind;

	if (*k->capped)
		return;
	if (at == nseg) {
		cand_add(k, path, linked);
		return;
	}
	s = segs[at];
	/* go.work names directories, never patterns */
	if (k->src->kind != WS_GO && !strcmp(s, "**")) {
		/* none, then one or more directories */
		walk_segs(k, segs, nseg, at + 1, path, depth, linked);
		walk_list(k, path, NULL, segs, nseg, at + 1, depth, 0, linked);
	} else if (k->src->kind != WS_GO && ws_glob_is_wild(s, strlen(s))) {
		walk_list(k, path, s, segs, nseg, at + 1, depth, 1, linked);
	} else if (depth < WS_DEPTH_MAX && !skipped_name(k->src->kind, s, strlen(s))) {
		join_rel(&sub, path, s, strlen(s));
		if ((kind = dir_kind(k->spec, buf_str(&sub))) != 0)
			walk_segs(k, segs, nseg, at + 1, buf_str(&sub), depth + 1,
				  linked || kind == 2);
	}
	buf_release(&sub);
}

/* The manifest a workspace of kind k must hold: the first that exists, or
 * NULL.  pnpm also reads package.json5 and package.yaml
 * (fs.find-packages normalizePatterns). */
static const char *manifest_of(const struct spec *spec, enum ws_kind k,
			       const char *dir)
{
	static const char *const npm[] = { "package.json", NULL };
	static const char *const pnpm[] = { "package.json", "package.json5",
					    "package.yaml", NULL };
	static const char *const go[] = { "go.mod", NULL };
	static const char *const uv[] = { "pyproject.toml", NULL };
	const char *const *names = k == WS_NPM ? npm : k == WS_PNPM ? pnpm :
				   k == WS_GO ? go : uv;
	struct stat st;

	for (; *names; names++) {
		char *rel = path_join(dir, *names), *p = path_join(spec->root, rel);
		int found = stat(p, &st) == 0 && S_ISREG(st.st_mode);

		free(rel);
		free(p);
		if (found)
			return *names;
	}
	return NULL;
}

static int has_finding(const struct spec_workspaces *w, const char *file,
		       unsigned line)
{
	size_t i;

	for (i = 0; i < w->nfindings; i++)
		if (w->findings[i].origin.file == file &&
		    w->findings[i].origin.line == line)
			return 1;
	return 0;
}

/* Expand one positive pattern (every brace alternative) into k->v. */
static void expand_pattern(struct walk *k, const char *text)
{
	char **alts = NULL;
	size_t nalt, i, j;

	/* uv's glob crate has no braces; npm's minimatch and pnpm's
	 * fast-glob have */
	if (k->src->kind == WS_NPM || k->src->kind == WS_PNPM)
		nalt = ws_brace_expand(text, BRACES_MAX, &alts);
	else
		alts = xcalloc(1, sizeof(*alts)), alts[0] = xstrdup(text), nalt = 1;
	for (i = 0; i < nalt; i++) {
		char *copy = xstrdup(alts[i]), *p = copy, *seg;
		const char *segs[WS_DEPTH_MAX + 1];
		size_t n = 0;
		int bad = 0;

		while ((seg = strsep(&p, "/")) != NULL) {
			if (!*seg || !strcmp(seg, "."))
				continue;
			if (!strcmp(seg, ".."))
				bad = 1;
			else if (n == WS_DEPTH_MAX)
				bad = bad ? bad : 2;
			else
				segs[n++] = seg;
		}
		/* ".." is refused even where it would come back in: a
		 * pattern that leaves the repository is not followed */
		if (bad == 1)
			finding(k->w, WS_OUTSIDE, NULL, pat_origin(k->src, k->pattern),
				"'%s' leads out of the repository: refused, not "
				"searched", alts[i]);
		else if (bad)
			finding(k->w, WS_CAPPED, NULL, pat_origin(k->src, k->pattern),
				"'%s' is deeper than %d levels: not searched",
				alts[i], WS_DEPTH_MAX);
		else
			walk_segs(k, segs, n, 0, "", 0, 0);
		free(copy);
	}
	for (j = 0; j < nalt; j++)
		free(alts[j]);
	free(alts);
}

static int cand_cmp(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;
	int c = strcmp(x->dir, y->dir);

	return c ? c : (x->pattern > y->pattern) - (x->pattern < y->pattern);
}

/* Drop every candidate that the negated pattern neg matches. */
static void cand_negate(struct walk *k, const char *neg)
{
	size_t i, j;

	for (i = j = 0; i < k->n; i++) {
		if (ws_glob_match(neg, k->v[i].dir))
			free(k->v[i].dir);
		else
			k->v[j++] = k->v[i];
	}
	k->n = j;
}

static enum cand_class cand_classify(const struct walk *k, const char *dir,
				     int linked)
{
	if (!*dir)
		return CAND_SILENT;
	if (linked && !inside(k->spec, dir))
		return CAND_OUTSIDE;
	if (!manifest_of(k->spec, k->src->kind, dir))
		return k->src->kind == WS_GO || k->src->kind == WS_UV ?
		       CAND_NO_MANIFEST : CAND_SILENT;
	return ws_dir_valid(dir) ? CAND_OK : CAND_BAD_NAME;
}

/* The finding for a match that is not a workspace, if it gets one. */
static void cand_finding(struct walk *k, const struct cand *c,
			 enum cand_class cls)
{
	struct spec_workspaces *w = k->w;
	struct origin o = pat_origin(k->src, c->pattern);

	switch (cls) {
	case CAND_OUTSIDE:
		finding(w, WS_OUTSIDE, c->dir, o, "%s leads out of the repository "
			"(a symbolic link): refused, not read", c->dir);
		break;
	case CAND_NO_MANIFEST:
		if (k->src->kind == WS_GO)
			finding(w, WS_NO_MANIFEST, c->dir, o, "%s has no go.mod: "
				"go refuses the workspace (\"cannot load module "
				"listed in go.work\")", c->dir);
		else
			finding(w, WS_NO_MANIFEST, c->dir, o, "%s has no "
				"pyproject.toml: uv refuses the workspace "
				"(\"Workspace member is missing a pyproject.toml\")",
				c->dir);
		break;
	case CAND_BAD_NAME:
		finding(w, WS_BAD_NAME, c->dir, o, "%s: a workspace path of "
			"[A-Za-z0-9._@+-/] only can be part of a check id: not "
			"checked", c->dir);
		break;
	case CAND_OK:
	case CAND_SILENT:
		break;
	}
}

static void ws_add(struct spec_workspaces *w, const struct cand *c, size_t source)
{
	struct workspace *x;

	grow(&w->v, sizeof(*w->v), &w->cap, w->n + 1);
	x = &w->v[w->n++];
	memset(x, 0, sizeof(*x));
	x->dir = xstrdup(c->dir);
	x->source = source;
	x->pattern = c->pattern;
	x->linked = c->linked;
}

static int ws_has(const struct spec_workspaces *w, const char *dir)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		if (!strcmp(w->v[i].dir, dir))
			return 1;
	return 0;
}

/* The patterns of one source against the file system: its workspaces
 * added to w->v (a directory another source found first is not added
 * again).  What a match is gets decided once; a match a negation removes
 * says nothing, so findings are made for what is left. */
static void expand_source(struct spec *spec, struct spec_workspaces *w,
			  size_t si, size_t *visited, int *capped)
{
	struct ws_source *src = &w->sources[si];
	struct walk k;
	size_t i, before;

	memset(&k, 0, sizeof(k));
	k.spec = spec;
	k.w = w;
	k.src = src;
	k.visited = visited;
	k.capped = capped;
	src->matched = xcalloc(src->pats.n ? src->pats.n : 1, sizeof(*src->matched));
	for (i = 0; i < src->pats.n; i++) {
		const struct ws_pattern *p = &src->pats.v[i];

		if (p->negate) {
			/* npm: in order, removing what came before; pnpm and
			 * uv: whatever the order (done below) */
			if (src->kind == WS_NPM)
				cand_negate(&k, p->text);
			continue;
		}
		k.pattern = i;
		before = k.n;
		expand_pattern(&k, p->text);
		src->matched[i] = k.n - before;
	}
	for (i = 0; src->kind != WS_NPM && i < src->pats.n; i++)
		if (src->pats.v[i].negate)
			cand_negate(&k, src->pats.v[i].text);
	if (k.n)
		qsort(k.v, k.n, sizeof(*k.v), cand_cmp);
	for (i = 0; i < k.n; i++) {
		if (i && !strcmp(k.v[i].dir, k.v[i - 1].dir))
			continue;
		if (k.v[i].cls != CAND_OK)
			cand_finding(&k, &k.v[i], k.v[i].cls);
		else if (!ws_has(w, k.v[i].dir))
			ws_add(w, &k.v[i], si);
	}
	for (i = 0; i < k.n; i++)
		free(k.v[i].dir);
	free(k.v);
	/* a go.work path names one directory: what is wrong with it is a
	 * finding already; and a pattern that has one says enough */
	for (i = 0; src->kind != WS_GO && i < src->pats.n; i++) {
		const struct ws_pattern *p = &src->pats.v[i];

		if (!p->negate && !src->matched[i] && strcmp(p->text, ".") &&
		    *p->text && !has_finding(w, src->file, p->line))
			finding(w, WS_UNMATCHED, NULL, pat_origin(src, i),
				"'%s' matches no workspace", p->text);
	}
}

static int ws_cmp(const void *a, const void *b)
{
	const struct workspace *x = a, *y = b;

	return strcmp(x->dir, y->dir);
}

/* Two names of one directory (a symlink inside the repository and its
 * target): the first by name stays. */
static void drop_aliases(const struct spec *spec, struct spec_workspaces *w)
{
	char **real = xcalloc(w->n ? w->n : 1, sizeof(*real));
	size_t i, j, n = 0;

	for (i = 0; i < w->n; i++) {
		char *p = path_join(spec->root, w->v[i].dir);
		int dup = 0;

		/* without a symbolic link on the way, the path is canonical */
		if (w->v[i].linked) {
			real[i] = realpath(p, NULL);
			free(p);
		} else {
			real[i] = p;
		}
		for (j = 0; real[i] && j < i && !dup; j++)
			dup = real[j] && !strcmp(real[i], real[j]);
		if (dup) {
			free(w->v[i].dir);
			continue;
		}
		w->v[n++] = w->v[i];
	}
	for (i = 0; i < w->n; i++)
		free(real[i]);
	free(real);
	w->n = n;
}

/* ---- the children ------------------------------------------------------ */

/* A workspace's port requirements, copied into the repository's model
 * (the strings they own copied, the origins pointing into the child's
 * model, which lives as long). */
static void merge_ports(struct spec *spec, const struct spec *child)
{
	size_t i;

	for (i = 0; i < child->nports; i++) {
		const struct port_req *r = &child->ports[i];
		struct port_req *c = r->kind == PORT_REQ_PORT ?
			spec_add_port(spec, r->src, r->port, r->expect, r->origin,
				      r->service) :
			spec_add_url_mark(spec, r->kind, r->origin, r->service);

		c->src = r->src;
		c->expect = r->expect;
		c->port_last = r->port_last;
		c->capped = r->capped;
		c->app = r->app;
		c->proto = r->proto;
		c->scheme = r->scheme ? xstrdup(r->scheme) : NULL;
		c->ws = child->dir;
	}
}

/* "apps/web", "./apps/web/", "apps//web": one name. */
static char *normalise_dir(const char *s)
{
	struct buf b = BUF_INIT;

	while (*s) {
		size_t n = strcspn(s, "/");

		if (n && !(n == 1 && s[0] == '.')) {
			if (b.len)
				buf_putc(&b, '/');
			buf_add(&b, s, n);
		}
		s += n;
		s += *s == '/';
	}
	return buf_detach(&b);
}

static int pick_only(struct spec_workspaces *w, const char *only,
		     struct errbuf *err)
{
	char *want = only ? normalise_dir(only) : NULL;
	struct buf names = BUF_INIT;
	size_t i;

	if (!want)
		return 0;
	for (i = 0; i < w->n; i++) {
		if (!strcmp(w->v[i].dir, want)) {
			w->only = w->v[i].dir;
			buf_release(&names);
			free(want);
			return 0;
		}
		if (i < 8)
			buf_printf(&names, "%s%s", i ? ", " : "", w->v[i].dir);
	}
	if (w->n > 8)
		buf_printf(&names, " and %zu more", w->n - 8);
	{
		char *shown = text_clean(only);

		err_set(err, "--workspace: '%s' is not a workspace of this "
			"repository (%s%s)", shown, w->n ? "workspaces: " :
			"no workspace found", w->n ? buf_str(&names) : "");
		free(shown);
	}
	buf_release(&names);
	free(want);
	return -1;
}

int spec_workspaces_load(struct spec *spec, const struct spec_opts *o,
			 struct errbuf *err)
{
	struct spec_workspaces *w = xcalloc(1, sizeof(*w));
	size_t i, visited = 0;
	int capped = 0, rc;

	spec->workspaces = w;
	/* pnpm's list when pnpm-workspace.yaml gives one, else npm's */
	rc = read_pnpm(spec, w, err);
	if (rc < 0)
		return -1;
	if (!rc)
		read_npm(spec, w);
	if (read_go(spec, w, err) < 0)
		return -1;
	read_uv(spec, w);
	for (i = 0; i < w->nsources; i++)
		expand_source(spec, w, i, &visited, &capped);
	if (w->n)
		qsort(w->v, w->n, sizeof(*w->v), ws_cmp);
	drop_aliases(spec, w);
	if (capped || w->n > WS_MAX) {
		struct origin none = { NULL, 0, 0 };

		finding(w, WS_CAPPED, NULL, none, "more than %d workspaces, or %d "
			"directories listed: the rest were not searched",
			WS_MAX, WS_VISIT_MAX);
		for (i = WS_MAX; i < w->n; i++)
			free(w->v[i].dir);
		if (w->n > WS_MAX)
			w->n = WS_MAX;
	}
	if (pick_only(w, o->only, err) < 0)
		return -1;
	for (i = 0; i < w->n; i++) {
		struct workspace *x = &w->v[i];

		if (w->only && strcmp(x->dir, w->only))
			continue;
		if (spec_load_child(spec, x->dir, &x->spec, err) < 0)
			return -1;
		x->loaded = 1;
		merge_ports(spec, &x->spec);
	}
	return 0;
}

void spec_workspaces_release(struct spec *spec)
{
	struct spec_workspaces *w = spec->workspaces;
	size_t i;

	if (!w)
		return;
	for (i = 0; i < w->n; i++) {
		if (w->v[i].loaded)
			spec_release_dir(&w->v[i].spec);
		free(w->v[i].dir);
	}
	free(w->v);
	for (i = 0; i < w->nsources; i++) {
		ws_patterns_release(&w->sources[i].pats);
		free(w->sources[i].matched);
	}
	for (i = 0; i < w->nfindings; i++) {
		free(w->findings[i].dir);
		free(w->findings[i].message);
	}
	free(w->findings);
	free(w);
	spec->workspaces = NULL;
}

int spec_selects_version(const struct spec *spec, const char *name)
{
	size_t i;

	if (!spec->parent)
		return 0;
	for (i = 0; i < spec->nruntimes; i++) {
		const struct runtime_req *r = &spec->runtimes[i];

		if (!strcmp(r->name, name) && req_source_selects(r->src))
			return 1;
	}
	return 0;
}
