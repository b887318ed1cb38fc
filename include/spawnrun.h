/* spawnrun.h - find a program on PATH and run it safely, with a deadline.
 *
 * The audited repository is untrusted: nothing it ships is ever executed.
 * Programs are looked up on PATH with relative entries and entries inside
 * the repository skipped, run by absolute path with an argv (never through
 * a shell), stdin from /dev/null, a scrubbed environment, in their own
 * process group, and killed with SIGKILL (the whole group) at the deadline
 * or as soon as the direct child has exited.  Nothing here ever waits
 * without a bound: a killed child that the kernel does not let die (in
 * uninterruptible sleep, in a frozen cgroup) is left registered, and
 * spawn_kill_all names it.  Deadlines are absolute clock_ms() values.
 * Every function here is thread-safe.
 */
#ifndef EP_SPAWNRUN_H
#define EP_SPAWNRUN_H

#include <stddef.h>
#include <sys/types.h>

/* Captured output is cut at this many bytes (the rest is read and dropped,
 * so that a chatty child cannot block on a full pipe). */
#define SPAWN_OUT_CAP (64 * 1024)

enum spawn_status {
	SPAWN_EXITED,		/* code is the exit status */
	SPAWN_SIGNALED,		/* code is the signal number */
	SPAWN_TIMED_OUT,	/* killed at the deadline, or never started
				 * because the deadline had already passed */
	SPAWN_FAILED,		/* could not start: err is the errno (or
				 * ECHILD: someone else reaped it) */
};

struct spawn_result {
	int status;		/* enum spawn_status */
	int code;		/* exit code or signal number */
	char *out;		/* stdout+stderr interleaved, NUL-terminated,
				 * owned; "" (never NULL) after spawn_run */
	size_t out_len;		/* may hold NUL bytes: trust out_len */
	int truncated;		/* 1 when output went past SPAWN_OUT_CAP */
	int err;		/* errno for SPAWN_FAILED */
	double ms;		/* wall time from spawn to reap */
	int pid;		/* the child's, once it started; else 0 */
	int unreaped;		/* SPAWN_TIMED_OUT, and still not reaped
				 * SPAWN_REAP_MS after SIGKILL: it stays
				 * registered for spawn_kill_all */
};

/* How long spawn_run waits for a killed child to die before it leaves it
 * to spawn_kill_all, in ms: spawn_run returns by its deadline plus twice
 * this (once for the child, once for descendants that left its group). */
#define SPAWN_REAP_MS 20

/* Find name on path_env (a PATH string), skipping empty and relative
 * entries and any entry or candidate that resolves (realpath) inside
 * repo_root (NULL: no such check).  The candidate must be a regular file
 * with an execute bit.  Returns "entry/name" as a new string the caller
 * frees, or NULL.  A name containing '/' (or empty) is refused: NULL. */
char *spawn_which(const char *name, const char *path_env,
		  const char *repo_root);

/* The search path for spawn_which: $PATH, or when PATH is not set at all
 * the system's default, confstr(_CS_PATH), as sh and execvp use
 * ("/bin:/usr/bin" with glibc); *dflt (may be NULL) says which.  The
 * string is the environment's or static: do not free it. */
const char *spawn_search_path(int *dflt);

/* spawn_which, and when why is not NULL, *why is set to a new string
 * (caller frees) saying which candidates were skipped and why, e.g.
 * "'./node' skipped: relative PATH entry", joined by "; " - or to NULL
 * when nothing was skipped.  Relative entries are looked at (never run)
 * relative to repo_root so that the note names what a shell in the
 * repository would have found.  Control characters are replaced. */
char *spawn_which_why(const char *name, const char *path_env,
		      const char *repo_root, char **why);

/* Run the program at the absolute path with argv (NULL: { path, NULL }),
 * in cwd (NULL: ours), with envp (NULL: spawn_env_scrubbed(environ)), and
 * fill *out, which the caller releases with spawn_result_release().
 * Returns 0 when the program ran (EXITED, SIGNALED or TIMED_OUT) and -1
 * with errno set when it could not start (SPAWN_FAILED).  On return no
 * process of the child's group is left running, and when no other
 * spawn_run is in flight neither is any descendant that left the group
 * (setsid, setpgid): the first spawn makes the process a child subreaper
 * (PR_SET_CHILD_SUBREAPER), so such orphans come to us to be killed and
 * reaped.  Hence the program must have no children of its own while a
 * spawn may be in flight: they would be taken for such orphans. */
int spawn_run(const char *path, char *const argv[], const char *cwd,
	      char *const envp[], double deadline_ms, struct spawn_result *out);
/* spawn_run, the child recorded as owner's (any pointer the caller
 * chooses, or NULL) for spawn_kill_all's report. */
int spawn_run_for(const void *owner, const char *path, char *const argv[],
		  const char *cwd, char *const envp[], double deadline_ms,
		  struct spawn_result *out);
void spawn_result_release(struct spawn_result *r);
/* 1 when pid is a child of ours not yet reaped (started by spawn_run,
 * spawn_fork_for or spawn_vfork_for): what a count of the processes in
 * view leaves out. */
int spawn_is_ours(pid_t pid);

/* The first byte a forked child writes, before fn runs: output that lacks
 * it comes from a child that died setting itself up. */
#define SPAWN_FORK_READY "R"

/*
 * Run fn(arg, fd) in a forked child (no exec), registered, waited for,
 * killed at deadline_ms and reaped as spawn_run's children are; fd is the
 * write end of a pipe whose bytes, after SPAWN_FORK_READY, come back in
 * out->out (cut at SPAWN_OUT_CAP).  The child is a copy of a process with
 * threads: fn may make only async-signal-safe calls (raw system calls,
 * write(2) to fd), never malloc, a lock or stdio; its return is _exit(0).
 * It has its own process group, default signal actions, an empty signal
 * mask and no core dump.  Returns as spawn_run (out->status SIGNALED: fn
 * was ended by a signal, e.g. a seccomp filter's SIGSYS).
 */
int spawn_fork_for(const void *owner, void (*fn)(void *arg, int fd), void *arg,
		   double deadline_ms, struct spawn_result *out);
/*
 * spawn_fork_for, but the child shares this process's memory: clone with
 * CLONE_VM | CLONE_VFORK (as glibc's vfork and posix_spawn), on a stack
 * of its own.  Some hundred times cheaper than a copy of a large process.
 * The calling thread stops until the child has exited; an interval timer
 * of the child's (SIGALRM) ends it at deadline_ms (out->status
 * SPAWN_TIMED_OUT), so fn must not block it nor write more than 4 KiB.
 * Core dumps are off by RLIMIT_CORE only, and a kernel before 5.16 kills
 * every user of a memory that dumps core: fn must not risk a signal that
 * dumps one, so not under a seccomp filter, which may answer with SIGSYS
 * (use spawn_fork_for there).  A sanitizer build copies instead.
 */
int spawn_vfork_for(const void *owner, void (*fn)(void *arg, int fd), void *arg,
		    double deadline_ms, struct spawn_result *out);

/* A child that could not be reaped: SIGKILL sent, and the kernel holds it
 * (uninterruptible sleep, a task frozen by the cgroup v1 freezer: state D
 * in /proc/PID/stat, or a state that cannot be read).  A killed child that
 * is only waiting for a CPU on a busy machine is not one: it ends as soon
 * as it runs, and never runs its own code again.  A descendant that left
 * its child's group and is held the same way is one too, named by its own
 * program and owned by the spawn whose mark its environment carries (every
 * child's environment gets ENVPREFLIGHT_SPAWN=RUN.N; where the kernel
 * refuses the subreaper, that mark is also how such descendants are found
 * and killed, through a pidfd). */
struct spawn_stuck {
	int pid;
	const void *owner;	/* spawn_run_for's; NULL: unknown */
	char *path;		/* the program, owned */
	double ran_ms;		/* from its (spawn's) start to spawn_kill_all's
				 * return */
};

/* SIGKILL every process group spawned here that is still live, and every
 * child itself, then reap them and kill and reap every orphan that left
 * its group, waiting until until_ms at the latest (never longer, whatever
 * a child does), so that nothing runs past the caller's return.  A
 * spawn_run waiting in another thread then returns SPAWN_TIMED_OUT.
 * Returns how many children the kernel holds that no earlier call
 * reported (see struct spawn_stuck; others not yet reaped stay registered,
 * quietly), and when stuck is not NULL hands them over in *stuck (a new
 * array, spawn_stuck_free; NULL when none).  Call it once the overall
 * deadline has passed (spawn_run checks its deadline under the same lock,
 * so a caller past that deadline cannot start a child afterwards), or
 * after spawn_close.  Takes a mutex: not for a signal handler. */
size_t spawn_kill_all(double until_ms, struct spawn_stuck **stuck);
void spawn_stuck_free(struct spawn_stuck *v, size_t n);

/* This process's children, of every thread, whoever started them: from
 * /proc/self/task/TID/children, or a scan of /proc where the kernel has
 * no such file; at most SPAWN_CHILDREN_MAX of them into out.  The MCP
 * server's stray hunt: what its calls' processes left. */
#define SPAWN_CHILDREN_MAX 256
size_t spawn_children(pid_t *out);

/* From now on no spawn starts a child (SPAWN_TIMED_OUT, as past its
 * deadline): for a program that is about to end, e.g. on a signal. */
void spawn_close(void);

/* The environment a child gets: PATH (empty and relative entries removed),
 * HOME, USER, LOGNAME, TMPDIR, TZ, LANG, LANGUAGE, LC_*, XDG_*_HOME,
 * TERM=dumb, and version-manager variables (PYENV_*, NVM_DIR, NVM_BIN,
 * NVM_INC, ASDF_*, MISE_*, VOLTA_HOME, NODENV_*, RBENV_*, GOENV_*, FNM_*,
 * COREPACK_HOME, GOROOT, GOPATH, GOTOOLCHAIN, ...) copied from environ_in;
 * nothing else: no secrets, and nothing that makes a runtime load code
 * (NODE_OPTIONS, PYTHONSTARTUP, LD_PRELOAD, ...).  A copied name that
 * contains TOKEN, SECRET, PASSWORD, PASSWD, CREDENTIAL or AUTH is dropped
 * all the same.  The vector and its strings belong to the caller:
 * spawn_env_free(). */
char **spawn_env_scrubbed(char *const environ_in[]);
/* The same, with PATH entries that resolve inside repo_root also removed,
 * so that a shim (pyenv, asdf) cannot find a program the repository ships. */
char **spawn_env_for_repo(char *const environ_in[], const char *repo_root);
void spawn_env_free(char **env);

#endif
