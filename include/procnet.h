/* procnet.h - TCP listeners from /proc/net/tcp{,6} and the processes that
 * hold them, without lsof.
 *
 * Every /proc path is built from one root, proc_root(), so that tests and
 * golden cases can point the whole module at a fixture tree (see
 * tests/fixtures/proc/README).  Nothing here prints, exits or signals a
 * process.
 */
#ifndef EP_PROCNET_H
#define EP_PROCNET_H

#include <stddef.h>

/* the pure parts: the tables' text, the scan's order */
#include "procnet_text.h"

/* "/proc" unless ENVPREFLIGHT_PROC_ROOT is set (and not empty); read once,
 * thread-safe.  The string is static. */
const char *proc_root(void);

/* This boot's id (<proc>/sys/kernel/random/boot_id), or NULL when it
 * cannot be read.  Static, thread-safe. */
const char *proc_boot_id(void);

/* Append the listeners of <proc>/net/tcp and <proc>/net/tcp6 (proc NULL:
 * proc_root()).  A missing tcp6 is not an error (IPv6 off).  Returns 0, or
 * -1 with errno when net/tcp cannot be read. */
int procnet_listeners(const char *proc, struct tcp_listener **v, size_t *n,
		      size_t *cap);

/* Append the listeners of this network namespace as the kernel reports
 * them over NETLINK_SOCK_DIAG (a LISTEN-only dump, IPv4 then IPv6): the
 * same sockets as the files, far cheaper to get, and with the cgroup id.
 * Returns 0, or -1 with errno and *n unchanged when sock_diag is not
 * available.  ports_lookup uses it when the root is the real "/proc". */
int procnet_listeners_diag(struct tcp_listener **v, size_t *n, size_t *cap);

enum holder_class {
	HOLDER_THIS_REPO,	/* cwd inside the audited repository */
	HOLDER_SAME_USER,
	HOLDER_OTHER_USER,
	HOLDER_CONTAINER,	/* docker-proxy, containerd-shim, ... */
};

/* "this-repo", "same-user", "other-user", "container" (static). */
const char *holder_class_name(int klass);

/* A process holding one of a port's listening sockets.  The strings are
 * owned by the port_status and already cleaned of control characters
 * (they come from other people's processes). */
struct port_holder {
	int pid;
	char *command;		/* /proc/PID/comm, or "?" */
	char *cmdline;		/* args joined by spaces, secrets "***" (redact.h),
				 * at most 120 bytes; "" for none */
	char *user;		/* user name, or the uid in decimal */
	unsigned uid;		/* real uid (status), else dir owner */
	char *cwd;		/* NULL when it could not be read */
	int klass;		/* enum holder_class */
	size_t listener;	/* index in listeners[] of a socket it holds */
	/* with proc_boot_id(), what tells this process from a later one
	 * that got the same pid: a harness checks it before a signal */
	unsigned long long start_time;	/* /proc/PID/stat field 22 */
	int have_start;
};

/* How much of the processes a /proc shows, said when a listener's holder
 * is not in sight. */
enum proc_view {
	PROC_VIEW_ALL,		/* as far as we can tell: the holder is in
				 * another PID namespace, or the kernel's */
	PROC_VIEW_HIDEPID,	/* mounted hidepid=2 (invisible) or 4
				 * (ptraceable): other users' processes hidden */
	PROC_VIEW_UNMOUNTED,	/* no process at all, not even ourselves */
};

struct port_status {
	unsigned port;
	int busy;		/* a LISTEN socket holds it, on any address */
	struct tcp_listener *listeners;	/* IPv4 first, then by address */
	size_t nl;
	struct port_holder *holders;	/* sorted by pid */
	size_t nh;
	int hidden;		/* a listener whose holder is unseen */
	unsigned hidden_uid;	/* socket uid of the first such listener */
	int hidden_denied;	/* and some fd directory was unreadable */
	int hidden_view;	/* enum proc_view: why, when not denied */
	int scan_cut;		/* hidden because the holders were not
				 * looked for: the deadline came first (the
				 * ports probe's partial result) */
};

/* Look up every wanted port at once: one read of the tables, one /proc
 * scan only if some wanted port is busy, which meets first the processes
 * the kernel's word on the sockets points at (procnet_order) and stops
 * early once every busy port's sockets have a holder and their forked kin
 * have been looked at (struct procnet_stats).  repo_root is the audited repository
 * (canonicalised here when it exists) for the this-repo class, or NULL.
 * out has nports entries, filled in order; release each with
 * port_status_release, also after a failure.  Returns 0, or -1 with errno
 * when the socket tables cannot be read.  Thread-safe. */
int ports_lookup(const unsigned *ports, size_t nports, const char *repo_root,
		 struct port_status *out);
/* The socket tables alone (port, busy, listeners of each wanted port; no
 * holder): what ports_lookup reads first, in a fraction of its time when
 * a port is busy on a crowded machine.  Returns as ports_lookup. */
int ports_tables(const unsigned *ports, size_t nports, struct port_status *out);
/* The rest of ports_lookup, on what ports_tables read: out (nports
 * entries, busy and listeners as ports_tables left them) gets copied
 * into a fresh array (returned; release each entry and free it), whose
 * busy ports' holders are then looked for, without reading the tables
 * again. */
struct port_status *ports_holders(const struct port_status *tables, size_t nports,
				  const char *repo_root);
/* The same under another /proc root (tests; a future per-netns look). */
int ports_lookup_at(const char *proc, const unsigned *ports, size_t nports,
		    const char *repo_root, struct port_status *out);

/* What one holder scan did (see scan_all in procnet.c).  Phase 0 reads
 * /proc/PID/stat of every process (owner, parent, process group) and, for
 * those with a wanted socket's uid, /proc/PID/cgroup where the kernel gave
 * the socket's cgroup, and orders them with procnet_order; phase 1 reads
 * fd directories in that order until each wanted socket has a holder;
 * phase 2 reads, of the processes phase 1 did not cover, only the holders'
 * kin (children, process group, parent), and of those only the descriptor
 * numbers through which a parent hands a socket to a child.  Each phase
 * runs on a few threads. */
struct procnet_stats {
	size_t pids;		/* process directories listed */
	size_t phase1;		/* of those, how many phase 1 covered */
	size_t stat_reads;	/* processes phase 0 read (stat; status too
				 * in a copy of /proc) */
	size_t cgroup_reads;	/* /proc/PID/cgroup reads (phase 0) */
	size_t fd_dirs;		/* fd directories read in full: phase 1 up to
				 * its stop, and phase 2 where a stat was
				 * unreadable */
	size_t extra;		/* fd directories other threads read past
				 * phase 1's stop (their findings dropped) */
	size_t kin;		/* processes phase 2 found kin to a holder */
	size_t kin_links;	/* fd links phase 2 read at handoff numbers */
	unsigned threads;	/* threads the phases ran on */
};

/* ports_lookup_at, also filling *stats (may be NULL; zeroed when no scan
 * ran, as when no wanted port is busy). */
int ports_lookup_stats(const char *proc, const unsigned *ports, size_t nports,
		       const char *repo_root, struct port_status *out,
		       struct procnet_stats *stats);
void port_status_release(struct port_status *s);


#endif
