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
 * process of its own, forked, as the command line runs one (signals.c
 * watching, spawnrun's children, its own deadline), and its pipe brings
 * its notifications and its response back.  A process a call is what
 * makes the call's children its own: a cancellation (SIGTERM to it) ends
 * them as a signal ends the command line's, and nothing of one call can
 * be taken for another's.  Calls beyond MCP_CALLS_MAX wait in line.
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
#include "audit.h"
#include "cliopt.h"
#include "saferead.h"
#include "signals.h"
#include "spawnrun.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
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

/* ---- the calls in flight ------------------------------------------- */

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

/* Send what out takes now (all of it when out blocks). */
static void out_flush(struct server *sv)
{
	size_t done = 0;

	while (done < sv->outq.len && !sv->failed) {
		ssize_t n = write(sv->out, sv->outq.s + done, sv->outq.len - done);

		if (n > 0)
			done += (size_t)n;
		else if (n < 0 && errno == EINTR)
			continue;
		else if (n < 0 && errno == EAGAIN && sv->out_polled)
			break;
		else
			sv->failed = 1;	/* the client is gone */
	}
	if (sv->failed)
		done = sv->outq.len;
	memmove(sv->outq.s, sv->outq.s + done, sv->outq.len - done);
	sv->outq.len -= done;
}

/* A whole line for the client (a line end is added). */
static void out_line(struct server *sv, const char *line, size_t len)
{
	if (sv->failed)
		return;
	buf_add(&sv->outq, line, len);
	buf_putc(&sv->outq, '\n');
	if (!sv->out_polled)
		out_flush(sv);
}

static void out_take(struct server *sv, char *line)
{
	if (line)
		out_line(sv, line, strlen(line));
	free(line);
}

static struct call *call_find(struct server *sv, const char *id)
{
	size_t i;

	for (i = 0; i < sv->ncalls; i++)
		if (!sv->calls[i].cancelled && !strcmp(sv->calls[i].id, id))
			return &sv->calls[i];
	return NULL;
}

static void call_remove(struct server *sv, struct call *c)
{
	size_t i = (size_t)(c - sv->calls);

	if (c->pid)
		sv->nrunning--;
	else
		sv->queued_bytes -= c->len;
	if (c->fd >= 0)
		close(c->fd);
	free(c->id);
	free(c->msg);
	buf_release(&c->part);
	memmove(c, c + 1, (sv->ncalls - i - 1) * sizeof(*c));
	sv->ncalls--;
}

/* A line of a call's process to the server, fd 3 (see call_child),
 * whole: a signal's end waits for it. */
static void child_line(char tag, const char *line)
{
	signals_gate();
	signals_hold();
	if (write_all(3, &tag, 1) == 0 && write_all(3, line, strlen(line)) == 0)
		write_all(3, "\n", 1);
	signals_release();
}

static void child_notify(void *arg, const char *line)
{
	(void)arg;
	child_line(LINE_NOTIFICATION, line);
}

/* Close every descriptor from `from` on. */
static void close_from(int from)
{
#ifdef SYS_close_range
	if (syscall(SYS_close_range, (unsigned)from, ~0U, 0) == 0)
		return;
#endif
	for (long fd = from, max = sysconf(_SC_OPEN_MAX); fd < max && fd < 65536; fd++)
		close((int)fd);
}

/*
 * The process of one call (forked from the server, which has one thread
 * and no child of its own but its calls' processes, so a fork is safe):
 * the call is handled as the command line runs an audit, signals.c
 * watching SIGTERM, SIGINT and SIGHUP, so that the server's SIGTERM (a
 * cancellation, the server's own end) kills every child it started, and
 * the response is written to fd 3, the server's pipe.  It ends with the
 * server too (PR_SET_PDEATHSIG), should that be killed outright.
 */
static void call_child(struct server *sv, struct call *c, int fd)
{
	struct sigaction dfl;
	sigset_t none;
	char *resp;
	int null;

	prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0);
	if (getppid() != sv->self)
		_exit(0);	/* the server is gone already */
	/* SIGTERM is how the server stops it: never ignored here */
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigaction(SIGTERM, &dfl, NULL);
	sigaction(SIGCHLD, &dfl, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	/* nothing of the client's: not its input, not its output (a call
	 * left running must not keep the client's pipe open) */
	null = open("/dev/null", O_RDONLY);
	if (null < 0 || dup2(null, STDIN_FILENO) < 0 || dup2(fd, 3) < 0)
		_exit(1);
	close_from(4);
	/* its own group: a terminal's Ctrl-C reaches the server, which stops
	 * its calls, not each call's process behind its back */
	setpgid(0, 0);
	signals_exit_status(0);
	/* without the watcher a cancellation could not end its children:
	 * the call ends unanswered, and the server says so */
	if (signals_guard() != 0)
		_exit(1);
	mcp_notify_to(sv->mcp, child_notify, NULL);
	mcp_ids_busy(sv->mcp, NULL, NULL);	/* its own id is the busy one */
	resp = mcp_handle(sv->mcp, c->msg, c->len);
	if (resp)
		child_line(LINE_RESPONSE, resp);
	free(resp);
	signals_exit(0);
}

/* Start the next call waiting, in a process of its own. */
static void call_start(struct server *sv, struct call *c)
{
	int p[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0) {
		out_take(sv, mcp_error_line(c->id, MCP_INTERNAL_ERROR,
					    "the call could not start: no pipe"));
		call_remove(sv, c);
		return;
	}
	fflush(NULL);	/* nothing buffered is written twice */
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		call_child(sv, c, p[1]);
	}
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		out_take(sv, mcp_error_line(c->id, MCP_INTERNAL_ERROR,
					    "the call could not start: no process"));
		call_remove(sv, c);
		return;
	}
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	c->pid = pid;
	c->fd = p[0];
	sv->queued_bytes -= c->len;
	free(c->msg);
	c->msg = NULL;
	sv->nrunning++;
}

static void calls_start(struct server *sv)
{
	while (sv->nrunning < MCP_CALLS_MAX) {
		size_t i;

		for (i = 0; i < sv->ncalls && sv->calls[i].pid; i++)
			;
		if (i == sv->ncalls)
			return;
		call_start(sv, &sv->calls[i]);
	}
}

/* One line of a call's output (its tag first): sent on, unless the call
 * was cancelled or has answered already. */
static void call_line(struct server *sv, struct call *c, const char *line, size_t len)
{
	if (c->cancelled || c->answered || len < 2)
		return;
	if (line[0] == LINE_RESPONSE)
		c->answered = 1;
	else if (line[0] != LINE_NOTIFICATION)
		return;
	out_line(sv, line + 1, len - 1);
}

/* Read what a call's process wrote, until its pipe is empty (or at its
 * end: c->eof), or the client has MCP_OUT_MAX to take (unless drain: the
 * call is over, what it wrote is all there is). */
static void call_read(struct server *sv, struct call *c, int drain)
{
	char chunk[65536];
	ssize_t n = 0;
	char *nl;

	while (!c->eof && (drain || sv->outq.len < MCP_OUT_MAX) &&
	       (n = read(c->fd, chunk, sizeof(chunk))) > 0) {
		size_t from = c->part.len;

		buf_add(&c->part, chunk, (size_t)n);
		while ((nl = memchr(c->part.s + from, '\n', c->part.len - from))) {
			size_t len = (size_t)(nl - c->part.s);

			call_line(sv, c, c->part.s, len);
			memmove(c->part.s, nl + 1, c->part.len - len - 1);
			c->part.len -= len + 1;
			from = 0;
		}
	}
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
		c->eof = 1;
}

static void pause_2ms(void)
{
	const struct timespec ts = { 0, 2000000 };

	nanosleep(&ts, NULL);
}

/* The children the server has that are not a call's process: what a
 * call's process left behind when it was killed (the server is their
 * subreaper).  Each is killed once (with the group it leads), and reaped
 * by its pid alone, never by waitpid(-1), which could take a call's
 * process from calls_reap; a few rounds, as their own children come up
 * in turn, and none for one the kernel holds (state D): it is reaped
 * when it dies, by calls_reap's loop. */
static void strays_end(struct server *sv)
{
	pid_t killed[SPAWN_CHILDREN_MAX], pids[SPAWN_CHILDREN_MAX];
	size_t nkilled = 0, round;

	for (round = 0; round < 50; round++) {
		size_t n = spawn_children(pids), fresh = 0, i, k;

		for (i = 0; i < n; i++) {
			for (k = 0; k < sv->ncalls && sv->calls[k].pid != pids[i]; k++)
				;
			if (k < sv->ncalls)
				continue;
			for (k = 0; k < nkilled && killed[k] != pids[i]; k++)
				;
			if (k < nkilled || nkilled == ARRAY_SIZE(killed))
				continue;
			/* a child of ours, unreaped, so its pid (and the
			 * group it may lead) is its own */
			if (getpgid(pids[i]) == pids[i])
				kill(-pids[i], SIGKILL);
			kill(pids[i], SIGKILL);
			killed[nkilled++] = pids[i];
			fresh++;
		}
		if (!fresh)
			break;
		pause_2ms();
		for (i = 0; i < nkilled; i++)
			waitpid(killed[i], NULL, __WALL | WNOHANG);
	}
}

/* Reap what ended: a call whose process is gone is over, and answered
 * with an error when it never answered (nor was cancelled). */
static void calls_reap(struct server *sv)
{
	int status, strays = 0;
	pid_t pid;
	size_t i;

	while ((pid = waitpid(-1, &status, __WALL | WNOHANG)) > 0) {
		for (i = 0; i < sv->ncalls && sv->calls[i].pid != pid; i++)
			;
		if (i == sv->ncalls)
			continue;	/* a stray, now reaped */
		sv->calls[i].reaped = 1;
		sv->calls[i].status = status;
	}
	for (i = 0; i < sv->ncalls;) {
		struct call *c = &sv->calls[i];

		if (!c->reaped) {
			i++;
			continue;
		}
		call_read(sv, c, 1);	/* what it wrote before it ended */
		if (!c->answered && !c->cancelled) {
			struct buf why = BUF_INIT;

			if (WIFSIGNALED(c->status))
				buf_printf(&why, "the audit's process was killed by signal %d "
					   "before it answered", WTERMSIG(c->status));
			else
				buf_printf(&why, "the audit's process exited %d before it "
					   "answered", WEXITSTATUS(c->status));
			out_take(sv, mcp_error_line(c->id, MCP_INTERNAL_ERROR, buf_str(&why)));
			buf_release(&why);
		}
		strays |= c->cancelled || !WIFEXITED(c->status) || WEXITSTATUS(c->status);
		call_remove(sv, c);
	}
	if (strays)
		strays_end(sv);
}

/* Stop a call: one waiting is dropped, one running is sent SIGTERM (its
 * process kills its children and exits); nothing more of it is sent. */
static void call_cancel(struct server *sv, struct call *c)
{
	if (!c->pid) {
		call_remove(sv, c);
		return;
	}
	c->cancelled = 1;
	kill(c->pid, SIGTERM);
}

/* The end: every call stopped, their processes given MCP_STOP_MS to end
 * (and what is being written to the client to be taken), then killed. */
static void server_stop(struct server *sv)
{
	double until = clock_ms() + MCP_STOP_MS;
	size_t i;

	for (i = sv->ncalls; i-- > 0;)
		call_cancel(sv, &sv->calls[i]);
	while ((sv->ncalls || (sv->outq.len && !sv->failed)) && clock_ms() < until) {
		struct pollfd pfd[2 + MCP_CALLS_MAX];
		nfds_t n = 0;
		double left = until - clock_ms();

		pfd[n++] = (struct pollfd){ sv->sfd, POLLIN, 0 };
		if (sv->outq.len && sv->out_polled)
			pfd[n++] = (struct pollfd){ sv->out, POLLOUT, 0 };
		for (i = 0; i < sv->ncalls && n < ARRAY_SIZE(pfd); i++)
			pfd[n++] = (struct pollfd){ sv->calls[i].eof ? -1 : sv->calls[i].fd,
						    POLLIN, 0 };
		if (poll(pfd, n, left > 0 ? (int)left + 1 : 0) < 0 && errno != EINTR)
			break;
		for (i = 0; i < sv->ncalls; i++)
			call_read(sv, &sv->calls[i], 1);
		if (pfd[0].revents) {
			struct signalfd_siginfo si;

			while (read(sv->sfd, &si, sizeof(si)) == sizeof(si))
				;
		}
		calls_reap(sv);
		out_flush(sv);
	}
	for (i = 0; i < sv->ncalls; i++)
		kill(sv->calls[i].pid, SIGKILL);
	/* never a wait without a bound: one the kernel holds (state D) is
	 * left to end with us */
	until = clock_ms() + 200;
	while (sv->ncalls && clock_ms() < until) {
		calls_reap(sv);
		if (sv->ncalls)
			pause_2ms();
	}
	strays_end(sv);
	while (sv->ncalls)
		call_remove(sv, &sv->calls[0]);
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
		sv->calls = xrealloc(sv->calls, (sv->ncalls + 1) * sizeof(*sv->calls));
		c = &sv->calls[sv->ncalls++];
		memset(c, 0, sizeof(*c));
		c->id = t.call_id;
		t.call_id = NULL;
		c->msg = xmalloc(len);
		memcpy(c->msg, line, len);
		c->len = len;
		c->fd = -1;
		sv->queued_bytes += len;
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
