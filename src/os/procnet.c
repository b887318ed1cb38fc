/* procnet.c - see procnet.h; the texts it reads are parsed by the pure
 * parse/procnet_text.c.
 *
 * Facts this code relies on (shared/conformance/proc-net-tcp.md):
 * addresses are printed as 32-bit words in memory order, so each 8-digit
 * group is parsed as a number and stored back in host order (no hard-coded
 * byte swap); the port is printed in host order; the first line is a header;
 * tcp lines are padded with spaces; a socket's holders are found by
 * readlink() of /proc/PID/fd/N, which reads "socket:[INODE]".
 */
#include "procnet.h"
#include "procnet_text.h"
#include "pool.h"
#include "redact.h"
#include "saferead.h"
#include "util.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/inet_diag.h>
#include <linux/magic.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <pthread.h>
#include <pwd.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/time.h>
#include <unistd.h>

#define TCP_LISTEN 0x0a
/* /proc/net/tcp of a busy server holds ~150 bytes a socket */
#define NET_TCP_CAP (64UL * 1024 * 1024)
#define CMDLINE_MAX 120

static pthread_once_t root_once = PTHREAD_ONCE_INIT;
static const char *root_path = "/proc";

static void root_init(void)
{
	const char *e = getenv("ENVPREFLIGHT_PROC_ROOT");

	/* kept for the life of the process, like the environment itself */
	if (e && *e)
		root_path = xstrdup(e);
}

const char *proc_root(void)
{
	pthread_once(&root_once, root_init);
	return root_path;
}

static pthread_once_t boot_once = PTHREAD_ONCE_INIT;
static char boot_id[40];

static void boot_init(void)
{
	char path[4096], buf[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/sys/kernel/random/boot_id", proc_root());
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 36)
		return;
	buf[36] = '\0';
	/* a UUID: hex digits and dashes, or nothing */
	if (strspn(buf, "0123456789abcdef-") == 36)
		memcpy(boot_id, buf, 37);
}

const char *proc_boot_id(void)
{
	pthread_once(&boot_once, boot_init);
	return boot_id[0] ? boot_id : NULL;
}

/* ---- the socket tables (parsed in parse/procnet_text.c) ----------- */

static int table_read(const char *proc, const char *name, int family,
		      struct tcp_listener **v, size_t *n, size_t *cap)
{
	struct blob b;
	char *path;
	int rc;

	path = path_join(proc, name);
	rc = saferead_path(path, NET_TCP_CAP, &b);
	free(path);
	if (rc < 0)
		return -1;
	procnet_parse(b.data, b.len, family, v, n, cap);
	blob_release(&b);
	return 0;
}

int procnet_listeners(const char *proc, struct tcp_listener **v, size_t *n,
		      size_t *cap)
{
	if (!proc)
		proc = proc_root();
	/* procfs mounted with subset=pid hides /proc/net, not self/net */
	if (table_read(proc, "net/tcp", AF_INET, v, n, cap) < 0) {
		if (errno != ENOENT ||
		    table_read(proc, "self/net/tcp", AF_INET, v, n, cap) < 0)
			return -1;
		table_read(proc, "self/net/tcp6", AF_INET6, v, n, cap);
		return 0;
	}
	/* no tcp6 when IPv6 is disabled: nothing listens there then */
	table_read(proc, "net/tcp6", AF_INET6, v, n, cap);
	return 0;
}

/* The INET_DIAG_CGROUP_ID attribute of the message h (whose payload is m),
 * or 0.  The kernel adds it to every message since 5.7, unasked (see
 * inet_diag_msg_attrs_fill in net/ipv4/inet_diag.c): no idiag_ext bit
 * requests it, and it needs no privilege.  It names the cgroup v2 of the
 * process that created the socket. */
static unsigned long long diag_cgroup(const struct nlmsghdr *h,
				      const struct inet_diag_msg *m)
{
	const char *p = (const char *)m + NLMSG_ALIGN(sizeof(*m));
	size_t left = h->nlmsg_len - NLMSG_LENGTH(sizeof(*m));

	/* the caller checked nlmsg_len >= NLMSG_LENGTH(sizeof(*m)) */
	while (left >= NLA_HDRLEN) {
		struct nlattr a;
		unsigned long long id;
		size_t len, step;

		memcpy(&a, p, sizeof(a));
		len = a.nla_len;
		if (len < NLA_HDRLEN || len > left)
			break;
		if ((a.nla_type & NLA_TYPE_MASK) == INET_DIAG_CGROUP_ID &&
		    len >= NLA_HDRLEN + sizeof(id)) {
			memcpy(&id, p + NLA_HDRLEN, sizeof(id));
			return id;
		}
		step = NLA_ALIGN(len);
		if (step >= left)
			break;
		p += step;
		left -= step;
	}
	return 0;
}

/* One LISTEN-only sock_diag dump of family; 0, or -1 with errno. */
static int diag_dump(int fd, int family, struct tcp_listener **v, size_t *n,
		     size_t *cap)
{
	struct {
		struct nlmsghdr nlh;
		struct inet_diag_req_v2 r;
	} req;
	struct sockaddr_nl sa;
	/* aligned for struct nlmsghdr; 8 KiB holds ~100 listeners a recv */
	long buf[8192 / sizeof(long)];

	memset(&req, 0, sizeof(req));
	memset(&sa, 0, sizeof(sa));
	sa.nl_family = AF_NETLINK;
	req.nlh.nlmsg_len = sizeof(req);
	req.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	req.nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.nlh.nlmsg_seq = (unsigned)family;
	req.r.sdiag_family = (unsigned char)family;
	req.r.sdiag_protocol = IPPROTO_TCP;
	req.r.idiag_states = 1U << TCP_LISTEN;
	if (sendto(fd, &req, sizeof(req), 0, (struct sockaddr *)&sa,
		   sizeof(sa)) < 0)
		return -1;
	for (;;) {
		ssize_t k = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *h;
		size_t len;

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			if (k == 0)
				errno = EPROTO;
			return -1;
		}
		len = (size_t)k;
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, len);
		     h = NLMSG_NEXT(h, len)) {
			const struct inet_diag_msg *m = NLMSG_DATA(h);
			struct tcp_listener l;

			if (h->nlmsg_seq != (unsigned)family)
				continue;
			if (h->nlmsg_type == NLMSG_DONE)
				return 0;
			if (h->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(h);

				errno = e->error ? -e->error : EPROTO;
				return -1;
			}
			if (h->nlmsg_len < NLMSG_LENGTH(sizeof(*m)) ||
			    m->idiag_state != TCP_LISTEN ||
			    m->idiag_family != family)
				continue;
			memset(&l, 0, sizeof(l));
			l.family = family;
			l.port = ntohs(m->id.idiag_sport);
			/* already in network order: no per-word decoding */
			memcpy(l.addr, m->id.idiag_src,
			       family == AF_INET ? 4 : 16);
			l.uid = m->idiag_uid;
			l.inode = m->idiag_inode;
			l.cgroup = diag_cgroup(h, m);
			procnet_listener_text(&l);
			grow(v, sizeof(**v), cap, *n + 1);
			(*v)[(*n)++] = l;
		}
	}
}

int procnet_listeners_diag(struct tcp_listener **v, size_t *n, size_t *cap)
{
	struct timeval tv = { 1, 0 };
	size_t n0 = *n;
	int fd, rc;

	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (fd < 0)
		return -1;
	/* the kernel answers at once; never hang a check on it regardless */
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	rc = diag_dump(fd, AF_INET, v, n, cap);
	/* IPv6 may be off: an IPv4 answer alone is a whole answer then */
	if (rc == 0 && diag_dump(fd, AF_INET6, v, n, cap) < 0 &&
	    errno != ENOENT && errno != EAFNOSUPPORT && errno != EINVAL)
		rc = -1;
	close(fd);
	if (rc < 0)
		*n = n0;
	return rc;
}

/* The listeners as seen from proc.  For the real /proc, ask the kernel
 * over sock_diag first, as ss does: a read of /proc/net/tcp walks the
 * whole established hash table (262144 buckets on a 24 GiB machine, about
 * 2 ms), and does it again for the read that finds EOF, for each of the
 * two files, while a LISTEN-only dump walks the listening table alone.
 * The files remain the fallback (sock_diag refused, or not built). */
static int listeners_get(const char *proc, struct tcp_listener **v,
			 size_t *n, size_t *cap)
{
	if (!strcmp(proc, "/proc") && procnet_listeners_diag(v, n, cap) == 0)
		return 0;
	return procnet_listeners(proc, v, n, cap);
}

/* ---- who holds a socket ------------------------------------------- */

/* Up to size-1 bytes of base/path, NUL-terminated; the length read, or -1
 * with errno.  With st, the open file's fstat too.  With record, the file
 * is one record of a procfs seq file (stat, status, cgroup), which a read
 * returns whole when it fits (seq_read_iter fills the buffer from one
 * show()), or a regular file (a copy of /proc), where a short read is the
 * end too: no second read to see the end of it, a sixth of phase 0's
 * system calls on a machine of thousands of processes. */
static ssize_t read_head_st(int base, const char *path, char *buf,
			    size_t size, struct stat *st, int record)
{
	size_t len = 0;
	int fd;

	fd = openat(base, path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -1;
	if (st && fstat(fd, st) < 0) {
		int saved = errno;

		close(fd);
		errno = saved;
		return -1;
	}
	while (len < size - 1) {
		ssize_t k = read(fd, buf + len, size - 1 - len);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			int saved = errno;

			close(fd);
			errno = saved;
			return -1;
		}
		if (k == 0)
			break;
		len += (size_t)k;
		if (record && len < size - 1)
			break;
	}
	close(fd);
	buf[len] = '\0';
	return (ssize_t)len;
}

static ssize_t read_head(int base, const char *path, char *buf, size_t size)
{
	return read_head_st(base, path, buf, size, NULL, 0);
}

static ssize_t read_record(int base, const char *path, char *buf, size_t size)
{
	return read_head_st(base, path, buf, size, NULL, 1);
}

/* One (socket, process) pair found in the scan: the descriptor number it
 * sits at (-1 unknown), and the position in the scan order of the process
 * (phase 1's stop is decided from it). */
struct match {
	unsigned long inode;
	int pid;
	int fd;
	size_t pos;
};

/* One process: what phase 0 learnt of it and what the scan did. */
struct proc {
	struct procnet_key key;	/* first: procnet_key_cmp sorts struct proc too */
	int ppid, pgrp;		/* from status, or stat */
	unsigned char ties;	/* ppid and pgrp are known */
	/* phase 1: written by the one worker that claimed the position */
	unsigned char scanned, denied;
	/* phase 2 */
	unsigned char holder, kin, full;
	size_t checked;		/* handoff numbers read so far */
};

struct kinship;
struct handoff;

/* The scan's inputs and, after the threads are joined, its findings. */
struct scan {
	int base;			/* the proc root, open */
	const unsigned long *want;	/* sorted, unique, non-zero */
	size_t nwant;
	const struct tcp_listener *socks;	/* uid and cgroup of each */
	size_t nsocks;
	int procfs;			/* the root is a procfs, not a copy */
	int cgroot;			/* the cgroup v2 mount, or -1 */
	const struct kinship *kin;	/* phase 2's, for one round */
	const struct handoff *hand;	/* phase 2's, for one round */
	struct proc *procs;		/* by rank once phase 0 is done */
	size_t n;
	struct match *m;		/* what counts, sorted by match_cmp */
	size_t nm, cap;
	int denied;			/* some fd directory was unreadable */
	int view;			/* enum proc_view, when some want is unseen */
	struct procnet_stats st;
};

static int ulong_cmp(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a;
	unsigned long y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

static int int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

static int match_cmp(const void *a, const void *b)
{
	const struct match *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->inode < y->inode ? -1 : x->inode > y->inode;
}

static int is_wanted(const struct scan *sc, unsigned long ino)
{
	return ino && bsearch(&ino, sc->want, sc->nwant, sizeof(*sc->want),
			      ulong_cmp);
}

static void match_add(struct match **m, size_t *nm, size_t *cap,
		      unsigned long ino, int pid, int fd, size_t pos)
{
	grow(m, sizeof(**m), cap, *nm + 1);
	(*m)[*nm].inode = ino;
	(*m)[*nm].pid = pid;
	(*m)[*nm].fd = fd;
	(*m)[*nm].pos = pos;
	(*nm)++;
}

/* Read the fd directory of pid, at position pos of the scan order, in full
 * and append to *m each wanted socket it holds, once.  A process gone by
 * now (ENOENT, ESRCH) is skipped silently.  Returns 1 when some of it
 * could not be read (EACCES for another user's process; ENOTDIR, which is
 * how a fixture tree stands for that case, since root may read a mode-000
 * directory), else 0.  Touches nothing shared: any thread may call it.
 * Once the process is seen to hold every wanted socket, its other
 * descriptors cannot add any and are not read. */
static int fds_read(const struct scan *sc, int pid, size_t pos,
		    struct match **m, size_t *nm, size_t *cap)
{
	char path[64], link[64];
	size_t first = *nm;
	struct dirent *e;
	int fd, denied = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%d/fd", pid);
	fd = openat(sc->base, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return errno != ENOENT && errno != ESRCH;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return 0;
	}
	while ((e = readdir(d)) != NULL) {
		unsigned long long num;
		unsigned long ino;
		ssize_t k;
		size_t i;

		if (e->d_name[0] == '.')
			continue;
		k = readlinkat(fd, e->d_name, link, sizeof(link));
		if (k < 0) {
			if (errno == EACCES || errno == EPERM) {
				denied = 1;
				break;
			}
			continue;	/* closed meanwhile */
		}
		ino = procnet_socket_inode(link, (size_t)k);
		if (!is_wanted(sc, ino))
			continue;
		for (i = first; i < *nm && (*m)[i].inode != ino; i++)
			;
		if (i < *nm)
			continue;	/* the same socket on another fd */
		match_add(m, nm, cap, ino, pid,
			  procnet_dec(e->d_name, strlen(e->d_name), INT_MAX,
				    &num) < 0 ? -1 : (int)num, pos);
		if (*nm - first == sc->nwant)
			break;
	}
	closedir(d);
	return denied;
}

/* ---- the order of the scan ------------------------------------------ */

static int proc_qcmp(const void *a, const void *b)
{
	const struct proc *x = a, *y = b;

	return procnet_key_cmp(&x->key, &y->key);
}

/* The cgroup v2 mount named in <proc>/self/mountinfo, open (O_PATH), or
 * -1: the first cgroup2 mount of the hierarchy's root (or the cgroup
 * namespace's), to which /proc/PID/cgroup paths are relative.  A line is
 * "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - TYPE ...". */
static int cgroup_mount(const char *proc)
{
	char *path = path_join(proc, "self/mountinfo"), *line = NULL;
	size_t size = 0;
	int fd = -1;
	FILE *f;

	f = fopen(path, "re");
	free(path);
	if (!f)
		return -1;
	while (fd < 0 && getline(&line, &size, f) > 0) {
		char *field[5], *dash, *p;
		size_t i;

		line[strcspn(line, "\n")] = '\0';
		dash = strstr(line, " - ");
		if (!dash || strncmp(dash + 3, "cgroup2 ", 8))
			continue;
		*dash = '\0';
		for (i = 0, p = line; i < 5 && p; i++) {
			field[i] = p;
			p = strchr(p, ' ');
			if (p)
				*p++ = '\0';
		}
		if (i < 5 || strcmp(field[3], "/"))
			continue;
		procnet_mountinfo_unescape(field[4]);
		if (field[4][0] == '/')
			fd = open(field[4], O_PATH | O_DIRECTORY | O_CLOEXEC);
	}
	free(line);
	fclose(f);
	return fd;
}

/* ---- a few threads -------------------------------------------------- */

struct worker;

/*
 * What the workers of one job (a phase) share.  The job runs on a few
 * threads (pool_run: the calling thread is worker 0; items are claimed in
 * order, chunk at a time, so that the items claimed are always a prefix).
 * The workers share only what the lock guards (seen, nseen); each writes
 * only the items it claimed (sc->procs[i]) and its own struct worker,
 * which the caller reads after pool_run has joined them.
 */
struct share {
	pthread_mutex_t lock;
	unsigned char *seen;	/* guarded: per want[], some holder found */
	size_t nseen;		/* guarded */
	struct scan *sc;
	struct worker *ws;	/* one a worker of pool_run */
	size_t from;		/* the job's first position */
	/* position i by worker w; non-zero: claim no more */
	int (*item)(struct worker *w, size_t i);
};

/* A cgroup path seen before, and its directory's inode. */
struct cg_memo {
	char path[200];
	unsigned long long id;
};

struct worker {
	struct share *share;
	struct match *m;	/* what this worker found */
	size_t nm, cap;
	size_t stat_reads, cgroup_reads, fd_dirs, kin, kin_links;
	struct cg_memo memo[8];
	size_t nmemo;
	char buf[8192];
};

/* pool_run's item: the job's position from + i, by worker k. */
static int share_item(void *arg, unsigned k, size_t i)
{
	struct share *sh = arg;

	return sh->item(&sh->ws[k], sh->from + i);
}

/* Note under the lock that the matches m[0..n) were found.  Returns 1
 * once every wanted socket has a holder: no more items are claimed. */
static int share_seen(struct share *p, const struct match *m, size_t n)
{
	const struct scan *sc = p->sc;
	size_t i;
	int all;

	pthread_mutex_lock(&p->lock);
	for (i = 0; i < n; i++) {
		const unsigned long *w = bsearch(&m[i].inode, sc->want,
						 sc->nwant, sizeof(*sc->want),
						 ulong_cmp);

		if (w && !p->seen[w - sc->want]) {
			p->seen[w - sc->want] = 1;
			p->nseen++;
		}
	}
	all = p->nseen == sc->nwant;
	pthread_mutex_unlock(&p->lock);
	return all;
}

/* Threads for n processes: one for a small machine's worth, else 2 to 4
 * (as many as CPUs we may run on): the work is system calls into procfs,
 * which scale with CPUs and gain nothing beyond them. */
static unsigned scan_threads(size_t n)
{
	cpu_set_t set;
	long cpus = 0;

	if (n < 64)
		return 1;
	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		cpus = CPU_COUNT(&set);
	if (cpus <= 0)
		cpus = sysconf(_SC_NPROCESSORS_ONLN);
	return cpus < 2 ? 2 : cpus > 4 ? 4 : (unsigned)cpus;
}

/* ---- phase 0: what each process is ---------------------------------- */

/* The inode of the cgroup v2 directory of pid, from <pid>/cgroup ("0::"
 * line), or 0.  Paths outside our cgroup namespace ("/../..") are not
 * looked at. */
static unsigned long long proc_cgroup(struct worker *w, int pid)
{
	const struct scan *sc = w->share->sc;
	char path[64], *line, *end;
	unsigned long long id;
	struct stat st;
	size_t i, len;

	snprintf(path, sizeof(path), "%d/cgroup", pid);
	w->cgroup_reads++;
	if (read_record(sc->base, path, w->buf, sizeof(w->buf)) < 0)
		return 0;
	line = w->buf;
	while (strncmp(line, "0::/", 4)) {
		line = strchr(line, '\n');
		if (!line)
			return 0;
		line++;
	}
	line += 4;
	end = line + strcspn(line, "\n");
	*end = '\0';
	len = (size_t)(end - line);
	if (strstr(line, "..") || len >= sizeof(w->memo[0].path))
		return 0;
	for (i = 0; i < w->nmemo && i < ARRAY_SIZE(w->memo); i++)
		if (!strcmp(w->memo[i].path, line))
			return w->memo[i].id;
	if (fstatat(sc->cgroot, len ? line : ".", &st, 0) < 0)
		return 0;
	id = (unsigned long long)st.st_ino;
	i = w->nmemo++ % ARRAY_SIZE(w->memo);
	memcpy(w->memo[i].path, line, len + 1);
	w->memo[i].id = id;
	return id;
}

/*
 * Phase 0 of process i: whose it is, and its ties.  On a procfs, two
 * owners: that of /proc/PID, which is always its effective uid ("the only
 * way to read the effective uid of a process was to stat /proc/pid", says
 * task_dump_owner in fs/proc/base.c, so directories keep it), and that of
 * /proc/PID/stat, which is root when the process made itself not dumpable
 * (a daemon that bound as root and then dropped its privileges still
 * matches its socket's uid); stat has the ties.  One stat and one read:
 * /proc/PID/status would give every uid and the ties, but costs a fifth
 * more, for every process.  In a copy of /proc the owners are whoever
 * copied it: the Uid: line of the status says whose a process is, and its
 * PPid: and NSpgid: lines (Linux 4.1 and later) give the ties; stat is
 * read for them only where those lines are missing.
 */
static int info_item(struct worker *w, size_t i)
{
	const struct scan *sc = w->share->sc;
	struct proc *p = &sc->procs[i];
	char path[64], *buf = w->buf;
	size_t size = sizeof(w->buf);
	struct stat st;

	w->stat_reads++;
	if (!sc->procfs) {
		size_t n = 0;

		snprintf(path, sizeof(path), "%d/status", p->key.pid);
		if (read_record(sc->base, path, buf, size) >= 0)
			procnet_status_parse(buf, p->key.uid, &n, &p->ppid,
					     &p->pgrp, &p->ties);
		p->key.nuid = n;
		if (p->ties)
			return 0;	/* a copy of a kernel's status (4.1+) */
	} else {
		snprintf(path, sizeof(path), "%d", p->key.pid);
		if (fstatat(sc->base, path, &st, 0) == 0)
			p->key.uid[p->key.nuid++] = (unsigned)st.st_uid;
	}
	snprintf(path, sizeof(path), "%d/stat", p->key.pid);
	if (read_head_st(sc->base, path, buf, size, &st, 1) >= 0) {
		p->ties = procnet_stat_ties(buf, &p->ppid, &p->pgrp) == 0;
		if (sc->procfs)
			p->key.uid[p->key.nuid++] = (unsigned)st.st_uid;
	}
	return 0;
}

/* Phase 0, for a process with a wanted socket's uid: its cgroup. */
static int cgroup_item(struct worker *w, size_t i)
{
	struct proc *p = &w->share->sc->procs[i];

	p->key.cgroup = proc_cgroup(w, p->key.pid);
	return 0;
}

/* ---- phase 1: fd directories in order, until every socket is held ---- */

static int fds_item(struct worker *w, size_t i)
{
	const struct scan *sc = w->share->sc;
	struct proc *p = &sc->procs[i];
	size_t first = w->nm;

	p->scanned = 1;
	p->denied = (unsigned char)fds_read(sc, p->key.pid, i, &w->m, &w->nm,
					    &w->cap);
	return w->nm > first && share_seen(w->share, w->m + first, w->nm - first);
}

/* How many positions phase 1 covers: up to the first one by which every
 * wanted socket has a holder, or all of them.  Workers may have read past
 * it meanwhile; what they found there is dropped, so that the result does
 * not depend on which thread ran faster. */
static size_t phase1_cover(const struct scan *sc, const struct worker *ws,
			   unsigned nw)
{
	size_t *first = xmalloc(sc->nwant * sizeof(*first));
	size_t i, j, cover = 0;
	unsigned k;

	for (j = 0; j < sc->nwant; j++)
		first[j] = SIZE_MAX;
	for (k = 0; k < nw; k++)
		for (i = 0; i < ws[k].nm; i++) {
			const struct match *m = &ws[k].m[i];
			const unsigned long *w = bsearch(&m->inode, sc->want,
							 sc->nwant,
							 sizeof(*sc->want),
							 ulong_cmp);

			j = (size_t)(w - sc->want);
			if (m->pos < first[j])
				first[j] = m->pos;
		}
	for (j = 0; j < sc->nwant; j++) {
		if (first[j] == SIZE_MAX) {
			cover = sc->n;	/* nobody visible holds it */
			break;
		}
		if (first[j] + 1 > cover)
			cover = first[j] + 1;
	}
	free(first);
	return cover;
}

/* ---- phase 2: the holders' kin -------------------------------------- */

/* The holders' pids, parents and process groups, sorted, for kin_related. */
struct kinship {
	int *pid, *ppid, *pgrp;
	size_t npid, nppid, npgrp;
};

static void kinship_build(struct kinship *k, const struct scan *sc)
{
	size_t i;

	k->npid = k->nppid = k->npgrp = 0;
	for (i = 0; i < sc->n; i++) {
		const struct proc *p = &sc->procs[i];

		if (!p->holder)
			continue;
		k->pid[k->npid++] = p->key.pid;
		if (p->ties && p->ppid > 0)
			k->ppid[k->nppid++] = p->ppid;
		if (p->ties && p->pgrp > 0)
			k->pgrp[k->npgrp++] = p->pgrp;
	}
	qsort(k->pid, k->npid, sizeof(int), int_cmp);
	qsort(k->ppid, k->nppid, sizeof(int), int_cmp);
	qsort(k->pgrp, k->npgrp, sizeof(int), int_cmp);
}

static int in_ints(const int *v, size_t n, int x)
{
	return n && bsearch(&x, v, n, sizeof(*v), int_cmp);
}

/* Whether a process may share a holder's sockets through fork: a child of
 * a holder, one of its process group (pre-fork workers, also when
 * double-forked away from the master), or a holder's parent (a master
 * whose pid wrapped around above its worker's). */
static int kin_related(const struct kinship *k, const struct proc *p)
{
	return in_ints(k->pid, k->npid, p->ppid) ||
	       (p->pgrp > 0 && in_ints(k->pgrp, k->npgrp, p->pgrp)) ||
	       in_ints(k->ppid, k->nppid, p->key.pid);
}

/* The descriptor numbers through which a parent hands a socket to a
 * child: the numbers the holders hold the wanted sockets at (fork keeps
 * them), and 3 and up, one for each wanted socket (systemd's socket
 * activation passes them from SD_LISTEN_FDS_START, 3).  Append-only, so
 * that proc.checked counts what a process has been checked at. */
struct handoff {
	int *fd;
	size_t n, cap;
};

static void handoff_add(struct handoff *h, int fd)
{
	size_t i;

	if (fd < 0)
		return;
	for (i = 0; i < h->n; i++)
		if (h->fd[i] == fd)
			return;
	grow(&h->fd, sizeof(*h->fd), &h->cap, h->n + 1);
	h->fd[h->n++] = fd;
}

/* The wanted socket at descriptor number fd of pid, or 0. */
static unsigned long fd_socket(const struct scan *sc, int pid, int fd)
{
	char path[64], link[64];
	ssize_t k;

	snprintf(path, sizeof(path), "%d/fd/%d", pid, fd);
	k = readlinkat(sc->base, path, link, sizeof(link));
	if (k <= 0)
		return 0;
	return procnet_socket_inode(link, (size_t)k);
}

/* Phase 2, one round, for position i (past phase 1's cover): a process
 * kin to a holder is read at the handoff numbers it has not been read at
 * yet; one whose ties are unknown is read in full, once.  What it finds
 * goes to the worker's matches; the round's kinship and handoff numbers
 * are read-only while the workers run. */
static int kin_item(struct worker *w, size_t i)
{
	const struct scan *sc = w->share->sc;
	const struct handoff *h = sc->hand;
	struct proc *p = &sc->procs[i];
	size_t before = w->nm, j, k;

	if (p->holder)
		return 0;
	if (!p->ties) {
		/* no stat, no ties: read it all, missing nothing matters
		 * more than speed (a fixture tree without stat files) */
		if (p->full)
			return 0;
		p->full = 1;
		w->fd_dirs++;
		p->denied = (unsigned char)fds_read(sc, p->key.pid, i, &w->m,
						    &w->nm, &w->cap);
		return 0;
	}
	if (!kin_related(sc->kin, p))
		return 0;
	if (!p->kin) {
		p->kin = 1;
		w->kin++;
	}
	for (j = p->checked; j < h->n; j++) {
		unsigned long ino = fd_socket(sc, p->key.pid, h->fd[j]);

		w->kin_links++;
		if (!is_wanted(sc, ino))
			continue;
		for (k = before; k < w->nm && w->m[k].inode != ino; k++)
			;
		if (k == w->nm)
			match_add(&w->m, &w->nm, &w->cap, ino, p->key.pid,
				  h->fd[j], i);
	}
	p->checked = h->n;
	return 0;
}

/* ---- the scan ------------------------------------------------------- */

/* The pids listed in the open /proc directory d, as processes with
 * nothing known yet, in a new array the caller frees (NULL and *n 0 when
 * there are none). */
static struct proc *proc_list(DIR *d, size_t *n)
{
	struct dirent *e;
	struct proc *v = NULL;
	size_t cap = 0;

	*n = 0;
	while ((e = readdir(d)) != NULL) {
		int pid;

		if (e->d_name[0] < '1' || e->d_name[0] > '9' ||
		    procnet_pid_name(e->d_name, &pid) < 0)
			continue;
		grow(&v, sizeof(*v), &cap, *n + 1);
		memset(&v[*n], 0, sizeof(v[*n]));
		v[*n].key.pid = pid;
		(*n)++;
	}
	return v;
}

/* Run one job on up to nw workers (pool_run), over positions from ..
 * to-1. */
static void scan_job(struct scan *sc, struct share *sh, unsigned nw,
		     int (*item)(struct worker *, size_t), size_t from,
		     size_t to, size_t chunk)
{
	unsigned ran;

	sh->from = from;
	sh->item = item;
	ran = pool_run(nw, to > from ? to - from : 0, chunk, share_item, sh);
	if (ran > sc->st.threads)
		sc->st.threads = ran;
}

/* Rank the processes and sort them: likely holders first. */
static void order(struct scan *sc)
{
	size_t i;

	for (i = 0; i < sc->n; i++)
		sc->procs[i].key.rank = procnet_rank(&sc->procs[i].key,
						     sc->socks, sc->nsocks);
	if (sc->n)
		qsort(sc->procs, sc->n, sizeof(*sc->procs), proc_qcmp);
}

/* Move what the workers found at positions below limit to sc->m (the
 * rest is dropped), add up what they counted, and empty them for the next
 * job.  Returns how many matches moved. */
static size_t workers_merge(struct scan *sc, struct worker *ws, unsigned nw,
			    size_t limit)
{
	size_t i, moved = 0;
	unsigned k;

	for (k = 0; k < nw; k++) {
		struct worker *w = &ws[k];

		for (i = 0; i < w->nm; i++) {
			if (w->m[i].pos >= limit)
				continue;
			match_add(&sc->m, &sc->nm, &sc->cap, w->m[i].inode,
				  w->m[i].pid, w->m[i].fd, w->m[i].pos);
			moved++;
		}
		sc->st.stat_reads += w->stat_reads;
		sc->st.cgroup_reads += w->cgroup_reads;
		sc->st.fd_dirs += w->fd_dirs;
		sc->st.kin += w->kin;
		sc->st.kin_links += w->kin_links;
		w->nm = 0;
		w->stat_reads = w->cgroup_reads = w->fd_dirs = 0;
		w->kin = w->kin_links = 0;
	}
	return moved;
}

/* Phase 2 over positions cover .. n-1, in rounds until one finds no new
 * holder: a holder found in a round brings its own kin and descriptor
 * numbers to the next. */
static void phase2(struct scan *sc, struct share *sh, unsigned nw,
		   size_t cover)
{
	struct kinship k;
	struct handoff h = { NULL, 0, 0 };
	size_t i, seen = 0;

	k.pid = xmalloc(sc->n * sizeof(int));
	k.ppid = xmalloc(sc->n * sizeof(int));
	k.pgrp = xmalloc(sc->n * sizeof(int));
	for (i = 0; i < sc->nwant; i++)
		handoff_add(&h, 3 + (int)i);
	sc->kin = &k;
	sc->hand = &h;
	do {
		for (; seen < sc->nm; seen++) {
			handoff_add(&h, sc->m[seen].fd);
			sc->procs[sc->m[seen].pos].holder = 1;
		}
		kinship_build(&k, sc);
		scan_job(sc, sh, nw, kin_item, cover, sc->n, 16);
	} while (workers_merge(sc, sh->ws, nw, SIZE_MAX));
	for (i = cover; i < sc->n; i++)
		if (sc->procs[i].full)
			sc->denied |= sc->procs[i].denied;
	sc->kin = NULL;
	sc->hand = NULL;
	free(h.fd);
	free(k.pid);
	free(k.ppid);
	free(k.pgrp);
}

/*
 * Find every process holding one of the wanted sockets.
 *
 * Two promises pull apart here: stop the scan as soon as every wanted
 * socket is found (the scan is most of a run's cost on a busy machine),
 * and report every process holding a socket, since after fork() several
 * do (a pre-fork server's master and its workers; systemd's socket
 * activation hands one to a service).  /proc does not say how many
 * processes hold a socket, so stopping at the first holder would report a
 * master and drop its workers.  The reconciliation:
 *
 * Phase 0 reads /proc/PID/stat of every process (its owner, parent and
 * process group: one small read, no readlink per descriptor) and orders
 * the processes so that the likely holders come first (procnet_order):
 * those of a socket's uid, and among them, when the kernel gave the
 * socket's cgroup, those in it (one more read, /proc/PID/cgroup, for the
 * processes of that uid only).
 *
 * Phase 1 reads /proc/PID/fd of the processes in that order until each
 * wanted socket has at least one holder.  Everything before that point
 * has been looked at in full.
 *
 * Every phase runs on a few threads (pool_run); what they find does
 * not depend on which ran faster.
 *
 * Phase 2 looks at the remaining processes that are kin to a holder (its
 * child, a member of its process group, or its parent) and reads their
 * descriptors only at the numbers through which a parent hands a socket
 * to a child (struct handoff): fork keeps a descriptor's number, and
 * socket activation puts the sockets at 3 and up.  A process found to hold
 * a socket becomes kin in turn, so workers of workers are followed too.
 * What phase 2 does not find is a socket that a process moved to another
 * number, or got over a unix socket (rare, and named in the man page): to
 * find those it would have to read every descriptor of every kin, which
 * is what a holder that forked 2,000 children before it bound made cost
 * 0.8 s.  When a stat cannot be read the fd directory is read in full:
 * missing nothing matters more than speed.
 */
static void scan_all(const char *proc, struct scan *sc)
{
	struct statfs fs;
	struct worker *ws;
	struct share sh;
	size_t cover, i;
	unsigned nw, k;
	DIR *d;

	d = opendir(proc);
	if (!d) {
		if (errno != ENOENT)
			sc->denied = 1;
		return;
	}
	sc->base = dirfd(d);
	sc->procfs = fstatfs(sc->base, &fs) == 0 &&
		     fs.f_type == PROC_SUPER_MAGIC;
	sc->procs = proc_list(d, &sc->n);
	sc->st.pids = sc->n;
	sc->cgroot = -1;
	for (i = 0; i < sc->nsocks; i++)
		if (sc->socks[i].cgroup)
			break;
	if (i < sc->nsocks && sc->n)
		sc->cgroot = cgroup_mount(proc);

	memset(&sh, 0, sizeof(sh));
	pthread_mutex_init(&sh.lock, NULL);
	sh.sc = sc;
	sh.seen = xcalloc(sc->nwant, 1);
	nw = scan_threads(sc->n);
	ws = xcalloc(nw, sizeof(*ws));
	for (k = 0; k < nw; k++)
		ws[k].share = &sh;
	sh.ws = ws;

	/* phase 0, and the order: the cgroup, which costs a read, is looked
	 * at only for the processes with a wanted socket's uid (a process
	 * that changed its uid after it made a socket, and so has another,
	 * made it in another cgroup too when a service manager did it) */
	scan_job(sc, &sh, nw, info_item, 0, sc->n, 16);
	order(sc);
	if (sc->cgroot >= 0) {
		for (i = 0; i < sc->n && sc->procs[i].key.rank; i++)
			;
		scan_job(sc, &sh, nw, cgroup_item, 0, i, 16);
		order(sc);
	}
	workers_merge(sc, ws, nw, 0);
	/* phase 1 */
	scan_job(sc, &sh, nw, fds_item, 0, sc->n, 1);
	cover = phase1_cover(sc, ws, nw);
	sc->st.phase1 = cover;
	for (i = 0; i < sc->n; i++) {
		if (i < cover) {
			sc->st.fd_dirs += sc->procs[i].scanned;
			sc->denied |= sc->procs[i].denied;
		} else {
			sc->st.extra += sc->procs[i].scanned;
		}
	}
	workers_merge(sc, ws, nw, cover);

	if (cover < sc->n)
		phase2(sc, &sh, nw, cover);

	for (k = 0; k < nw; k++)
		free(ws[k].m);
	free(ws);
	free(sh.seen);
	pthread_mutex_destroy(&sh.lock);
	if (sc->cgroot >= 0)
		close(sc->cgroot);
	free(sc->procs);
	sc->procs = NULL;
	closedir(d);
}

/* A new string: the user name of uid, or uid in decimal. */
static char *user_name(unsigned uid)
{
	struct passwd pw, *res = NULL;
	size_t size = 1024;
	char *buf;

	for (;;) {
		int rc;

		buf = xmalloc(size);
		rc = getpwuid_r((uid_t)uid, &pw, buf, size, &res);
		if (rc != ERANGE || size >= 1024 * 1024)
			break;
		free(buf);
		size *= 2;
	}
	if (res) {
		char *name = text_clean(res->pw_name);

		free(buf);
		return name;
	}
	free(buf);
	{
		struct buf b = BUF_INIT;

		buf_printf(&b, "%u", uid);
		return buf_detach(&b);
	}
}

static int is_container_helper(const char *comm)
{
	/* comm is cut at 15 bytes: "containerd-shim-runc-v2" reads
	 * "containerd-shim"; passt installs "pasta.avx2"; podman's rootless
	 * port forwarder is "rootlessport"; rootful podman keeps the
	 * published ports' sockets open in "conmon" */
	static const char *const exact[] = {
		"docker-proxy", "rootlesskit", "rootlessport", "slirp4netns",
		"pasta", "conmon",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(exact); i++)
		if (!strcmp(comm, exact[i]))
			return 1;
	return !strncmp(comm, "containerd-shim", 15) ||
	       !strncmp(comm, "pasta.", 6);
}

/* Fill h with what /proc says about pid.  Returns -1 when the process has
 * gone meanwhile.  Strings in h are new. */
static int holder_fill(int base, int pid, const char *repo,
		       struct port_holder *h)
{
	char path[64], buf[4096];
	ssize_t k;
	struct stat st;

	memset(h, 0, sizeof(*h));
	h->pid = pid;
	snprintf(path, sizeof(path), "%d", pid);
	if (fstatat(base, path, &st, 0) < 0)
		return -1;
	snprintf(path, sizeof(path), "%d/comm", pid);
	k = read_head(base, path, buf, 64);
	if (k < 0 && (errno == ENOENT || errno == ESRCH))
		return -1;
	if (k > 0 && buf[k - 1] == '\n')
		buf[--k] = '\0';
	h->command = text_clean(k > 0 ? buf : "?");

	snprintf(path, sizeof(path), "%d/cmdline", pid);
	k = read_head(base, path, buf, sizeof(buf));
	/* anyone may read another user's cmdline, but envpreflight never
	 * prints a secret: redact.h hides the shapes it knows */
	h->cmdline = redact_cmdline(buf, k > 0 ? (size_t)k : 0, CMDLINE_MAX);

	snprintf(path, sizeof(path), "%d/stat", pid);
	if (read_head(base, path, buf, sizeof(buf)) >= 0 &&
	    procnet_stat_starttime(buf, &h->start_time) == 0)
		h->have_start = 1;

	snprintf(path, sizeof(path), "%d/status", pid);
	h->uid = (unsigned)st.st_uid;
	if (read_head(base, path, buf, sizeof(buf)) >= 0)
		procnet_status_uid(buf, &h->uid);
	h->user = user_name(h->uid);

	snprintf(path, sizeof(path), "%d/cwd", pid);
	k = readlinkat(base, path, buf, sizeof(buf) - 1);
	if (k > 0) {
		static const char deleted[] = " (deleted)";
		size_t dl = sizeof(deleted) - 1;

		buf[k] = '\0';
		h->cwd = text_clean(buf);
		/* a repository removed and cloned again still leaves its
		 * orphans in "<repo> (deleted)": they are this repo's too */
		if ((size_t)k > dl && !strcmp(buf + k - dl, deleted))
			buf[k - dl] = '\0';
	}
	if (is_container_helper(h->command))
		h->klass = HOLDER_CONTAINER;
	else if (h->cwd && repo && buf[0] == '/' && path_is_inside(buf, repo))
		h->klass = HOLDER_THIS_REPO;
	else if (h->uid == (unsigned)geteuid())
		h->klass = HOLDER_SAME_USER;
	else
		h->klass = HOLDER_OTHER_USER;
	return 0;
}

static void holder_release(struct port_holder *h)
{
	free(h->command);
	free(h->cmdline);
	free(h->user);
	free(h->cwd);
}

static void holder_copy(struct port_holder *dst, const struct port_holder *src)
{
	*dst = *src;
	dst->command = xstrdup(src->command);
	dst->cmdline = xstrdup(src->cmdline);
	dst->user = xstrdup(src->user);
	dst->cwd = src->cwd ? xstrdup(src->cwd) : NULL;
}

const char *holder_class_name(int klass)
{
	switch (klass) {
	case HOLDER_THIS_REPO:
		return "this-repo";
	case HOLDER_SAME_USER:
		return "same-user";
	case HOLDER_OTHER_USER:
		return "other-user";
	case HOLDER_CONTAINER:
		return "container";
	}
	return "unknown";
}

/* ---- putting it together ------------------------------------------ */

static int listener_cmp(const void *a, const void *b)
{
	const struct tcp_listener *x = a, *y = b;
	int c;

	if (x->family != y->family)
		return x->family == AF_INET ? -1 : 1;
	c = memcmp(x->addr, y->addr, sizeof(x->addr));
	if (c)
		return c;
	return x->inode < y->inode ? -1 : x->inode > y->inode;
}

/* Copy the listeners of s->port out of all[], once each: the table is not
 * an atomic snapshot and may list a socket twice. */
static void port_listeners(struct port_status *s,
			   const struct tcp_listener *all, size_t n)
{
	size_t i, j, cap = 0;

	for (i = 0; i < n; i++) {
		if (all[i].port != s->port)
			continue;
		for (j = 0; j < s->nl; j++)
			if (!listener_cmp(&s->listeners[j], &all[i]))
				break;
		if (j < s->nl)
			continue;
		grow(&s->listeners, sizeof(*s->listeners), &cap, s->nl + 1);
		s->listeners[s->nl++] = all[i];
	}
	if (s->nl)
		qsort(s->listeners, s->nl, sizeof(*s->listeners), listener_cmp);
	s->busy = s->nl > 0;
}

static int holds(const struct scan *sc, int pid, unsigned long inode)
{
	struct match key = { .inode = inode, .pid = pid };

	return inode && bsearch(&key, sc->m, sc->nm, sizeof(*sc->m), match_cmp);
}

/* Give s the holders (from the per-process list hs) of its sockets, and
 * note sockets nobody visible holds. */
static void port_holders(struct port_status *s, const struct scan *sc,
			 const struct port_holder *hs, size_t nhs)
{
	size_t i, j, cap = 0;

	for (i = 0; i < nhs; i++) {
		for (j = 0; j < s->nl; j++)
			if (holds(sc, hs[i].pid, s->listeners[j].inode))
				break;
		if (j == s->nl)
			continue;
		grow(&s->holders, sizeof(*s->holders), &cap, s->nh + 1);
		holder_copy(&s->holders[s->nh], &hs[i]);
		s->holders[s->nh].listener = j;
		s->nh++;
	}
	for (j = 0; j < s->nl; j++) {
		for (i = 0; i < s->nh; i++)
			if (holds(sc, s->holders[i].pid, s->listeners[j].inode))
				break;
		if (i < s->nh)
			continue;
		if (!s->hidden)
			s->hidden_uid = s->listeners[j].uid;
		s->hidden = 1;
		s->hidden_denied = sc->denied;
		s->hidden_view = sc->view;
	}
}

/* The sorted, unique, non-zero inodes of every busy wanted port. */
static unsigned long *wanted_inodes(const struct port_status *out,
				    size_t nports, size_t *nwant)
{
	unsigned long *w = NULL;
	size_t i, j, n = 0, cap = 0;

	for (i = 0; i < nports; i++)
		for (j = 0; j < out[i].nl; j++) {
			if (!out[i].listeners[j].inode)
				continue;
			grow(&w, sizeof(*w), &cap, n + 1);
			w[n++] = out[i].listeners[j].inode;
		}
	if (n)
		qsort(w, n, sizeof(*w), ulong_cmp);
	for (i = j = 0; i < n; i++)
		if (!j || w[j - 1] != w[i])
			w[j++] = w[i];
	*nwant = j;
	return w;
}

/* Why a holder may be out of sight: proc holds no process at all (not
 * even ourselves: "self"), or it is mounted with hidepid. */
static int proc_view_of(const char *proc, size_t npids)
{
	char *self = path_join(proc, "self");
	char *canon = realpath(proc, NULL);
	struct blob b;
	int h = -1, exists;

	exists = access(self, F_OK) == 0;
	free(self);
	if (!npids && !exists) {
		free(canon);
		return PROC_VIEW_UNMOUNTED;
	}
	self = path_join(proc, "self/mountinfo");
	if (saferead_path(self, NET_TCP_CAP, &b) == 0) {
		h = procnet_hidepid(b.data, b.len, canon ? canon : proc);
		blob_release(&b);
	}
	free(self);
	free(canon);
	return h >= 2 ? PROC_VIEW_HIDEPID : PROC_VIEW_ALL;
}

/* What the kernel says of the wanted sockets' creators: each (uid,
 * cgroup) pair once, in a new array the caller frees. */
static struct tcp_listener *wanted_socks(const struct port_status *out,
					 size_t nports, size_t *nsocks)
{
	struct tcp_listener *v = NULL;
	size_t i, j, k, n = 0, cap = 0;

	for (i = 0; i < nports; i++)
		for (j = 0; j < out[i].nl; j++) {
			const struct tcp_listener *l = &out[i].listeners[j];

			for (k = 0; k < n; k++)
				if (v[k].uid == l->uid && v[k].cgroup == l->cgroup)
					break;
			if (k < n || !l->inode)
				continue;
			grow(&v, sizeof(*v), &cap, n + 1);
			v[n++] = *l;
		}
	*nsocks = n;
	return v;
}

/* Whether some wanted socket has no holder in sight after the scan. */
static int some_unseen(const struct scan *sc)
{
	size_t i, j;

	for (i = 0; i < sc->nwant; i++) {
		for (j = 0; j < sc->nm && sc->m[j].inode != sc->want[i]; j++)
			;
		if (j == sc->nm)
			return 1;
	}
	return 0;
}

/* Fill the holders of every port from one scan of proc; what the scan
 * did goes to *stats when not NULL. */
static void lookup_holders(const char *proc, const char *repo,
			   struct port_status *out, size_t nports,
			   struct procnet_stats *stats)
{
	struct scan sc;
	struct port_holder *hs = NULL;
	struct tcp_listener *socks;
	size_t nhs = 0, cap = 0, i;
	unsigned long *want;
	DIR *d;

	memset(&sc, 0, sizeof(sc));
	want = wanted_inodes(out, nports, &sc.nwant);
	socks = wanted_socks(out, nports, &sc.nsocks);
	sc.want = want;
	sc.socks = socks;
	if (sc.nwant)
		scan_all(proc, &sc);
	if (stats)
		*stats = sc.st;
	if (sc.nm)
		qsort(sc.m, sc.nm, sizeof(*sc.m), match_cmp);
	d = sc.nm ? opendir(proc) : NULL;
	for (i = 0; d && i < sc.nm; i++) {
		if (i && sc.m[i - 1].pid == sc.m[i].pid)
			continue;
		grow(&hs, sizeof(*hs), &cap, nhs + 1);
		if (holder_fill(dirfd(d), sc.m[i].pid, repo, &hs[nhs]) == 0)
			nhs++;
		else
			holder_release(&hs[nhs]);
	}
	if (d)
		closedir(d);
	if (some_unseen(&sc))
		sc.view = proc_view_of(proc, sc.st.pids);
	for (i = 0; i < nports; i++)
		if (out[i].busy)
			port_holders(&out[i], &sc, hs, nhs);
	for (i = 0; i < nhs; i++)
		holder_release(&hs[i]);
	free(hs);
	free(sc.m);
	free(socks);
	free(want);
}

/* The tables' part of ports_lookup_stats: 0, or -1 with errno. */
static int tables_at(const char *proc, const unsigned *ports, size_t nports,
		     struct port_status *out)
{
	struct tcp_listener *all = NULL;
	size_t n = 0, cap = 0, i;

	for (i = 0; i < nports; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		out[i].port = ports[i];
	}
	if (!nports)
		return 0;
	if (listeners_get(proc, &all, &n, &cap) < 0) {
		int saved = errno;

		free(all);
		errno = saved;
		return -1;
	}
	for (i = 0; i < nports; i++)
		port_listeners(&out[i], all, n);
	free(all);
	return 0;
}

int ports_tables(const unsigned *ports, size_t nports, struct port_status *out)
{
	return tables_at(proc_root(), ports, nports, out);
}

/* A new string: repo_root canonical when it exists, else as given;
 * NULL for NULL. */
static char *repo_canonical(const char *repo_root)
{
	char *repo;

	if (!repo_root)
		return NULL;
	repo = realpath(repo_root, NULL);
	return repo ? repo : xstrdup(repo_root);
}

struct port_status *ports_holders(const struct port_status *tables, size_t nports,
				  const char *repo_root)
{
	struct port_status *out = xcalloc(nports ? nports : 1, sizeof(*out));
	char *repo;
	size_t i;

	for (i = 0; i < nports; i++) {
		out[i] = tables[i];
		out[i].holders = NULL;
		out[i].nh = 0;
		out[i].listeners = NULL;
		if (tables[i].nl) {
			out[i].listeners = xcalloc(tables[i].nl, sizeof(*out[i].listeners));
			memcpy(out[i].listeners, tables[i].listeners,
			       tables[i].nl * sizeof(*out[i].listeners));
		}
	}
	if (!nports)
		return out;
	repo = repo_canonical(repo_root);
	lookup_holders(proc_root(), repo, out, nports, NULL);
	free(repo);
	return out;
}

int ports_lookup_stats(const char *proc, const unsigned *ports, size_t nports,
		       const char *repo_root, struct port_status *out,
		       struct procnet_stats *stats)
{
	char *repo = NULL;

	if (stats)
		memset(stats, 0, sizeof(*stats));
	if (!proc)
		proc = proc_root();
	if (tables_at(proc, ports, nports, out) < 0)
		return -1;
	if (!nports)
		return 0;
	repo = repo_canonical(repo_root);
	lookup_holders(proc, repo, out, nports, stats);
	free(repo);
	return 0;
}

int ports_lookup_at(const char *proc, const unsigned *ports, size_t nports,
		    const char *repo_root, struct port_status *out)
{
	return ports_lookup_stats(proc, ports, nports, repo_root, out, NULL);
}

int ports_lookup(const unsigned *ports, size_t nports, const char *repo_root,
		 struct port_status *out)
{
	return ports_lookup_at(proc_root(), ports, nports, repo_root, out);
}

void port_status_release(struct port_status *s)
{
	size_t i;

	for (i = 0; i < s->nh; i++)
		holder_release(&s->holders[i]);
	free(s->holders);
	free(s->listeners);
	s->holders = NULL;
	s->listeners = NULL;
	s->nh = s->nl = 0;
}
