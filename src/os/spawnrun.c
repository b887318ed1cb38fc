/* spawnrun.c - see spawnrun.h
 *
 * The one piece of global state is the registry of our children, so that
 * spawn_kill_all() can reach a child whose spawn_run is blocked in another
 * thread, or that could not be reaped when its spawn_run gave up on it.
 * An entry is on the heap and only touched under live_lock, and every
 * wait for a registered child happens there too (never blocking: WNOHANG
 * and short naps, up to a deadline).  A child stays registered until it
 * is reaped: while it is unreaped its pid cannot be reused, so kill(-pid)
 * can never hit a stranger's process group.  That rests on one rule for
 * the whole program: nobody else waits for our children (no waitpid(-1),
 * no SIGCHLD set to SIG_IGN); should it be broken, the child is reported
 * as SPAWN_FAILED with ECHILD and its group is left alone.
 *
 * A descendant can leave the child's process group (setsid, setpgid) and
 * so escape kill(-pgid).  The process therefore makes itself a child
 * subreaper (PR_SET_CHILD_SUBREAPER) before its first spawn: an orphaned
 * escapee is reparented to us instead of to init, and strays_hunt() kills
 * and reaps every child of ours that no spawn_run owns, as soon as no
 * spawn_run waits on a live child, and again in spawn_kill_all.  That
 * widens the rule above: while spawns may be in flight the program has no
 * children of its own (envpreflight has none; the unit tests fork only
 * between spawns).  Where the kernel refuses the subreaper, the mark each
 * child's environment carries leads to them instead (see "marks").
 */
#include "spawnrun.h"
#include "util.h"

#include <spawn.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>	/* environ, with _GNU_SOURCE */

/* ---- PATH lookup ---- */

/* 1 when path exists and its canonical form lies in root (canonical). */
static int resolves_inside(const char *path, const char *root)
{
	char *real = realpath(path, NULL);
	int inside;

	if (!real)
		return 0;
	inside = path_is_inside(real, root);
	free(real);
	return inside;
}

static void note_skip(struct buf *notes, const char *shown, const char *reason)
{
	if (!notes)
		return;
	if (notes->len)
		buf_puts(notes, "; ");
	buf_putc(notes, '\'');
	buf_add_clean(notes, shown);
	buf_puts(notes, "' skipped: ");
	buf_puts(notes, reason);
}

/* A relative or empty PATH entry is never searched; note it when the
 * repository (or, without one, the current directory) holds the name. */
static void note_relative(const char *dir, const char *name,
			  const char *root, struct buf *notes)
{
	const char *rel = *dir ? dir : ".";
	char *shown, *there;
	struct stat st;

	if (!notes)
		return;
	shown = path_join(rel, name);
	there = root ? path_join(root, shown) : xstrdup(shown);
	if (stat(there, &st) == 0)
		note_skip(notes, shown, *dir ? "relative PATH entry" :
			  "empty PATH entry (the current directory)");
	free(there);
	free(shown);
}

/* The usable candidate dir/name as a new string, or NULL (with a note
 * when something was there but is refused). */
static char *which_entry(const char *dir, const char *name, const char *root,
			 struct buf *notes)
{
	struct stat st;
	char *cand;

	if (dir[0] != '/') {
		note_relative(dir, name, root, notes);
		return NULL;
	}
	cand = path_join(dir, name);
	if (stat(cand, &st) < 0) {
		free(cand);
		return NULL;
	}
	/* both: the entry may be a symlink into the repository, and so may
	 * the candidate in an innocent-looking directory */
	if (root && (resolves_inside(dir, root) || resolves_inside(cand, root)))
		note_skip(notes, cand, "inside the audited repository");
	else if (S_ISDIR(st.st_mode))
		note_skip(notes, cand, "a directory");
	else if (!S_ISREG(st.st_mode))
		note_skip(notes, cand, "not a regular file");
	else if (!(st.st_mode & (S_IXUSR | S_IXGRP | S_IXOTH)) ||
		 access(cand, X_OK) < 0)
		note_skip(notes, cand, "not executable");
	else
		return cand;
	free(cand);
	return NULL;
}

char *spawn_which_why(const char *name, const char *path_env,
		      const char *repo_root, char **why)
{
	struct buf notes = BUF_INIT;
	char *root = NULL, *found = NULL;
	const char *p, *end;

	if (why)
		*why = NULL;
	if (!name || !*name || strchr(name, '/') || !path_env || !*path_env)
		return NULL;
	if (repo_root) {
		root = realpath(repo_root, NULL);
		if (!root && repo_root[0] == '/')
			root = xstrdup(repo_root);
	}
	for (p = path_env;; p = end + 1) {
		char *dir;

		end = strchrnul(p, ':');
		dir = xstrndup(p, (size_t)(end - p));
		found = which_entry(dir, name, root, why ? &notes : NULL);
		free(dir);
		if (found || !*end)
			break;
	}
	free(root);
	if (why && notes.len)
		*why = buf_detach(&notes);
	buf_release(&notes);
	return found;
}

char *spawn_which(const char *name, const char *path_env,
		  const char *repo_root)
{
	return spawn_which_why(name, path_env, repo_root, NULL);
}

static pthread_once_t cs_path_once = PTHREAD_ONCE_INIT;
static char cs_path[1024];

/* POSIX's _CS_PATH: "a value for the PATH environment variable that finds
 * all of the standard utilities", the path of sh's command -p; glibc's
 * execvp (posix/execvpe.c) searches it when PATH is unset, and so does
 * what a shell hands an unset PATH to. */
static void cs_path_init(void)
{
	size_t n = confstr(_CS_PATH, cs_path, sizeof(cs_path));

	if (n == 0 || n > sizeof(cs_path))
		snprintf(cs_path, sizeof(cs_path), "/bin:/usr/bin");
}

const char *spawn_search_path(int *dflt)
{
	const char *p = getenv("PATH");

	if (dflt)
		*dflt = p == NULL;
	if (p)
		return p;
	pthread_once(&cs_path_once, cs_path_init);
	return cs_path;
}

/* ---- the scrubbed environment ---- */

static const char *const env_names[] = {
	"PATH", "HOME", "USER", "LOGNAME", "TMPDIR", "TZ", "LANG", "LANGUAGE",
	"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME",
	"NVM_DIR", "NVM_BIN", "NVM_INC", "VOLTA_HOME", "PNPM_HOME", "N_PREFIX",
	"COREPACK_HOME", "COREPACK_ENABLE_NETWORK", "COREPACK_ENABLE_STRICT",
	"COREPACK_ENABLE_DOWNLOAD_PROMPT", "COREPACK_DEFAULT_TO_LATEST",
	"GOROOT", "GOPATH", "GOTOOLCHAIN", "JAVA_HOME", "SDKMAN_DIR",
	"RUSTUP_HOME", "RUSTUP_TOOLCHAIN", "CARGO_HOME",
};

static const char *const env_prefixes[] = {
	"LC_", "PYENV_", "ASDF_", "MISE_", "NODENV_", "RBENV_", "GOENV_",
	"FNM_", "JENV_", "PLENV_",
};

/* Words that mark a secret even under an allowed prefix (MISE_GITHUB_TOKEN) */
static const char *const env_secret_words[] = {
	"TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "AUTH", "KEY",
};

static int env_allowed(const char *name)
{
	size_t i;
	int ok = 0;

	for (i = 0; i < ARRAY_SIZE(env_names) && !ok; i++)
		ok = !strcmp(name, env_names[i]);
	for (i = 0; i < ARRAY_SIZE(env_prefixes) && !ok; i++)
		ok = !strncmp(name, env_prefixes[i], strlen(env_prefixes[i]));
	for (i = 0; i < ARRAY_SIZE(env_secret_words) && ok; i++)
		ok = !strcasestr(name, env_secret_words[i]);
	return ok;
}

/* "PATH=..." with empty and relative entries (and, with root, entries
 * that resolve inside it) removed; NULL when nothing is left, since an
 * empty PATH means the current directory to some shells. */
static char *env_clean_path(const char *value, const char *root)
{
	struct buf b = BUF_INIT;
	const char *p, *end;
	size_t entries = 0;

	buf_puts(&b, "PATH=");
	for (p = value;; p = end + 1) {
		char *dir;

		end = strchrnul(p, ':');
		dir = xstrndup(p, (size_t)(end - p));
		if (dir[0] == '/' && !(root && resolves_inside(dir, root))) {
			if (entries++)
				buf_putc(&b, ':');
			buf_puts(&b, dir);
		}
		free(dir);
		if (!*end)
			break;
	}
	if (!entries) {
		buf_release(&b);
		return NULL;
	}
	return buf_detach(&b);
}

char **spawn_env_for_repo(char *const environ_in[], const char *repo_root)
{
	char **env = NULL, *root = NULL;
	size_t n = 0, cap = 0, i;

	if (repo_root)
		root = realpath(repo_root, NULL);
	for (i = 0; environ_in && environ_in[i]; i++) {
		const char *eq = strchr(environ_in[i], '=');
		char *name, *entry;

		if (!eq || eq == environ_in[i])
			continue;
		name = xstrndup(environ_in[i], (size_t)(eq - environ_in[i]));
		if (!env_allowed(name))
			entry = NULL;
		else if (!strcmp(name, "PATH"))
			entry = env_clean_path(eq + 1, root);
		else
			entry = xstrdup(environ_in[i]);
		free(name);
		if (!entry)
			continue;
		grow(&env, sizeof(*env), &cap, n + 2);
		env[n++] = entry;
	}
	grow(&env, sizeof(*env), &cap, n + 2);
	env[n++] = xstrdup("TERM=dumb");
	env[n] = NULL;
	free(root);
	return env;
}

char **spawn_env_scrubbed(char *const environ_in[])
{
	return spawn_env_for_repo(environ_in, NULL);
}

void spawn_env_free(char **env)
{
	size_t i;

	if (!env)
		return;
	for (i = 0; env[i]; i++)
		free(env[i]);
	free(env);
}

/* ---- the registry of our children ---- */

/* One child of ours, from its spawn until it is reaped.  On the heap: a
 * child that cannot be reaped (stopped in the kernel) outlives the
 * spawn_run that started it, and spawn_kill_all names it later. */
struct live {
	pid_t pid;		/* also its process group id */
	const void *owner;	/* spawn_run_for's */
	char *path;		/* the program, for spawn_kill_all's report */
	double started_ms;
	int inflight;		/* its spawn_run has not returned yet */
	int killed;		/* SIGKILL sent to it and to its group */
	int cut;		/* ... by spawn_kill_all while in flight */
	int reaped;		/* waited for: wstatus is set, the pid is free */
	int lost;		/* ... by someone else (ECHILD): status lost */
	int wstatus;
	int reported;		/* handed out by spawn_kill_all */
	struct live *next;
};

static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static struct live *live_head;
static int live_closed;		/* spawn_close(): no child from now on */

static void live_free(struct live *l)
{
	free(l->path);
	free(l);
}

/* A child just started enters the registry.  Under live_lock, in the
 * same hold as its start: no one sees it unregistered. */
static void live_link(struct live *l, pid_t pid)
{
	l->pid = pid;
	l->started_ms = clock_ms();
	l->next = live_head;
	live_head = l;
}

static void live_unlink(struct live *l)
{
	struct live **pp;

	for (pp = &live_head; *pp; pp = &(*pp)->next) {
		if (*pp == l) {
			*pp = l->next;
			return;
		}
	}
}

int spawn_is_ours(pid_t pid)
{
	const struct live *l;
	int yes = 0;

	pthread_mutex_lock(&live_lock);
	for (l = live_head; l && !yes; l = l->next)
		yes = l->pid == pid && !l->reaped;
	pthread_mutex_unlock(&live_lock);
	return yes;
}

/* SIGKILL l's group (grandchildren) and l itself (it may have left its
 * group).  Under live_lock, and only while l is unreaped: until then its
 * pid, and so its group id, cannot have been reused. */
static void live_kill(struct live *l)
{
	if (l->reaped)
		return;
	kill(-l->pid, SIGKILL);
	kill(l->pid, SIGKILL);
	l->killed = 1;
}

/* Wait for l without blocking.  Under live_lock: the only place where a
 * registered child is waited for.  1 when l is reaped, now or before. */
static int live_try_reap(struct live *l)
{
	int ws = 0;
	pid_t r;

	if (l->reaped)
		return 1;
	do
		r = waitpid(l->pid, &ws, WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r == 0)
		return 0;
	l->reaped = 1;
	if (r < 0)
		l->lost = 1;	/* ECHILD: someone broke the rule at the top */
	else
		l->wstatus = ws;
	return 1;
}

/* Sleep a millisecond, or less when until_ms is nearer. */
static void nap(double until_ms)
{
	double left = until_ms - clock_ms();
	struct timespec ts = { 0, 1000000L };

	if (left <= 0)
		return;
	if (left < 1)
		ts.tv_nsec = (long)(left * 1e6);
	nanosleep(&ts, NULL);
}

/* Reap, until until_ms at the latest and never blocking longer, only (or,
 * when only is NULL, every child that was sent SIGKILL).  An entry no
 * spawn_run waits for is freed once reaped.  A killed process dies as soon
 * as the kernel lets it: one stopped in uninterruptible sleep or in a
 * frozen cgroup stays, and is left for a later call.  Returns how many of
 * those looked at are still unreaped. */
static size_t live_reap_until(const struct live *only, double until_ms)
{
	for (;;) {
		struct live **pp, *l;
		size_t left = 0;

		pthread_mutex_lock(&live_lock);
		for (pp = &live_head; (l = *pp) != NULL;) {
			if (only ? l != only : !l->killed) {
				pp = &l->next;
				continue;
			}
			if (!live_try_reap(l))
				left++;
			else if (!l->inflight) {
				*pp = l->next;
				live_free(l);
				continue;
			}
			pp = &l->next;
		}
		pthread_mutex_unlock(&live_lock);
		if (!left || clock_ms() >= until_ms)
			return left;
		nap(until_ms);
	}
}

/* ---- strays: descendants that left their child's process group ---- */

#define STRAYS_MAX SPAWN_CHILDREN_MAX	/* killed per round */
#define STRAYS_ROUNDS 32	/* each round reaches one generation deeper */

static pid_t reaper_pid;	/* the process reaper_init ran in, under
				 * live_lock: a forked copy (an MCP call) is
				 * not a subreaper (fork does not pass it on)
				 * and needs a run of its own */
static int reaper_ok;	/* the kernel made us a child subreaper */

/* ---- marks: what every descendant of a child carries ---- */

/* Each child's environment gets MARK_NAME=RUN.SEQ: RUN is 128 random bits
 * of this process, SEQ the spawn's index in marks[].  Its descendants
 * inherit it (unless one execs with an environment of its own), so a
 * process found anywhere can be told to be ours, and which spawn's, by
 * /proc/PID/environ.  That names a survivor by the check that started it,
 * and it is how descendants are found at all where the kernel refuses the
 * subreaper (a seccomp sandbox that allows a list of prctl options): an
 * orphan then goes to init, and no parent link leads to it any more. */
#define MARK_NAME "ENVPREFLIGHT_SPAWN"
#define MARK_ENV_MAX (1024 * 1024)	/* of /proc/PID/environ read */

struct mark {
	const void *owner;	/* spawn_run_for's */
	char *path;		/* the program */
	double started_ms;
};

static char mark_run[33];	/* RUN, hex; set by reaper_init */
static struct mark *marks;	/* under live_lock, grown only */
static size_t marks_n, marks_cap;

/* Orphans of our descendants come to us, not to init: see the top.  Once
 * per process, before its first child; under live_lock. */
static void reaper_init(void)
{
	unsigned char r[16];
	size_t i;

	if (reaper_pid == getpid())
		return;
	reaper_pid = getpid();
	while (marks_n)	/* a parent's, copied by fork */
		free(marks[--marks_n].path);
	reaper_ok = prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0;
	/* never a wait for entropy under live_lock */
	if (getrandom(r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
		/* no entropy yet (early boot): unique enough among this
		 * machine's runs, and never secret */
		unsigned long long t = (unsigned long long)(clock_ms() * 1e3);

		for (i = 0; i < sizeof(r); i++)
			r[i] = (unsigned char)((i < 8 ? t : (unsigned long long)getpid()) >>
					       (8 * (i % 8)));
	}
	for (i = 0; i < sizeof(r); i++)
		snprintf(mark_run + 2 * i, 3, "%02x", r[i]);
}

/* envp with MARK_NAME=RUN.seq in place of any it had: a new vector whose
 * last string is new; the caller frees that string and the vector. */
static char **env_marked(char *const envp[], size_t seq)
{
	struct buf m = BUF_INIT;
	size_t n = 0, k = 0;
	char **v;

	while (envp[n])
		n++;
	v = xcalloc(n + 2, sizeof(*v));
	for (n = 0; envp[n]; n++)
		if (strncmp(envp[n], MARK_NAME "=", sizeof(MARK_NAME)) != 0)
			v[k++] = envp[n];
	buf_printf(&m, MARK_NAME "=%s.%zu", mark_run, seq);
	v[k] = buf_detach(&m);
	return v;
}

static void env_marked_free(char **v)
{
	size_t n = 0;

	while (v[n])
		n++;
	free(v[n - 1]);	/* the mark, last */
	free(v);
}

/* Child l, just started, takes the next mark.  Under live_lock. */
static void mark_add(const struct live *l)
{
	grow(&marks, sizeof(*marks), &marks_cap, marks_n + 1);
	marks[marks_n].owner = l->owner;
	marks[marks_n].path = xstrdup(l->path);
	marks[marks_n].started_ms = l->started_ms;
	marks_n++;
}

/* The SEQ of this run's mark in process pid's environment into *seq: 1,
 * else 0 (not ours, gone, or not ours to read: another user's). */
static int mark_of(long pid, size_t *seq)
{
	char path[64], want[sizeof(MARK_NAME) + sizeof(mark_run) + 1];
	struct buf env = BUF_INIT;
	size_t wl, at;
	int fd, found = 0;

	snprintf(path, sizeof(path), "/proc/%ld/environ", pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	for (;;) {
		char tmp[8192];
		ssize_t r = read(fd, tmp, sizeof(tmp));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		buf_add(&env, tmp, (size_t)r);
		if (env.len >= MARK_ENV_MAX)
			break;
	}
	close(fd);
	wl = (size_t)snprintf(want, sizeof(want), MARK_NAME "=%s.", mark_run);
	/* env holds another process's variables, its secrets among them */
	for (at = 0; env.s && !found && at + wl <= env.len;) {
		const char *s = env.s + at;
		size_t len = strnlen(s, env.len - at);

		if (len > wl && memcmp(s, want, wl) == 0) {
			char *end;
			unsigned long long v;

			errno = 0;
			v = strtoull(s + wl, &end, 10);
			found = !errno && end == s + len && end > s + wl;
			*seq = (size_t)v;
		}
		at += len + 1;
	}
	if (env.s)
		explicit_bzero(env.s, env.len);
	buf_release(&env);
	return found;
}

/* 1 when a spawn_run still waits on a child nobody has killed.  Under
 * live_lock. */
static int live_busy(void)
{
	struct live *l;

	for (l = live_head; l; l = l->next)
		if (l->inflight && !l->killed && !l->reaped)
			return 1;
	return 0;
}

/* 1 when pid is a registered, unreaped child.  Under live_lock. */
static int live_owns(pid_t pid)
{
	struct live *l;

	for (l = live_head; l; l = l->next)
		if (!l->reaped && l->pid == pid)
			return 1;
	return 0;
}

/* Fields 3, 4 and 9 of /proc/PID/stat (after the command's closing
 * parenthesis, which the command itself may contain): the state letter
 * ('R', 'S', 'D', 'Z', ...), the parent and the flags, each pointer NULL
 * or filled.  0, or -1 when the file cannot be read (gone meanwhile). */
static int proc_stat_read(long pid, char *state, long *ppid, unsigned *flags)
{
	char path[64], line[512], st;
	const char *paren;
	unsigned fl;
	long pp;
	FILE *f;
	int rc = -1;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (fgets(line, sizeof(line), f) && (paren = strrchr(line, ')')) != NULL &&
	    /* NOLINTNEXTLINE(cert-err34-c): the kernel's stat line */
	    sscanf(paren + 1, " %c %ld %*d %*d %*d %*d %u", &st, &pp, &fl) == 3) {
		if (state)
			*state = st;
		if (ppid)
			*ppid = pp;
		if (flags)
			*flags = fl;
		rc = 0;
	}
	fclose(f);
	return rc;
}

/* The children of process pid ("self" or a number), every thread's
 * (/proc/PID/task/TID/children: a reparented orphan may belong to any
 * thread), each handed to add.  -1 when the kernel has no such files. */
static int task_children(const char *pid, void (*add)(void *arg, long child),
			 void *arg)
{
	char path[64];
	struct dirent *de;
	DIR *d;
	int seen = 0;

	snprintf(path, sizeof(path), "/proc/%.20s/task", pid);
	if (!(d = opendir(path)))
		return -1;
	while ((de = readdir(d)) != NULL) {
		char cpath[96];
		FILE *f;
		long c;

		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(cpath, sizeof(cpath), "%s/%.20s/children", path, de->d_name);
		if (!(f = fopen(cpath, "re")))
			continue;
		seen = 1;
		/* the kernel's decimal pids: nothing to misreport */
		while (fscanf(f, "%ld", &c) == 1)	/* NOLINT(cert-err34-c) */
			add(arg, c);
		fclose(f);
	}
	closedir(d);
	return seen ? 0 : -1;
}

struct strays {
	pid_t *out;
	size_t n;
};

static void strays_add(void *arg, long pid)
{
	struct strays *st = arg;
	size_t i;

	if (pid <= 0 || st->n >= STRAYS_MAX)
		return;
	for (i = 0; i < st->n; i++)
		if (st->out[i] == (pid_t)pid)
			return;
	st->out[st->n++] = (pid_t)pid;
}

/* Our children by every /proc/PID/stat whose parent is us (kernels built
 * without CONFIG_PROC_CHILDREN). */
static void strays_by_scan(struct strays *st)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	long self = (long)getpid(), ppid;

	while (d && (de = readdir(d)) != NULL) {
		long pid;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		pid = strtol(de->d_name, NULL, 10);
		if (proc_stat_read(pid, NULL, &ppid, NULL) == 0 && ppid == self)
			strays_add(st, pid);
	}
	if (d)
		closedir(d);
}

/* NOLINTNEXTLINE(readability-non-const-parameter): filled through strays_add */
size_t spawn_children(pid_t *out)
{
	struct strays st = { out, 0 };

	if (task_children("self", strays_add, &st) < 0)
		strays_by_scan(&st);
	return st.n;
}

/* Our children that no spawn_run owns.  Under live_lock, so that a
 * child being started is either registered or not yet there. */
static size_t strays_find(pid_t *out)
{
	struct strays st = { out, 0 };
	size_t i, kept = 0;

	if (task_children("self", strays_add, &st) < 0)
		strays_by_scan(&st);
	for (i = 0; i < st.n; i++)
		if (!live_owns(out[i]))
			out[kept++] = out[i];
	return kept;
}

/* Reap the strays pids[0..n) that die by until_ms.  Waited for under
 * live_lock, like registered children, and never one that has since
 * become registered: a reaped stray's pid may already be a new child's. */
static void strays_reap(pid_t *pids, size_t n, double until_ms)
{
	for (;;) {
		size_t i, left = 0;

		pthread_mutex_lock(&live_lock);
		for (i = 0; i < n; i++) {
			pid_t r;

			if (!pids[i])
				continue;
			r = live_owns(pids[i]) ? -1 : waitpid(pids[i], NULL, WNOHANG);
			if (r != 0)
				pids[i] = 0;	/* reaped, or not ours to wait for */
			else
				left++;
		}
		pthread_mutex_unlock(&live_lock);
		if (!left || clock_ms() >= until_ms)
			return;
		nap(until_ms);
	}
}

/* ---- escapees of a live child: killed before it dies ---- */

/* A killed child that has not died yet (on a busy machine it waits for a
 * CPU) still is the parent of any descendant that left its group; that
 * one comes to us only once the child has died, and if we are gone by
 * then, to init, running on: the stray hunt cannot see it in time.  So
 * spawn_kill_all also walks down from each unreaped child through
 * /proc/PID/task/TID/children and kills what it finds, each pinned by a
 * pidfd and checked to be still the child of the parent it was found
 * under before it is signalled: a process that exited meanwhile is a
 * zombie its dying parent cannot reap, so its pid is not reused; the
 * pidfd makes that certain.  Depth and count are bounded. */
#define ESCAPEES_MAX 256
#define ESCAPEES_DEPTH 8

/* What the walk has found: pids[0..n) and the parent each was found
 * under; adding under parent. */
struct escapees {
	long pids[ESCAPEES_MAX], parents[ESCAPEES_MAX];
	size_t n;
	long parent;
};

static void escapees_add(void *arg, long pid)
{
	struct escapees *e = arg;

	if (e->n < ESCAPEES_MAX) {
		e->pids[e->n] = pid;
		e->parents[e->n++] = e->parent;
	}
}

/* The children of pid into e, as found under pid. */
static void escapees_below(struct escapees *e, long pid)
{
	char num[24];

	snprintf(num, sizeof(num), "%ld", pid);
	e->parent = pid;
	task_children(num, escapees_add, e);
}

/* SIGKILL pid, provided it is still parent's child, through a pidfd
 * (Linux 5.3; before it, not at all: no kill by a bare pid we did not
 * wait for).  Returns the pidfd (the caller closes it) when it was
 * signalled, else -1. */
static int escapee_kill(long pid, long parent)
{
#if defined(SYS_pidfd_open) && defined(SYS_pidfd_send_signal)
	long fd = syscall(SYS_pidfd_open, (pid_t)pid, 0);

	if (fd < 0)
		return -1;
	long ppid;

	if (proc_stat_read(pid, NULL, &ppid, NULL) == 0 && ppid == parent &&
	    syscall(SYS_pidfd_send_signal, (int)fd, SIGKILL, NULL, 0) == 0)
		return (int)fd;
	close((int)fd);
#else
	(void)pid;
	(void)parent;
#endif
	return -1;
}

/* 1 while the process of pidfd fd is not yet reaped (its pid not free
 * for reuse): signal 0 through it. */
static int pidfd_alive(int fd)
{
#if defined(SYS_pidfd_send_signal)
	return syscall(SYS_pidfd_send_signal, fd, 0, NULL, 0) == 0;
#else
	(void)fd;
	return 0;
#endif
}

/* Kill every descendant of the unreaped, killed registered children.
 * Under live_lock (so that none of them is reaped, and no pid of theirs
 * reused, while we walk).  Below that level only what was signalled is
 * walked, and its children are kept only if its pidfd shows it was not
 * reaped meanwhile: else they may be a stranger's that took its pid. */
static void escapees_kill(void)
{
	struct escapees e;
	size_t from = 0, depth, i;
	struct live *l;

	e.n = 0;
	for (l = live_head; l; l = l->next)
		if (!l->reaped && l->killed)
			escapees_below(&e, l->pid);
	for (depth = 0; depth < ESCAPEES_DEPTH && from < e.n; depth++) {
		size_t to = e.n;

		for (i = from; i < to; i++) {
			int fd = escapee_kill(e.pids[i], e.parents[i]);
			size_t k = e.n;

			if (fd < 0)
				continue;
			/* its own children, while it is not yet dead */
			escapees_below(&e, e.pids[i]);
			if (!pidfd_alive(fd))
				e.n = k;
			close(fd);
		}
		from = to;
	}
}

/* Kill and reap every stray, generation by generation (a stray's own
 * orphans come to us once it is reaped), until until_ms at the latest,
 * unless a spawn_run waits on a live child: its child's descendants are
 * its own business until it ends, and the last spawn_run to end (or
 * spawn_kill_all) hunts for all.  A stray is unreaped when killed, so its
 * pid cannot have been reused; -pid reaches the group a stray leads, when
 * it leads one. */
static void strays_hunt(double until_ms)
{
	pid_t pids[STRAYS_MAX];
	size_t n, i;
	int round;

	/* the first round whatever the time: its finding and killing wait
	 * for nothing, and a run already past until_ms (a busy machine)
	 * would otherwise leave a stray to init */
	for (round = 0; round < STRAYS_ROUNDS && (!round || clock_ms() < until_ms);
	     round++) {
		pthread_mutex_lock(&live_lock);
		n = live_busy() ? 0 : strays_find(pids);
		for (i = 0; i < n; i++) {
			kill(-pids[i], SIGKILL);
			kill(pids[i], SIGKILL);
		}
		pthread_mutex_unlock(&live_lock);
		if (!n)
			return;
		strays_reap(pids, n, until_ms);
	}
}

void spawn_close(void)
{
	pthread_mutex_lock(&live_lock);
	live_closed = 1;
	pthread_mutex_unlock(&live_lock);
}

#define PF_EXITING_FLAG 0x4	/* linux/sched.h PF_EXITING: in do_exit() */

/* The state letter of pid in /proc/PID/stat ('R', 'S', 'D', 'Z', ...) and
 * its flags (field 9), or 0 when they cannot be read. */
static char proc_state(pid_t pid, unsigned *flags)
{
	char st;

	*flags = 0;
	return proc_stat_read((long)pid, &st, NULL, flags) == 0 ? st : 0;
}

/* 1 when the kernel holds killed child l: in uninterruptible sleep ('D',
 * which is also how a task frozen by the cgroup v1 freezer shows) without
 * having begun to exit, or we cannot tell.  One that is only waiting for a
 * CPU on a busy machine (runnable), or that is already exiting (a dying
 * task may sleep uninterruptibly while its memory is torn down), ends on
 * its own and never runs its own code again: it is not held.  Under
 * live_lock (l unreaped: its pid is ours). */
static int live_held(const struct live *l)
{
	unsigned flags;
	char st = proc_state(l->pid, &flags);

	return st == 0 || (st == 'D' && !(flags & PF_EXITING_FLAG));
}

/* ---- survivors: what the kernel holds that is not a registered child ---- */

/* What spawn_kill_all hands out. */
struct stuck_list {
	struct spawn_stuck *v;	/* NULL when the caller wants none */
	size_t n, cap;
	int keep;		/* fill v */
};

static void stuck_add(struct stuck_list *sl, int pid, const void *owner,
		      const char *path, double ran_ms)
{
	if (sl->keep) {
		grow(&sl->v, sizeof(*sl->v), &sl->cap, sl->n + 1);
		sl->v[sl->n].pid = pid;
		sl->v[sl->n].owner = owner;
		sl->v[sl->n].path = xstrdup(path);
		sl->v[sl->n].ran_ms = ran_ms;
	}
	sl->n++;
}

/* Survivors already handed out (a later call names only new ones). */
#define TOLD_MAX 64
static long told[TOLD_MAX];
static size_t told_n;

/* 1 when the kernel holds killed process pid: live_held's rule. */
static int pid_held(long pid)
{
	unsigned flags;
	char st = proc_state((pid_t)pid, &flags);

	return st == 'D' && !(flags & PF_EXITING_FLAG);
}

/* Name pid, a killed descendant the kernel holds, once: by the spawn its
 * mark names (marked: mark_of's answer, read before live_lock was taken:
 * a read of a held process's environment may itself wait) and by its own
 * program.  A registered child is left to the live loop of
 * spawn_kill_all, which names it.  Under live_lock. */
static void survivor_add(struct stuck_list *sl, long pid, int marked, size_t seq,
			 double now)
{
	char link[64], exe[4096];
	const struct mark *m = NULL;
	size_t i;
	ssize_t len;

	if (live_owns((pid_t)pid))
		return;
	for (i = 0; i < told_n; i++)
		if (told[i] == pid)
			return;
	if (told_n < TOLD_MAX)
		told[told_n++] = pid;
	if (marked && seq < marks_n)
		m = &marks[seq];
	snprintf(link, sizeof(link), "/proc/%ld/exe", pid);
	len = readlink(link, exe, sizeof(exe) - 1);
	if (len > 0)
		exe[len] = '\0';
	stuck_add(sl, (int)pid, m ? m->owner : NULL,
		  len > 0 ? exe : m ? m->path : "?", m ? now - m->started_ms : 0);
}

/* With the subreaper: the strays strays_hunt could not reap by its end,
 * killed and held by the kernel (a frozen cgroup), named.  Strays are our
 * unreaped children: their pids stay theirs between the two holds. */
static void strays_held(struct stuck_list *sl)
{
	pid_t pids[STRAYS_MAX];
	size_t seqs[STRAYS_MAX];
	int marked[STRAYS_MAX];
	double now = clock_ms();
	size_t n, i;

	pthread_mutex_lock(&live_lock);
	n = live_busy() ? 0 : strays_find(pids);
	pthread_mutex_unlock(&live_lock);
	for (i = 0; i < n; i++)
		marked[i] = pid_held((long)pids[i]) ?
			    mark_of((long)pids[i], &seqs[i]) : -1;
	pthread_mutex_lock(&live_lock);
	for (i = 0; i < n; i++)
		if (marked[i] >= 0)
			survivor_add(sl, (long)pids[i], marked[i], seqs[i], now);
	pthread_mutex_unlock(&live_lock);
}

/* Without the subreaper, an orphaned descendant goes to init: find every
 * process that carries this run's mark (/proc/PID/environ: only our own
 * user's are readable), pin it with a pidfd, check the mark again (the pid
 * might have been reused between the scan and the pidfd), SIGKILL it
 * through the pidfd, and wait for it to exit until until_ms; a round more
 * for what a dying one started meanwhile.  Without pidfds (Linux < 5.3)
 * nothing is signalled: a bare pid of a process that is not our child may
 * be reused under us.  What the kernel holds is named. */
#define MARKED_MAX 256
#define MARKED_ROUNDS 4

struct marked {
	long pids[MARKED_MAX];
	int fds[MARKED_MAX];
	size_t n;
};

/* Kill every marked process not yet in mk; how many were added. */
static size_t marked_kill(struct marked *mk)
{
	size_t added = 0, seq, i;
	long self = (long)getpid();
	DIR *d = opendir("/proc");
	struct dirent *de;

	while (d && (de = readdir(d)) != NULL && mk->n < MARKED_MAX) {
		long pid;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		pid = strtol(de->d_name, NULL, 10);
		for (i = 0; i < mk->n && mk->pids[i] != pid; i++)
			;
		if (pid == self || i < mk->n || !mark_of(pid, &seq))
			continue;
#if defined(SYS_pidfd_open) && defined(SYS_pidfd_send_signal)
		long fd = syscall(SYS_pidfd_open, (pid_t)pid, 0);

		if (fd < 0)
			continue;
		if (!mark_of(pid, &seq) ||
		    syscall(SYS_pidfd_send_signal, (int)fd, SIGKILL, NULL, 0) != 0) {
			close((int)fd);
			continue;
		}
		mk->pids[mk->n] = pid;
		mk->fds[mk->n++] = (int)fd;
		added++;
#endif
	}
	if (d)
		closedir(d);
	return added;
}

static void marked_hunt(double until_ms, struct stuck_list *sl)
{
	struct marked mk;
	size_t i, round;
	double now;

	mk.n = 0;
	pthread_mutex_lock(&live_lock);
	i = marks_n;
	pthread_mutex_unlock(&live_lock);
	if (!i)
		return;		/* nothing was ever started */
	for (round = 0; round < MARKED_ROUNDS && (!round || clock_ms() < until_ms);
	     round++) {
		if (!marked_kill(&mk))
			break;
		/* until each has exited (its pidfd readable), or until_ms */
		for (;;) {
			struct pollfd p[MARKED_MAX];
			size_t k, left = 0;

			for (k = 0; k < mk.n; k++) {
				p[k].fd = mk.fds[k];
				p[k].events = POLLIN;
				p[k].revents = 0;
			}
			if (poll(p, mk.n, 0) > 0)
				for (k = 0; k < mk.n; k++)
					left += !(p[k].revents & POLLIN);
			else
				left = mk.n;
			if (!left || clock_ms() >= until_ms)
				break;
			nap(until_ms);
		}
	}
	now = clock_ms();
	for (i = 0; i < mk.n; i++) {
		struct pollfd p = { mk.fds[i], POLLIN, 0 };
		size_t seq = 0;

		/* the mark read outside live_lock (see survivor_add) */
		if (poll(&p, 1, 0) == 0 && pid_held(mk.pids[i])) {
			int marked = mark_of(mk.pids[i], &seq);

			pthread_mutex_lock(&live_lock);
			survivor_add(sl, mk.pids[i], marked, seq, now);
			pthread_mutex_unlock(&live_lock);
		}
		close(mk.fds[i]);
	}
}

size_t spawn_kill_all(double until_ms, struct spawn_stuck **stuck)
{
	struct stuck_list sl = { NULL, 0, 0, stuck != NULL };
	struct live *l;
	double now;
	int mine, sub;

	pthread_mutex_lock(&live_lock);
	/* no child of this process yet (a forked copy's marks are its
	 * parent's): no descendant to look for */
	mine = reaper_pid == getpid();
	sub = reaper_ok;
	for (l = live_head; l; l = l->next) {
		if (l->inflight && !l->killed && !l->reaped)
			l->cut = 1;
		live_kill(l);	/* again for a stuck one: harmless */
	}
	escapees_kill();
	pthread_mutex_unlock(&live_lock);
	/* killed all first so that they die in parallel, then reap */
	live_reap_until(NULL, until_ms);
	strays_hunt(until_ms);
	if (mine && sub)
		strays_held(&sl);
	else if (mine)
		marked_hunt(until_ms, &sl);

	now = clock_ms();
	pthread_mutex_lock(&live_lock);
	for (l = live_head; l; l = l->next) {
		if (l->reaped || l->reported || !live_held(l))
			continue;
		l->reported = 1;
		stuck_add(&sl, (int)l->pid, l->owner, l->path, now - l->started_ms);
	}
	pthread_mutex_unlock(&live_lock);
	if (stuck)
		*stuck = sl.v;
	return sl.n;
}

void spawn_stuck_free(struct spawn_stuck *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i].path);
	free(v);
}

/* ---- running one child ---- */

struct child {
	struct live *live;	/* registered while it lives */
	int rfd;		/* read end of the output pipe; -1 at EOF */
	int pidfd;		/* wakes poll() at exit; -1 if unavailable */
	int exited;		/* the direct child has exited (not reaped) */
	int gone;		/* waitid found no such child: reaped by
				 * spawn_kill_all, or by someone who should
				 * not have */
	int truncated;
	struct buf out;
};

/* fd moved to a descriptor above 2 (close-on-exec): were ours closed, a
 * new descriptor could be 0, 1 or 2, and dup2(fd, fd) in the child would
 * not clear its close-on-exec flag.  -1 with errno (fd closed). */
static int fd_high(int fd)
{
	int high;

	if (fd > 2)
		return fd;
	high = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (high < 0) {
		int saved = errno;

		close(fd);
		errno = saved;
		return -1;
	}
	close(fd);
	return high;
}

/* pipe2(O_CLOEXEC) with both ends above 2. */
static int pipe_high(int fds[2])
{
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -1;
	fds[0] = fd_high(fds[0]);
	fds[1] = fd_high(fds[1]);
	if (fds[0] >= 0 && fds[1] >= 0)
		return 0;
	if (fds[0] >= 0)
		close(fds[0]);
	if (fds[1] >= 0)
		close(fds[1]);
	errno = EMFILE;
	return -1;
}

/* The child's standard input: /dev/null, opened here rather than in the
 * child so that a sandbox without it cannot make the program look broken;
 * without it, the read end of an empty pipe, which reads as end of file
 * just the same.  -1 with errno when neither can be had. */
static int stdin_open(void)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	int fds[2];

	if (fd >= 0)
		return fd_high(fd);
	if (pipe_high(fds) < 0)
		return -1;
	close(fds[1]);
	return fds[0];
}

static int actions_init(posix_spawn_file_actions_t *fa, int infd, int wfd,
			const char *cwd)
{
	int rc;

	rc = posix_spawn_file_actions_init(fa);
	if (rc)
		return rc;
	rc = posix_spawn_file_actions_adddup2(fa, infd, 0);
	if (!rc)
		rc = posix_spawn_file_actions_adddup2(fa, wfd, 1);
	if (!rc)
		rc = posix_spawn_file_actions_adddup2(fa, wfd, 2);
#ifdef __GLIBC_PREREQ
#if __GLIBC_PREREQ(2, 34)
	/* every descriptor is opened close-on-exec here, but a library or
	 * another thread may not be so careful */
	if (!rc)
		rc = posix_spawn_file_actions_addclosefrom_np(fa, 3);
#endif
#endif
	if (!rc && cwd)
		rc = posix_spawn_file_actions_addchdir_np(fa, cwd);
	if (rc)
		posix_spawn_file_actions_destroy(fa);
	return rc;
}

static int attr_init(posix_spawnattr_t *sa)
{
	sigset_t none, all;
	int rc;

	sigemptyset(&none);
	sigfillset(&all);
	rc = posix_spawnattr_init(sa);
	if (rc)
		return rc;
	rc = posix_spawnattr_setsigmask(sa, &none);
	if (!rc)
		rc = posix_spawnattr_setsigdefault(sa, &all);
	if (!rc)
		rc = posix_spawnattr_setpgroup(sa, 0);
	if (!rc)
		rc = posix_spawnattr_setflags(sa, POSIX_SPAWN_SETPGROUP |
					      POSIX_SPAWN_SETSIGMASK |
					      POSIX_SPAWN_SETSIGDEF);
	if (rc)
		posix_spawnattr_destroy(sa);
	return rc;
}

/* The spawn itself and the registration, one step under the lock:
 * spawn_kill_all either sees this child or runs before it, and then (past
 * the deadline, or closed) this child never starts.  Returns 0, ETIMEDOUT,
 * or an errno value. */
static int spawn_registered(struct live *l, const char *path,
			    posix_spawn_file_actions_t *fa,
			    posix_spawnattr_t *sa, char *const argv[],
			    char *const envp[], double deadline_ms)
{
	pid_t pid;
	int rc;

	pthread_mutex_lock(&live_lock);
	reaper_init();
	if (live_closed || clock_ms() >= deadline_ms) {
		rc = ETIMEDOUT;
	} else {
		char **env = env_marked(envp, marks_n);

		rc = posix_spawn(&pid, path, fa, sa, argv, env);
		if (!rc) {
			live_link(l, pid);
			mark_add(l);
		}
		env_marked_free(env);
	}
	pthread_mutex_unlock(&live_lock);
	return rc;
}

/* Start the child and register it.  Returns 0, ETIMEDOUT when the
 * deadline has already passed, or an errno value. */
/* errno after a failed call, never 0: 0 would send the caller of
 * child_start on with no child */
static int failure_code(void)
{
	int err = errno;

	return err ? err : EIO;
}

static int child_start(struct child *c, const void *owner, const char *path,
		       char *const argv[], const char *cwd, char *const envp[],
		       double deadline_ms)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t sa;
	struct live *l;
	int fds[2], infd, rc;

	infd = stdin_open();
	if (infd < 0)
		return failure_code();
	if (pipe_high(fds) < 0) {
		rc = failure_code();
		close(infd);
		return rc;
	}
	rc = actions_init(&fa, infd, fds[1], cwd);
	if (rc)
		goto out_pipe;
	rc = attr_init(&sa);
	if (rc) {
		posix_spawn_file_actions_destroy(&fa);
		goto out_pipe;
	}
	l = xcalloc(1, sizeof(*l));
	l->owner = owner;
	l->path = xstrdup(path);
	l->inflight = 1;
	rc = spawn_registered(l, path, &fa, &sa, argv, envp, deadline_ms);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&sa);
	if (rc) {
		live_free(l);
		goto out_pipe;
	}
	close(infd);
	close(fds[1]);
	c->live = l;
	c->rfd = fds[0];
	fcntl(c->rfd, F_SETFL, fcntl(c->rfd, F_GETFL) | O_NONBLOCK);
#ifdef SYS_pidfd_open
	c->pidfd = (int)syscall(SYS_pidfd_open, l->pid, 0);
#endif
	return 0;
out_pipe:
	close(infd);
	close(fds[0]);
	close(fds[1]);
	return rc;
}

/* Read what the pipe holds now, keeping the first SPAWN_OUT_CAP bytes.
 * Bounded, so that a child that writes as fast as we read cannot keep us
 * past the deadline. */
static void child_read(struct child *c)
{
	char tmp[8192];
	int rounds;

	for (rounds = 0; rounds < 64 && c->rfd >= 0; rounds++) {
		ssize_t n = read(c->rfd, tmp, sizeof(tmp));
		size_t keep;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0) {
			close(c->rfd);
			c->rfd = -1;
			return;
		}
		keep = SPAWN_OUT_CAP - c->out.len;
		if ((size_t)n < keep)
			keep = (size_t)n;
		else if ((size_t)n > keep)
			c->truncated = 1;
		if (keep)
			buf_add(&c->out, tmp, keep);
	}
}

/* Has the direct child exited?  WNOWAIT leaves it a zombie, so that its
 * pid (our group id) stays reserved until we have killed the group. */
static int child_exited(struct child *c)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, (id_t)c->live->pid, &si,
		   WEXITED | WNOHANG | WNOWAIT) < 0) {
		if (errno != ECHILD)
			return 0;
		c->gone = 1;
		return 1;
	}
	return si.si_pid != 0;
}

/* Collect output until the direct child has exited or the deadline.  We
 * do not wait for EOF after the exit: a grandchild may hold the pipe. */
static void child_wait(struct child *c, double deadline_ms)
{
	for (;;) {
		struct pollfd pf[2];
		nfds_t n = 0;
		double left = deadline_ms - clock_ms();
		int timeout;

		if (left <= 0)
			return;
		timeout = left > 1000 ? 1000 : (int)left + 1;
		if (c->pidfd < 0 && timeout > 10)
			timeout = 10;	/* no pidfd: look at the child often */
		if (c->rfd >= 0)
			pf[n++] = (struct pollfd){ c->rfd, POLLIN, 0 };
		if (c->pidfd >= 0)
			pf[n++] = (struct pollfd){ c->pidfd, POLLIN, 0 };
		if (poll(pf, n, timeout) < 0 && errno != EINTR)
			return;		/* cannot wait: treat as the deadline */
		if (c->rfd >= 0)
			child_read(c);
		c->exited = child_exited(c);
		if (c->exited) {
			child_read(c);	/* what it wrote before exiting */
			return;
		}
	}
}

/* Kill the group (grandchildren too, and the child at the deadline) and
 * reap the child, waiting until until_ms at the latest: never a blocking
 * waitpid, since a killed process in uninterruptible sleep or a frozen
 * cgroup dies only when the kernel lets it.  Copies what is known into
 * *st; a child reaped leaves the registry, one that is not stays there
 * (spawn_kill_all names it).  Returns 1 when it was reaped. */
static int child_finish(struct child *c, double until_ms, struct live *st)
{
	struct live *l = c->live;
	int reaped;

	pthread_mutex_lock(&live_lock);
	if (!l->reaped && !c->gone)
		live_kill(l);
	pthread_mutex_unlock(&live_lock);
	live_reap_until(l, until_ms);
	pthread_mutex_lock(&live_lock);
	*st = *l;
	reaped = l->reaped;
	if (reaped)
		live_unlink(l);
	else
		l->inflight = 0;	/* stuck: spawn_kill_all's now */
	pthread_mutex_unlock(&live_lock);
	if (reaped)
		live_free(l);
	c->live = NULL;
	if (c->rfd >= 0)
		close(c->rfd);
	if (c->pidfd >= 0)
		close(c->pidfd);
	return reaped;
}

static void result_fill(struct spawn_result *out, struct child *c,
			const struct live *st)
{
	int ws = st->wstatus;

	out->pid = (int)st->pid;
	if (!st->reaped) {
		out->status = SPAWN_TIMED_OUT;
		out->unreaped = 1;
	} else if (st->lost) {
		out->status = SPAWN_FAILED;	/* its status is lost */
		out->err = ECHILD;
	} else if (!c->exited || (st->cut && WIFSIGNALED(ws) &&
				  WTERMSIG(ws) == SIGKILL)) {
		out->status = SPAWN_TIMED_OUT;
	} else if (WIFEXITED(ws)) {
		out->status = SPAWN_EXITED;
		out->code = WEXITSTATUS(ws);
	} else {
		out->status = SPAWN_SIGNALED;
		out->code = WIFSIGNALED(ws) ? WTERMSIG(ws) : 0;
	}
	out->truncated = c->truncated;
	out->out_len = c->out.len;
	out->out = buf_detach(&c->out);
}

/* 1 with errno set as execve would (EACCES for a directory or a file
 * without the bit), when path cannot be run. */
static int not_executable(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return 1;
	if (!S_ISREG(st.st_mode)) {
		errno = EACCES;
		return 1;
	}
	return access(path, X_OK) < 0;
}

/* 1 with errno set when cwd is not a directory we may enter. */
static int cwd_unusable(const char *cwd)
{
	struct stat st;

	if (stat(cwd, &st) < 0)
		return 1;
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return 1;
	}
	return access(cwd, X_OK) < 0;
}

/* Wait for the started child c, kill what is left of it at deadline_ms,
 * reap it and fill *out (spawn_run_for's and spawn_fork_for's tail). */
static int child_collect(struct child *c, double deadline_ms, double t0,
			 struct spawn_result *out)
{
	struct live st;

	child_wait(c, deadline_ms);
	child_finish(c, clock_ms() + SPAWN_REAP_MS, &st);
	strays_hunt(clock_ms() + SPAWN_REAP_MS);
	result_fill(out, c, &st);
	out->ms = clock_ms() - t0;
	if (out->status == SPAWN_FAILED) {
		errno = out->err;
		return -1;
	}
	return 0;
}

int spawn_run_for(const void *owner, const char *path, char *const argv[],
		  const char *cwd, char *const envp[], double deadline_ms,
		  struct spawn_result *out)
{
	struct child c = { .rfd = -1, .pidfd = -1, .out = BUF_INIT };
	char *default_argv[2] = { (char *)path, NULL };
	char **own_env = NULL;
	double t0 = clock_ms();
	int rc;

	memset(out, 0, sizeof(*out));
	if (!path || path[0] != '/') {
		rc = EINVAL;	/* never a PATH search of our own */
		goto failed;
	}
	/* posix_spawn reports these too, but not under every emulator
	 * (valgrind turns its vfork into a fork): say it plainly first */
	if (not_executable(path) || (cwd && cwd_unusable(cwd))) {
		rc = errno;
		goto failed;
	}
	if (!envp)
		envp = own_env = spawn_env_scrubbed(environ);
	rc = child_start(&c, owner, path, argv ? argv : default_argv, cwd, envp,
			 deadline_ms);
	spawn_env_free(own_env);
	if (rc == ETIMEDOUT) {
		out->status = SPAWN_TIMED_OUT;
		out->out = xstrdup("");
		out->ms = clock_ms() - t0;
		return 0;
	}
	if (rc)
		goto failed;
	return child_collect(&c, deadline_ms, t0, out);
failed:
	out->status = SPAWN_FAILED;
	out->err = rc;
	out->out = xstrdup("");
	out->ms = clock_ms() - t0;
	errno = rc;
	return -1;
}

int spawn_run(const char *path, char *const argv[], const char *cwd,
	      char *const envp[], double deadline_ms, struct spawn_result *out)
{
	return spawn_run_for(NULL, path, argv, cwd, envp, deadline_ms, out);
}

/* ---- a forked child, no exec ---- */

#define VM_STACK (32 * 1024)	/* a shared-memory child's stack: in the
				 * caller's frame, which CLONE_VFORK keeps
				 * still until the child has exited */

struct fork_job {
	int rfd, wfd;
	void (*fn)(void *arg, int fd);
	void *arg;
	int share_vm;
	struct itimerval limit;	/* share_vm: its own deadline */
};

/* The child's side: its own process group (kill(-pid) reaches nothing
 * else), default signal actions and an empty mask (a seccomp filter's
 * SIGSYS then ends it, whatever the parent's thread had), no core dump, a
 * byte to say it got this far, then fn.  A copy of the parent turns its
 * dumpable flag off (do_coredump stops there, even for a core_pattern
 * pipe); one sharing the parent's memory must not (the flag is the
 * memory's: the parent's /proc/self would turn root's) and sets
 * RLIMIT_CORE to 0 instead (its own).  Only async-signal-safe calls: the
 * parent has threads. */
static int fork_child(void *p)
{
	const struct fork_job *j = p;
	struct rlimit none_core = { 0, 0 };
	struct sigaction dfl;
	sigset_t none;
	int sig;

	close(j->rfd);	/* the child's own descriptor table either way */
	setpgid(0, 0);
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	for (sig = 1; sig < NSIG; sig++)
		sigaction(sig, &dfl, NULL);	/* SIGKILL, SIGSTOP: EINVAL */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (j->share_vm) {
		setrlimit(RLIMIT_CORE, &none_core);
		setitimer(ITIMER_REAL, &j->limit, NULL);	/* SIGALRM ends it */
	} else
		prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	if (write(j->wfd, SPAWN_FORK_READY, 1) != 1)
		_exit(127);
	j->fn(j->arg, j->wfd);
	_exit(0);
}

/* fork (or clone with CLONE_VM | CLONE_VFORK onto stack: glibc's vfork,
 * with a stack of its own, which valgrind runs as a fork) and register,
 * one step under the lock, as spawn_registered.  A vfork child runs with
 * the lock held (it is the caller's, stopped): its own timer (ITIMER_REAL,
 * SIGALRM ends it) bounds that by deadline_ms. */
static int fork_registered(struct live *l, struct fork_job *j, char *stack,
			   double deadline_ms)
{
	pid_t pid;
	int rc = 0;

	pthread_mutex_lock(&live_lock);
	reaper_init();
	if (live_closed || clock_ms() >= deadline_ms) {
		rc = ETIMEDOUT;
	} else {
		if (j->share_vm) {
			double left = deadline_ms - clock_ms();

			j->limit.it_value.tv_sec = (time_t)(left / 1000);
			j->limit.it_value.tv_usec = (suseconds_t)((left - 1000.0 *
				(double)j->limit.it_value.tv_sec) * 1000) + 1;
			/* we stop here until it has exited (CLONE_VFORK) */
			pid = clone(fork_child, stack + VM_STACK,
				    CLONE_VM | CLONE_VFORK | SIGCHLD, j);
		} else {
			pid = fork();
			if (pid == 0)
				fork_child(j);	/* no return */
		}
		if (pid < 0) {
			rc = failure_code();
		} else {
			setpgid(pid, pid);	/* whichever of us is first */
			live_link(l, pid);
		}
	}
	pthread_mutex_unlock(&live_lock);
	return rc;
}

/* Wait for a child that shares our memory to exit, until deadline_ms.
 * With CLONE_VFORK it has exited (or died of its timer) by the time
 * clone returns, and this finds it at once; nothing here reads errno all
 * the same (the child's failed calls set our thread's, whose TLS it ran
 * on).  Its output is read once it has exited: it must not write more
 * than a pipe holds (64 KiB; PIPE_BUF, 4 KiB, anywhere). */
static void vm_child_wait(struct child *c, double deadline_ms)
{
	for (;;) {
		siginfo_t si;
		double left = deadline_ms - clock_ms();

		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, (id_t)c->live->pid, &si,
			   WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid != 0) {
			c->exited = 1;
			child_read(c);
			return;
		}
		if (left <= 0)
			return;
		if (c->pidfd >= 0) {
			struct pollfd pf = { c->pidfd, POLLIN, 0 };

			poll(&pf, 1, left > 1000 ? 1000 : (int)left + 1);
		} else {
			nap(clock_ms() + (left < 1 ? left : 1));
		}
	}
}

static int fork_run(const void *owner, void (*fn)(void *arg, int fd), void *arg,
		    int share_vm, double deadline_ms, struct spawn_result *out)
{
	struct child c = { .rfd = -1, .pidfd = -1, .out = BUF_INIT };
	struct fork_job j = { .rfd = -1, .wfd = -1, .fn = fn, .arg = arg,
			      .share_vm = share_vm };
	double t0 = clock_ms();
	_Alignas(16) char stack[VM_STACK];
	struct live *l, st;
	int fds[2], rc;

	memset(out, 0, sizeof(*out));
	if (pipe_high(fds) < 0) {
		rc = failure_code();
		goto failed;
	}
	j.rfd = fds[0];
	j.wfd = fds[1];
	l = xcalloc(1, sizeof(*l));
	l->owner = owner;
	l->path = xstrdup(share_vm ? "(clone)" : "(fork)");
	l->inflight = 1;
	rc = fork_registered(l, &j, stack, deadline_ms);
	close(fds[1]);
	if (rc) {
		live_free(l);
		close(fds[0]);
		if (rc != ETIMEDOUT)
			goto failed;
		out->status = SPAWN_TIMED_OUT;
		out->out = xstrdup("");
		out->ms = clock_ms() - t0;
		return 0;
	}
	c.live = l;
	c.rfd = fds[0];
	fcntl(c.rfd, F_SETFL, fcntl(c.rfd, F_GETFL) | O_NONBLOCK);
#ifdef SYS_pidfd_open
	c.pidfd = (int)syscall(SYS_pidfd_open, l->pid, 0);
#endif
	if (!share_vm)
		return child_collect(&c, deadline_ms, t0, out);
	vm_child_wait(&c, deadline_ms);
	child_finish(&c, clock_ms() + SPAWN_REAP_MS, &st);
	strays_hunt(clock_ms() + SPAWN_REAP_MS);
	result_fill(out, &c, &st);
	if (out->status == SPAWN_SIGNALED && out->code == SIGALRM)
		out->status = SPAWN_TIMED_OUT;	/* its own timer: the deadline */
	out->ms = clock_ms() - t0;
	if (out->status == SPAWN_FAILED) {
		errno = out->err;
		return -1;
	}
	return 0;
failed:
	out->status = SPAWN_FAILED;
	out->err = rc;
	out->out = xstrdup("");
	out->ms = clock_ms() - t0;
	errno = rc;
	return -1;
}

int spawn_fork_for(const void *owner, void (*fn)(void *arg, int fd), void *arg,
		   double deadline_ms, struct spawn_result *out)
{
	return fork_run(owner, fn, arg, 0, deadline_ms, out);
}

/* A sanitizer keeps state in each thread's TLS, which a child sharing our
 * memory would run on, concurrently: those builds copy. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define VM_SHARE_OK 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
	__has_feature(memory_sanitizer)
#define VM_SHARE_OK 0
#endif
#endif
#ifndef VM_SHARE_OK
#define VM_SHARE_OK 1
#endif

int spawn_vfork_for(const void *owner, void (*fn)(void *arg, int fd), void *arg,
		    double deadline_ms, struct spawn_result *out)
{
	return fork_run(owner, fn, arg, VM_SHARE_OK, deadline_ms, out);
}

void spawn_result_release(struct spawn_result *r)
{
	free(r->out);
	memset(r, 0, sizeof(*r));
}
