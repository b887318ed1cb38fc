/* procnet_text.h - the pure parsers of /proc's text (procnet_text.c):
 * bytes in, values out, no system call, safe to fuzz.  procnet.h, the
 * reader of the live /proc, includes it. */
#ifndef EP_PROCNET_TEXT_H
#define EP_PROCNET_TEXT_H

#include <stddef.h>

/* One LISTEN socket. */
struct tcp_listener {
	unsigned port;
	int family;		/* AF_INET or AF_INET6: which table */
	unsigned char addr[16];	/* network order; 4 bytes for AF_INET */
	char addr_text[46];	/* inet_ntop; ::ffff:a.b.c.d as "a.b.c.d" */
	int v4mapped;		/* an AF_INET6 socket on ::ffff:a.b.c.d */
	int any;		/* 0.0.0.0, :: or ::ffff:0.0.0.0 */
	unsigned uid;		/* the uid that created the socket */
	unsigned long inode;	/* sockfs inode: the key to /proc/PID/fd */
	unsigned long long cgroup;	/* cgroup v2 id of its creator, from
					 * sock_diag (kernel >= 5.7); 0 unknown */
};

/* The start time (field 22, clock ticks after boot) of a <pid>/stat
 * line: 0, or -1 when the line does not parse.  Pure. */
int procnet_stat_starttime(const char *stat, unsigned long long *out);

/* Append every LISTEN (st 0A) entry of one file's text to *v (n used, cap
 * allocated, as grow() in util.h keeps them; the caller frees *v).  family
 * says which file the text came from.  The first line is the header and is
 * skipped by position; lines that do not parse are skipped.  Pure: safe to
 * fuzz. */
void procnet_parse(const char *buf, size_t len, int family,
		   struct tcp_listener **v, size_t *n, size_t *cap);

/* The hidepid= option of the proc mount at mount point mnt, else of the
 * one at "/proc", in the text of a /proc/PID/mountinfo: 0 (none, "off"),
 * 1 ("noaccess"), 2 ("invisible"), 4 ("ptraceable"), or -1 when neither
 * is a proc mount.  The last such line wins (a later mount hides the
 * earlier).  Pure: safe to fuzz. */
int procnet_hidepid(const char *text, size_t len, const char *mnt);

/* A process as the scan orders it: what /proc says of it cheaply. */
struct procnet_key {
	int pid;
	unsigned uid[6];	/* whose it is: the owners of /proc/PID (its
				 * effective uid) and /proc/PID/stat (root
				 * when it is not dumpable); in a copy of
				 * /proc, the real, effective, saved and
				 * filesystem uids of its status */
	size_t nuid;		/* how many of uid[] are known */
	unsigned long long cgroup;	/* inode of its cgroup v2 directory;
					 * 0 unknown */
	int rank;		/* filled by procnet_order */
};

/* How likely p holds one of the n sockets: 3 in the cgroup that created
 * one and with its uid among p's, 2 in its cgroup, 1 with its uid, 0
 * neither.  Pure. */
int procnet_rank(const struct procnet_key *p, const struct tcp_listener *socks,
		 size_t n);

/* Fill each rank and sort v: higher rank first, then by pid.  Pure. */
void procnet_order(struct procnet_key *v, size_t n,
		   const struct tcp_listener *socks, size_t nsocks);


/* Exactly n (1..20) decimal digits, at most max, into *out: 0 or -1. */
int procnet_dec(const char *s, size_t n, unsigned long long max,
		unsigned long long *out);

/* Fill the derived fields of l (v4mapped, any, addr_text) from its family
 * and addr. */
void procnet_listener_text(struct tcp_listener *l);

/* The inode of a "socket:[INODE]" link text s[0..n), or 0. */
unsigned long procnet_socket_inode(const char *s, size_t n);

/* A /proc entry's name as a pid (> 0): 0, or -1 when it is not one. */
int procnet_pid_name(const char *s, int *pid);

/* The parent and process group from a <pid>/stat text: 0, or -1. */
int procnet_stat_ties(const char *buf, int *ppid, int *pgrp);

/* The scan order: higher rank first, then by pid. */
int procnet_key_cmp(const struct procnet_key *x, const struct procnet_key *y);

/* Undo the octal escapes (\040 for a space) of a mountinfo field, in
 * place. */
void procnet_mountinfo_unescape(char *s);

/* The "Uid:", "PPid:" and "NSpgid:" lines of a <pid>/status text: sets
 * the four uids and *nuid 4 when Uid: parses, both ties and *ties 1 when
 * PPid: and NSpgid: do. */
void procnet_status_parse(const char *s, unsigned *uid, size_t *nuid,
			  int *ppid, int *pgrp, unsigned char *ties);

/* The real uid from the "Uid:" line of a status text: 0, or -1. */
int procnet_status_uid(const char *s, unsigned *uid);

#endif
