/* mcp_stdio.c - `envpreflight mcp`: the stdio transport of the Model
 * Context Protocol (basic/transports: one JSON-RPC message per line on
 * stdin and stdout, nothing else on stdout, logs on stderr).
 *
 * stdout carries only protocol messages: the protocol is written to a
 * private copy of descriptor 1, and descriptor 1 itself is pointed at
 * stderr, so that nothing else the process might print can corrupt it.
 *
 * Signals: SIGTERM, SIGINT and SIGHUP are taken by signals.c's thread,
 * as on the command line, at any time: it stops new children, kills the
 * children of the call in hand (a version query, a setsid grandchild) and
 * ends the server, exit 0, within SIGNALS_REAP_MS, without answering that
 * call.  Waiting for the call to end instead left its children running
 * when the client escalated to SIGKILL; and SIGHUP (a closed terminal, a
 * harness's session ending) had its default action, which killed the
 * server and left them to PID 1.  A response is never cut by the end:
 * signals_gate and signals_hold around each write.
 */
#include "mcp.h"
#include "audit.h"
#include "cliopt.h"
#include "saferead.h"
#include "signals.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A line longer than this is answered with a parse error and dropped. */
#define MCP_LINE_MAX (4 * 1024 * 1024)

static void usage(FILE *out)
{
	fputs("usage: envpreflight mcp [OPTIONS]\n"
	      "Serve the audit over the Model Context Protocol on stdin/stdout\n"
	      "(JSON-RPC 2.0, one message per line): the tools audit and list_probes.\n"
	      "A dir argument may not leave the directory the server is started in.\n"
	      "\n"
	      "      --allow-dir=PATH      let dir arguments lead to PATH too (repeatable)\n"
	      "      --no-config           ignore the user's config.ini\n"
	      "  -h, --help                print this help and exit\n",
	      out);
}

struct mcp_opts {
	char **allow;
	size_t nallow;
	int no_config;
};

/* A usage error: "envpreflight: mcp: MESSAGE" on stderr (cleaned). */
static int opts_fail_msg(const char *msg)
{
	char *clean = text_clean(msg);

	fprintf(stderr, "envpreflight: mcp: %s\nTry 'envpreflight mcp --help'.\n",
		clean);
	free(clean);
	return 2;
}

/* A usage error: "envpreflight: mcp: BEFORE'ARG'AFTER" on stderr. */
static int opts_fail(const char *before, const char *arg, const char *after)
{
	struct buf b = BUF_INIT;

	buf_printf(&b, "%s'%s'%s", before, arg, after);
	opts_fail_msg(buf_str(&b));
	buf_release(&b);
	return 2;
}

/* -1 to go on, else the exit status. */
static int parse_options(int argc, char **argv, struct mcp_opts *o)
{
	enum { OPT_ALLOW = 256, OPT_NO_CONFIG };
	static const struct option longopts[] = {
		{ "allow-dir", required_argument, NULL, OPT_ALLOW },
		{ "no-config", no_argument, NULL, OPT_NO_CONFIG },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	static const char optstring[] = ":h";
	struct buf b = BUF_INIT;
	int c, n;

	opterr = 0;
	for (n = 0; (c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1; n++) {
		char *real;

		switch (c) {
		case OPT_ALLOW:
			/* canonical now, so that a symlink swapped later does not
			 * move what is allowed */
			real = realpath(optarg, NULL);
			if (!real)
				return opts_fail("--allow-dir: ", optarg,
						 " is not a directory that exists");
			o->allow = xrealloc(o->allow, (o->nallow + 1) * sizeof(*o->allow));
			o->allow[o->nallow++] = real;
			break;
		case OPT_NO_CONFIG:
			o->no_config = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:	/* '?' or ':' */
			cliopt_error(&b, argc, argv, optstring, longopts, n, c);
			opts_fail_msg(buf_str(&b));
			buf_release(&b);
			return 2;
		}
	}
	if (optind < argc)
		return opts_fail("unexpected argument ", argv[optind],
				 " (the directory is each call's dir argument)");
	return -1;
}

/* Answer one line (a trailing CR dropped, a blank line ignored). */
static int serve_line(struct mcp_server *s, int out, char *line, size_t len)
{
	char *resp;
	int rc = 0;

	if (len && line[len - 1] == '\r')
		len--;
	if (!len)
		return 0;
	resp = mcp_handle(s, line, len);
	if (resp) {
		size_t n = strlen(resp);

		signals_gate();	/* not a line cut by a signal's end */
		signals_hold();
		rc = write_all(out, resp, n) < 0 || write_all(out, "\n", 1) < 0 ? -1 : 0;
		signals_release();
		free(resp);
	}
	return rc;
}

static int serve_too_long(struct mcp_server *s, int out)
{
	/* what JSON-RPC says of a message that cannot be parsed */
	static const char msg[] = "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":"
		"{\"code\":-32700,\"message\":\"parse error: a message longer than "
		"4194304 bytes\"}}\n";

	(void)s;
	return write_all(out, msg, sizeof(msg) - 1);
}

/* Read lines from fd 0 until end of input or an output error (a signal
 * ends the process from signals.c's thread).  threads_ok 0: no thread
 * watches for signals, they stay blocked, and are looked at here between
 * reads, every 100 ms. */
static int serve(struct mcp_server *s, int out, int threads_ok)
{
	struct buf in = BUF_INIT;
	size_t scanned = 0;
	int discarding = 0, rc = 0;

	for (;;) {
		struct pollfd pfd = { 0, POLLIN, 0 };
		char chunk[65536];
		ssize_t n;
		char *nl;

		if (!threads_ok) {
			signals_act_pending();
			if (poll(&pfd, 1, 100) == 0)
				continue;
		}
		n = read(0, chunk, sizeof(chunk));
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0) {	/* the end of input: a last line without \n */
			if (in.len && !discarding)
				rc = serve_line(s, out, in.s, in.len);
			break;
		}
		buf_add(&in, chunk, (size_t)n);
		while ((nl = memchr(in.s + scanned, '\n', in.len - scanned)) != NULL) {
			size_t len = (size_t)(nl - in.s);

			if (discarding)
				discarding = 0;
			else if ((rc = serve_line(s, out, in.s, len)) < 0)
				goto out;	/* the client is gone: exit 1 */
			memmove(in.s, nl + 1, in.len - len - 1);
			in.len -= len + 1;
			in.s[in.len] = '\0';
			scanned = 0;
			if (!threads_ok)
				signals_act_pending();
		}
		scanned = in.len;
		if (in.len > MCP_LINE_MAX) {
			if (!discarding && (rc = serve_too_long(s, out)) < 0)
				goto out;
			discarding = 1;
			in.len = scanned = 0;
		}
	}
out:
	buf_release(&in);
	return rc;
}

int mcp_main(int argc, char **argv)
{
	struct mcp_opts o;
	struct mcp_config mc;
	struct config cfg;
	struct errbuf err;
	struct mcp_server *s;
	char *root;
	int rc, out, threads_ok;
	size_t i;

	memset(&o, 0, sizeof(o));
	rc = parse_options(argc, argv, &o);
	if (rc >= 0)
		goto done;
	root = realpath(".", NULL);
	if (!root) {
		perror("envpreflight: mcp: the current directory");
		rc = 2;
		goto done;
	}
	if (!o.no_config && config_load(&cfg, &err) < 0) {
		char *clean = text_clean(err.msg);

		fprintf(stderr, "envpreflight: mcp: %s (--no-config ignores it)\n", clean);
		free(clean);
		free(root);
		rc = 2;
		goto done;
	}
	/* the protocol on a private descriptor; stray output to stderr */
	out = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	if (out < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		perror("envpreflight: mcp: stdout");
		rc = 2;
		goto release;
	}
	signal(SIGPIPE, SIG_IGN);	/* a client gone is a write error */
	/* before any thread or child: a stop ends the children, exit 0 */
	signals_exit_status(0);
	threads_ok = signals_guard() == 0;

	memset(&mc, 0, sizeof(mc));
	mc.root = root;
	mc.allow = o.allow;
	mc.nallow = o.nallow;
	mc.cfg = o.no_config ? NULL : &cfg;
	s = mcp_new(&mc);
	rc = serve(s, out, threads_ok) < 0 ? 1 : 0;
	mcp_free(s);
	close(out);
release:
	if (!o.no_config)
		config_release(&cfg);
	free(root);
done:
	for (i = 0; i < o.nallow; i++)
		free(o.allow[i]);
	free(o.allow);
	return rc;
}
