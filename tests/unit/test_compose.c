/* test_compose.c - the ports probe's sources and its engine: compose
 * files and .env URLs into the model (a row a case), the holder scan's
 * early stop on a fixture /proc, and the probe's checks run on a fixture
 * /proc (ENVPREFLIGHT_PROC_ROOT, set before anything reads it).
 */
#include "test.h"

#include "probe.h"
#include "procnet.h"
#include "runner.h"
#include "spec.h"

#include <stdlib.h>
#include <unistd.h>

#define PROC_FIX "tests/fixtures/proc"

/* The model's ports as one line: "PORT[-LAST][/PROTO] EXPECT WHO L:C; ...",
 * WHO being the compose service name, the URL key, or "-"; a requirement
 * that names no port (a URL whose port is not valid) shows as port 0. */
static char *ports_line(const struct spec *spec)
{
	struct buf b = BUF_INIT;
	size_t i;

	for (i = 0; i < spec->nports; i++) {
		const struct port_req *r = &spec->ports[i];
		const char *who = r->service ? r->service : "-";

		buf_printf(&b, "%s%u", i ? "; " : "",
			   r->kind == PORT_REQ_PORT ? r->port : 0);
		if (r->port_last)
			buf_printf(&b, "-%u", r->port_last);
		if (r->proto != PORT_TCP)
			buf_puts(&b, r->proto == PORT_UDP ? "/udp" : "/sctp");
		buf_printf(&b, " %s %s %u:%u",
			   r->app ? "app" : r->expect == PORT_FREE ? "free" : "listening", who,
			   r->origin.line, r->origin.col);
	}
	if (!b.s)
		return xstrdup("");
	return buf_detach(&b);
}

struct file {
	const char *name, *text;
};

/* A fresh repository holding files (up to 8); spec_load_any it.  Returns
 * the load's result; on 0 the caller releases spec. */
static int load_files(const char *tag, const struct file *files,
		      struct spec *spec, struct errbuf *err)
{
	const char *dir = test_tmpdir(tag);
	size_t i;

	for (i = 0; i < 8 && files[i].name; i++)
		test_write_str(dir, files[i].name, files[i].text);
	return spec_load_any(dir, spec, err);
}

static const struct compose_row {
	const char *what;
	const char *compose;	/* docker-compose.yml */
	const char *dotenv;	/* .env, or NULL */
	const char *want;	/* ports_line(), or a prefix of the first problem
				 * ("file:line:col: message"), or of the error */
	int error;		/* 1: compose would refuse it (a problem in the
				 * model, a failed check); 2: it does not load */
} compose_rows[] = {
	/* short syntax */
	{ "short", "services:\n  db:\n    ports:\n      - \"5433:5432\"\n", NULL,
	  "5433 free db 4:9", 0 },
	{ "plain int container only", "services:\n  web:\n    ports:\n      - 3000\n",
	  NULL, "", 0 },
	{ "quoted container only", "services:\n  web:\n    ports: [\"3000\"]\n",
	  NULL, "", 0 },
	{ "container range only", "services:\n  web:\n    ports: [\"3000-3005\"]\n",
	  NULL, "", 0 },
	{ "empty host port", "services:\n  web:\n    ports: [\"127.0.0.1::80\"]\n",
	  NULL, "", 0 },
	{ "plain host:container", "services:\n  web:\n    ports:\n      - 8080:80\n",
	  NULL, "8080 free web 4:9", 0 },
	{ "host IP", "services:\n  web:\n    ports:\n      - 127.0.0.1:8080:80\n",
	  NULL, "8080 free web 4:9", 0 },
	{ "IPv6 host IP", "services:\n  web:\n    ports: [\"[::1]:8081:80\"]\n",
	  NULL, "8081 free web 3:13", 0 },
	{ "range to range", "services:\n  web:\n    ports: [\"8000-8002:8000-8002\"]\n",
	  NULL, "8000 free web 3:13; 8001 free web 3:13; 8002 free web 3:13", 0 },
	{ "host range for one port", "services:\n  web:\n    ports: [\"9100-9105:80\"]\n",
	  NULL, "9100-9105 free web 3:13", 0 },
	{ "/tcp", "services:\n  web:\n    ports: [\"8080:80/tcp\"]\n", NULL,
	  "8080 free web 3:13", 0 },
	{ "/udp", "services:\n  dns:\n    ports: [\"53:53/udp\"]\n", NULL,
	  "53/udp free dns 3:13", 0 },
	{ "/sctp", "services:\n  s:\n    ports: [\"9999:9999/sctp\"]\n", NULL,
	  "9999/sctp free s 3:13", 0 },
	{ "several services, in order",
	  "services:\n  web:\n    ports: [\"3000:3000\"]\n  db:\n    ports:\n"
	  "      - \"5433:5432\"\n      - \"6000:6000\"\n", NULL,
	  "3000 free web 3:13; 5433 free db 6:9; 6000 free db 7:9", 0 },
	/* long syntax */
	{ "long, published int",
	  "services:\n  db:\n    ports:\n      - target: 5432\n        published: 5433\n",
	  NULL, "5433 free db 5:20", 0 },
	{ "long, published string",
	  "services:\n  db:\n    ports:\n      - target: 5432\n        published: \"5433\"\n"
	  "        protocol: tcp\n        host_ip: 127.0.0.1\n        mode: host\n",
	  NULL, "5433 free db 5:20", 0 },
	{ "long, published range, target range",
	  "services:\n  w:\n    ports:\n      - {target: \"80-81\", published: \"8080-8081\"}\n",
	  NULL, "8080 free w 4:38; 8081 free w 4:38", 0 },
	{ "long, published range for one target",
	  "services:\n  w:\n    ports:\n      - {target: 80, published: 8080-8089}\n",
	  NULL, "8080-8089 free w 4:33", 0 },
	{ "long, udp", "services:\n  d:\n    ports:\n      - {target: 53, published: 53, "
	  "protocol: udp}\n", NULL, "53/udp free d 4:33", 0 },
	{ "long, no published", "services:\n  d:\n    ports:\n      - target: 80\n",
	  NULL, "", 0 },
	{ "long, empty published", "services:\n  d:\n    ports:\n      - {target: 80, "
	  "published: \"\"}\n", NULL, "", 0 },
	/* merge keys */
	{ "merge key", "x-base: &base\n  image: redis\n  ports: [\"6380:6379\"]\n"
	  "services:\n  cache:\n    <<: *base\n", NULL, "6380 free cache 3:11", 0 },
	{ "own keys win over merged", "x-base: &base\n  ports: [\"6380:6379\"]\n"
	  "services:\n  cache:\n    <<: *base\n    ports: [\"7000:6379\"]\n", NULL,
	  "7000 free cache 6:13", 0 },
	{ "merge list, earlier first", "x-a: &a\n  image: a\nx-b: &b\n  ports: [\"1111:1\"]\n"
	  "x-c: &c\n  ports: [\"2222:2\"]\nservices:\n  s:\n    <<: [*a, *b, *c]\n",
	  NULL, "1111 free s 4:11", 0 },
	{ "nested merge", "x-a: &a\n  ports: [\"1111:1\"]\nx-b: &b\n  <<: *a\n  image: b\n"
	  "services:\n  s:\n    <<: *b\n", NULL, "1111 free s 2:11", 0 },
	{ "merge key beside services ignored", "x-s: &s\n  other: {}\nservices:\n"
	  "  <<: *s\n  web:\n    ports: [\"80:80\"]\n", NULL, "80 free web 6:13", 0 },
	/* what binds nothing */
	{ "empty file", "", NULL, "", 0 },
	{ "no services", "version: \"3.9\"\nvolumes: {}\n", NULL, "", 0 },
	{ "empty services", "services:\n", NULL, "", 0 },
	{ "services {}", "services: {}\n", NULL, "", 0 },
	{ "null service", "services:\n  web:\n", NULL, "", 0 },
	{ "null ports", "services:\n  web:\n    ports:\n", NULL, "", 0 },
	{ "behind a profile", "services:\n  dbg:\n    profiles: [debug]\n"
	  "    ports: [\"7777:7777\"]\n", NULL, "", 0 },
	{ "empty profiles list", "services:\n  w:\n    profiles: []\n"
	  "    ports: [\"7777:7777\"]\n", NULL, "7777 free w 4:13", 0 },
	/* variables */
	{ "default", "services:\n  w:\n    ports: [\"${WEB_PORT:-3000}:3000\"]\n", NULL,
	  "3000 free w 3:13", 0 },
	{ "from the .env", "services:\n  w:\n    ports: [\"${WEB_PORT:-3000}:3000\"]\n",
	  "WEB_PORT=4000\n", "4000 free w 3:13; 4000 app WEB_PORT 1:1", 0 },
	{ "$VAR and nested default", "services:\n  w:\n    ports:\n      - \"$HOST_IP:${A:-${B:-5000}}:80\"\n",
	  "HOST_IP=127.0.0.1\n", "5000 free w 4:9", 0 },
	{ "unset: no host port", "services:\n  w:\n    ports: [\"${NOPE}:80\"]\n", NULL,
	  "", 0 },
	{ "long, published variable", "services:\n  w:\n    ports:\n      - target: 80\n"
	  "        published: ${P-8088}\n", NULL, "8088 free w 5:20", 0 },
	{ "${VAR:+alt}", "services:\n  w:\n    ports: [\"${SET:+8090}${UNSET:+1}:80\"]\n",
	  "SET=yes\n", "8090 free w 3:13", 0 },
	/* errors: file:line:col */
	{ "port out of range", "services:\n  db:\n    ports:\n      - \"70000:5432\"\n",
	  NULL, "docker-compose.yml:4:9: 'services.db.ports': port '70000' is out of "
	  "range 1-65535", 1 },
	{ "not a port", "services:\n  db:\n    ports: [\"http:80\"]\n", NULL,
	  "docker-compose.yml:3:13: 'services.db.ports': 'http' is not a port", 1 },
	{ "reversed range", "services:\n  db:\n    ports: [\"8002-8000:80\"]\n", NULL,
	  "docker-compose.yml:3:13: 'services.db.ports': port range '8002-8000' is "
	  "reversed", 1 },
	{ "ranges differ", "services:\n  db:\n    ports: [\"8000-8002:80-81\"]\n", NULL,
	  "docker-compose.yml:3:13: 'services.db.ports': host ports", 1 },
	{ "bad protocol", "services:\n  db:\n    ports: [\"80:80/tcpx\"]\n", NULL,
	  "docker-compose.yml:3:13: 'services.db.ports': unknown protocol 'tcpx'", 1 },
	{ "long, bad published", "services:\n  db:\n    ports:\n      - target: 80\n"
	  "        published: 99999\n", NULL, "docker-compose.yml:5:20: "
	  "'services.db.ports.published': '99999' is not a port number", 1 },
	{ "long, published a list", "services:\n  db:\n    ports:\n      - published: [1]\n",
	  NULL, "docker-compose.yml:4:20: 'services.db.ports.published' expects a "
	  "port number or range, found a list", 1 },
	{ "long, bad protocol", "services:\n  db:\n    ports:\n      - {published: 80, "
	  "protocol: http}\n", NULL, "docker-compose.yml:4:35: 'services.db.ports.protocol': "
	  "unknown protocol 'http'", 1 },
	{ "long, bad target", "services:\n  db:\n    ports:\n      - {published: 80, "
	  "target: x}\n", NULL, "docker-compose.yml:4:33: 'services.db.ports.target': "
	  "'x' is not a port", 1 },
	{ "services not a map", "services: [web, db]\n", NULL,
	  "docker-compose.yml:1:11: 'services' expects a mapping, found a list", 1 },
	{ "service not a map", "services:\n  web: 3\n", NULL,
	  "docker-compose.yml:2:8: 'services.web' expects a mapping, found a scalar", 1 },
	{ "ports not a list", "services:\n  web:\n    ports: \"80:80\"\n", NULL,
	  "docker-compose.yml:3:12: 'services.web.ports' expects a list, found a scalar", 1 },
	{ "ports a map", "services:\n  web:\n    ports: {a: 1}\n", NULL,
	  "docker-compose.yml:3:12: 'services.web.ports' expects a list, found a mapping", 1 },
	{ "null entry", "services:\n  web:\n    ports:\n      - ~\n", NULL,
	  "docker-compose.yml:4:9: 'services.web.ports' expects port strings or "
	  "mappings, found null", 1 },
	{ "list entry", "services:\n  web:\n    ports:\n      - [80]\n", NULL,
	  "docker-compose.yml:4:9: 'services.web.ports' expects port strings or "
	  "mappings, found a list", 1 },
	{ "document a list", "- a\n", NULL,
	  "docker-compose.yml:1:1: the document expects a mapping, found a list", 1 },
	{ "YAML syntax", "services:\n  web:\n    ports: [\"80:80\"\n", NULL,
	  "docker-compose.yml:4:1:", 2 },
	{ "control characters cleaned", "services:\n  \"w\\e[2J\":\n    ports: [\"x\\e]0;t:80\"]\n",
	  NULL, "docker-compose.yml:3:13: 'services.w?[2J.ports': 'x?]0;t' is not a port", 1 },
	{ "unset ${VAR:?}", "services:\n  w:\n    ports: [\"${P:?set P}:80\"]\n", NULL,
	  "docker-compose.yml:3:13: required variable P is missing a value: set P", 1 },
	{ "bad ${ syntax", "services:\n  w:\n    ports: [\"${P:80\"]\n", NULL,
	  "docker-compose.yml:3:13: invalid interpolation format in '${P:80'", 1 },
	{ "a lone ${", "services:\n  w:\n    environment: [\"A=1${ 2\"]\n", NULL,
	  "docker-compose.yml:3:19: invalid interpolation format in 'A=1${ 2' (a "
	  "literal $ is written $$)", 1 },
	/* a '$' that starts no variable is left as written, as compose-go
	 * leaves it (template_test.go TestUnescaped) */
	{ "a $ compose leaves", "services:\n  w:\n    command: [\"sh\", \"-c\", \"echo $1 $$HOME a $ b ^x$\"]\n"
	  "    ports: [\"80:80\"]\n", NULL, "80 free w 4:13", 0 },
	/* COMPOSE_PROFILES unset or with an empty item activates the
	 * profile "" (cli/options.go WithDefaultProfiles splits it anyway) */
	{ "profile \"\" with COMPOSE_PROFILES unset", "services:\n  w:\n    profiles: [\"\", x]\n"
	  "    ports: [\"8080:80\"]\n  q:\n    profiles: [x]\n    ports: [\"8081:80\"]\n",
	  NULL, "8080 free w 4:13", 0 },
	{ "profile \"\" with COMPOSE_PROFILES=a,,b", "services:\n  w:\n    profiles: [\"\"]\n"
	  "    ports: [\"8080:80\"]\n", "COMPOSE_PROFILES=a,,b\n", "8080 free w 4:13", 0 },
	{ "profile \"\" with COMPOSE_PROFILES=a", "services:\n  w:\n    profiles: [\"\"]\n"
	  "    ports: [\"8080:80\"]\n", "COMPOSE_PROFILES=a\n", "", 0 },
	/* the .env as compose-go's dotenv reads it: unquoted and double-
	 * quoted values substituted, from the environment, then the keys
	 * before (dotenv/parser.go expandVariables); single quotes keep it */
	{ ".env default", "services:\n  w:\n    ports: [\"${P}:80\"]\n",
	  "P=${UNSET_Q:-8080}\n", "8080 free w 3:13", 0 },
	{ ".env earlier key", "services:\n  w:\n    ports: [\"${P}:80\"]\n",
	  "Q=9000\nP=\"${Q:-8080}\"\n", "9000 free w 3:13", 0 },
	{ ".env later key not seen", "services:\n  w:\n    ports: [\"${P}:80\"]\n",
	  "P=${Q:-8080}\nQ=9000\n", "8080 free w 3:13", 0 },
	{ ".env single quotes", "services:\n  w:\n    ports: [\"${P}:80\"]\n",
	  "P='${Q:-8080}'\n", "docker-compose.yml:3:13: 'services.w.ports': '${P}:80' is not a valid port", 1 },
	{ ".env profiles", "services:\n  a:\n    profiles: [weaviate]\n    ports: [\"8081:80\"]\n"
	  "  b:\n    profiles: [qdrant]\n    ports: [\"8082:80\"]\n",
	  "COMPOSE_PROFILES=${VECTOR_STORE:-weaviate}\n", "8081 free a 4:13", 0 },
	{ ".env value compose cannot read", "services:\n  w:\n    ports: [\"80:80\"]\n",
	  "A=1\nP=${Q:?secret-hint}\n", ".env:2:1: a value compose cannot read: a required variable is missing a value", 1 },
	/* a file of several documents: each over the ones before, as one
	 * more file (loader.go: one Decode per document, merged) */
	{ "two documents", "services:\n  web:\n    ports: [\"80:80\"]\n---\n"
	  "services:\n  db:\n    ports: [\"5432:5432\"]\n", NULL,
	  "80 free web 3:13; 5432 free db 7:13", 0 },
	{ "a document overrides one before", "services:\n  web:\n    ports: [\"80:80\"]\n---\n"
	  "services:\n  web:\n    ports: !override [\"81:80\"]\n", NULL, "81 free web 7:23", 0 },
	/* an empty document is a null one: "top-level object must be a
	 * mapping" (loader.go processRawYaml) */
	{ "an empty document", "---\n---\nservices:\n  web:\n    ports: [\"80:80\"]\n", NULL,
	  "docker-compose.yml:2:", 1 },
	{ "a problem in the second document", "services: {}\n---\nservices:\n  w:\n    ports: [\"0:80\"]\n",
	  NULL, "docker-compose.yml:5:13:", 1 },
	/* a key twice: go-yaml refuses the file (Test_DuplicateReset) */
	{ "a key twice", "services:\n  w:\n    command: a\n    command: !reset b\n", NULL,
	  "docker-compose.yml:4:5: mapping key 'command' already defined at line 3", 1 },
	{ "a service twice", "services:\n  w:\n    image: a\n  x:\n    image: b\n  w:\n    image: c\n",
	  NULL, "docker-compose.yml:6:3: mapping key 'w' already defined at line 2", 1 },
	/* the substituted text holds a .env value: quoted as written */
	{ "bad once substituted", "services:\n  w:\n    ports: [\"${P}:80\"]\n",
	  "P=99999secret\n", "docker-compose.yml:3:13: 'services.w.ports': '${P}:80' "
	  "is not a valid port entry once its variables are substituted", 1 },
};

/* The first problem compose would stop on, "file:line:col: message". */
static char *first_problem(const struct spec *spec)
{
	const struct compose_problem *p = spec->compose.problems;
	struct buf b = BUF_INIT;

	if (!spec->compose.nproblems)
		return xstrdup("");
	buf_printf(&b, "%s:%u:%u: %s", p->origin.file ? p->origin.file : "-",
		   p->origin.line, p->origin.col, p->message);
	return buf_detach(&b);
}

static void test_compose_rows(void)
{
	size_t i;

	unsetenv("WEB_PORT");
	unsetenv("HOST_IP");
	unsetenv("COMPOSE_PROFILES");
	for (i = 0; i < ARRAY_SIZE(compose_rows); i++) {
		const struct compose_row *r = &compose_rows[i];
		struct file files[3] = {
			{ "docker-compose.yml", r->compose },
			{ r->dotenv ? ".env" : NULL, r->dotenv },
			{ NULL, NULL },
		};
		struct spec spec;
		struct errbuf err;
		char *got;
		int rc;

		err.msg[0] = '\0';
		rc = load_files("compose", files, &spec, &err);
		if (r->error == 2) {
			CHECK(rc == -1 && !strncmp(err.msg, r->want, strlen(r->want)),
			      "%s: rc %d, message '%s', want '%s...'", r->what, rc,
			      err.msg, r->want);
			continue;
		}
		CHECK(rc == 0, "%s: loads: %s", r->what, err.msg);
		if (rc != 0)
			continue;
		got = r->error ? first_problem(&spec) : ports_line(&spec);
		if (r->error) {
			CHECK(!strncmp(got, r->want, strlen(r->want)),
			      "%s: problem '%s', want '%s...'", r->what, got, r->want);
			CHECK(!strstr(got, "secret"), "%s: no .env value", r->what);
		} else {
			CHECK_STR(got, r->want, "%s", r->what);
			CHECK_INT(spec.compose.nproblems, 0, "%s: no problem", r->what);
		}
		free(got);
		spec_release(&spec);
	}
}

/* Which file is read: compose's own order, then its override. */
static void test_compose_files(void)
{
	static const struct file both[] = {
		{ "docker-compose.yml", "services:\n  a:\n    ports: [\"1001:1\"]\n" },
		{ "compose.yaml", "services:\n  b:\n    ports: [\"1002:1\"]\n" },
		{ "docker-compose.override.yml", "services:\n  b:\n    ports: [\"1003:1\"]\n" },
		{ NULL, NULL },
	};
	static const struct file only_override[] = {
		{ "compose.override.yml", "services:\n  b:\n    ports: [\"1003:1\"]\n" },
		{ NULL, NULL },
	};
	static const struct file bad_override[] = {
		{ "compose.yml", "services: {}\n" },
		{ "compose.override.yaml", "services:\n  b:\n    ports: [\"0:1\"]\n" },
		{ NULL, NULL },
	};
	struct spec spec;
	struct errbuf err;
	char *line;

	CHECK(load_files("files", both, &spec, &err) == 0, "%s", err.msg);
	line = ports_line(&spec);
	CHECK_STR(line, "1002 free b 3:13; 1003 free b 3:13",
		  "compose.yaml first, then an override");
	CHECK_STR(spec.ports[0].origin.file, "compose.yaml", "origin file");
	CHECK_STR(spec.ports[1].origin.file, "docker-compose.override.yml",
		  "override origin");
	free(line);
	spec_release(&spec);

	CHECK(load_files("files", only_override, &spec, &err) == 0, "%s", err.msg);
	CHECK_INT(spec.nports, 0, "an override alone is not a compose project");
	spec_release(&spec);

	CHECK(load_files("files", bad_override, &spec, &err) == 0, "%s", err.msg);
	line = first_problem(&spec);
	CHECK_STR(line, "compose.override.yaml:3:13: 'services.b.ports': "
		  "port '0' is out of range 1-65535", "override problem");
	free(line);
	spec_release(&spec);
}

/* Our own cap on host ports is no problem of compose's: a note, and one
 * mark that counts the rest (the ports probe makes it a skipped check, so
 * that no report says "all ok" over them), the services after the cap
 * still judged (their dependencies). */
static void test_compose_cap(void)
{
	static const struct file many[] = {
		{ "compose.yaml", "services:\n  w:\n    ports: [\"1000-3000:1000-3000\"]\n"
		  "  x:\n    ports: [\"4000-4009:80\", \"5000:80\"]\n"
		  "  y:\n    depends_on: [nope]\n" },
		{ NULL, NULL },
	};
	struct spec spec;
	struct errbuf err;

	CHECK(load_files("cap", many, &spec, &err) == 0, "%s", err.msg);
	CHECK_INT(spec.nports, 1025, "the first 1024 host ports and the mark");
	if (spec.nports == 1025) {
		const struct port_req *m = &spec.ports[1024];

		CHECK_INT(m->kind, PORT_REQ_COMPOSE_CAPPED, "the mark");
		/* 2001 - 1024 of w, 10 of x's range (one of them: any one
		 * free will do, so one port), 1 of x's 5000 */
		CHECK_INT(m->capped, 977 + 1 + 1, "ports past the cap");
		CHECK_STR(m->service, "w", "from the service where the cap fell");
		CHECK_INT(m->origin.line, 3, "at the entry where it fell");
	}
	CHECK_INT(spec.compose.nproblems, 1, "y's dependency still judged");
	CHECK(spec.compose.nnotes == 1 &&
	      strstr(spec.compose.notes[0], "more than 1024 host ports"),
	      "a note says so");
	spec_release(&spec);
}

/* The repository's other compose files (issue 21: trigger.dev's
 * docker/docker-compose.yml, rallly's docker-compose.dev.yml): named with
 * their ports, never read as the project; an http URL to a port a compose
 * file publishes is that service's, which must be up. */
static void test_compose_others(void)
{
	static const struct file files[] = {
		{ "compose.yaml", "services:\n  ch:\n    ports: [\"8123:8123\"]\n" },
		{ "docker-compose.dev.yml", "services:\n  kv:\n    ports: [\"${KV:-8079}:80\"]\n"
		  "  x:\n    ports: [{target: 1, published: \"9100\"}, \"53:53/udp\"]\n---\n"
		  "services:\n  y: {}\n" },
		{ "docker/docker-compose.yml", "services: [broken\n" },
		{ "node_modules/a/docker-compose.yml", "services:\n  n:\n    ports: [\"1:1\"]\n" },
		{ ".env", "CH_URL=http://localhost:8123\nKV_URL=http://0.0.0.0:8079\n"
		  "APP_URL=http://localhost:3030\n" },
		{ NULL, NULL },
	};
	struct spec spec;
	struct errbuf err;
	size_t i;

	unsetenv("KV");
	CHECK(load_files("others", files, &spec, &err) == 0, "%s", err.msg);
	CHECK_INT(spec.compose.nfiles, 1, "the project is compose.yaml alone");
	CHECK_INT(spec.compose.nothers, 2, "two others, node_modules not looked in");
	if (spec.compose.nothers == 2) {
		const struct compose_other *o = &spec.compose.others[0];

		CHECK_STR(o->file, "docker-compose.dev.yml", "sorted by name");
		CHECK_INT(o->nservices, 3, "every document's services");
		CHECK(o->nports == 2 && o->ports[0].port == 8079 &&
		      !strcmp(o->ports[0].service, "kv") && o->ports[1].port == 9100,
		      "its TCP host ports, the variable's default taken");
		CHECK_STR(spec.compose.others[1].file, "docker/docker-compose.yml",
			  "one that does not parse is named all the same");
		CHECK_INT(spec.compose.others[1].nports, 0, "with no port");
	}
	CHECK_INT(spec.compose.nproblems, 0, "no problem of the project's");
	for (i = 0; i < spec.nport_records; i++) {
		const struct port_record *rec = &spec.port_records[i];

		if (rec->req->port == 8123)
			CHECK_INT(rec->rule, PORT_RULE_STACK_UP, "http URL to the stack's port");
		else if (rec->req->port == 8079)
			CHECK(rec->rule == PORT_RULE_LISTEN && rec->other &&
			      !strcmp(rec->other_service, "kv"),
			      "http URL to another file's port: must listen");
		else if (rec->req->port == 3030)
			CHECK_INT(rec->rule, PORT_RULE_APP, "the app's own port");
	}
	spec_release(&spec);
}

/* A compose file alone makes a repository auditable; one outside the
 * repository through a symlink is refused, as every spec file is. */
static void test_compose_spec_file(void)
{
	const char *dir = test_tmpdir("compose-alone");
	struct spec spec;
	struct errbuf err;
	char link[4096];

	test_write_str(dir, "compose.yml", "services: {}\n");
	CHECK(spec_load(dir, &spec, &err) == 0, "compose alone: %s", err.msg);
	if (spec.nfiles == 1)
		CHECK_STR(spec.files[0], "compose.yml", "recorded as a spec file");
	spec_release(&spec);

	dir = test_tmpdir("compose-link");
	snprintf(link, sizeof(link), "%s/compose.yaml", dir);
	if (symlink("/etc/hostname", link) == 0) {
		CHECK(spec_load(dir, &spec, &err) == -1 &&
		      strstr(err.msg, "symlink resolving outside") != NULL,
		      "outside symlink: %s", err.msg);
	}
}

/* ---- .env URLs ----------------------------------------------------- */

static const struct url_row {
	const char *what, *dotenv, *want;
} url_rows[] = {
	{ "postgres", "DATABASE_URL=postgres://app:s3cr3t@localhost:5433/db\n",
	  "5433 listening DATABASE_URL 1:1" },
	{ "default port", "REDIS_URL=redis://127.0.0.1\n", "6379 listening REDIS_URL 1:1" },
	{ "_URI", "MONGODB_URI=mongodb://[::1]:27018/x\n",
	  "27018 listening MONGODB_URI 1:1" },
	{ "lowercase key, http: the app's own", "api_url=http://localhost:3000/v1\n",
	  "3000 app api_url 1:1" },
	/* issue 7: http, https, ws, wss are the repository's own apps; every
	 * other scheme is a service that must listen */
	{ "https default port", "NEXT_PUBLIC_WEBAPP_URL=https://localhost\n",
	  "443 app NEXT_PUBLIC_WEBAPP_URL 1:1" },
	{ "ws and wss", "WS_URL=ws://localhost:3001\nWSS_URL=wss://127.0.0.1:3002/x\n",
	  "3001 app WS_URL 1:1; 3002 app WSS_URL 2:1" },
	{ "service schemes listen", "MYSQL_URL=mysql://localhost:3307\n"
	  "AMQP_URL=amqp://localhost\nNATS_URL=nats://localhost:4223\n"
	  "CH_URL=clickhouse://localhost:9001\nKAFKA_URL=kafka://localhost:9093\n",
	  "3307 listening MYSQL_URL 1:1; 5672 listening AMQP_URL 2:1; 4223 listening "
	  "NATS_URL 3:1; 9001 listening CH_URL 4:1; 9093 listening KAFKA_URL 5:1" },
	/* PORT-style keys: the app's own port */
	{ "PORT", "PORT=3000\n", "3000 app PORT 1:1" },
	{ "app port keys", "APP_PORT=8000\nVITE_PORT=5173\nSERVER_PORT=9090\n",
	  "8000 app APP_PORT 1:1; 5173 app VITE_PORT 2:1; 9090 app SERVER_PORT 3:1" },
	{ "service port keys are not read", "DB_PORT=5432\nREDIS_PORT=6379\n"
	  "POSTGRES_PORT=5432\nPORTAL=1\nMY_PORT=1\n", "" },
	{ "a PORT that is not a number", "PORT=${APP}\nAPP_PORT=auto\nWEB_PORT=70000\n"
	  "HTTP_PORT=\n", "" },
	{ "several, in order", "A=1\nDATABASE_URL=postgres://localhost/db\n"
	  "  CACHE_URL=memcached://0.0.0.0:11212\n",
	  "5432 listening DATABASE_URL 2:1; 11212 listening CACHE_URL 3:3" },
	{ "remote host", "DATABASE_URL=postgres://db.example.com:5432/x\n", "" },
	{ "not a URL key", "DATABASE=postgres://localhost:5432/x\nURL=http://localhost:1\n"
	  "MY_URLS=http://localhost:2\n", "" },
	{ "not a URL", "DATABASE_URL=localhost:5432\n", "" },
	{ "unknown scheme, no port", "X_URL=foo://localhost/\n", "" },
	{ "unknown scheme with port", "X_URL=foo://localhost:7000/\n",
	  "7000 listening X_URL 1:1" },
	{ "unix socket", "DATABASE_URL=postgres:///db?host=/run/postgresql\n", "" },
	{ "empty value", "DATABASE_URL=\n", "" },
	{ "duplicate: the last wins", "DATABASE_URL=postgres://localhost:1111/a\n"
	  "DATABASE_URL=postgres://localhost:2222/b\n",
	  "2222 listening DATABASE_URL 2:1" },
	{ "quoted, export", "export DATABASE_URL=\"postgres://localhost:5434/db\"\n",
	  "5434 listening DATABASE_URL 1:8" },
	/* a local URL whose port is not valid: PORT_REQ_BAD_URL, a skipped check */
	{ "port out of range", "BAD_URL=http://localhost:99999\n",
	  "0 listening BAD_URL 1:1" },
	{ "port not a number", "BAD_URL=postgres://u:s3cr3t@localhost:pg/db\n",
	  "0 listening BAD_URL 1:1" },
	{ "port 0", "X_URL=redis://127.0.0.1:0\n", "0 listening X_URL 1:1" },
	{ "IPv6, port out of range", "X_URL=http://[::1]:70000/\n",
	  "0 listening X_URL 1:1" },
	{ "remote host, bad port", "X_URL=http://example.com:99999/\n", "" },
	{ "no port after the colon: the default", "REDIS_URL=redis://localhost:/0\n",
	  "6379 listening REDIS_URL 1:1" },
	{ "bad and good, in order", "A_URL=http://localhost:65536\nB_URL=http://localhost:65535\n",
	  "0 listening A_URL 1:1; 65535 app B_URL 2:1" },
};

/* Every string the model holds must be free of marker. */
static int model_has(const struct spec *spec, const char *marker)
{
	size_t i;

	for (i = 0; i < spec->nports; i++)
		if ((spec->ports[i].service && strstr(spec->ports[i].service, marker)) ||
		    (spec->ports[i].origin.file &&
		     strstr(spec->ports[i].origin.file, marker)))
			return 1;
	for (i = 0; i < spec->nstrings; i++)
		if (strstr(spec->strings[i], marker))
			return 1;
	for (i = 0; i < spec->nfiles; i++)
		if (strstr(spec->files[i], marker))
			return 1;
	return 0;
}

static void test_url_rows(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(url_rows); i++) {
		const struct url_row *r = &url_rows[i];
		/* a spec file, so that the repository is auditable, and no
		 * example: the env loader does not read the .env then */
		struct file files[] = {
			{ "compose.yaml", "services: {}\n" },
			{ ".env", r->dotenv },
			{ NULL, NULL },
		};
		struct spec spec;
		struct errbuf err;
		char *line;

		if (load_files("urls", files, &spec, &err) < 0) {
			CHECK(0, "%s: %s", r->what, err.msg);
			continue;
		}
		line = ports_line(&spec);
		CHECK_STR(line, r->want, "%s", r->what);
		if (spec.nports)
			CHECK_STR(spec.ports[0].origin.file, ".env", "%s: origin", r->what);
		CHECK(!model_has(&spec, "s3cr3t") && !model_has(&spec, "localhost") &&
		      !model_has(&spec, "postgres://"), "%s: no value kept", r->what);
		CHECK(spec.nfiles == 1, "%s: the .env is not a spec file", r->what);
		free(line);
		spec_release(&spec);
	}
}

/* The .env as the env loader read it (env.file from preflight.yaml), and
 * compose ports beside URL ports. */
static void test_urls_configured(void)
{
	static const struct file files[] = {
		{ "preflight.yaml", "version: 1\nenv:\n  file: config/app.env\n"
		  "  required: [DATABASE_URL]\nports:\n  free: [3000]\n" },
		{ "config/app.env", "DATABASE_URL=postgres://u:pw@localhost:5433/d\n" },
		{ "docker-compose.yaml", "services:\n  db:\n    ports: [\"5433:5432\"]\n" },
		{ ".env", "OTHER_URL=http://localhost:9999\n" },
		{ NULL, NULL },
	};
	struct spec spec;
	struct errbuf err;
	char *line;

	CHECK(load_files("urls-conf", files, &spec, &err) == 0, "%s", err.msg);
	line = ports_line(&spec);
	CHECK_STR(line, "3000 free - 6:10; 5433 free db 3:13; "
		  "5433 listening DATABASE_URL 1:1", "every source, in load order");
	if (spec.nports == 3) {
		CHECK_STR(spec.ports[2].origin.file, "config/app.env", "the .env used");
		CHECK_STR(spec.ports[0].origin.file, "preflight.yaml", "preflight origin");
	}
	free(line);
	spec_release(&spec);
}

/* Past 1024 *_URL requirements, one mark says how many more there were. */
static void test_urls_cap(void)
{
	struct file files[] = {
		{ "compose.yaml", "services: {}\n" },
		{ ".env", NULL },
		{ NULL, NULL },
	};
	struct buf env = BUF_INIT;
	struct spec spec;
	struct errbuf err;
	size_t i;

	for (i = 0; i < 1030; i++)
		buf_printf(&env, "K%zu_URL=http://localhost:%zu/\n", i, 2000 + i % 3);
	files[1].text = env.s;
	CHECK(load_files("urls-cap", files, &spec, &err) == 0, "%s", err.msg);
	CHECK_INT(spec.nports, 1025, "1024 requirements and the mark");
	if (spec.nports == 1025) {
		const struct port_req *m = &spec.ports[1024];

		CHECK_INT(spec.ports[1023].port, 2000 + 1023 % 3, "the last taken");
		CHECK(m->kind == PORT_REQ_URLS_CAPPED && m->capped == 6 && m->service &&
		      !strcmp(m->service, "K1024_URL") && m->origin.line == 1025,
		      "the mark: %d %u %s", (int)m->kind, m->capped, m->service);
	}
	spec_release(&spec);
	buf_release(&env);
}

/* ---- the holder scan's early stop -------------------------------- */

static void test_early_stop(void)
{
	static const unsigned one[] = { 8000 }, two[] = { 8000, 8001 };
	static const int want_pids[] = { 20, 40, 50, 60 };
	struct procnet_stats st;
	struct port_status s[2];
	size_t i;

	CHECK_INT(ports_lookup_stats(PROC_FIX "/prefork", one, 1, NULL, s, &st), 0,
		  "lookup");
	CHECK_INT(s[0].nh, 4, "master and every worker");
	for (i = 0; i < s[0].nh && i < 4; i++)
		CHECK_INT(s[0].holders[i].pid, want_pids[i], "holder %zu", i);
	CHECK_INT(s[0].hidden, 0, "nothing hidden");
	CHECK_INT(st.pids, 7, "pids listed");
	CHECK_INT(st.phase1, 2, "phase 1 stopped after the master (pid 20)");
	CHECK_INT(st.stat_reads, 7, "phase 0 read every process");
	CHECK_INT(st.fd_dirs, 2, "fd dirs of 10 and 20 only: not of 30 or 70");
	CHECK_INT(st.kin_links, 3, "the workers 40, 50, 60 read at fd 3 only");
	port_status_release(&s[0]);

	/* a socket nobody visible holds: phase 1 must read everything */
	CHECK_INT(ports_lookup_stats(PROC_FIX "/prefork", two, 2, NULL, s, &st), 0,
		  "lookup 2");
	CHECK_INT(s[0].nh, 4, "8000 holders");
	CHECK(s[1].busy && !s[1].nh && s[1].hidden && s[1].hidden_uid == 99,
	      "8001 hidden");
	CHECK_INT(st.phase1, 7, "phase 1 covered every pid");
	CHECK_INT(st.fd_dirs, 7, "every fd dir read");
	CHECK_INT(st.kin, 0, "no phase 2");
	port_status_release(&s[0]);
	port_status_release(&s[1]);

	/* the fixture without stat files: read anyway, nothing missed */
	{
		static const unsigned p[] = { 5432 };

		CHECK_INT(ports_lookup_stats(PROC_FIX "/basic", p, 1, NULL, s, &st), 0,
			  "basic");
		CHECK(s[0].nh == 2 && s[0].holders[1].pid == 101,
		      "a worker without a stat file is still found");
		CHECK(st.phase1 < st.pids, "early stop on basic: %zu of %zu",
		      st.phase1, st.pids);
		port_status_release(&s[0]);
	}
	/* nothing busy: no scan at all */
	{
		static const unsigned p[] = { 7000 };

		ports_lookup_stats(PROC_FIX "/prefork", p, 1, NULL, s, &st);
		CHECK(!s[0].busy && st.pids == 0 && st.fd_dirs == 0, "no scan");
		port_status_release(&s[0]);
	}
}

/* ---- the probe on a fixture /proc --------------------------------- */

static const struct result *find(const struct result *res, size_t n,
				 const char *id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(res[i].id, id))
			return &res[i];
	return NULL;
}

static int has_note(const struct result *r, const char *part)
{
	size_t i;

	for (i = 0; i < r->nnotes; i++)
		if (strstr(r->notes[i], part))
			return 1;
	return 0;
}

static void test_probe(void)
{
	static const struct file files[] = {
		{ "preflight.yaml", "version: 1\nports:\n  free: [3000, 5432, 6379]\n"
		  "  listening: [9001, 7000]\n" },
		{ "docker-compose.yml", "services:\n  db:\n    ports:\n"
		  "      - \"5433:5432\"\n      - \"53:53/udp\"\n  web:\n"
		  "    ports: [\"8080:80\", \"5432:5432\", \"9000-9001:80\"]\n" },
		{ ".env", "DATABASE_URL=postgres://app:s3cr3t@localhost:5433/app\n"
		  "CACHE_URL=redis://localhost:6379\n" },
		{ NULL, NULL },
	};
	static const char *const ids[] = {
		"ports.tcp.3000", "ports.tcp.5432", "ports.tcp.6379", "ports.tcp.9001",
		"ports.tcp.7000", "ports.tcp.5433", "ports.udp.53", "ports.tcp.8080",
		"ports.tcp.9000-9001",
	};
	struct plan plan = { NULL, 0, 0 };
	struct spec spec;
	struct errbuf err;
	struct result *res;
	const struct result *r;
	size_t i;

	CHECK(load_files("probe", files, &spec, &err) == 0, "%s", err.msg);
	probe_ports.plan(&spec, &plan);
	CHECK_INT(plan.n, ARRAY_SIZE(ids), "one check a port");
	for (i = 0; i < plan.n && i < ARRAY_SIZE(ids); i++)
		CHECK_STR(plan.checks[i].id, ids[i], "check %zu in first-seen order", i);
	res = xcalloc(plan.n + 1, sizeof(*res));
	runner_run(&spec, &plan, clock_ms() + 5000, 0, res);

	r = find(res, plan.n, "ports.tcp.3000");
	CHECK(r && r->status == STATUS_PASS && !strcmp(r->message, "free"), "3000 free");
	r = find(res, plan.n, "ports.tcp.5432");
	CHECK(r && r->status == STATUS_FAIL, "5432 busy");
	if (r) {
		CHECK_STR(r->message, "COLLISION (PIDs 100, 101, 102: postgres, user 4242)",
			  "grouped holders");
		CHECK_STR(r->hint, "another PostgreSQL runs on the host (PID 100, user "
			  "4242): docker compose up will fail with \"port is already "
			  "allocated\"; stop it, or publish service web on another "
			  "port", "hint");
		CHECK_STR(r->source.file, "preflight.yaml", "preflight.yaml wins");
		CHECK(has_note(r, "docker-compose.yml:7:24 (compose service web) wants it "
			       "free; preflight.yaml overrides"), "dropped provenance noted");
		CHECK_INT(cJSON_GetArraySize(cJSON_GetObjectItem(r->data, "holders")), 3,
			  "3 holders in JSON");
	}
	r = find(res, plan.n, "ports.tcp.6379");
	CHECK(r && r->status == STATUS_FAIL && r->hint &&
	      !strcmp(r->hint, "a container publishes this port (docker-proxy); "
		      "docker ps to find it"), "6379: container, %s", r ? r->hint : "");
	if (r)
		CHECK(has_note(r, ".env:2:1 (CACHE_URL) wants it listening; "
			       "preflight.yaml overrides"), "URL overridden");
	r = find(res, plan.n, "ports.tcp.9001");
	CHECK(r && r->status == STATUS_PASS &&
	      !strcmp(r->message, "listening (uid 4244, process not visible: "
		      "permission denied)"), "9001: %s", r ? r->message : "");
	r = find(res, plan.n, "ports.tcp.7000");
	CHECK(r && r->status == STATUS_FAIL &&
	      !strcmp(r->hint, "start the service that should listen on port 7000"),
	      "7000 silent");
	r = find(res, plan.n, "ports.tcp.5433");
	CHECK(r && r->status == STATUS_PASS && r->source.file &&
	      !strcmp(r->source.file, "docker-compose.yml"),
	      "5433: the stack publishes it, a container holds it");
	if (r) {
		CHECK_STR(r->message, "published by a container (PID 200: docker-proxy, "
			  "user root): the stack is up (compose service db)",
			  "the stack is up");
		CHECK(has_note(r, ".env:1:1 (DATABASE_URL) points at it: compose "
			       "service db publishes it"), "URL note");
		CHECK_STR(cJSON_GetObjectItem(r->data, "expect")->valuestring,
			  "stack-up", "JSON expect");
	}
	r = find(res, plan.n, "ports.udp.53");
	CHECK(r && r->status == STATUS_SKIP, "udp skipped");
	r = find(res, plan.n, "ports.tcp.8080");
	CHECK(r && r->status == STATUS_FAIL && r->hint &&
	      strstr(r->hint, "PID 400 (node) runs as user 4242"), "8080 other user");
	if (r) {
		const cJSON *h = cJSON_GetArrayItem(cJSON_GetObjectItem(r->data, "holders"), 0);

		CHECK(h && !strcmp(cJSON_GetObjectItem(h, "address")->valuestring, "::") &&
		      !strcmp(cJSON_GetObjectItem(h, "class")->valuestring, "other-user") &&
		      strstr(cJSON_GetObjectItem(h, "cmdline")->valuestring, "hunter2") == NULL,
		      "8080 holder JSON, password hidden");
	}
	r = find(res, plan.n, "ports.tcp.9000-9001");
	CHECK(r && r->status == STATUS_FAIL && !strcmp(r->message,
		"COLLISION: all 2 ports are in use"), "range all busy");
	for (i = 0; i < plan.n; i++) {
		char *json = cJSON_PrintUnformatted(res[i].data);
		size_t k;

		CHECK(!strstr(json, "s3cr3t") && !strstr(res[i].message, "s3cr3t") &&
		      !(res[i].hint && strstr(res[i].hint, "s3cr3t")),
		      "%s: no .env value", res[i].id);
		for (k = 0; k < res[i].nnotes; k++)
			CHECK(!strstr(res[i].notes[k], "s3cr3t"), "note");
		free(json);
		result_release(&res[i]);
	}
	free(res);
	plan_release(&plan);
	spec_release(&spec);
}

/* The probe over many requirements: one check a port in first-seen
 * order, the notes of a crowded port capped, the URL marks as skips. */
static void test_probe_many(void)
{
	struct file files[] = {
		{ "preflight.yaml", "version: 1\nports:\n  free: [7100]\n" },
		{ "compose.yaml", "services:\n  a:\n    ports: [\"7101:1\", \"7100:2\"]\n" },
		{ ".env", NULL },
		{ NULL, NULL },
	};
	struct plan plan = { NULL, 0, 0 };
	struct buf env = BUF_INIT;
	struct result *res;
	const struct result *r;
	struct spec spec;
	struct errbuf err;
	size_t i;

	/* 1200 keys: 1024 taken (3 bad ports among them), 176 past the cap */
	for (i = 0; i < 1200; i++) {
		if (i == 5 || i == 6 || i == 700)
			buf_printf(&env, "BAD%zu_URL=http://localhost:99999\n", i);
		else
			buf_printf(&env, "K%zu_URL=redis://u:s3cr3t@localhost:%zu\n", i,
				   i < 20 ? 7101 : 7200 + i);
	}
	files[2].text = env.s;
	CHECK(load_files("probe-many", files, &spec, &err) == 0, "%s", err.msg);
	probe_ports.plan(&spec, &plan);
	/* of the 1024 taken, 18 share 7101 with compose, 3 are bad ports
	 * and 1003 have a port of their own: 7100, 7101, the 3 bad, the
	 * 1003, and the mark */
	CHECK_INT(plan.n, 2 + 3 + 1003 + 1, "checks planned");
	if (plan.n > 4) {
		CHECK_STR(plan.checks[0].id, "ports.tcp.7100", "first seen first");
		CHECK_STR(plan.checks[1].id, "ports.tcp.7101", "compose");
		CHECK_STR(plan.checks[2].id, "ports.url.BAD5_URL", "a bad port, in place");
		CHECK_STR(plan.checks[3].id, "ports.url.BAD6_URL", "another");
		CHECK_STR(plan.checks[plan.n - 1].id, "ports.urls", "the mark, last");
	}
	res = xcalloc(plan.n + 1, sizeof(*res));
	runner_run(&spec, &plan, clock_ms() + 5000, 0, res);
	r = find(res, plan.n, "ports.tcp.7101");
	/* 18 others: 16 notes and one for the last 2 */
	CHECK(r && r->nnotes == 17 && has_note(r, "and 2 more requirements of this "
					      "port"), "7101: %zu notes", r ? r->nnotes : 0);
	CHECK(r && r->status == STATUS_FAIL && !strcmp(r->message, "nothing listening: "
	      "compose service a publishes it and K0_URL needs it (the stack is "
	      "down)") && r->hint && !strcmp(r->hint, "start the stack: docker "
	      "compose up -d a (compose.yaml provides it)"), "7101: %s",
	      r ? r->message : "");
	r = find(res, plan.n, "ports.url.BAD700_URL");
	CHECK(r && r->status == STATUS_FAIL && !strcmp(r->message, "the port in "
	      "BAD700_URL is not a valid port (1-65535): the app cannot connect") &&
	      r->hint && !strcmp(r->hint, "fix the port of BAD700_URL in .env:701"),
	      "bad port: %s", r ? r->message : "");
	if (r)
		CHECK(cJSON_IsNull(cJSON_GetObjectItem(r->data, "port")), "no port in JSON");
	r = find(res, plan.n, "ports.urls");
	CHECK(r && r->status == STATUS_SKIP && !strcmp(r->message, "not checked: 176 "
	      "more *_URL keys of .env name a local port (from K1024_URL on); only "
	      "the first 1024 are taken"), "cap: %s", r ? r->message : "");
	for (i = 0; i < plan.n; i++) {
		char *json = cJSON_PrintUnformatted(res[i].data);

		CHECK(!strstr(json, "s3cr3t") && !strstr(res[i].message, "s3cr3t") &&
		      !strstr(res[i].message, "99999"), "%s: no .env value", res[i].id);
		free(json);
		result_release(&res[i]);
	}
	free(res);
	plan_release(&plan);
	spec_release(&spec);
	buf_release(&env);
}

/* .env values in a holder's command line are hidden token by token. */
static void test_probe_redact(void)
{
	static const struct file files[] = {
		{ "preflight.yaml", "version: 1\nports:\n  free: [5432, 8080]\n" },
		{ ".env", "ENTRY=server.js\nDATA_DIR=/var/lib/postgresql/16/main\n"
		  "SHORT=abc\nSPACED=\"  walwriter \"\n" },
		{ NULL, NULL },
	};
	static const char *const want[][2] = {
		{ "100", "postgres -D ***" },
		{ "101", "postgres: checkpointer" },
		{ "102", "postgres: ***" },
		{ "400", "node *** --password=***" },
	};
	struct plan plan = { NULL, 0, 0 };
	struct spec spec;
	struct errbuf err;
	struct result *res;
	size_t i, k, seen = 0;

	CHECK(load_files("probe-redact", files, &spec, &err) == 0, "%s", err.msg);
	probe_ports.plan(&spec, &plan);
	res = xcalloc(plan.n + 1, sizeof(*res));
	runner_run(&spec, &plan, clock_ms() + 5000, 0, res);
	for (i = 0; i < plan.n; i++) {
		const cJSON *h;

		cJSON_ArrayForEach(h, cJSON_GetObjectItem(res[i].data, "holders")) {
			char pid[16];

			snprintf(pid, sizeof(pid), "%d",
				 (int)cJSON_GetObjectItem(h, "pid")->valuedouble);
			for (k = 0; k < ARRAY_SIZE(want); k++) {
				if (strcmp(pid, want[k][0]))
					continue;
				CHECK_STR(cJSON_GetObjectItem(h, "cmdline")->valuestring,
					  want[k][1], "pid %s", pid);
				seen++;
			}
		}
		result_release(&res[i]);
	}
	CHECK_INT(seen, ARRAY_SIZE(want), "every holder looked at");
	free(res);
	plan_release(&plan);
	spec_release(&spec);
}

void test_main(void)
{
	/* read once per process: before anything asks for it */
	setenv("ENVPREFLIGHT_PROC_ROOT", PROC_FIX "/ports", 1);
	test_compose_rows();
	test_compose_files();
	test_compose_cap();
	test_compose_others();
	test_compose_spec_file();
	test_url_rows();
	test_urls_configured();
	test_urls_cap();
	test_early_stop();
	test_probe();
	test_probe_many();
	test_probe_redact();
}
