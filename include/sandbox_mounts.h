/* sandbox_mounts.h - the pure side of the sandbox probe's kernel escape
 * surfaces and host mounts (src/parse/sandbox_mounts.c; the probe's side
 * is src/probes/sandbox_kernel.c): every field of a mountinfo line, which
 * mounts lend the sandbox a path of the host, and whether a path lies
 * under a directory.  Bytes in, values out, no system call, safe to fuzz.
 */
#ifndef EP_SANDBOX_MOUNTS_H
#define EP_SANDBOX_MOUNTS_H

#include <stddef.h>

/* One line of /proc/self/mountinfo (proc(5)), its octal escapes (\040)
 * undone.  The strings live only as long as the callback. */
struct mount_entry {
	unsigned major, minor;	/* st_dev of the file system */
	const char *root;	/* the mount's source inside its file system */
	const char *mount_point;	/* relative to our root */
	int read_only;		/* the mount's own flag (field 6: "ro") */
	const char *type;	/* "ext4", "cgroup", "proc", ... */
	const char *source;	/* "/dev/vda", "cgroup", ... */
	const char *super;	/* the super block's options: "rw,memory" */
};

/* Each line of a mountinfo text that parses, in order: cb(m, arg).
 * Returns how many. */
size_t sandbox_mountinfo_each(const char *buf, size_t len,
			      void (*cb)(const struct mount_entry *m, void *arg),
			      void *arg);

/* What a mount lends the sandbox of the host (fs.host_mounts). */
enum host_mount {
	HOST_MOUNT_NONE = 0,	/* the sandbox's own, or not the host's */
	HOST_MOUNT_PATH,	/* a directory or file of a disk file system
				 * (-v /home:/home, -v /:/host) */
	HOST_MOUNT_PROC,	/* a proc file system beside /proc
				 * (-v /proc:/host/proc) */
	HOST_MOUNT_SYSFS,	/* a sysfs mounted read-write (--privileged,
				 * -v /sys:/sys) */
};

/* The kind of m: a disk file system (its source a /dev path, or a disk
 * file system type) mounted anywhere but on /, /etc/hosts, /etc/hostname,
 * /etc/resolv.conf or /dev/termination-log (the runtime's own files), a
 * proc file system outside /proc, or a sysfs not mounted read-only.  repo (or NULL): the audited
 * repository, whose own mount and mounts inside it are expected. */
enum host_mount sandbox_host_mount(const struct mount_entry *m, const char *repo);

/* 1 when path is dir or lies under it ("/a/b" under "/a", not "/ab"). */
int sandbox_path_under(const char *path, const char *dir);

#endif
