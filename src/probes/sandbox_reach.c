/* sandbox_reach.c - the sandbox probe's escape hatches and secrets in
 * reach (see probe_sandbox.c for the probe and what it touches).
 *
 * sudo is found by stat() and judged from the sudoers files that are readable,
 * never run; a credential file is opened only when its "token line"
 * decides (sandbox.h), and nothing of it is kept or shown: the report
 * names files, never contents.
 */
#include "probe_sandbox.h"
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

/* ---- escape hatches (the container sockets and DOCKER_HOST are
 * sandbox_sock.c's) ---- */

/* ---- sudo ---- */

/* dir/sudo when it is a setuid-root regular file (stat only), else NULL;
 * the caller frees it. */
static char *sudo_at(const char *dir)
{
	char *f = path_join(dir, "sudo");
	struct stat st;

	if (stat(f, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & S_ISUID) &&
	    st.st_uid == 0)
		return f;
	free(f);
	return NULL;
}

/* A setuid-root sudo on PATH (absolute entries) or in the usual places,
 * or NULL; the caller frees it. */
static char *sudo_find(void)
{
	static const char *const dirs[] = {
		"/usr/bin", "/bin", "/usr/sbin", "/sbin", "/usr/local/bin", "/usr/local/sbin",
	};
	const char *path = getenv("PATH");
	char *copy = xstrdup(path ? path : ""), *p = copy, *dir, *found = NULL;
	size_t i;

	while (!found && (dir = strsep(&p, ":")) != NULL)
		if (dir[0] == '/')
			found = sudo_at(dir);
	for (i = 0; !found && i < ARRAY_SIZE(dirs); i++)
		found = sudo_at(dirs[i]);
	free(copy);
	return found;
}

struct sudo_file {
	char *path;
	struct blob text;
};

struct sudo_hits {
	cJSON *rules;
	const char *file;
	size_t n;
	char first[512];
};

static void sudo_hit(unsigned line, const char *what, void *arg)
{
	struct sudo_hits *h = arg;
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "file", h->file);
	cJSON_AddNumberToObject(o, "line", line);
	cJSON_AddStringToObject(o, "what", what);
	cJSON_AddItemToArray(h->rules, o);
	if (!h->n++)
		snprintf(h->first, sizeof(h->first), "%s at %s:%u", what, h->file, line);
}

/* /etc/sudoers and the files of /etc/sudoers.d that sudo reads (in its
 * order: sorted), each read only when readable; the others' paths go to
 * unreadable. */
static size_t sudo_files(struct sudo_file *files, size_t max, struct names *unreadable)
{
	struct names d = { 0 };
	size_t n = 0, i;
	DIR *dir;

	d.n = 0;
	sbx_names_add(&d, "/etc/sudoers");
	if ((dir = opendir("/etc/sudoers.d")) != NULL) {
		struct dirent *de;
		size_t first = d.n;

		while ((de = readdir(dir)) != NULL && d.n < 256)
			if (sandbox_sudoers_d_name(de->d_name)) {
				char *p = path_join("/etc/sudoers.d", de->d_name);

				sbx_names_add(&d, p);
				free(p);
			}
		closedir(dir);
		if (d.n > first)
			qsort(d.v + first, d.n - first, sizeof(*d.v), sbx_name_cmp);
	} else if (errno != ENOENT) {
		sbx_names_add(unreadable, "/etc/sudoers.d");
	}
	for (i = 0; i < d.n && n < max; i++) {
		if (access(d.v[i], F_OK) < 0 && errno == ENOENT)
			continue;
		if (faccessat(AT_FDCWD, d.v[i], R_OK, AT_EACCESS) < 0 ||
		    saferead_path(d.v[i], SBX_ETC_CAP, &files[n].text) < 0) {
			sbx_names_add(unreadable, d.v[i]);
			continue;
		}
		files[n++].path = xstrdup(d.v[i]);
	}
	sbx_names_release(&d);
	return n;
}

/* Who we are, for sudoers: names from /etc/passwd and /etc/group. */
struct who_buf {
	struct sudo_who who;
	char user[64];
	char **names;
	unsigned long *gids;
};

static void who_fill(struct who_buf *w, const struct proc_identity *id)
{
	struct blob b;
	size_t i, n = id->ngroups + 1;

	memset(w, 0, sizeof(*w));
	w->who.uid = (unsigned long)id->uid[0];	/* sudo asks for the real user */
	if (sbx_etc_read("/etc/passwd", &b) == 0) {
		if (sandbox_passwd_find(b.data, b.len, w->who.uid, w->user, sizeof(w->user),
					NULL, 0) == 0)
			w->who.user = w->user;
		blob_release(&b);
	}
	w->names = xcalloc(n, sizeof(*w->names));
	w->gids = xcalloc(n, sizeof(*w->gids));
	w->gids[0] = (unsigned long)id->gid[0];
	for (i = 1; i < n; i++)
		w->gids[i] = id->groups[i - 1];
	if (sbx_etc_read("/etc/group", &b) == 0) {
		for (i = 0; i < n; i++) {
			char name[64];

			if (sandbox_group_name(b.data, b.len, w->gids[i], name, sizeof(name)) == 0)
				w->names[i] = xstrdup(name);
		}
		blob_release(&b);
	}
	w->who.groups = (const char *const *)w->names;
	w->who.gids = w->gids;
	w->who.ngroups = n;
}

static void who_release(struct who_buf *w)
{
	size_t i;

	for (i = 0; i < w->who.ngroups; i++)
		free(w->names[i]);
	free(w->names);
	free(w->gids);
}

/* The sudoers rules that let this user sudo without a password. */
static void sudo_rules(const struct proc_identity *id, struct sudo_hits *h,
		       struct names *unreadable)
{
	struct sudo_file files[257];
	struct sudo_aliases aliases = { 0 };
	struct who_buf w;
	size_t n, i;

	memset(files, 0, sizeof(files));
	n = sudo_files(files, ARRAY_SIZE(files), unreadable);
	who_fill(&w, id);
	for (i = 0; i < n; i++)
		sandbox_sudoers_aliases(files[i].text.data, files[i].text.len, &aliases);
	for (i = 0; i < n; i++) {
		h->file = files[i].path;
		sandbox_sudoers_scan(files[i].text.data, files[i].text.len, &w.who, &aliases,
				     sudo_hit, h);
	}
	for (i = 0; i < n; i++) {
		free(files[i].path);
		blob_release(&files[i].text);
	}
	sudo_aliases_release(&aliases);
	who_release(&w);
}

void sbx_escape_sudo(const struct sbx *x, struct result *r)
{
	struct proc_identity id;
	struct names unreadable = { 0 };
	struct sudo_hits h = { NULL, NULL, 0, "" };
	char *sudo;

	if (sbx_read_identity(x, &id, r) < 0)
		return;
	sudo = sudo_find();
	sbx_add_nullable(r->data, "sudo", sudo);
	if (id.no_new_privs < 0)
		cJSON_AddNullToObject(r->data, "no_new_privs");
	else
		cJSON_AddBoolToObject(r->data, "no_new_privs", id.no_new_privs);
	h.rules = cJSON_AddArrayToObject(r->data, "rules");
	if (sudo && id.uid[1] != 0 && id.no_new_privs != 1)
		sudo_rules(&id, &h, &unreadable);
	cJSON_AddItemToObject(r->data, "unreadable", sbx_names_json(&unreadable));
	if (id.uid[1] == 0)
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "already root: nothing to gain "
			"(see sandbox.identity.user)");
	else if (!sudo)
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "no setuid sudo");
	else if (id.no_new_privs == 1)
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "%s cannot raise privileges: "
			"no_new_privs is set", sudo);
	else if (h.n)
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "sudo without a password: %s%s",
			h.first, h.n > 1 ? " and more" : "");
	else if (unreadable.n)
		sbx_verdict(x, r, 0, STATUS_WARN, REASON_UNDECIDED, "cannot tell: %s is not "
			"readable (setuid %s)", unreadable.v[0], sudo);
	else
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "no sudoers rule lets this user "
			"sudo without a password");
	free(sudo);
	sbx_names_release(&unreadable);
	proc_identity_release(&id);
}

void sbx_escape_var_run(const struct sbx *x, struct result *r)
{
	int w = sbx_can_write("/var/run");

	cJSON_AddStringToObject(r->data, "path", "/var/run");
	cJSON_AddBoolToObject(r->data, "writable", w);
	sbx_verdict(x, r, !w, STATUS_PASS, REASON_NONE, "/var/run is %s",
		w ? "writable" : "not writable");
}

/* ---- secrets in reach ---------------------------------------------- */

/* The home directory looked in: HOME when absolute, else /etc/passwd's
 * for this user; NULL when there is none (the caller frees it). */
static char *home_dir(void)
{
	const char *home = getenv("HOME");
	char dir[4096] = "";
	struct blob b;

	if (home && home[0] == '/')
		return xstrdup(home);
	if (sbx_etc_read("/etc/passwd", &b) == 0) {
		sandbox_passwd_find(b.data, b.len, (unsigned long)geteuid(), NULL, 0, dir,
				    sizeof(dir));
		blob_release(&b);
	}
	return dir[0] == '/' ? xstrdup(dir) : NULL;
}

/* An environment variable's absolute path, else home/rel (freed by the
 * caller). */
static char *secret_path(const char *home, const char *var, const char *rel)
{
	const char *v = var ? getenv(var) : NULL;

	if (v && v[0] == '/')
		return xstrdup(v);
	return path_join(home, rel);
}

/* What one secret check found. */
struct found {
	struct names names;	/* what is in reach, by name */
	int present;		/* the file or directory exists */
	int undecided;		/* present, but could not be looked into */
	const char *why;	/* why not, for the message (static) */
	char var[128];		/* npmrc: the ${VAR} its token comes from */
};

/* A credential file whose token line decides (which: SECRET_AWS, _DOCKER,
 * _NPMRC or _NETRC): read it, never shown, nothing kept. */
static void token_file(const char *path, const char *label, int which, struct found *f)
{
	struct blob b;
	int has = 0;

	if (saferead_path(path, SPEC_FILE_CAP, &b) < 0) {
		int code = errno;

		f->present = code != ENOENT && code != ENOTDIR && code != ELOOP;
		if (f->present && code != EACCES && code != EINVAL && code != EISDIR) {
			f->undecided = 1;
			f->why = code == EFBIG ? "too large to look into" : "cannot be read";
		} else if (f->present) {
			f->why = code == EACCES ? "present, not readable" :
				 "present, not a regular file";
		}
		return;
	}
	f->present = 1;
	switch (which) {
	case SECRET_AWS:
		has = sandbox_aws_secret(b.data, b.len);
		break;
	case SECRET_DOCKER:
		has = sandbox_docker_auth(b.data, b.len);
		break;
	case SECRET_NPMRC: {
		int t = sandbox_npmrc_token(b.data, b.len, f->var, sizeof(f->var));
		const char *v = t == 2 ? getenv(f->var) : NULL;

		has = t == 1 || (v && *v);
		if (t == 2 && !has)
			f->why = "its token variable is not set";
		if (t != 2)
			f->var[0] = '\0';
		break;
	}
	default:
		has = sandbox_netrc_password(b.data, b.len);
		break;
	}
	blob_release(&b);
	if (has)
		sbx_names_add(&f->names, label);
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
			sbx_names_add(&f->names, name);
	}
	free(p);
}

static int is_private_key_name(const char *name, DIR *d)
{
	size_t n = strlen(name);
	struct stat st;
	char pub[NAME_MAX + 8];

	if (n >= 4 && !strcmp(name + n - 4, ".pub"))
		return 0;
	if (!strncmp(name, "id_", 3) || !strcmp(name, "identity"))
		return 1;
	/* any other key with its public half beside it */
	if (n + 5 > sizeof(pub))
		return 0;
	memcpy(pub, name, n);
	memcpy(pub + n, ".pub", 5);
	return fstatat(dirfd(d), pub, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

static void ssh_keys(const char *dir, struct found *f)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t looked = 0, unreadable = 0;
	const char *agent = getenv("SSH_AUTH_SOCK");
	struct stat st;

	/* an agent that signs for us is as good as its keys */
	int have_agent = agent && agent[0] == '/' && stat(agent, &st) == 0 &&
			 S_ISSOCK(st.st_mode) && sbx_can_write(agent);

	if (have_agent)
		sbx_names_add(&f->names, "the ssh-agent socket (SSH_AUTH_SOCK)");
	if (!d) {
		f->present = errno != ENOENT && errno != ENOTDIR;
		if (f->present)
			f->why = errno == ELOOP ? "a loop of symbolic links" : "not readable";
		return;
	}
	f->present = 1;
	while ((de = readdir(d)) != NULL && looked < SBX_LIST_MAX) {
		if (de->d_name[0] == '.' || !is_private_key_name(de->d_name, d))
			continue;
		looked++;
		/* a key that is a loop, a FIFO or unreadable is out of reach */
		if (fstatat(dirfd(d), de->d_name, &st, 0) < 0 || !S_ISREG(st.st_mode) ||
		    faccessat(dirfd(d), de->d_name, R_OK, AT_EACCESS) < 0) {
			unreadable++;
			continue;
		}
		sbx_names_add(&f->names, de->d_name);
	}
	closedir(d);
	if (f->names.n > (size_t)have_agent)	/* qsort(NULL, 0) is undefined */
		qsort(f->names.v + have_agent, f->names.n - (size_t)have_agent,
		      sizeof(*f->names.v), sbx_name_cmp);
	if (unreadable && !f->names.n)
		f->why = "its keys are not readable";
}

static void secret_look(int which, const char *home, struct found *f, char **shown)
{
	char *p;

	switch (which) {
	case SECRET_SSH:
		p = path_join(home, ".ssh");
		ssh_keys(p, f);
		break;
	case SECRET_AWS:
		p = secret_path(home, "AWS_SHARED_CREDENTIALS_FILE", ".aws/credentials");
		token_file(p, "credentials", SECRET_AWS, f);
		break;
	case SECRET_GCLOUD:
		p = secret_path(home, "CLOUDSDK_CONFIG", ".config/gcloud");
		cred_name(p, "credentials.db", f);
		cred_name(p, "access_tokens.db", f);
		cred_name(p, "application_default_credentials.json", f);
		cred_name(p, "legacy_credentials", f);
		break;
	case SECRET_DOCKER: {
		const char *dc = getenv("DOCKER_CONFIG");

		p = path_join(dc && dc[0] == '/' ? dc : home,
			      dc && dc[0] == '/' ? "config.json" : ".docker/config.json");
		token_file(p, "config.json", SECRET_DOCKER, f);
		break;
	}
	case SECRET_NPMRC:
		p = secret_path(home, "NPM_CONFIG_USERCONFIG", ".npmrc");
		if (!getenv("NPM_CONFIG_USERCONFIG") && getenv("npm_config_userconfig")) {
			free(p);
			p = secret_path(home, "npm_config_userconfig", ".npmrc");
		}
		token_file(p, ".npmrc", SECRET_NPMRC, f);
		break;
	default:
		p = path_join(home, ".netrc");
		token_file(p, ".netrc", SECRET_NETRC, f);
		break;
	}
	*shown = p;
}

void sbx_secret_check(const struct sbx *x, struct result *r)
{
	int which = x->it->secret;
	char *home = home_dir(), *path = NULL, *show;
	struct found f;
	struct buf msg = BUF_INIT;
	size_t hl;

	memset(&f, 0, sizeof(f));
	if (!home) {
		cJSON_AddNullToObject(r->data, "path");
		cJSON_AddBoolToObject(r->data, "present", 0);
		cJSON_AddItemToObject(r->data, "found", cJSON_CreateArray());
		cJSON_AddNullToObject(r->data, "variable");
		result_set(r, STATUS_SKIP, "no home directory to look in");
		r->reason = REASON_NOT_APPLICABLE;
		return;
	}
	secret_look(which, home, &f, &path);
	/* ~/... when it is under HOME: the report need not spell the home */
	hl = strlen(home);
	if (!strncmp(path, home, hl) && path[hl] == '/') {
		buf_printf(&msg, "~%s", path + hl);
		show = buf_detach(&msg);
	} else {
		show = xstrdup(path);
	}
	cJSON_AddStringToObject(r->data, "path", show);
	cJSON_AddBoolToObject(r->data, "present", f.present);
	cJSON_AddItemToObject(r->data, "found", sbx_names_json(&f.names));
	sbx_add_nullable(r->data, "variable", *f.var ? f.var : NULL);
	/* a directory's findings are named; a file is its own finding */
	if (which == SECRET_SSH || which == SECRET_GCLOUD) {
		buf_puts(&msg, " (");
		sbx_list_text(&msg, f.names.v, f.names.n);
		buf_puts(&msg, ")");
	} else if (*f.var) {
		buf_printf(&msg, " (its token from %s)", f.var);
	}
	if (f.names.n)
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "in reach: %s%s", show,
			    buf_str(&msg));
	else if (f.undecided)
		sbx_verdict(x, r, 0, STATUS_WARN, REASON_UNDECIDED, "%s: %s", show, f.why);
	else if (f.present)
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "%s: %s", show,
			f.why ? f.why : "nothing in reach");
	else
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "no %s", show);
	buf_release(&msg);
	sbx_names_release(&f.names);
	free(show);
	free(path);
	free(home);
}

