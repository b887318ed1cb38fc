/* mcp.h - `envpreflight mcp`: the audit as a Model Context Protocol
 * server (JSON-RPC 2.0), for agents and the editors they run in.
 *
 *   mcp.c        one message in, one response out (no I/O of its own):
 *                the lifecycle, version negotiation, tools/list and the
 *                tools audit and list_probes
 *   mcp_stdio.c  the stdio transport (one message per line), the
 *                options, the server's poll loop and its signals
 *   mcp_calls.c  the calls in flight: each audit runs in a process of
 *                its own, so that calls run side by side, a ping is
 *                answered at once, and a cancelled or stopped call ends
 *                with every child it started
 */
#ifndef EP_MCP_H
#define EP_MCP_H

#include <stddef.h>

#include "config.h"

/* The protocol revisions spoken, newest first: an initialize that asks
 * for one of them gets it, any other gets the newest. */
#define MCP_PROTOCOL_LATEST "2025-11-25"

/* The longest wait_ms of the audit tool: as long as its longest deadline. */
#define MCP_WAIT_MAX_MS 600000

struct mcp_config {
	const char *root;	/* canonical: relative dir arguments are
				 * resolved here, and may not leave it */
	char *const *allow;	/* canonical directories a dir argument may
				 * also lead to (--allow-dir), nallow of them */
	size_t nallow;
	const struct config *cfg;	/* the user's defaults, or NULL */
	int no_audit;		/* the audit tool checks its arguments but runs
				 * nothing (a fuzzer's server) */
};

struct mcp_server;

/* A server for cfg, which must outlive it. */
struct mcp_server *mcp_new(const struct mcp_config *cfg);
void mcp_free(struct mcp_server *s);

/*
 * Handle one message: msg is len bytes, one JSON-RPC message without its
 * line end (it need not be NUL-terminated, and may be anything at all).
 * Returns the response as one line of JSON without a line end (a new
 * string the caller frees), or NULL when none is due (a notification, or
 * a response from the client).  Never exits, never prints.
 */
char *mcp_handle(struct mcp_server *s, const char *msg, size_t len);

/* What the transport is to do with one message (mcp_take). */
struct mcp_taken {
	char *response;		/* a line to send now, or NULL */
	char *call_id;		/* an audit call whose arguments are good, to
				 * be run by mcp_handle elsewhere (in a
				 * process of its own): its id as JSON text;
				 * response is NULL then */
	char *cancel_id;	/* notifications/cancelled: the id of the
				 * request to stop, as JSON text */
};

/* mcp_handle, except that an audit call is not run here but handed back
 * (t->call_id), and a cancellation is named; release t after. */
void mcp_take(struct mcp_server *s, const char *msg, size_t len,
	      struct mcp_taken *t);
void mcp_taken_release(struct mcp_taken *t);

/* Where mcp_handle sends a call's notifications (progress during
 * wait_ms, for a call that carries a progressToken): fn gets each as
 * one line of JSON without a line end.  Without it none is sent. */
void mcp_notify_to(struct mcp_server *s, void (*fn)(void *arg, const char *line),
		   void *arg);

/* Requests whose id fn says is busy (the id of a call in progress, as
 * JSON text) are refused, -32600 with id null, whatever their method. */
void mcp_ids_busy(struct mcp_server *s, int (*fn)(void *arg, const char *id),
		  void *arg);

#define MCP_INTERNAL_ERROR (-32603)
#define MCP_INVALID_REQUEST (-32600)
/* A JSON-RPC error response (one line, a new string) to the request
 * whose id is the JSON text id_json (NULL: id null). */
char *mcp_error_line(const char *id_json, int code, const char *msg);

/* `envpreflight mcp [OPTIONS]` (argv[0] is "mcp"): the exit status. */
int mcp_main(int argc, char **argv);

#endif
