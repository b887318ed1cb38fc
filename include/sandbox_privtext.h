/* sandbox_privtext.h - pure parsers for the sandbox probe's privilege
 * checks (src/probes/sandbox_priv.c): the mount a path lookup of / finds
 * in a mountinfo text, and the capability sets' arithmetic of an exec
 * (capabilities(7)).  No system call; safe to fuzz; thread-safe.
 */
#ifndef EP_SANDBOX_PRIVTEXT_H
#define EP_SANDBOX_PRIVTEXT_H

#include <stddef.h>

/* One mountinfo line's flags (proc(5): field 6 the mount's own options,
 * the field after the separator's source the superblock's). */
struct sandbox_mount {
	int found;
	int mount_ro;		/* the mount's "ro" (MNT_READONLY) */
	int super_ro;		/* the file system's "ro" (SB_RDONLY) */
	int slave;		/* a "master:N" tag: a copy that follows another
				 * namespace's mounts */
	char fstype[32];	/* cut to size */
};

/*
 * The last mount of a mountinfo text whose mount point is mount_point
 * (the one on top, that a lookup finds; octal escapes undone).  Returns 0
 * (out filled; found 0 when none), or -1 when no line parses as a
 * mountinfo line.
 */
int sandbox_mount_at(const char *buf, size_t len, const char *mount_point,
		     struct sandbox_mount *out);

/* The id inside a user namespace that the id outside (the parent's)
 * maps to, from a uid_map or gid_map text: 0 with *inside set, 1 when no
 * line maps it, -1 when the text does not parse. */
int sandbox_id_map_inside(const char *buf, size_t len, unsigned long outside,
			  unsigned long *inside);

/*
 * Which id here is the host's id 0 (kuid or kgid 0), from a file the
 * host's id 0 owns (/proc/sys/kernel: fs/proc/proc_sysctl.c
 * proc_sys_make_inode).  stat(2) shows its owner as the id it has in the
 * caller's user namespace, or as the overflow id when it has none
 * (fs/stat.c cp_new_stat, from_kuid_munged); so an owner shown as the
 * overflow id is the host's 0 unmapped, or mapped to that very id when
 * the map gives the overflow id inside.  Only the kernel can then tell
 * (asked: whether it grants the effective id what it grants the host's
 * 0 alone).  Nested user namespaces change nothing: the owner is
 * translated from the kernel id, however deep.
 */
struct sandbox_id0 {
	unsigned long shown;	/* the owner stat(2) shows */
	unsigned long overflow;	/* /proc/sys/kernel/overflowuid or overflowgid */
	int overflow_mapped;	/* 1 the map gives the overflow id inside, 0 it
				 * does not, -1 unknown */
	int asked;		/* the kernel asked about the overflow id: 1 it is
				 * the host's 0, 0 it is not, -1 not asked */
};

/* 1 the host's id 0 is *inside here, 0 it is not mapped here, -1 cannot
 * tell: *inside is then the only id that may be it. */
int sandbox_host_id0(const struct sandbox_id0 *e, unsigned long *inside);

/* Whether the network capabilities act here: CAP_NET_BIND_SERVICE,
 * CAP_NET_BROADCAST, CAP_NET_ADMIN, CAP_NET_RAW. */
#define SANDBOX_CAPS_NET 0x3c00ULL
/* Of reach, the capabilities that act on nothing here: the network ones
 * when the user namespace that owns this network namespace is outside
 * the process's (netns_ours 0); none when it is ours or a descendant (1)
 * or unknown (-1). */
unsigned long long sandbox_caps_inert(unsigned long long reach, int netns_ours);

/* What the capability sets of a process give it, by capabilities(7). */
struct sandbox_capsets {
	unsigned long long eff, prm, inh, bnd, amb;
	int no_new_privs;	/* 1, 0, or -1 (unknown: counted as off) */
	int root;		/* real or effective uid 0 in its namespace */
	int noroot;		/* SECBIT_NOROOT set (prctl PR_GET_SECUREBITS) */
};

/* What it has or can raise without an exec: effective | permitted |
 * ambient (capset(2) raises a permitted capability into effective). */
unsigned long long sandbox_caps_now(const struct sandbox_capsets *c);
/* What an exec of any program gives it: root's rule (uid 0 and no
 * SECBIT_NOROOT: the file sets count as full, P' = P(inh) | P(bnd)) and
 * ambient; no_new_privs keeps the permitted set from growing.  Beside
 * sandbox_caps_now. */
unsigned long long sandbox_caps_exec(const struct sandbox_capsets *c);
/* What a set-user-ID-root or file-capability program could give on exec
 * (no_new_privs off): up to inh | bnd; 0 with no_new_privs. */
unsigned long long sandbox_caps_setuid(const struct sandbox_capsets *c);

#endif
