/* result.h - the outcome of one check, filled by a probe, read by renderers.
 *
 * Probes never print: they fill a struct result, and one renderer per
 * output format reads the whole list after every thread has finished.
 */
#ifndef EP_RESULT_H
#define EP_RESULT_H

#include <cJSON.h>

#include "origin.h"

enum status { STATUS_PASS, STATUS_WARN, STATUS_FAIL, STATUS_SKIP, STATUS_ERROR };
#define STATUS_COUNT 5

/* "pass", "warn", ... as in the JSON schema */
const char *status_name(enum status s);

/*
 * Why a check did not pass: JSON "reason", one word from this fixed list
 * (the man page's REASONS says when each is given), so that a harness can
 * switch on it.  Every result but a pass has one; the X-macro keeps the
 * enum and its names in one place.  Append, never rename.  The third
 * column is why such a result has no fix when it has none (NO_FIXES
 * below), unless the probe says otherwise (result.no_fix).
 */
#define REASONS(X) \
	X(NONE, NULL, UNDECIDED) \
	X(ENV_MISSING, "env-missing", NEEDS_A_PERSON)		/* no .env */ \
	X(KEYS_MISSING, "keys-missing", NEEDS_A_PERSON) \
	X(KEYS_EMPTY, "keys-empty", NEEDS_A_PERSON) \
	X(KEYS_DUPLICATE, "keys-duplicate", NEEDS_A_PERSON) \
	X(KEYS_EXTRA, "keys-extra", NEEDS_A_PERSON) \
	X(SYNTAX, "syntax", NEEDS_A_PERSON)			/* a line dotenv skips */ \
	X(UNREADABLE, "unreadable", NEEDS_A_PERSON)		/* a file we must read */ \
	X(TRACKED, "tracked", NEEDS_A_PERSON)			/* .env is committed */ \
	X(NOT_IGNORED, "not-ignored", NEEDS_A_PERSON) \
	X(UNDECIDED, "undecided", UNDECIDED)		/* could not tell */ \
	X(HELD, "held", NEVER_SIGNAL)				/* a port another process holds */ \
	X(NOT_LISTENING, "not-listening", NO_KNOWN_PROVIDER) \
	X(NOT_VISIBLE, "not-visible", NEVER_SIGNAL)		/* its process cannot be seen */ \
	X(VERSION_MISMATCH, "version-mismatch", NO_KNOWN_INSTALLER) \
	X(UNSATISFIABLE, "unsatisfiable", NEEDS_A_PERSON)	/* no version can satisfy it */ \
	X(INVALID_REQUIREMENT, "invalid-requirement", NEEDS_A_PERSON) \
	X(NOT_FOUND, "not-found", NO_KNOWN_INSTALLER)		/* not on PATH */ \
	X(EXEC_FAILED, "exec-failed", NEEDS_A_PERSON)		/* ran, gave no version */ \
	X(REFUSED, "refused", NEEDS_A_PERSON)			/* never run: see SECURITY */ \
	X(UNKNOWN, "unknown", UNDECIDED)			/* no way to ask it */ \
	X(DAEMON_DOWN, "daemon-down", OUTSIDE) \
	X(PERMISSION_DENIED, "permission-denied", NEEDS_A_PERSON) \
	X(CANNOT_COMPARE, "cannot-compare", UNDECIDED) \
	X(TIMEOUT, "timeout", RERUN)			/* still running at the deadline */ \
	X(NOT_RUN, "not-run", RERUN)			/* the deadline came first */ \
	X(OUT_OF_SCOPE, "out-of-scope", UNDECIDED)		/* UDP, a cap */ \
	X(NOT_APPLICABLE, "not-applicable", UNDECIDED)	/* nothing to check here */ \
	X(PROBE_ERROR, "probe-error", INTERNAL)		/* the probe itself failed */ \
	X(VARIABLE_UNSET, "variable-unset", NEEDS_A_PERSON)	/* a ${VAR:?} with no value */ \
	X(KEYS_STILL_EMPTY, "keys-still-empty", NEEDS_A_PERSON)	/* empty as in the example */ \
	X(MISREAD, "misread", NEEDS_A_PERSON)			/* dotenv reads it otherwise */ \
	X(NO_MATCH, "no-match", NEEDS_A_PERSON)			/* a workspace pattern matches nothing */ \
	X(NOT_INSTALLED, "not-installed", NO_KNOWN_INSTALLER)	/* no node_modules, no venv */ \
	X(OUT_OF_DATE, "out-of-date", NEEDS_A_PERSON)		/* installed != lockfile */ \
	X(LOCKFILE_INVALID, "lockfile-invalid", NEEDS_A_PERSON)	/* no tool could read it */ \
	X(EXPOSED, "exposed", OUTSIDE)			/* sandbox: a way out is open */ \
	X(PRIVILEGED, "privileged", OUTSIDE)		/* sandbox: more power than asked */ \
	X(WRITABLE, "writable", OUTSIDE)			/* sandbox: should be read-only */ \
	X(NOT_WRITABLE, "not-writable", OUTSIDE)		/* sandbox: should be writable */

enum reason {
#define REASON_ENUM(name, text, nofix) REASON_##name,
	REASONS(REASON_ENUM)
#undef REASON_ENUM
};

/*
 * Why a check that did not pass has no fix (JSON "no_fix"), one word from
 * this fixed list, so that a harness can tell "no remedy can be given"
 * from "none was offered" (the man page's JSON section says each).  Append,
 * never rename.
 */
#define NO_FIXES(X) \
	X(NONE, NULL) \
	X(NEVER_SIGNAL, "never-signal")	/* freeing it means stopping
						 * a process: never ours to do */ \
	X(NO_KNOWN_INSTALLER, "no-known-installer")	/* no version manager
						 * or installer found */ \
	X(NO_KNOWN_PROVIDER, "no-known-provider")	/* nothing declared
						 * starts what should listen */ \
	X(NEEDS_A_PERSON, "needs-a-person")	/* a value, a decision, a
						 * requirement to correct */ \
	X(RERUN, "rerun")			/* it did not finish: again,
						 * with a longer --timeout */ \
	X(UNDECIDED, "undecided")		/* what is wrong is not known */ \
	X(OUTSIDE, "outside")			/* the cause is outside what
						 * runs here: the sandbox's
						 * setup, a daemon root starts */ \
	X(INTERNAL, "internal")			/* the probe failed: a bug */

enum no_fix {
#define NO_FIX_ENUM(name, text) NO_FIX_##name,
	NO_FIXES(NO_FIX_ENUM)
#undef NO_FIX_ENUM
};

/* The JSON word for why (static), or NULL for REASON_NONE. */
const char *reason_name(enum reason why);

/*
 * What would make a failing check pass, as data (JSON "fix"), never as a
 * shell string.  envpreflight itself never runs a fix.  who is FIX_AGENT
 * when a program can do it (argv), FIX_HUMAN when only a person can (a
 * secret value, a requirement to correct: edit says where).
 */
enum fix_who { FIX_AGENT, FIX_HUMAN };
enum fix_need {
	FIX_NEEDS_NETWORK = 1 << 0,	/* downloads something */
	FIX_NEEDS_DOCKER = 1 << 1,	/* a running docker daemon */
	FIX_NEEDS_SHELL = 1 << 2,	/* argv[0] is a shell function (nvm):
					 * run in a shell that loaded it */
};

/* One path a fix's argv may create or change in the work tree. */
struct fix_write {
	char *path;		/* relative to the fix's cwd, owned */
	unsigned char dir;	/* a directory (node_modules, a venv): what
				 * git makes of it before it exists depends
				 * on it */
	unsigned char git;	/* enum fix_git, set after the run
				 * (fix_git.c) */
};

struct fix {
	enum fix_who who;
	char **argv;		/* NULL-terminated words, or NULL */
	unsigned needs;		/* enum fix_need bits */
	struct origin edit;	/* file NULL: nothing to edit; the name is
				 * repository-relative, as every origin's */
	const char *cwd;	/* where argv runs, repository-relative (a
				 * workspace's directory: a model's string);
				 * NULL: the repository itself (".") */
	struct fix_write *writes;	/* writes[0..nwrites): JSON "writes"
				 * and "writes_git", a harness that keeps the
				 * tree clean filters on it; one per
				 * workspace for an install, so no fixed cap */
	size_t nwrites, writes_cap;
};

/* What git makes of a path a fix writes (JSON "writes_git"): a change to
 * a tracked file dirties the tree, a new untracked one shows in git
 * status, an ignored one neither. */
enum fix_git {
	FIX_GIT_UNKNOWN,	/* null: no work tree, outside it, or the
				 * index could not be read */
	FIX_GIT_TRACKED,
	FIX_GIT_UNTRACKED,
	FIX_GIT_IGNORED,
};

struct result {
	char *id;		/* stable, unique: "env.parity", "ports.tcp.5432" */
	const char *probe;	/* the probe's name (static) */
	enum status status;
	char *title;		/* "Port 5432" */
	char *message;		/* one line; never holds a .env value */
	char *hint;		/* what to do about it, or NULL */
	struct origin source;	/* where the requirement came from */
	char **notes;		/* --explain lines, e.g. further sources */
	size_t nnotes;
	cJSON *data;		/* probe-specific details for JSON, or NULL */
	double duration_ms;
	enum reason reason;	/* REASON_NONE for a pass */
	struct fix *fix;	/* or NULL */
	enum no_fix no_fix;	/* why there is no fix, when the probe knows
				 * better than its reason's default; else
				 * NO_FIX_NONE (see result_no_fix) */
	const char *workspace;	/* the workspace it checks ("apps/web", the
				 * model's string), NULL for the repository */
	unsigned attempts;	/* how many times it ran: 1, more when --wait
				 * ran it again (JSON "attempts") */
};

/* Setters take printf formats and own what they store; an argument may
 * be the text being replaced (result_set(r, s, "x: %s", r->message)). */
void result_set(struct result *r, enum status s, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void result_hint(struct result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void result_note(struct result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void result_release(struct result *r);
/* Name a child process the check started that could not be reaped
 * (killed, but stopped in the kernel): appended to the message, and to
 * data's "unreaped" list when data is an object. */
void result_unreaped(struct result *r, int pid, const char *program,
		     double ran_ms);
/* Why r has no fix (JSON "no_fix", static): NULL when it has one or
 * passed or was skipped; else the probe's word, or its reason's. */
const char *result_no_fix(const struct result *r);
/* A deep copy of r into *dst (which is overwritten, not released). */
void result_copy(struct result *dst, const struct result *r);

/* A fix that runs argv0 and the words after it (NULL-terminated), with
 * the repository as its working directory.  Every word must be
 * fix_word_safe: a caller passes repository text only once validated (a
 * version that parsed, a service name of [A-Za-z0-9][A-Za-z0-9._-]*).
 * When a word is not, no fix is set and -1 is returned: hostile text
 * never reaches an argv. */
int result_fix_argv(struct result *r, enum fix_who who, unsigned needs,
		    const char *argv0, ...) __attribute__((sentinel));
/* The fix's argv may create or change name (relative to where it runs)
 * in the work tree: appended to its writes.  No fix, or one without
 * argv: no-op. */
void result_fix_writes(struct result *r, const char *name);
/* The same for a directory (node_modules, a venv): what git makes of a
 * path not there yet depends on it. */
void result_fix_writes_dir(struct result *r, const char *name);
/* No fix after all: the one set is dropped. */
void result_fix_clear(struct result *r);
/* A fix only a person can make: edit file (at line, 0: anywhere). */
void result_fix_edit(struct result *r, const char *file, unsigned line);
/* The fix's argv runs in dir (repository-relative, static or a model's
 * string; NULL: the repository), for a command whose effect depends on
 * where it runs (docker compose, pyenv local, mise use).  No fix: no-op. */
void result_fix_cwd(struct result *r, const char *dir);

/* 1 when s may be a word of a fix's argv: 1 to 200 bytes of
 * [A-Za-z0-9._/@:=+,-], so no space, quote, glob or shell character. */
int fix_word_safe(const char *s);

#endif
