/* signals.h - the signals that end a run early (SIGTERM, SIGINT, SIGHUP:
 * a watchdog, timeout(1), a CI cancel, Ctrl-C) end every child first.
 *
 * Children run in process groups of their own, so a terminal's Ctrl-C or
 * a kill of envpreflight alone never reaches them: without this they
 * would run on after envpreflight is gone.
 */
#ifndef EP_SIGNALS_H
#define EP_SIGNALS_H

/* How long the children get to die on a signal, in ms. */
#define SIGNALS_REAP_MS 100

/* Block the three signals in the calling thread, and so in every thread
 * started after it (call it before the first child can start, before any
 * thread that may start one; before that, a signal has its default action,
 * which is right while there is no child), and start one thread that
 * waits for them (sigwait: no code runs in a signal handler).  On a signal it
 * stops new children (spawn_close), kills every child and every
 * descendant that left its group, reaps what dies within SIGNALS_REAP_MS
 * (spawn_kill_all), and ends the process by the same signal with its
 * default action, so that the caller sees "killed by SIGTERM" (a shell's
 * 128 + N), or with signals_exit_status's status when one was set.  A signal ignored when the program started (nohup, a
 * background job's SIGINT) stays ignored.  Returns 0, or an errno value
 * when the thread could not be started: the signals then stay blocked
 * until signals_act_pending. */
int signals_guard(void);

/* From now on a signal ends the process with exit status `status` (after
 * the children, as above) instead of by the signal: a server asked to
 * stop (envpreflight mcp) has done nothing wrong.  Call it before
 * signals_guard. */
void signals_exit_status(int status);

/* Around a write that must not be cut (a server's response): while held,
 * such an end waits, up to SIGNALS_HOLD_MS (a client that never reads
 * must not keep the server alive).  Call signals_gate first. */
#define SIGNALS_HOLD_MS 1000
void signals_hold(void);
void signals_release(void);

/* Act on a signal that arrived while no thread could watch for it (after
 * signals_guard failed): as above, now.  Returns when none is pending. */
void signals_act_pending(void);

/* Wait here for good should a signal be being acted upon (the process
 * then ends by it); else return at once.  main calls it before it prints
 * the report. */
void signals_gate(void);

/* exit(status), unless a signal is being acted upon: then the process
 * ends by that signal (or signals_exit_status's) instead, once every
 * child is killed.  Every exit
 * after signals_guard goes this way (it also ends the watching thread). */
void signals_exit(int status) __attribute__((noreturn));

#endif
