/* lldomain.h - what this process can learn of its own Landlock domain
 * (src/os/lldomain.c).
 *
 * The kernel has no file that says whether a process runs under a
 * Landlock domain (Documentation/userspace-api/landlock.rst: the ABI
 * version and errata are all landlock_create_ruleset tells; up to ABI 7,
 * Linux 6.15, the domain shows only in audit records).  What it does
 * enforce is a limit of 16 stacked layers (security/landlock/limits.h,
 * LANDLOCK_MAX_NUM_LAYERS; landlock_restrict_self fails E2BIG past it), so
 * a child that stacks layers of its own until E2BIG counts, by
 * difference, the layers it inherited.
 */
#ifndef EP_LLDOMAIN_H
#define EP_LLDOMAIN_H

#define LLDOMAIN_MAX_LAYERS 16

/* landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION): the
 * ABI version (1 or more), or -errno (-ENOSYS: not built in, or a seccomp
 * filter refuses it; -EOPNOTSUPP: built in, not enabled at boot). */
int lldomain_abi(void);

/*
 * The Landlock layers this process runs under, 0 to 16: a child of
 * spawnrun's (spawn_vfork_for, or spawn_fork_for when filtered: a seccomp
 * filter is on; no exec; raw system calls only: prctl PR_SET_NO_NEW_PRIVS,
 * landlock_create_ruleset, landlock_restrict_self until E2BIG) counts the
 * layers it can add; it is killed at deadline_ms (an absolute clock_ms()
 * time) and reaped.  owner: spawnrun's owner of the child.  -1 with errno
 * when it cannot tell: ETIMEDOUT (killed at the deadline), EAGAIN (no
 * child), EPROTO (no answer), or the child's first failing call's errno
 * (its low 7 bits).
 */
int lldomain_layers(const void *owner, int filtered, double deadline_ms);

#endif
