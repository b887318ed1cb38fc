/* peek_py.c - pyenv shims for peek.c, resolved the way pyenv 2.x's
 * libexec scripts resolve them: PYENV_VERSION, the nearest
 * .python-version, the global version file, prefixes such as "3.11",
 * python- prefixes, ':' lists, the fallback to "system".  The real
 * interpreter under versions/ is then read by the path rule
 * (peek_path.c).
 *
 * Any pyenv hook we do not know, any unusual version name, any file pyenv
 * would read differently from us: not certain (pe->doubt).
 */
#include "peek_int.h"
#include "spawnrun.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* One shim being resolved; peek_pyenv_lookup owns root and prefix. */
struct pyenv {
	char *root;		/* the PYENV_ROOT the shim exports */
	char *prefix;		/* where its libexec/pyenv lives */
	const char *cmd;	/* what `pyenv exec` runs: the shim's name */
	char *const *env;
	int doubt;		/* set by any step that is not certain */
};

/* The quoted absolute path in a shim line `<lead>"/abs/path"<tail>`
 * where tail ends the line, as a new string; NULL when absent or odd. */
static char *shim_quoted(const char *text, const char *lead, const char *tail)
{
	const char *p = text, *q;
	size_t n;

	while ((p = strstr(p, lead)) != NULL) {
		if (p == text || p[-1] == '\n')
			break;
		p++;
	}
	if (!p)
		return NULL;
	p += strlen(lead);
	q = strchr(p, '"');
	if (!q || p[0] != '/' || strncmp(q + 1, tail, strlen(tail)))
		return NULL;
	n = strlen(tail);
	if (q[1 + n] != '\n' && q[1 + n] != '\0')
		return NULL;
	for (n = 0; p + n < q; n++)
		if (strchr("$`\\", p[n]))
			return NULL;	/* not a path we can read literally */
	return xstrndup(p, n);
}

/* Is the file at path (canonical c) a pyenv shim?  Fills pe->root and
 * pe->prefix from what the shim itself says. */
static int pyenv_shim_read(const char *c, struct pyenv *pe)
{
	struct blob b;
	char *exe = NULL, *real = NULL;
	size_t n;
	int ok = 0;

	if (peek_read_text(c, 8192, &b, NULL) < 0)
		return 0;
	if (strncmp(b.data, "#!", 2) || !strstr(b.data, "bash") ||
	    !strstr(b.data, "\nprogram=\"${0##*/}\"\n"))
		goto out;
	/* a shim someone edited to pin a version is not one we can read */
	if (strstr(b.data, "PYENV_VERSION") || strstr(b.data, "PYENV_DIR") ||
	    strstr(b.data, "PYENV_HOOK_PATH"))
		goto out;
	pe->root = shim_quoted(b.data, "export PYENV_ROOT=\"", "");
	exe = shim_quoted(b.data, "exec \"", " exec \"$program\" \"$@\"");
	if (!pe->root || !exe)
		goto out;
	n = strlen(exe);
	if (n < 14 || strcmp(exe + n - 14, "/libexec/pyenv"))
		goto out;
	/* pyenv's _PYENV_INSTALL_PREFIX: the resolved libexec dir's parent */
	real = realpath(exe, NULL);
	if (!real)
		goto out;
	*strrchr(real, '/') = '\0';
	*strrchr(real, '/') = '\0';
	pe->prefix = real;
	real = NULL;
	/* PYENV_ROOT="${PYENV_ROOT%/}" */
	n = strlen(pe->root);
	if (n > 1 && pe->root[n - 1] == '/')
		pe->root[n - 1] = '\0';
	ok = 1;
out:
	free(exe);
	free(real);
	blob_release(&b);
	return ok;
}

/* Hooks pyenv sources for the commands on our way (version-name, which,
 * exec) can change the answer.  Those we know to be no-ops for a command
 * that resolves to an executable are allowed; any other hook is a doubt.
 * pyenv-virtualenv's `which` hooks only act when no executable was found,
 * and pyenv's own exec/pip-rehash.bash only for pip. */
struct hook_ok {
	const char *dir_suffix;		/* "" for pyenv's own pyenv.d */
	const char *cmd;
	const char *file;
};

static const struct hook_ok hooks_ok[] = {
	{ "/plugins/pyenv-virtualenv/etc/pyenv.d", "which", "conda.bash" },
	{ "/plugins/pyenv-virtualenv/etc/pyenv.d", "which", "python-config.bash" },
	{ "/plugins/pyenv-virtualenv/etc/pyenv.d", "which", "system-site-packages.bash" },
	{ "", "exec", "pip-rehash.bash" },
};

static int hook_known(const struct pyenv *pe, const char *dir,
		      const char *cmd, const char *file)
{
	size_t i, dl = strlen(dir);

	for (i = 0; i < ARRAY_SIZE(hooks_ok); i++) {
		const struct hook_ok *h = &hooks_ok[i];
		size_t sl = strlen(h->dir_suffix);

		if (strcmp(h->cmd, cmd) || strcmp(h->file, file))
			continue;
		if (!*h->dir_suffix) {
			char *own = path_join(pe->root, "pyenv.d");
			char *own2 = path_join(pe->prefix, "pyenv.d");
			int mine = !strcmp(dir, own) || !strcmp(dir, own2);

			free(own);
			free(own2);
			if (mine)
				return 1;
		} else if (dl >= sl && !strcmp(dir + dl - sl, h->dir_suffix)) {
			return 1;
		}
	}
	return 0;
}

/* 1 when hook directory dir holds no unknown hook for our commands. */
static int hook_dir_clean(const struct pyenv *pe, const char *dir)
{
	static const char *const cmds[] = { "version-name", "which", "exec" };
	size_t i;

	if (dir[0] != '/')
		return 0;	/* relative to the repository: not ours to judge */
	if (!is_dir(dir))
		return 1;	/* most hook directories do not exist: one stat */
	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		char *sub = path_join(dir, cmds[i]);
		DIR *d = opendir(sub);
		struct dirent *de;
		int clean = 1;

		free(sub);
		if (!d)
			continue;
		while (clean && (de = readdir(d)) != NULL) {
			size_t n = strlen(de->d_name);

			/* like bash's glob "*.bash": no dotfiles */
			if (de->d_name[0] == '.' || n < 5 ||
			    strcmp(de->d_name + n - 5, ".bash"))
				continue;
			clean = hook_known(pe, dir, cmds[i], de->d_name);
		}
		closedir(d);
		if (!clean)
			return 0;
	}
	return 1;
}

/* The directories of $PYENV_HOOK_PATH, in order. */
static int hook_path_clean(const struct pyenv *pe)
{
	const char *hp = peek_env_get(pe->env, "PYENV_HOOK_PATH");
	int clean = 1;

	for (; hp && *hp && clean; hp += *hp == ':') {
		size_t n = strcspn(hp, ":");

		if (n) {
			char *dir = xstrndup(hp, n);

			clean = hook_dir_clean(pe, dir);
			free(dir);
		}
		hp += n;
	}
	return clean;
}

/* base/pyenv.d, pyenv's own hook directory. */
static int own_hooks_clean(const struct pyenv *pe, const char *base)
{
	char *dir = path_join(base, "pyenv.d");
	int clean = hook_dir_clean(pe, dir);

	free(dir);
	return clean;
}

/* Every plugin's etc/pyenv.d. */
static int plugin_hooks_clean(const struct pyenv *pe)
{
	char *dir = path_join(pe->root, "plugins");
	DIR *d = opendir(dir);
	struct dirent *de;
	int clean = 1;

	free(dir);
	while (d && clean && (de = readdir(d)) != NULL) {
		struct buf b = BUF_INIT;

		if (de->d_name[0] == '.')
			continue;
		buf_printf(&b, "%s/plugins/%s/etc/pyenv.d", pe->root, de->d_name);
		clean = hook_dir_clean(pe, buf_str(&b));
		buf_release(&b);
	}
	if (d)
		closedir(d);
	return clean;
}

/* Every directory of pyenv's PYENV_HOOK_PATH, as libexec/pyenv builds it. */
static int pyenv_hooks_clean(const struct pyenv *pe)
{
	static const char *const fixed[] = {
		"/usr/etc/pyenv.d", "/usr/local/etc/pyenv.d", "/etc/pyenv.d",
		"/usr/lib/pyenv/hooks",
	};
	int clean = hook_path_clean(pe);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fixed) && clean; i++)
		clean = hook_dir_clean(pe, fixed[i]);
	if (clean)
		clean = own_hooks_clean(pe, pe->root);
	if (clean && strcmp(pe->prefix, pe->root))
		clean = own_hooks_clean(pe, pe->prefix);
	return clean && plugin_hooks_clean(pe);
}

/* root/versions/v is a directory (pyenv's version_exists). */
static int pyenv_exists(const struct pyenv *pe, const char *v)
{
	struct buf b = BUF_INIT;
	int ok;

	buf_printf(&b, "%s/versions/%s", pe->root, v);
	ok = is_dir(buf_str(&b));
	buf_release(&b);
	return ok;
}

/* A version name pyenv's scripts would treat as we do: no glob or path
 * characters (the ':' list is split unquoted, so bash would glob it), no
 * whitespace (bash keeps it; we would rather not guess). */
static int pyenv_name_safe(const char *v, size_t n)
{
	size_t i;

	if (n == 0 || n > 255 || (n == 2 && !memcmp(v, "..", 2)))
		return 0;
	for (i = 0; i < n; i++)
		if (strchr("/*?[]\\ \t\r\n", v[i]) || (unsigned char)v[i] < 0x20)
			return 0;
	return 1;
}

/* The fields of an all-numeric dotted name "3.11.7" (1 to 4 fields, as
 * pyenv-latest's sort keys read them), or 0 when it is not one. */
static int numeric_fields(const char *s, unsigned long f[4])
{
	int n = 0;

	memset(f, 0, 4 * sizeof(f[0]));
	for (;;) {
		char *end;

		if (n == 4 || !isdigit((unsigned char)*s))
			return 0;
		errno = 0;
		f[n++] = strtoul(s, &end, 10);
		if (errno || end - s > 9)
			return 0;
		s = end;
		if (!*s)
			return n;
		if (*s++ != '.')
			return 0;
	}
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* What pyenv-latest drops from its candidates: -dev, -src, -latest,
 * prereleases and free-threaded builds. */
static int latest_dropped(const char *s)
{
	size_t n = strlen(s), i = n;

	if (ends_with(s, "-dev") || ends_with(s, "-src") || ends_with(s, "-latest"))
		return 1;
	while (i > 0 && isdigit((unsigned char)s[i - 1]))
		i--;
	if (i < n && i > 0 && (s[i - 1] == 'a' || s[i - 1] == 'b'))
		return 1;
	if (i < n && i > 1 && s[i - 2] == 'r' && s[i - 1] == 'c')
		return 1;
	return n >= 2 && s[n - 1] == 't' && isdigit((unsigned char)s[n - 2]);
}

/* A directory name under versions/ that pyenv-latest would weigh for
 * prefix (pl its length). */
static int latest_candidate(const struct pyenv *pe, const char *s,
			    const char *prefix, size_t pl)
{
	return strcmp(s, ".") && strcmp(s, "..") && !strncmp(s, prefix, pl) &&
	       (s[pl] == '.' || s[pl] == '-') && !latest_dropped(s) &&
	       pyenv_exists(pe, s);
}

/* The newest of pyenv-latest's candidates so far. */
struct latest {
	char *winner;		/* owned; NULL before the first */
	unsigned long best[4];	/* its fields */
	int tie;		/* another candidate sorts the same */
};

/* Weigh candidate s with fields f as sort -t. -k1,1r -k2,2nr -k3,3nr
 * -k4,4nr would: field 1 is the prefix's own for every candidate. */
static void latest_offer(struct latest *l, const char *s,
			 const unsigned long f[4])
{
	int cmp = 0, i;

	for (i = 1; i < 4 && !cmp; i++)
		cmp = f[i] > l->best[i] ? 1 : f[i] < l->best[i] ? -1 : 0;
	if (l->winner && cmp == 0) {
		l->tie = 1;
	} else if (!l->winner || cmp > 0) {
		free(l->winner);
		l->winner = xstrdup(s);
		memcpy(l->best, f, sizeof(l->best));
		l->tie = 0;
	}
}

/* pyenv-latest for installed versions: the newest directory under
 * versions/ whose name starts with prefix followed by '.' or '-'.  A new
 * string, or NULL when none matches; pe->doubt when the candidates are not
 * plain numbers (pyenv's sort of vendor names is not worth copying). */
static char *pyenv_latest(struct pyenv *pe, const char *prefix)
{
	struct latest l = { NULL, { 0 }, 0 };
	struct buf b = BUF_INIT;
	unsigned long f[4];
	size_t pl = strlen(prefix);
	struct dirent *de;
	int numeric;
	DIR *d;

	if (pyenv_exists(pe, prefix))
		return xstrdup(prefix);
	if (pl >= 2 && prefix[pl - 1] == 't' && isdigit((unsigned char)prefix[pl - 2])) {
		pe->doubt = 1;	/* "3.13t": free-threaded, not plain CPython */
		return NULL;
	}
	numeric = numeric_fields(prefix, f) > 0;
	buf_printf(&b, "%s/versions", pe->root);
	d = opendir(buf_str(&b));
	buf_release(&b);
	while (d && (de = readdir(d)) != NULL) {
		if (!latest_candidate(pe, de->d_name, prefix, pl))
			continue;
		if (!numeric || !numeric_fields(de->d_name, f)) {
			pe->doubt = 1;
			break;
		}
		latest_offer(&l, de->d_name, f);
	}
	if (d)
		closedir(d);
	if (pe->doubt || l.tie) {
		pe->doubt = 1;
		free(l.winner);
		return NULL;
	}
	return l.winner;
}

/* One entry of PYENV_VERSION as `pyenv-version-name -f` resolves it. */
static char *pyenv_resolve_name(struct pyenv *pe, const char *v)
{
	const char *norm = strncmp(v, "python-", 7) ? v : v + 7;
	char *r;

	if (!strcmp(v, "system") || pyenv_exists(pe, v))
		return xstrdup(v);
	if (pyenv_exists(pe, norm))
		return xstrdup(norm);
	if ((r = pyenv_latest(pe, v)) != NULL || pe->doubt)
		return r;
	if ((r = pyenv_latest(pe, norm)) != NULL || pe->doubt)
		return r;
	return xstrdup(norm);
}

/* pyenv-version-file-read: the first word of every line that is neither
 * empty nor a comment, joined by ':' - a new string, "" when the file is
 * missing or empty (pyenv then uses "system"), NULL with pe->doubt when
 * the file is something bash's `read -n 1024` would cut differently. */
static char *pyenv_file_read(struct pyenv *pe, const char *path)
{
	struct buf out = BUF_INIT;
	struct blob b;
	size_t pos = 0;
	int missing;

	if (peek_read_text(path, PEEK_SMALL_CAP, &b, &missing) < 0) {
		if (!missing)
			pe->doubt = 1;	/* unreadable, too large, or binary */
		return pe->doubt ? NULL : xstrdup("");
	}
	while (pos < b.len) {
		const char *line = b.data + pos, *nl = memchr(line, '\n', b.len - pos);
		size_t len = nl ? (size_t)(nl - line) : b.len - pos, i = 0, w;

		pos += len + 1;
		if (len >= 1024) {
			pe->doubt = 1;
			break;
		}
		while (i < len && strchr(" \t\r", line[i]))
			i++;
		for (w = i; w < len && !strchr(" \t\r", line[w]); w++)
			;
		if (w == i || line[i] == '#')
			continue;
		if (!pyenv_name_safe(line + i, w - i)) {
			pe->doubt = 1;	/* pyenv's path-traversal check or a glob */
			break;
		}
		if (out.len)
			buf_putc(&out, ':');
		buf_add(&out, line + i, w - i);
	}
	blob_release(&b);
	if (pe->doubt) {
		buf_release(&out);
		return NULL;
	}
	return out.len ? buf_detach(&out) : xstrdup("");
}

/* find_local_version_file: dir, then each parent, then "/". */
static char *pyenv_find_local(const char *dir)
{
	char *d = xstrdup(dir);

	for (;;) {
		char *f = path_join(d[0] ? d : "/", ".python-version");
		char *slash;

		if (is_file(f)) {
			free(d);
			return f;
		}
		free(f);
		if (!d[0])
			break;
		slash = strrchr(d, '/');
		if (!slash)
			break;
		*slash = '\0';
	}
	free(d);
	return NULL;
}

/* An absolute path without "." or ".." components or doubled slashes,
 * which `cd` and our walk up would read the same way. */
static int path_plain(const char *p)
{
	const char *c;

	if (p[0] != '/' || strstr(p, "//"))
		return 0;
	for (c = p; c; c = strchr(c + 1, '/')) {
		size_t n = strcspn(c + 1, "/");

		if ((n == 1 && c[1] == '.') || (n == 2 && !strncmp(c + 1, "..", 2)))
			return 0;
	}
	return 1;
}

/* PYENV_VERSION as `pyenv exec` sees it before resolving: from the
 * environment, else the version file that pyenv-version-file picks.  A new
 * string ("" means system), or NULL when not certain. */
static char *pyenv_version_raw(struct pyenv *pe, const char *pwd)
{
	const char *v = peek_env_get(pe->env, "PYENV_VERSION");
	const char *pdir = peek_env_get(pe->env, "PYENV_DIR");
	char *file = NULL, *s;

	if (v && *v)
		return xstrdup(v);
	if (pdir && *pdir) {
		/* pyenv cd's there: only a plain absolute path reads the same */
		if (!path_plain(pdir) || !is_dir(pdir)) {
			pe->doubt = 1;
			return NULL;
		}
		file = pyenv_find_local(pdir);
		if (!file && strcmp(pdir, pwd))
			file = pyenv_find_local(pwd);
	} else {
		file = pyenv_find_local(pwd);
	}
	if (!file)
		file = path_join(pe->root, "version");
	s = pyenv_file_read(pe, file);
	free(file);
	return s;
}

/* 1 when one of the directories libexec/pyenv puts in front of PATH (its
 * libexec and the plugins' bin directories) has cmd: pyenv's "system"
 * would then be that, which we do not try to name. */
static int pyenv_own_bins_have(const struct pyenv *pe)
{
	const char *roots[2] = { pe->prefix, pe->root };
	struct buf b = BUF_INIT;
	int hit;
	size_t i;

	buf_printf(&b, "%s/libexec/%s", pe->prefix, pe->cmd);
	hit = access(buf_str(&b), X_OK) == 0;
	for (i = 0; i < 2 && !hit; i++) {
		DIR *d;
		struct dirent *de;

		b.len = 0;
		buf_printf(&b, "%s/plugins", roots[i]);
		d = opendir(buf_str(&b));
		while (d && !hit && (de = readdir(d)) != NULL) {
			if (de->d_name[0] == '.')
				continue;
			b.len = 0;
			buf_printf(&b, "%s/plugins/%s/bin/%s", roots[i], de->d_name,
				   pe->cmd);
			hit = access(buf_str(&b), X_OK) == 0;
		}
		if (d)
			closedir(d);
	}
	buf_release(&b);
	return hit;
}

/* The next cmd on PATH once the shim directories are taken out, as
 * pyenv-which looks for the "system" version: a new string or NULL. */
static char *pyenv_system(const struct pyenv *pe, const char *shim,
			  const char *repo_root)
{
	const char *path = peek_env_get(pe->env, "PATH"), *p, *end;
	const char *home = peek_env_get(pe->env, "HOME");
	char *shims = path_join(pe->root, "shims"), *shimdir = xstrdup(shim);
	struct buf b = BUF_INIT, e = BUF_INIT;
	char *found = NULL;

	*strrchr(shimdir, '/') = '\0';
	for (p = path ? path : ""; *p; p = *end ? end + 1 : end) {
		const char *q;

		end = strchrnul(p, ':');
		e.len = 0;
		buf_add(&e, "", 0);
		for (q = p; q < end; q++) {	/* ${PATH//\~/$HOME} */
			if (*q == '~')
				buf_puts(&e, home ? home : "");
			else
				buf_putc(&e, *q);
		}
		if (e.len && strcmp(buf_str(&e), shims) && strcmp(buf_str(&e), shimdir)) {
			if (b.len)
				buf_putc(&b, ':');
			buf_puts(&b, buf_str(&e));
		}
	}
	if (b.len && !pyenv_own_bins_have(pe))
		found = spawn_which(pe->cmd, buf_str(&b), repo_root);
	buf_release(&e);
	buf_release(&b);
	free(shims);
	free(shimdir);
	return found;
}

/* pyenv-which over the resolved list, then "system": the first version
 * whose bin/ has an executable cmd.  Returns that path as a new string, or
 * NULL when pyenv would run a system one (*sys gets it, a new string, when
 * found) or when not certain (pe->doubt). */
static char *pyenv_which(struct pyenv *pe, char **names, size_t n,
			 const char *shim, const char *repo_root, char **sys)
{
	size_t i;

	*sys = NULL;
	for (i = 0; i < n && !pe->doubt; i++) {
		struct buf b = BUF_INIT;
		struct stat st;
		char *v;

		if (!strcmp(names[i], "system")) {
			*sys = pyenv_system(pe, shim, repo_root);
			if (*sys)
				return NULL;
			continue;
		}
		/* pyenv-prefix: pyenv-latest -f, then the directory must exist */
		v = pyenv_latest(pe, names[i]);
		if (!v)
			continue;
		buf_printf(&b, "%s/versions/%s/bin/%s", pe->root, v, pe->cmd);
		free(v);
		if (access(buf_str(&b), X_OK) == 0) {
			if (stat(buf_str(&b), &st) == 0 && S_ISREG(st.st_mode))
				return buf_detach(&b);
			pe->doubt = 1;	/* bash's -x is true for a directory */
		}
		buf_release(&b);
	}
	if (!pe->doubt)
		*sys = pyenv_system(pe, shim, repo_root);
	return NULL;
}

/* Split a ':' list into resolved names; NULL (with pe->doubt) on an empty
 * or unsafe field.  *n gets the count; the caller frees each and the
 * vector. */
static char **pyenv_names(struct pyenv *pe, const char *list, size_t *n)
{
	char **v = NULL;
	size_t cap = 0;
	const char *p = list;

	*n = 0;
	for (;;) {
		size_t len = strcspn(p, ":");
		char *one, *r;

		if (!pyenv_name_safe(p, len)) {
			pe->doubt = 1;
			break;
		}
		one = xstrndup(p, len);
		r = pyenv_resolve_name(pe, one);
		free(one);
		if (!r)
			break;
		grow(&v, sizeof(*v), &cap, *n + 1);
		v[(*n)++] = r;
		if (!p[len])
			break;
		p += len + 1;
	}
	if (pe->doubt) {
		while (*n)
			free(v[--*n]);
		free(v);
		return NULL;
	}
	return v;
}

/* A pyenv shim at path (canonical c) resolved as pyenv would resolve it.
 * 1 with the version and *real; 0 otherwise, with *real set to the system
 * interpreter when that is what pyenv would run. */
static int shim_lookup(struct pyenv *pe, const char *path,
		       const char *repo_root, char *out, size_t outlen,
		       char **real)
{
	char *pwd, *list, **names = NULL, *bin = NULL, *c = NULL, *sys = NULL;
	size_t n = 0, i;
	int found = 0;

	if (!pyenv_hooks_clean(pe))
		return 0;
	pwd = realpath(repo_root ? repo_root : ".", NULL);
	if (!pwd)
		return 0;
	list = pyenv_version_raw(pe, pwd);
	free(pwd);
	if (!list)
		return 0;
	if (list[0] && strcmp(list, "system"))
		names = pyenv_names(pe, list, &n);
	free(list);
	if (!pe->doubt)
		bin = pyenv_which(pe, names, n, path, repo_root, &sys);
	if (bin && !pe->doubt && (c = realpath(bin, NULL)) != NULL) {
		found = peek_path_lookup(PEEK_PYTHON, c, out, outlen);
		if (real) {
			*real = bin;
			bin = NULL;
		}
	} else if (sys && !pe->doubt && real) {
		*real = sys;
		sys = NULL;
	}
	free(sys);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(bin);
	free(c);
	return found;
}

int peek_pyenv_lookup(const char *path, const char *c, const char *repo_root,
		       char *const env[], char *out, size_t outlen, char **real)
{
	struct pyenv pe = { NULL, NULL, peek_base_name(path), env, 0 };
	int found = -1;

	if (pyenv_shim_read(c, &pe))
		found = shim_lookup(&pe, path, repo_root, out, outlen, real);
	free(pe.root);
	free(pe.prefix);
	return found;
}
