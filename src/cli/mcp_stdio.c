/* mcp_stdio.c - `envpreflight mcp`: the stdio transport of the Model
 * Context Protocol (basic/transports: one JSON-RPC message per line on
 * stdin and stdout, nothing else on stdout, logs on stderr).
 *
 * stdout carries only protocol messages: the protocol is written to a
 * private copy of descriptor 1, and descriptor 1 itself is pointed at
 * stderr, so that nothing else the process might print can corrupt it.
 *
 * The server is one thread around poll(2): the client's input, its
 * output, a signalfd, and one pipe a call.  Every message but a good
 * audit call is answered at once (mcp_take); an audit call runs in a
 * process of its own (mcp_calls.h).  Calls beyond MCP_CALLS_MAX wait in
 * line.
 *
 * Signals: SIGTERM, SIGINT and SIGHUP (those not ignored at the start)
 * stop every call and end the server, exit 0, the calls unanswered; a
 * response being written is finished first, for MCP_STOP_MS at most.
 * The server is its calls' processes' subreaper: what one of them leaves
 * when it has to be killed comes to the server, which kills it.  Should
 * the server be killed outright, each call's process is sent SIGTERM by
 * the kernel (PR_SET_PDEATHSIG) and ends its children.
 */
#include "mcp.h"
#include "mcp_calls.h"
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
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
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

/* ---- the client's messages ------------------------------------------- */

/* mcp_ids_busy's test: the id (JSON text) of a call in progress. */
static int id_busy(void *arg, const char *id)
{
	return call_find(arg, id) != NULL;
}

/* One line from the client (a trailing CR dropped, a blank line ignored). */
static void serve_line(struct server *sv, char *line, size_t len)
{
	struct mcp_taken t;
	struct call *c;

	if (len && line[len - 1] == '\r')
		len--;
	if (!len)
		return;
	mcp_take(sv->mcp, line, len, &t);
	if (t.call_id) {
		call_queue(sv, t.call_id, line, len);
		t.call_id = NULL;
	} else if (t.cancel_id && (c = call_find(sv, t.cancel_id)) != NULL) {
		call_cancel(sv, c);	/* an unknown id: nothing to do */
	}
	if (t.response) {
		out_line(sv, t.response, strlen(t.response));
	}
	mcp_taken_release(&t);
}

static void serve_too_long(struct server *sv)
{
	/* what JSON-RPC says of a message that cannot be parsed */
	static const char msg[] = "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":"
		"{\"code\":-32700,\"message\":\"parse error: a message longer than "
		"4194304 bytes\"}}";

	out_line(sv, msg, sizeof(msg) - 1);
}

struct input {
	struct buf buf;
	size_t scanned;		/* no line end before this */
	int discarding;		/* in a line too long, until its end */
	int eof;
};

/* Read what the client sent and serve each whole line. */
static void input_read(struct server *sv, struct input *in)
{
	char chunk[65536];
	ssize_t n = read(STDIN_FILENO, chunk, sizeof(chunk));
	char *nl;

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {	/* the end of input: a last line without \n */
		if (in->buf.len && !in->discarding)
			serve_line(sv, in->buf.s, in->buf.len);
		in->eof = 1;
		return;
	}
	buf_add(&in->buf, chunk, (size_t)n);
	while ((nl = memchr(in->buf.s + in->scanned, '\n',
			    in->buf.len - in->scanned)) != NULL) {
		size_t len = (size_t)(nl - in->buf.s);

		if (in->discarding)
			in->discarding = 0;
		else
			serve_line(sv, in->buf.s, len);
		memmove(in->buf.s, nl + 1, in->buf.len - len - 1);
		in->buf.len -= len + 1;
		in->buf.s[in->buf.len] = '\0';
		in->scanned = 0;
	}
	in->scanned = in->buf.len;
	if (in->buf.len > MCP_LINE_MAX) {
		if (!in->discarding)
			serve_too_long(sv);
		in->discarding = 1;
		in->buf.len = in->scanned = 0;
	}
}

/* 1 when there is room for more input (see MCP_QUEUE_MAX). */
static int input_room(const struct server *sv)
{
	return sv->ncalls - sv->nrunning < MCP_QUEUE_MAX &&
	       sv->queued_bytes < MCP_QUEUE_BYTES && sv->outq.len < MCP_OUT_MAX;
}

/* Serve until the end of input with every call answered, the client
 * gone (-1), or a stop signal. */
static int serve(struct server *sv)
{
	struct input in;
	int rc = 0;

	memset(&in, 0, sizeof(in));
	for (;;) {
		struct pollfd pfd[3 + MCP_CALLS_MAX];
		struct call *polled[MCP_CALLS_MAX];
		nfds_t n = 0, first_call;
		size_t i, k = 0;

		calls_start(sv);
		if (sv->failed) {
			rc = -1;
			break;
		}
		if (in.eof && !sv->ncalls && !sv->outq.len)
			break;
		pfd[n++] = (struct pollfd){ sv->sfd, POLLIN, 0 };
		pfd[n++] = (struct pollfd){ in.eof || !input_room(sv) ? -1 : STDIN_FILENO,
					    POLLIN, 0 };
		/* always: a client gone (POLLERR, POLLHUP) ends its calls now,
		 * not at the next write */
		pfd[n++] = (struct pollfd){ sv->out, sv->outq.len && sv->out_polled ?
					    POLLOUT : 0, 0 };
		first_call = n;
		for (i = 0; i < sv->ncalls; i++)
			if (sv->calls[i].pid && !sv->calls[i].eof &&
			    sv->outq.len < MCP_OUT_MAX) {
				polled[k++] = &sv->calls[i];
				pfd[n++] = (struct pollfd){ sv->calls[i].fd, POLLIN, 0 };
			}
		if (poll(pfd, n, -1) < 0) {
			if (errno == EINTR)
				continue;
			rc = -1;
			break;
		}
		if (pfd[0].revents) {
			struct signalfd_siginfo si;

			while (read(sv->sfd, &si, sizeof(si)) == sizeof(si))
				if (si.ssi_signo != SIGCHLD)
					sv->stop_sig = (int)si.ssi_signo;
			if (sv->stop_sig)
				break;
		}
		if (pfd[2].revents & (POLLERR | POLLHUP)) {
			sv->failed = 1;
			rc = -1;
			break;
		}
		if (pfd[2].revents)
			out_flush(sv);
		for (i = 0; i < k; i++)
			if (pfd[first_call + i].revents)
				call_read(sv, polled[i], 0);
		calls_reap(sv);
		/* input last: a message may end or move the calls read above */
		if (pfd[1].revents)
			input_read(sv, &in);
	}
	buf_release(&in.buf);
	return rc;
}

/* The descriptor the protocol is written to: a copy of standard output
 * of its own, non-blocking when it is a pipe, a terminal or a socket, so
 * that a client that stops reading (a stopped terminal) blocks neither a
 * ping's answer nor the end.  A pipe or a terminal is opened anew
 * (/proc/self/fd) for a file description of our own: O_NONBLOCK on a
 * shared one would reach whoever shares it.  A regular file is written
 * as it comes. */
static int out_open(int *polled)
{
	struct stat st;
	char path[64];
	int fd;

	*polled = 0;
	if (fstat(STDOUT_FILENO, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", STDOUT_FILENO);
		fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd >= 3) {
			*polled = 1;
			return fd;
		}
		if (fd >= 0)
			close(fd);
	}
	fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	if (fd >= 0 && S_ISSOCK(st.st_mode) &&
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) == 0)
		*polled = 1;
	return fd;
}

/* The signals the server takes on its signalfd: SIGCHLD, and those of
 * SIGTERM, SIGINT and SIGHUP not ignored when it started (nohup). */
static int signals_open(void)
{
	static const int stops[] = { SIGTERM, SIGINT, SIGHUP };
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	for (i = 0; i < ARRAY_SIZE(stops); i++) {
		struct sigaction old;

		if (sigaction(stops[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaddset(&set, stops[i]);
	}
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0)
		return -1;
	return signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
}

int mcp_main(int argc, char **argv)
{
	struct mcp_opts o;
	struct mcp_config mc;
	struct config cfg;
	struct errbuf err;
	struct server sv;
	char *root;
	int rc;
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
	memset(&sv, 0, sizeof(sv));
	sv.self = getpid();
	/* the protocol on a private descriptor; stray output to stderr */
	sv.out = out_open(&sv.out_polled);
	if (sv.out < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		perror("envpreflight: mcp: stdout");
		rc = 2;
		goto release;
	}
	signal(SIGPIPE, SIG_IGN);	/* a client gone is a write error */
	/* the calls' processes are its children; what they leave behind
	 * when killed comes to it, to be killed (strays_end) */
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	sv.sfd = signals_open();
	if (sv.sfd < 0) {
		perror("envpreflight: mcp: signals");
		close(sv.out);
		rc = 2;
		goto release;
	}
	memset(&mc, 0, sizeof(mc));
	mc.root = root;
	mc.allow = o.allow;
	mc.nallow = o.nallow;
	mc.cfg = o.no_config ? NULL : &cfg;
	sv.mcp = mcp_new(&mc);
	mcp_ids_busy(sv.mcp, id_busy, &sv);
	rc = serve(&sv) < 0 ? 1 : 0;
	/* a signal, the client gone, or the end of input with every call
	 * answered (then there is nothing left to stop) */
	server_stop(&sv);
	if (sv.failed)
		rc = 1;
	mcp_free(sv.mcp);
	free(sv.calls);
	buf_release(&sv.outq);
	close(sv.sfd);
	close(sv.out);
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
