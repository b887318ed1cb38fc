/* runtime_ask.h - asking the machine for a runtime's version, once a run
 * however many checks name the runtime (runtime_ask.c), and which
 * commands preflight.yaml may have run for that (runtime_cmd.c).
 *
 * Asking means, in order: the exec-free shortcuts of peek_version, the
 * version cache, and only then one spawn of the binary found on PATH.
 * The docker daemon is asked over its socket instead.
 */
#ifndef EP_RUNTIME_ASK_H
#define EP_RUNTIME_ASK_H

#include "docker.h"
#include "probe.h"
#include "peek.h"

/* ANS_PENDING only from runtime_prepare: a program must run (or the
 * daemon be asked), and the answer says what it will be should that not
 * answer before the deadline (error and timed_out, or docker). */
enum answer_state { ANS_FOUND, ANS_MISSING, ANS_ERROR, ANS_DOCKER, ANS_REFUSED,
		    ANS_PENDING };

/* What every check of one runtime shares.  Read-only once made; owned by
 * the run (run_once), freed when the run is over. */
struct runtime_answer {
	char *name;
	enum answer_state state;
	char *version;		/* ANS_FOUND: bare, validated ("20.11.1") */
	enum vmethod method;
	char *path;		/* the binary found on PATH, or the socket */
	char *resolved;		/* a shim's real binary (peek), or NULL */
	char *command;		/* "/usr/bin/node --version" as run */
	char *skipped;		/* PATH entries skipped, or NULL */
	char *tried;		/* "python3, python" */
	char *error;		/* ANS_ERROR: what went wrong; ANS_REFUSED:
				 * why the binary was not run */
	enum status refused;	/* ANS_REFUSED: the check's status */
	char *note;		/* FOUND without running it because running
				 * it would run repository code: why */
	int timed_out;		/* ANS_ERROR: killed at the deadline */
	double budget_ms;	/* ... after running this long */
	char *default_path;	/* PATH unset: the default searched
				 * (spawn_search_path), else NULL */
	int no_version;		/* ANS_ERROR: it ran, but printed no version */
	char *not_installed;	/* ANS_ERROR: rustup's proxy answered that
				 * the toolchain the directory selects is not
				 * installed: its name, or NULL */
	int no_process;		/* ANS_ERROR: EAGAIN: no process to run it */
	struct docker_info docker;	/* ANS_DOCKER, and FOUND by socket */
	int asked_docker;
	char *docker_cli;	/* no socket: the docker CLI on PATH (looked
				 * up, never run), or NULL */
};

/* Everything short of running a program or asking the daemon (lookup,
 * the exec-free shortcuts, the guards, the cache), at most once a run:
 * ANS_PENDING when runtime_ask must still run it. */
const struct runtime_answer *runtime_prepare(const struct run_ctx *ctx,
					     const char *name);

/* The answer for runtime name, asked at most once a run: runtime_prepare's
 * when it is not pending, else the outcome of running what it prepared
 * (under the run's deadline, the child recorded as ctx->check's). */
const struct runtime_answer *runtime_ask(const struct run_ctx *ctx,
					 const char *name);

/* 1 when envpreflight knows how to ask name: the table has it, or
 * preflight.yaml gives a command for it. */
int runtime_askable(const struct spec *spec, const char *name);

/* 1 when name is asked over a socket (the docker daemon): the table
 * says so and preflight.yaml gives it no command of its own. */
int runtime_by_socket(const struct spec *spec, const char *name);

/* 1 when command (preflight.yaml's, its program found at path) is a
 * version query envpreflight runs. */
int runtime_cmd_allowed(char *const *command, const char *path);

#endif
