/* probe_env.c - .env against its example, and whether git would commit it.
 *
 * Key names only ever leave this file: values are compared for emptiness
 * and nothing else, so no message, hint or JSON field can hold one.
 */
#include "probe.h"
#include "gitignore.h"
#include "gitrepo.h"
#include "saferead.h"
#include "workspaces.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIST_IN_MESSAGE 5	/* key names shown before "and N more" */
#define NOTES_MAX 5		/* --explain lines of one kind */

struct parity {
	cJSON *missing, *empty, *still_empty, *extra, *duplicates, *syntax;
	cJSON *misread, *example_misread;
	size_t nmissing, nempty, nstill, nextra, nduplicates, nsyntax, nmisread;
	size_t required, matched;
	struct buf why_missing, why_empty, why_still, why_extra, why_misread;
	const char *first_bad;	/* the first missing or empty key */
	const char *first_still;	/* the first key still empty */
};

static const char *env_name(const struct env_spec *e)
{
	return e->file ? e->file : ".env";
}

static int in_keys(const struct env_key *v, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return 1;
	return 0;
}

static void list_add(struct buf *b, size_t count, const char *name)
{
	if (count > LIST_IN_MESSAGE)
		return;
	if (count > 1)
		buf_puts(b, ", ");
	buf_puts(b, name);
}

static void list_end(struct buf *b, size_t count)
{
	if (count > LIST_IN_MESSAGE)
		buf_printf(b, " and %zu more", count - LIST_IN_MESSAGE);
}

/* A key name as it may be shown: the name, or, for a key that could be a
 * piece of a secret (dotenv_key_hidden), "(a N-character name on line L)"
 * with " of FILE" when file is not NULL (a key of the example).  The same
 * text goes into messages and JSON.  The result is in buf, or is the key. */
static const char *key_text(const struct dotenv_entry *d, const char *file,
			    struct buf *buf)
{
	if (!dotenv_key_hidden(d))
		return d->key;
	buf->len = 0;
	buf_printf(buf, "(a %zu-character name on line %u%s%s)", strlen(d->key),
		   d->line, file ? " of " : "", file ? file : "");
	return buf_str(buf);
}

/* One required key: present, missing or empty, from the .env (when
 * readable) and, with process_env, from our own environment.  ex is its
 * entry in the example, or NULL for a key of env.required only.  A key
 * that is empty in the example and still empty in the .env is a warning
 * (the example leaves it to the user), unless env.required names it. */
static void check_key(const struct env_spec *e, struct parity *p, const char *name,
		      const struct dotenv_entry *ex, int have_env)
{
	const struct dotenv_entry *d = have_env ? dotenv_get(&e->env_doc, name) : NULL;
	const char *exported = NULL, *shown = name;
	struct buf alias = BUF_INIT;

	if (in_keys(e->optional, e->noptional, name))
		return;
	if (e->process_env && !(d && d->value_len))
		exported = getenv(name);
	if (ex)
		shown = key_text(ex, e->example, &alias);
	p->required++;
	if ((d && d->value_len) || (exported && *exported)) {
		p->matched++;
	} else if ((d || exported) && ex && !ex->value_len &&
		   !in_keys(e->required, e->nrequired, name)) {
		cJSON_AddItemToArray(p->still_empty, cJSON_CreateString(shown));
		list_add(&p->why_still, ++p->nstill, shown);
		if (!p->first_still)
			p->first_still = name;
	} else if (d || exported) {
		cJSON_AddItemToArray(p->empty, cJSON_CreateString(shown));
		list_add(&p->why_empty, ++p->nempty, shown);
	} else {
		cJSON_AddItemToArray(p->missing, cJSON_CreateString(shown));
		list_add(&p->why_missing, ++p->nmissing, shown);
	}
	if (!p->first_bad && (p->nmissing || p->nempty))
		p->first_bad = name;
	buf_release(&alias);
}

static void scan_required(const struct env_spec *e, struct parity *p, int have_env)
{
	const struct dotenv *ex = &e->example_doc;
	size_t i;

	/* a key inside a multi-line value written without quotes is a
	 * piece of that value, not a key the example asks for */
	for (i = 0; e->example && i < ex->n; i++)
		if (!dotenv_is_shadowed(ex, i) &&
		    ex->entries[i].place != DOTENV_PLACE_INSIDE)
			check_key(e, p, ex->entries[i].key, &ex->entries[i], have_env);
	for (i = 0; i < e->nrequired; i++) {
		const char *name = e->required[i].name;

		if ((e->example && dotenv_get(ex, name)) || in_keys(e->required, i, name))
			continue;	/* counted once */
		check_key(e, p, name, NULL, have_env);
	}
}

/* Is a key of the .env one the example or preflight.yaml knows, so not
 * extra?  A key the example only mentions in a comment ("# SENTRY_DSN=")
 * is known too: uncommenting it is what the comment invites. */
static int known_key(const struct env_spec *e, const char *name)
{
	return (e->example && (dotenv_get(&e->example_doc, name) ||
			       dotenv_mentions(&e->example_doc, name))) ||
	       in_keys(e->required, e->nrequired, name) ||
	       in_keys(e->optional, e->noptional, name);
}

/* A misread entry as JSON: key (as key_text shows it), line, column,
 * message; in file order. */
static cJSON *misread_json(const struct dotenv *d, const struct dotenv_issue *is,
			   const char *file, struct buf *alias)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "key", key_text(&d->entries[is->entry], file, alias));
	cJSON_AddNumberToObject(o, "line", is->line);
	cJSON_AddNumberToObject(o, "column", is->col);
	cJSON_AddStringToObject(o, "message", is->message);
	return o;
}

static void scan_issues(const struct env_spec *e, struct parity *p)
{
	const struct dotenv *d = &e->env_doc;
	struct buf alias = BUF_INIT;
	size_t i;

	for (i = 0; i < d->nissues; i++) {
		const struct dotenv_issue *is = &d->issues[i];
		cJSON *s;

		if (is->kind == DOTENV_MISREAD) {
			s = misread_json(d, is, NULL, &alias);
			if (!p->nmisread++)
				buf_printf(&p->why_misread, "%s at %s:%u (%s)",
					   cJSON_GetObjectItem(s, "key")->valuestring,
					   env_name(e), is->line, is->message);
			cJSON_AddItemToArray(p->misread, s);
			continue;
		}
		s = cJSON_CreateObject();
		cJSON_AddNumberToObject(s, "line", is->line);
		cJSON_AddNumberToObject(s, "column", is->col);
		cJSON_AddStringToObject(s, "message", is->message);
		cJSON_AddItemToArray(p->syntax, s);
		p->nsyntax++;
	}
	buf_release(&alias);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The keys the example assigns more than once, sorted (an array the
 * caller frees), for dup_as_example(). */
static const char **example_dups(const struct env_spec *e, size_t *n)
{
	const struct dotenv *x = &e->example_doc;
	const char **v = NULL;
	size_t i, cap = 0;

	*n = 0;
	for (i = 0; e->example && i < x->n; i++) {
		if (!dotenv_is_shadowed(x, i))
			continue;
		grow(&v, sizeof(*v), &cap, *n + 1);
		v[(*n)++] = x->entries[i].key;
	}
	if (*n > 1)
		qsort(v, *n, sizeof(*v), str_cmp);
	return v;
}

static void scan_env(const struct env_spec *e, struct parity *p)
{
	struct buf alias = BUF_INIT;
	const struct dotenv *d = &e->env_doc;
	size_t i, ndups;
	const char **dups = example_dups(e, &ndups);

	for (i = 0; i < d->n; i++) {
		const char *name = d->entries[i].key;
		const char *shown = key_text(&d->entries[i], NULL, &alias);

		/* a piece of a multi-line value: told by its first key */
		if (d->entries[i].place == DOTENV_PLACE_INSIDE)
			continue;
		if (dotenv_is_shadowed(d, i)) {
			cJSON *dup;

			/* assigned twice in the example too: a copy of it
			 * says what the example says */
			if (ndups && bsearch(&name, dups, ndups, sizeof(*dups), str_cmp))
				continue;
			dup = cJSON_CreateObject();
			cJSON_AddStringToObject(dup, "key", shown);
			cJSON_AddNumberToObject(dup, "line", d->entries[i].line);
			cJSON_AddNumberToObject(dup, "overridden_at", dotenv_get(d, name)->line);
			cJSON_AddItemToArray(p->duplicates, dup);
			p->nduplicates++;
			continue;
		}
		if (!e->example && !e->nrequired)
			continue;	/* nothing to call them extra against */
		if (known_key(e, name))
			continue;
		cJSON_AddItemToArray(p->extra, cJSON_CreateString(shown));
		list_add(&p->why_extra, ++p->nextra, shown);
	}
	free(dups);
	buf_release(&alias);
	scan_issues(e, p);
}

/* The example's own misreads: they do not change this machine's verdict
 * (the .env is what the program reads), so they are notes, and JSON. */
static void scan_example(const struct env_spec *e, struct parity *p, struct result *r)
{
	const struct dotenv *d = &e->example_doc;
	struct buf alias = BUF_INIT;
	size_t i, n = 0;

	for (i = 0; e->example && i < d->nissues; i++) {
		const struct dotenv_issue *is = &d->issues[i];
		cJSON *o;

		if (is->kind != DOTENV_MISREAD)
			continue;
		o = misread_json(d, is, e->example, &alias);
		if (n++ < NOTES_MAX)
			result_note(r, "%s:%u: %s: %s", e->example, is->line,
				    cJSON_GetObjectItem(o, "key")->valuestring, is->message);
		cJSON_AddItemToArray(p->example_misread, o);
	}
	if (n > NOTES_MAX)
		result_note(r, "%s: %zu more values dotenv reads differently from how "
			    "they are written", e->example, n - NOTES_MAX);
	buf_release(&alias);
}

static const char *against(const struct env_spec *e)
{
	if (e->example && e->nrequired)
		return "the example and preflight.yaml";
	return e->example ? e->example : "preflight.yaml";
}

/* The reason of a parity result that did not pass (the first problem
 * its message names), and the fix: copying the example is a program's
 * job, a value only a person can give. */
static void parity_reason(const struct env_spec *e, const struct parity *p,
			  struct result *r, int have_env)
{
	const char *env = env_name(e);
	unsigned line = 0;

	if (r->status == STATUS_PASS)
		return;
	if (!have_env && p->nmissing)
		r->reason = REASON_ENV_MISSING;
	else if (p->nmissing)
		r->reason = REASON_KEYS_MISSING;
	else if (p->nempty)
		r->reason = REASON_KEYS_EMPTY;
	else if (p->nduplicates)
		r->reason = REASON_KEYS_DUPLICATE;
	else if (p->nsyntax || (have_env && e->env_bad_what))
		r->reason = REASON_SYNTAX;
	else if (p->nstill)
		r->reason = REASON_KEYS_STILL_EMPTY;
	else if (p->nmisread)
		r->reason = REASON_MISREAD;
	else
		r->reason = REASON_KEYS_EXTRA;
	if (r->reason == REASON_ENV_MISSING && e->example && env[0] != '-' &&
	    e->example[0] != '-' &&
	    result_fix_argv(r, FIX_AGENT, 0, "cp", e->example, env, (char *)NULL) == 0) {
		/* writes names the work tree's files only (a .env may lie
		 * outside: env.file) */
		if (path_rel_inside(env))
			result_fix_writes(r, env);
		return;
	}
	if (r->reason == REASON_KEYS_EXTRA)
		return;
	/* the line to edit: the first line dotenv skips or misreads */
	if (p->nsyntax)
		line = (unsigned)cJSON_GetObjectItem(cJSON_GetArrayItem(p->syntax, 0),
						     "line")->valueint;
	else if (have_env && e->env_bad_what)
		line = e->env_bad_line;
	else if (r->reason == REASON_MISREAD)
		line = (unsigned)cJSON_GetObjectItem(cJSON_GetArrayItem(p->misread, 0),
						     "line")->valueint;
	result_fix_edit(r, env, line);
}

/* The failures of the comparison, in the order a user fixes them. */
static enum status parity_failures(const struct env_spec *e, struct parity *p,
				   struct buf *m, int have_env)
{
	const char *env = env_name(e);
	enum status st = STATUS_PASS;

	if (p->nmissing) {
		list_end(&p->why_missing, p->nmissing);
		buf_printf(m, "%zu of %zu key%s missing (%s)", p->nmissing, p->required,
			   p->required == 1 ? "" : "s", buf_str(&p->why_missing));
		st = STATUS_FAIL;
	}
	if (p->nempty) {
		list_end(&p->why_empty, p->nempty);
		buf_printf(m, "%s%zu empty (%s)", st ? "; " : "", p->nempty,
			   buf_str(&p->why_empty));
		st = STATUS_FAIL;
	}
	if (p->nduplicates) {
		const cJSON *first = cJSON_GetArrayItem(p->duplicates, 0);

		buf_printf(m, "%sduplicate key %s (%s:%d overrides line %d)%s",
			   st ? "; " : "", cJSON_GetObjectItem(first, "key")->valuestring, env,
			   cJSON_GetObjectItem(first, "overridden_at")->valueint,
			   cJSON_GetObjectItem(first, "line")->valueint,
			   p->nduplicates > 1 ? " and more" : "");
		st = STATUS_FAIL;
	}
	if (p->nsyntax) {
		const cJSON *first = cJSON_GetArrayItem(p->syntax, 0);

		buf_printf(m, "%s%s:%d: %s%s", st ? "; " : "", env,
			   cJSON_GetObjectItem(first, "line")->valueint,
			   cJSON_GetObjectItem(first, "message")->valuestring,
			   p->nsyntax > 1 ? " (and more)" : "");
		st = STATUS_FAIL;
	}
	if (have_env && e->env_bad_what) {
		buf_printf(m, "%s%s:%u:%u: %s", st ? "; " : "", env, e->env_bad_line,
			   e->env_bad_col, e->env_bad_what);
		st = STATUS_FAIL;
	}
	return st;
}

/* What is worth a look but does not fail: keys the example leaves empty
 * and the .env too, values dotenv misreads, keys nobody asked for. */
static enum status parity_warnings(const struct env_spec *e, struct parity *p,
				   struct buf *m, enum status st)
{
	enum status w = STATUS_PASS;

	if (p->nstill) {
		list_end(&p->why_still, p->nstill);
		buf_printf(m, "; %zu key%s still empty, as in %s: %s", p->nstill,
			   p->nstill == 1 ? " is" : "s are", e->example,
			   buf_str(&p->why_still));
		w = STATUS_WARN;
	}
	if (p->nmisread) {
		buf_printf(m, "; dotenv misreads %s", buf_str(&p->why_misread));
		if (p->nmisread > 1)
			buf_printf(m, " and %zu more", p->nmisread - 1);
		w = STATUS_WARN;
	}
	if (p->nextra) {
		list_end(&p->why_extra, p->nextra);
		buf_printf(m, "; %zu extra key%s (%s) not in %s", p->nextra,
			   p->nextra == 1 ? "" : "s", buf_str(&p->why_extra), against(e));
		w = STATUS_WARN;
	}
	return st == STATUS_PASS ? w : st;
}

static void parity_hint(const struct env_spec *e, const struct parity *p,
			struct result *r, int have_env)
{
	const char *env = env_name(e);
	struct buf h = BUF_INIT;

	if (!have_env && p->nmissing && e->example) {
		result_hint(r, "cp %s %s, then fill in the values", e->example, env);
	} else if (p->nmissing || p->nempty) {
		result_hint(r, "set the %s in %s (see %s)",
			    p->nmissing ? "missing keys" : "empty values", env, against(e));
	} else if (p->nduplicates) {
		result_hint(r, "keep one assignment per key: dotenv uses the last one");
	} else if (p->nsyntax || (have_env && e->env_bad_what)) {
		result_hint(r, "dotenv silently skips lines it cannot parse; fix or remove them");
	} else if (p->nmisread || p->nstill) {
		if (p->nmisread)
			buf_printf(&h, "fix what dotenv misreads in %s: put a multi-line "
				   "value in quotes, close every quote, keep a value on "
				   "its key's line", env);
		if (p->nstill)
			buf_printf(&h, "%sfill in the empty keys the app needs; in "
				   "preflight.yaml, list keys that may stay empty under "
				   "env.optional and keys that must be set under env.required",
				   h.len ? "; " : "");
		result_hint(r, "%s", buf_str(&h));
	} else if (p->nextra) {
		result_hint(r, "remove unused keys from %s, or declare them in %s",
			    env, e->example ? e->example : "preflight.yaml (env.optional)");
	}
	buf_release(&h);
}

static void parity_message(const struct env_spec *e, struct parity *p,
			   struct result *r, int have_env)
{
	struct buf m = BUF_INIT;
	enum status st;

	if (!have_env)
		buf_printf(&m, "no %s; ", env_name(e));
	st = parity_failures(e, p, &m, have_env);
	if (st == STATUS_PASS)
		buf_printf(&m, "%zu/%zu keys matched to %s", p->matched, p->required,
			   against(e));
	st = parity_warnings(e, p, &m, st);
	result_set(r, st, "%s", buf_str(&m));
	buf_release(&m);
	parity_reason(e, p, r, have_env);
	parity_hint(e, p, r, have_env);
}

/* A sample's workspace (payload's templates/blank, which
 * create-payload-app copies; an examples/ app) is not a part of the
 * project its developers run: with no .env there at all, what it would
 * need is said for when someone runs it, never a failure of the
 * repository's setup, as a workspace's compose stack is (probe_compose.c;
 * issue 21, item 5).  An .env that is there is judged as any. */
static void sample_soften(const struct spec *spec, struct result *r, int have_env)
{
	const char *word;

	if (r->status != STATUS_FAIL || have_env || !spec->parent || !spec->dir ||
	    !(word = ws_dir_sample(spec->dir)))
		return;
	result_set(r, STATUS_WARN, "if you run %s (under %s/, a sample): %s",
		   spec->dir, word, r->message ? r->message : "");
}

/* A failing parity check points at the requirement of its first missing
 * or empty key (else of its first key still empty): its line in the
 * example, or in preflight.yaml. */
static void point_source(const struct env_spec *e, const struct parity *p,
			 struct result *r)
{
	const struct dotenv_entry *d;
	const char *key = p->first_bad ? p->first_bad : p->first_still;
	size_t i;

	if (!key)
		return;
	if (e->example && (d = dotenv_get(&e->example_doc, key))) {
		r->source.line = d->line;
		r->source.col = d->col;
		return;
	}
	for (i = 0; i < e->nrequired; i++) {
		if (!strcmp(e->required[i].name, key)) {
			r->source = e->required[i].origin;
			return;
		}
	}
}

static cJSON *names_json(const char *const *v, size_t n)
{
	cJSON *a = cJSON_CreateArray();
	size_t i;

	for (i = 0; i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(v[i]));
	return a;
}

static void parity_data(const struct env_spec *e, struct parity *p,
			struct result *r, int have_env)
{
	r->data = cJSON_CreateObject();
	cJSON_AddStringToObject(r->data, "file", env_name(e));
	cJSON_AddBoolToObject(r->data, "file_exists", have_env);
	if (e->example)
		cJSON_AddStringToObject(r->data, "example", e->example);
	else
		cJSON_AddNullToObject(r->data, "example");
	cJSON_AddNumberToObject(r->data, "required", (double)p->required);
	cJSON_AddNumberToObject(r->data, "matched", (double)p->matched);
	cJSON_AddItemToObject(r->data, "missing", p->missing);
	cJSON_AddItemToObject(r->data, "empty", p->empty);
	cJSON_AddItemToObject(r->data, "extra", p->extra);
	cJSON_AddItemToObject(r->data, "duplicates", p->duplicates);
	cJSON_AddItemToObject(r->data, "syntax_errors", p->syntax);
	cJSON_AddItemToObject(r->data, "still_empty", p->still_empty);
	cJSON_AddItemToObject(r->data, "misread", p->misread);
	cJSON_AddItemToObject(r->data, "example_misread", p->example_misread);
	cJSON_AddItemToObject(r->data, "other_examples",
			      names_json(e->other_examples, e->nother_examples));
}

static void run_parity(const struct run_ctx *ctx, const struct check *c,
		       struct result *r)
{
	const struct env_spec *e = &ctx->spec->env;
	struct parity p;
	int have_env = e->env_errno == 0;
	size_t i;

	if (e->env_errno && e->env_errno != ENOENT) {
		result_set(r, STATUS_ERROR, "cannot read %s: %s", env_name(e),
			   saferead_strerror(e->env_errno));
		r->reason = REASON_UNREADABLE;
		return;
	}
	memset(&p, 0, sizeof(p));
	p.missing = cJSON_CreateArray();
	p.empty = cJSON_CreateArray();
	p.still_empty = cJSON_CreateArray();
	p.extra = cJSON_CreateArray();
	p.duplicates = cJSON_CreateArray();
	p.syntax = cJSON_CreateArray();
	p.misread = cJSON_CreateArray();
	p.example_misread = cJSON_CreateArray();
	scan_required(e, &p, have_env);
	if (have_env)
		scan_env(e, &p);
	parity_message(e, &p, r, have_env);
	sample_soften(ctx->spec, r, have_env);
	point_source(e, &p, r);
	buf_release(&p.why_missing);
	buf_release(&p.why_empty);
	buf_release(&p.why_still);
	buf_release(&p.why_extra);
	buf_release(&p.why_misread);
	if (e->process_env)
		result_note(r, "keys exported in the environment count as present "
			    "(env.process_env)");
	if (e->nother_examples) {
		struct buf b = BUF_INIT;

		for (i = 0; i < e->nother_examples; i++)
			buf_printf(&b, "%s%s", i ? ", " : "", e->other_examples[i]);
		result_note(r, "also here, not read: %s (env.example in "
			    "preflight.yaml chooses the example)", buf_str(&b));
		buf_release(&b);
	}
	scan_example(e, &p, r);
	parity_data(e, &p, r, have_env);
}

/* Where to ignore the .env.  When DIR is the top of the work tree, its
 * .gitignore.  When DIR is below it, DIR's own .gitignore or the top
 * level's, each with its own pattern: a leading '/' anchors a pattern to
 * the directory of the file that holds it (gitignore(5)).  Files are
 * named as the report names rule files: relative to DIR when in it, in
 * full above it. */
static void gitignore_hint(struct result *r, const struct gitrepo_file *g,
			   const char *root)
{
	const char *top = g->top, *rel, *in_dir;
	const char *sep = strcmp(top, "/") ? "/" : "";
	size_t tn = strlen(top), rn;

	if (!strcmp(root, top)) {
		result_hint(r, "add '/%s' to .gitignore", g->path);
		return;
	}
	if (!*sep)
		rel = root + 1;
	else if (!strncmp(root, top, tn) && root[tn] == '/')
		rel = root + tn + 1;
	else			/* cannot be: the top is found from DIR up */
		rel = "";
	rn = strlen(rel);
	in_dir = rn && !strncmp(g->path, rel, rn) && g->path[rn] == '/' ?
		 g->path + rn + 1 : NULL;
	if (in_dir)
		result_hint(r, "add '/%s' to this directory's .gitignore, or '/%s' "
			    "to %s%s.gitignore", in_dir, g->path, top, sep);
	else
		result_hint(r, "add '/%s' to %s%s.gitignore", g->path, top, sep);
}

/* The verdict from what git would do with the .env (g filled). */
static void gitignore_verdict(const struct env_spec *e, const struct gitrepo_file *g,
			      const char *root, struct result *r)
{
	struct gitignore_match m;
	const char *env = env_name(e);

	if (g->tracked == 1) {
		/* ignore rules do not apply to a tracked file: it is in the
		 * next commit whatever .gitignore says */
		cJSON_AddBoolToObject(r->data, "ignored", 0);
		result_set(r, STATUS_WARN, "%s is tracked by git: it is committed or "
			   "staged, whatever .gitignore says", env);
		result_hint(r, "git rm --cached %s, ignore it, and rotate any secret "
			    "it held", g->path);
		r->reason = REASON_TRACKED;
		if (g->path[0] != '-')
			result_fix_argv(r, FIX_HUMAN, 0, "git", "rm", "--cached",
					g->path, (char *)NULL);
		return;
	}
	if (gitignore_match(g->ignore, g->path, 0, &m)) {
		cJSON_AddBoolToObject(r->data, "ignored", 1);
		result_set(r, STATUS_PASS, "ignored by git (%s:%u)", m.source, m.line);
		r->source.file = NULL;
		return;
	}
	cJSON_AddBoolToObject(r->data, "ignored", 0);
	r->reason = m.incomplete ? REASON_UNDECIDED : REASON_NOT_IGNORED;
	if (m.incomplete) {
		result_set(r, STATUS_WARN, "could not decide whether git ignores %s: "
			   "a pattern is too costly to match", env);
	} else if (m.source) {
		result_set(r, STATUS_WARN, "%s is not ignored by git: %s:%u re-includes it",
			   env, m.source, m.line);
		result_hint(r, "remove or narrow the rule '%s' at %s:%u",
			    m.pattern ? m.pattern : "!", m.source, m.line);
		result_fix_edit(r, m.source, m.line);
	} else {
		struct gitignore_match gm;

		if (g->ignore_global &&
		    gitignore_match(g->ignore_global, g->path, 0, &gm))
			result_set(r, STATUS_WARN, "%s is ignored only by your global excludes "
				   "file (%s:%u): other clones could commit it", env,
				   gm.source, gm.line);
		else
			result_set(r, STATUS_WARN, "%s is not ignored by git: it could be "
				   "committed", env);
		gitignore_hint(r, g, root);
	}
}

/* Runs on a worker thread, under the deadline: the work tree, its rules
 * and its index are read here (gitrepo.h), not by the spec loader. */
static void run_gitignore(const struct run_ctx *ctx, const struct check *c,
			  struct result *r)
{
	const struct spec *spec = ctx->spec;
	const struct env_spec *e = &spec->env;
	const char *env = env_name(e);
	struct gitrepo_query q;
	struct gitrepo_file g;

	q.start = spec->root;
	q.file = e->file_abs;
	q.shown_root = spec->root;
	q.home = getenv("HOME");
	q.xdg_config_home = getenv("XDG_CONFIG_HOME");
	gitrepo_look(&q, &g);
	if (!g.top) {
		result_set(r, STATUS_SKIP, "not inside a git work tree");
		r->reason = REASON_NOT_APPLICABLE;
	} else if (!g.path) {
		result_set(r, STATUS_SKIP, "%s lives outside the git work tree", env);
		r->reason = REASON_NOT_APPLICABLE;
	} else {
		r->data = cJSON_CreateObject();
		cJSON_AddStringToObject(r->data, "path", g.path);
		if (g.tracked < 0)
			cJSON_AddNullToObject(r->data, "tracked");
		else
			cJSON_AddBoolToObject(r->data, "tracked", g.tracked);
		result_note(r, "read .git/info/exclude, every .gitignore from %s down, "
			    "and the index (is the file tracked?)", g.top);
		gitignore_verdict(e, &g, spec->root, r);
	}
	gitrepo_release(&g);
}

static void env_plan(const struct spec *spec, struct plan *plan)
{
	const struct env_spec *e = &spec->env;
	struct origin none = { NULL, 0, 0 };
	struct origin src = none;
	struct buf title = BUF_INIT;
	size_t i;

	if (!spec->has_env)
		return;
	if (e->example) {
		for (i = 0; i < spec->nfiles; i++)
			if (!strcmp(spec->files[i], e->example))
				src.file = spec->files[i];
	} else if (e->nrequired) {
		src = e->required[0].origin;
	}
	buf_printf(&title, "%s parity", env_name(e));
	plan_add(plan, &probe_env, "env.parity", title.s, src, NULL, 0);
	buf_release(&title);
	buf_printf(&title, "%s ignored by git", env_name(e));
	plan_add(plan, &probe_env, "env.gitignore", title.s, e->file_origin, NULL, 1);
	buf_release(&title);
}

static void env_run(const struct run_ctx *ctx, const struct check *c, struct result *r)
{
	if (c->index == 0)
		run_parity(ctx, c, r);
	else
		run_gitignore(ctx, c, r);
}

static const char *const env_ids[] = {
	"env.parity",
	"env.gitignore",
	NULL
};

const struct probe probe_env = {
	.name = "env",
	.summary = ".env keys against .env.example (values never shown), and .gitignore",
	.plan = env_plan,
	.run = env_run,
	.ids = env_ids,
};
