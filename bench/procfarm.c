/* procfarm.c - a busy machine made of real processes, for the ports scan
 * benchmark (bench/run.sh).  Not part of the tool.
 *
 *   procfarm [-s] MODE N FDS [UID]
 *
 * Starts N idle processes that hold FDS descriptors each (on /dev/null;
 * with -s, half of them on a unix socket of the process's own, which costs
 * ss more) and one process, the holder, that listens on a free loopback
 * TCP port and holds FDS descriptors too (the socket is the last one).
 * MODE:
 *   last   the holder is started after the N others (the highest pid)
 *   other  the same, and the holder runs as UID (default 65534, nobody),
 *          by setuid without exec, so that it is not dumpable and its /proc
 *          files are root's: only its status says whose it is
 *   kids   the holder opens its descriptors, forks the N processes itself
 *          (they inherit its descriptors) and only then binds: N children
 *          of the holder, none of which holds the socket
 * Every process but the holder's children runs in a process group of its
 * own, as daemons and shell jobs do; the holder's children share the
 * holder's, as a pre-fork server's workers do.
 * Prints "PORT HOLDER_PID" on stdout once everything is up, then waits for
 * stdin to reach end of file (or SIGINT, SIGTERM, SIGHUP) and kills and
 * reaps every process it started before it exits.  Each process it starts
 * dies with its parent (PR_SET_PDEATHSIG), so nothing outlives a farm that
 * is killed outright.  Needs root for MODE other.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t stop;
static int with_sockets;	/* -s */

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void die(const char *what)
{
	perror(what);
	_exit(1);
}

/* Die with the parent; 0 in the child when the parent is still the one
 * that forked it. */
static void tie_to_parent(pid_t parent)
{
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(0);
}

/* A descriptor above every one a farm process holds (the caller raised
 * RLIMIT_NOFILE for it). */
static int move_high(int fd, int fds)
{
	int hi = fcntl(fd, F_DUPFD_CLOEXEC, fds + 8);

	if (hi < 0)
		die("procfarm: F_DUPFD");
	close(fd);
	return hi;
}

/* Make descriptors 0 .. fds-1 the process's only ones, but for keep (the
 * holder's pipe, or -1): /dev/null, or with -s one unix socket at the even
 * numbers from 4, dup'ed (the readlink of each costs what it costs on a
 * real machine).  Whatever the farm inherited is closed. */
static void hold_fds(int fds, int keep)
{
	int null, sp[2], fd;

	null = open("/dev/null", O_RDWR);
	if (null < 0 || socketpair(AF_UNIX, SOCK_STREAM, 0, sp) < 0)
		die("procfarm: descriptors");
	null = move_high(null, fds);
	sp[0] = move_high(sp[0], fds);
	sp[1] = move_high(sp[1], fds);
	for (fd = 0; fd < fds; fd++)
		if (dup2(!with_sockets || fd % 2 || fd < 3 ? null : sp[0], fd) < 0)
			die("procfarm: dup2");
	if (keep < fds) {
		close_range((unsigned)fds, ~0U, 0);
	} else {
		close_range((unsigned)fds, (unsigned)keep - 1, 0);
		close_range((unsigned)keep + 1, ~0U, 0);
	}
}

static void idle(void)
{
	for (;;)
		pause();
}

/* A listening socket on 127.0.0.1, a free port; its port number. */
static unsigned listen_any(void)
{
	struct sockaddr_in a;
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, len) < 0 ||
	    listen(fd, 8) < 0 || getsockname(fd, (struct sockaddr *)&a, &len) < 0)
		die("procfarm: listen");
	return ntohs(a.sin_port);
}

/* Fork one idle process holding fds descriptors; its pid. */
static pid_t spawn_idle(int fds)
{
	pid_t parent = getpid(), pid = fork();

	if (pid < 0)
		die("procfarm: fork");
	if (pid == 0) {
		tie_to_parent(parent);
		setpgid(0, 0);
		hold_fds(fds, -1);
		idle();
	}
	return pid;
}

/* The holder: runs as uid (when not -1), holds fds descriptors, forks
 * kids children (which inherit them), then listens on fd fds-1 and tells
 * its port on the pipe w. */
static pid_t spawn_holder(int fds, long uid, int kids, int r, int w)
{
	pid_t parent = getpid(), pid = fork();
	unsigned port;
	int i;

	if (pid < 0)
		die("procfarm: fork");
	if (pid)
		return pid;
	tie_to_parent(parent);
	setpgid(0, 0);
	close(r);
	if (uid >= 0 && (setgroups(0, NULL) < 0 || setgid((gid_t)uid) < 0 ||
			 setuid((uid_t)uid) < 0))
		die("procfarm: setuid");
	hold_fds(fds, w);
	for (i = 0; i < kids; i++) {
		pid_t me = getpid(), k = fork();

		if (k < 0)
			die("procfarm: fork");
		if (k == 0) {
			tie_to_parent(me);
			close(w);
			idle();
		}
	}
	close(fds - 1);
	port = listen_any();
	if (dprintf(w, "%u\n", port) < 0)
		die("procfarm: pipe");
	close(w);
	idle();
	return 0;
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	struct rlimit rl;
	pid_t *pids, holder;
	long uid = -1;
	int n, fds, i, kids = 0, p[2];
	char buf[32], c;
	ssize_t k;

	if (argc > 1 && !strcmp(argv[1], "-s")) {
		with_sockets = 1;
		argv++;
		argc--;
	}
	if (argc < 4 || (n = atoi(argv[2])) < 0 || (fds = atoi(argv[3])) < 4) {
		fprintf(stderr, "usage: procfarm [-s] last|other|kids N FDS [UID]\n");
		return 2;
	}
	if (!strcmp(argv[1], "other"))
		uid = argc > 4 ? atol(argv[4]) : 65534;
	else if (!strcmp(argv[1], "kids"))
		kids = n;
	else if (strcmp(argv[1], "last"))
		return 2;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < (rlim_t)fds + 128) {
		rl.rlim_cur = (rlim_t)fds + 128;
		if (rl.rlim_max < rl.rlim_cur)
			rl.rlim_max = rl.rlim_cur;
		if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
			die("procfarm: RLIMIT_NOFILE");
	}
	/* orphans of the holder's children come back here to be reaped */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	/* no SA_RESTART: a signal ends the wait on stdin */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	pids = calloc((size_t)n + 1, sizeof(*pids));
	if (!pids)
		die("procfarm");
	for (i = 0; !kids && i < n && !stop; i++)
		pids[i] = spawn_idle(fds);
	if (pipe(p) < 0)
		die("procfarm: pipe");
	p[0] = move_high(p[0], fds + 64);
	p[1] = move_high(p[1], fds + 64);
	holder = spawn_holder(fds, uid, kids, p[0], p[1]);
	close(p[1]);
	k = read(p[0], buf, sizeof(buf) - 1);
	close(p[0]);
	if (k > 0 && !stop) {
		buf[k] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		printf("%s %d\n", buf, (int)holder);
		fflush(stdout);
		while (!stop && read(0, &c, 1) > 0)
			;
	}
	kill(holder, SIGKILL);
	for (i = 0; i < n; i++)
		if (pids[i] > 0)
			kill(pids[i], SIGKILL);
	while (wait(NULL) > 0 || errno == EINTR)
		;
	free(pids);
	return k > 0 ? 0 : 1;
}
