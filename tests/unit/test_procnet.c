/* test_procnet.c - /proc/net/tcp parsing, the fixture /proc trees under
 * tests/fixtures/proc, and real listening sockets checked against ss.
 *
 * The fixture addresses are in the byte order of a little-endian host, as
 * the kernel prints them there (x86, most ARM).
 */
#include "test.h"
#include "saferead.h"

#include "procnet.h"
#include "util.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <linux/magic.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <unistd.h>

#define FIX "tests/fixtures/proc"

static const char H4[] = "  sl  local_address rem_address   st tx_queue "
	"rx_queue tr tm->when retrnsmt   uid  timeout inode\n";

static const struct parse_row {
	const char *what;
	int family;
	const char *line;
	int listen;		/* expected: a LISTEN entry came out */
	unsigned port;
	const char *addr;
	int mapped, any;
	unsigned uid;
	unsigned long inode;
} parse_rows[] = {
	{ "v4 any", AF_INET,
	  "   0: 00000000:1538 00000000:0000 0A 00000000:00000000 00:00000000 "
	  "00000000   105        0 1001 1 0000000000000000 100 0 0 10 0",
	  1, 5432, "0.0.0.0", 0, 1, 105, 1001 },
	{ "v4 loopback", AF_INET,
	  "   1: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 "
	  "00000000  1000        0 1002 1 0000000000000000 100 0 0 10 0",
	  1, 8080, "127.0.0.1", 0, 0, 1000, 1002 },
	{ "v4 lan address", AF_INET,
	  "   2: 0101A8C0:0BB8 00000000:0000 0A 00000000:00000000 00:00000000 "
	  "00000000     0        0 77 1 0000000000000000 100 0 0 10 0",
	  1, 3000, "192.168.1.1", 0, 0, 0, 77 },
	{ "v4 padded to 149 columns", AF_INET,
	  "   3: 0100007F:94C0 00000000:0000 0A 00000000:00000000 00:00000000 "
	  "00000000     0        0 88 1 0000000000000000 100 0 0 10 0        "
	  "                             ",
	  1, 38080, "127.0.0.1", 0, 0, 0, 88 },
	{ "v4 tabs and CRLF", AF_INET,
	  "\t4:\t0100007F:0050\t00000000:0000\t0A\t00000000:00000000\t"
	  "00:00000000\t00000000\t0\t0\t99\t1\r",
	  1, 80, "127.0.0.1", 0, 0, 0, 99 },
	{ "v4 lowercase hex", AF_INET,
	  "   5: 0101a8c0:1f90 00000000:0000 0a 00000000:00000000 00:00000000 "
	  "00000000     0        0 5 1",
	  1, 8080, "192.168.1.1", 0, 0, 0, 5 },
	{ "v4 big inode", AF_INET,
	  "   6: 00000000:0016 00000000:0000 0A 00000000:00000000 00:00000000 "
	  "00000000 65534        0 4294967296 1",
	  1, 22, "0.0.0.0", 0, 1, 65534, 4294967296UL },
	{ "v4 established", AF_INET,
	  "   7: 0100007F:1538 0100007F:A0D2 01 00000000:00000000 00:00000000 "
	  "00000000   105        0 5555 1 0000000000000000 20 4 30 10 -1",
	  0, 0, NULL, 0, 0, 0, 0 },
	{ "v4 time-wait, inode 0, short", AF_INET,
	  "   8: 0100007F:1B58 0100007F:C350 06 00000000:00000000 03:00001770 "
	  "00000000     0        0 0 3 0000000000000000",
	  0, 0, NULL, 0, 0, 0, 0 },
	{ "v4 syn-recv", AF_INET,
	  "   9: 0100007F:1B59 0100007F:C351 03 00000000:00000000 01:00000064 "
	  "00000000     0        0 0 2 0000000000000000",
	  0, 0, NULL, 0, 0, 0, 0 },
	{ "garbage", AF_INET, "garbage line", 0, 0, NULL, 0, 0, 0, 0 },
	{ "empty line", AF_INET, "", 0, 0, NULL, 0, 0, 0, 0 },
	{ "bad hex address", AF_INET,
	  "  10: ZZZZZZZZ:0050 00000000:0000 0A 00000000:00000000 00:00000000 "
	  "00000000     0        0 1005 1",
	  0, 0, NULL, 0, 0, 0, 0 },
	{ "7-digit address", AF_INET,
	  "  11: 0000000:0051 00000000:0000 0A 00000000:00000000 00:00000000 "
	  "00000000     0        0 1006 1",
	  0, 0, NULL, 0, 0, 0, 0 },
	{ "3-digit port", AF_INET,
	  "  12: 00000000:051 00000000:0000 0A 00000000:00000000 00:00000000 "
	  "00000000     0        0 1006 1",
	  0, 0, NULL, 0, 0, 0, 0 },
	{ "too few fields", AF_INET,
	  "  13: 00000000:0050 00000000:0000 0A 00000000:00000000 00:00000000 "
	  "00000000     0",
	  0, 0, NULL, 0, 0, 0, 0 },
	{ "sl without colon", AF_INET,
	  "  14 00000000:0050 00000000:0000 0A 00000000:00000000 00:00000000 "
	  "00000000     0        0 7 1",
	  0, 0, NULL, 0, 0, 0, 0 },
	{ "uid past 32 bits", AF_INET,
	  "  15: 00000000:0050 00000000:0000 0A 00000000:00000000 00:00000000 "
	  "00000000 4294967296        0 7 1",
	  0, 0, NULL, 0, 0, 0, 0 },
	{ "negative inode", AF_INET,
	  "  16: 00000000:0050 00000000:0000 0A 00000000:00000000 00:00000000 "
	  "00000000     0        0 -7 1",
	  0, 0, NULL, 0, 0, 0, 0 },
	{ "3-digit state", AF_INET,
	  "  17: 00000000:0050 00000000:0000 0AA 00000000:00000000 00:00000000 "
	  "00000000     0        0 7 1",
	  0, 0, NULL, 0, 0, 0, 0 },
	{ "v4 line read as tcp6", AF_INET6,
	  "   0: 00000000:1538 00000000:0000 0A 00000000:00000000 00:00000000 "
	  "00000000   105        0 1001 1",
	  0, 0, NULL, 0, 0, 0, 0 },
	{ "v6 any (dual stack)", AF_INET6,
	  "   0: 00000000000000000000000000000000:0BB8 "
	  "00000000000000000000000000000000:0000 0A 00000000:00000000 "
	  "00:00000000 00000000  1000        0 2001 1 0000000000000000 100 0 0 10 0",
	  1, 3000, "::", 0, 1, 1000, 2001 },
	{ "v6 loopback", AF_INET6,
	  "   1: 00000000000000000000000001000000:1F90 "
	  "00000000000000000000000000000000:0000 0A 00000000:00000000 "
	  "00:00000000 00000000  1000        0 2002 1 0000000000000000 100 0 0 10 0",
	  1, 8080, "::1", 0, 0, 1000, 2002 },
	{ "v6 mapped loopback shown as IPv4", AF_INET6,
	  "   2: 0000000000000000FFFF00000100007F:2328 "
	  "00000000000000000000000000000000:0000 0A 00000000:00000000 "
	  "00:00000000 00000000   999        0 2003 1",
	  1, 9000, "127.0.0.1", 1, 0, 999, 2003 },
	{ "v6 mapped any", AF_INET6,
	  "   3: 0000000000000000FFFF000000000000:2329 "
	  "00000000000000000000000000000000:0000 0A 00000000:00000000 "
	  "00:00000000 00000000     0        0 2004 1",
	  1, 9001, "0.0.0.0", 1, 1, 0, 2004 },
	{ "v6 global", AF_INET6,
	  "   4: B80D0120000000000000000001000000:01BB "
	  "00000000000000000000000000000000:0000 0A 00000000:00000000 "
	  "00:00000000 00000000     0        0 2005 1",
	  1, 443, "2001:db8::1", 0, 0, 0, 2005 },
	{ "v6 established mapped", AF_INET6,
	  "   5: 0000000000000000FFFF00000100007F:0BB8 "
	  "0000000000000000FFFF00000200007F:AFC8 01 00000000:00000000 "
	  "00:00000000 00000000  1000        0 6001 1",
	  0, 0, NULL, 0, 0, 0, 0 },
	{ "v6 time-wait", AF_INET6,
	  "   6: 00000000000000000000000001000000:1B5A "
	  "00000000000000000000000001000000:C352 06 00000000:00000000 "
	  "03:00001770 00000000     0        0 0 3 0000000000000000",
	  0, 0, NULL, 0, 0, 0, 0 },
	{ "v6 31-digit address", AF_INET6,
	  "   7: 0000000000000000000000000100000:1F90 "
	  "00000000000000000000000000000000:0000 0A 00000000:00000000 "
	  "00:00000000 00000000     0        0 9 1",
	  0, 0, NULL, 0, 0, 0, 0 },
	{ "wrong family number", AF_UNIX,
	  "   0: 00000000:1538 00000000:0000 0A 00000000:00000000 00:00000000 "
	  "00000000   105        0 1001 1",
	  0, 0, NULL, 0, 0, 0, 0 },
};

/* Parse header + one line, from an exact-size copy with no terminator so
 * that a sanitizer sees any read past the end. */
static void test_parse_rows(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(parse_rows); i++) {
		const struct parse_row *r = &parse_rows[i];
		struct tcp_listener *v = NULL;
		size_t n = 0, cap = 0, hl = strlen(H4), ll = strlen(r->line);
		char *buf = xmalloc(hl + ll);

		memcpy(buf, H4, hl);
		memcpy(buf + hl, r->line, ll);
		procnet_parse(buf, hl + ll, r->family, &v, &n, &cap);
		CHECK_INT(n, r->listen, "%s: listeners", r->what);
		if (n == 1 && r->listen) {
			CHECK_INT(v[0].port, r->port, "%s: port", r->what);
			CHECK_STR(v[0].addr_text, r->addr, "%s: address", r->what);
			CHECK_INT(v[0].v4mapped, r->mapped, "%s: mapped", r->what);
			CHECK_INT(v[0].any, r->any, "%s: any", r->what);
			CHECK_INT(v[0].uid, r->uid, "%s: uid", r->what);
			CHECK_INT(v[0].inode, r->inode, "%s: inode", r->what);
			CHECK_INT(v[0].family, r->family, "%s: family", r->what);
		}
		free(v);
		free(buf);
	}
}

static void test_parse_whole(void)
{
	const char *line = parse_rows[0].line;
	struct tcp_listener *v = NULL;
	size_t n = 0, cap = 0;
	struct buf b = BUF_INIT;
	int i;

	/* the first line is skipped by position, whatever it holds */
	procnet_parse(line, strlen(line), AF_INET, &v, &n, &cap);
	CHECK_INT(n, 0, "a data line in the header position is skipped");
	procnet_parse("", 0, AF_INET, &v, &n, &cap);
	CHECK_INT(n, 0, "empty text");
	procnet_parse(H4, strlen(H4), AF_INET, &v, &n, &cap);
	CHECK_INT(n, 0, "header only");

	/* appends to what is there; many lines grow the vector */
	buf_puts(&b, H4);
	for (i = 0; i < 100; i++)
		buf_printf(&b, "%s\n", line);
	procnet_parse(b.s, b.len, AF_INET, &v, &n, &cap);
	procnet_parse(b.s, b.len, AF_INET, &v, &n, &cap);
	CHECK_INT(n, 200, "every line of two calls appended");
	CHECK(cap >= n, "cap %zu", cap);
	/* cut in the middle of a line: that line is garbage */
	n = 0;
	procnet_parse(b.s, strlen(H4) + strlen(line) / 2, AF_INET, &v, &n, &cap);
	CHECK_INT(n, 0, "a truncated line is dropped");
	free(v);
	buf_release(&b);
}

static void test_listeners_fixture(void)
{
	struct tcp_listener *v = NULL;
	size_t n = 0, cap = 0;
	int rc;

	rc = procnet_listeners(FIX "/basic", &v, &n, &cap);
	CHECK_INT(rc, 0, "basic tables read");
	/* 5 LISTEN lines in tcp (one listed twice), 3 in tcp6 */
	CHECK_INT(n, 8, "basic listeners");
	n = 0;
	rc = procnet_listeners(FIX "/no-tcp6", &v, &n, &cap);
	CHECK_INT(rc, 0, "a missing tcp6 is fine");
	CHECK_INT(n, 1, "no-tcp6 listeners");
	n = 0;
	rc = procnet_listeners(FIX "/selfnet", &v, &n, &cap);
	CHECK_INT(rc, 0, "hidden /proc/net falls back to self/net");
	CHECK(n == 1 && v[0].port == 4100, "selfnet listener");
	n = 0;
	errno = 0;
	rc = procnet_listeners(FIX "/does-not-exist", &v, &n, &cap);
	CHECK(rc == -1 && errno == ENOENT, "missing tables: rc %d errno %d", rc,
	      errno);
	free(v);
}

static const struct port_status *find_port(const struct port_status *st,
					   size_t n, unsigned port)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (st[i].port == port)
			return &st[i];
	return NULL;
}

static int class_for_uid(unsigned uid)
{
	return uid == (unsigned)geteuid() ? HOLDER_SAME_USER : HOLDER_OTHER_USER;
}

static void expect_user(const struct port_holder *h)
{
	struct passwd *pw = getpwuid(h->uid);
	char num[32];

	snprintf(num, sizeof(num), "%u", h->uid);
	CHECK_STR(h->user, pw ? pw->pw_name : num, "pid %d user", h->pid);
}

static void test_lookup_fixture(void)
{
	static const unsigned ports[] = { 5432, 8080, 3000, 6379, 9000, 9001,
					  7000, 41234, 1 };
	struct port_status st[ARRAY_SIZE(ports)];
	const struct port_status *s;
	const struct port_holder *h;
	struct stat dir;
	size_t i;
	int rc;

	rc = ports_lookup_at(FIX "/basic", ports, ARRAY_SIZE(ports),
			     "/srv/repo", st);
	CHECK_INT(rc, 0, "fixture lookup");
	for (i = 0; i < ARRAY_SIZE(ports); i++)
		CHECK_INT(st[i].port, ports[i], "out[%zu] in order", i);

	s = find_port(st, ARRAY_SIZE(ports), 5432);
	CHECK(s->busy && s->nl == 1, "5432: one listener (listed twice)");
	CHECK_STR(s->listeners[0].addr_text, "0.0.0.0", "5432 address");
	CHECK_INT(s->nh, 2, "5432: master and forked worker");
	CHECK_INT(s->hidden, 0, "5432 fully seen");
	if (s->nh == 2) {
		h = &s->holders[0];
		CHECK_INT(h->pid, 100, "sorted by pid");
		CHECK_STR(h->command, "postgres", "comm");
		CHECK_STR(h->cmdline, "/usr/lib/postgresql/16/bin/postgres -D "
			  "/var/lib/postgresql/16/main", "cmdline");
		CHECK_INT(h->uid, 4245, "uid from status");
		CHECK_INT(h->klass, class_for_uid(4245), "class");
		CHECK_STR(h->cwd, "/var/lib/postgresql/16/main", "cwd");
		expect_user(h);
		h = &s->holders[1];
		CHECK_INT(h->pid, 101, "worker");
		stat(FIX "/basic/101", &dir);
		CHECK_INT(h->uid, dir.st_uid, "no status: the dir owner");
		CHECK_STR(h->cmdline, "postgres: walwriter", "trailing space cut");
	}

	s = find_port(st, ARRAY_SIZE(ports), 8080);
	CHECK(s->busy && s->nl == 2, "8080: IPv4 and IPv6 loopback");
	if (s->nl == 2) {
		CHECK_STR(s->listeners[0].addr_text, "127.0.0.1", "IPv4 first");
		CHECK_STR(s->listeners[1].addr_text, "::1", "then IPv6");
	}
	CHECK_INT(s->nh, 1, "one process holds both");
	if (s->nh == 1) {
		h = &s->holders[0];
		CHECK_INT(h->pid, 200, "pid");
		CHECK_INT(h->klass, HOLDER_THIS_REPO, "cwd inside the repo");
		CHECK_INT(h->listener, 0, "listener index");
		CHECK(strlen(h->cmdline) <= 120, "cmdline capped: %zu",
		      strlen(h->cmdline));
		CHECK(strlen(h->cmdline) > 100 &&
		      !strcmp(h->cmdline + strlen(h->cmdline) - 3, "..."),
		      "cut marked: %s", h->cmdline);
		CHECK(!strncmp(h->cmdline, "node /srv/repo/web/node_modules/.bin/"
			       "next dev --port 8080 --exp", 62),
		      "NULs as spaces: %s", h->cmdline);
	}

	s = find_port(st, ARRAY_SIZE(ports), 3000);
	CHECK(s->busy && s->nl == 1 && s->listeners[0].family == AF_INET6 &&
	      s->listeners[0].any, "3000: a dual-stack :: listener");
	CHECK_INT(s->nh, 1, "3000 holder");
	if (s->nh == 1) {
		h = &s->holders[0];
		CHECK_STR(h->command, "vite?[31m", "escape cleaned");
		CHECK_STR(h->cmdline, "node vite --host ?]0;title? --password *** "
			  "--api-key=*** --url=postgres://app:***@db/x",
			  "cmdline cleaned, secrets hidden");
		CHECK_STR(h->cwd, "/home/dev/other (deleted)", "cwd as read");
		CHECK_INT(h->klass, class_for_uid(4246), "class");
	}

	s = find_port(st, ARRAY_SIZE(ports), 6379);
	CHECK(s->busy && s->nh == 1, "6379 holder");
	if (s->nh == 1) {
		CHECK_STR(s->holders[0].command, "docker-proxy", "comm");
		CHECK_INT(s->holders[0].klass, HOLDER_CONTAINER, "container");
		CHECK_INT(s->holders[0].uid, 0, "uid");
		expect_user(&s->holders[0]);
	}

	s = find_port(st, ARRAY_SIZE(ports), 9000);
	CHECK(s->busy && s->nl == 1, "9000 busy");
	CHECK(s->nl == 1 && s->listeners[0].v4mapped &&
	      s->listeners[0].family == AF_INET6 &&
	      !strcmp(s->listeners[0].addr_text, "127.0.0.1"),
	      "mapped shown as IPv4");
	CHECK_INT(s->nh, 0, "9000: holder not visible");
	CHECK_INT(s->hidden, 1, "9000 hidden");
	CHECK_INT(s->hidden_uid, 4247, "9000 uid from the table");
	CHECK_INT(s->hidden_denied, 1, "an fd dir could not be read");

	s = find_port(st, ARRAY_SIZE(ports), 9001);
	CHECK(s->busy && s->nh == 0 && s->hidden && s->hidden_uid == 33,
	      "9001 held by nobody visible");

	for (i = 6; i < ARRAY_SIZE(ports); i++) {
		s = &st[i];
		CHECK(!s->busy && !s->nl && !s->nh && !s->hidden,
		      "%u: free (TIME_WAIT, established or absent)", s->port);
	}
	for (i = 0; i < ARRAY_SIZE(ports); i++)
		port_status_release(&st[i]);

	/* without a repo the same process is just same-user or other-user */
	{
		static const unsigned p2[] = { 8080, 3000 };
		struct port_status s2[2];

		rc = ports_lookup_at(FIX "/basic", p2, 2, NULL, s2);
		CHECK(rc == 0 && s2[0].nh == 1 &&
		      s2[0].holders[0].klass == class_for_uid(4246),
		      "no repo: not this-repo");
		port_status_release(&s2[0]);
		port_status_release(&s2[1]);
		/* a cwd of a removed and recreated repo counts as inside */
		rc = ports_lookup_at(FIX "/basic", p2, 2, "/home/dev/other", s2);
		CHECK(rc == 0 && s2[1].nh == 1 &&
		      s2[1].holders[0].klass == HOLDER_THIS_REPO,
		      "'(deleted)' cwd inside the repo");
		port_status_release(&s2[0]);
		port_status_release(&s2[1]);
	}

	/* nothing unreadable there: hidden, but not for lack of permission */
	{
		static const unsigned p3[] = { 4000 };
		struct port_status s3;

		rc = ports_lookup_at(FIX "/no-tcp6", p3, 1, NULL, &s3);
		CHECK_INT(rc, 0, "no-tcp6 lookup");
		CHECK(s3.busy && s3.nh == 0 && s3.hidden &&
		      s3.hidden_uid == 1234 && !s3.hidden_denied,
		      "vanished pid skipped silently");
		port_status_release(&s3);
		errno = 0;
		rc = ports_lookup_at(FIX "/missing", p3, 1, NULL, &s3);
		CHECK(rc == -1 && errno == ENOENT && s3.port == 4000 && !s3.busy,
		      "unreadable tables: an error, out still released safely");
		port_status_release(&s3);
	}
	CHECK_STR(holder_class_name(HOLDER_CONTAINER), "container", "name");
	CHECK_STR(holder_class_name(HOLDER_THIS_REPO), "this-repo", "name");
}

/* ---- the order of the scan ---------------------------------------- */

#define NONE 0
static const struct rank_row {
	const char *what;
	unsigned suid[2];		/* the sockets' uids ... */
	unsigned long long scg[2];	/* ... and cgroups (0 unknown) */
	size_t ns;
	unsigned uid[6];		/* the process's uids (procnet_key) */
	size_t nuid;
	unsigned long long cg;
	int rank;
} rank_rows[] = {
	{ "nothing known of the process", { 1000 }, { NONE }, 1,
	  { 0 }, 0, NONE, 0 },
	{ "owner of /proc/PID", { 1000 }, { NONE }, 1, { 1000 }, 1, NONE, 1 },
	{ "not dumpable: /proc/PID nobody's, its stat root's", { 65534 },
	  { NONE }, 1, { 65534, 0 }, 2, NONE, 1 },
	{ "bound as root, then dropped: the stat is root's", { 0 }, { NONE },
	  1, { 33, 0 }, 2, NONE, 1 },
	{ "the filesystem uid alone", { 33 }, { NONE }, 1,
	  { 0, 0, 0, 0, 33 }, 5, NONE, 1 },
	{ "uids past nuid are not known", { 33 }, { NONE }, 1,
	  { 0, 33 }, 1, NONE, 0 },
	{ "another uid", { 1000 }, { NONE }, 1, { 1001, 1001 }, 2, NONE, 0 },
	{ "cgroup and uid", { 1000 }, { 77 }, 1, { 1000 }, 1, 77, 3 },
	{ "cgroup, not uid", { 0 }, { 77 }, 1,
	  { 1000, 1000, 1000, 1000, 1000 }, 5, 77, 2 },
	{ "another cgroup", { 1000 }, { 77 }, 1, { 1000 }, 1, 78, 1 },
	{ "the process's cgroup unknown", { 1000 }, { 77 }, 1,
	  { 1000 }, 1, NONE, 1 },
	{ "the socket's cgroup unknown: 0 is no match", { 1000 }, { NONE },
	  1, { 5 }, 1, NONE, 0 },
	{ "the best of two sockets: cgroup of one", { 0, 1000 }, { 77, 88 },
	  2, { 1000 }, 1, 77, 2 },
	{ "the best of two sockets: both of the other", { 0, 1000 },
	  { 77, 88 }, 2, { 1000 }, 1, 88, 3 },
	{ "no socket", { 0 }, { NONE }, 0, { 0 }, 1, 77, 0 },
};

static void test_rank_rows(void)
{
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(rank_rows); i++) {
		const struct rank_row *r = &rank_rows[i];
		struct tcp_listener socks[2];
		struct procnet_key k;

		memset(socks, 0, sizeof(socks));
		for (j = 0; j < r->ns; j++) {
			socks[j].uid = r->suid[j];
			socks[j].cgroup = r->scg[j];
		}
		memset(&k, 0, sizeof(k));
		k.pid = 42;
		memcpy(k.uid, r->uid, sizeof(r->uid));
		k.nuid = r->nuid;
		k.cgroup = r->cg;
		CHECK_INT(procnet_rank(&k, socks, r->ns), r->rank, "%s", r->what);
	}
}

static const struct order_row {
	const char *what;
	unsigned suid;
	unsigned long long scg;
	struct { int pid; unsigned uid; unsigned long long cg; } p[6];
	size_t np;
	int want[6];		/* pids in scan order */
} order_rows[] = {
	{ "no hint matches: pid order", 4400, NONE,
	  { { 30, 0, NONE }, { 10, 0, NONE }, { 20, 1000, NONE } }, 3,
	  { 10, 20, 30 } },
	{ "the socket's uid first, then pid order", 4400, NONE,
	  { { 30, 0, NONE }, { 700, 4400, NONE }, { 10, 0, NONE },
	    { 20, 4400, NONE } }, 4, { 20, 700, 10, 30 } },
	{ "cgroup and uid, cgroup, uid, neither", 4400, 9,
	  { { 10, 0, 5 }, { 20, 4400, NONE }, { 30, 4400, 9 },
	    { 40, 1000, 9 }, { 5, 0, NONE }, { 700, 4400, 9 } }, 6,
	  { 30, 700, 40, 20, 5, 10 } },
};

static void test_order_rows(void)
{
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(order_rows); i++) {
		const struct order_row *r = &order_rows[i];
		struct procnet_key v[6];
		struct tcp_listener sock;
		char got[128], want[128];
		size_t gl = 0, wl = 0;

		memset(&sock, 0, sizeof(sock));
		sock.uid = r->suid;
		sock.cgroup = r->scg;
		memset(v, 0, sizeof(v));
		for (j = 0; j < r->np; j++) {
			v[j].pid = r->p[j].pid;
			v[j].uid[0] = r->p[j].uid;
			v[j].nuid = 1;
			v[j].cgroup = r->p[j].cg;
		}
		procnet_order(v, r->np, &sock, 1);
		got[0] = want[0] = '\0';
		for (j = 0; j < r->np; j++) {
			gl += (size_t)snprintf(got + gl, sizeof(got) - gl, " %d",
					       v[j].pid);
			wl += (size_t)snprintf(want + wl, sizeof(want) - wl,
					       " %d", r->want[j]);
		}
		CHECK_STR(got, want, "%s", r->what);
	}
}

/* The pids of s's holders, " 20 21" (static buffer). */
static const char *holder_pids(const struct port_status *s)
{
	static char b[256];
	size_t i, n = 0;

	b[0] = '\0';
	for (i = 0; i < s->nh && n < sizeof(b) - 16; i++)
		n += (size_t)snprintf(b + n, sizeof(b) - n, " %d",
				      s->holders[i].pid);
	return b;
}

/* tests/fixtures/proc/handoff: the order of the scan, and what phase 2
 * reads of the holders' kin (see its README). */
static void test_handoff_fixture(void)
{
	static const unsigned p9100[] = { 9100 }, p9200[] = { 9200 },
			      p9300[] = { 9300 }, both[] = { 9200, 9300 };
	struct procnet_stats st;
	struct port_status s[2];

	CHECK_INT(ports_lookup_stats(FIX "/handoff", p9100, 1, NULL, s, &st),
		  0, "9100");
	CHECK_STR(holder_pids(&s[0]), " 1 300",
		  "systemd and the service it handed the socket at fd 3");
	CHECK_INT(st.phase1, 1, "9100: phase 1 stopped at pid 1");
	CHECK_INT(st.fd_dirs, 1, "9100: one fd directory read in full");
	port_status_release(&s[0]);

	CHECK_INT(ports_lookup_stats(FIX "/handoff", p9200, 1, NULL, s, &st),
		  0, "9200");
	CHECK_STR(holder_pids(&s[0]), " 20 21",
		  "the master and the worker that kept fd 7; not the one that "
		  "moved it, not the one that got it over a unix socket");
	CHECK_INT(st.pids, 27, "9200: pids");
	CHECK_INT(st.stat_reads, 27, "9200: every process read in phase 0");
	CHECK_INT(st.phase1, 1, "9200: the master is the first of uid 4300");
	CHECK_INT(st.fd_dirs, 1, "9200: no kin read in full");
	CHECK_INT(st.kin, 13, "9200: kin: 21, 22, 23-32 and the parent, 1");
	CHECK_INT(st.kin_links, 26, "9200: each kin read at fds 3 and 7");
	CHECK_INT(st.threads, 1, "a small tree: one thread");
	port_status_release(&s[0]);

	CHECK_INT(ports_lookup_stats(FIX "/handoff", p9300, 1, NULL, s, &st),
		  0, "9300");
	CHECK_STR(holder_pids(&s[0]), " 700", "9300 holder");
	CHECK_INT(st.phase1, 1, "9300: the only process of the socket's uid, "
		  "the highest pid, is read first");
	port_status_release(&s[0]);

	/* both: phase 1 runs on to 700 and reads 22 and 500 in full */
	CHECK_INT(ports_lookup_stats(FIX "/handoff", both, 2, NULL, s, &st), 0,
		  "9200 and 9300");
	CHECK_STR(holder_pids(&s[0]), " 20 21 22 500",
		  "what phase 1 reads in full, it finds");
	CHECK_STR(holder_pids(&s[1]), " 700", "9300 holder, with 9200");
	CHECK_INT(st.phase1, 15, "uid 4300 and 4400 first: 20-32, 500, 700");
	port_status_release(&s[0]);
	port_status_release(&s[1]);
}

/* A generated tree big enough for the scan to use threads: NPROC
 * processes of uid 1000 with 10 descriptors each, and
 *   socket 777001 (uid 1000) held by 1100 at fd 5, its forked child 1101
 *     (fd 5), and 1300 (unrelated, past phase 1's stop: not reported);
 *   socket 777002 (uid 6000, nobody's) held by the last pid only;
 *   socket 777003 (uid 6000) held by nobody visible. */
#define GEN_FIRST 1000
#define GEN_N 300
static int gen_tree(const char *dir)
{
	static const char tcp[] =
		"  sl  local_address rem_address   st tx_queue rx_queue tr "
		"tm->when retrnsmt   uid  timeout inode\n"
		"   0: 0100007F:9C41 00000000:0000 0A 00000000:00000000 "
		"00:00000000 00000000  1000        0 777001 1\n"
		"   1: 0100007F:9C42 00000000:0000 0A 00000000:00000000 "
		"00:00000000 00000000  6000        0 777002 1\n"
		"   2: 0100007F:9C43 00000000:0000 0A 00000000:00000000 "
		"00:00000000 00000000  6000        0 777003 1\n";
	char path[PATH_MAX + 64], text[256];
	int pid, fd;

	test_write_str(dir, "net/tcp", tcp);
	for (pid = GEN_FIRST; pid < GEN_FIRST + GEN_N; pid++) {
		int ppid = pid == 1101 ? 1100 : 1, pgrp = pid == 1101 ? 1100 : pid;

		snprintf(path, sizeof(path), "%d/status", pid);
		snprintf(text, sizeof(text), "Name:\tp\nPPid:\t%d\nUid:\t1000\t"
			 "1000\t1000\t1000\nNSpgid:\t%d\n", ppid, pgrp);
		test_write_str(dir, path, text);
		snprintf(path, sizeof(path), "%d/comm", pid);
		test_write_str(dir, path, "p\n");
		for (fd = 0; fd < 10; fd++) {
			unsigned long ino = 100000UL + (unsigned long)pid * 10 +
					    (unsigned long)fd;

			if (fd == 5 && (pid == 1100 || pid == 1101 ||
					pid == 1300))
				ino = 777001;
			if (fd == 9 && pid == GEN_FIRST + GEN_N - 1)
				ino = 777002;
			snprintf(path, sizeof(path), "%s/%d/fd", dir, pid);
			if (fd == 0 && mkdir(path, 0755) < 0)
				return -1;
			snprintf(path, sizeof(path), "%s/%d/fd/%d", dir, pid, fd);
			snprintf(text, sizeof(text), "socket:[%lu]", ino);
			if (symlink(text, path) < 0)
				return -1;
		}
	}
	return 0;
}

static void test_threads_generated(void)
{
	static const unsigned ports[] = { 40001, 40002, 40003 };
	const char *tmp = test_tmpdir("procnet-gen");
	char dir[PATH_MAX];
	int run, same = 1;

	snprintf(dir, sizeof(dir), "%s", tmp);
	if (gen_tree(dir) < 0) {
		CHECK(0, "generate the tree: %s", strerror(errno));
		return;
	}
	for (run = 0; run < 8; run++) {
		struct port_status s[3];
		struct procnet_stats st;
		char a[256], b[256];

		CHECK_INT(ports_lookup_stats(dir, ports, 1, NULL, s, &st), 0,
			  "lookup 1");
		snprintf(a, sizeof(a), "%s", holder_pids(&s[0]));
		if (run == 0) {
			CHECK_STR(a, " 1100 1101", "holder and forked child");
			CHECK(st.threads >= 2, "threads: %u", st.threads);
			CHECK_INT(st.pids, GEN_N, "pids");
			CHECK_INT(st.phase1, 101, "phase 1 up to 1100");
			CHECK_INT(st.fd_dirs, 101, "fd dirs read in full");
		}
		same &= !strcmp(a, " 1100 1101") && st.phase1 == 101 &&
			st.fd_dirs == 101;
		port_status_release(&s[0]);

		CHECK_INT(ports_lookup_stats(dir, ports + 1, 2, NULL, s, &st), 0,
			  "lookup 2");
		snprintf(a, sizeof(a), "%s", holder_pids(&s[0]));
		snprintf(b, sizeof(b), "%s", holder_pids(&s[1]));
		if (run == 0) {
			CHECK_STR(a, " 1299", "the last pid");
			CHECK(s[1].busy && !s[1].nh && s[1].hidden &&
			      s[1].hidden_uid == 6000, "nobody visible");
			CHECK_INT(st.phase1, GEN_N, "phase 1 read everything");
			CHECK_INT(st.fd_dirs, GEN_N, "every fd dir");
		}
		same &= !strcmp(a, " 1299") && !strcmp(b, "") &&
			st.phase1 == GEN_N && st.fd_dirs == GEN_N;
		port_status_release(&s[0]);
		port_status_release(&s[1]);
	}
	CHECK(same, "the same answer and counts on every run, whichever "
	      "thread is faster");
}

/* ---- processes ----------------------------------------------------- */

static void wait_child(pid_t pid, int *status)
{
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
}

/* ENVPREFLIGHT_PROC_ROOT is read once, so try it in a child. */
static void test_proc_root_env(void)
{
	char path[PATH_MAX];
	int status = -1;
	pid_t pid;

	if (!realpath(FIX "/basic", path)) {
		CHECK(0, "realpath of the fixture");
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		static const unsigned port = 6379;
		struct port_status s;
		int code = 0;

		setenv("ENVPREFLIGHT_PROC_ROOT", path, 1);
		if (strcmp(proc_root(), path))
			code |= 1;
		if (ports_lookup(&port, 1, NULL, &s) < 0 || s.nh != 1 ||
		    s.holders[0].pid != 400)
			code |= 2;
		port_status_release(&s);
		unsetenv("ENVPREFLIGHT_PROC_ROOT");
		if (strcmp(proc_root(), path))
			code |= 4;	/* read once */
		_exit(code);
	}
	wait_child(pid, &status);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "ENVPREFLIGHT_PROC_ROOT honoured and read once: status %d",
	      status);
}

/* A listening TCP socket on addr:0; its port in *port.  -1 when the family
 * is not available. */
static int listen_on(int family, const char *addr, int v6only, unsigned *port)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fd, one = 1;

	memset(&ss, 0, sizeof(ss));
	fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (family == AF_INET) {
		struct sockaddr_in *a = (struct sockaddr_in *)&ss;

		a->sin_family = AF_INET;
		inet_pton(AF_INET, addr, &a->sin_addr);
		len = sizeof(*a);
	} else {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;

		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, sizeof(v6only));
		a->sin6_family = AF_INET6;
		inet_pton(AF_INET6, addr, &a->sin6_addr);
		len = sizeof(*a);
	}
	if (bind(fd, (struct sockaddr *)&ss, len) < 0 || listen(fd, 8) < 0) {
		close(fd);
		return -1;
	}
	len = sizeof(ss);
	getsockname(fd, (struct sockaddr *)&ss, &len);
	*port = ntohs(family == AF_INET ? ((struct sockaddr_in *)&ss)->sin_port
			: ((struct sockaddr_in6 *)&ss)->sin6_port);
	return fd;
}

/* A port nothing can listen on while fd lives: bound on every address of
 * both families (IPv4 alone without IPv6), without SO_REUSEADDR, and not
 * listening: free for the lookup, and no other process (a run of the
 * suite beside this one) can take it.  The fd, or -1. */
static int reserve_port(unsigned *port)
{
	struct sockaddr_in6 a6;
	struct sockaddr_in a4;
	socklen_t len;
	int fd, zero = 0;

	memset(&a6, 0, sizeof(a6));
	a6.sin6_family = AF_INET6;
	a6.sin6_addr = in6addr_any;
	len = sizeof(a6);
	fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero)) == 0 &&
	    bind(fd, (struct sockaddr *)&a6, sizeof(a6)) == 0 &&
	    getsockname(fd, (struct sockaddr *)&a6, &len) == 0) {
		*port = ntohs(a6.sin6_port);
		return fd;
	}
	if (fd >= 0)
		close(fd);
	memset(&a4, 0, sizeof(a4));
	a4.sin_family = AF_INET;
	a4.sin_addr.s_addr = htonl(INADDR_ANY);
	len = sizeof(a4);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a4, sizeof(a4)) < 0 ||
	    getsockname(fd, (struct sockaddr *)&a4, &len) < 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	*port = ntohs(a4.sin_port);
	return fd;
}

/* Run ss -ltnp; its output as a new string, or NULL when ss cannot run. */
static char *ss_output(void)
{
	struct buf b = BUF_INIT;
	char chunk[4096];
	int p[2], status = -1;
	pid_t pid;
	ssize_t k;

	if (pipe(p) < 0)
		return NULL;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		char *argv[] = { "ss", "-ltnp", NULL };
		int devnull = open("/dev/null", O_RDWR);

		dup2(p[1], 1);
		if (devnull >= 0) {
			dup2(devnull, 0);
			dup2(devnull, 2);
		}
		close(p[0]);
		close(p[1]);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	while ((k = read(p[0], chunk, sizeof(chunk))) > 0 ||
	       (k < 0 && errno == EINTR))
		if (k > 0)
			buf_add(&b, chunk, (size_t)k);
	close(p[0]);
	wait_child(pid, &status);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		buf_release(&b);
		return NULL;
	}
	return buf_detach(&b);
}

static int int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

/* The 0-based field k of the line [s, s+n) split on blanks, in *f, *fl. */
static int field_at(const char *s, size_t n, int k, const char **f, size_t *fl)
{
	size_t i = 0;

	for (;;) {
		size_t st;

		while (i < n && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i == n)
			return 0;
		st = i;
		while (i < n && s[i] != ' ' && s[i] != '\t')
			i++;
		if (k-- == 0) {
			*f = s + st;
			*fl = i - st;
			return 1;
		}
	}
}

/* The sorted unique pids ss shows for the listeners on port. */
static size_t ss_pids(const char *out, unsigned port, int *pids, size_t max)
{
	const char *line = out;
	size_t n = 0, i, j;

	while (line && *line) {
		const char *eol = strchr(line, '\n');
		size_t ll = eol ? (size_t)(eol - line) : strlen(line), fl;
		const char *f;
		char num[16];

		/* State Recv-Q Send-Q Local:Port Peer:Port Process */
		if (field_at(line, ll, 3, &f, &fl)) {
			size_t c = fl;

			while (c && f[c - 1] != ':')
				c--;
			snprintf(num, sizeof(num), "%.*s", (int)(fl - c), f + c);
			if (c && strtoul(num, NULL, 10) == port) {
				char *l = xstrndup(line, ll);
				const char *q = l;

				while ((q = strstr(q, "pid=")) && n < max) {
					pids[n++] = (int)strtol(q + 4, NULL, 10);
					q += 4;
				}
				free(l);
			}
		}
		line = eol ? eol + 1 : NULL;
	}
	qsort(pids, n, sizeof(*pids), int_cmp);
	for (i = j = 0; i < n; i++)
		if (!j || pids[j - 1] != pids[i])
			pids[j++] = pids[i];
	return j;
}

static void compare_with_ss(const char *ss, const struct port_status *s)
{
	int want[64];
	size_t n, i;

	n = ss_pids(ss, s->port, want, ARRAY_SIZE(want));
	CHECK_INT(s->nh, n, "port %u: holders as many as ss shows", s->port);
	for (i = 0; i < n && i < s->nh; i++)
		CHECK_INT(s->holders[i].pid, want[i], "port %u: pid %zu as ss",
			  s->port, i);
}

static const struct port_holder *holder_of(const struct port_status *s,
					   int pid)
{
	size_t i;

	for (i = 0; i < s->nh; i++)
		if (s->holders[i].pid == pid)
			return &s->holders[i];
	return NULL;
}

/* A child that keeps what it inherited until the hold pipe closes. */
static pid_t spawn_holder(int hold_rd, int hold_wr, const char *cwd,
			  int report_wr)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		char c;

		close(hold_wr);
		if (!cwd)
			close(report_wr);	/* EOF for the parent if b fails */
		if (cwd) {
			unsigned port = 0;
			int fd;

			if (chdir(cwd) < 0)
				_exit(1);
			fd = listen_on(AF_INET, "127.0.0.1", 0, &port);
			if (write(report_wr, &port, sizeof(port)) < 0 || fd < 0)
				_exit(1);
		}
		while (read(hold_rd, &c, 1) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	return pid;
}

/* Whether /proc is mounted with hidepid (other users' pids unlisted). */
static int hidepid(void)
{
	struct blob b;
	int found;

	if (saferead_path("/proc/self/mounts", 1 << 20, &b) < 0)
		return 0;
	found = strstr(b.data, "hidepid") != NULL;
	blob_release(&b);
	return found;
}

/* As nobody, the root-owned holders are not visible: the port reads as
 * hidden, with the uid from the table.  Reports "busy nh hidden uid
 * denied" or "skip" through a pipe. */
static void test_not_visible(unsigned port, const int *fds, size_t nfds)
{
	char out[128] = "";
	int p[2], status = -1;
	pid_t pid;
	ssize_t k;

	if (geteuid() != 0) {
		SKIP("the real permission-denied path: not root (the "
		     "fixture covers it)");
		return;
	}
	if (pipe(p) < 0)
		return;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct port_status s;
		char line[128];
		size_t i;
		int n;

		close(p[0]);
		for (i = 0; i < nfds; i++)
			if (fds[i] >= 0)
				close(fds[i]);
		if (setgroups(0, NULL) < 0 || setgid(65534) < 0 ||
		    setuid(65534) < 0) {
			n = snprintf(line, sizeof(line), "skip");
		} else if (ports_lookup(&port, 1, NULL, &s) < 0) {
			n = snprintf(line, sizeof(line), "error %d", errno);
		} else {
			n = snprintf(line, sizeof(line), "%d %zu %d %u %d", s.busy,
				     s.nh, s.hidden, s.hidden_uid,
				     s.hidden_denied);
			port_status_release(&s);
		}
		if (write(p[1], line, (size_t)n) < 0)
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	k = read(p[0], out, sizeof(out) - 1);
	if (k > 0)
		out[k] = '\0';
	close(p[0]);
	wait_child(pid, &status);
	if (!strcmp(out, "skip")) {
		SKIP("the real permission-denied path: cannot become nobody here");
		return;
	}
	/* with hidepid=2 root's pids are not even listed: nothing denied */
	if (!strncmp(out, "1 0 1 0 ", 8) && hidepid())
		out[8] = '1';
	CHECK_STR(out, "1 0 1 0 1", "as nobody: busy, no holder, hidden, uid 0, "
		  "denied");
}

/* The sock_diag dump and the text tables agree on our listeners. */
static void compare_diag_files(const unsigned *ports, size_t np)
{
	struct tcp_listener *d = NULL, *f = NULL;
	size_t nd = 0, nf = 0, cd = 0, cf = 0, i, j, k;

	if (procnet_listeners_diag(&d, &nd, &cd) < 0) {
		SKIP("sock_diag against the tables: sock_diag not available (%s)",
		     strerror(errno));
		free(d);
		return;
	}
	CHECK_INT(procnet_listeners("/proc", &f, &nf, &cf), 0, "/proc tables");
	for (i = 0; i < np; i++) {
		size_t md = 0, mf = 0;

		for (j = 0; j < nd; j++) {
			if (d[j].port != ports[i])
				continue;
			md++;
			for (k = 0; k < nf; k++)
				if (f[k].inode == d[j].inode)
					break;
			CHECK(k < nf, "port %u inode %lu in the files too",
			      ports[i], d[j].inode);
			if (k == nf)
				continue;
			CHECK(f[k].family == d[j].family && f[k].port == d[j].port &&
			      f[k].uid == d[j].uid && f[k].any == d[j].any &&
			      !memcmp(f[k].addr, d[j].addr, 16) &&
			      !strcmp(f[k].addr_text, d[j].addr_text),
			      "port %u: same listener (%s / %s)", ports[i],
			      f[k].addr_text, d[j].addr_text);
		}
		for (k = 0; k < nf; k++)
			mf += f[k].port == ports[i];
		CHECK(md >= 1 && md == mf, "port %u: %zu by diag, %zu in files",
		      ports[i], md, mf);
	}
	free(d);
	free(f);
}

/* The inode of this process's cgroup v2 directory under the usual mount
 * points (unified, or hybrid's unified/), or 0. */
static unsigned long long own_cgroup(void)
{
	static const char *const mnts[] = { "/sys/fs/cgroup",
					    "/sys/fs/cgroup/unified" };
	char line[4096], path[PATH_MAX + 64];
	unsigned long long id = 0;
	FILE *f = fopen("/proc/self/cgroup", "r");
	size_t i;

	if (!f)
		return 0;
	while (!id && fgets(line, sizeof(line), f)) {
		struct statfs fs;
		struct stat st;

		if (strncmp(line, "0::/", 4))
			continue;
		line[strcspn(line, "\n")] = '\0';
		for (i = 0; i < ARRAY_SIZE(mnts) && !id; i++) {
			snprintf(path, sizeof(path), "%s%s", mnts[i], line + 3);
			if (statfs(path, &fs) == 0 &&
			    fs.f_type == CGROUP2_SUPER_MAGIC &&
			    stat(path, &st) == 0)
				id = (unsigned long long)st.st_ino;
		}
	}
	fclose(f);
	return id;
}

/* The cgroup the kernel gives for a socket this process made is its own
 * (INET_DIAG_CGROUP_ID, kernel 5.7 and later). */
static void check_own_cgroup(const struct port_status *s)
{
	unsigned long long own = own_cgroup();

	if (!s->nl || !s->listeners[0].cgroup || !own) {
		printf("note: no cgroup id from the kernel, or no cgroup v2 "
		       "here: the cgroup check skipped\n");
		return;
	}
	CHECK(s->listeners[0].cgroup == own, "socket cgroup %llu, ours %llu",
	      s->listeners[0].cgroup, own);
}

static void test_real_sockets(void)
{
	unsigned p4any = 0, p4lo = 0, p6any = 0, p6lo = 0, prepo = 0, pfree = 0;
	int fds[5], hold[2], rep[2], status;
	const char *tmp = test_tmpdir("procnet");
	char repo[PATH_MAX], sub[PATH_MAX + 16];
	unsigned ports[6];
	struct port_status st[6];
	const struct port_status *s;
	const struct port_holder *h;
	pid_t a, b;
	size_t np = 0, i;
	double t0, t1;
	char *ss;

	if (!realpath(tmp, repo)) {
		CHECK(0, "temp dir");
		return;
	}
	snprintf(sub, sizeof(sub), "%s/repo/sub", repo);
	test_write_str(sub, "keep", "");
	snprintf(sub, sizeof(sub), "%s/repo", repo);
	memcpy(repo, sub, strlen(sub) + 1);
	snprintf(sub, sizeof(sub), "%s/sub", repo);

	fds[0] = listen_on(AF_INET, "0.0.0.0", 0, &p4any);
	fds[1] = listen_on(AF_INET, "127.0.0.1", 0, &p4lo);
	fds[2] = listen_on(AF_INET6, "::", 0, &p6any);
	fds[3] = listen_on(AF_INET6, "::1", 1, &p6lo);
	fds[4] = reserve_port(&pfree);
	CHECK(fds[0] >= 0 && fds[1] >= 0, "IPv4 listeners");
	CHECK(fds[4] >= 0, "a port held free");
	if (fds[0] < 0 || fds[1] < 0)
		return;
	if (fds[2] < 0 || fds[3] < 0)
		SKIP("the IPv6 real-socket checks: no IPv6 here");
	if (pipe2(hold, O_CLOEXEC) < 0 || pipe2(rep, O_CLOEXEC) < 0) {
		CHECK(0, "pipe");
		return;
	}
	a = spawn_holder(hold[0], hold[1], NULL, rep[1]);
	b = spawn_holder(hold[0], hold[1], sub, rep[1]);
	close(hold[0]);
	close(rep[1]);
	if (read(rep[0], &prepo, sizeof(prepo)) != sizeof(prepo))
		prepo = 0;
	close(rep[0]);
	CHECK(prepo != 0, "the repo child listens");

	ports[np++] = p4any;
	ports[np++] = p4lo;
	ports[np++] = prepo;
	ports[np++] = pfree;
	if (fds[2] >= 0)
		ports[np++] = p6any;
	if (fds[3] >= 0)
		ports[np++] = p6lo;
	{
		unsigned busy[5];
		size_t nb = 0;

		for (i = 0; i < np; i++)
			if (ports[i] != pfree)
				busy[nb++] = ports[i];
		compare_diag_files(busy, nb);
	}
	t0 = clock_ms();
	CHECK_INT(ports_lookup(ports, np, repo, st), 0, "real lookup");
	t1 = clock_ms();
	printf("note: real lookup of %zu ports took %.2f ms\n", np, t1 - t0);

	s = &st[0];
	CHECK(s->busy && s->nl >= 1 && s->listeners[0].any &&
	      !strcmp(s->listeners[0].addr_text, "0.0.0.0"), "0.0.0.0 listener");
	CHECK(holder_of(s, getpid()) && holder_of(s, a) && holder_of(s, b),
	      "0.0.0.0: this process and both forked children hold it");
	check_own_cgroup(s);
	h = holder_of(s, getpid());
	if (h) {
		CHECK_INT(h->uid, getuid(), "own uid");
		CHECK_INT(h->klass, HOLDER_SAME_USER, "own class");
		CHECK(h->cwd != NULL, "own cwd readable");
	}
	s = &st[1];
	CHECK(s->busy && s->nl == 1 &&
	      !strcmp(s->listeners[0].addr_text, "127.0.0.1"), "127.0.0.1 listener");
	s = &st[2];
	CHECK(s->busy && s->nh == 1 && s->holders[0].pid == b,
	      "the repo child alone holds its socket");
	if (s->nh == 1) {
		CHECK_INT(s->holders[0].klass, HOLDER_THIS_REPO, "this-repo");
		CHECK_STR(s->holders[0].cwd, sub, "cwd");
	}
	s = &st[3];
	CHECK(!s->busy && !s->nh, "a closed port is free");
	for (i = 4; i < np; i++) {
		s = &st[i];
		CHECK(s->busy && s->nl >= 1 && s->listeners[0].family == AF_INET6,
		      "IPv6 listener on %u", s->port);
		CHECK(holder_of(s, getpid()) != NULL, "IPv6 holder");
		if (s->port == p6any)
			CHECK(s->listeners[0].any &&
			      !strcmp(s->listeners[0].addr_text, "::"), "::");
		else
			CHECK_STR(s->listeners[0].addr_text, "::1", "::1");
	}

	{
		/* the tables, then the holders on them (the ports probe's two
		 * steps): what the lookup found, the tables read once */
		struct port_status tb[8], *hd;

		CHECK_INT(ports_tables(ports, np, tb), 0, "the tables alone");
		for (i = 0; i < np; i++)
			CHECK(tb[i].busy == st[i].busy && tb[i].nl == st[i].nl && !tb[i].nh,
			      "tables of %u: as the lookup's, no holder yet", ports[i]);
		hd = ports_holders(tb, np, repo);
		for (i = 0; i < np; i++) {
			size_t k;

			CHECK(hd[i].busy == st[i].busy && hd[i].nh == st[i].nh,
			      "holders of %u: %zu, the lookup's %zu", ports[i], hd[i].nh, st[i].nh);
			for (k = 0; k < hd[i].nh && k < st[i].nh; k++)
				CHECK(hd[i].holders[k].pid == st[i].holders[k].pid &&
				      hd[i].holders[k].klass == st[i].holders[k].klass,
				      "holder %zu of %u", k, ports[i]);
			port_status_release(&hd[i]);
			port_status_release(&tb[i]);
		}
		free(hd);
	}
	ss = ss_output();
	if (!ss) {
		SKIP("the comparison with ss: ss (iproute2) not available");
	} else {
		for (i = 0; i < np; i++)
			if (st[i].busy)
				compare_with_ss(ss, &st[i]);
		free(ss);
	}
	for (i = 0; i < np; i++)
		port_status_release(&st[i]);

	test_not_visible(p4any, fds, ARRAY_SIZE(fds));

	close(hold[1]);		/* the children read EOF and exit */
	wait_child(a, &status);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child a");
	wait_child(b, &status);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child b");
	for (i = 0; i < ARRAY_SIZE(fds); i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

/* The start time of a holder (stat field 22), what a harness checks
 * with the boot id before it signals a pid: rows from real stat lines and
 * hostile ones. */
static void test_starttime(void)
{
	static const struct {
		const char *stat;
		int rc;
		unsigned long long want;
	} rows[] = {
		{ "100 (postgres) S 1 100 100 0 -1 4194560 1000 0 0 0 10 5 0 0 20 0 "
		  "1 0 12345 1000000 500 18446744073709551615", 0, 12345 },
		{ "7 (a b) c) R 1 7 7 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 99 0 0\n", 0, 99 },
		{ "7 (x) R 1 7 7 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 18446744073709551615 0",
		  0, 18446744073709551615ULL },
		{ "7 (x) R 1 7 7 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 18446744073709551616 0",
		  -1, 0 },
		{ "7 (x) R 1 7 7 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0", -1, 0 },
		{ "7 (x) R 1 7 7 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 12x 0", -1, 0 },
		{ "no parenthesis", -1, 0 },
		{ "", -1, 0 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		unsigned long long got = 0;
		int rc = procnet_stat_starttime(rows[i].stat, &got);

		CHECK_INT(rc, rows[i].rc, "starttime row %zu", i);
		if (rc == 0)
			CHECK(got == rows[i].want, "starttime row %zu: %llu", i, got);
	}
	{
		/* our own start time, as the kernel says it, and a boot id */
		char buf[1024];
		FILE *f = fopen("/proc/self/stat", "r");
		unsigned long long st;

		if (f && fgets(buf, sizeof(buf), f))
			CHECK(procnet_stat_starttime(buf, &st) == 0 && st > 0,
			      "own start time");
		if (f)
			fclose(f);
		CHECK(proc_boot_id() && strlen(proc_boot_id()) == 36, "boot id");
	}
}

/* hidepid= of the proc mount at a mount point, from mountinfo text. */
static void test_hidepid(void)
{
	static const struct {
		const char *text, *mnt;
		int want;
	} rows[] = {
		{ "23 22 0:21 / /proc rw,nosuid - proc proc rw\n", "/proc", 0 },
		{ "23 22 0:21 / /proc rw - proc proc rw,hidepid=2\n", "/proc", 2 },
		{ "23 22 0:21 / /proc rw - proc proc rw,hidepid=invisible,gid=27\n",
		  "/proc", 2 },
		{ "23 22 0:21 / /proc rw - proc proc rw,hidepid=noaccess\n", "/proc", 1 },
		{ "23 22 0:21 / /proc rw - proc proc rw,hidepid=ptraceable\n", "/proc", 4 },
		{ "23 22 0:21 / /proc rw - proc proc rw,hidepid=off\n", "/proc", 0 },
		/* optional fields before the separator */
		{ "23 22 0:21 / /proc rw shared:12 master:3 - proc proc rw,hidepid=2\n",
		  "/proc", 2 },
		/* the last mount at a point is the one in effect */
		{ "23 22 0:21 / /proc rw - proc proc rw,hidepid=2\n"
		  "61 22 0:48 / /proc rw - proc proc rw\n", "/proc", 0 },
		{ "23 22 0:21 / /proc rw - proc proc rw\n"
		  "61 22 0:48 / /proc rw - proc proc rw,hidepid=2\n", "/proc", 2 },
		/* another mount point first, /proc as the fallback */
		{ "23 22 0:21 / /proc rw - proc proc rw\n"
		  "24 22 0:22 / /host/proc rw - proc proc rw,hidepid=2\n",
		  "/host/proc", 2 },
		{ "23 22 0:21 / /proc rw - proc proc rw,hidepid=2\n", "/elsewhere", 2 },
		/* an escaped space in the mount point */
		{ "24 22 0:22 / /a\\040b rw - proc proc rw,hidepid=2\n", "/a b", 2 },
		/* not proc, no /proc, junk */
		{ "23 22 0:21 / /proc rw - tmpfs tmpfs rw,hidepid=2\n", "/proc", -1 },
		{ "", "/proc", -1 },
		{ "garbage\n- - -\n", "/proc", -1 },
		{ "23 22 0:21 / /proc rw - proc", "/proc", -1 },
		/* not an option of its own */
		{ "23 22 0:21 / /proc rw - proc proc rw,nohidepid=2\n", "/proc", 0 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++)
		CHECK_INT(procnet_hidepid(rows[i].text, strlen(rows[i].text),
					  rows[i].mnt), rows[i].want, "row %zu", i);
}

/* Why a holder is out of sight, from fixture trees. */
static void test_proc_view(void)
{
	static const struct {
		const char *tree;
		unsigned port;
		int view;
	} rows[] = {
		{ "hidepid", 4200, PROC_VIEW_HIDEPID },
		{ "unmounted", 4201, PROC_VIEW_UNMOUNTED },
		{ "no-tcp6", 4000, PROC_VIEW_ALL },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct port_status s;
		char root[256];

		snprintf(root, sizeof(root), FIX "/%s", rows[i].tree);
		CHECK_INT(ports_lookup_at(root, &rows[i].port, 1, NULL, &s), 0,
			  "%s", rows[i].tree);
		CHECK(s.busy && s.hidden && !s.hidden_denied, "%s: hidden",
		      rows[i].tree);
		CHECK_INT(s.hidden_view, rows[i].view, "%s: view", rows[i].tree);
		port_status_release(&s);
	}
}

void test_main(void)
{
	unsetenv("ENVPREFLIGHT_PROC_ROOT");
	test_proc_root_env();	/* first: proc_root() is read once */
	test_parse_rows();
	test_parse_whole();
	test_starttime();
	test_listeners_fixture();
	test_lookup_fixture();
	test_rank_rows();
	test_order_rows();
	test_handoff_fixture();
	test_threads_generated();
	test_real_sockets();
	test_hidepid();
	test_proc_view();
}
