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

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const examples[] = {
	".env.example", ".env.sample", ".env.template", NULL
};

static int load_example(struct spec *spec, struct errbuf *err)
{
	struct env_spec *e = &spec->env;
	const char *name = e->example;
	struct blob b;
	int rc;

	if (!name) {
		name = spec_first_existing(spec, examples);
		if (!name)
			return 0;
		e->example = xstrdup(name);
	}
	rc = spec_read(spec, name, &b, err);
	if (rc < 0)
		return -1;
	if (rc == 0) {
		/* named in preflight.yaml but absent */
		spec_error(err, e->example_origin.file, e->example_origin.line,
			   e->example_origin.col, "'env.example': no file named '%s'",
			   e->example);
		return -1;
	}
	spec->has_env = 1;
	dotenv_parse(b.data, b.len, &e->example_doc);
	blob_release(&b);
	if (e->example_doc.nissues) {
		const struct dotenv_issue *is = &e->example_doc.issues[0];

		spec_error(err, e->example, is->line, is->col, "%s", is->message);
		return -1;
	}
	return 0;
}

static void load_dotenv(struct spec *spec)
{
	struct env_spec *e = &spec->env;
	struct blob b;

	if (!e->file)
		e->file = xstrdup(".env");
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

/* The git directory of a work tree: .git itself, or where a .git file
 * ("gitdir: PATH", worktrees and submodules) points; for a linked worktree
 * the shared info/exclude lives in its commondir. */
static char *git_common_dir(const char *top)
{
	char *dotgit = path_join(top, ".git");
	struct stat st;
	struct blob b;
	char *dir, *common, *nl;

	if (stat(dotgit, &st) == 0 && S_ISDIR(st.st_mode))
		return dotgit;
	if (file_read(dotgit, 4096, &b) < 0 || strncmp(b.data, "gitdir:", 7)) {
		if (b.data)
			blob_release(&b);
		free(dotgit);
		return NULL;
	}
	free(dotgit);
	nl = strchr(b.data, '\n');
	if (nl)
		*nl = '\0';
	dir = path_join(top, b.data + 7 + strspn(b.data + 7, " "));
	blob_release(&b);
	common = path_join(dir, "commondir");
	if (file_read(common, 4096, &b) == 0) {
		char *c;

		nl = strchr(b.data, '\n');
		if (nl)
			*nl = '\0';
		c = path_join(dir, b.data);
		blob_release(&b);
		free(dir);
		dir = c;
	}
	free(common);
	return dir;
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

/* git's default core.excludesFile.  Kept apart from the repository's own
 * rules: a .env ignored only there is still unprotected in every other
 * clone.  A core.excludesFile set in ~/.gitconfig is not read. */
static void load_global_excludes(struct env_spec *e)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	char *path;

	if (xdg && *xdg == '/')
		path = path_join(xdg, "git/ignore");
	else if (home && *home == '/')
		path = path_join(home, ".config/git/ignore");
	else
		return;
	e->ignore_global = gitignore_new();
	add_rules(e->ignore_global, path, "", "~/.config/git/ignore", 0);
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
	gitdir = git_common_dir(e->git_root);
	if (gitdir) {
		char *exclude = path_join(gitdir, "info/exclude");

		add_rules(e->ignore, exclude, "", ".git/info/exclude", 0);
		free(exclude);
		free(gitdir);
	}
	/* the root .gitignore, then each directory down to the .env's */
	p = rel;
	for (;;) {
		char *file;

		buf_release(&src);
		buf_add(&src, base.s ? base.s : "", base.len);
		buf_puts(&src, base.len ? "/.gitignore" : ".gitignore");
		file = path_join(e->git_root, src.s);
		add_rules(e->ignore, file, buf_str(&base), src.s, 1);
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

static int env_load(struct spec *spec, struct errbuf *err)
{
	struct env_spec *e = &spec->env;

	if (load_example(spec, err) < 0)
		return -1;
	if (e->nrequired || e->noptional)
		spec->has_env = 1;
	load_dotenv(spec);
	if (spec->has_env)
		load_git(spec);
	return 0;
}

const struct spec_source source_env = {
	.name = ".env.example",
	.files = examples,
	.load = env_load,
};
