/* mcp_calls.c - the calls in flight of `envpreflight mcp` (mcp_calls.h):
 * each audit call in a process of its own, forked from the server's one
 * thread, its output relayed line by line; cancellation, reaping, what a
 * killed one leaves, and the end of them all.
 */
#include "mcp_calls.h"
#include "saferead.h"
#include "signals.h"
#include "spawnrun.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* Send what out takes now (all of it when out blocks). */
void out_flush(struct server *sv)
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
void out_line(struct server *sv, const char *line, size_t len)
{
	if (sv->failed)
		return;
	buf_add(&sv->outq, line, len);
	buf_putc(&sv->outq, '\n');
	if (!sv->out_polled)
		out_flush(sv);
}

void out_take(struct server *sv, char *line)
{
	if (line)
		out_line(sv, line, strlen(line));
	free(line);
}

struct call *call_find(struct server *sv, const char *id)
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

void calls_start(struct server *sv)
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
void call_read(struct server *sv, struct call *c, int drain)
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
void calls_reap(struct server *sv)
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
void call_cancel(struct server *sv, struct call *c)
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
void server_stop(struct server *sv)
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


void call_queue(struct server *sv, char *id, const char *msg, size_t len)
{
	struct call *c;

	sv->calls = xrealloc(sv->calls, (sv->ncalls + 1) * sizeof(*sv->calls));
	c = &sv->calls[sv->ncalls++];
	memset(c, 0, sizeof(*c));
	c->id = id;
	c->msg = xmalloc(len);
	memcpy(c->msg, msg, len);
	c->len = len;
	c->fd = -1;
	sv->queued_bytes += len;
}
