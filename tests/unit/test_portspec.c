/* test_portspec.c - compose port entries and local service URLs, a row a
 * case. */
#include "test.h"

#include "portspec.h"
#include "util.h"

static const struct spec_row {
	const char *in;
	int rc;
	unsigned hlo, hhi, clo, chi;
	const char *ip, *proto;
	int pick_one;
	const char *err;	/* expected message for rc -1 */
} spec_rows[] = {
	{ "5433:5432", 0, 5433, 5433, 5432, 5432, "", "tcp", 0, NULL },
	{ "127.0.0.1:8080:80", 0, 8080, 8080, 80, 80, "127.0.0.1", "tcp", 0, NULL },
	{ "8000-8002:8000-8002", 0, 8000, 8002, 8000, 8002, "", "tcp", 0, NULL },
	{ "3000", 0, 0, 0, 3000, 3000, "", "tcp", 0, NULL },
	{ "3000/tcp", 0, 0, 0, 3000, 3000, "", "tcp", 0, NULL },
	{ "3000-3005", 0, 0, 0, 3000, 3005, "", "tcp", 0, NULL },
	{ "53:53/udp", 0, 53, 53, 53, 53, "", "udp", 0, NULL },
	{ "9999:9999/sctp", 0, 9999, 9999, 9999, 9999, "", "sctp", 0, NULL },
	{ "[::1]:8080:80", 0, 8080, 8080, 80, 80, "::1", "tcp", 0, NULL },
	{ "::1:8080:80", 0, 8080, 8080, 80, 80, "::1", "tcp", 0, NULL },
	{ "[2001:db8::5]:443:8443/tcp", 0, 443, 443, 8443, 8443, "2001:db8::5",
	  "tcp", 0, NULL },
	{ "0.0.0.0:5000-5002:5000-5002/tcp", 0, 5000, 5002, 5000, 5002,
	  "0.0.0.0", "tcp", 0, NULL },
	{ "127.0.0.1::80", 0, 0, 0, 80, 80, "127.0.0.1", "tcp", 0, NULL },
	{ ":8080:80", 0, 8080, 8080, 80, 80, "", "tcp", 0, NULL },
	{ ":80", 0, 0, 0, 80, 80, "", "tcp", 0, NULL },
	{ "8000-8010:80", 0, 8000, 8010, 80, 80, "", "tcp", 1, NULL },
	{ "3000/", 0, 0, 0, 3000, 3000, "", "tcp", 0, NULL },
	{ "65535:1", 0, 65535, 65535, 1, 1, "", "tcp", 0, NULL },
	{ "08080:80", 0, 8080, 8080, 80, 80, "", "tcp", 0, NULL },
	/* invalid */
	{ "", -1, 0, 0, 0, 0, NULL, NULL, 0, "empty port entry" },
	{ "0", -1, 0, 0, 0, 0, NULL, NULL, 0, "port '0' is out of range 1-65535" },
	{ "70000:80", -1, 0, 0, 0, 0, NULL, NULL, 0,
	  "port '70000' is out of range 1-65535" },
	{ "8080:65536", -1, 0, 0, 0, 0, NULL, NULL, 0,
	  "port '65536' is out of range 1-65535" },
	{ "99999999999999999999:80", -1, 0, 0, 0, 0, NULL, NULL, 0,
	  "port '99999999999999999999' is out of range 1-65535" },
	{ "http", -1, 0, 0, 0, 0, NULL, NULL, 0,
	  "'http' is not a port number or range" },
	{ "abc:80", -1, 0, 0, 0, 0, NULL, NULL, 0,
	  "'abc' is not a port number or range" },
	{ " 3000", -1, 0, 0, 0, 0, NULL, NULL, 0,
	  "' 3000' is not a port number or range" },
	{ "-1", -1, 0, 0, 0, 0, NULL, NULL, 0,
	  "'-1' is not a port number or range" },
	{ "3000-", -1, 0, 0, 0, 0, NULL, NULL, 0,
	  "'3000-' is not a port number or range" },
	{ "+80", -1, 0, 0, 0, 0, NULL, NULL, 0,
	  "'+80' is not a port number or range" },
	{ "8002-8000:80", -1, 0, 0, 0, 0, NULL, NULL, 0,
	  "port range '8002-8000' is reversed" },
	{ "3005-3000", -1, 0, 0, 0, 0, NULL, NULL, 0,
	  "port range '3005-3000' is reversed" },
	{ "8000-8002:80-81", -1, 0, 0, 0, 0, NULL, NULL, 0,
	  "host ports '8000-8002' and container ports '80-81' differ in number" },
	{ "8000:80-81", -1, 0, 0, 0, 0, NULL, NULL, 0,
	  "host ports '8000' and container ports '80-81' differ in number" },
	{ "3000:", -1, 0, 0, 0, 0, NULL, NULL, 0, "no container port in '3000:'" },
	{ "3000/http", -1, 0, 0, 0, 0, NULL, NULL, 0,
	  "unknown protocol 'http' (tcp, udp or sctp)" },
	{ "3000/TCP", -1, 0, 0, 0, 0, NULL, NULL, 0,
	  "unknown protocol 'TCP' (tcp, udp or sctp)" },
	{ "localhost:8080:80", -1, 0, 0, 0, 0, NULL, NULL, 0,
	  "'localhost' is not an IP address" },
	{ "300.1.1.1:8080:80", -1, 0, 0, 0, 0, NULL, NULL, 0,
	  "'300.1.1.1' is not an IP address" },
	{ "[::1:8080:80", -1, 0, 0, 0, 0, NULL, NULL, 0,
	  "'[::1' is not an IP address" },
	{ "\x1b[2J:80", -1, 0, 0, 0, 0, NULL, NULL, 0,
	  "'?[2J' is not a port number or range" },
};

static void test_parse(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(spec_rows); i++) {
		const struct spec_row *r = &spec_rows[i];
		struct portspec ps;
		char err[256] = "";
		int rc = portspec_parse(r->in, &ps, err, sizeof(err));

		CHECK_INT(rc, r->rc, "'%s': rc (%s)", r->in, err);
		if (rc != r->rc)
			continue;
		if (rc < 0) {
			CHECK_STR(err, r->err, "'%s': message", r->in);
			continue;
		}
		CHECK(ps.host_lo == r->hlo && ps.host_hi == r->hhi &&
		      ps.ctr_lo == r->clo && ps.ctr_hi == r->chi &&
		      ps.pick_one == r->pick_one,
		      "'%s': got host %u-%u container %u-%u pick %d", r->in,
		      ps.host_lo, ps.host_hi, ps.ctr_lo, ps.ctr_hi, ps.pick_one);
		CHECK_STR(ps.host_ip, r->ip, "'%s': ip", r->in);
		CHECK_STR(ps.proto, r->proto, "'%s': proto", r->in);
		CHECK_INT(ps.tcp, !strcmp(r->proto, "tcp"), "'%s': tcp", r->in);
	}
}

static void test_long_message(void)
{
	struct buf b = BUF_INIT;
	struct portspec ps;
	char err[256], small[16];
	int i;

	for (i = 0; i < 200; i++)
		buf_putc(&b, 'x');
	CHECK_INT(portspec_parse(b.s, &ps, err, sizeof(err)), -1, "long");
	CHECK(strlen(err) < 100 && strstr(err, "...'"), "quote capped: %s", err);
	CHECK_INT(portspec_parse(b.s, &ps, small, sizeof(small)), -1, "small");
	CHECK_INT(strlen(small), sizeof(small) - 1, "message cut to errlen");
	buf_release(&b);
}

static const struct range_row {
	const char *in;
	int rc;
	unsigned lo, hi;
} range_rows[] = {
	{ "8080", 0, 8080, 8080 },
	{ "8000-8002", 0, 8000, 8002 },
	{ "1", 0, 1, 1 },
	{ "0", -1, 0, 0 },
	{ "8002-8000", -1, 0, 0 },
	{ "", -1, 0, 0 },
	{ "80a", -1, 0, 0 },
};

static void test_range(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(range_rows); i++) {
		const struct range_row *r = &range_rows[i];
		unsigned lo = 0, hi = 0;
		int rc = portspec_range(r->in, &lo, &hi);

		CHECK_INT(rc, r->rc, "range '%s'", r->in);
		if (rc == 0 && r->rc == 0)
			CHECK(lo == r->lo && hi == r->hi, "range '%s': %u-%u",
			      r->in, lo, hi);
	}
}

static const struct url_row {
	const char *in;
	int local;
	unsigned port;
	const char *scheme;
} url_rows[] = {
	{ "postgres://u:p@localhost:5433/db", 1, 5433, "postgresql" },
	{ "postgresql://localhost/db", 1, 5432, "postgresql" },
	{ "postgresql+asyncpg://u:p@127.0.0.1/db", 1, 5432, "postgresql" },
	{ "jdbc:postgresql://localhost:5434/db", 1, 5434, "postgresql" },
	{ "redis://127.0.0.1:6379", 1, 6379, "redis" },
	{ "redis://localhost", 1, 6379, "redis" },
	{ "rediss://:secret@localhost:6380/0", 1, 6380, "redis" },
	{ "http://[::1]:8080/x", 1, 8080, "http" },
	{ "https://localhost", 1, 443, "https" },
	{ "http://LOCALHOST:3000?x=1", 1, 3000, "http" },
	{ "http://localhost.:3000#frag", 1, 3000, "http" },
	{ "mysql://localhost/db", 1, 3306, "mysql" },
	{ "mysql2://root@127.0.0.1/app", 1, 3306, "mysql" },
	{ "mariadb://localhost:3307/db", 1, 3307, "mariadb" },
	{ "mongodb://localhost:27017,localhost:27018/?replicaSet=rs", 1, 27017,
	  "mongodb" },
	{ "mongodb://u:p@localhost", 1, 27017, "mongodb" },
	{ "amqp://guest:guest@localhost", 1, 5672, "amqp" },
	{ "amqps://localhost", 1, 5671, "amqp" },
	{ "nats://127.0.0.1", 1, 4222, "nats" },
	{ "postgres://u:p@ss@localhost:5433/db", 1, 5433, "postgresql" },
	{ "postgres://127.1.2.3:5432/db", 1, 5432, "postgresql" },
	{ "postgres://0.0.0.0:5432/db", 1, 5432, "postgresql" },
	{ "postgres://[::]:5432/db", 1, 5432, "postgresql" },
	{ "postgres://[::ffff:127.0.0.1]:5432/db", 1, 5432, "postgresql" },
	{ "http://ip6-localhost:81", 1, 81, "http" },
	{ "foo://localhost:1234", 1, 1234, NULL },
	{ "http://localhost:/x", 1, 80, "http" },
	/* not local, not a URL, or no port known */
	{ "postgres://db.example.com:5432/db", 0, 0, NULL },
	{ "postgres://u:p@db:5432/db", 0, 0, NULL },
	{ "redis://10.0.0.5:6379", 0, 0, NULL },
	{ "http://[fe80::1]:80", 0, 0, NULL },
	{ "http://[::2]:80", 0, 0, NULL },
	{ "http://localhost.example.com", 0, 0, NULL },
	{ "http://localhostx", 0, 0, NULL },
	{ "foo://localhost", 0, 0, NULL },
	{ "mongodb+srv://u:p@localhost/db", 0, 0, NULL },
	{ "postgres:///db", 0, 0, NULL },
	{ "postgres://u@/db", 0, 0, NULL },
	/* this machine, but the explicit port is not valid: -1 */
	{ "http://localhost:99999", -1, 0, NULL },
	{ "http://localhost:0", -1, 0, NULL },
	{ "http://localhost:8o", -1, 0, NULL },
	/* a variable or a placeholder: the port is unknown, not invalid */
	{ "postgres://u:p@localhost:${DB_PORT}/db", 0, 0, NULL },
	{ "redis://localhost:$REDIS_PORT", 0, 0, NULL },
	{ "http://localhost:<port>/x", 0, 0, NULL },
	{ "http://127.0.0.1:{{port}}", 0, 0, NULL },
	{ "postgres://u:pa$$w{rd@localhost:5432/db", 1, 5432, "postgresql" },
	{ "http://[::1", 0, 0, NULL },
	{ "http://[::1]x:80", 0, 0, NULL },
	{ "http://::1:80", 0, 0, NULL },
	{ "localhost:5432", 0, 0, NULL },
	{ "just some text", 0, 0, NULL },
	{ "", 0, 0, NULL },
	{ "1http://localhost", 0, 0, NULL },
	{ "sqlite:///tmp/db.sqlite3", 0, 0, NULL },
	{ "http:/localhost:80", 0, 0, NULL },
};

static void test_urls(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(url_rows); i++) {
		const struct url_row *r = &url_rows[i];
		const char *scheme = "unset";
		unsigned port = 0;
		int rc = portspec_local_url(r->in, &port, &scheme);

		CHECK_INT(rc, r->local, "'%s': local", r->in);
		if (rc == 1 && r->local == 1) {
			CHECK_INT(port, r->port, "'%s': port", r->in);
			CHECK_STR(scheme, r->scheme, "'%s': scheme", r->in);
		}
		if (rc == 0)
			CHECK(scheme == NULL, "'%s': no scheme when 0", r->in);
	}
	/* the scheme out-parameter is optional */
	{
		unsigned port = 0;

		CHECK_INT(portspec_local_url("redis://localhost", &port, NULL), 1,
			  "NULL scheme_out");
	}
}

void test_main(void)
{
	test_parse();
	test_long_message();
	test_range();
	test_urls();
}
