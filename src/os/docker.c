/* docker.c - see docker.h
 *
 * One GET /version over a non-blocking unix socket, every wait a poll()
 * bounded by the deadline, the reply capped at DOCKER_REPLY_CAP and parsed
 * by a small HTTP/1.x reader (status line, headers, Content-Length, chunked
 * or read-to-close body) before cJSON reads the body.
 */
#include "docker.h"
#include "util.h"

#include <cJSON.h>
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

static const char docker_request[] =
	"GET /version HTTP/1.1\r\n"
	"Host: docker\r\n"
	"User-Agent: envpreflight\r\n"
	"Accept: application/json\r\n"
	"Connection: close\r\n"
	"\r\n";

/* ---- the HTTP reader ---- */

enum { HTTP_BAD = -1, HTTP_MORE = 0, HTTP_DONE = 1 };

struct http_reply {
	int status;
	struct buf body;	/* de-chunked */
	const char *err;	/* static, for HTTP_BAD */
};

/* The line at *pos without its CR LF (or bare LF); 0 when the buffer has
 * no complete line there. */
static int next_line(const char *buf, size_t len, size_t *pos,
		     const char **line, size_t *n)
{
	const char *nl = memchr(buf + *pos, '\n', len - *pos);

	if (!nl)
		return 0;
	*line = buf + *pos;
	*n = (size_t)(nl - *line);
	if (*n && (*line)[*n - 1] == '\r')
		(*n)--;
	*pos = (size_t)(nl - buf) + 1;
	return 1;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* "HTTP/1.x NNN[ reason]" */
static int parse_status_line(const char *l, size_t n, int *status)
{
	if (n < 12 || memcmp(l, "HTTP/1.", 7) || !is_digit(l[7]) ||
	    l[8] != ' ' || !is_digit(l[9]) || !is_digit(l[10]) ||
	    !is_digit(l[11]) || (n > 12 && l[12] != ' '))
		return -1;
	*status = (l[9] - '0') * 100 + (l[10] - '0') * 10 + (l[11] - '0');
	return 0;
}

static int name_is(const char *name, size_t n, const char *want)
{
	return n == strlen(want) && !strncasecmp(name, want, n);
}

/* A decimal Content-Length no larger than the reply cap, or -1. */
static long parse_length(const char *v, size_t n)
{
	long x = 0;
	size_t i;

	if (!n || n > 9)
		return -1;
	for (i = 0; i < n; i++) {
		if (!is_digit(v[i]))
			return -1;
		x = x * 10 + (v[i] - '0');
	}
	return x <= DOCKER_REPLY_CAP ? x : -1;
}

/* A chunk-size line: hex digits, then optional blanks and ";extension". */
static long parse_chunk_size(const char *l, size_t n)
{
	long x = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		char c = l[i];
		int d;

		if (is_digit(c))
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			break;
		x = x * 16 + d;
		if (x > DOCKER_REPLY_CAP)
			return -1;
	}
	if (!i)
		return -1;
	while (i < n && (l[i] == ' ' || l[i] == '\t'))
		i++;
	if (i < n && l[i] != ';')
		return -1;
	return x;
}

static int http_bad(struct http_reply *r, const char *why)
{
	r->err = why;
	return HTTP_BAD;
}

/* HTTP_MORE, or at the end of the input the error why */
static int more(struct http_reply *r, int eof, const char *why)
{
	return eof ? http_bad(r, why) : HTTP_MORE;
}

static int read_chunked(const char *buf, size_t len, size_t pos, int eof,
			struct http_reply *r)
{
	static const char no_crlf[] = "chunk not followed by a line end";

	for (;;) {
		const char *l;
		size_t n;
		long size;

		if (!next_line(buf, len, &pos, &l, &n))
			return more(r, eof, "truncated chunked body");
		size = parse_chunk_size(l, n);
		if (size < 0)
			return http_bad(r, "bad chunk size");
		if (!size) {
			/* trailers, up to an empty line; a peer that closes
			 * right after the last chunk has said all it will */
			for (;;) {
				if (!next_line(buf, len, &pos, &l, &n))
					return eof ? HTTP_DONE : HTTP_MORE;
				if (!n)
					return HTTP_DONE;
			}
		}
		if (len - pos < (size_t)size + 1)
			return more(r, eof, "truncated chunk");
		buf_add(&r->body, buf + pos, (size_t)size);
		pos += (size_t)size;
		if (buf[pos] == '\n') {
			pos++;
		} else if (buf[pos] == '\r') {
			if (len - pos < 2)
				return more(r, eof, "truncated chunk");
			if (buf[pos + 1] != '\n')
				return http_bad(r, no_crlf);
			pos += 2;
		} else {
			return http_bad(r, no_crlf);
		}
	}
}

/* Parse buf as far as it goes: HTTP_DONE with status and body, HTTP_MORE
 * when more bytes are needed (never with eof), or HTTP_BAD with err. */
static int http_parse(const char *buf, size_t len, int eof,
		      struct http_reply *r)
{
	const char *l;
	size_t n, pos = 0;
	long length = -1;
	int chunked = 0;

	buf_release(&r->body);
	r->err = NULL;
	if (!next_line(buf, len, &pos, &l, &n))
		return more(r, eof, len ? "truncated status line" :
			    "empty reply");
	if (parse_status_line(l, n, &r->status) < 0)
		return http_bad(r, "not an HTTP reply");
	for (;;) {
		const char *colon, *v;
		size_t vn, nn;

		if (!next_line(buf, len, &pos, &l, &n))
			return more(r, eof, "truncated headers");
		if (!n)
			break;
		colon = memchr(l, ':', n);
		if (!colon || colon == l || memchr(l, ' ', (size_t)(colon - l)))
			return http_bad(r, "malformed header line");
		nn = (size_t)(colon - l);
		v = colon + 1;
		vn = n - (size_t)(v - l);
		while (vn && (*v == ' ' || *v == '\t'))
			v++, vn--;
		while (vn && (v[vn - 1] == ' ' || v[vn - 1] == '\t'))
			vn--;
		if (name_is(l, nn, "content-length")) {
			long x = parse_length(v, vn);

			if (x < 0 || (length >= 0 && x != length))
				return http_bad(r, "bad Content-Length");
			length = x;
		} else if (name_is(l, nn, "transfer-encoding")) {
			if (!name_is(v, vn, "chunked"))
				return http_bad(r, "unsupported "
						"Transfer-Encoding");
			chunked = 1;
		}
	}
	if (chunked)
		return read_chunked(buf, len, pos, eof, r);
	if (length >= 0) {
		if (len - pos < (size_t)length)
			return eof ? http_bad(r, "truncated body") : HTTP_MORE;
		buf_add(&r->body, buf + pos, (size_t)length);
		return HTTP_DONE;
	}
	if (!eof)
		return HTTP_MORE;	/* the body runs to the end */
	buf_add(&r->body, buf + pos, len - pos);
	return HTTP_DONE;
}

/* ---- the reply ---- */

static int info_fail(struct docker_info *d, int state, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int info_fail(struct docker_info *d, int state, const char *fmt, ...)
{
	va_list ap;

	free(d->detail);
	va_start(ap, fmt);
	d->detail = xvformat(fmt, ap);
	va_end(ap);
	d->state = state;
	return state;
}

/* The string member key of obj, cleaned, as a new string; NULL if none. */
static char *json_str(const cJSON *obj, const char *key, size_t max)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	char *cut, *clean;

	if (!cJSON_IsString(v) || !v->valuestring || !*v->valuestring)
		return NULL;
	cut = xstrndup(v->valuestring, strnlen(v->valuestring, max));
	clean = text_clean(cut);
	free(cut);
	return clean;
}

static int reply_not_ok(struct docker_info *out, int status, const cJSON *json)
{
	char *msg = json ? json_str(json, "message", 200) : NULL;

	info_fail(out, DOCKER_BAD_REPLY, "the daemon answered HTTP %d%s%s",
		  status, msg ? ": " : "", msg ? msg : "");
	free(msg);
	return out->state;
}

int docker_parse_reply(const char *buf, size_t len, struct docker_info *out)
{
	struct http_reply r = { .body = BUF_INIT };
	cJSON *json = NULL;

	memset(out, 0, sizeof(*out));
	if (http_parse(buf, len, 1, &r) != HTTP_DONE) {
		info_fail(out, DOCKER_BAD_REPLY,
			  "malformed reply from the daemon: %s", r.err);
		goto done;
	}
	json = cJSON_ParseWithLength(buf_str(&r.body), r.body.len);
	if (r.status != 200) {
		reply_not_ok(out, r.status, json);
		goto done;
	}
	if (!cJSON_IsObject(json)) {
		info_fail(out, DOCKER_BAD_REPLY,
			  "the daemon's /version reply is not a JSON object");
		goto done;
	}
	out->version = json_str(json, "Version", 128);
	out->api_version = json_str(json, "ApiVersion", 128);
	if (!out->version) {
		info_fail(out, DOCKER_BAD_REPLY,
			  "the daemon's /version reply has no 'Version'");
		goto done;
	}
	out->state = DOCKER_OK;
done:
	cJSON_Delete(json);
	buf_release(&r.body);
	return out->state;
}

/* ---- the socket ---- */

/* Wait for events on fd until the deadline: 1 ready, 0 timed out. */
static int wait_fd(int fd, short events, double deadline_ms)
{
	for (;;) {
		struct pollfd pf = { .fd = fd, .events = events };
		double left = deadline_ms - clock_ms();
		int rc;

		if (left <= 0)
			return 0;
		rc = poll(&pf, 1, left > 1000 ? 1000 : (int)left + 1);
		if (rc > 0)
			return 1;
		if (rc < 0 && errno != EINTR)
			return 1;	/* let the next call report it */
	}
}

/* A connected non-blocking socket, or -1 with errno (ETIMEDOUT at the
 * deadline). */
static int connect_unix(const char *path, double deadline_ms)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd, saved;

	memcpy(sa.sun_path, path, strlen(path) + 1);	/* length checked */
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	for (;;) {
		int soerr = 0;
		socklen_t sl = sizeof(soerr);

		if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0)
			return fd;
		if (errno == EAGAIN) {
			/* a unix socket with a full backlog: try again */
			if (clock_ms() >= deadline_ms) {
				errno = ETIMEDOUT;
				break;
			}
			poll(NULL, 0, 5);
			continue;
		}
		if (errno != EINPROGRESS && errno != EINTR)
			break;
		if (!wait_fd(fd, POLLOUT, deadline_ms)) {
			errno = ETIMEDOUT;
			break;
		}
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) < 0)
			break;
		if (!soerr)
			return fd;
		errno = soerr;
		break;
	}
	saved = errno;
	close(fd);
	errno = saved;
	return -1;
}

static int connect_failed(struct docker_info *out, int err)
{
	const char *p = out->socket_path;
	struct stat st;
	char tmp[128];

	switch (err) {
	case ENOENT:
	case ENOTDIR:
		/* whether the CLI is installed is the caller's to say: a
		 * missing socket alone does not tell */
		return info_fail(out, DOCKER_NO_SOCKET, "no Docker daemon "
				 "socket at %s", p);
	case EACCES:
	case EPERM:
		return info_fail(out, DOCKER_DENIED, "permission denied on %s "
				 "(is this user in the docker group?)", p);
	case ETIMEDOUT:
		return info_fail(out, DOCKER_TIMEOUT,
				 "no connection to %s before the deadline", p);
	case ECONNREFUSED:
		if (stat(p, &st) == 0 && !S_ISSOCK(st.st_mode))
			return info_fail(out, DOCKER_NO_SOCKET,
					 "%s is not a socket", p);
		return info_fail(out, DOCKER_DOWN, "nothing listens on %s "
				 "(is the docker daemon running?)", p);
	default:
		return info_fail(out, DOCKER_DOWN, "cannot connect to %s: %s",
				 p, strerror_r(err, tmp, sizeof(tmp)));
	}
}

static int send_all(int fd, const char *s, size_t n, double deadline_ms)
{
	while (n) {
		ssize_t w = send(fd, s, n, MSG_NOSIGNAL);

		if (w > 0) {
			s += w;
			n -= (size_t)w;
		} else if (w < 0 && errno == EAGAIN) {
			if (!wait_fd(fd, POLLOUT, deadline_ms)) {
				errno = ETIMEDOUT;
				return -1;
			}
		} else if (!(w < 0 && errno == EINTR)) {
			return -1;
		}
	}
	return 0;
}

/* Read until the reply is complete, the peer closes, the cap or the
 * deadline.  Returns 0 (then *eof says whether the peer closed), or -1
 * with errno (ETIMEDOUT, EMSGSIZE past the cap). */
static int recv_reply(int fd, double deadline_ms, struct buf *in, int *eof)
{
	struct http_reply r = { .body = BUF_INIT };
	char tmp[4096];
	int rc = 0;

	*eof = 0;
	for (;;) {
		ssize_t n;

		if (!wait_fd(fd, POLLIN, deadline_ms)) {
			errno = ETIMEDOUT;
			rc = -1;
			break;
		}
		n = recv(fd, tmp, sizeof(tmp), 0);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0) {	/* a reset after the reply counts as the end */
			*eof = 1;
			break;
		}
		if (in->len + (size_t)n > DOCKER_REPLY_CAP) {
			errno = EMSGSIZE;
			rc = -1;
			break;
		}
		buf_add(in, tmp, (size_t)n);
		if (http_parse(in->s, in->len, 0, &r) != HTTP_MORE)
			break;
	}
	buf_release(&r.body);
	return rc;
}

static int unsupported_host(struct docker_info *out, const char *host)
{
	const char *sep = strstr(host, "://");
	char *raw, *scheme;
	size_t n;

	if (!sep)
		return info_fail(out, DOCKER_UNSUPPORTED_HOST,
				 "DOCKER_HOST is not a unix:// address");
	n = (size_t)(sep - host);
	raw = xstrndup(host, n > 16 ? 16 : n);
	scheme = text_clean(raw);
	free(raw);
	info_fail(out, DOCKER_UNSUPPORTED_HOST, "DOCKER_HOST uses %s://, "
		  "which is not supported (only unix:// sockets are asked)",
		  scheme);
	free(scheme);
	return out->state;
}

/* Talk to the daemon on a connected socket and fill out from its reply. */
static int ask(int fd, double deadline_ms, struct docker_info *out)
{
	struct buf in = BUF_INIT;
	struct docker_info parsed;
	int eof;

	if (send_all(fd, docker_request, sizeof(docker_request) - 1,
		     deadline_ms) < 0) {
		if (errno == ETIMEDOUT)
			return info_fail(out, DOCKER_TIMEOUT, "the daemon "
					 "did not take the request before the "
					 "deadline");
		return info_fail(out, DOCKER_BAD_REPLY,
				 "the daemon closed the connection");
	}
	if (recv_reply(fd, deadline_ms, &in, &eof) < 0) {
		buf_release(&in);
		if (errno == EMSGSIZE)
			return info_fail(out, DOCKER_BAD_REPLY, "the daemon's "
					 "reply is larger than %d KiB",
					 DOCKER_REPLY_CAP / 1024);
		return info_fail(out, DOCKER_TIMEOUT, "the daemon did not "
				 "answer before the deadline");
	}
	docker_parse_reply(buf_str(&in), in.len, &parsed);
	buf_release(&in);
	parsed.socket_path = out->socket_path;
	*out = parsed;
	return out->state;
}

int docker_query(const char *docker_host, double deadline_ms,
		 struct docker_info *out)
{
	struct sockaddr_un sa;
	const char *path;
	int fd;

	memset(out, 0, sizeof(*out));
	if (!docker_host || !*docker_host)
		docker_host = DOCKER_DEFAULT_HOST;
	if (strncmp(docker_host, "unix://", 7))
		return unsupported_host(out, docker_host);
	path = docker_host + 7;
	out->socket_path = text_clean(path);
	if (!*path || strlen(path) >= sizeof(sa.sun_path))
		return info_fail(out, DOCKER_UNSUPPORTED_HOST,
				 "DOCKER_HOST names %s unix socket path",
				 *path ? "too long a" : "an empty");
	if (strcmp(out->socket_path, path))
		return info_fail(out, DOCKER_UNSUPPORTED_HOST, "DOCKER_HOST "
				 "holds control characters or invalid UTF-8");
	if (clock_ms() >= deadline_ms)
		return info_fail(out, DOCKER_TIMEOUT,
				 "the deadline passed before docker was asked");
	fd = connect_unix(path, deadline_ms);
	if (fd < 0)
		return connect_failed(out, errno);
	ask(fd, deadline_ms, out);
	close(fd);
	return out->state;
}

void docker_info_release(struct docker_info *d)
{
	free(d->version);
	free(d->api_version);
	free(d->socket_path);
	free(d->detail);
	memset(d, 0, sizeof(*d));
}
