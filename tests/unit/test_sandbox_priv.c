/* test_sandbox_priv.c - the privilege checks' pure parsers
 * (sandbox_privtext.c, and the capability lines of sandbox.c's status
 * parser): one table a parser, hostile rows included, random bytes
 * through each. */
#include "test.h"
#include "sandbox.h"
#include "sandbox_privtext.h"
#include "util.h"

#include <stdint.h>

/* ---- /proc/self/status: the capability sets ---- */

static void test_capsets(void)
{
	static const char ids[] = "Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\n";
	static const struct {
		const char *lines;
		int rc;
		const char *bad;
		unsigned have;
		unsigned long long inh, prm, bnd, amb;
	} rows[] = {
		{ "CapInh:\t0000000000000000\nCapPrm:\t000001ffffffffff\nCapEff:\t000001ffffffffff\n"
		  "CapBnd:\t000001ffffffffff\nCapAmb:\t0000000000000000\n", 0, NULL, 15,
		  0, 0x1ffffffffffULL, 0x1ffffffffffULL, 0 },
		/* bwrap --cap-add ALL: every set full */
		{ "CapInh:\t000001ffffffffff\nCapPrm:\t000001ffffffffff\nCapBnd:\t000001ffffffffff\n"
		  "CapAmb:\t000001ffffffffff\n", 0, NULL, 15, 0x1ffffffffffULL,
		  0x1ffffffffffULL, 0x1ffffffffffULL, 0x1ffffffffffULL },
		/* before Linux 4.3: no CapAmb line */
		{ "CapInh:\t0\nCapPrm:\t3\nCapBnd:\tffffffffffffffff\n", 0, NULL, 7,
		  0, 3, ~0ULL, 0 },
		{ "", 0, NULL, 0, 0, 0, 0, 0 },
		{ "CapPrm:\tzz\n", -1, "CapPrm", 0, 0, 0, 0, 0 },
		{ "CapBnd:\t00000000000000000\n", -1, "CapBnd", 0, 0, 0, 0, 0 },
		{ "CapAmb:\t1 2\n", -1, "CapAmb", 0, 0, 0, 0, 0 },
		{ "CapInh:\t\n", -1, "CapInh", 0, 0, 0, 0, 0 },
		{ "CapAmbient:\tzz\n", 0, NULL, 0, 0, 0, 0, 0 },	/* another name */
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		char text[512];
		struct proc_identity id;
		const char *bad;
		int rc;

		snprintf(text, sizeof(text), "%s%s", ids, rows[i].lines);
		rc = sandbox_status_parse(text, strlen(text), &id, &bad);
		CHECK_INT(rc, rows[i].rc, "capsets row %zu", i);
		if (rc == 0) {
			CHECK_INT(id.have_caps, rows[i].have, "row %zu have", i);
			CHECK(id.caps[CAPSET_INH] == rows[i].inh, "row %zu inh", i);
			CHECK(id.caps[CAPSET_PRM] == rows[i].prm, "row %zu prm", i);
			CHECK(id.caps[CAPSET_BND] == rows[i].bnd, "row %zu bnd", i);
			CHECK(id.caps[CAPSET_AMB] == rows[i].amb, "row %zu amb", i);
		} else {
			CHECK_STR(bad, rows[i].bad, "capsets row %zu names the line", i);
		}
		proc_identity_release(&id);
	}
}

/* ---- capabilities(7): what the sets give ---- */

static void test_reach(void)
{
	static const struct {
		struct sandbox_capsets c;
		unsigned long long now, exec, setuid;
	} rows[] = {
		/* nothing at all, no_new_privs */
		{ { 0, 0, 0, 0, 0, 1, 0, 0 }, 0, 0, 0 },
		/* a permitted one not yet effective: capset raises it */
		{ { 0, 4, 0, 0, 0, 1, 0, 0 }, 4, 4, 0 },
		/* ambient (setpriv --ambient-caps) */
		{ { 1, 1, 1, 0xff, 1, 0, 0, 0 }, 1, 1, 0xff },
		/* root with empty sets and no_new_privs off: any exec gives the
		 * bounding set back (capsh --drop without SECBIT_NOROOT) */
		{ { 0, 0, 0, 0xf0, 0, 0, 1, 0 }, 0, 0xf0, 0xf0 },
		/* the same with no_new_privs: nothing grows */
		{ { 0, 0, 0, 0xf0, 0, 1, 1, 0 }, 0, 0, 0 },
		/* the same with SECBIT_NOROOT: root is no longer special */
		{ { 0, 0, 0, 0xf0, 0, 0, 1, 1 }, 0, 0, 0xf0 },
		/* no_new_privs unknown (-1, before 4.10): counted as off */
		{ { 0, 0, 2, 0xf0, 0, -1, 1, 0 }, 0, 0xf2, 0xf2 },
		/* a non-root user, no_new_privs off: only a set-user-ID-root or
		 * file-capability program could give the bounding set */
		{ { 0, 0, 0, 0x1ff, 0, 0, 0, 0 }, 0, 0, 0x1ff },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		CHECK(sandbox_caps_now(&rows[i].c) == rows[i].now, "reach row %zu now", i);
		CHECK(sandbox_caps_exec(&rows[i].c) == rows[i].exec, "reach row %zu exec %llx",
		      i, sandbox_caps_exec(&rows[i].c));
		CHECK(sandbox_caps_setuid(&rows[i].c) == rows[i].setuid, "reach row %zu setuid", i);
	}
}

/* ---- mountinfo: the mount at / ---- */

static void test_mount_at(void)
{
	static const struct {
		const char *text, *point;
		int rc, found, mount_ro, super_ro, slave;
		const char *fstype;
	} rows[] = {
		/* bwrap --ro-bind / /: the mount read-only, its ext4 read-write */
		{ "67 44 254:0 / / ro,nosuid,nodev,relatime - ext4 /dev/vda rw,discard\n", "/",
		  0, 1, 1, 0, 0, "ext4" },
		{ "1 0 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
		  "2 1 0:5 / /proc rw - proc proc rw\n", "/", 0, 1, 0, 0, 0, "ext4" },
		/* a squashfs root: the file system itself read-only */
		{ "1 0 7:0 / / ro master:3 - squashfs /dev/loop0 ro\n", "/", 0, 1, 1, 1, 1,
		  "squashfs" },
		/* the last mount on the point is the one a lookup finds */
		{ "1 0 8:1 / / ro - ext4 /dev/sda1 ro\n3 1 0:9 / / rw - overlay overlay rw\n",
		  "/", 0, 1, 0, 0, 0, "overlay" },
		/* an escaped mount point */
		{ "5 1 0:9 / /a\\040b ro - tmpfs tmpfs rw\n", "/a b", 0, 1, 1, 0, 0, "tmpfs" },
		{ "5 1 0:9 / /a\\040b ro - tmpfs tmpfs rw\n", "/", 0, 0, 0, 0, 0, "" },
		/* options that only look like ro */
		{ "1 0 8:1 / / rw,rootcontext=ro - ext4 /dev/sda1 rw,errors=ro\n", "/", 0, 1, 0,
		  0, 0, "ext4" },
		/* no separator, too few fields: no line parses */
		{ "1 0 8:1 / / rw ext4 /dev/sda1 rw\n", "/", -1, 0, 0, 0, 0, "" },
		{ "1 0 8:1 / / rw - ext4\n", "/", -1, 0, 0, 0, 0, "" },
		{ "", "/", -1, 0, 0, 0, 0, "" },
		/* a file system type longer than the field: cut */
		{ "1 0 8:1 / / rw - fuse.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa x rw\n", "/", 0, 1,
		  0, 0, 0, "fuse.aaaaaaaaaaaaaaaaaaaaaaaaaa" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct sandbox_mount m;
		int rc = sandbox_mount_at(rows[i].text, strlen(rows[i].text), rows[i].point, &m);

		CHECK_INT(rc, rows[i].rc, "mount row %zu", i);
		if (rc < 0)
			continue;
		CHECK_INT(m.found, rows[i].found, "mount row %zu found", i);
		CHECK_INT(m.mount_ro, rows[i].mount_ro, "mount row %zu mount ro", i);
		CHECK_INT(m.super_ro, rows[i].super_ro, "mount row %zu super ro", i);
		CHECK_INT(m.slave, rows[i].slave, "mount row %zu slave", i);
		CHECK_STR(m.fstype, rows[i].fstype, "mount row %zu type", i);
	}
}

/* ---- uid_map, the other way ---- */

static void test_map_inside(void)
{
	static const struct {
		const char *text;
		unsigned long outside;
		int rc;
		unsigned long inside;
	} rows[] = {
		{ "         0          0          1\n", 0, 0, 0 },	/* bwrap --uid 0 by root */
		{ "         0      65534          1\n", 0, 1, 0 },	/* unshare -r by nobody */
		{ "0 1000 1\n1 100000 65536\n", 100005, 0, 6 },	/* rootless podman */
		{ "0 1000 1\n1 100000 65536\n", 0, 1, 0 },
		{ "1000 0 1\n", 0, 0, 1000 },	/* root outside is uid 1000 inside */
		{ "0 0 4294967295\n", 0, 0, 0 },	/* the initial namespace */
		{ "0 4294967295 4294967295\n", 4294967295UL, 0, 0 },
		{ "0 0 x\n", 0, -1, 0 },
		{ "0 0\n", 0, -1, 0 },
		{ "0 0 99999999999\n", 0, -1, 0 },
		{ "", 0, -1, 0 },
		{ "0 0 1", 0, 0, 0 },	/* no newline at the end */
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		unsigned long in = 12345;
		int rc = sandbox_id_map_inside(rows[i].text, strlen(rows[i].text),
					       rows[i].outside, &in);

		CHECK_INT(rc, rows[i].rc, "map row %zu", i);
		if (rc == 0)
			CHECK(in == rows[i].inside, "map row %zu inside %lu", i, in);
	}
}

static void test_host_id0(void)
{
	static const struct {
		struct sandbox_id0 e;
		int rc;
		unsigned long inside;
	} rows[] = {
		{ { 0, 65534, 0, -1 }, 1, 0 },		/* bwrap --uid 0 by root */
		{ { 1000, 65534, 1, -1 }, 1, 1000 },	/* shown: mapped there */
		{ { 65534, 65534, 0, -1 }, 0, 0 },	/* unshare -r by nobody */
		/* bwrap by nobody: "65534 0 1", the parent's 0 is not the host's */
		{ { 65534, 65534, 1, 0 }, 0, 65534 },
		{ { 65534, 65534, 1, 1 }, 1, 65534 },	/* the kernel says it is */
		{ { 65534, 65534, 1, -1 }, -1, 65534 },	/* not asked: cannot tell */
		{ { 65534, 65534, -1, 1 }, -1, 65534 },	/* the map unread */
		{ { 4242, 4242, 1, -1 }, -1, 4242 },	/* another overflow id */
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		unsigned long in = 12345;
		int rc = sandbox_host_id0(&rows[i].e, &in);

		CHECK_INT(rc, rows[i].rc, "host id0 row %zu", i);
		if (rc != 0)
			CHECK(in == rows[i].inside, "host id0 row %zu inside %lu", i, in);
	}
	/* CAP_NET_RAW (13), CAP_NET_ADMIN (12), CAP_NET_BIND_SERVICE (10),
	 * CAP_NET_BROADCAST (11); CAP_CHOWN (0), CAP_SYS_ADMIN (21) */
	CHECK(sandbox_caps_inert(1ULL << 13 | 1ULL << 21, 0) == 1ULL << 13, "net raw inert");
	CHECK(sandbox_caps_inert(0xffffffffffULL, 0) == 0x3c00ULL, "all four inert");
	CHECK(sandbox_caps_inert(1ULL << 13, 1) == 0, "our netns: acts");
	CHECK(sandbox_caps_inert(1ULL << 13, -1) == 0, "unknown: counted");
	CHECK(sandbox_caps_inert(1ULL, 0) == 0, "chown is not a network one");
}

/* ---- random bytes through each ---- */

static void test_random(void)
{
	uint32_t seed = 0x5eed1234;
	char buf[512];
	size_t round, i;

	for (round = 0; round < 2000; round++) {
		struct sandbox_mount m;
		struct proc_identity id;
		const char *bad;
		unsigned long in;
		size_t n = round % sizeof(buf);

		for (i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			buf[i] = "0123456789abcdef /-\n\t:CapPrmBndAmb\\"[(seed >> 16) % 35];
		}
		(void)sandbox_mount_at(buf, n, "/", &m);
		(void)sandbox_id_map_inside(buf, n, 0, &in);
		(void)sandbox_status_parse(buf, n, &id, &bad);
		proc_identity_release(&id);
	}
	CHECK(1, "random bytes: no crash");
}

void test_main(void)
{
	test_capsets();
	test_reach();
	test_mount_at();
	test_map_inside();
	test_host_id0();
	test_random();
}
