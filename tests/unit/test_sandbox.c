/* test_sandbox.c - the sandbox probe's parsers (sandbox.c), one table a
 * parser, hostile rows included (huge lines, garbage numbers, text without
 * a newline); random bytes through every parser; and preflight.yaml's
 * sandbox: key, good and bad. */
#include "test.h"
#include "sandbox.h"
#include "spec.h"

#include <stdint.h>

/* ---- /proc/self/status ---- */

static const char status_ok[] =
	"Name:\tcat\nUmask:\t0022\nState:\tR (running)\n"
	"Uid:\t1000\t1000\t1000\t1000\nGid:\t1000\t1000\t1000\t1000\n"
	"Groups:\t4 27 999 \nCapInh:\t0000000000000000\nCapEff:\t00000000a80425fb\n"
	"NoNewPrivs:\t1\nSeccomp:\t2\nSeccomp_filters:\t1\n";

static void test_status(void)
{
	static const struct {
		const char *text;
		int rc;
		const char *bad;
		long euid;
		int nnp, seccomp;
		unsigned long long cap;
		size_t ngroups;
	} rows[] = {
		{ status_ok, 0, NULL, 1000, 1, 2, 0xa80425fbULL, 3 },
		{ "Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nGroups:\t\nCapEff:\t000001ffffffffff\n"
		  "NoNewPrivs:\t0\nSeccomp:\t0", 0, NULL, 0, 0, 0, 0x1ffffffffffULL, 0 },
		/* an old kernel: no NoNewPrivs, no Seccomp */
		{ "Uid:\t5\t6\t7\t8\nGid:\t1\t1\t1\t1\nCapEff:\t0\n", 0, NULL, 6, -1, -1, 0, 0 },
		{ "Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nCapEff:\tzzzz\n", -1, "CapEff", 0, 0, 0, 0, 0 },
		{ "Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nCapEff:\t00000000000000000\n", -1, "CapEff",
		  0, 0, 0, 0, 0 },
		{ "Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nCapEff:\t1 2\n", -1, "CapEff", 0, 0, 0, 0, 0 },
		{ "Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nCapEff:\t\n", -1, "CapEff", 0, 0, 0, 0, 0 },
		{ "Gid:\t0\t0\t0\t0\nCapEff:\t0\n", -1, "Uid", 0, 0, 0, 0, 0 },
		{ "Uid:\t0\t0\t0\nGid:\t0\t0\t0\t0\n", -1, "Uid", 0, 0, 0, 0, 0 },
		{ "Uid:\t0\t0\t0\t99999999999\nGid:\t0\t0\t0\t0\n", -1, "Uid", 0, 0, 0, 0, 0 },
		{ "Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nNoNewPrivs:\t2\n", -1, "NoNewPrivs",
		  0, 0, 0, 0, 0 },
		{ "Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nSeccomp:\t-1\n", -1, "Seccomp", 0, 0, 0, 0, 0 },
		{ "Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nGroups:\t1 x 2\n", -1, "Groups", 0, 0, 0, 0, 0 },
		{ "", -1, "Uid", 0, 0, 0, 0, 0 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct proc_identity id;
		const char *bad;
		int rc = sandbox_status_parse(rows[i].text, strlen(rows[i].text), &id, &bad);

		CHECK_INT(rc, rows[i].rc, "status row %zu", i);
		if (rc == 0) {
			CHECK_INT(id.uid[1], rows[i].euid, "row %zu euid", i);
			CHECK_INT(id.no_new_privs, rows[i].nnp, "row %zu nnp", i);
			CHECK_INT(id.seccomp, rows[i].seccomp, "row %zu seccomp", i);
			CHECK(id.cap_eff == rows[i].cap, "row %zu cap %llx", i, id.cap_eff);
			CHECK_INT(id.ngroups, rows[i].ngroups, "row %zu groups", i);
		} else {
			CHECK_STR(bad, rows[i].bad, "status row %zu names the bad line", i);
		}
		proc_identity_release(&id);
	}
	/* a 4 MiB line before the real ones, and no newline at the end */
	{
		size_t big = 4 << 20, n = strlen(status_ok);
		char *t = malloc(big + n + 1);
		struct proc_identity id;
		const char *bad;

		memset(t, 'A', big);
		t[big - 1] = '\n';
		memcpy(t + big, status_ok, n - 1);	/* drop the last newline */
		CHECK_INT(sandbox_status_parse(t, big + n - 1, &id, &bad), 0, "huge line");
		CHECK_INT(id.seccomp_filters, 1, "the last line without a newline");
		proc_identity_release(&id);
		free(t);
	}
}

static void test_caps(void)
{
	CHECK_INT(sandbox_cap_parse("net_raw"), 13, "lower case, no prefix");
	CHECK_INT(sandbox_cap_parse("CAP_SYS_ADMIN"), 21, "prefix");
	CHECK_INT(sandbox_cap_parse("cap_checkpoint_restore"), 40, "last");
	CHECK_INT(sandbox_cap_parse("CAP_"), -1, "empty");
	CHECK_INT(sandbox_cap_parse("bogus"), -1, "unknown");
	CHECK_STR(sandbox_cap_name(0), "CAP_CHOWN", "first");
	CHECK_STR(sandbox_cap_name(40), "CAP_CHECKPOINT_RESTORE", "last");
	CHECK(sandbox_cap_name(41) == NULL, "past the last");
	CHECK_INT(sandbox_secret_parse("npmrc"), SECRET_NPMRC, "secret name");
	CHECK_INT(sandbox_secret_parse("NPMRC"), -1, "secret names are lower case");
	CHECK_STR(sandbox_key_name(SANDBOX_NO_NEW_PRIVS), "no_new_privs", "key name");
	CHECK_STR(sandbox_key_alt(SANDBOX_REPOSITORY), "read-only", "third word");
}

/* ---- /proc/net ---- */

static void collect(const char *s, void *arg)
{
	struct buf *b = arg;

	buf_printf(b, "%s%s", b->len ? "," : "", s);
}

static void test_net(void)
{
	static const struct {
		int kind;	/* 0 dev, 4 route, 6 ipv6_route, 1 resolv.conf */
		const char *text;
		const char *want;
	} rows[] = {
		{ 0, "Inter-|   Receive\n face |bytes\n    lo: 1 2 3\n  eth0: 4 5\n", "lo,eth0" },
		{ 0, "    lo: 1\n  eth0: 2\n  wlan0: 3", "wlan0" },	/* headers by position */
		{ 0, "h\nh\nnocolon\n  a b: 1\nthisnameistoolong: 1\n: 1\n  ok:1", "ok" },
		{ 4, "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
		     "eth0\t00000000\t0100000A\t0003\t0\t0\t0\t00000000\t0\t0\t0\n"
		     "eth0\t0000000A\t00000000\t0001\t0\t0\t0\t000000FF\t0\t0\t0\n", "eth0" },
		{ 4, "Iface\tDestination\n"
		     "lo\t00000000\t00000000\t0201\t0\t0\t0\t00000000\t0\t0\t0\n"	/* reject */
		     "tun0\t00000000\t00000000\t0000\t0\t0\t0\t00000000\t0\t0\t0\n"	/* not up */
		     "eth1\t00000000\t00000000\t0001\n", "" },	/* short */
		{ 4, "Iface\nwg0\t00000000\t00000000\t0001\t0\t0\t0\t00000000\t0\t0\t0", "wg0" },
		{ 6, "00000000000000000000000000000000 00 00000000000000000000000000000000 00 "
		     "00000000000000000000000000000000 ffffffff 00000001 00000000 00200200 lo\n"
		     "fd000000000000000000000000000000 40 00000000000000000000000000000000 00 "
		     "00000000000000000000000000000000 00000100 00000001 00000000 00000001 eth0\n"
		     "00000000000000000000000000000000 00 00000000000000000000000000000000 00 "
		     "fd000000000000000000000000000002 00000400 00000001 00000000 00000003 eth0\n",
		  "eth0" },
		{ 6, "garbage\n0000 00 x\n", "" },
		{ 1, "# comment\n; another\nnameserver 10.0.0.1\n nameserver 10.0.0.2\n"
		     "nameservers 10.0.0.3\nnameserver\tfd00::1 extra\nnameserver\n"
		     "domain example.com\nnameserver 10.0.0.4", "10.0.0.1,fd00::1,10.0.0.4" },
		{ 1, "", "" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct buf b = BUF_INIT;
		const char *t = rows[i].text;

		if (rows[i].kind == 0)
			sandbox_netdev_names(t, strlen(t), collect, &b);
		else if (rows[i].kind == 1)
			sandbox_resolv_nameservers(t, strlen(t), collect, &b);
		else
			sandbox_default_routes(t, strlen(t), rows[i].kind, collect, &b);
		CHECK_STR(buf_str(&b), rows[i].want, "net row %zu", i);
		buf_release(&b);
	}
}

/* ---- processes ---- */

static void test_mountinfo(void)
{
	static const struct {
		const char *text;
		int rc, found;
		enum sandbox_hidepid hidepid;
		int subset;
	} rows[] = {
		{ "22 27 0:21 / /proc rw,relatime - proc proc rw\n", 0, 1, HIDEPID_OFF, 0 },
		{ "22 27 0:21 / /proc rw,relatime shared:13 - proc proc rw,hidepid=2\n",
		  0, 1, HIDEPID_INVISIBLE, 0 },
		{ "22 27 0:21 / /proc rw - proc proc rw,hidepid=invisible,subset=pid\n",
		  0, 1, HIDEPID_INVISIBLE, 1 },
		{ "22 27 0:21 / /proc rw - proc proc rw,hidepid=noaccess\n", 0, 1, HIDEPID_NOACCESS, 0 },
		{ "22 27 0:21 / /proc rw - proc proc rw,hidepid=ptraceable\n", 0, 1,
		  HIDEPID_PTRACEABLE, 0 },
		/* the later mount is on top */
		{ "22 27 0:21 / /proc rw - proc proc rw,hidepid=2\n"
		  "63 45 0:39 / /proc rw - proc proc rw\n", 0, 1, HIDEPID_OFF, 0 },
		{ "22 27 0:21 / /proc rw - proc proc rw\n"
		  "70 22 0:50 / /proc rw - tmpfs tmpfs rw\n", 0, 0, HIDEPID_OFF, 0 },
		/* another mount point, an escaped one, and garbage */
		{ "22 27 0:21 / /proc/sys rw - proc proc rw,hidepid=2\n"
		  "23 27 0:22 / /pr\\157c rw - proc proc rw,hidepid=1\n", 0, 1, HIDEPID_NOACCESS, 0 },
		{ "23 27 0:22 / /my\\040proc rw - proc proc rw,hidepid=1\n", 0, 0, HIDEPID_OFF, 0 },
		{ "garbage\n- - -\n1 2 3 4 5 6 7 8 9 10\n", -1, 0, HIDEPID_OFF, 0 },
		{ "", -1, 0, HIDEPID_OFF, 0 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct proc_mount m;
		int rc = sandbox_mountinfo_proc(rows[i].text, strlen(rows[i].text), "/proc", &m);

		CHECK_INT(rc, rows[i].rc, "mountinfo row %zu", i);
		CHECK_INT(m.found, rows[i].found, "mountinfo row %zu found", i);
		if (m.found) {
			CHECK_INT(m.hidepid, rows[i].hidepid, "mountinfo row %zu hidepid", i);
			CHECK_INT(m.subset_pid, rows[i].subset, "mountinfo row %zu subset", i);
		}
	}
	{
		struct proc_mount m;
		const char *t = "1 2 0:3 / /proc\\040x rw - proc p rw,hidepid=2";

		CHECK_INT(sandbox_mountinfo_proc(t, strlen(t), "/proc x", &m), 0, "escaped");
		CHECK_INT(m.found, 1, "\\040 is a space");
	}
}

static void test_ns_and_maps(void)
{
	static const struct {
		const char *link, *type;
		int rc;
		unsigned long ino;
	} ns[] = {
		{ "pid:[4026531836]", "pid", 0, SANDBOX_PID_INIT_INO },
		{ "user:[4026531837]", "user", 0, SANDBOX_USER_INIT_INO },
		{ "pid:[4026532179]", "pid", 0, 4026532179UL },
		{ "pid:[4026531836]", "user", -1, 0 },
		{ "pid:[]", "pid", -1, 0 },
		{ "pid:[12x]", "pid", -1, 0 },
		{ "pid:[1]x", "pid", -1, 0 },
		{ "pid:[99999999999]", "pid", -1, 0 },
		{ "", "pid", -1, 0 },
	};
	static const struct {
		const char *map;
		unsigned long id;
		int rc, whole;
		unsigned long outside;
	} maps[] = {
		{ "         0          0 4294967295\n", 0, 0, 1, 0 },
		{ "         0       1000          1\n", 0, 0, 0, 1000 },
		{ "0 100000 65536\n", 1000, 0, 0, 101000 },
		{ "0 100000 65536\n", 70000, -1, 0, 0 },
		{ "0 x 1\n", 0, -1, 0, 0 },
		{ "", 0, -1, 0, 0 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ns); i++) {
		unsigned long ino = 0;

		CHECK_INT(sandbox_ns_inode(ns[i].link, ns[i].type, &ino), ns[i].rc, "ns %zu", i);
		if (!ns[i].rc)
			CHECK(ino == ns[i].ino, "ns %zu inode %lu", i, ino);
	}
	for (i = 0; i < ARRAY_SIZE(maps); i++) {
		unsigned long out = 0;
		int whole = -1;

		CHECK_INT(sandbox_id_map(maps[i].map, strlen(maps[i].map), maps[i].id, &out,
					 &whole), maps[i].rc, "map %zu", i);
		if (!maps[i].rc) {
			CHECK_INT(whole, maps[i].whole, "map %zu whole", i);
			CHECK(out == maps[i].outside, "map %zu outside %lu", i, out);
		}
	}
}

/* ---- /etc ---- */

static void test_etc(void)
{
	static const char passwd[] =
		"root:x:0:0:root:/root:/bin/bash\nbroken line\n:x:5:5::/nowhere:\n"
		"dev:x:1000:1000:Dev,,,:/home/dev:/bin/sh\nshort:x:7";
	static const char group[] = "root:x:0:\nsudo:x:27:dev\nbad\ndocker:x:999:dev";
	char name[16], home[64];

	CHECK_INT(sandbox_passwd_find(passwd, strlen(passwd), 1000, name, sizeof(name),
				      home, sizeof(home)), 0, "passwd");
	CHECK_STR(name, "dev", "user name");
	CHECK_STR(home, "/home/dev", "home");
	CHECK_INT(sandbox_passwd_find(passwd, strlen(passwd), 5, name, sizeof(name), NULL, 0),
		  -1, "an empty name is no user");
	CHECK_INT(sandbox_passwd_find(passwd, strlen(passwd), 7, name, sizeof(name), NULL, 0),
		  -1, "a short line is no user");
	CHECK_INT(sandbox_group_name(group, strlen(group), 999, name, sizeof(name)), 0, "group");
	CHECK_STR(name, "docker", "group name (last line, no newline)");
	CHECK_INT(sandbox_group_name(group, strlen(group), 4, name, sizeof(name)), -1, "none");
	CHECK(sandbox_group_privileged(NULL, 0), "gid 0");
	CHECK(sandbox_group_privileged("docker", 999), "docker");
	CHECK(!sandbox_group_privileged("users", 100), "users");
	CHECK(!sandbox_group_privileged(NULL, 100), "an unnamed group");
}

/* ---- sudoers ---- */

static void hits(unsigned line, const char *what, void *arg)
{
	struct buf *b = arg;

	buf_printf(b, "%s%u:%s", b->len ? "," : "", line, what);
}

static void test_sudoers(void)
{
	static const char *const groups[] = { "dev", "docker", NULL };
	static const unsigned long gids[] = { 1000, 999, 4242 };
	static const struct sudo_who dev = { "dev", 1000, groups, gids, 3 };
	static const struct {
		const char *text;
		const char *want;
	} rows[] = {
		{ "root ALL=(ALL:ALL) ALL\n%sudo ALL=(ALL:ALL) ALL\n", "" },
		{ "dev ALL=(ALL) NOPASSWD: ALL\n", "1:NOPASSWD" },
		{ "dev ALL=(ALL) NOPASSWD:ALL\n", "1:NOPASSWD" },
		{ "dev ALL=(ALL) PASSWD: ALL\n", "" },
		{ "other ALL=(ALL) NOPASSWD: ALL\n", "" },
		{ "%docker ALL=(ALL) NOPASSWD: /usr/bin/docker\n", "1:NOPASSWD" },
		{ "%#4242 ALL = NOPASSWD: ALL\n", "1:NOPASSWD" },
		{ "#1000 ALL=(ALL) NOPASSWD: ALL\n", "1:NOPASSWD" },
		{ "#1001 ALL=(ALL) NOPASSWD: ALL\n", "" },
		{ "ALL ALL=(ALL) NOPASSWD: ALL\n", "1:NOPASSWD" },
		{ "ALL, !dev ALL=(ALL) NOPASSWD: ALL\n", "" },
		{ "!dev, ALL ALL=(ALL) NOPASSWD: ALL\n", "1:NOPASSWD" },
		{ "alice, dev ALL=NOPASSWD: /bin/ls\n", "1:NOPASSWD" },
		{ "alice ,dev ALL=NOPASSWD: /bin/ls\n", "1:NOPASSWD" },
		{ "# dev ALL=(ALL) NOPASSWD: ALL\n", "" },
		{ "dev ALL=(ALL) ALL # NOPASSWD: later\n", "" },
		{ "\n\ndev ALL=(ALL) \\\n    NOPASSWD: ALL\ndev ALL=NOPASSWD: ALL\n", "3:NOPASSWD,5:NOPASSWD" },
		{ "User_Alias ADMINS = alice, %docker\nADMINS ALL = NOPASSWD: ALL\n", "2:NOPASSWD" },
		{ "User_Alias ADMINS = alice : OPS = bob\nADMINS ALL = NOPASSWD: ALL\n"
		  "OPS ALL = NOPASSWD: ALL\n", "" },
		{ "User_Alias A = B\nUser_Alias B = A\nA ALL = NOPASSWD: ALL\n", "" },	/* a loop */
		/* a name defined twice: the first definition */
		{ "User_Alias A = bob\nUser_Alias A = dev\nA ALL = NOPASSWD: ALL\n", "" },
		{ "User_Alias A = dev\nUser_Alias A = bob\nA ALL = NOPASSWD: ALL\n", "3:NOPASSWD" },
		/* resolved once, then remembered: !A after A */
		{ "User_Alias A = dev\nA, !A ALL = NOPASSWD: ALL\n", "" },
		{ "User_Alias A = dev\nUser_Alias B = A, A\n!B, B ALL = NOPASSWD: ALL\n", "3:NOPASSWD" },
		{ "+netgroup ALL=NOPASSWD: ALL\n%:nonunix ALL=NOPASSWD: ALL\n", "" },
		{ "Defaults !authenticate\n", "1:!authenticate" },
		{ "Defaults env_reset, !authenticate\n", "1:!authenticate" },
		{ "Defaults:dev !authenticate\nDefaults:alice !authenticate\n", "1:!authenticate" },
		{ "Defaults authenticate\nDefaults !authenticated_x\n", "" },
		{ "Defaults>root !authenticate\n", "1:!authenticate" },
		{ "Cmnd_Alias NOPASSWD_X = /bin/ls\nHost_Alias H = dev\n", "" },
		{ "#includedir /etc/sudoers.d\n@includedir /etc/sudoers.d\n", "" },
		{ "\"dev\" ALL=NOPASSWD: ALL", "1:NOPASSWD" },
		{ "dev ALL=(ALL) XNOPASSWD: ALL\n", "" },
		{ "dev", "" },
		{ "=", "" },
		{ "\\", "" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct sudo_aliases a = { 0 };
		struct buf b = BUF_INIT;
		const char *t = rows[i].text;

		sandbox_sudoers_aliases(t, strlen(t), &a);
		sandbox_sudoers_scan(t, strlen(t), &dev, &a, hits, &b);
		CHECK_STR(buf_str(&b), rows[i].want, "sudoers row %zu: %s", i, t);
		buf_release(&b);
		sudo_aliases_release(&a);
	}
	/* an alias defined in one file and used in another */
	{
		struct sudo_aliases a = { 0 };
		struct buf b = BUF_INIT;
		const char *f1 = "User_Alias AGENTS = dev\n", *f2 = "AGENTS ALL=NOPASSWD: ALL\n";

		sandbox_sudoers_aliases(f1, strlen(f1), &a);
		sandbox_sudoers_aliases(f2, strlen(f2), &a);
		sandbox_sudoers_scan(f2, strlen(f2), &dev, &a, hits, &b);
		CHECK_STR(buf_str(&b), "1:NOPASSWD", "alias across files");
		buf_release(&b);
		sudo_aliases_release(&a);
	}
	/* scale (fuzz_sudoers' cost pass): 20,000 aliases, each line's
	 * growth once (it reallocated the whole list each time, quadratic),
	 * and seven levels of aliases each naming the next 2,000 times
	 * (2,000^7 resolutions before each alias was remembered); eight
	 * levels is as deep as aliases are followed */
	{
		struct sudo_aliases a = { 0 };
		struct buf b = BUF_INIT, t = BUF_INIT;
		int k, j;

		for (k = 0; k < 20000; k++)
			buf_printf(&t, "User_Alias U%d = u%d\n", k, k);
		for (k = 0; k < 7; k++) {
			buf_printf(&t, "User_Alias N%d = ", k);
			for (j = 0; j < 2000; j++)
				buf_printf(&t, j ? ", N%d" : "N%d", k + 1);
			buf_puts(&t, "\n");
		}
		buf_puts(&t, "User_Alias N7 = dev\nU19999, N0 ALL = NOPASSWD: ALL\n");
		sandbox_sudoers_aliases(buf_str(&t), t.len, &a);
		CHECK_INT((int)a.n, 20008, "every alias kept");
		sandbox_sudoers_scan(buf_str(&t), t.len, &dev, &a, hits, &b);
		CHECK_STR(buf_str(&b), "20009:NOPASSWD", "nested aliases, resolved once each");
		buf_release(&b);
		buf_release(&t);
		sudo_aliases_release(&a);
	}
	CHECK(sandbox_sudoers_d_name("agent"), "plain name");
	CHECK(!sandbox_sudoers_d_name("agent~"), "backup");
	CHECK(!sandbox_sudoers_d_name("agent.rpmsave"), "a dot");
	CHECK(!sandbox_sudoers_d_name("README.md"), "README");
}

/* ---- token lines ---- */

static void test_tokens(void)
{
	static const struct {
		int kind;	/* 'n' npmrc, 'r' netrc, 'd' docker, 'a' aws */
		const char *text;
		int want;
		const char *var;
	} rows[] = {
		{ 'n', "registry=https://registry.npmjs.org/\n", 0, "" },
		{ 'n', "//registry.npmjs.org/:_authToken=npm_abc\n", 1, "" },
		{ 'n', "  //r.example/:_authToken = \"x\"  \n", 1, "" },
		{ 'n', "_auth=dXNlcjpwYXNz", 1, "" },
		{ 'n', "//r/:_password=cGFzcw==\n", 1, "" },
		{ 'n', "//r/:_authToken=\n", 0, "" },
		{ 'n', "; //r/:_authToken=x\n# _auth=y\n", 0, "" },
		{ 'n', "//r/:_authToken=${NPM_TOKEN}\n", 2, "NPM_TOKEN" },
		{ 'n', "//r/:_authToken=${NPM_TOKEN?}\n", 2, "NPM_TOKEN" },
		{ 'n', "//r/:_authToken=${A}\n//s/:_authToken=lit\n", 1, "A" },
		{ 'n', "//r/:_authToken=x${A}\n", 1, "" },
		{ 'n', "//r/:_authToken=${A\n", 1, "" },
		/* names npm's envExpr does not take: the text stays literal */
		{ 'n', "//r/:_authToken=${}x\n", 1, "" },
		{ 'n', "//r/:_authToken=${A${B}\n", 1, "" },
		{ 'n', "//r/:_authToken=${A?B}\n", 1, "" },
		{ 'n', "//r/:_authToken=${A??}\n", 1, "" },
		{ 'n', "//r/:_authToken=${?}\n", 1, "" },
		{ 'n', "_authTokenx=1\nalways-auth=true\n", 0, "" },
		{ 'r', "machine example.com login me password secret\n", 1, "" },
		{ 'r', "machine example.com\n  login me\n  password s\n", 1, "" },
		{ 'r', "machine example.com login me\n", 0, "" },
		{ 'r', "machine x login password\n", 0, "" },
		{ 'd', "{\"auths\": {\"r\": {\"auth\": \"dXNlcg==\"}}}", 1, "" },
		{ 'd', "{\n\t\"auths\": {\n\t\t\"r\": {\n\t\t\t\"auth\":\n\"x\"}}}", 1, "" },
		{ 'd', "{\"auths\": {\"r\": {}}, \"credsStore\": \"desktop\"}", 0, "" },
		{ 'd', "{\"auths\": {\"r\": {\"auth\": \"\"}}}", 0, "" },
		{ 'd', "{\"auths\": {\"r\": {\"identitytoken\": \"t\"}}}", 1, "" },
		/* docker's AuthConfig username/password (docker login writes auth,
		 * a hand-written or tool-written file may hold these) */
		{ 'd', "{\"auths\": {\"r\": {\"username\": \"u\", \"password\": \"p\"}}}", 1, "" },
		{ 'd', "{\"auths\": {\"r\": {\"username\": \"u\"}}}", 0, "" },
		{ 'd', "{\"auths\": {\"r\": {\"password\": \"\"}}}", 0, "" },
		{ 'd', "{\"auths\": {}, \"credHelpers\": {\"gcr.io\": \"gcloud\"}}", 0, "" },
		{ 'd', "{\"auth\"", 0, "" },
		{ 'a', "[default]\naws_access_key_id = AKIA\naws_secret_access_key = x\n", 1, "" },
		{ 'a', "[p]\nAWS_SESSION_TOKEN=t", 1, "" },
		{ 'a', "[default]\naws_secret_access_key =\nregion = eu-west-1\n", 0, "" },
		{ 'a', "[sso]\nsso_start_url = https://x\n# aws_secret_access_key = x", 0, "" },
		{ 'a', "aws_secret_access_keys = x\n", 0, "" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		const char *t = rows[i].text;
		char var[32] = "unset";
		int got = rows[i].kind == 'n' ? sandbox_npmrc_token(t, strlen(t), var, sizeof(var)) :
			  rows[i].kind == 'r' ? sandbox_netrc_password(t, strlen(t)) :
			  rows[i].kind == 'a' ? sandbox_aws_secret(t, strlen(t)) :
			  sandbox_docker_auth(t, strlen(t));

		CHECK_INT(got, rows[i].want, "token row %zu: %s", i, t);
		if (rows[i].kind == 'n')
			CHECK_STR(var, rows[i].var, "token row %zu variable", i);
	}
	{
		/* a NUL in the name (fuzz_sandbox): no variable can have it,
		 * so npm leaves the text as written, a literal token; it was
		 * taken for a reference to a variable named "" */
		static const char t[] = "//r/:_authToken=${\0A}\n";
		char var[32] = "unset";

		CHECK_INT(sandbox_npmrc_token(t, sizeof(t) - 1, var, sizeof(var)), 1,
			  "a NUL in ${...}: a literal");
		CHECK_STR(var, "", "no variable named");
	}
}

/* ---- random bytes: no crash, no read past the length ---- */

static void ignore(const char *s, void *arg)
{
	(void)s;
	(void)arg;
}

static void ignore_hit(unsigned line, const char *what, void *arg)
{
	(void)line;
	(void)what;
	(void)arg;
}

static void test_random(void)
{
	static const char alphabet[] = "0123456789abcdefABCDEF:=-/\\\n\t #%!,${}\"'pUGNS_";
	static const char *const groups[] = { "g" };
	static const unsigned long gids[] = { 1 };
	struct sudo_who who = { "u", 1, groups, gids, 1 };
	uint32_t seed = 12345;
	int round;

	for (round = 0; round < 3000; round++) {
		size_t len = (size_t)(round % 200), i;
		char *t = malloc(len ? len : 1);	/* no terminator: asan sees overreads */
		struct proc_identity id;
		struct proc_mount m;
		struct sudo_aliases a = { 0 };
		const char *bad;
		unsigned long ul;
		int w;
		char v[8];

		for (i = 0; i < len; i++) {
			seed = seed * 1103515245u + 12345u;
			t[i] = alphabet[(seed >> 16) % (sizeof(alphabet) - 1)];
		}
		sandbox_status_parse(t, len, &id, &bad);
		proc_identity_release(&id);
		sandbox_netdev_names(t, len, ignore, NULL);
		sandbox_default_routes(t, len, 4, ignore, NULL);
		sandbox_default_routes(t, len, 6, ignore, NULL);
		sandbox_resolv_nameservers(t, len, ignore, NULL);
		sandbox_mountinfo_proc(t, len, "/proc", &m);
		sandbox_id_map(t, len, 0, &ul, &w);
		sandbox_passwd_find(t, len, 0, v, sizeof(v), v, sizeof(v));
		sandbox_group_name(t, len, 0, v, sizeof(v));
		sandbox_sudoers_aliases(t, len, &a);
		sandbox_sudoers_scan(t, len, &who, &a, ignore_hit, NULL);
		sudo_aliases_release(&a);
		sandbox_npmrc_token(t, len, v, sizeof(v));
		sandbox_netrc_password(t, len);
		sandbox_docker_auth(t, len);
		sandbox_aws_secret(t, len);
		free(t);
	}
	CHECK(1, "random bytes");
}

/* ---- preflight.yaml sandbox: ---- */

static void test_preflight(void)
{
	static const struct {
		const char *yaml;
		const char *err;	/* NULL: loads */
	} rows[] = {
		{ "version: 1\nsandbox:\n", NULL },
		{ "version: 1\nsandbox: {}\n", NULL },
		{ "version: 1\nsandbox:\n  network: none\n  root: any\n  repository: read-only\n"
		  "  processes: 12\n  capabilities: [NET_BIND_SERVICE, cap_chown]\n"
		  "  secrets: [npmrc]\n  no_new_privs: required\n", NULL },
		{ "version: 1\nsandbox:\n  netwrk: none\n", "unknown key 'netwrk' in 'sandbox'" },
		{ "version: 1\nsandbox:\n  network: host\n", "'sandbox.network' expects none or any" },
		{ "version: 1\nsandbox:\n  repository: rw\n",
		  "'sandbox.repository' expects writable, read-only or any" },
		{ "version: 1\nsandbox:\n  processes: 0\n", "expects a number from 1 to 1000000" },
		{ "version: 1\nsandbox:\n  capabilities: [CAP_FLY]\n",
		  "'CAP_FLY' is not a capability name" },
		{ "version: 1\nsandbox:\n  capabilities: all\n",
		  "expects none, any or a list of capability names" },
		{ "version: 1\nsandbox:\n  secrets: [ssh, keychain]\n", "'keychain' is not a secret name" },
		{ "version: 1\nsandbox:\n  no_new_privs: true\n", "expects required or any" },
		{ "version: 1\nsandbox: strict\n", "'sandbox' expects a mapping" },
		{ "version: 1\nsandbox:\n  network: none\n  network: any\n", "duplicate key 'network'" },
		{ "version: 1\nsandbox:\n  ptrace: restricted\n  lsm: any\n  landlock: required\n"
		  "  devices: none\n", NULL },
		{ "version: 1\nsandbox:\n  landlock: yes\n", "'sandbox.landlock' expects required or any" },
		{ "version: 1\nsandbox:\n  devices: all\n", "'sandbox.devices' expects none or any" },
		{ "version: 1\nsandbox:\n  lsm: enforcing\n", "'sandbox.lsm' expects confined or any" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		const char *dir = test_tmpdir("sandbox-yaml");
		struct spec spec;
		struct errbuf err;
		int rc;

		test_write_str(dir, "preflight.yaml", rows[i].yaml);
		rc = spec_load(dir, &spec, &err);
		if (!rows[i].err) {
			CHECK_INT(rc, 0, "yaml row %zu: %s", i, err.msg);
			if (rc == 0) {
				CHECK(spec.sandbox.used, "yaml row %zu: used", i);
				spec_release(&spec);
			}
		} else {
			CHECK_INT(rc, -1, "yaml row %zu fails", i);
			CHECK(strstr(err.msg, rows[i].err) != NULL, "yaml row %zu: %s", i, err.msg);
		}
	}
	/* the model of row 2 */
	{
		const char *dir = test_tmpdir("sandbox-model");
		struct spec spec;
		struct errbuf err;
		const struct sandbox_expect *w;

		test_write_str(dir, "preflight.yaml", rows[2].yaml);
		CHECK_INT(spec_load(dir, &spec, &err), 0, "%s", err.msg);
		w = spec.sandbox.want;
		CHECK_INT(w[SANDBOX_NETWORK].want, SANDBOX_WANT_DEFAULT, "network none");
		CHECK_INT(w[SANDBOX_NETWORK].origin.line, 3, "network's line");
		CHECK_INT(w[SANDBOX_ROOT].want, SANDBOX_WANT_ANY, "root any");
		CHECK_INT(w[SANDBOX_REPOSITORY].want, SANDBOX_WANT_READ_ONLY, "repository");
		CHECK_INT(w[SANDBOX_PROCESSES].want, SANDBOX_WANT_MAX, "processes");
		CHECK_INT(w[SANDBOX_PROCESSES].max, 12, "processes max");
		CHECK_INT(w[SANDBOX_CAPABILITIES].want, SANDBOX_WANT_LIST, "caps list");
		CHECK(w[SANDBOX_CAPABILITIES].caps == ((1ULL << 10) | 1ULL), "caps %llx",
		      w[SANDBOX_CAPABILITIES].caps);
		CHECK(w[SANDBOX_SECRETS].secrets == 1U << SECRET_NPMRC, "secrets");
		CHECK_INT(w[SANDBOX_HOME].want, SANDBOX_WANT_DEFAULT, "home by default");
		CHECK(w[SANDBOX_HOME].origin.file == NULL, "a default has no origin");
		CHECK_INT(spec.sandbox.origin.line, 2, "the sandbox: key's line");
		spec_release(&spec);
	}
	/* no sandbox: key, no opt-in */
	{
		const char *dir = test_tmpdir("sandbox-none");
		struct spec spec;
		struct errbuf err;

		test_write_str(dir, "preflight.yaml", "version: 1\ntools: [sh]\n");
		CHECK_INT(spec_load(dir, &spec, &err), 0, "%s", err.msg);
		CHECK(!spec.sandbox.used, "not asked for");
		spec_release(&spec);
	}
}

void test_main(void)
{
	test_status();
	test_caps();
	test_net();
	test_mountinfo();
	test_ns_and_maps();
	test_etc();
	test_sudoers();
	test_tokens();
	test_random();
	test_preflight();
}
