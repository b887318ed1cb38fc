/* spec_env.c - the example file, the .env itself, and the git rules that
 * decide whether that .env would be committed.
 *
 * The example is a spec file (size cap, symlink rule, strict text: a
 * malformed example stops the audit).  The .env is the user's own secrets
 * file: it may live anywhere, and whatever is wrong with it is reported by
 * the env probe as a failed check, not as a usage error.  Values stay in
 * memory only; nothing here ever formats one into a message.
 *
 * The .env is read here once for every loader after this one (compose's
 * ${VAR}, the .env URLs), also when the env probe has nothing to compare.
 */
#include "specfile.h"
#include "gitignore.h"
#include "gitindex.h"

#include <errno.h>
#include <ini.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* The example's names, in the order they are looked for (the man page,
 * FILES): the common ones first, then those that name a target other than
 * .env (.env.local.example is copied to .env.local). */
static const char *const examples[] = {
	".env.example", ".env.sample", ".env.template", ".env.dist",
	"example.env", ".env.local.example", ".env.development.example",
	".env.dev.example", NULL
};

/* The other example files beside the one in use, for --explain and JSON:
 * a repository with two of them may mean the other one. */
static void note_other_examples(struct spec *spec)
{
	struct env_spec *e = &spec->env;
	const char *const *n;
	size_t cap = 0;

	for (n = examples; *n; n++) {
		const char *one[2] = { *n, NULL };

		if (e->example && !strcmp(*n, e->example))
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
 * ".env.NAME.example"), unless only .env exists. */
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

/* The example's text, read under the spec rules; parsed by env_load. */
static int read_example(struct spec *spec, struct blob *b, struct errbuf *err)
{
	struct env_spec *e = &spec->env;
	const char *name = e->example;
	int rc;

	b->data = NULL;
	b->len = 0;
	if (!name) {
		name = spec_first_existing(spec, examples);
		if (name)
			e->example = xstrdup(name);
	}
	note_other_examples(spec);
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

struct parse_job {
	const struct blob *text;
	struct dotenv *out;
};

static void *parse_job_run(void *arg)
{
	struct parse_job *j = arg;

	dotenv_parse(j->text->data, j->text->len, j->out);
	return NULL;
}

static void load_dotenv(struct spec *spec)
{
	struct env_spec *e = &spec->env;
	struct blob b;

	if (!e->file)
		e->file = env_default(spec, e->example);
	e->file_abs = path_join(spec->root, e->file);
	if (file_read(e->file_abs, SPEC_FILE_CAP, &b) < 0) {
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

/* The top of the git work tree holding dir, or NULL. */
static char *git_find_root(const char *dir)
{
	char *cur = xstrdup(dir);

	for (;;) {
		char *dotgit = path_join(cur, ".git");
		struct stat st;
		int found = lstat(dotgit, &st) == 0;
		char *slash;

		free(dotgit);
		if (found)
			return cur;
		slash = strrchr(cur, '/');
		if (!slash || slash == cur) {
			free(cur);
			return NULL;
		}
		*slash = '\0';
	}
}

/* The first line of a small git pointer file ("gitdir: X", "commondir"),
 * or NULL. */
static char *read_pointer(const char *path, const char *prefix)
{
	struct blob b;
	char *nl, *v;
	size_t n = strlen(prefix);

	if (file_read(path, 4096, &b) < 0)
		return NULL;
	if (strncmp(b.data, prefix, n)) {
		blob_release(&b);
		return NULL;
	}
	nl = strchr(b.data, '\n');
	if (nl)
		*nl = '\0';
	v = xstrdup(b.data + n + strspn(b.data + n, " "));
	blob_release(&b);
	return v;
}

/* The git directory of a work tree: .git itself, or where a .git file
 * ("gitdir: PATH", linked worktrees and submodules) points.  Its index
 * is this work tree's. */
static char *git_dir(const char *top)
{
	char *dotgit = path_join(top, ".git"), *target, *dir;
	struct stat st;

	if (stat(dotgit, &st) == 0 && S_ISDIR(st.st_mode))
		return dotgit;
	target = read_pointer(dotgit, "gitdir:");
	free(dotgit);
	if (!target)
		return NULL;
	dir = path_join(top, target);
	free(target);
	return dir;
}

/* Where a linked worktree's shared files (info/exclude, config) live. */
static char *git_common_dir(const char *gitdir)
{
	char *file = path_join(gitdir, "commondir");
	char *common = read_pointer(file, "");
	char *dir;

	free(file);
	if (!common || !*common) {
		free(common);
		return xstrdup(gitdir);
	}
	dir = path_join(gitdir, common);
	free(common);
	return dir;
}

/* A name for a rule file as the user sees it: relative to the audited
 * root when it lies inside, else its absolute path. */
static char *display_path(const struct spec *spec, const char *abs)
{
	size_t n = strlen(spec->root);

	if (path_is_inside(abs, spec->root) && abs[n] == '/')
		return xstrdup(abs + n + 1);
	return xstrdup(abs);
}

/* An index larger than this is not read: the answer is "unknown". */
#define GIT_INDEX_CAP (64 * 1024 * 1024)

/* Is the .env tracked?  1, 0, or -1 when the index cannot tell. */
static int git_tracked(const char *gitdir, const char *common, const char *path)
{
	char *index = path_join(gitdir, "index"), *config = path_join(common, "config");
	size_t hash_len = 20;
	struct blob b;
	int rc;

	/* a SHA-256 repository says so in its config */
	if (file_read(config, SPEC_FILE_CAP, &b) == 0) {
		char *c;

		for (c = b.data; *c; c++)
			*c = (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
		if (strstr(b.data, "objectformat = sha256") ||
		    strstr(b.data, "objectformat=sha256"))
			hash_len = 32;
		blob_release(&b);
	}
	free(config);
	if (file_read(index, GIT_INDEX_CAP, &b) < 0) {
		rc = errno == ENOENT ? 0 : -1;	/* a new repository has none */
		free(index);
		return rc;
	}
	free(index);
	rc = gitindex_tracked(b.data, b.len, hash_len, path);
	blob_release(&b);
	return rc;
}

/* in_tree: a .gitignore inside the work tree, which git (2.32 and later)
 * does not follow when it is a symlink. */
static void add_rules(struct gitignore *g, const char *path, const char *base,
		      const char *source, int in_tree)
{
	struct stat st;
	struct blob b;

	if (in_tree && (lstat(path, &st) < 0 || S_ISLNK(st.st_mode)))
		return;
	if (file_read(path, SPEC_FILE_CAP, &b) < 0)
		return;		/* git, too, skips what it cannot read */
	gitignore_add(g, b.data, b.len, base, source);
	blob_release(&b);
}

struct excludes_lookup {
	char *path;		/* core.excludesFile as written, or NULL */
};

static int on_git_config(void *user, const char *section, const char *name,
			 const char *value)
{
	struct excludes_lookup *x = user;

	if (!strcasecmp(section, "core") && !strcasecmp(name, "excludesfile") && value) {
		free(x->path);
		x->path = xstrdup(value);
	}
	return 1;	/* git's syntax is wider than inih's: never stop */
}

/* core.excludesFile from the user's git config files (later wins), with
 * a leading "~/" expanded; NULL when unset. */
static char *excludes_from_config(const char *xdg, const char *home)
{
	struct excludes_lookup x = { NULL };
	char *files[2], *path = NULL;
	size_t i;

	files[0] = xdg ? path_join(xdg, "git/config") : home ?
		   path_join(home, ".config/git/config") : NULL;
	files[1] = home ? path_join(home, ".gitconfig") : NULL;
	for (i = 0; i < 2; i++) {
		struct blob b;

		if (files[i] && file_read(files[i], SPEC_FILE_CAP, &b) == 0) {
			ini_parse_string(b.data, on_git_config, &x);
			blob_release(&b);
		}
		free(files[i]);
	}
	if (x.path && !strncmp(x.path, "~/", 2) && home)
		path = path_join(home, x.path + 2);
	else if (x.path && x.path[0] == '/')
		path = xstrdup(x.path);
	free(x.path);
	return path;
}

/* The user's global excludes file: core.excludesFile, else git's default
 * $XDG_CONFIG_HOME/git/ignore.  Kept apart from the repository's own rules:
 * a .env ignored only there is still unprotected in every other clone. */
static void load_global_excludes(struct env_spec *e)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	char *path;

	if (xdg && *xdg != '/')
		xdg = NULL;
	if (home && *home != '/')
		home = NULL;
	path = excludes_from_config(xdg, home);
	if (!path && xdg)
		path = path_join(xdg, "git/ignore");
	else if (!path && home)
		path = path_join(home, ".config/git/ignore");
	if (!path)
		return;
	e->ignore_global = gitignore_new();
	e->global_excludes = xstrdup(path);
	add_rules(e->ignore_global, path, "", e->global_excludes, 0);
	free(path);
}

static void load_git(struct spec *spec)
{
	struct env_spec *e = &spec->env;
	char dir[PATH_MAX], *tmp, *gitdir, *rel, *p;
	struct buf base = BUF_INIT, src = BUF_INIT;

	e->git_root = git_find_root(spec->root);
	if (!e->git_root)
		return;
	/* where the .env is (or would be), canonical, without resolving the
	 * file itself: git tracks a symlink as a link */
	tmp = xstrdup(e->file_abs);
	if (!realpath(dirname(tmp), dir)) {
		free(tmp);
		return;
	}
	free(tmp);
	if (!path_is_inside(dir, e->git_root))
		return;
	tmp = xstrdup(e->file_abs);
	rel = dir + strlen(e->git_root);
	rel += *rel == '/';
	e->env_gitpath = *rel ? path_join(rel, basename(tmp)) : xstrdup(basename(tmp));
	free(tmp);

	e->ignore = gitignore_new();
	gitdir = git_dir(e->git_root);
	if (gitdir) {
		char *common = git_common_dir(gitdir);
		char *exclude = path_join(common, "info/exclude");
		char *shown = display_path(spec, exclude);

		add_rules(e->ignore, exclude, "", shown, 0);
		e->env_tracked = git_tracked(gitdir, common, e->env_gitpath);
		free(shown);
		free(exclude);
		free(common);
		free(gitdir);
	} else {
		e->env_tracked = -1;
	}
	/* the root .gitignore, then each directory down to the .env's */
	p = rel;
	for (;;) {
		char *file;

		buf_release(&src);
		buf_add(&src, base.s ? base.s : "", base.len);
		buf_puts(&src, base.len ? "/.gitignore" : ".gitignore");
		file = path_join(e->git_root, src.s);
		{
			char *shown = display_path(spec, file);

			add_rules(e->ignore, file, buf_str(&base), shown, 1);
			free(shown);
		}
		free(file);
		if (!*p)
			break;
		{
			const char *slash = strchr(p, '/');
			size_t n = slash ? (size_t)(slash - p) : strlen(p);

			if (base.len)
				buf_putc(&base, '/');
			buf_add(&base, p, n);
			p += n + (slash != NULL);
		}
	}
	buf_release(&base);
	buf_release(&src);
	load_global_excludes(e);
}

/* Big enough that parsing the example beside the .env pays for a thread. */
#define PARALLEL_PARSE_MIN (64 * 1024)

static int env_load(struct spec *spec, struct errbuf *err)
{
	struct env_spec *e = &spec->env;
	struct parse_job job;
	struct blob example;
	pthread_t thread;
	int threaded = 0;
	size_t i;

	if (read_example(spec, &example, err) < 0)
		return -1;
	/* Two large files (10,000 keys each) parse in half the time side by
	 * side: the example on a short-lived thread, the .env here.  Both
	 * are parsed into the model before any probe runs. */
	job.text = &example;
	job.out = &e->example_doc;
	if (example.data) {
		if (example.len >= PARALLEL_PARSE_MIN)
			threaded = pthread_create(&thread, NULL, parse_job_run, &job) == 0;
		if (!threaded)
			parse_job_run(&job);
	}
	if (e->nrequired || e->noptional)
		spec->has_env = 1;
	load_dotenv(spec);
	if (threaded)
		pthread_join(thread, NULL);
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
	if (spec->has_env)
		load_git(spec);
	return 0;
}

const struct spec_source source_env = {
	.name = ".env.example",
	.files = examples,
	.load = env_load,
};
