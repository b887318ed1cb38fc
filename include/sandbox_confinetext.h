/* sandbox_confinetext.h - pure readers of what confines a process besides
 * its ids: Yama's ptrace_scope, the LSM list of securityfs, and the label
 * an LSM gives it (/proc/self/attr/apparmor/current, /proc/self/attr/current).
 * The sandbox probe's src/probes/sandbox_confine.c reads the files; these
 * judge the text.  No system call; the text need not end in a NUL.  Safe
 * to fuzz.  Thread-safe.
 */
#ifndef EP_SANDBOX_CONFINE_H
#define EP_SANDBOX_CONFINE_H

#include <stddef.h>

/* /proc/sys/kernel/yama/ptrace_scope: 0 classic, 1 restricted, 2 admin
 * only, 3 no attach (Documentation/admin-guide/LSM/Yama.rst), or -1 when
 * the text is not one of them. */
int sandbox_ptrace_scope(const char *buf, size_t len);

/* The LSMs of /sys/kernel/security/lsm ("lockdown,capability,yama,
 * apparmor"), a bit each; others are ignored. */
enum {
	LSM_YAMA = 1 << 0,
	LSM_APPARMOR = 1 << 1,
	LSM_SELINUX = 1 << 2,
	LSM_SMACK = 1 << 3,
	LSM_TOMOYO = 1 << 4,
	LSM_LANDLOCK = 1 << 5,
};
unsigned sandbox_lsm_list(const char *buf, size_t len);

enum lsm_kind {
	LSM_LABEL_UNKNOWN,	/* not a shape either writes */
	LSM_LABEL_APPARMOR,	/* "unconfined", "docker-default (enforce)" */
	LSM_LABEL_SELINUX,	/* "system_u:system_r:container_t:s0:c1,c2" */
};

/* A process's label, read from the text of an attr file. */
struct lsm_label {
	enum lsm_kind kind;
	char name[128];		/* the AppArmor profile, the SELinux type;
				 * cut to size */
	char mode[16];		/* the AppArmor mode ("enforce", "complain",
				 * "kill", ...), "" for SELinux */
	int confined;		/* 1 the label confines: an AppArmor profile
				 * in enforce or kill mode, an SELinux type
				 * that is not one of the unconfined ones */
};

/*
 * Parse the label text of an attr file (a trailing newline or NUL is
 * dropped).  kind says whose file it is (LSM_LABEL_APPARMOR for
 * attr/apparmor/current), or LSM_LABEL_UNKNOWN for the shared
 * attr/current, where the shape decides.  0, or -1 when it is empty or
 * not a label (out->kind then LSM_LABEL_UNKNOWN).
 */
int sandbox_lsm_label(const char *buf, size_t len, enum lsm_kind kind,
		      struct lsm_label *out);

#endif
