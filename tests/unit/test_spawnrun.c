/* test_spawn.c - PATH lookup, environment scrubbing and real child
 * processes: the fixture scripts of tests/fixtures/bin, copied into the
 * scratch directory (so that their execute bits do not depend on how the
 * tree was checked out), run for real. */
#include "test.h"
#include "saferead.h"
#include "spawnrun.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char base[4096];		/* canonical scratch directory */
static char bindir[4200];	/* the fixtures, executable */

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* ---- fixtures ---- */

static const char *const fixtures[] = {
	"print-version", "print-nothing", "print-junk", "exit-3", "hang",
	"hang-grandchild", "orphan", "close-output", "print-pwd", "print-env",
	"read-stdin", "print-flood", "kill-self", "check-fds",
};

/* p cut at its last '/', in place */
static const char *dirname_of(char *p)
{
	char *slash = strrchr(p, '/');

	if (slash)
		*slash = '\0';
	return p;
}

static int dir_exists(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* tests/fixtures/bin: $TEST_FIXTURES, else from the current directory
 * (make runs tests at the top), else next to build/tests/<this>. */
static const char *fixture_src(void)
{
	static char path[4200];
	const char *env = getenv("TEST_FIXTURES");
	char exe[4096];
	ssize_t n;

	if (env && *env) {
		snprintf(path, sizeof(path), "%s/bin", env);
		return path;
	}
	if (dir_exists("tests/fixtures/bin"))
		return "tests/fixtures/bin";
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		snprintf(path, sizeof(path), "%s/../../tests/fixtures/bin",
			 dirname_of(exe));
	}
	return path;
}

static void fixtures_install(void)
{
	const char *src = fixture_src();
	size_t i;

	snprintf(bindir, sizeof(bindir), "%s/bin", base);
	for (i = 0; i < ARRAY_SIZE(fixtures); i++) {
		char *from = path_join(src, fixtures[i]);
		char *to = path_join(bindir, fixtures[i]);
		struct blob b;

		if (saferead_path(from, 1 << 20, &b) < 0) {
			CHECK(0, "cannot read fixture %s", from);
		} else {
			test_write(bindir, fixtures[i], b.data, b.len);
			chmod(to, 0755);
			blob_release(&b);
		}
		free(from);
		free(to);
	}
}

/* The fixture's absolute path (static buffer, one at a time). */
static const char *fx(const char *name)
{
	static char p[4400];

	snprintf(p, sizeof(p), "%s/%s", bindir, name);
	return p;
}

/* ---- processes ---- */

/* Processes of group pgid that are not yet dead (zombies do not count:
 * they run nothing).  Waits up to 2 s for a SIGKILL to take effect. */
static int group_alive(long pgid)
{
	int tries, alive = 0;

	for (tries = 0; tries < 200; tries++) {
		DIR *d = opendir("/proc");
		struct dirent *de;

		alive = 0;
		while (d && (de = readdir(d))) {
			char path[300], line[1024], state;
			long ppid, pgrp;
			const char *rp;
			FILE *f;

			if (de->d_name[0] < '1' || de->d_name[0] > '9')
				continue;
			snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
			f = fopen(path, "r");
			if (!f)
				continue;
			if (fgets(line, sizeof(line), f) &&
			    (rp = strrchr(line, ')')) &&
			    sscanf(rp + 1, " %c %ld %ld", &state, &ppid, &pgrp) == 3 &&
			    pgrp == pgid && state != 'Z' && state != 'X')
				alive++;
			fclose(f);
		}
		if (d)
			closedir(d);
		if (!alive)
			break;
		sleep_ms(10);
	}
	return alive;
}

/* A live child of this process (threads included)?  Waits up to 5 s. */
static int wait_for_child(void)
{
	long me = (long)getpid();
	int tries;

	for (tries = 0; tries < 500; tries++) {
		DIR *d = opendir("/proc");
		struct dirent *de;
		int found = 0;

		while (d && (de = readdir(d)) && !found) {
			char path[300], line[1024], state;
			long ppid, pgrp;
			const char *rp;
			FILE *f;

			if (de->d_name[0] < '1' || de->d_name[0] > '9')
				continue;
			snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
			f = fopen(path, "r");
			if (!f)
				continue;
			if (fgets(line, sizeof(line), f) &&
			    (rp = strrchr(line, ')')) &&
			    sscanf(rp + 1, " %c %ld %ld", &state, &ppid, &pgrp) == 3 &&
			    ppid == me && state != 'Z')
				found = 1;
			fclose(f);
		}
		if (d)
			closedir(d);
		if (found)
			return 1;
		sleep_ms(10);
	}
	return 0;
}

/* The N of a "pgid=N" first line, or -1. */
static long out_pgid(const struct spawn_result *r)
{
	char num[32];
	size_t i = 0;
	long v;

	if (strncmp(r->out, "pgid=", 5))
		return -1;
	while (i < sizeof(num) - 1 && r->out[5 + i] >= '0' && r->out[5 + i] <= '9') {
		num[i] = r->out[5 + i];
		i++;
	}
	num[i] = '\0';
	if (parse_long(num, 2, 1L << 30, &v) < 0)
		return -1;
	return v;
}

static const char *status_name(int s)
{
	static const char *const names[] = {
		"exited", "signaled", "timed out", "failed",
	};

	return s >= 0 && s < (int)ARRAY_SIZE(names) ? names[s] : "?";
}

/* ---- runs that finish ---- */

static const char junk[] = "a\0b\1\377\033[31mred";

struct run_row {
	const char *script;
	double budget_ms;
	int status, code;
	const char *out;	/* NULL: not compared */
	size_t out_len;
	int truncated;
};

static void test_runs(void)
{
	static const struct run_row rows[] = {
		{ "print-version", 5000, SPAWN_EXITED, 0,
		  "fake 1.2.3\nnote: from stderr\n", 29, 0 },
		{ "print-nothing", 5000, SPAWN_EXITED, 0, "", 0, 0 },
		{ "print-junk", 5000, SPAWN_EXITED, 0, junk, sizeof(junk) - 1, 0 },
		{ "exit-3", 5000, SPAWN_EXITED, 3, "fail: no such option\n", 21, 0 },
		{ "read-stdin", 5000, SPAWN_EXITED, 0, "stdin done\n", 11, 0 },
		{ "print-flood", 10000, SPAWN_EXITED, 0, NULL, SPAWN_OUT_CAP, 1 },
		{ "check-fds", 5000, SPAWN_EXITED, 0, "fd 50 closed\n", 13, 0 },
	};
	size_t i;
	int leak;

	/* a descriptor without close-on-exec must not reach the child */
	leak = dup2(open("/dev/null", O_RDONLY), 50);
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct run_row *row = &rows[i];
		struct spawn_result r;
		int rc;

		rc = spawn_run(fx(row->script), NULL, NULL, NULL,
			       clock_ms() + row->budget_ms, &r);
		CHECK_INT(rc, 0, "%s", row->script);
		CHECK(r.status == row->status, "%s: %s", row->script,
		      status_name(r.status));
		CHECK_INT(r.code, row->code, "%s", row->script);
		CHECK_INT(r.out_len, row->out_len, "%s", row->script);
		CHECK(r.out && r.out[r.out_len] == '\0', "%s: terminated",
		      row->script);
		if (row->out)
			CHECK(r.out_len == row->out_len &&
			      !memcmp(r.out, row->out, row->out_len),
			      "%s: output \"%s\"", row->script, r.out);
		CHECK_INT(r.truncated, row->truncated, "%s", row->script);
		spawn_result_release(&r);
	}
	if (leak >= 0)
		close(leak);
}

/* ---- runs that hang or leave children behind ---- */

struct hang_row {
	const char *script;
	double budget_ms;
	int status;
};

static void test_hangs(void)
{
	static const struct hang_row rows[] = {
		{ "hang", 300, SPAWN_TIMED_OUT },
		{ "hang-grandchild", 300, SPAWN_TIMED_OUT },
		/* exits at once while a grandchild holds the pipe: must not
		 * wait for the deadline (status, not timing, says so) */
		{ "orphan", 20000, SPAWN_EXITED },
		{ "close-output", 300, SPAWN_TIMED_OUT },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct hang_row *row = &rows[i];
		struct spawn_result r;
		long pgid;

		spawn_run(fx(row->script), NULL, NULL, NULL,
			  clock_ms() + row->budget_ms, &r);
		CHECK(r.status == row->status, "%s: %s", row->script,
		      status_name(r.status));
		/* and it did not sit out the deadline (a generous bound) */
		if (row->status == SPAWN_EXITED)
			CHECK(r.ms < row->budget_ms / 2, "%s: %.0f ms",
			      row->script, r.ms);
		/* the child leads its own group: its pid is the group id (its
		 * output says so too, when it got that far before the kill) */
		pgid = r.pid;
		CHECK(pgid > 0, "%s: pid %ld", row->script, pgid);
		CHECK(out_pgid(&r) == pgid || (!r.out_len && row->status ==
		      SPAWN_TIMED_OUT), "%s: output \"%s\"", row->script, r.out);
		/* not kill(-pgid, 0): killed grandchildren are re-parented to
		 * init, and an init that does not reap (some containers')
		 * leaves them as zombies in the group, dead but visible */
		if (pgid > 0)
			CHECK_INT(group_alive(pgid), 0, "%s: group %ld",
				  row->script, pgid);
		spawn_result_release(&r);
	}
}

/* ---- what cannot start ---- */

static void test_failures(void)
{
	char *noexec = path_join(base, "noexec.sh");
	char *work = path_join(base, "work");
	struct spawn_result r;
	int rc;

	test_write_str(base, "noexec.sh", "#!/bin/sh\necho no\n");
	chmod(noexec, 0644);

	rc = spawn_run("bin/print-version", NULL, NULL, NULL,
		       clock_ms() + 5000, &r);
	CHECK(rc == -1 && r.status == SPAWN_FAILED && r.err == EINVAL,
	      "relative path: %s %d", status_name(r.status), r.err);
	CHECK_STR(r.out, "", "relative path");
	spawn_result_release(&r);

	rc = spawn_run(fx("no-such-program"), NULL, NULL, NULL,
		       clock_ms() + 5000, &r);
	CHECK(rc == -1 && r.status == SPAWN_FAILED && r.err == ENOENT,
	      "missing: %s %d", status_name(r.status), r.err);
	spawn_result_release(&r);

	rc = spawn_run(noexec, NULL, NULL, NULL, clock_ms() + 5000, &r);
	CHECK(rc == -1 && r.status == SPAWN_FAILED && r.err == EACCES,
	      "not executable: %s %d", status_name(r.status), r.err);
	spawn_result_release(&r);

	rc = spawn_run(base, NULL, NULL, NULL, clock_ms() + 5000, &r);
	CHECK(rc == -1 && r.status == SPAWN_FAILED && r.err == EACCES,
	      "a directory: %s %d", status_name(r.status), r.err);
	spawn_result_release(&r);

	rc = spawn_run(fx("print-version"), NULL, "/nonexistent-dir", NULL,
		       clock_ms() + 5000, &r);
	CHECK(rc == -1 && r.status == SPAWN_FAILED && r.err == ENOENT,
	      "missing cwd: %s %d", status_name(r.status), r.err);
	spawn_result_release(&r);

	rc = spawn_run(fx("print-version"), NULL, NULL, NULL, clock_ms() - 1, &r);
	CHECK(rc == 0 && r.status == SPAWN_TIMED_OUT,
	      "past deadline: %s", status_name(r.status));
	CHECK_INT(r.out_len, 0, "past deadline: nothing ran");
	spawn_result_release(&r);

	free(noexec);
	free(work);
}

/* ---- argv, cwd, environment, signals ---- */

static void test_argv_cwd_env(void)
{
	char *const argv[] = { "echo", "a  b", "$HOME;id", "`id`", NULL };
	char *fake_env[] = {
		"AWS_SECRET_ACCESS_KEY=hunter2", "PYENV_VERSION=3.12.1",
		"TERM=xterm-256color", "PATH=/usr/bin:/bin", NULL,
	};
	struct spawn_result r;
	char *work = path_join(base, "work dir");
	char *want;
	char **env;

	/* an argv reaches the program as it is: no shell in between */
	spawn_run("/bin/echo", argv, NULL, NULL, clock_ms() + 5000, &r);
	CHECK_STR(r.out, "a  b $HOME;id `id`\n", "argv");
	spawn_result_release(&r);

	mkdir(work, 0755);
	want = realpath(work, NULL);
	spawn_run(fx("print-pwd"), NULL, work, NULL, clock_ms() + 5000, &r);
	CHECK(want && r.out_len == strlen(want) + 1 &&
	      !strncmp(r.out, want, strlen(want)), "cwd: \"%s\"", r.out);
	spawn_result_release(&r);
	free(want);
	free(work);

	env = spawn_env_scrubbed(fake_env);
	spawn_run(fx("print-env"), NULL, NULL, env, clock_ms() + 5000, &r);
	CHECK(!strncmp(r.out, "AWS_SECRET_ACCESS_KEY=-\nPYENV_VERSION=3.12.1\n"
		       "TERM=dumb\n", 46), "scrubbed envp: %s", r.out);
	spawn_result_release(&r);
	spawn_env_free(env);

	/* envp NULL: our own environment, scrubbed */
	setenv("AWS_SECRET_ACCESS_KEY", "hunter2", 1);
	setenv("PYENV_VERSION", "3.11.9", 1);
	spawn_run(fx("print-env"), NULL, NULL, NULL, clock_ms() + 5000, &r);
	CHECK(!strncmp(r.out, "AWS_SECRET_ACCESS_KEY=-\nPYENV_VERSION=3.11.9\n"
		       "TERM=dumb\n", 46), "default envp: %s", r.out);
	spawn_result_release(&r);
	unsetenv("AWS_SECRET_ACCESS_KEY");
	unsetenv("PYENV_VERSION");
}

/* The line "ENVPREFLIGHT_SPAWN=..." of print-env's output, into out. */
static void mark_line(const char *text, char *out, size_t len)
{
	const char *p = strstr(text, "ENVPREFLIGHT_SPAWN=");

	snprintf(out, len, "%.*s", p ? (int)strcspn(p, "\n") : 0, p ? p : "");
}

/* RUN.N: 32 hex digits, a dot, a decimal number */
static int mark_shaped(const char *m)
{
	const char *v = m + strlen("ENVPREFLIGHT_SPAWN=");
	size_t i;

	if (strncmp(m, "ENVPREFLIGHT_SPAWN=", 19) != 0 || strlen(v) < 34)
		return 0;
	for (i = 0; i < 32; i++)
		if (!strchr("0123456789abcdef", v[i]))
			return 0;
	return v[32] == '.' && strspn(v + 33, "0123456789") == strlen(v + 33);
}

/* Every child carries this run's mark, one number per spawn, in place of
 * any mark the caller's environment had (a forged one, or an outer
 * envpreflight's): what finds a descendant without the subreaper. */
static void test_mark(void)
{
	char *const forged[] = { "ENVPREFLIGHT_SPAWN=0.0", "TERM=dumb", NULL };
	struct spawn_result r;
	char a[128], b[128];

	spawn_run(fx("print-env"), NULL, NULL, forged, clock_ms() + 5000, &r);
	mark_line(r.out, a, sizeof(a));
	spawn_result_release(&r);
	spawn_run(fx("print-env"), NULL, NULL, NULL, clock_ms() + 5000, &r);
	mark_line(r.out, b, sizeof(b));
	spawn_result_release(&r);
	CHECK(mark_shaped(a), "mark: \"%s\"", a);
	CHECK(mark_shaped(b), "mark: \"%s\"", b);
	CHECK(!strncmp(a, b, 19 + 33) && strcmp(a, b) != 0,
	      "one run, two spawns: \"%s\" \"%s\"", a, b);
}

static void test_signals(void)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	sigset_t block, oldmask;
	struct spawn_result r;

	/* an ignored or blocked signal in the parent must not be inherited */
	sigemptyset(&ign.sa_mask);
	sigaction(SIGTERM, &ign, &old);
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &oldmask);
	spawn_run(fx("kill-self"), NULL, NULL, NULL, clock_ms() + 3000, &r);
	CHECK(r.status == SPAWN_SIGNALED && r.code == SIGTERM,
	      "kill-self: %s %d", status_name(r.status), r.code);
	spawn_result_release(&r);
	pthread_sigmask(SIG_SETMASK, &oldmask, NULL);
	sigaction(SIGTERM, &old, NULL);

	/* SIGCHLD ignored: the kernel reaps the child behind our back, so
	 * its status is lost; say so rather than invent one */
	sigaction(SIGCHLD, &ign, &old);
	spawn_run(fx("print-version"), NULL, NULL, NULL, clock_ms() + 3000, &r);
	CHECK(r.status == SPAWN_FAILED && r.err == ECHILD,
	      "SIGCHLD ignored: %s %d", status_name(r.status), r.err);
	spawn_result_release(&r);
	sigaction(SIGCHLD, &old, NULL);
}

/* ---- environment scrubbing ---- */

struct env_row {
	const char *in;
	const char *repo;	/* "@" is the scratch directory */
	const char *want;	/* the entry kept, or NULL: dropped */
};

/* s with every '@' replaced by the scratch directory (new string) */
static char *expand(const char *s)
{
	struct buf b = BUF_INIT;

	if (!s)
		return NULL;
	for (; *s; s++) {
		if (*s == '@')
			buf_puts(&b, base);
		else
			buf_putc(&b, *s);
	}
	return buf_detach(&b);
}

static void test_env(void)
{
	static const struct env_row rows[] = {
		{ "AWS_SECRET_ACCESS_KEY=abc", NULL, NULL },
		{ "GITHUB_TOKEN=ghp_x", NULL, NULL },
		{ "DATABASE_URL=postgres://u:p@h/db", NULL, NULL },
		{ "NODE_OPTIONS=--require ./evil.js", NULL, NULL },
		{ "LD_PRELOAD=/tmp/x.so", NULL, NULL },
		{ "PYTHONSTARTUP=/tmp/x.py", NULL, NULL },
		{ "MISE_GITHUB_TOKEN=x", NULL, NULL },
		{ "COREPACK_NPM_TOKEN=x", NULL, NULL },
		{ "ASDF_SECRET=x", NULL, NULL },
		{ "TERM=xterm-256color", NULL, NULL },
		{ "PATHX=1", NULL, NULL },
		{ "NOEQUALS", NULL, NULL },
		{ "=value", NULL, NULL },
		{ "PYENV_VERSION=3.12.1", NULL, "PYENV_VERSION=3.12.1" },
		{ "PYENV_ROOT=/p", NULL, "PYENV_ROOT=/p" },
		{ "HOME=/home/u", NULL, "HOME=/home/u" },
		{ "LANG=C.UTF-8", NULL, "LANG=C.UTF-8" },
		{ "LC_ALL=C", NULL, "LC_ALL=C" },
		{ "NVM_DIR=/n", NULL, "NVM_DIR=/n" },
		{ "NVM_BIN=/n/bin", NULL, "NVM_BIN=/n/bin" },
		{ "VOLTA_HOME=/v", NULL, "VOLTA_HOME=/v" },
		{ "ASDF_DATA_DIR=/a", NULL, "ASDF_DATA_DIR=/a" },
		{ "MISE_DATA_DIR=/m", NULL, "MISE_DATA_DIR=/m" },
		{ "NODENV_VERSION=20", NULL, "NODENV_VERSION=20" },
		{ "RBENV_VERSION=3.3", NULL, "RBENV_VERSION=3.3" },
		{ "GOENV_VERSION=1.22", NULL, "GOENV_VERSION=1.22" },
		{ "COREPACK_HOME=/c", NULL, "COREPACK_HOME=/c" },
		{ "PATH=/usr/bin:/bin", NULL, "PATH=/usr/bin:/bin" },
		{ "PATH=.:/usr/bin::bin:/bin:", NULL, "PATH=/usr/bin:/bin" },
		{ "PATH=.:node_modules/.bin", NULL, NULL },
		{ "PATH=", NULL, NULL },
		{ "PATH=@/repo/bin:/usr/bin", "@/repo", "PATH=/usr/bin" },
		{ "PATH=@/repolink:/bin", "@/repo", "PATH=/bin" },
		{ "PATH=@/repo/bin:/bin", NULL, "PATH=@/repo/bin:/bin" },
	};
	char *several[] = { "TERM=vt100", "HOME=/h", "TERM=xterm", NULL };
	size_t i;
	char **env;
	int terms = 0;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		char *in = expand(rows[i].in), *repo = expand(rows[i].repo);
		char *want = expand(rows[i].want);
		char *env_in[] = { in, NULL };

		env = spawn_env_for_repo(env_in, repo);
		if (want) {
			CHECK_STR(env[0], want, "%s", rows[i].in);
			CHECK_STR(env[1], "TERM=dumb", "%s", rows[i].in);
		} else {
			CHECK_STR(env[0], "TERM=dumb", "%s: dropped", rows[i].in);
			CHECK(env[1] == NULL, "%s: dropped", rows[i].in);
		}
		spawn_env_free(env);
		free(in);
		free(repo);
		free(want);
	}

	env = spawn_env_scrubbed(several);
	for (i = 0; env[i]; i++)
		terms += !strncmp(env[i], "TERM=", 5);
	CHECK_INT(terms, 1, "one TERM, and it is dumb");
	CHECK_STR(env[0], "HOME=/h", "order kept");
	spawn_env_free(env);

	env = spawn_env_scrubbed(NULL);
	CHECK(env[0] && !strcmp(env[0], "TERM=dumb") && !env[1], "no environ");
	spawn_env_free(env);
}

/* ---- PATH lookup ---- */

struct which_row {
	const char *name, *path, *repo, *want, *why;	/* '@': scratch dir */
};

static void which_setup(void)
{
	static const char *const exe[] = {
		"sys/tool", "sys2/tool", "repo/bin/tool", "repo/tool",
	};
	char *p;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(exe); i++) {
		test_write_str(base, exe[i], "#!/bin/sh\necho never run\n");
		p = path_join(base, exe[i]);
		chmod(p, 0755);
		free(p);
	}
	test_write_str(base, "noexec/tool", "#!/bin/sh\n");
	p = path_join(base, "noexec/tool");
	chmod(p, 0644);
	free(p);
	test_write_str(base, "dirlike/tool/x", "");	/* a directory "tool" */
	test_write_str(base, "link/placeholder", "");
	p = path_join(base, "link/tool");
	CHECK(symlink("../repo/bin/tool", p) == 0, "symlink %s", p);
	free(p);
	p = path_join(base, "repolink");
	CHECK(symlink("repo/bin", p) == 0, "symlink %s", p);
	free(p);
	test_write_str(base, "fifo/placeholder", "");
	p = path_join(base, "fifo/tool");
	CHECK(mkfifo(p, 0755) == 0, "mkfifo %s", p);
	free(p);
}

static void test_which(void)
{
	static const struct which_row rows[] = {
		{ "tool", "@/sys", "@/repo", "@/sys/tool", NULL },
		{ "tool", "@/sys/", "@/repo", "@/sys/tool", NULL },
		{ "tool", "@/missing:@/sys2:@/sys", "@/repo", "@/sys2/tool", NULL },
		{ "tool", "@/repo/bin:@/sys", "@/repo", "@/sys/tool",
		  "'@/repo/bin/tool' skipped: inside the audited repository" },
		{ "tool", "@/repo/bin:@/sys", "@/repo/../repo/", "@/sys/tool",
		  "'@/repo/bin/tool' skipped: inside the audited repository" },
		{ "tool", "@/repo/bin", NULL, "@/repo/bin/tool", NULL },
		{ "tool", "@/link", "@/repo", NULL,
		  "'@/link/tool' skipped: inside the audited repository" },
		{ "tool", "@/repolink", "@/repo", NULL,
		  "'@/repolink/tool' skipped: inside the audited repository" },
		{ "tool", "bin:@/sys2", "@/repo", "@/sys2/tool",
		  "'bin/tool' skipped: relative PATH entry" },
		{ "tool", ".:@/sys", "@/repo", "@/sys/tool",
		  "'./tool' skipped: relative PATH entry" },
		{ "tool", "::@/sys", "@/repo", "@/sys/tool",
		  "'./tool' skipped: empty PATH entry (the current directory); "
		  "'./tool' skipped: empty PATH entry (the current directory)" },
		{ "tool", "nothere:@/sys", "@/repo", "@/sys/tool", NULL },
		{ "tool", "@/noexec", "@/repo", NULL,
		  "'@/noexec/tool' skipped: not executable" },
		{ "tool", "@/dirlike", "@/repo", NULL,
		  "'@/dirlike/tool' skipped: a directory" },
		{ "tool", "@/fifo", "@/repo", NULL,
		  "'@/fifo/tool' skipped: not a regular file" },
		{ "tool", "@/dirlike:@/noexec:@/sys", "@/repo", "@/sys/tool",
		  "'@/dirlike/tool' skipped: a directory; "
		  "'@/noexec/tool' skipped: not executable" },
		{ "sys/tool", "@", "@/repo", NULL, NULL },
		{ "/bin/sh", "/bin", "@/repo", NULL, NULL },
		{ "", "@/sys", "@/repo", NULL, NULL },
		{ "tool", "", "@/repo", NULL, NULL },
		{ "tool", NULL, "@/repo", NULL, NULL },
		{ "sh", "@/sys:/bin", "@/repo", "/bin/sh", NULL },
	};
	size_t i;

	which_setup();
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct which_row *row = &rows[i];
		char *path = expand(row->path), *repo = expand(row->repo);
		char *want = expand(row->want), *want_why = expand(row->why);
		char *why = (char *)"unset", *got, *got2;

		got = spawn_which_why(row->name, path, repo, &why);
		got2 = spawn_which(row->name, path, repo);
		CHECK_STR(got, want, "row %zu: %s on %s", i, row->name, row->path);
		CHECK_STR(got2, want, "row %zu: spawn_which", i);
		CHECK_STR(why, want_why, "row %zu: why", i);
		free(got);
		free(got2);
		free(why);
		free(path);
		free(repo);
		free(want);
		free(want_why);
	}
}

/* ---- threads and spawn_kill_all ---- */

struct job {
	const char *path;
	double budget_ms;
	struct spawn_result r;
};

static void *job_run(void *arg)
{
	struct job *j = arg;

	spawn_run(j->path, NULL, NULL, NULL, clock_ms() + j->budget_ms, &j->r);
	return NULL;
}

static void test_threads(void)
{
	struct job jobs[8];
	pthread_t th[8];
	char *version = xstrdup(fx("print-version"));
	char *hang = xstrdup(fx("hang-grandchild"));
	size_t i;

	for (i = 0; i < ARRAY_SIZE(jobs); i++) {
		jobs[i].path = i % 2 ? hang : version;
		jobs[i].budget_ms = i % 2 ? 400 : 10000;
		pthread_create(&th[i], NULL, job_run, &jobs[i]);
	}
	for (i = 0; i < ARRAY_SIZE(jobs); i++) {
		struct spawn_result *r = &jobs[i].r;

		pthread_join(th[i], NULL);
		if (i % 2) {
			long pgid = r->pid;

			CHECK(r->status == SPAWN_TIMED_OUT, "thread %zu: %s", i,
			      status_name(r->status));
			CHECK(pgid > 0 && group_alive(pgid) == 0,
			      "thread %zu: group %ld", i, pgid);
		} else {
			CHECK(r->status == SPAWN_EXITED && r->code == 0,
			      "thread %zu: %s", i, status_name(r->status));
			CHECK_STR(r->out, "fake 1.2.3\nnote: from stderr\n",
				  "thread %zu", i);
		}
		spawn_result_release(r);
	}
	free(version);
	free(hang);
}

static void test_kill_all(void)
{
	struct job j = { .budget_ms = 60000 };
	struct spawn_result r;
	pthread_t th;
	long pgid;

	/* the hang would exit 0 after 30 s: only spawn_kill_all can make it
	 * come back timed out before its own 60 s deadline */
	j.path = xstrdup(fx("hang-grandchild"));
	pthread_create(&th, NULL, job_run, &j);
	CHECK(wait_for_child(), "the child never showed up");
	sleep_ms(50);		/* most likely it forks its grandchild meanwhile */
	CHECK_INT(spawn_kill_all(clock_ms() + 5000, NULL), 0, "all reaped");
	pthread_join(th, NULL);
	CHECK(j.r.status == SPAWN_TIMED_OUT, "kill_all: %s",
	      status_name(j.r.status));
	pgid = j.r.pid;
	CHECK(pgid > 0 && group_alive(pgid) == 0, "kill_all: group %ld", pgid);
	spawn_result_release(&j.r);
	free((char *)j.path);

	/* nothing live: a no-op */
	CHECK_INT(spawn_kill_all(clock_ms() + 5000, NULL), 0, "nothing left");
	/* later runs (a --wait re-run) still work */
	spawn_run(fx("print-version"), NULL, NULL, NULL, clock_ms() + 5000, &r);
	CHECK(r.status == SPAWN_EXITED, "after kill_all: %s",
	      status_name(r.status));
	spawn_result_release(&r);
}

/* ---- descendants that leave the child's process group ---- */

/* How many live (not zombie) processes have cmdline containing mark.  */
static int marked_alive(const char *mark)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int n = 0;

	while (d && (de = readdir(d)) != NULL) {
		char path[64], buf[512], state = 0, stat[512];
		ssize_t len;
		int fd;
		const char *paren;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%.20s/cmdline", de->d_name);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (len <= 0)
			continue;
		for (ssize_t i = 0; i < len; i++)
			if (!buf[i])
				buf[i] = ' ';
		buf[len] = '\0';
		if (!strstr(buf, mark))
			continue;
		snprintf(path, sizeof(path), "/proc/%.20s/stat", de->d_name);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		len = read(fd, stat, sizeof(stat) - 1);
		close(fd);
		stat[len > 0 ? len : 0] = '\0';
		paren = strrchr(stat, ')');
		if (paren && sscanf(paren + 1, " %c", &state) == 1 && state != 'Z')
			n++;
	}
	if (d)
		closedir(d);
	return n;
}

/* How many processes with mark are still alive after they had time to
 * die: a killed process ends once the kernel schedules it, which on a
 * busy machine can take longer than spawn_run waits for it; what counts
 * is that it was killed, so give it up to 5 s (a process nobody killed
 * lives on for its 37 s). */
static int marked_survivors(const char *mark)
{
	int tries, n = 0;

	for (tries = 0; tries < 500; tries++) {
		n = marked_alive(mark);
		if (!n)
			break;
		sleep_ms(10);
	}
	return n;
}

/* The run's own token for the sleep markers (nine digits, drawn once): a
 * run of the suite beside this one leaves escapees of its own, which must
 * not be taken for ours.  A mark is "37.<token><row>", a number to
 * sleep(1); the token's fixed width keeps another run's mark from
 * beginning with ours. */
static const char *run_token(void)
{
	static char tok[16];
	unsigned v = (unsigned)getpid() ^ (unsigned)clock_ms();
	int fd;

	if (tok[0])
		return tok;
	fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (read(fd, &v, sizeof(v)) < 0)
			v ^= 0x5a5a5a5au;
		close(fd);
	}
	snprintf(tok, sizeof(tok), "%09u", v % 1000000000u);
	return tok;
}

/* A child that exits at once but leaves descendants in a session of
 * their own (setsid), one of them two generations down: none survives
 * spawn_run, whether the child exits or hangs until the deadline. */
static void test_escapees(void)
{
	static const struct {
		double budget_ms;
		int status;
	} rows[] = {
		{ 5000, SPAWN_EXITED }, { 5000, SPAWN_EXITED }, { 400, SPAWN_TIMED_OUT },
	};
	const char *tok = run_token();
	char scripts[3][512], marks[3][32];
	size_t i;

	if (access("/usr/bin/setsid", X_OK) < 0 && access("/bin/setsid", X_OK) < 0) {
		SKIP("the escapee cases: no setsid(1)");
		return;
	}
	snprintf(scripts[0], sizeof(scripts[0]),
		 "setsid sleep 37.%s10 >/dev/null 2>&1 &\nsleep 0.1\necho ok\n", tok);
	snprintf(scripts[1], sizeof(scripts[1]),
		 "(setsid sh -c 'sleep 37.%s21 & sleep 37.%s22' >/dev/null 2>&1 &)\n"
		 "sleep 0.1\necho ok\n", tok, tok);
	snprintf(scripts[2], sizeof(scripts[2]),
		 "setsid sh -c 'sleep 37.%s31 & exec sleep 37.%s32' >/dev/null 2>&1 &\n"
		 "sleep 0.1\necho ok\nexec sleep 37.%s33\n", tok, tok, tok);
	for (i = 0; i < ARRAY_SIZE(rows); i++)
		snprintf(marks[i], sizeof(marks[i]), "37.%s%zu", tok, i + 1);
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		char *argv[] = { "/bin/sh", "-c", scripts[i], NULL };
		struct spawn_result r;
		double t0 = clock_ms();

		spawn_run("/bin/sh", argv, NULL, NULL, clock_ms() + rows[i].budget_ms, &r);
		CHECK(r.status == rows[i].status, "row %zu: %s", i, status_name(r.status));
		/* generous: it is there to catch a wait for the escapee (37 s) */
		CHECK(clock_ms() - t0 < rows[i].budget_ms + 5000, "row %zu: %.0f ms", i,
		      clock_ms() - t0);
		/* a child the kernel took longer than SPAWN_REAP_MS to end (a
		 * loaded machine) is left unreaped, and its escapees, which
		 * come to us only when it has ended, are what spawn_kill_all
		 * (at the audit's end) takes: they must not outlive that */
		if (r.unreaped)
			spawn_kill_all(clock_ms() + 5000, NULL);
		CHECK_INT(marked_survivors(marks[i]), 0, "row %zu: an escapee survived%s", i,
			  r.unreaped ? " spawn_kill_all" : "");
		spawn_result_release(&r);
	}
}

static void test_escapees_kill_all(void)
{
	char script[128], mark[32];
	char *argv[] = { "/bin/sh", "-c", script, NULL };
	struct spawn_result r;

	if (access("/usr/bin/setsid", X_OK) < 0 && access("/bin/setsid", X_OK) < 0) {
		SKIP("the escapee left for spawn_kill_all: no setsid(1)");
		return;
	}
	snprintf(script, sizeof(script),
		 "setsid sleep 37.%s41 >/dev/null 2>&1 &\nexec sleep 37.%s42\n",
		 run_token(), run_token());
	snprintf(mark, sizeof(mark), "37.%s4", run_token());
	/* a stray of an earlier, finished spawn, while another is in flight,
	 * is left for the last one (or spawn_kill_all) to take */
	spawn_run("/bin/sh", argv, NULL, NULL, clock_ms() + 200, &r);
	CHECK(r.status == SPAWN_TIMED_OUT, "timed out: %s", status_name(r.status));
	CHECK_INT(marked_survivors(mark), 0, "escapee after the deadline");
	spawn_result_release(&r);
	spawn_kill_all(clock_ms() + 5000, NULL);
	CHECK_INT(marked_survivors(mark), 0, "after spawn_kill_all");
}

/* No /dev/null in the child's way: its standard input reads as end of
 * file, and nothing of ours is left open in it. */
static void test_stdin(void)
{
	struct spawn_result r;

	spawn_run(fx("read-stdin"), NULL, NULL, NULL, clock_ms() + 5000, &r);
	CHECK(r.status == SPAWN_EXITED && r.code == 0, "read-stdin: %s %d",
	      status_name(r.status), r.code);
	CHECK_STR(r.out, "stdin done\n", "stdin at end of file");
	CHECK(r.pid > 0, "pid %d", r.pid);
	spawn_result_release(&r);
}

/* The default search path when PATH is unset: confstr(_CS_PATH). */
static void test_search_path(void)
{
	const char *saved = getenv("PATH");
	char *copy = saved ? xstrdup(saved) : NULL;
	char want[1024];
	int dflt = -1;

	CHECK(confstr(_CS_PATH, want, sizeof(want)) > 0, "confstr");
	setenv("PATH", "/x:/y", 1);
	CHECK_STR(spawn_search_path(&dflt), "/x:/y", "PATH set");
	CHECK_INT(dflt, 0, "not the default");
	setenv("PATH", "", 1);
	CHECK_STR(spawn_search_path(&dflt), "", "PATH empty is not unset");
	CHECK_INT(dflt, 0, "empty: not the default");
	unsetenv("PATH");
	CHECK_STR(spawn_search_path(&dflt), want, "PATH unset");
	CHECK_INT(dflt, 1, "the default");
	if (copy)
		setenv("PATH", copy, 1);
	free(copy);
}

/* After spawn_close nothing starts (last: it is for good). */
static void test_close(void)
{
	struct spawn_result r;
	int rc;

	spawn_close();
	rc = spawn_run(fx("print-version"), NULL, NULL, NULL, clock_ms() + 5000, &r);
	CHECK(rc == 0 && r.status == SPAWN_TIMED_OUT && r.out_len == 0 && !r.pid,
	      "closed: %s", status_name(r.status));
	spawn_result_release(&r);
}

void test_main(void)
{
	char *real = realpath(test_tmpdir("spawn"), NULL);

	if (!real) {
		CHECK(0, "no scratch directory");
		return;
	}
	snprintf(base, sizeof(base), "%s", real);
	free(real);
	fixtures_install();
	test_which();
	test_env();
	test_runs();
	test_hangs();
	test_failures();
	test_argv_cwd_env();
	test_signals();
	test_mark();
	test_threads();
	test_kill_all();
	test_escapees();
	test_escapees_kill_all();
	test_stdin();
	test_search_path();
	test_close();
}
