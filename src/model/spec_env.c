/* spec_env.c - the example file and the .env itself.
 *
 * The example is a spec file (size cap, symlink rule, strict text: a
 * malformed example stops the audit).  The .env is the user's own secrets
 * file: it may live anywhere, and whatever is wrong with it is reported by
 * the env probe as a failed check, not as a usage error.  Values stay in
 * memory only; nothing here ever formats one into a message.
 *
 * The .env is read here once for every loader after this one (compose's
 * ${VAR}, the .env URLs), also when the env probe has nothing to compare.
 * Whether git would commit it is not a loader's question: the
 * env.gitignore check asks gitrepo.h on its worker thread, under the
 * deadline, since a git index can be large.
 */
#include "specfile.h"
#include "saferead.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The example's names, in the order they are looked for (the man page,
 * FILES): the common ones first, the hyphenated and sample.env spellings
 * (midday's .env-template and .env-example, firezone's sample.env), then
 * those that name a target other than .env (.env.local.example is copied
 * to .env.local). */
static const char *const examples[] = {
	".env.example", ".env.sample", ".env.template", ".env.dist",
	"example.env", ".env-example", ".env-sample", ".env-template",
	"sample.env", ".env.local.example", ".env.development.example",
	".env.dev.example", NULL
};

/* The other example files beside the one in use, for --explain and JSON:
 * a repository with two of them may mean the other one. */
static void note_other_examples(struct spec *spec, const char *cur)
{
	struct env_spec *e = &spec->env;
	const char *const *n;
	size_t cap = 0;

	for (n = examples; *n; n++) {
		const char *one[2] = { *n, NULL };

		if (cur && !strcmp(*n, cur))
			continue;
		if (!spec_first_existing(spec, one))
			continue;
		grow(&e->other_examples, sizeof(*e->other_examples), &cap,
		     e->nother_examples + 1);
		e->other_examples[e->nother_examples++] = *n;
	}
}

/* The .env an example is copied to when env.file is not set: ".env",
 * but ".env.local" for ".env.local.example" (and so on for the names
 * ".env.NAME.example"), unless only .env exists.  example and the result
 * are names in the model's directory (spec_rel makes them
 * repository-relative). */
static char *env_default(const struct spec *spec, const char *example)
{
	static const char suffix[] = ".example";
	size_t n = example ? strlen(example) : 0, m = sizeof(suffix) - 1;
	const char *plain[] = { ".env", NULL };
	char *target;

	if (n <= m + 5 || strncmp(example, ".env.", 5) ||
	    strcmp(example + n - m, suffix))
		return xstrdup(".env");
	target = xstrndup(example, n - m);
	{
		const char *mine[] = { target, NULL };

		if (!spec_first_existing(spec, mine) &&
		    spec_first_existing(spec, plain)) {
			free(target);
			return xstrdup(".env");
		}
	}
	return target;
}

/* The example's text, read under the spec rules; parsed by env_load.
 * *base gets the example's name in the model's directory (a static
 * string), for env_default; NULL when preflight.yaml named it. */
static int read_example(struct spec *spec, struct blob *b, const char **base,
			struct errbuf *err)
{
	struct env_spec *e = &spec->env;
	const char *name = e->example;
	int rc;

	b->data = NULL;
	b->len = 0;
	*base = NULL;
	if (!name) {
		*base = spec_first_existing(spec, examples);
		if (*base)
			name = e->example = spec_rel(spec, *base);
	}
	/* the one in use, by its name in the model's directory */
	note_other_examples(spec, *base ? *base : e->example);
	if (!name)
		return 0;
	rc = spec_read(spec, name, b, err);
	if (rc == 0) {
		/* named in preflight.yaml but absent */
		spec_error(err, e->example_origin.file, e->example_origin.line,
			   e->example_origin.col, "'env.example': no file named '%s'",
			   e->example);
		return -1;
	}
	if (rc > 0)
		spec->has_env = 1;
	return rc;
}

static void load_dotenv(struct spec *spec, const char *base)
{
	struct env_spec *e = &spec->env;
	struct blob b;

	if (!e->file) {
		/* preflight.yaml's example (the repository's only) is a
		 * repository-relative name, as the file's name is */
		char *local = env_default(spec, base ? base : e->example);

		e->file = spec_rel(spec, local);
		free(local);
	}
	e->file_abs = path_join(spec->root, e->file);
	/* anywhere (a symlink the user made may lead out), but never a FIFO
	 * or a device: saferead judges the open descriptor */
	if (saferead_path(e->file_abs, SPEC_FILE_CAP, &b) < 0) {
		e->env_errno = errno;
		return;
	}
	if (text_check(b.data, b.len, &e->env_bad_line, &e->env_bad_col,
		       &e->env_bad_what) < 0) {
		/* still parsed: the keys before the bad byte are useful */
	} else {
		e->env_bad_what = NULL;
	}
	dotenv_parse(b.data, b.len, &e->env_doc);
	explicit_bzero(b.data, b.len);
	blob_release(&b);
}

static int env_load(struct spec *spec, struct errbuf *err)
{
	struct env_spec *e = &spec->env;
	struct blob example;
	const char *base;
	size_t i;

	if (read_example(spec, &example, &base, err) < 0)
		return -1;
	/* On this thread, as every spec file is: the loader starts no
	 * thread (parse every spec once, before any thread starts).  The
	 * example once parsed on a thread beside the .env; on two files of
	 * 10,000 keys each (600 KB) the load took no longer without it
	 * (best of 100: 18 ms, against 26 ms with the thread). */
	if (example.data)
		dotenv_parse(example.data, example.len, &e->example_doc);
	if (e->nrequired || e->noptional)
		spec->has_env = 1;
	load_dotenv(spec, base);
	blob_release(&example);
	/* A line dotenv skips would leave a key of the example unread: the
	 * example is a spec, so that stops the audit.  What dotenv parses,
	 * if not as written (an unterminated quote, a value from the next
	 * line, a multi-line value without quotes), is a note of the env
	 * probe instead: the audit can go on. */
	for (i = 0; i < e->example_doc.nissues; i++) {
		const struct dotenv_issue *is = &e->example_doc.issues[i];

		if (is->kind != DOTENV_SKIPPED)
			continue;
		spec_error(err, e->example, is->line, is->col,
			   "%s (dotenv skips this line)", is->message);
		return -1;
	}
	return 0;
}

const struct spec_source source_env = {
	.name = ".env examples",
	.files = examples,
	.load = env_load,
};
