/* signals.c - see signals.h
 *
 * sigwait in a thread of its own rather than a handler: ending the
 * children takes the spawn registry's mutex and reads /proc, which a
 * handler may not do.  The price is that the signals must be blocked in
 * every other thread, which signals_guard arranges by running before the
 * workers start.
 *
 * One state, under one mutex, orders the two ways out: a signal (DYING:
 * main must neither print nor exit from then on, it waits for the end)
 * and main's own exit (EXITING: a signal that comes later is left to the
 * exit, whose children are gone already).
 */
#include "signals.h"
#include "spawnrun.h"
#include "util.h"

#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

enum { RUNNING, DYING, EXITING };

static const int watched[] = { SIGTERM, SIGINT, SIGHUP };
static sigset_t set;		/* those of watched not ignored at start */
static int wake_sig;		/* one of set, to wake the watcher; 0: none */
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t state_cv = PTHREAD_COND_INITIALIZER;	/* never signalled */
static int state = RUNNING;
static pthread_t watcher;
static int watching;
static int stop_status = -1;	/* signals_exit_status's; -1: by the signal */
static pthread_mutex_t hold_lock = PTHREAD_MUTEX_INITIALIZER;	/* signals_hold */

/* End the children, then the process, by sig (or with stop_status,
 * once a write held by signals_hold is done). */
static void die_by(int sig)
{
	struct sigaction dfl;
	sigset_t one;

	spawn_close();
	spawn_kill_all(clock_ms() + SIGNALS_REAP_MS, NULL);
	if (stop_status >= 0) {
		struct timespec until;

		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += SIGNALS_HOLD_MS / 1000;
		pthread_mutex_timedlock(&hold_lock, &until);
		_exit(stop_status);
	}
	sigemptyset(&dfl.sa_mask);
	dfl.sa_flags = 0;
	dfl.sa_handler = SIG_DFL;
	sigaction(sig, &dfl, NULL);
	sigemptyset(&one);
	sigaddset(&one, sig);
	/* pending on this thread, then unblocked here: delivered at once */
	raise(sig);
	/* cppcheck-suppress unreachableCode ; raise returns: sig is blocked here */
	pthread_sigmask(SIG_UNBLOCK, &one, NULL);
	_exit(128 + sig);	/* not reached */
}

/* 1 when sig is to end the process now: the state is then DYING. */
static int begin_dying(void)
{
	int go;

	pthread_mutex_lock(&state_lock);
	go = state == RUNNING;
	if (go)
		state = DYING;
	pthread_mutex_unlock(&state_lock);
	return go;
}

static void *watch(void *arg)
{
	int sig;

	(void)arg;
	for (;;) {
		if (sigwait(&set, &sig) != 0)
			continue;
		if (!begin_dying())
			return NULL;	/* main is exiting, or woke us to */
		die_by(sig);
	}
}

void signals_exit_status(int status)
{
	stop_status = status;
}

void signals_hold(void)
{
	pthread_mutex_lock(&hold_lock);
}

void signals_release(void)
{
	pthread_mutex_unlock(&hold_lock);
}

int signals_guard(void)
{
	size_t i;
	int rc;

	sigemptyset(&set);
	for (i = 0; i < ARRAY_SIZE(watched); i++) {
		struct sigaction old;

		/* ignored on entry stays ignored, as with a shell's traps */
		if (sigaction(watched[i], NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;
		sigaddset(&set, watched[i]);
		if (!wake_sig)
			wake_sig = watched[i];
	}
	if (!wake_sig)
		return 0;	/* all ignored: nothing to watch */
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	rc = pthread_create(&watcher, NULL, watch, NULL);
	watching = rc == 0;
	return rc;
}

void signals_act_pending(void)
{
	const struct timespec now = { 0, 0 };
	int sig;

	if (!wake_sig || watching)
		return;
	sig = sigtimedwait(&set, NULL, &now);
	if (sig > 0 && begin_dying())
		die_by(sig);
}

/* Under state_lock: while a signal is ending the process, wait for it. */
static void wait_while_dying(void)
{
	while (state == DYING)
		pthread_cond_wait(&state_cv, &state_lock);
}

void signals_gate(void)
{
	pthread_mutex_lock(&state_lock);
	wait_while_dying();
	pthread_mutex_unlock(&state_lock);
}

void signals_exit(int status)
{
	pthread_mutex_lock(&state_lock);
	wait_while_dying();
	state = EXITING;
	pthread_mutex_unlock(&state_lock);
	if (watching) {
		/* a signal of its set, to this thread only, ends its wait */
		pthread_kill(watcher, wake_sig);
		pthread_join(watcher, NULL);
	}
	exit(status);
}
