/* docker.h - ask the docker daemon for its version over its unix socket.
 *
 * Never through the docker CLI: one HTTP request on the socket named by
 * DOCKER_HOST (unix:// only), under a deadline (an absolute clock_ms()
 * value).  Thread-safe; no global state.
 */
#ifndef EP_DOCKER_H
#define EP_DOCKER_H

#include <stddef.h>

#define DOCKER_DEFAULT_HOST "unix:///var/run/docker.sock"
#define DOCKER_REPLY_CAP (64 * 1024)

enum docker_state {
	DOCKER_OK,
	DOCKER_NO_SOCKET,	/* no socket file at the path: no daemon, or
				 * one listening elsewhere (the CLI may well
				 * be installed) */
	DOCKER_DOWN,		/* the socket exists, nobody listens */
	DOCKER_DENIED,		/* EACCES: not in the docker group */
	DOCKER_BAD_REPLY,	/* not HTTP, not 200, not the expected JSON */
	DOCKER_TIMEOUT,		/* no full answer before the deadline */
	DOCKER_UNSUPPORTED_HOST, /* tcp://, ssh://, npipe://, ... */
};

/* Every string is owned (docker_info_release frees them) and may be NULL.
 * version and api_version come from the daemon with control characters
 * replaced; detail says what went wrong in words, for the report. */
struct docker_info {
	int state;		/* enum docker_state */
	char *version;		/* "Version", e.g. "24.0.7" (the server's) */
	char *api_version;	/* "ApiVersion", e.g. "1.43" */
	char *socket_path;	/* the socket asked, when a unix:// host */
	char *detail;		/* NULL when state is DOCKER_OK */
};

/* docker_host: the value of DOCKER_HOST, or NULL or "" for
 * DOCKER_DEFAULT_HOST.  Fills *out (the caller releases it) and returns
 * out->state. */
int docker_query(const char *docker_host, double deadline_ms,
		 struct docker_info *out);

/* The parser behind docker_query, exposed for tests and fuzzing: reads a
 * whole HTTP reply to GET /version (status line, headers, a Content-Length,
 * chunked or read-to-close body) and fills state (DOCKER_OK or
 * DOCKER_BAD_REPLY), version, api_version and detail of *out, which it
 * initialises first.  Returns out->state. */
int docker_parse_reply(const char *buf, size_t len, struct docker_info *out);

void docker_info_release(struct docker_info *d);

#endif
