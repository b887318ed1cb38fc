/* test_sandbox_mounts.c - the sandbox probe's mountinfo reader and host
 * mount rule (sandbox_mounts.c): one row a line, the fields each gives,
 * which mounts are the host's; hostile rows and random bytes. */
#include "test.h"
#include "sandbox_mounts.h"

#include <stdio.h>

struct seen {
	char text[16][512];
	size_t n;
};

static void seen_one(const struct mount_entry *m, void *arg)
{
	struct seen *s = arg;

	if (s->n < 16)
		snprintf(s->text[s->n++], sizeof(s->text[0]), "%u:%u|%s|%s|%s|%s|%s|%s",
			 m->major, m->minor, m->root, m->mount_point,
			 m->read_only ? "ro" : "rw", m->type, m->source, m->super);
}

static const struct {
	const char *line;
	const char *want;	/* NULL: skipped */
} lines[] = {
	{ "26 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard",
	  "254:0|/|/|rw|ext4|/dev/vda|rw,discard" },
	/* proc(5)'s example, an optional field */
	{ "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue",
	  "98:0|/mnt1|/mnt2|rw|ext3|/dev/root|rw,errors=continue" },
	/* several optional fields, a read-only mount on a rw super block */
	{ "40 30 0:37 / /sys/fs/cgroup/memory ro,nosuid shared:5 master:2 - cgroup cgroup rw,memory",
	  "0:37|/|/sys/fs/cgroup/memory|ro|cgroup|cgroup|rw,memory" },
	/* none of the optional fields */
	{ "87 69 0:20 / /proc rw,nosuid - proc proc rw", "0:20|/|/proc|rw|proc|proc|rw" },
	/* escapes in root, mount point and source */
	{ "50 26 254:0 /srv/a\\040b /mnt/c\\011d rw - ext4 /dev/disk\\040x rw",
	  "254:0|/srv/a b|/mnt/c\td|rw|ext4|/dev/disk x|rw" },
	/* "ro" only as a whole option */
	{ "51 26 0:40 / /x rw,roo,nro - tmpfs tmpfs rw", "0:40|/|/x|rw|tmpfs|tmpfs|rw" },
	/* an old kernel's line without super options */
	{ "52 26 0:41 / /y ro - tmpfs tmpfs", "0:41|/|/y|ro|tmpfs|tmpfs|" },
	/* lines that do not parse */
	{ "53 26 0:42 / /z rw tmpfs tmpfs rw", NULL },		/* no "-" */
	{ "54 26 x:1 / /z rw - tmpfs tmpfs rw", NULL },		/* no device */
	{ "55 26 0:43 relative /z rw - tmpfs tmpfs rw", NULL },
	{ "56 26 0:44 / relative rw - tmpfs tmpfs rw", NULL },
	{ "57 26 0:45 / /z rw -", NULL },
	{ "", NULL },
};

static void test_lines(void)
{
	size_t i;

	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		struct seen s = { .n = 0 };
		size_t n = sandbox_mountinfo_each(lines[i].line, strlen(lines[i].line), seen_one, &s);

		if (!lines[i].want) {
			CHECK_INT((int)n, 0, "row %zu skipped: %s", i, lines[i].line);
			continue;
		}
		CHECK_INT((int)n, 1, "row %zu parses", i);
		if (n == 1)
			CHECK_STR(s.text[0], lines[i].want, "row %zu", i);
	}
}

static void test_text(void)
{
	static const char text[] =
		"21 26 0:20 / /proc rw - proc proc rw\n"
		"bad line\n"
		"26 1 254:0 / / rw - ext4 /dev/vda rw\n"
		"27 26 254:0 /home /home rw - ext4 /dev/vda rw";	/* no final newline */
	struct seen s = { .n = 0 };

	CHECK_INT((int)sandbox_mountinfo_each(text, strlen(text), seen_one, &s), 3, "three of four");
	CHECK_STR(s.text[2], "254:0|/home|/home|rw|ext4|/dev/vda|rw", "the last line, unended");
	/* a length short of the text: only what it covers */
	s.n = 0;
	CHECK_INT((int)sandbox_mountinfo_each(text, 20, seen_one, &s), 0, "cut short");
}

static const struct {
	const char *root, *mp, *type, *source;
	const char *repo;
	enum host_mount want;
} hosts[] = {
	/* the sandbox's own / is fs.root's */
	{ "/", "/", "ext4", "/dev/vda", NULL, HOST_MOUNT_NONE },
	{ "/srv/chroot", "/", "ext4", "/dev/vda", NULL, HOST_MOUNT_NONE },
	/* -v /:/host, -v /home:/home, a file, a btrfs subvolume, zfs */
	{ "/", "/host", "ext4", "/dev/vda", NULL, HOST_MOUNT_PATH },
	{ "/home", "/home", "xfs", "/dev/sda2", NULL, HOST_MOUNT_PATH },
	{ "/etc/shadow", "/mnt/shadow", "ext4", "/dev/vda", NULL, HOST_MOUNT_PATH },
	{ "/@home", "/home", "btrfs", "/dev/mapper/root", NULL, HOST_MOUNT_PATH },
	{ "/", "/data", "zfs", "tank/data", NULL, HOST_MOUNT_PATH },
	/* the runtime's own files */
	{ "/var/lib/docker/containers/abc/hosts", "/etc/hosts", "ext4", "/dev/vda", NULL,
	  HOST_MOUNT_NONE },
	{ "/var/lib/docker/containers/abc/resolv.conf", "/etc/resolv.conf", "ext4",
	  "/dev/vda", NULL, HOST_MOUNT_NONE },
	{ "/var/lib/docker/containers/abc/hostname", "/etc/hostname", "ext4", "/dev/vda",
	  NULL, HOST_MOUNT_NONE },
	{ "/var/lib/kubelet/pods/x/containers/y/z", "/dev/termination-log", "ext4",
	  "/dev/vda", NULL, HOST_MOUNT_NONE },
	{ "/var/lib/kubelet/pods/x/volumes/cfg", "/etc/config", "ext4", "/dev/vda", NULL,
	  HOST_MOUNT_NONE },
	/* the repository, a mount inside it, and one holding it */
	{ "/home/u/w", "/work", "ext4", "/dev/vda", "/work", HOST_MOUNT_NONE },
	{ "/home/u/cache", "/work/node_modules", "ext4", "/dev/vda", "/work/",
	  HOST_MOUNT_NONE },
	{ "/home/u", "/home/u", "ext4", "/dev/vda", "/home/u/w", HOST_MOUNT_PATH },
	{ "/home/u/w2", "/work2", "ext4", "/dev/vda", "/work", HOST_MOUNT_PATH },
	/* not a disk's */
	{ "/", "/tmp", "tmpfs", "tmpfs", NULL, HOST_MOUNT_NONE },
	{ "/", "/dev", "devtmpfs", "devtmpfs", NULL, HOST_MOUNT_NONE },
	{ "/docker.sock", "/var/run/docker.sock", "tmpfs", "tmpfs", NULL, HOST_MOUNT_NONE },
	{ "/", "/sys/fs/cgroup/cpu", "cgroup", "cgroup", NULL, HOST_MOUNT_NONE },
	{ "/", "/merged", "overlay", "overlay", NULL, HOST_MOUNT_NONE },
	/* proc: at /proc and below is the sandbox's; elsewhere a second one */
	{ "/", "/proc", "proc", "proc", NULL, HOST_MOUNT_NONE },
	{ "/sys", "/proc/sys", "proc", "proc", NULL, HOST_MOUNT_NONE },
	{ "/", "/host/proc", "proc", "proc", NULL, HOST_MOUNT_PROC },
	{ "/", "/procfs", "proc", "proc", NULL, HOST_MOUNT_PROC },
	/* sysfs: read-write is the host kernel's knobs */
	{ "/", "/sys", "sysfs", "sysfs", NULL, HOST_MOUNT_SYSFS },
};

static void test_hosts(void)
{
	size_t i;

	for (i = 0; i < sizeof(hosts) / sizeof(hosts[0]); i++) {
		struct mount_entry m = { 0, 0, hosts[i].root, hosts[i].mp, 0, hosts[i].type,
					 hosts[i].source, "" };

		CHECK_INT((int)sandbox_host_mount(&m, hosts[i].repo), (int)hosts[i].want,
			  "row %zu: %s at %s (%s)", i, hosts[i].root, hosts[i].mp, hosts[i].type);
		m.read_only = 1;	/* read-only: the same, but for sysfs */
		CHECK_INT((int)sandbox_host_mount(&m, hosts[i].repo),
			  hosts[i].want == HOST_MOUNT_SYSFS ? HOST_MOUNT_NONE : (int)hosts[i].want,
			  "row %zu read-only: %s at %s (%s)", i, hosts[i].root, hosts[i].mp,
			  hosts[i].type);
	}
}

static void test_under(void)
{
	CHECK(sandbox_path_under("/a/b", "/a"), "below");
	CHECK(sandbox_path_under("/a", "/a"), "itself");
	CHECK(sandbox_path_under("/a/b", "/a/"), "a trailing slash");
	CHECK(!sandbox_path_under("/ab", "/a"), "a longer name");
	CHECK(!sandbox_path_under("/a", "/a/b"), "above");
	CHECK(sandbox_path_under("/x", "/"), "everything under /");
}

static void ignore(const struct mount_entry *m, void *arg)
{
	size_t *n = arg;

	*n += strlen(m->root) + strlen(m->mount_point) + strlen(m->source) + strlen(m->super);
}

static void test_random(void)
{
	char buf[512];
	unsigned x = 7;
	int round;

	for (round = 0; round < 20000; round++) {
		size_t n = (size_t)(round % (int)sizeof(buf)), i, total = 0;

		for (i = 0; i < n; i++) {
			x = x * 1103515245u + 12345u;
			buf[i] = "0123456789: /-\\\n\trwoext4cgroup"[(x >> 16) % 30];
		}
		sandbox_mountinfo_each(buf, n, ignore, &total);
	}
	CHECK(1, "random bytes: no crash");
}

void test_main(void)
{
	test_lines();
	test_text();
	test_hosts();
	test_under();
	test_random();
}
