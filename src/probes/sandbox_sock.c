/* sandbox_sock.c - the sandbox probe's container sockets and
 * DOCKER_HOST (the escape.docker_socket and escape.docker_host checks; see
 * probe_sandbox.c for the probe and what it touches).
 *
 * A container daemon's socket is found the ways the escape-hunting tools
 * find one, never by connecting to it: by name at the places daemons put
 * them (system, rootless from the real uid, Docker Desktop in HOME), the
 * socket DOCKER_HOST, CONTAINER_HOST and docker's contexts name, the
 * sockets bind-mounted into this mount namespace (/proc/self/mountinfo)
 * and a bounded walk for the names linPEAS searches for.  Whether one is
 * reachable is judged from permission (faccessat W_OK: what connect(2) on
 * a path needs) and whether a listener of it is visible in this network
 * namespace (/proc/net/unix).  Nothing is connected, no packet is sent.
 */
#include "probe_sandbox.h"
#include "procnet.h"
#include "saferead.h"
#include "sandbox_socktext.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#define SOCK_MAX 64		/* sockets reported */
#define CONTEXTS_MAX 32		/* docker contexts looked at */
#define LISTENERS_MAX 1024	/* listening paths of /proc/net/unix stat()ed */
#define MOUNTS_MAX 4096		/* mount points looked at */
#define WALK_ENTRIES 20000	/* directory entries the name search reads */
#define WALK_MS 100.0		/* and the time it may take */

/* One socket found. */
struct sock {
	char *path;
	const char *kind;	/* sandbox_sock_kind's, or the variable's */
	const char *source;	/* how it was found: "DOCKER_HOST", "context",
				 * "known", "mount", "search", "abstract" */
	dev_t dev;
	ino_t ino;
	int writable;
	int listening;		/* a listener is visible in this network
				 * namespace */
	int mounted;		/* its path is a mount point: lent in */
};

/* What the search did. */
struct walk {
	size_t dirs, entries, not_entered;	/* not entered: past the depth */
	const char *stopped;			/* NULL, "entries", "deadline" */
	double until;				/* clock_ms() */
};

struct sockset {
	struct sock v[SOCK_MAX];
	size_t n;
	int full;		/* more than SOCK_MAX */
	struct walk walk;
};

/* Add path when it is a socket (stat(2) follows links, as connect does)
 * not yet in the set. */
static void sock_add(struct sockset *s, const char *path, const char *kind,
		     const char *source)
{
	struct stat st;
	const char *slash;
	size_t i;

	if (!path || path[0] != '/' || stat(path, &st) < 0 || !S_ISSOCK(st.st_mode))
		return;
	for (i = 0; i < s->n; i++)
		if (s->v[i].dev == st.st_dev && s->v[i].ino == st.st_ino)
			return;	/* /var/run is /run; found twice */
	if (s->n == SOCK_MAX) {
		s->full = 1;
		return;
	}
	if (!kind) {
		slash = strrchr(path, '/');
		kind = sandbox_sock_kind(slash + 1);
	}
	s->v[s->n].path = xstrdup(path);
	s->v[s->n].kind = kind ? kind : "unknown";
	s->v[s->n].source = source;
	s->v[s->n].dev = st.st_dev;
	s->v[s->n].ino = st.st_ino;
	/* connect(2) on a path socket needs write permission on its file
	 * and search permission on the directories (unix(7), "Pathname
	 * socket ownership and permissions"): faccessat with the effective
	 * ids asks exactly that, and nothing is opened */
	s->v[s->n].writable = sbx_can_write(path);
	s->v[s->n].listening = 0;
	s->v[s->n].mounted = 0;
	s->n++;
}

static void sockset_release(struct sockset *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i].path);
	s->n = 0;
}

/* The path of a unix:// URL, or NULL. */
static const char *unix_path(const char *url)
{
	return url && !strncmp(url, "unix://", 7) ? url + 7 : NULL;
}

/* The home directory: HOME when absolute, else NULL (the secrets checks
 * look in /etc/passwd; a daemon's socket in a HOME nobody named is not
 * what a client would reach). */
static const char *home(void)
{
	const char *h = getenv("HOME");

	return h && h[0] == '/' ? h : NULL;
}

/* ---- docker's contexts ------------------------------------------------ */

/* docker/cli cli/config/config.go (28f75608): the configuration directory
 * is DOCKER_CONFIG, else ~/.docker; contexts in its contexts/meta. */
static char *docker_config_dir(void)
{
	const char *d = getenv("DOCKER_CONFIG");

	if (d && d[0] == '/')
		return xstrdup(d);
	return home() ? path_join(home(), ".docker") : NULL;
}

/* The unix socket of the context whose meta directory is meta/<hex>. */
static void context_add(struct sockset *s, const char *meta, const char *hex)
{
	struct buf rel = BUF_INIT;
	struct blob b;
	char *path, host[4096];

	buf_printf(&rel, "%s/meta.json", hex);
	path = path_join(meta, buf_str(&rel));
	buf_release(&rel);
	if (saferead_path(path, SBX_PROC_CAP, &b) == 0) {
		const char *p, *slash;

		/* a docker endpoint, whatever its socket's name */
		if (sandbox_docker_context_host(b.data, b.len, host, sizeof(host)) == 0 &&
		    (p = unix_path(host)) != NULL) {
			slash = strrchr(p, '/');
			sock_add(s, p, slash && sandbox_sock_kind(slash + 1) ?
				 sandbox_sock_kind(slash + 1) : "docker", "context");
		}
		blob_release(&b);
	}
	free(path);
}

/* The current context first (docker/cli cli/command/cli.go,
 * resolveContextName: DOCKER_CONTEXT, else config.json's currentContext;
 * "default" is DOCKER_HOST or the default socket, looked at anyway), then
 * every other context the store holds: each is a daemon its client can
 * switch to. */
static void contexts(struct sockset *s)
{
	char *dir = docker_config_dir(), *meta, name[256], hex[65];
	const char *env = getenv("DOCKER_CONTEXT");
	struct blob b;
	DIR *d;
	struct dirent *de;
	size_t seen = 0;

	if (!dir)
		return;
	meta = path_join(dir, "contexts/meta");
	name[0] = '\0';
	if (env && *env && strlen(env) < sizeof(name)) {
		memcpy(name, env, strlen(env) + 1);
	} else {
		char *cfg = path_join(dir, "config.json");

		/* only currentContext is taken; the file's credentials are
		 * secrets.docker's to judge, never kept */
		if (saferead_path(cfg, SBX_PROC_CAP, &b) == 0) {
			if (sandbox_docker_current_context(b.data, b.len, name, sizeof(name)) < 0)
				name[0] = '\0';
			blob_release(&b);
		}
		free(cfg);
	}
	if (name[0] && strcmp(name, "default")) {
		sandbox_sha256_hex(name, strlen(name), hex);
		context_add(s, meta, hex);
	}
	if ((d = opendir(meta)) != NULL) {
		while ((de = readdir(d)) != NULL && seen < CONTEXTS_MAX) {
			if (strlen(de->d_name) != 64 || strspn(de->d_name, "0123456789abcdef") != 64)
				continue;
			seen++;
			context_add(s, meta, de->d_name);
		}
		closedir(d);
	}
	free(meta);
	free(dir);
}

/* ---- the known places ------------------------------------------------- */

/* Where daemons put their sockets: the system's (Docker, Podman,
 * containerd, CRI-O, cri-dockerd, BuildKit, k3s, LXD), the rootless ones
 * under /run/user/UID of the real uid (and the effective one): computed,
 * never taken from XDG_RUNTIME_DIR alone, which a harness may clear while
 * the socket stays reachable; and in HOME, Docker Desktop's
 * (~/.docker/desktop/docker.sock; ~/.docker/run/docker.sock, the one
 * /var/run/docker.sock links to), Colima's, Rancher Desktop's, Lima's. */
static const char *const system_socks[] = {
	"/var/run/docker.sock", "/run/docker.sock", "/run/podman/podman.sock",
	"/run/containerd/containerd.sock", "/run/docker/containerd/containerd.sock",
	"/run/k3s/containerd/containerd.sock", "/run/crio/crio.sock",
	"/run/cri-dockerd.sock", "/run/buildkit/buildkitd.sock",
	"/var/snap/lxd/common/lxd/unix.socket", "/var/lib/lxd/unix.socket",
};

static const char *const runtime_socks[] = {
	"docker.sock", "podman/podman.sock", "buildkit/buildkitd.sock",
	"containerd-rootless/containerd.sock",
};

static const char *const home_socks[] = {
	".docker/desktop/docker.sock", ".docker/run/docker.sock",
	".colima/default/docker.sock", ".colima/docker.sock", ".rd/docker.sock",
	".lima/default/sock/docker.sock", ".lima/docker/sock/docker.sock",
	".local/share/containers/podman/machine/podman.sock",
	".local/share/containers/podman/machine/qemu/podman.sock",
};

static void runtime_dir(struct sockset *s, const char *dir)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(runtime_socks); i++) {
		char *p = path_join(dir, runtime_socks[i]);

		sock_add(s, p, strchr(runtime_socks[i], '/') ? NULL : "docker", "known");
		free(p);
	}
}

static void known(struct sockset *s)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	char dir[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(system_socks); i++)
		sock_add(s, system_socks[i], strstr(system_socks[i], "lxd") ? "lxd" : NULL,
			 "known");
	snprintf(dir, sizeof(dir), "/run/user/%lu", (unsigned long)getuid());
	runtime_dir(s, dir);
	if (geteuid() != getuid()) {
		snprintf(dir, sizeof(dir), "/run/user/%lu", (unsigned long)geteuid());
		runtime_dir(s, dir);
	}
	if (xdg && xdg[0] == '/')
		runtime_dir(s, xdg);
	for (i = 0; home() && i < ARRAY_SIZE(home_socks); i++) {
		char *p = path_join(home(), home_socks[i]);

		sock_add(s, p, NULL, "known");
		free(p);
	}
}

/* ---- the mount table -------------------------------------------------- */

struct mount_ctx {
	struct sockset *s;
	size_t n;
};

/* A socket bind-mounted into the sandbox (-v /var/run/docker.sock:/x):
 * its mount point, when the name of either end is a daemon's (the source's
 * is the mount's root).  deepce and CDK read the mount table for what the
 * host lent the container (stealthcopter/deepce deepce.sh, GREP_IGNORE_MOUNTS
 * names docker.sock; cdk-team/CDK pkg/evaluate/check_mount_escape.go). */
static void mount_seen(const char *root, const char *mp, void *arg)
{
	struct mount_ctx *m = arg;
	const char *rb = strrchr(root, '/'), *mb = strrchr(mp, '/');
	const char *kind = sandbox_sock_kind(mb + 1);

	if (!kind)
		kind = sandbox_sock_kind(rb + 1);
	if (!kind || m->n++ >= MOUNTS_MAX)
		return;
	sock_add(m->s, mp, kind, "mount");
}

static void mounts(const struct sbx *x, struct sockset *s)
{
	char *path = path_join(x->proc, "self/mountinfo");
	struct mount_ctx m = { s, 0 };
	struct blob b;

	if (saferead_path(path, SBX_MOUNTINFO_CAP, &b) == 0) {
		sandbox_mount_points(b.data, b.len, mount_seen, &m);
		blob_release(&b);
	}
	free(path);
}

/* A socket whose own path is a mount point was bind-mounted in from
 * outside (docker run -v /var/run/docker.sock:...): whoever built the
 * sandbox lent it a daemon on purpose, and that daemon usually lives in
 * another network namespace, whose listeners this one's /proc/net/unix
 * does not show (the kernel's unix_seq_show walks the reader's netns
 * only).  So a lent socket with no listener in view is not "cannot
 * tell": the lending is the evidence, as the mount table is deepce's
 * and CDK's. */
static void mount_mark(const char *root, const char *mp, void *arg)
{
	struct sockset *s = arg;
	size_t i;

	(void)root;
	for (i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].path, mp))
			s->v[i].mounted = 1;
}

static void mounts_mark(const struct sbx *x, struct sockset *s)
{
	char *path = path_join(x->proc, "self/mountinfo");
	struct blob b;

	if (saferead_path(path, SBX_MOUNTINFO_CAP, &b) == 0) {
		sandbox_mount_points(b.data, b.len, mount_mark, s);
		blob_release(&b);
	}
	free(path);
}

/* ---- the name search -------------------------------------------------- */

/*
 * linPEAS runs find / -type s -name docker.sock -o ... over the whole
 * file system, amicontained filepath.Walk("/"): seconds on a large disk.
 * We walk only where a daemon's socket lives or is lent, each root to a
 * depth, within WALK_ENTRIES entries and WALK_MS (or the run's deadline,
 * if sooner), and say when the walk stopped early.
 */
static void walk_dir(struct sockset *s, struct walk *w, int dfd, const char *path,
		     int depth)
{
	DIR *d = fdopendir(dfd);
	struct dirent *de;

	if (!d) {
		close(dfd);
		return;
	}
	w->dirs++;
	while (!w->stopped && (de = readdir(d)) != NULL) {
		const char *kind;
		unsigned char type = de->d_type;

		if (de->d_name[0] == '.' && (!de->d_name[1] ||
					     (de->d_name[1] == '.' && !de->d_name[2])))
			continue;
		if (++w->entries > WALK_ENTRIES) {
			w->stopped = "entries";
			break;
		}
		if ((w->entries & 255) == 0 && clock_ms() > w->until) {
			w->stopped = "deadline";
			break;
		}
		kind = sandbox_sock_kind(de->d_name);
		if (type == DT_UNKNOWN && (kind || depth > 0)) {
			struct stat st;

			if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
				continue;
			type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISSOCK(st.st_mode) ? DT_SOCK : DT_REG;
		}
		if (kind && type == DT_SOCK) {
			char *p = path_join(path, de->d_name);

			sock_add(s, p, kind, "search");
			free(p);
		} else if (type == DT_DIR) {
			int sub;
			char *p;

			if (depth == 0) {
				w->not_entered++;
				continue;
			}
			sub = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
				     O_CLOEXEC | O_NONBLOCK);
			if (sub < 0)
				continue;
			p = path_join(path, de->d_name);
			walk_dir(s, w, sub, p, depth - 1);
			free(p);
		}
	}
	closedir(d);
}

struct root_seen {
	dev_t dev[16];
	ino_t ino[16];
	size_t n;
};

static void walk_root(struct sockset *s, struct root_seen *seen, const char *path,
		      int depth)
{
	struct stat st;
	size_t i;
	int fd;

	if (!path || s->walk.stopped)
		return;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return;
	if (fstat(fd, &st) < 0) {
		close(fd);
		return;
	}
	for (i = 0; i < seen->n; i++)
		if (seen->dev[i] == st.st_dev && seen->ino[i] == st.st_ino) {
			close(fd);	/* /var/run is /run */
			return;
		}
	if (seen->n < ARRAY_SIZE(seen->dev)) {
		seen->dev[seen->n] = st.st_dev;
		seen->ino[seen->n++] = st.st_ino;
	}
	walk_dir(s, &s->walk, fd, path, depth);
}

static void search(const struct sbx *x, struct sockset *s)
{
	struct root_seen seen = { .n = 0 };
	char *p;
	double now = clock_ms();

	s->walk.until = now + WALK_MS;
	if (x->deadline_ms > 0 && x->deadline_ms < s->walk.until)
		s->walk.until = x->deadline_ms;
	walk_root(s, &seen, "/run", 4);
	walk_root(s, &seen, "/var/run", 4);
	walk_root(s, &seen, "/tmp", 0);
	walk_root(s, &seen, "/var/lib/kubelet", 2);
	if (home()) {
		walk_root(s, &seen, home(), 0);
		p = path_join(home(), ".docker");
		walk_root(s, &seen, p, 3);
		free(p);
		p = path_join(home(), ".local/share/containers");
		walk_root(s, &seen, p, 4);
		free(p);
	}
}

/* ---- listeners --------------------------------------------------------- */

/* <proc>/net/NAME, else <proc>/self/net/NAME (procfs with subset=pid) */
static int read_net(const struct sbx *x, const char *name, struct blob *b)
{
	struct buf rel = BUF_INIT;
	char *path;
	int rc;

	buf_printf(&rel, "net/%s", name);
	path = path_join(x->proc, buf_str(&rel));
	rc = saferead_path(path, SBX_PROC_CAP * 8, b);
	free(path);
	if (rc < 0) {
		buf_release(&rel);
		buf_printf(&rel, "self/net/%s", name);
		path = path_join(x->proc, buf_str(&rel));
		rc = saferead_path(path, SBX_PROC_CAP * 8, b);
		free(path);
	}
	buf_release(&rel);
	return rc;
}

struct listen_ctx {
	struct sockset *s;
	size_t stats;
};

/* A listening path of /proc/net/unix: the socket found under that path,
 * or (bind-mounted elsewhere) the one with its device and inode. */
static void listener_seen(const char *path, void *arg)
{
	struct listen_ctx *l = arg;
	struct stat st;
	size_t i;

	for (i = 0; i < l->s->n; i++)
		if (!strcmp(l->s->v[i].path, path)) {
			l->s->v[i].listening = 1;
			return;
		}
	if (l->stats++ >= LISTENERS_MAX || stat(path, &st) < 0 || !S_ISSOCK(st.st_mode))
		return;
	for (i = 0; i < l->s->n; i++)
		if (l->s->v[i].dev == st.st_dev && l->s->v[i].ino == st.st_ino)
			l->s->v[i].listening = 1;
}

static void shim_seen(const char *name, void *arg)
{
	struct sockset *s = arg;

	if (s->n == SOCK_MAX) {
		s->full = 1;
		return;
	}
	s->v[s->n].path = xstrdup(name);
	s->v[s->n].kind = "containerd-shim";
	s->v[s->n].source = "abstract";
	s->v[s->n].dev = 0;
	s->v[s->n].ino = 0;
	s->v[s->n].writable = 1;	/* an abstract socket has no permission */
	s->v[s->n].listening = 1;
	s->n++;
}

/*
 * /proc/net/unix lists the unix sockets of the reader's network namespace
 * (the kernel's unix_seq_show over seq_open_net; proc(5): /proc/net is
 * /proc/self/net since Linux 2.6.25, "the network namespace of the
 * process").  A path socket's listener is in it when it was bound in this
 * namespace; a daemon of another namespace (the host's, seen from a
 * sandbox with its own network; rootlesskit's child) is not, though its
 * socket file may be reached through the file system all the same.  So a
 * listener listed here is certain; one not listed is "cannot tell".
 * Returns 0, or -1 when the table cannot be read.
 */
static int listeners(const struct sbx *x, struct sockset *s)
{
	struct listen_ctx l = { s, 0 };
	struct blob b;

	if (read_net(x, "unix", &b) < 0)
		return -1;
	if (s->n)
		sandbox_unix_listeners(b.data, b.len, listener_seen, &l);
	sandbox_unix_shims(b.data, b.len, shim_seen, s);
	blob_release(&b);
	return 0;
}

/* ---- escape.docker_socket ---------------------------------------------- */

static cJSON *walk_json(const struct walk *w)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "directories", (double)w->dirs);
	cJSON_AddNumberToObject(o, "entries", (double)w->entries);
	cJSON_AddNumberToObject(o, "not_entered", (double)w->not_entered);
	sbx_add_nullable(o, "stopped", w->stopped);
	return o;
}

void sbx_escape_docker_socket(const struct sbx *x, struct result *r)
{
	struct sockset *s = xcalloc(1, sizeof(*s));
	cJSON *list = cJSON_AddArrayToObject(r->data, "sockets");
	size_t i, reach = 0, unsure = 0, locked = 0, lent = 0;
	const char *first_reach = NULL, *first_unsure = NULL, *first_locked = NULL;
	int table;

	sock_add(s, unix_path(getenv("DOCKER_HOST")), "docker", "DOCKER_HOST");
	sock_add(s, unix_path(getenv("CONTAINER_HOST")), "podman", "CONTAINER_HOST");
	contexts(s);
	known(s);
	mounts(x, s);
	search(x, s);
	table = listeners(x, s);
	for (i = 0; i < s->n; i++)
		if (s->v[i].writable && !s->v[i].listening) {
			mounts_mark(x, s);
			break;
		}
	for (i = 0; i < s->n; i++) {
		const struct sock *k = &s->v[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "path", k->path);
		cJSON_AddStringToObject(o, "kind", k->kind);
		cJSON_AddStringToObject(o, "source", k->source);
		cJSON_AddBoolToObject(o, "writable", k->writable);
		if (k->listening)
			cJSON_AddTrueToObject(o, "listening");
		else
			cJSON_AddNullToObject(o, "listening");
		cJSON_AddBoolToObject(o, "mounted", k->mounted);
		cJSON_AddItemToArray(list, o);
		if (k->writable && (k->listening || k->mounted)) {
			if (!reach++)
				first_reach = k->path;
			lent += !k->listening;
		} else if (k->writable) {
			if (!unsure++)
				first_unsure = k->path;
		} else if (!locked++) {
			first_locked = k->path;
		}
	}
	cJSON_AddItemToObject(r->data, "search", walk_json(&s->walk));
	cJSON_AddBoolToObject(r->data, "listeners_read", table == 0);
	if (reach)
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "%zu container socket%s writable "
			"with a listener%s (%s%s): the daemon can start a privileged container",
			reach, reach == 1 ? " is" : "s are",
			lent ? " or bind-mounted in" : "", first_reach,
			reach > 1 ? ", ..." : "");
	else if (unsure)
		sbx_verdict(x, r, 0, STATUS_WARN, REASON_UNDECIDED, "%zu container socket%s "
			"writable (%s%s), with no listener visible in this network namespace: a "
			"stale file, or a daemon in another network namespace (cannot tell "
			"without connecting)", unsure, unsure == 1 ? " is" : "s are",
			first_unsure, unsure > 1 ? ", ..." : "");
	else if (locked)
		sbx_verdict(x, r, 0, STATUS_WARN, REASON_NONE, "%zu container socket%s in view, "
			"not writable by this user (%s%s)", locked, locked == 1 ? "" : "s",
			first_locked, locked > 1 ? ", ..." : "");
	else if (s->walk.stopped)
		sbx_verdict(x, r, 0, STATUS_WARN, REASON_UNDECIDED, "no container socket found, "
			"but the name search stopped early (%s): cannot tell", s->walk.stopped);
	else
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "no container daemon's socket in "
			"view (%zu places, %zu directories searched)",
			ARRAY_SIZE(system_socks) + ARRAY_SIZE(home_socks), s->walk.dirs);
	if (s->walk.stopped)
		result_note(r, "the socket name search stopped early (%s) after %zu entries",
			    s->walk.stopped, s->walk.entries);
	if (table < 0)
		result_note(r, "cannot read %s/net/unix: no listener could be seen", x->proc);
	if (s->full)
		result_note(r, "more than %d sockets: the first %d are listed", SOCK_MAX,
			    SOCK_MAX);
	sockset_release(s);
	free(s);
}

/* ---- escape.docker_host ------------------------------------------------- */

/* Non-loopback interfaces up in this network namespace (asked of the
 * kernel with SIOCGIFFLAGS on a datagram socket: no packet), or -1 when
 * <proc>/net/dev cannot be read. */
static void count_name(const char *name, void *arg)
{
	int *fd_up = arg;	/* [0] the socket, [1] the count */
	struct ifreq ifr;
	size_t n = strlen(name);

	if (fd_up[0] < 0 || n >= sizeof(ifr.ifr_name))
		return;
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, name, n);
	if (ioctl(fd_up[0], SIOCGIFFLAGS, &ifr) == 0 && (ifr.ifr_flags & IFF_UP) &&
	    !(ifr.ifr_flags & IFF_LOOPBACK))
		fd_up[1]++;
}

static int interfaces_up(const struct sbx *x)
{
	struct blob b;
	int fd_up[2] = { -1, 0 };

	if (read_net(x, "dev", &b) < 0)
		return -1;
	fd_up[0] = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd_up[0] < 0) {
		blob_release(&b);
		return -1;
	}
	sandbox_netdev_names(b.data, b.len, count_name, fd_up);
	close(fd_up[0]);
	blob_release(&b);
	return fd_up[1];
}

/* 1 when a TCP socket of this network namespace listens on port, 0 when
 * none does, -1 when the tables cannot be read. */
static int tcp_listening(const struct sbx *x, unsigned port)
{
	struct tcp_listener *v = NULL;
	size_t n = 0, cap = 0, i;
	int found = 0;

	if (procnet_listeners(x->proc, &v, &n, &cap) < 0) {
		free(v);
		return -1;
	}
	for (i = 0; i < n; i++)
		found |= v[i].port == port;
	free(v);
	return found;
}

/* The daemon's port when the URL names none: dockerd's 2375 (2376 with
 * TLS: docker/cli opts/hosts.go DefaultHTTPPort, DefaultTLSHTTPPort), ssh's
 * 22, HTTP's and HTTPS's. */
static unsigned default_port(const char *url)
{
	if (!strncmp(url, "ssh://", 6))
		return 22;
	if (!strncmp(url, "http://", 7))
		return 80;
	if (!strncmp(url, "https://", 8))
		return 443;
	const char *tls = getenv("DOCKER_TLS_VERIFY");

	return tls && *tls ? 2376 : 2375;
}

/* What one variable reaches: 1 reaches (or may), 0 not, -1 cannot tell;
 * why in words. */
static int host_reach(const struct sbx *x, const char *v, struct buf *why)
{
	const char *path = unix_path(v);
	char host[256];
	unsigned port;
	struct stat st;

	if (path) {
		struct sockset *s;
		int live, w, e = stat(path, &st) < 0 ? errno : 0;

		if (e && e != ENOENT && e != ENOTDIR) {
			/* a directory this user cannot search: it may be there */
			buf_puts(why, "its path cannot be looked into");
			return -1;
		}
		if (e || !S_ISSOCK(st.st_mode)) {
			buf_puts(why, "names no socket here");
			return -2;
		}
		s = xcalloc(1, sizeof(*s));
		sock_add(s, path, "docker", "DOCKER_HOST");
		live = listeners(x, s) == 0 && s->n && s->v[0].listening;
		w = s->n && s->v[0].writable;
		sockset_release(s);
		free(s);
		if (!w) {
			buf_puts(why, "its socket is not writable by this user");
			return 0;
		}
		if (live) {
			buf_puts(why, "a daemon listens on its socket");
			return 1;
		}
		buf_puts(why, "its socket is writable, with no listener visible in this network "
			 "namespace (a stale file, or a daemon in another namespace)");
		return -1;
	}
	if (sandbox_url_host(v, host, sizeof(host), &port) < 0) {
		buf_puts(why, "a container daemon may be reached");
		return 1;
	}
	if (!port)
		port = default_port(v);
	if (sandbox_host_loopback(host)) {
		/* the loopback is this network namespace's own: what listens
		 * there is in its TCP tables, or nowhere */
		int l = tcp_listening(x, port);

		if (l == 0) {
			buf_printf(why, "nothing listens on port %u in this network namespace", port);
			return 0;
		}
		buf_printf(why, l > 0 ? "a socket listens on port %u here" :
			   "port %u: cannot read the TCP tables", port);
		return l > 0 ? 1 : -1;
	}
	if (interfaces_up(x) == 0) {
		buf_puts(why, "unreachable: no interface is up but the loopback");
		return 0;
	}
	buf_puts(why, "a container daemon may be reached");
	return 1;
}

void sbx_escape_docker_host(const struct sbx *x, struct result *r)
{
	static const char *const vars[] = { "DOCKER_HOST", "CONTAINER_HOST" };
	cJSON *list = cJSON_AddArrayToObject(r->data, "variables");
	struct buf msg = BUF_INIT;
	size_t i, set = 0, dangling = 0, reach = 0, unsure = 0;

	for (i = 0; i < ARRAY_SIZE(vars); i++) {
		const char *v = getenv(vars[i]), *sep;
		struct buf why = BUF_INIT;
		char scheme[16] = "";
		cJSON *o;
		int rc;

		if (!v || !*v)
			continue;
		/* the scheme only: a URL may carry a user name or a password */
		sep = strstr(v, "://");
		if (sep && (size_t)(sep - v) < sizeof(scheme) &&
		    strspn(v, "abcdefghijklmnopqrstuvwxyz+") == (size_t)(sep - v))
			memcpy(scheme, v, (size_t)(sep - v));
		rc = host_reach(x, v, &why);
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", vars[i]);
		sbx_add_nullable(o, "scheme", *scheme ? scheme : NULL);
		if (rc == 1)
			cJSON_AddTrueToObject(o, "reachable");
		else if (rc == 0 || rc == -2)
			cJSON_AddFalseToObject(o, "reachable");
		else
			cJSON_AddNullToObject(o, "reachable");
		cJSON_AddItemToArray(list, o);
		set++;
		dangling += rc == -2;
		reach += rc == 1;
		unsure += rc == -1;
		buf_printf(&msg, "%s%s is set (%s): %s", msg.len ? "; " : "", vars[i],
			   *scheme ? scheme : "no scheme", buf_str(&why));
		buf_release(&why);
	}
	if (!set)
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "neither DOCKER_HOST nor "
			"CONTAINER_HOST is set");
	else if (reach)
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "%s", buf_str(&msg));
	else if (unsure)
		sbx_verdict(x, r, 0, STATUS_WARN, REASON_UNDECIDED, "%s", buf_str(&msg));
	else if (dangling) {
		/* nothing is reached through it: the escape it names is not
		 * possible from here, which is what a pass says (a leftover
		 * variable, worth a note) */
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "%s", buf_str(&msg));
		result_note(r, "the variable names a socket that is not in this sandbox: "
			    "nothing is reached through it");
	} else
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "%s", buf_str(&msg));
	buf_release(&msg);
}
