/* redact.h - hiding secrets in text that envpreflight shows but did not
 * write: the command line of a process that holds a port.
 *
 * Anyone may read another user's /proc/PID/cmdline, but envpreflight
 * promises never to print a secret, so every shown command line passes
 * through here twice:
 *   - by shape (redact_cmdline): the value of an option, variable,
 *     parameter or header named like a secret, an Authorization scheme's
 *     credentials, a URL's userinfo, a token of a well-known form (AWS,
 *     GitHub, GitLab, Slack, Stripe, npm, JWT, private keys, long random
 *     strings) and the password options of clients that take one glued on
 *     (mysql -pSECRET); see the table in redact.c.  When in doubt it hides:
 *     a hidden port number costs less than a shown password.
 *   - by value (struct redact_values): every token that holds one of a
 *     set of known secrets (the .env's values) wherever it appears.
 * Hidden text shows as "***".  A best effort, not a guarantee: a secret of
 * no known shape and not in the .env is shown.  Pure: no system call.
 */
#ifndef EP_REDACT_H
#define EP_REDACT_H

#include <stddef.h>

#define REDACT_MASK "***"

/*
 * A new string: the arguments in args[0..len) (NUL-separated, as
 * /proc/PID/cmdline has them; trailing NULs and spaces ignored; args is
 * not changed) joined by spaces, secrets by shape hidden, control
 * characters cleaned (util.h text_clean) and cut at about max bytes on a
 * character boundary, ending in "..." when cut.
 */
char *redact_cmdline(const char *args, size_t len, size_t max);

/* A set of known secret values, hidden wherever they appear. */
struct redact_values;

/* Values shorter than this (after trimming spaces) are too common to
 * hide: they would mask half of every command line. */
#define REDACT_VALUE_MIN 4

struct redact_values *redact_values_new(void);
/* Add the value v[0..len) (copied, wiped when freed).  A value holding
 * NUL bytes is taken part by part (an argv never holds a NUL); it is
 * compared as text_clean shows it.  Call redact_values_apply only after
 * the last add. */
void redact_values_add(struct redact_values *x, const char *v, size_t len);
/* How many values are held (0: nothing to hide). */
size_t redact_values_count(const struct redact_values *x);
/*
 * cmd (a command line from redact_cmdline) with every space-separated
 * token that holds a value replaced by "***", and a last token cut off by
 * "..." that ends with the start of a value; a new string, or NULL when
 * nothing is to hide.  The work is the length of cmd times the number of
 * distinct value lengths, whatever the number of values.
 */
char *redact_values_apply(struct redact_values *x, const char *cmd);
void redact_values_free(struct redact_values *x);

#endif
