/* probe_sandbox.h - what the sandbox probe's files share (private to
 * them: src/probes/probe_sandbox.c has the items, the verdict and the network,
 * file system, identity and process checks; src/probes/sandbox_reach.c the escape
 * hatches; src/probes/sandbox_cred.c the secrets in reach).  The pure parsers
 * are sandbox.h's.
 */
#ifndef EP_PROBE_SANDBOX_H
#define EP_PROBE_SANDBOX_H

#include "probe.h"
#include "sandbox.h"

#define SBX_PROC_CAP (1024 * 1024)		/* a status, a route table */
#define SBX_MOUNTINFO_CAP (8 * 1024 * 1024)	/* a container host's mounts */
#define SBX_ETC_CAP (4 * 1024 * 1024)		/* passwd, group of a large site */
#define SBX_LIST_MAX 4096	/* names looked at: interfaces, ~/.ssh, ... */

struct sbx_item;

/* What one check is given. */
struct sbx {
	const struct spec *spec;
	const struct sandbox_expect *e;	/* its key's expectation */
	const struct sbx_item *it;
	const char *proc;		/* proc_root() */
	double deadline_ms;		/* the run's, for a bounded walk */
};

/* One check, a row of probe_sandbox.c's table. */
struct sbx_item {
	const char *id;		/* after "sandbox." */
	const char *title;
	enum sandbox_key key;
	enum status sev;	/* what a breach is, unless the check says */
	enum reason why;	/* and why, likewise */
	const char *option;	/* the docker/podman run option that closes
				 * it, or NULL when the remedy is leaving
				 * something out */
	const char *hint;
	void (*run)(const struct sbx *x, struct result *r);
	int secret;		/* enum sandbox_secret, for the secrets */
};

/* 1 when the check's key judges it (not `any`, not a listed secret). */
int sbx_judged(const struct sbx *x);

/*
 * The outcome: a pass when ok, else status sev (STATUS_PASS: the item's
 * own) with why (REASON_NONE: the item's), the item's hint and a human
 * fix (the remedy is in how the harness starts the sandbox: no argv).  A
 * key that does not judge makes it a pass with a note.
 */
void sbx_verdict(const struct sbx *x, struct result *r, int ok, enum status sev,
		 enum reason why, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* An error result: what could not be read, and why (code 0: it does not
 * parse). */
void sbx_could_not(struct result *r, const char *what, int code);
/* This process's /proc/self/status: 0, or -1 with r set to an error (id
 * released then). */
int sbx_read_identity(const struct sbx *x, struct proc_identity *id,
		      struct result *r);
/* A file of /etc, read whole (at most SBX_ETC_CAP): 0, or -1 (b empty). */
int sbx_etc_read(const char *path, struct blob *b);
/* /proc/sys/kernel/overflowuid or overflowgid (which: "uid", "gid"),
 * else the kernel's default 65534. */
unsigned long sbx_overflow_id(const struct sbx *x, const char *which);
/* The inode of the namespace link <proc>/rel ("self/ns/user"), of type
 * ("user"): 0, or -1. */
int sbx_ns_ino(const struct sbx *x, const char *rel, const char *type, unsigned long *ino);
/* The user namespace: 1 a child namespace, 0 the initial one, -1 unknown. */
int sbx_in_user_namespace(const struct sbx *x);
/* faccessat(W_OK) with the effective ids: 1 or 0. */
int sbx_can_write(const char *path);

/* A list of names, each owned. */
struct names {
	char **v;
	size_t n, cap;
};
void sbx_names_add(struct names *s, const char *name);
void sbx_names_release(struct names *s);
cJSON *sbx_names_json(const struct names *s);
/* "a, b, c and 4 more": the first few names, for a message */
void sbx_list_text(struct buf *b, char *const *names, size_t n);
int sbx_name_cmp(const void *a, const void *b);	/* qsort, by strcmp */
void sbx_add_nullable(cJSON *o, const char *key, const char *s);

/* sandbox_sock.c: the container sockets and DOCKER_HOST (struct sbx_item
 * run functions) */
void sbx_escape_docker_socket(const struct sbx *x, struct result *r);
void sbx_escape_docker_host(const struct sbx *x, struct result *r);

/* sandbox_reach.c: sudo and /var/run; sandbox_cred.c: the secrets */
void sbx_escape_sudo(const struct sbx *x, struct result *r);
void sbx_escape_var_run(const struct sbx *x, struct result *r);
void sbx_secret_check(const struct sbx *x, struct result *r);

/* sandbox_kernel.c: the kernel escape surfaces and the host's mounts */
void sbx_escape_proc_sys(const struct sbx *x, struct result *r);
void sbx_escape_core_pattern(const struct sbx *x, struct result *r);
void sbx_escape_release_agent(const struct sbx *x, struct result *r);
void sbx_escape_binfmt_misc(const struct sbx *x, struct result *r);
void sbx_escape_uevent_helper(const struct sbx *x, struct result *r);
void sbx_fs_host_mounts(const struct sbx *x, struct result *r);

/* sandbox_confine.c: ptrace, AppArmor/SELinux, Landlock, block devices */
void sbx_proc_ptrace(const struct sbx *x, struct result *r);
void sbx_id_lsm(const struct sbx *x, struct result *r);
void sbx_id_landlock(const struct sbx *x, struct result *r);
void sbx_escape_block_devices(const struct sbx *x, struct result *r);

/* sandbox_priv.c: every capability set, the host's uid 0, the remount
 * of a read-only /; and whether this process can setns(2) into another
 * network namespace: 1 (data.enter_netns set, why the clause), else 0
 * (data.cap_sys_admin, data.enter_netns null) */
void sbx_id_capabilities(const struct sbx *x, struct result *r);
void sbx_id_host_root(const struct sbx *x, struct result *r);
void sbx_fs_root(const struct sbx *x, struct result *r);
int sbx_netns_reach(const struct sbx *x, struct result *r, struct buf *why);

/* sandbox_seccomp.c: what a seccomp filter blocks, tried in a forked
 * child; whether a new user namespace can be made, likewise */
void sbx_id_seccomp(const struct sbx *x, struct result *r);
void sbx_id_userns(const struct sbx *x, struct result *r);

/* One call tried under a filter: arguments the kernel, unfiltered,
 * answers with expect (an errno; 0: success) before any capability check
 * and before doing anything. */
struct sbx_try {
	const char *name;
	long nr;		/* SYS_... */
	long a[6];
	int expect;
	int judged;		/* must be blocked for a pass */
};
enum sbx_try_verdict { TRY_UNKNOWN, TRY_ALLOWED, TRY_BLOCKED };
#define SBX_TRY_NONE (-1)	/* an answer: none came */
#define SBX_TRY_KILLED (-2)	/* the child died of a signal making it */

/* The table, in the order tried (static). */
const struct sbx_try *sbx_tries(size_t *n);
/* The verdict on t from its answer: an errno, 0 (success), SBX_TRY_NONE
 * or SBX_TRY_KILLED. */
enum sbx_try_verdict sbx_try_judge(const struct sbx_try *t, int answer);
const char *sbx_try_word(enum sbx_try_verdict v);	/* "blocked", ... */

#endif
