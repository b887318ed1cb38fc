/* test_redact.c - secrets out of shown command lines, by shape (one row a
 * shape, issue 8 finding 1.5) and by value (the .env's values).
 *
 * A row is an argv written with '|' between the arguments (no row needs
 * a literal '|').  Every secret in a row is "SECRET1" (or a token of a
 * known form); the expected line must not hold it.
 */
#include "test.h"
#include "redact.h"
#include "util.h"

static const struct {
	const char *argv;
	const char *want;
} rows[] = {
	/* options named like a secret: attached, or the next argument */
	{ "node|vite|--password|SECRET1", "node vite --password ***" },
	{ "node|--password=SECRET1|--port=3000", "node --password=*** --port=3000" },
	{ "app|--api-key=SECRET1", "app --api-key=***" },
	{ "app|--apikey|SECRET1", "app --apikey ***" },
	{ "app|--token|SECRET1|--verbose", "app --token *** --verbose" },
	{ "app|--token|--password|SECRET1|x", "app --token *** *** x" },
	{ "app|--auth-token=SECRET1", "app --auth-token=***" },
	{ "app|--client-secret|SECRET1", "app --client-secret ***" },
	{ "redis-server|--requirepass|SECRET1|--port|6380",
	  "redis-server --requirepass *** --port 6380" },
	{ "redis-server|--masterauth|SECRET1", "redis-server --masterauth ***" },
	{ "ngrok|http|80|--authtoken|SECRET1", "ngrok http 80 --authtoken ***" },
	{ "app|--credentials|SECRET1", "app --credentials ***" },
	{ "app|--passwd=SECRET1", "app --passwd=***" },
	{ "app|--pw|SECRET1", "app --pw ***" },
	{ "app|-passin|pass:SECRET1", "app -passin ***" },
	{ "app|--session-cookie=SECRET1", "app --session-cookie=***" },
	{ "app|--private-key|SECRET1", "app --private-key ***" },
	{ "java|-Djavax.net.ssl.keyStorePassword=SECRET1|-jar|x.jar",
	  "java -Djavax.net.ssl.keyStorePassword=*** -jar x.jar" },
	/* mysql style: the password glued to -p; a bare -p asks */
	{ "mysql|-uroot|-pSECRET1|db", "mysql -uroot -p*** db" },
	{ "/usr/bin/mysqldump|-pSECRET1|db", "/usr/bin/mysqldump -p*** db" },
	{ "mariadb|-h|db|-pSECRET1", "mariadb -h db -p***" },
	{ "mysql|-p|mydb", "mysql -p mydb" },
	{ "env|MYSQL_HOST=db|mysql|-pSECRET1", "env MYSQL_HOST=db mysql -p***" },
	{ "sshpass|-p|SECRET1|ssh|-L|5432:db:5432|host",
	  "sshpass -p *** ssh -L 5432:db:5432 host" },
	{ "sshpass|-pSECRET1|ssh|host", "sshpass -p*** ssh host" },
	{ "redis-cli|-a|SECRET1|-p|6379", "redis-cli -a *** -p 6379" },
	{ "mongosh|-u|admin|-p|SECRET1", "mongosh -u admin -p ***" },
	{ "curl|-u|user:SECRET1|http://x", "curl -u *** http://x" },
	{ "zip|-P|SECRET1|a.zip|f", "zip -P *** a.zip f" },
	{ "7z|x|-pSECRET1|a.7z", "7z x -p*** a.7z" },
	/* a -p that is not a client's password stays */
	{ "ssh|-p|2222|-L|8080:localhost:80|host", "ssh -p 2222 -L 8080:localhost:80 host" },
	{ "docker-proxy|-proto|tcp|-host-port|6379",
	  "docker-proxy -proto tcp -host-port 6379" },
	/* NAME=VALUE: env-style arguments, conninfo, URL queries */
	{ "env|PGPASSWORD=SECRET1|psql", "env PGPASSWORD=*** psql" },
	{ "env|AWS_SECRET_ACCESS_KEY=SECRET1|aws", "env AWS_SECRET_ACCESS_KEY=*** aws" },
	{ "env|GITHUB_TOKEN=SECRET1|PORT=3000|node",
	  "env GITHUB_TOKEN=*** PORT=3000 node" },
	{ "docker|run|-e|DB_PASSWORD=SECRET1|pg", "docker run -e DB_PASSWORD=*** pg" },
	{ "psql|host=db user=app password=SECRET1 dbname=x",
	  "psql host=db user=app password=*** dbname=x" },
	{ "app|--url=https://h/x?access_token=SECRET1&page=2",
	  "app --url=https://h/x?access_token=***&page=2" },
	{ "app|https://acct.blob/x?sv=2022&sig=SECRET1",
	  "app https://acct.blob/x?sv=2022&sig=***" },
	/* headers, one argument each */
	{ "curl|-H|Authorization: Bearer SECRET1|http://x",
	  "curl -H Authorization: *** http://x" },
	{ "curl|--header=authorization:Basic SECRET1",
	  "curl --header=authorization:***" },
	{ "curl|-H|X-Api-Key: SECRET1", "curl -H X-Api-Key: ***" },
	{ "curl|-H|Cookie: sid=SECRET1", "curl -H Cookie: ***" },
	{ "app|{\"password\": \"SECRET1\", \"user\": \"u\"}",
	  "app {\"password\": \"***\", \"user\": \"u\"}" },
	/* authorization schemes wherever they are */
	{ "app|--hdr|x Bearer SECRET1", "app --hdr x Bearer ***" },
	{ "app|Token SECRET1", "app Token ***" },
	/* URL userinfo: the password, or a token as the user */
	{ "app|--url=postgres://app:SECRET1@db/x", "app --url=postgres://app:***@db/x" },
	{ "app|redis://:SECRET1@localhost:6379/0", "app redis://:***@localhost:6379/0" },
	{ "git|clone|https://SECRET1@github.com/o/r", "git clone https://***@github.com/o/r" },
	{ "app|postgres://db:5432/x", "app postgres://db:5432/x" },
	{ "app|https://h/a@b", "app https://h/a@b" },
	/* tokens of a known form, whatever names them */
	{ "app|AKIAIOSFODNN7EXAMPLE", "app ***" },
	{ "app|--id|ASIAQWERTYUIOPASDFGH", "app --id ***" },
	{ "app|ghp_0123456789abcdefghijABCDEFGHIJ012345", "app ***" },
	{ "app|github_pat_11AAAAAAA0123456789_abcdefghijklmn", "app ***" },
	{ "app|glpat-abcdefghij0123456789", "app ***" },
	{ "app|xoxb-1234567890-abcdefghij", "app ***" },
	{ "app|sk_live_0123456789abcdef", "app ***" },
	{ "app|sk-proj-0123456789abcdefghijKLMNOP", "app ***" },
	{ "app|AIzaSyA0123456789abcdefghijklmnopqrstu", "app ***" },
	{ "app|npm_0123456789abcdefghijklmnopqrstuvwxyz", "app ***" },
	{ "app|eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc", "app ***" },
	{ "app|--data|x=-----BEGIN PRIVATE KEY-----MIIE", "app --data x=***" },
	{ "app|0aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV1wX", "app ***" },
	/* long words of one case, paths and ids stay */
	{ "containerd-shim|-id|3f4e5d6c7b8a99887766554433221100aabbccddeeff00112233445566778899",
	  "containerd-shim -id 3f4e5d6c7b8a99887766554433221100aabbccddeeff00112233445566778899" },
	{ "node|/srv/repo/web/node_modules/.bin/next|dev",
	  "node /srv/repo/web/node_modules/.bin/next dev" },
	{ "gunicorn|--bind|0.0.0.0:8000|app:app", "gunicorn --bind 0.0.0.0:8000 app:app" },
	{ "postgres: checkpointer", "postgres: checkpointer" },
	/* control characters are cleaned after the secrets are hidden */
	{ "node|--host|\033]0;t\007|--password|SECRET1", "node --host ?]0;t? --password ***" },
};

/* The row's argv as /proc/PID/cmdline holds it (a NUL after each). */
static size_t argv_bytes(const char *row, char *out, size_t size)
{
	size_t n = strlen(row), i;

	if (n + 1 > size)
		return 0;
	for (i = 0; i < n; i++)
		out[i] = row[i] == '|' ? '\0' : row[i];
	out[n] = '\0';
	return n + 1;
}

static void test_shapes(void)
{
	char args[512];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		size_t n = argv_bytes(rows[i].argv, args, sizeof(args));
		char *got = redact_cmdline(args, n, 400);

		CHECK_STR(got, rows[i].want, "row %zu", i);
		CHECK(!strstr(got, "SECRET1"), "row %zu: no secret in %s", i, got);
		free(got);
	}
}

static void test_cut(void)
{
	static const char args[] = "node\0--port\0" "3000\0--a-rather-long-flag-name\0"
		"--another-long-flag-name-that-goes-on\0--yet-another-one-to-pass\0";
	char *got = redact_cmdline(args, sizeof(args) - 1, 60);

	CHECK(strlen(got) <= 60, "cut: %zu", strlen(got));
	CHECK(!strcmp(got + strlen(got) - 3, "..."), "cut marked: %s", got);
	free(got);
	got = redact_cmdline("", 0, 60);
	CHECK_STR(got, "", "empty");
	free(got);
	got = redact_cmdline("a\0\0\0", 4, 60);
	CHECK_STR(got, "a", "trailing NULs");
	free(got);
}

/* By value: tokens holding a .env value, whole or cut at the end. */
static void test_values(void)
{
	static const char *const values[] = {
		"server.js", "/var/lib/postgresql/16/main", "abc", "  walwriter ",
		"ZQXCUTSECRET-abcdef",
	};
	static const struct {
		const char *cmd, *want;	/* want NULL: nothing hidden */
	} vrows[] = {
		{ "postgres -D /var/lib/postgresql/16/main", "postgres -D ***" },
		{ "postgres: checkpointer", NULL },
		{ "postgres: walwriter", "postgres: ***" },
		{ "node server.js --password=***", "node *** --password=***" },
		{ "x --opt=xserver.jsy", "x ***" },
		{ "abc def", NULL },	/* shorter than REDACT_VALUE_MIN */
		{ "holder PPPP ZQXCUTSECR...", "holder PPPP ***" },
		{ "holder PPPP ZQX...", NULL },	/* too short a start to tell */
	};
	struct redact_values *x = redact_values_new();
	size_t i;

	for (i = 0; i < ARRAY_SIZE(values); i++)
		redact_values_add(x, values[i], strlen(values[i]));
	/* a value holding a NUL: each part on its own */
	redact_values_add(x, "part-one\0part-two", 17);
	CHECK_INT(redact_values_count(x), 6, "values kept (abc is too short)");
	for (i = 0; i < ARRAY_SIZE(vrows); i++) {
		char *got = redact_values_apply(x, vrows[i].cmd);

		CHECK_STR(got, vrows[i].want, "value row %zu", i);
		free(got);
	}
	{
		char *got = redact_values_apply(x, "a part-two b");

		CHECK_STR(got, "a *** b", "second part of a NUL value");
		free(got);
	}
	redact_values_free(x);
	x = redact_values_new();
	CHECK(redact_values_apply(x, "anything at all") == NULL, "no values");
	redact_values_free(x);
}

/* Random argvs built from the bytes the rules look at: every rule stays
 * inside its argument (make asan checks the reads), the line stays under
 * its cap, and a secret marker planted after "--password " never shows. */
static void test_random(void)
{
	static const char alphabet[] = "=:/@-p?&;,'\" \0\033aAzZ09._+~BearTokenkey-";
	unsigned long long x = 0x9e3779b97f4a7c15ULL;
	char args[300];
	int i, bad = 0, shown = 0;

	for (i = 0; i < 3000; i++) {
		size_t n = 0, len, k;
		char *got;

		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		len = (size_t)(x >> 33) % 200;
		for (k = 0; k < len; k++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			args[n++] = alphabet[(x >> 33) % (sizeof(alphabet) - 1)];
		}
		memcpy(args + n, "\0--password\0SECRET1\0", 21);
		n += 21;
		got = redact_cmdline(args, n, 1000);
		bad += strlen(got) > 1000;
		shown += strstr(got, "SECRET1") != NULL;
		free(got);
		got = redact_cmdline(args, len, 40);
		bad += strlen(got) > 40;
		free(got);
	}
	CHECK_INT(bad, 0, "lines over their cap");
	CHECK_INT(shown, 0, "the secret after --password shown");
}

void test_main(void)
{
	test_random();
	test_shapes();
	test_cut();
	test_values();
}
