/* test_docker.c - the reply parser, table-driven, and docker_query against
 * a fake daemon served by a thread on a real unix socket. */
#include "test.h"
#include "docker.h"
#include "util.h"

#include <errno.h>
#include <grp.h>
#include <poll.h>
#include <pthread.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#define BODY "{\"Platform\":{\"Name\":\"Docker Engine - Community\"}," \
	"\"Version\":\"24.0.7\",\"ApiVersion\":\"1.43\",\"Os\":\"linux\"}"

static const char *const state_names[] = {
	"ok", "no-socket", "down", "denied", "bad-reply", "timeout",
	"unsupported-host",
};

static const char *state_name(int s)
{
	return s >= 0 && s < (int)ARRAY_SIZE(state_names) ? state_names[s] : "?";
}

/* tmpl with "Content-Length: #" given the real length of what follows the
 * blank line; a new string. */
static char *with_length(const char *tmpl)
{
	const char *hash = strstr(tmpl, "Content-Length: #");
	const char *body = strstr(tmpl, "\r\n\r\n");
	struct buf b = BUF_INIT;

	if (!hash || !body)
		return xstrdup(tmpl);
	hash += strlen("Content-Length: ");
	buf_add(&b, tmpl, (size_t)(hash - tmpl));
	buf_printf(&b, "%zu", strlen(body + 4));
	buf_puts(&b, hash + 1);
	return buf_detach(&b);
}

/* ---- the parser ---- */

struct parse_row {
	const char *reply;	/* "Content-Length: #" is filled in */
	int state;
	const char *version, *api, *detail;
};

static void test_parse(void)
{
	static const struct parse_row rows[] = {
		{ "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
		  "Content-Length: #\r\n\r\n" BODY,
		  DOCKER_OK, "24.0.7", "1.43", NULL },
		{ "HTTP/1.1 200 OK\ncontent-length: 15\n\n{\"Version\":\"1\"}",
		  DOCKER_OK, "1", NULL, NULL },
		{ "HTTP/1.1 200\r\nContent-Length: 15\r\n\r\n{\"Version\":\"1\"}",
		  DOCKER_OK, "1", NULL, NULL },
		{ "HTTP/1.0 200 OK\r\n\r\n{\"Version\":\"2\",\"ApiVersion\":\"1.4\"}",
		  DOCKER_OK, "2", "1.4", NULL },
		{ "HTTP/1.1 200 OK\r\nContent-Length: 15\r\n\r\n{\"Version\":\"1\"}junk",
		  DOCKER_OK, "1", NULL, NULL },
		{ "HTTP/1.1 200 OK\r\nContent-Length: 15\r\nContent-Length: 15\r\n\r\n"
		  "{\"Version\":\"1\"}", DOCKER_OK, "1", NULL, NULL },
		{ "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
		  "7\r\n{\"Versi\r\n8\r\non\":\"1\"}\r\n0\r\n\r\n",
		  DOCKER_OK, "1", NULL, NULL },
		{ "HTTP/1.1 200 OK\r\nTRANSFER-ENCODING:  Chunked \r\n\r\n"
		  "F;name=value\r\n{\"Version\":\"1\"}\r\n0\r\nX-Trailer: y\r\n\r\n",
		  DOCKER_OK, "1", NULL, NULL },
		{ "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n"
		  "Content-Length: 3\r\n\r\nf\r\n{\"Version\":\"1\"}\r\n0\r\n",
		  DOCKER_OK, "1", NULL, NULL },
		{ "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
		  "f\r\n{\"Version\":\"1\"}\r\n",
		  DOCKER_BAD_REPLY, NULL, NULL,
		  "malformed reply from the daemon: truncated chunked body" },
		{ "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
		  DOCKER_BAD_REPLY, NULL, NULL,
		  "malformed reply from the daemon: bad chunk size" },
		{ "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
		  "fffffffffff\r\n", DOCKER_BAD_REPLY, NULL, NULL,
		  "malformed reply from the daemon: bad chunk size" },
		{ "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
		  "2\r\n{}X0\r\n\r\n", DOCKER_BAD_REPLY, NULL, NULL,
		  "malformed reply from the daemon: chunk not followed by a line end" },
		{ "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
		  "20\r\n{}", DOCKER_BAD_REPLY, NULL, NULL,
		  "malformed reply from the daemon: truncated chunk" },
		{ "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n",
		  DOCKER_BAD_REPLY, NULL, NULL,
		  "malformed reply from the daemon: unsupported Transfer-Encoding" },
		{ "HTTP/1.1 200 OK\r\nContent-Length: 15\r\nContent-Length: 16\r\n\r\n"
		  "{\"Version\":\"1\"}", DOCKER_BAD_REPLY, NULL, NULL,
		  "malformed reply from the daemon: bad Content-Length" },
		{ "HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\n{}",
		  DOCKER_BAD_REPLY, NULL, NULL,
		  "malformed reply from the daemon: bad Content-Length" },
		{ "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n{}",
		  DOCKER_BAD_REPLY, NULL, NULL,
		  "malformed reply from the daemon: bad Content-Length" },
		{ "HTTP/1.1 200 OK\r\nContent-Length: 99999999999\r\n\r\n{}",
		  DOCKER_BAD_REPLY, NULL, NULL,
		  "malformed reply from the daemon: bad Content-Length" },
		{ "HTTP/1.1 200 OK\r\nContent-Length: 40\r\n\r\n{\"Version\":\"1\"}",
		  DOCKER_BAD_REPLY, NULL, NULL,
		  "malformed reply from the daemon: truncated body" },
		{ "HTTP/1.1 200 OK\r\nContent-Length: 15\r\n",
		  DOCKER_BAD_REPLY, NULL, NULL,
		  "malformed reply from the daemon: truncated headers" },
		{ "HTTP/1.1 200 OK\r\nno colon here\r\n\r\n",
		  DOCKER_BAD_REPLY, NULL, NULL,
		  "malformed reply from the daemon: malformed header line" },
		{ "HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n",
		  DOCKER_BAD_REPLY, NULL, NULL,
		  "malformed reply from the daemon: malformed header line" },
		{ "HTTP/2 200\r\n\r\n{}", DOCKER_BAD_REPLY, NULL, NULL,
		  "malformed reply from the daemon: not an HTTP reply" },
		{ "HTTP/1.1 20 OK\r\n\r\n{}", DOCKER_BAD_REPLY, NULL, NULL,
		  "malformed reply from the daemon: not an HTTP reply" },
		{ "HTTP/1.1 2000 OK\r\n\r\n{}", DOCKER_BAD_REPLY, NULL, NULL,
		  "malformed reply from the daemon: not an HTTP reply" },
		{ "hello\n", DOCKER_BAD_REPLY, NULL, NULL,
		  "malformed reply from the daemon: not an HTTP reply" },
		{ "HTTP/1.1 200 OK", DOCKER_BAD_REPLY, NULL, NULL,
		  "malformed reply from the daemon: truncated status line" },
		{ "", DOCKER_BAD_REPLY, NULL, NULL,
		  "malformed reply from the daemon: empty reply" },
		{ "HTTP/1.1 404 Not Found\r\nContent-Length: #\r\n\r\n"
		  "{\"message\":\"page not found\"}", DOCKER_BAD_REPLY, NULL, NULL,
		  "the daemon answered HTTP 404: page not found" },
		{ "HTTP/1.1 500 Internal Server Error\r\nContent-Length: #\r\n\r\n"
		  "{\"message\":\"boom\\u001b[2J\"}", DOCKER_BAD_REPLY, NULL, NULL,
		  "the daemon answered HTTP 500: boom?[2J" },
		{ "HTTP/1.1 500 Internal Server Error\r\n\r\nnot json",
		  DOCKER_BAD_REPLY, NULL, NULL, "the daemon answered HTTP 500" },
		{ "HTTP/1.1 200 OK\r\n\r\nnot json", DOCKER_BAD_REPLY, NULL, NULL,
		  "the daemon's /version reply is not a JSON object" },
		{ "HTTP/1.1 200 OK\r\n\r\n[\"24.0.7\"]", DOCKER_BAD_REPLY, NULL, NULL,
		  "the daemon's /version reply is not a JSON object" },
		{ "HTTP/1.1 200 OK\r\n\r\n{\"Version\":24}", DOCKER_BAD_REPLY,
		  NULL, NULL, "the daemon's /version reply has no 'Version'" },
		{ "HTTP/1.1 200 OK\r\n\r\n{\"ApiVersion\":\"1.43\"}",
		  DOCKER_BAD_REPLY, NULL, "1.43",
		  "the daemon's /version reply has no 'Version'" },
		{ "HTTP/1.1 200 OK\r\n\r\n{\"Version\":\"\"}", DOCKER_BAD_REPLY,
		  NULL, NULL, "the daemon's /version reply has no 'Version'" },
		{ "HTTP/1.1 200 OK\r\n\r\n{\"Version\":\"24\\u001b[31m\\n\"}",
		  DOCKER_OK, "24?[31m?", NULL, NULL },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct parse_row *row = &rows[i];
		char *reply = with_length(row->reply);
		struct docker_info d;
		int rc;

		rc = docker_parse_reply(reply, strlen(reply), &d);
		CHECK(rc == row->state && d.state == row->state,
		      "row %zu: %s: %s", i, state_name(d.state),
		      d.detail ? d.detail : "");
		CHECK_STR(d.version, row->version, "row %zu", i);
		CHECK_STR(d.api_version, row->api, "row %zu", i);
		CHECK_STR(d.detail, row->detail, "row %zu", i);
		CHECK(d.socket_path == NULL, "row %zu", i);
		docker_info_release(&d);
		free(reply);
	}
}

/* ---- a fake daemon ---- */

struct daemon {
	int lfd;
	const char *reply;	/* NULL: never answer */
	size_t len;
	size_t piece;		/* write in pieces this big (0: at once) */
	int hold;		/* keep the connection open after replying */
	char request[2048];
	size_t request_len;
	pthread_t thread;
};

/* Wait up to ms for fd to be readable. */
static int readable(int fd, int ms)
{
	struct pollfd pf = { .fd = fd, .events = POLLIN };

	return poll(&pf, 1, ms) > 0;
}

static void *daemon_main(void *arg)
{
	struct daemon *d = arg;
	size_t off = 0;
	int c;

	if (!readable(d->lfd, 5000))
		return NULL;
	c = accept4(d->lfd, NULL, NULL, SOCK_CLOEXEC);
	if (c < 0)
		return NULL;
	while (d->request_len < sizeof(d->request) - 1 && readable(c, 5000)) {
		ssize_t n = recv(c, d->request + d->request_len,
				 sizeof(d->request) - 1 - d->request_len, 0);

		if (n <= 0)
			break;
		d->request_len += (size_t)n;
		d->request[d->request_len] = '\0';
		if (strstr(d->request, "\r\n\r\n"))
			break;
	}
	while (d->reply && off < d->len) {
		size_t n = d->piece && d->piece < d->len - off ? d->piece
							       : d->len - off;
		ssize_t w = send(c, d->reply + off, n, MSG_NOSIGNAL);

		if (w <= 0)
			break;
		off += (size_t)w;
		if (d->piece)
			poll(NULL, 0, 2);
	}
	if (!d->reply || d->hold) {
		char tmp[256];

		/* until the client gives up and closes */
		while (readable(c, 5000) && recv(c, tmp, sizeof(tmp), 0) > 0)
			;
	}
	close(c);
	return NULL;
}

/* A listening unix socket at path, or -1. */
static int listen_at(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	unlink(path);
	if (strlen(path) >= sizeof(sa.sun_path))
		return -1;
	memcpy(sa.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(fd, 4) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

struct serve_row {
	const char *name;
	const char *reply;	/* "Content-Length: #" filled in; NULL: silent */
	size_t piece;
	int hold;
	double budget_ms;
	int state;
	const char *version, *api;
	const char *detail;	/* NULL: not compared */
};

static void run_served(const char *dir, const struct serve_row *row,
		       const char *reply, size_t len)
{
	char *sock = path_join(dir, "docker.sock");
	struct buf host = BUF_INIT;
	struct daemon d = { .reply = reply, .len = len, .piece = row->piece,
			    .hold = row->hold };
	struct docker_info info;

	d.lfd = listen_at(sock);
	CHECK(d.lfd >= 0, "%s: listen on %s", row->name, sock);
	if (d.lfd < 0) {
		free(sock);
		return;
	}
	pthread_create(&d.thread, NULL, daemon_main, &d);
	buf_printf(&host, "unix://%s", sock);
	docker_query(host.s, clock_ms() + row->budget_ms, &info);
	pthread_join(d.thread, NULL);
	close(d.lfd);
	unlink(sock);

	CHECK(info.state == row->state, "%s: %s: %s", row->name,
	      state_name(info.state), info.detail ? info.detail : "");
	CHECK_STR(info.version, row->version, "%s", row->name);
	CHECK_STR(info.api_version, row->api, "%s", row->name);
	CHECK_STR(info.socket_path, sock, "%s", row->name);
	if (row->detail)
		CHECK_STR(info.detail, row->detail, "%s", row->name);
	CHECK(!strncmp(d.request, "GET /version HTTP/1.1\r\n", 23) &&
	      strstr(d.request, "\r\nHost: ") &&
	      strstr(d.request, "\r\nConnection: close\r\n"),
	      "%s: request \"%s\"", row->name, d.request);
	docker_info_release(&info);
	buf_release(&host);
	free(sock);
}

static void test_served(const char *dir)
{
	static const struct serve_row rows[] = {
		{ "content-length", "HTTP/1.1 200 OK\r\nContent-Length: #\r\n\r\n"
		  BODY, 0, 0, 3000, DOCKER_OK, "24.0.7", "1.43", NULL },
		{ "chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
		  "7\r\n{\"Versi\r\n21\r\non\":\"25.0.1\",\"ApiVersion\":\"1.44\"}"
		  "\r\n0\r\n\r\n", 0, 0, 3000, DOCKER_OK, "25.0.1", "1.44", NULL },
		{ "chunked in pieces", "HTTP/1.1 200 OK\r\nTransfer-Encoding: "
		  "chunked\r\n\r\n7\r\n{\"Versi\r\n21\r\non\":\"25.0.1\","
		  "\"ApiVersion\":\"1.44\"}\r\n0\r\n\r\n", 5, 0, 3000, DOCKER_OK,
		  "25.0.1", "1.44", NULL },
		/* complete by Content-Length: no need to wait for the close */
		{ "kept open", "HTTP/1.1 200 OK\r\nContent-Length: #\r\n\r\n" BODY,
		  0, 1, 3000, DOCKER_OK, "24.0.7", "1.43", NULL },
		{ "chunked kept open", "HTTP/1.1 200 OK\r\nTransfer-Encoding: "
		  "chunked\r\n\r\n7\r\n{\"Versi\r\n21\r\non\":\"25.0.1\","
		  "\"ApiVersion\":\"1.44\"}\r\n0\r\n\r\n", 0, 1, 3000, DOCKER_OK,
		  "25.0.1", "1.44", NULL },
		{ "read to close", "HTTP/1.0 200 OK\r\n\r\n" BODY, 3, 0, 3000,
		  DOCKER_OK, "24.0.7", "1.43", NULL },
		{ "500", "HTTP/1.1 500 Internal Server Error\r\nContent-Length: #"
		  "\r\n\r\n{\"message\":\"Error response from daemon\"}", 0, 0,
		  3000, DOCKER_BAD_REPLY, NULL, NULL,
		  "the daemon answered HTTP 500: Error response from daemon" },
		{ "garbage", "\x01\x02 not http at all\n\n", 0, 0, 3000,
		  DOCKER_BAD_REPLY, NULL, NULL,
		  "malformed reply from the daemon: not an HTTP reply" },
		{ "silent", NULL, 0, 0, 300, DOCKER_TIMEOUT, NULL, NULL,
		  "the daemon did not answer before the deadline" },
		{ "half a body, kept open", "HTTP/1.1 200 OK\r\nContent-Length: "
		  "200\r\n\r\n{\"Version\":", 0, 1, 300, DOCKER_TIMEOUT, NULL, NULL,
		  "the daemon did not answer before the deadline" },
		{ "half a body, closed", "HTTP/1.1 200 OK\r\nContent-Length: "
		  "200\r\n\r\n{\"Version\":", 0, 0, 3000, DOCKER_BAD_REPLY, NULL,
		  NULL, "malformed reply from the daemon: truncated body" },
		{ "no Version", "HTTP/1.1 200 OK\r\nContent-Length: #\r\n\r\n"
		  "{\"Os\":\"linux\"}", 0, 0, 3000, DOCKER_BAD_REPLY, NULL, NULL,
		  "the daemon's /version reply has no 'Version'" },
	};
	struct serve_row big = {
		"too big", NULL, 0, 1, 3000, DOCKER_BAD_REPLY, NULL, NULL,
		"the daemon's reply is larger than 64 KiB",
	};
	struct buf huge = BUF_INIT;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		char *reply = rows[i].reply ? with_length(rows[i].reply) : NULL;

		run_served(dir, &rows[i], reply, reply ? strlen(reply) : 0);
		free(reply);
	}

	/* no Content-Length to refuse it early: the cap has to do it */
	buf_puts(&huge, "HTTP/1.0 200 OK\r\n\r\n{\"x\":\"");
	while (huge.len < 70 * 1024)
		buf_puts(&huge, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
	run_served(dir, &big, huge.s, huge.len);
	buf_release(&huge);
}

/* ---- sockets that do not answer, and hosts we do not ask ---- */

static void check_state(const char *host, double budget_ms, int want,
			const char *want_path, const char *want_detail)
{
	struct docker_info d;
	int rc = docker_query(host, clock_ms() + budget_ms, &d);

	CHECK(rc == want && d.state == want, "%s: %s: %s", host ? host : "NULL",
	      state_name(d.state), d.detail ? d.detail : "");
	CHECK_STR(d.socket_path, want_path, "%s", host ? host : "NULL");
	if (want_detail)
		CHECK_STR(d.detail, want_detail, "%s", host ? host : "NULL");
	CHECK(want == DOCKER_OK ? !d.detail : d.detail != NULL, "%s: detail",
	      host ? host : "NULL");
	docker_info_release(&d);
}

/* As an unprivileged user, in a child: root walks through mode 000.
 * Returns the state seen, or -1 when it could not be arranged. */
static int query_as_nobody(const char *host)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		struct docker_info d;
		int state;

		if (setgroups(0, NULL) < 0 || setgid(65534) < 0 ||
		    setuid(65534) < 0)
			_exit(100);
		state = docker_query(host, clock_ms() + 300, &d);
		docker_info_release(&d);
		_exit(state);
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(st) && WEXITSTATUS(st) != 100 ? WEXITSTATUS(st) : -1;
}

/* Mode 000: EACCES for anyone but root, so as root the query runs in a
 * child turned into user nobody; a socket of mode 0777 beside it shows
 * that nobody can get that far.  The sockets are in a directory of their
 * own under TMPDIR, open to every user: the scratch directory need not be
 * (a caller's mktemp -d is 0700).  Runs first, while the heap is empty, so
 * that the child leaks nothing it inherited.  Paths on the stack. */
static void test_denied(void)
{
	char dir[80], locked[108], open_sock[108], host[120], ok[120];
	const char *tmp = getenv("TMPDIR");
	int lfd, fd, control;

	if (!tmp || !*tmp)
		tmp = "/tmp";
	if ((size_t)snprintf(dir, sizeof(dir), "%s/ep-docker.XXXXXX", tmp) >=
	    sizeof(dir) || !mkdtemp(dir)) {
		SKIP("the mode 000 row: no directory of its own under %s", tmp);
		return;
	}
	chmod(dir, 0755);
	snprintf(locked, sizeof(locked), "%s/locked.sock", dir);
	snprintf(open_sock, sizeof(open_sock), "%s/open.sock", dir);
	lfd = listen_at(locked);
	fd = listen_at(open_sock);
	CHECK(lfd >= 0 && fd >= 0, "listen %s", locked);
	chmod(locked, 0);
	chmod(open_sock, 0777);
	snprintf(host, sizeof(host), "unix://%s", locked);
	snprintf(ok, sizeof(ok), "unix://%s", open_sock);
	if (geteuid() != 0) {
		check_state(host, 2000, DOCKER_DENIED, locked, NULL);
	} else {
		/* nobody reaches the open socket (and times out there, since
		 * nothing answers): only then does EACCES mean the mode */
		control = query_as_nobody(ok);
		if (control == DOCKER_TIMEOUT)
			CHECK_INT(query_as_nobody(host), DOCKER_DENIED,
				  "mode 000 as nobody");
		else
			SKIP("the mode 000 row: as root, and user nobody cannot "
			     "reach %s (state %d): is %s closed to other users?",
			     dir, control, tmp);
	}
	if (lfd >= 0)
		close(lfd);
	if (fd >= 0)
		close(fd);
	unlink(locked);
	unlink(open_sock);
	rmdir(dir);
}

static void test_unanswered(const char *dir)
{
	char *refused = path_join(dir, "refused.sock");
	char *plain = path_join(dir, "plain-file");
	struct buf h = BUF_INIT;
	int fd;

	/* a leftover socket file: bound, then nobody listens */
	fd = listen_at(refused);
	CHECK(fd >= 0, "listen %s", refused);
	close(fd);
	buf_printf(&h, "unix://%s", refused);
	check_state(h.s, 2000, DOCKER_DOWN, refused, NULL);
	buf_release(&h);

	buf_printf(&h, "unix://%s/missing.sock", dir);
	check_state(h.s, 2000, DOCKER_NO_SOCKET, h.s + 7, NULL);
	buf_release(&h);
	check_state("unix:///nonexistent-dir/docker.sock", 2000,
		    DOCKER_NO_SOCKET, "/nonexistent-dir/docker.sock",
		    "no Docker daemon socket at /nonexistent-dir/docker.sock");

	test_write_str(dir, "plain-file", "not a socket");
	buf_printf(&h, "unix://%s", plain);
	check_state(h.s, 2000, DOCKER_NO_SOCKET, plain, NULL);
	buf_release(&h);

	check_state("tcp://127.0.0.1:2375", 2000, DOCKER_UNSUPPORTED_HOST, NULL,
		    "DOCKER_HOST uses tcp://, which is not supported "
		    "(only unix:// sockets are asked)");
	check_state("ssh://user@host", 2000, DOCKER_UNSUPPORTED_HOST, NULL, NULL);
	check_state("npipe:////./pipe/docker_engine", 2000,
		    DOCKER_UNSUPPORTED_HOST, NULL, NULL);
	check_state("fd://", 2000, DOCKER_UNSUPPORTED_HOST, NULL, NULL);
	check_state("\x1b[2J://x", 2000, DOCKER_UNSUPPORTED_HOST, NULL,
		    "DOCKER_HOST uses ?[2J://, which is not supported "
		    "(only unix:// sockets are asked)");
	check_state("/var/run/docker.sock", 2000, DOCKER_UNSUPPORTED_HOST, NULL,
		    "DOCKER_HOST is not a unix:// address");
	check_state("unix://", 2000, DOCKER_UNSUPPORTED_HOST, "",
		    "DOCKER_HOST names an empty unix socket path");
	buf_puts(&h, "unix:///");
	while (h.len < 200)
		buf_putc(&h, 'x');
	check_state(h.s, 2000, DOCKER_UNSUPPORTED_HOST, h.s + 7,
		    "DOCKER_HOST names too long a unix socket path");
	buf_release(&h);
	check_state("unix:///tmp/\x1b[31m.sock", 2000, DOCKER_UNSUPPORTED_HOST,
		    "/tmp/?[31m.sock", NULL);

	/* a deadline already gone: not even a connect */
	buf_printf(&h, "unix://%s", refused);
	check_state(h.s, -1, DOCKER_TIMEOUT, refused, NULL);
	buf_release(&h);

	free(refused);
	free(plain);
}

static void test_default_host(void)
{
	struct docker_info d;

	/* whatever this machine has: only the path asked is certain */
	docker_query(NULL, clock_ms() + 300, &d);
	CHECK_STR(d.socket_path, "/var/run/docker.sock", "default host");
	CHECK(d.state >= DOCKER_OK && d.state <= DOCKER_UNSUPPORTED_HOST &&
	      d.state != DOCKER_UNSUPPORTED_HOST, "default host: %s",
	      state_name(d.state));
	docker_info_release(&d);
	docker_query("", clock_ms() + 300, &d);
	CHECK_STR(d.socket_path, "/var/run/docker.sock", "empty host");
	docker_info_release(&d);
}

void test_main(void)
{
	static char dir[4096];
	char *real = realpath(test_tmpdir("docker"), NULL);

	if (!real) {
		CHECK(0, "no scratch directory");
		return;
	}
	snprintf(dir, sizeof(dir), "%s", real);
	free(real);
	test_denied();
	test_parse();
	test_served(dir);
	test_unanswered(dir);
	test_default_host();
}
