/* sandbox_mounts.c - mountinfo lines and host mounts for the sandbox probe's
 * kernel checks (see sandbox_mounts.h).  No system call; every scan is
 * bounded by the length given, never by a terminator.
 */
#include "sandbox_mounts.h"
#include "span.h"

#include <stdlib.h>
#include <string.h>

#define FIELD_MAX 4096		/* PATH_MAX: a longer field is skipped */
#define WORDS_MAX 64		/* optional fields (shared:N, master:N, ...) */

/* proc(5): "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root
 * rw,errors=continue".  Fields 4 and 5 (root, mount point) escape blank,
 * tab, newline and backslash as \ooo (fs/proc_namespace.c show_mountinfo:
 * seq_dentry and seq_path_root with " \t\n\\"); so does the source
 * (mangle(m, r->mnt_devname)).  Returns 0, or -1 when it does not fit. */
static int unescape(struct span s, char *out)
{
	size_t i, o = 0;

	if (s.n >= FIELD_MAX)
		return -1;
	for (i = 0; i < s.n; i++) {
		const char *p = s.p + i;

		if (*p == '\\' && i + 3 < s.n &&
		    p[1] >= '0' && p[1] <= '3' && p[2] >= '0' && p[2] <= '7' &&
		    p[3] >= '0' && p[3] <= '7') {
			out[o++] = (char)((p[1] - '0') * 64 + (p[2] - '0') * 8 + (p[3] - '0'));
			i += 3;
		} else {
			out[o++] = *p;
		}
	}
	out[o] = '\0';
	return 0;
}

/* "MAJ:MIN": 0, or -1 */
static int dev_numbers(struct span s, unsigned *maj, unsigned *min)
{
	const char *colon = memchr(s.p, ':', s.n);
	struct span a, b;
	unsigned long long x, y;

	if (!colon)
		return -1;
	a.p = s.p;
	a.n = (size_t)(colon - s.p);
	b.p = colon + 1;
	b.n = s.n - a.n - 1;
	if (span_number(a, 10, 10, &x) < 0 || span_number(b, 10, 10, &y) < 0 ||
	    x > 0xffffffffULL || y > 0xffffffffULL)
		return -1;
	*maj = (unsigned)x;
	*min = (unsigned)y;
	return 0;
}

/* the mount's own options (field 6) hold "ro" */
static int opt_ro(struct span opts)
{
	size_t i = 0;

	while (i < opts.n) {
		const char *comma = memchr(opts.p + i, ',', opts.n - i);
		size_t n = comma ? (size_t)(comma - (opts.p + i)) : opts.n - i;

		if (n == 2 && opts.p[i] == 'r' && opts.p[i + 1] == 'o')
			return 1;
		i += n + 1;
	}
	return 0;
}

/* buffers for one line's strings, on the heap: four of PATH_MAX */
struct line_bufs {
	char root[FIELD_MAX], mp[FIELD_MAX], source[FIELD_MAX], type[256], super[FIELD_MAX];
};

static int entry_of(struct span line, struct line_bufs *lb, struct mount_entry *m)
{
	struct span w[WORDS_MAX];
	size_t n = span_words(line, w, WORDS_MAX), dash;

	for (dash = 6; dash < n && !span_is(w[dash], "-"); dash++)
		;
	/* the super options may be absent on old kernels: "- TYPE SOURCE" */
	if (n < 9 || dash + 2 >= n)
		return -1;
	if (dev_numbers(w[2], &m->major, &m->minor) < 0 || w[dash + 1].n >= sizeof(lb->type))
		return -1;
	if (unescape(w[3], lb->root) < 0 || unescape(w[4], lb->mp) < 0 ||
	    unescape(w[dash + 2], lb->source) < 0 ||
	    unescape(dash + 3 < n ? w[dash + 3] : (struct span){ "", 0 }, lb->super) < 0)
		return -1;
	if (lb->root[0] != '/' || lb->mp[0] != '/')
		return -1;
	memcpy(lb->type, w[dash + 1].p, w[dash + 1].n);
	lb->type[w[dash + 1].n] = '\0';
	m->root = lb->root;
	m->mount_point = lb->mp;
	m->read_only = opt_ro(w[5]);
	m->type = lb->type;
	m->source = lb->source;
	m->super = lb->super;
	return 0;
}

size_t sandbox_mountinfo_each(const char *buf, size_t len,
			      void (*cb)(const struct mount_entry *m, void *arg),
			      void *arg)
{
	struct line_bufs *lb = malloc(sizeof(*lb));
	struct span line;
	size_t pos = 0, count = 0;

	if (!lb)
		return 0;
	while (span_next_line(buf, len, &pos, &line)) {
		struct mount_entry m;

		memset(&m, 0, sizeof(m));
		if (entry_of(line, lb, &m) < 0)
			continue;
		cb(&m, arg);
		count++;
	}
	free(lb);
	return count;
}

int sandbox_path_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (n == 1 && dir[0] == '/')
		return path[0] == '/';
	return !strncmp(path, dir, n) && (path[n] == '\0' || path[n] == '/');
}

/*
 * Disk file systems by type, for a source that does not name its device
 * (btrfs and zfs subvolumes have an anonymous 0:N device; zfs's source is
 * "pool/dataset").  CDK takes a mount as the host's when its device has a
 * '/' or its type holds "ext" (cdk-team/CDK pkg/evaluate/
 * check_mount_escape.go at 656f5c0, MountEscape); deepce lists every
 * mount its GREP_IGNORE_MOUNTS does not drop (stealthcopter/deepce
 * deepce.sh at a08648d, findMountedFolders).
 */
static const char *const disk_types[] = {
	"ext2", "ext3", "ext4", "xfs", "btrfs", "zfs", "f2fs", "jfs", "reiserfs",
	"vfat", "exfat", "ntfs", "ntfs3", "fuseblk", "bcachefs", "nilfs2",
};

static int disk_fs(const struct mount_entry *m)
{
	size_t i;

	if (!strncmp(m->source, "/dev/", 5))
		return 1;
	for (i = 0; i < sizeof(disk_types) / sizeof(disk_types[0]); i++)
		if (!strcmp(m->type, disk_types[i]))
			return 1;
	return 0;
}

/* The files a container runtime bind-mounts from its own state directory
 * (docker's /var/lib/docker/containers/ID/hosts, Kubernetes' termination
 * log): CDK's exceptions, the regexp /kubelet/|/dev/[\w-]*?\blog$|
 * /etc/host[\w]*?$|/etc/[\w]*?\.conf$ over the root, here by mount point
 * and the kubelet's directory. */
static const char *const runtime_files[] = {
	"/etc/hosts", "/etc/hostname", "/etc/resolv.conf", "/dev/termination-log",
};

enum host_mount sandbox_host_mount(const struct mount_entry *m, const char *repo)
{
	size_t i;

	if (!strcmp(m->type, "proc"))
		return sandbox_path_under(m->mount_point, "/proc") ? HOST_MOUNT_NONE :
		       HOST_MOUNT_PROC;
	/* the runtimes mount /sys read-only (docker, podman unless
	 * --privileged; bwrap --ro-bind): a read-write one is the host
	 * kernel's knobs (linPEAS lists /sys/kernel/security,
	 * /sys/firmware/efi/vars writable) */
	if (!strcmp(m->type, "sysfs"))
		return m->read_only ? HOST_MOUNT_NONE : HOST_MOUNT_SYSFS;
	if (!disk_fs(m) || !strcmp(m->mount_point, "/"))
		return HOST_MOUNT_NONE;
	for (i = 0; i < sizeof(runtime_files) / sizeof(runtime_files[0]); i++)
		if (!strcmp(m->mount_point, runtime_files[i]))
			return HOST_MOUNT_NONE;
	if (strstr(m->root, "/kubelet/"))
		return HOST_MOUNT_NONE;
	if (repo && repo[0] == '/' && sandbox_path_under(m->mount_point, repo))
		return HOST_MOUNT_NONE;
	return HOST_MOUNT_PATH;
}
