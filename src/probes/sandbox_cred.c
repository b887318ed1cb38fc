/* sandbox_cred.c - the sandbox probe's secrets in reach (see
 * probe_sandbox.c for the probe and what it touches).
 *
 * Where it looks, and how far:
 *  - Two home directories: HOME when absolute, and the one /etc/passwd
 *    gives this user (read as a file, never through NSS: getpwuid may ask
 *    a directory server over a socket, and the probe connects to nothing).
 *    A harness that points HOME at a scratch directory leaves the real
 *    home's credentials in reach when the sandbox can still read it, so
 *    both are looked in; data.homes says which was which.
 *  - Credential files by name (the places each tool reads: git's store,
 *    gh's hosts.yml, KUBECONFIG, ...), read through saferead only when a
 *    token line decides (credkind.h, sandbox.h), the bytes zeroed after.
 *  - ~/.ssh by content, whatever the names: each readable regular file's
 *    head, opened O_NOFOLLOW|O_NONBLOCK|O_CLOEXEC, at most 4 KiB and only
 *    as far as credkind_key needs to tell a private key (64 bytes for a
 *    key that starts with its header).
 *  - The environment by name only: a value is looked at for being empty,
 *    never copied.
 *  - /run/secrets and /var/run/secrets (docker and compose secrets,
 *    BuildKit's secret mounts, Kubernetes' service-account token) by name
 *    and permission: nothing there is opened.
 * Nothing of a credential is kept or shown: the report names kinds,
 * files and variables, never contents.
 */
#include "probe_sandbox.h"
#include "credkind.h"
#include "saferead.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define KUBECONFIG_MAX 16	/* files of a KUBECONFIG list looked at */
#define SSH_DEPTH 1		/* ~/.ssh and the directories in it */
#define MOUNT_DEPTH 4		/* /run/secrets/kubernetes.io/serviceaccount */
#define HIT_MAX 256		/* findings listed, a check */

/* ---- where: the home directories ------------------------------------ */

struct home {
	char *path;
	const char *from;	/* "HOME" or "passwd" */
};

struct homes {
	struct home v[2];
	size_t n;
	const char *tilde;	/* HOME, shown as ~ (NULL: not absolute) */
};

/* This user's home in /etc/passwd, or NULL (the caller frees it). */
static char *passwd_home(void)
{
	char dir[4096] = "";
	struct blob b;

	if (sbx_etc_read("/etc/passwd", &b) == 0) {
		sandbox_passwd_find(b.data, b.len, (unsigned long)geteuid(), NULL, 0, dir,
				    sizeof(dir));
		blob_release(&b);
	}
	return dir[0] == '/' ? xstrdup(dir) : NULL;
}

/* Whether two directory names are one directory (the same inode, or the
 * same text when neither exists). */
static int same_dir(const char *a, const char *b)
{
	struct stat sa, sb;
	int ha = stat(a, &sa) == 0, hb = stat(b, &sb) == 0;

	if (ha && hb)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	return !ha && !hb && !strcmp(a, b);
}

static void homes_find(struct homes *h)
{
	const char *env = getenv("HOME");
	char *pw = passwd_home();

	memset(h, 0, sizeof(*h));
	if (env && env[0] == '/') {
		h->v[0].path = xstrdup(env);
		h->v[0].from = "HOME";
		h->tilde = h->v[0].path;
		h->n = 1;
	}
	if (pw && (!h->n || !same_dir(pw, h->v[0].path))) {
		h->v[h->n].path = pw;
		h->v[h->n++].from = "passwd";
	} else {
		free(pw);
	}
}

static void homes_release(struct homes *h)
{
	size_t i;

	for (i = 0; i < h->n; i++)
		free(h->v[i].path);
}

static cJSON *homes_json(const struct homes *h)
{
	cJSON *a = cJSON_CreateArray();
	size_t i;

	for (i = 0; i < h->n; i++) {
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "path", h->v[i].path);
		cJSON_AddStringToObject(o, "from", h->v[i].from);
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

/* path as the report shows it: ~/... under HOME, else as it is (freed by
 * the caller). */
static char *shown(const struct homes *h, const char *path)
{
	if (h->tilde) {
		size_t hl = strlen(h->tilde);

		while (hl > 1 && h->tilde[hl - 1] == '/')
			hl--;
		if (hl > 1 && !strncmp(path, h->tilde, hl) && path[hl] == '/') {
			struct buf b = BUF_INIT;

			buf_printf(&b, "~%s", path + hl);
			return buf_detach(&b);
		}
	}
	return xstrdup(path);
}

/* An environment variable's absolute path, else home/rel (freed by the
 * caller); the variable only counts in the first home looked in. */
static char *secret_path(const char *home, int first, const char *var, const char *rel)
{
	const char *v = var && first ? getenv(var) : NULL;

	if (v && v[0] == '/')
		return xstrdup(v);
	return path_join(home, rel);
}

/* ---- what: the findings of one check -------------------------------- */

struct found {
	const struct homes *homes;
	int pass;		/* which home is looked in: 0 the first */
	struct names names;	/* data.found: what is in reach, by name */
	struct names paths;	/* their paths as shown, for the message */
	cJSON *creds;		/* data.credentials: {kind, path, variable} */
	int present;		/* a file or directory looked for exists */
	int undecided;		/* present, but could not be looked into */
	const char *why;	/* why not, for the message (static) */
	char var[128];		/* npmrc: the ${VAR} its token comes from */
	char file_var[128];	/* the same, of the file being read */
	size_t elsewhere;	/* findings in a home other than the first */
};

/* One credential in reach: its kind, its file (NULL for a variable) and
 * the variable it comes from; label names it in data.found (a file of
 * the first home by its short name, any other by its path). */
static void found_add(struct found *f, const char *kind, const char *path,
		      const char *label, const char *variable)
{
	char *s = path ? shown(f->homes, path) : NULL;
	cJSON *o;

	if (f->names.n >= HIT_MAX) {
		free(s);
		return;
	}
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "kind", kind);
	sbx_add_nullable(o, "path", s);
	sbx_add_nullable(o, "variable", variable);
	cJSON_AddItemToArray(f->creds, o);
	sbx_names_add(&f->names, f->pass == 0 || !s ? label : s);
	if (s)
		sbx_names_add(&f->paths, s);
	f->elsewhere += f->pass != 0;
	free(s);
}

/* Findings gathered from a directory, sorted before they are added, so
 * that the report does not follow readdir's order. */
struct hit {
	char *label, *path;
	const char *kind;
};

struct hits {
	struct hit *v;
	size_t n, cap;
};

static void hits_add(struct hits *h, const char *label, const char *path,
		     const char *kind)
{
	if (h->n >= HIT_MAX)
		return;
	grow(&h->v, sizeof(*h->v), &h->cap, h->n + 1);
	h->v[h->n].label = xstrdup(label);
	h->v[h->n].path = xstrdup(path);
	h->v[h->n++].kind = kind;
}

static int hit_cmp(const void *a, const void *b)
{
	return strcmp(((const struct hit *)a)->label, ((const struct hit *)b)->label);
}

/* Sort, add to f and release. */
static void hits_flush(struct hits *h, struct found *f)
{
	size_t i;

	if (h->n)
		qsort(h->v, h->n, sizeof(*h->v), hit_cmp);
	for (i = 0; i < h->n; i++) {
		found_add(f, h->v[i].kind, h->v[i].path, h->v[i].label, NULL);
		free(h->v[i].label);
		free(h->v[i].path);
	}
	free(h->v);
	memset(h, 0, sizeof(*h));
}

/* ---- token files ---------------------------------------------------- */

/* What a credential file's text holds: the kind in reach, or NULL (and
 * f->file_var the variable it names, if any). */
typedef const char *(*recognise_fn)(const char *buf, size_t len, struct found *f);

static const char *rec_aws_credentials(const char *buf, size_t len, struct found *f)
{
	(void)f;
	return sandbox_aws_secret(buf, len) ? "aws-credentials" : NULL;
}

/* botocore reads aws_secret_access_key and aws_session_token from a
 * config file profile too (botocore/credentials.py, ConfigProvider) */
static const char *rec_aws_config(const char *buf, size_t len, struct found *f)
{
	(void)f;
	return sandbox_aws_secret(buf, len) ? "aws-config" : NULL;
}

static const char *rec_docker(const char *buf, size_t len, struct found *f)
{
	(void)f;
	return sandbox_docker_auth(buf, len) ? "docker-auth" : NULL;
}

static const char *rec_npmrc(const char *buf, size_t len, struct found *f)
{
	char *var = f->file_var;
	int t = sandbox_npmrc_token(buf, len, var, sizeof(f->file_var));
	const char *v = t == 2 ? getenv(var) : NULL;
	int has = t == 1 || (v && *v);

	if (t == 2 && !has && !f->why)
		f->why = "its token variable is not set";
	if (t != 2 || !has)
		var[0] = '\0';
	return has ? "npm-token" : NULL;
}

static const char *rec_netrc(const char *buf, size_t len, struct found *f)
{
	(void)f;
	return sandbox_netrc_password(buf, len) ? "netrc-password" : NULL;
}

static const char *rec_git(const char *buf, size_t len, struct found *f)
{
	(void)f;
	return credkind_git_credentials(buf, len) ? "git-credentials" : NULL;
}

static const char *rec_gh(const char *buf, size_t len, struct found *f)
{
	(void)f;
	return credkind_gh_hosts(buf, len) ? "gh-oauth-token" : NULL;
}

static const char *rec_kube(const char *buf, size_t len, struct found *f)
{
	(void)f;
	return credkind_kube_name(credkind_kube(buf, len));
}

static const char *rec_pypirc(const char *buf, size_t len, struct found *f)
{
	(void)f;
	return credkind_pypirc(buf, len) ? "pypi-password" : NULL;
}

/* A credential file whose token line decides: read it (saferead: never a
 * FIFO or a device, at most 1 MiB), ask rec, zero the bytes. */
static void token_file(const char *path, const char *label, recognise_fn rec,
		       struct found *f)
{
	struct blob b;
	const char *kind;
	const char *var = f->file_var;

	if (saferead_path(path, SPEC_FILE_CAP, &b) < 0) {
		int code = errno, here = code != ENOENT && code != ENOTDIR && code != ELOOP;

		f->present |= here;
		if (here && code != EACCES && code != EINVAL && code != EISDIR) {
			f->undecided = 1;
			f->why = code == EFBIG ? "too large to look into" : "cannot be read";
		} else if (here && !f->why) {
			f->why = code == EACCES ? "present, not readable" :
				 "present, not a regular file";
		}
		return;
	}
	f->present = 1;
	f->file_var[0] = '\0';
	kind = rec(b.data, b.len, f);
	explicit_bzero(b.data, b.len);
	blob_release(&b);
	if (kind && *var && !*f->var)
		snprintf(f->var, sizeof(f->var), "%s", var);
	if (kind)
		found_add(f, kind, path, label, *var ? var : NULL);
	else if (!f->why)
		f->why = "no credential in it";
}

/* A file or directory that is itself the credential (gcloud's): in reach
 * when readable.  Nothing is read. */
static void cred_name(const char *dir, const char *name, struct found *f)
{
	char *p = path_join(dir, name);
	struct stat st;

	if (stat(p, &st) == 0) {
		f->present = 1;
		if (faccessat(AT_FDCWD, p, R_OK, AT_EACCESS) == 0)
			found_add(f, "gcloud-credentials", p, name, NULL);
	}
	free(p);
}

/* ---- ~/.ssh: private keys by content -------------------------------- */

/*
 * The kind of private key dir/name holds, by its first bytes (credkind_key
 * decides how many: 64, then up to 4 KiB): a credkind_key kind, or -1
 * when it cannot be opened and read as a regular file.  A symbolic link is
 * followed only when its target is a regular file (what `cat` would read);
 * nothing that is not one is opened.  The bytes are zeroed.
 */
static int key_kind(int dfd, const char *name)
{
	char buf[CREDKIND_HEAD_MAX];
	size_t have = 0, want = 64;
	int fd, kind = -1;
	struct stat st;

	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0 && errno == ELOOP && fstatat(dfd, name, &st, 0) == 0 &&
	    S_ISREG(st.st_mode))
		fd = openat(dfd, name, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -1;
	}
	for (;;) {
		ssize_t n = read(fd, buf + have, want - have);
		int eof;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			kind = -1;
			break;
		}
		have += (size_t)n;
		eof = n == 0 || (off_t)have >= st.st_size;
		kind = credkind_key(buf, have, eof);
		if (kind != CREDKIND_MORE)
			break;
		if (have == want) {
			if (want == sizeof(buf)) {
				kind = CREDKIND_KEY_NONE;
				break;
			}
			want = want * 4 < sizeof(buf) ? want * 4 : sizeof(buf);
		}
	}
	explicit_bzero(buf, have);
	close(fd);
	return kind;
}

/* Files of ~/.ssh that OpenSSH keeps and that are never a private key:
 * not opened. */
static int not_a_key(const char *name)
{
	static const char *const names[] = {
		"known_hosts", "known_hosts.old", "authorized_keys", "authorized_keys2",
		"config", "environment", "rc",
	};
	size_t n = strlen(name), i;

	if (n >= 4 && !strcmp(name + n - 4, ".pub"))
		return 1;
	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(name, names[i]))
			return 1;
	return 0;
}

/* A name that is a private key's by OpenSSH's habits (id_*, identity, or
 * a .pub beside it): one that cannot be read is counted as out of reach. */
static int key_name(int dfd, const char *name)
{
	size_t n = strlen(name);
	struct stat st;
	char pub[NAME_MAX + 8];

	if (!strncmp(name, "id_", 3) || !strcmp(name, "identity"))
		return 1;
	if (n + 5 > sizeof(pub))
		return 0;
	memcpy(pub, name, n);
	memcpy(pub + n, ".pub", 5);
	return fstatat(dfd, pub, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

struct ssh_walk {
	struct hits hits;
	size_t looked, unreadable;
};

static void ssh_dir(int dfd, const char *dir, const char *prefix, int depth,
		    struct ssh_walk *w)
{
	DIR *d = fdopendir(dfd);
	struct dirent *de;

	if (!d) {
		close(dfd);
		return;
	}
	while ((de = readdir(d)) != NULL && w->looked < SBX_LIST_MAX) {
		const char *name = de->d_name;
		struct stat st;
		char *label, *path;
		int kind;

		if (!strcmp(name, ".") || !strcmp(name, "..") || not_a_key(name))
			continue;
		w->looked++;
		if (fstatat(dirfd(d), name, &st, 0) < 0) {
			w->unreadable += key_name(dirfd(d), name);	/* a loop */
			continue;
		}
		label = *prefix ? path_join(prefix, name) : xstrdup(name);
		path = path_join(dir, name);
		if (S_ISDIR(st.st_mode) && depth < SSH_DEPTH) {
			int sub = openat(dirfd(d), name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

			if (sub >= 0)
				ssh_dir(sub, path, label, depth + 1, w);
		} else if (S_ISREG(st.st_mode)) {
			kind = faccessat(dirfd(d), name, R_OK, AT_EACCESS) == 0 ?
			       key_kind(dirfd(d), name) : -1;
			if (kind > 0)
				hits_add(&w->hits, label, path, credkind_key_name(kind));
			else if (kind < 0)
				w->unreadable += key_name(dirfd(d), name);
		}
		free(label);
		free(path);
	}
	closedir(d);
}

static void ssh_keys(const char *dir, struct found *f)
{
	const char *agent = getenv("SSH_AUTH_SOCK");
	struct ssh_walk w;
	struct stat st;
	int dfd;

	memset(&w, 0, sizeof(w));
	/* an agent that signs for us is as good as its keys */
	if (f->pass == 0 && agent && agent[0] == '/' && stat(agent, &st) == 0 &&
	    S_ISSOCK(st.st_mode) && sbx_can_write(agent))
		found_add(f, "ssh-agent-socket", agent, "the ssh-agent socket (SSH_AUTH_SOCK)",
			  "SSH_AUTH_SOCK");
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		int code = errno;

		if (code != ENOENT && code != ENOTDIR) {
			f->present = 1;
			if (!f->why)
				f->why = code == ELOOP ? "a loop of symbolic links" : "not readable";
		}
		return;
	}
	f->present = 1;
	ssh_dir(dfd, dir, "", 0, &w);
	hits_flush(&w.hits, f);
	if (w.unreadable && !f->names.n && !f->why)
		f->why = "its keys are not readable";
	if (!f->why && !f->names.n)
		f->why = "no private key in it";
}

/* ---- each check's places in one home -------------------------------- */

static void look_kube(const char *home, int first, struct found *f, char **primary)
{
	const char *list = first ? getenv("KUBECONFIG") : NULL;
	char *copy, *p, *one;
	size_t n = 0;

	/* client-go: KUBECONFIG is a list (':' on Linux), merged; else
	 * ~/.kube/config (clientcmd.RecommendedHomeFile) */
	if (!list || !*list) {
		*primary = path_join(home, ".kube/config");
		token_file(*primary, "config", rec_kube, f);
		return;
	}
	copy = xstrdup(list);
	p = copy;
	while ((one = strsep(&p, ":")) != NULL && n < KUBECONFIG_MAX) {
		char *s;

		if (one[0] != '/')
			continue;
		if (!*primary)
			*primary = xstrdup(one);
		s = shown(f->homes, one);
		token_file(one, s, rec_kube, f);
		free(s);
		n++;
	}
	free(copy);
	if (!*primary)
		*primary = path_join(home, ".kube/config");
}

static void look_git(const char *home, int first, struct found *f, char **primary)
{
	const char *xdg = first ? getenv("XDG_CONFIG_HOME") : NULL;
	char *p;

	/* git's store reads ~/.git-credentials and $XDG_CONFIG_HOME/git/
	 * credentials (~/.config/git/credentials), credential-store.c */
	*primary = path_join(home, ".git-credentials");
	token_file(*primary, ".git-credentials", rec_git, f);
	p = xdg && xdg[0] == '/' ? path_join(xdg, "git/credentials") :
	    path_join(home, ".config/git/credentials");
	token_file(p, "git/credentials", rec_git, f);
	free(p);
}

static void look_gh(const char *home, int first, struct found *f, char **primary)
{
	const char *dir = first ? getenv("GH_CONFIG_DIR") : NULL;
	const char *xdg = first ? getenv("XDG_CONFIG_HOME") : NULL;

	/* gh's ConfigDir: GH_CONFIG_DIR, else $XDG_CONFIG_HOME/gh, else
	 * ~/.config/gh (cli/go-gh pkg/config) */
	if (dir && dir[0] == '/')
		*primary = path_join(dir, "hosts.yml");
	else if (xdg && xdg[0] == '/')
		*primary = path_join(xdg, "gh/hosts.yml");
	else
		*primary = path_join(home, ".config/gh/hosts.yml");
	token_file(*primary, "hosts.yml", rec_gh, f);
}

static void look_home(int which, const char *home, int first, struct found *f,
		      char **primary)
{
	char *p;

	switch (which) {
	case SECRET_SSH:
		*primary = path_join(home, ".ssh");
		ssh_keys(*primary, f);
		break;
	case SECRET_AWS:
		*primary = secret_path(home, first, "AWS_SHARED_CREDENTIALS_FILE",
				       ".aws/credentials");
		token_file(*primary, "credentials", rec_aws_credentials, f);
		p = secret_path(home, first, "AWS_CONFIG_FILE", ".aws/config");
		token_file(p, "config", rec_aws_config, f);
		free(p);
		break;
	case SECRET_GCLOUD:
		*primary = secret_path(home, first, "CLOUDSDK_CONFIG", ".config/gcloud");
		cred_name(*primary, "credentials.db", f);
		cred_name(*primary, "access_tokens.db", f);
		cred_name(*primary, "application_default_credentials.json", f);
		cred_name(*primary, "legacy_credentials", f);
		break;
	case SECRET_DOCKER: {
		const char *dc = first ? getenv("DOCKER_CONFIG") : NULL;

		*primary = dc && dc[0] == '/' ? path_join(dc, "config.json") :
			   path_join(home, ".docker/config.json");
		token_file(*primary, "config.json", rec_docker, f);
		break;
	}
	case SECRET_NPMRC:
		*primary = secret_path(home, first, "NPM_CONFIG_USERCONFIG", ".npmrc");
		if (first && !getenv("NPM_CONFIG_USERCONFIG") && getenv("npm_config_userconfig")) {
			free(*primary);
			*primary = secret_path(home, first, "npm_config_userconfig", ".npmrc");
		}
		token_file(*primary, ".npmrc", rec_npmrc, f);
		break;
	case SECRET_NETRC:
		*primary = path_join(home, ".netrc");
		token_file(*primary, ".netrc", rec_netrc, f);
		break;
	case SECRET_GIT:
		look_git(home, first, f, primary);
		break;
	case SECRET_GH:
		look_gh(home, first, f, primary);
		break;
	case SECRET_KUBE:
		look_kube(home, first, f, primary);
		break;
	default:
		*primary = path_join(home, ".pypirc");
		token_file(*primary, ".pypirc", rec_pypirc, f);
		break;
	}
}

/* ---- the environment, by name --------------------------------------- */

static void env_look(struct found *f)
{
	struct names v = { 0 };
	char **e;
	size_t i;

	for (e = environ; e && *e && v.n < HIT_MAX; e++) {
		const char *eq = strchr(*e, '=');
		char name[256];
		size_t n;

		if (!eq || eq == *e || !eq[1])	/* set but empty: nothing in it */
			continue;
		n = (size_t)(eq - *e);
		if (n >= sizeof(name))
			continue;
		memcpy(name, *e, n);
		name[n] = '\0';
		if (credkind_env_name(name)) {
			char *c = text_clean(name);

			sbx_names_add(&v, c);
			free(c);
		}
	}
	if (v.n)
		qsort(v.v, v.n, sizeof(*v.v), sbx_name_cmp);
	for (i = 0; i < v.n; i++)
		found_add(f, "environment-variable", NULL, v.v[i], v.v[i]);
	sbx_names_release(&v);
}

/* ---- mounted secrets ------------------------------------------------ */

/* Files beside a service-account token that are not secrets. */
static int public_name(const char *name)
{
	return !strcmp(name, "ca.crt") || !strcmp(name, "service-ca.crt") ||
	       !strcmp(name, "namespace");
}

static const char *mounted_kind(const char *path)
{
	size_t n = strlen(path);
	static const char sa[] = "/kubernetes.io/serviceaccount/token";

	return n >= sizeof(sa) - 1 && !strcmp(path + n - (sizeof(sa) - 1), sa) ?
	       "kubernetes-serviceaccount-token" : "mounted-secret";
}

/* A walk of a secrets directory: each readable regular file is one
 * (Kubernetes' "..data" links and their timestamped targets, whose names
 * start with a dot, are not walked: the visible names lead there). */
static void mounted_dir(const char *dir, int depth, struct hits *h, size_t *looked,
			int *unlisted)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d) {
		*unlisted |= errno != ENOENT && errno != ENOTDIR;
		return;
	}
	while ((de = readdir(d)) != NULL && *looked < SBX_LIST_MAX) {
		struct stat st;
		char *p;

		if (de->d_name[0] == '.' || public_name(de->d_name))
			continue;
		(*looked)++;
		if (fstatat(dirfd(d), de->d_name, &st, 0) < 0)
			continue;
		p = path_join(dir, de->d_name);
		if (S_ISDIR(st.st_mode) && depth < MOUNT_DEPTH)
			mounted_dir(p, depth + 1, h, looked, unlisted);
		else if (S_ISREG(st.st_mode) &&
			 faccessat(dirfd(d), de->d_name, R_OK, AT_EACCESS) == 0)
			hits_add(h, p, p, mounted_kind(p));
		free(p);
	}
	closedir(d);
}

static void mounted_look(struct found *f, char **primary)
{
	/* where docker and compose put secrets, and the kubelet the service
	 * account's (and EKS's, Azure's projected) tokens */
	static const char *const roots[] = { "/run/secrets", "/var/run/secrets" };
	static const char *const tokens[] = {
		"/var/run/secrets/kubernetes.io/serviceaccount/token",
		"/run/secrets/kubernetes.io/serviceaccount/token",
	};
	struct hits h = { 0 };
	struct stat first, st;
	size_t looked = 0, i, k;
	int have_first = 0, unlisted = 0;

	*primary = xstrdup(roots[0]);
	for (i = 0; i < ARRAY_SIZE(roots); i++) {
		if (stat(roots[i], &st) < 0)
			continue;
		f->present = 1;
		if (have_first && st.st_dev == first.st_dev && st.st_ino == first.st_ino)
			continue;	/* /var/run is /run */
		if (!have_first) {
			first = st;
			have_first = 1;
		}
		mounted_dir(roots[i], 1, &h, &looked, &unlisted);
	}
	/* a directory that cannot be listed may still let a known name be
	 * read (search permission without read) */
	for (i = 0; i < ARRAY_SIZE(tokens); i++) {
		int dup = 0;

		if (stat(tokens[i], &st) < 0 || !S_ISREG(st.st_mode) ||
		    faccessat(AT_FDCWD, tokens[i], R_OK, AT_EACCESS) < 0)
			continue;
		for (k = 0; k < h.n; k++) {
			struct stat o;

			dup |= stat(h.v[k].path, &o) == 0 && o.st_dev == st.st_dev &&
			       o.st_ino == st.st_ino;
		}
		if (!dup)
			hits_add(&h, tokens[i], tokens[i], mounted_kind(tokens[i]));
	}
	if (unlisted && !h.n) {
		f->undecided = 1;
		f->why = "cannot be listed";
	}
	hits_flush(&h, f);
}

/* ---- the check ------------------------------------------------------- */

static void message(const struct sbx *x, struct result *r, const struct found *f,
		    const char *show)
{
	int which = x->it->secret;
	struct buf msg = BUF_INIT;

	if (f->names.n) {
		if (which == SECRET_ENVIRONMENT) {
			sbx_list_text(&msg, f->names.v, f->names.n);
			sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "in reach: %s (by name; "
				    "values never read)", buf_str(&msg));
		} else if (which == SECRET_SSH || which == SECRET_GCLOUD ||
			   which == SECRET_MOUNTED) {
			sbx_list_text(&msg, f->names.v, f->names.n);
			sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "in reach: %s (%s)", show,
				    buf_str(&msg));
		} else {
			sbx_list_text(&msg, f->paths.v, f->paths.n);
			if (*f->var)
				buf_printf(&msg, " (its token from %s)", f->var);
			sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "in reach: %s",
				    buf_str(&msg));
		}
	} else if (f->undecided) {
		sbx_verdict(x, r, 0, STATUS_WARN, REASON_UNDECIDED, "%s: %s", show, f->why);
	} else if (which == SECRET_ENVIRONMENT) {
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "no token, secret, API key or "
			    "password variable is set");
	} else if (f->present) {
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "%s: %s", show,
			    f->why ? f->why : "nothing in reach");
	} else {
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "no %s", show);
	}
	buf_release(&msg);
}

void sbx_secret_check(const struct sbx *x, struct result *r)
{
	int which = x->it->secret;
	int homeless = which == SECRET_ENVIRONMENT || which == SECRET_MOUNTED;
	struct homes homes;
	struct found f;
	char *path = NULL, *show = NULL;
	size_t i;

	homes_find(&homes);
	memset(&f, 0, sizeof(f));
	f.homes = &homes;
	f.creds = cJSON_CreateArray();
	if (which == SECRET_ENVIRONMENT) {
		env_look(&f);
	} else if (which == SECRET_MOUNTED) {
		mounted_look(&f, &path);
	} else {
		for (i = 0; i < homes.n; i++) {
			char *p = NULL;

			f.pass = (int)i;
			look_home(which, homes.v[i].path, i == 0, &f, &p);
			if (!path)
				path = p;
			else
				free(p);
		}
	}
	if (path)
		show = shown(&homes, path);
	sbx_add_nullable(r->data, "path", show);
	cJSON_AddBoolToObject(r->data, "present", f.present || (which == SECRET_ENVIRONMENT &&
								  f.names.n));
	cJSON_AddItemToObject(r->data, "found", sbx_names_json(&f.names));
	sbx_add_nullable(r->data, "variable", *f.var ? f.var : NULL);
	cJSON_AddItemToObject(r->data, "credentials", f.creds);
	cJSON_AddItemToObject(r->data, "homes", homeless ? cJSON_CreateArray() :
				     homes_json(&homes));
	if (!homeless && !homes.n) {
		result_set(r, STATUS_SKIP, "no home directory to look in");
		r->reason = REASON_NOT_APPLICABLE;
	} else {
		message(x, r, &f, show);
		/* say which home held it when it is not the one HOME names */
		if (f.elsewhere && homes.n > 1)
			result_note(r, "%zu in %s, this user's home in /etc/passwd, not in HOME "
				    "(%s)", f.elsewhere, homes.v[1].path, homes.v[0].path);
	}
	sbx_names_release(&f.names);
	sbx_names_release(&f.paths);
	free(show);
	free(path);
	homes_release(&homes);
}
