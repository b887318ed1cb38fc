/* sandbox_reach.c - the sandbox probe's escape hatches (see
 * probe_sandbox.c for the probe and what it touches; the secrets in reach
 * are sandbox_cred.c's).
 *
 * sudo is found by stat() and judged from the sudoers files that are
 * readable, never run.
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

/* The groups the distributions' default sudoers grants every command:
 * Debian's and Ubuntu's "%sudo ALL=(ALL:ALL) ALL", Ubuntu's older
 * "%admin", Fedora's and Arch's "%wheel" (sudo's own examples/sudoers). */
static int admin_group(const char *name)
{
	return name && (!strcmp(name, "sudo") || !strcmp(name, "wheel") ||
			!strcmp(name, "admin"));
}

/* The sudoers rules that let this user sudo without a password; admin:
 * the user's groups of admin_group. */
static void sudo_rules(const struct proc_identity *id, struct sudo_hits *h,
		       struct names *unreadable, struct names *admin)
{
	struct sudo_file files[257];
	struct sudo_aliases aliases = { 0 };
	struct who_buf w;
	size_t n, i;

	memset(files, 0, sizeof(files));
	n = sudo_files(files, ARRAY_SIZE(files), unreadable);
	who_fill(&w, id);
	for (i = 0; i < w.who.ngroups; i++)
		if (admin_group(w.names[i]))
			sbx_names_add(admin, w.names[i]);
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
	struct names unreadable = { 0 }, admin = { 0 };
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
		sudo_rules(&id, &h, &unreadable, &admin);
	cJSON_AddItemToObject(r->data, "unreadable", sbx_names_json(&unreadable));
	cJSON_AddItemToObject(r->data, "admin_groups", sbx_names_json(&admin));
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
	else if (unreadable.n && admin.n)
		/* what is known: the setuid sudo, and a group the default
		 * rules grant everything; what is not: whether a NOPASSWD rule
		 * in the unreadable file spares the password.  Root is one
		 * command (and perhaps a password) away: a finding, said so */
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "in group %s, which the default "
			"sudoers lets run every command as root (setuid %s); whether without a "
			"password cannot be read: %s is not readable", admin.v[0], sudo,
			unreadable.v[0]);
	else if (unreadable.n)
		sbx_verdict(x, r, 0, STATUS_WARN, REASON_UNDECIDED, "cannot tell: %s is not "
			"readable (setuid %s)", unreadable.v[0], sudo);
	else
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "no sudoers rule lets this user "
			"sudo without a password");
	free(sudo);
	sbx_names_release(&unreadable);
	sbx_names_release(&admin);
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
