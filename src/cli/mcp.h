/* mcp.h - `envpreflight mcp`: the audit as a Model Context Protocol
 * server (JSON-RPC 2.0), for agents and the editors they run in.
 *
 *   mcp.c        one message in, one response out (no I/O of its own):
 *                the lifecycle, version negotiation, tools/list and the
 *                tools audit and list_probes
 *   mcp_stdio.c  the stdio transport (one message per line), the
 *                options; a signal ends it as the command line's do
 *                (signals.c), exit 0
 *
 * Messages are handled one at a time: an audit runs to its deadline
 * before the next message is read.
 */
#ifndef EP_MCP_H
#define EP_MCP_H

#include <stddef.h>

#include "config.h"

/* The protocol revisions spoken, newest first: an initialize that asks
 * for one of them gets it, any other gets the newest. */
#define MCP_PROTOCOL_LATEST "2025-11-25"

/* The longest wait_ms of the audit tool: as long as its longest deadline
 * (messages are handled one at a time). */
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

/* `envpreflight mcp [OPTIONS]` (argv[0] is "mcp"): the exit status. */
int mcp_main(int argc, char **argv);

#endif
