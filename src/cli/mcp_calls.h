/* mcp_calls.h - the calls in flight of `envpreflight mcp`, and the
 * server's state the transport (mcp_stdio.c) and they share.
 *
 * An audit call runs in a process of its own, forked from the server
 * (one thread, no child but its calls' processes), as the command line
 * runs an audit: signals.c watching, spawnrun's children, its own
 * deadline.  Its pipe brings back its notifications and its response.
 * A process a call is what makes the call's children its own: a
 * cancellation (SIGTERM to it) ends them as a signal ends the command
 * line's, and nothing of one call can be taken for another's.
 */
#ifndef EP_MCP_CALLS_H
#define EP_MCP_CALLS_H

#include "mcp.h"
#include "util.h"

#include <sys/types.h>

/* How many audit calls run at once; more wait in line, in the order they
 * came.  The line is bounded too: past MCP_QUEUE_MAX calls or
 * MCP_QUEUE_BYTES of them, or MCP_OUT_MAX bytes not yet taken by the
 * client, no more input is read (the pipe's back pressure reaches the
 * client) until there is room again, so that memory stays bounded
 * whatever is sent. */
#define MCP_CALLS_MAX 4
#define MCP_QUEUE_MAX 1024
#define MCP_QUEUE_BYTES (16 << 20)
#define MCP_OUT_MAX (16 << 20)
/* How long the end (a signal, the client gone) waits for the calls'
 * processes to end their children and exit, and for a response being
 * written to be taken, before it kills what is left. */
#define MCP_STOP_MS 1000

/* A call's process writes notifications, then one response, each line
 * after a byte that says which, so that the server knows the call is
 * answered without reading the JSON. */
#define LINE_NOTIFICATION 'n'
#define LINE_RESPONSE 'r'

struct call {
	char *id;		/* the request's id, as JSON text */
	char *msg;		/* the request, until its process starts */
	size_t len;
	pid_t pid;		/* its process, once started; 0 before */
	int fd;			/* the read end of its output; -1 */
	struct buf part;	/* output not yet a whole line */
	int status;		/* the wait status, once reaped */
	unsigned reaped:1;
	unsigned eof:1;		/* its pipe is at its end */
	unsigned cancelled:1;	/* nothing more of it is sent */
	unsigned answered:1;	/* its response was sent on */
};

struct server {
	struct mcp_server *mcp;
	pid_t self;
	int out;		/* the protocol's descriptor */
	int out_polled;		/* out is non-blocking: written on POLLOUT */
	struct buf outq;	/* written to out as it takes it */
	int failed;		/* out could not be written: exit 1 */
	int sfd;		/* a signalfd: SIGCHLD and the stop signals */
	int stop_sig;		/* the stop signal that came, or 0 */
	struct call *calls;	/* running first come, then waiting */
	size_t ncalls, nrunning, queued_bytes;
};

/* The client's output: out_line queues a whole line (a line end added)
 * and, when out blocks, writes it; out_flush writes what out takes now;
 * out_take sends line (may be NULL) and frees it.  A write error sets
 * sv->failed. */
void out_flush(struct server *sv);
void out_line(struct server *sv, const char *line, size_t len);
void out_take(struct server *sv, char *line);

/* A call whose arguments are good (mcp_take's call_id, taken) joins the
 * line; calls_start starts what the line and MCP_CALLS_MAX allow. */
void call_queue(struct server *sv, char *id, const char *msg, size_t len);
void calls_start(struct server *sv);
/* The call in progress with this id (JSON text), not cancelled, or NULL. */
struct call *call_find(struct server *sv, const char *id);
/* Relay what a call's process wrote (drain: all of it, the call is over;
 * else up to MCP_OUT_MAX waiting for the client). */
void call_read(struct server *sv, struct call *c, int drain);
/* Reap what ended: a call whose process is gone is over, and answered
 * with an error when it never answered (nor was cancelled). */
void calls_reap(struct server *sv);
/* Stop a call: one waiting is dropped, one running is sent SIGTERM;
 * nothing more of it is sent. */
void call_cancel(struct server *sv, struct call *c);
/* The end: every call stopped, their processes given MCP_STOP_MS, then
 * killed, and what they left killed too. */
void server_stop(struct server *sv);

#endif
