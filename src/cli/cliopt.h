/* cliopt.h - what the user typed, when getopt_long refuses an option.
 *
 * getopt_long (opterr 0, an optstring that starts with ':') returns '?'
 * or ':' and leaves optind where its scan stands, which is not the word
 * at fault inside a group of short options: "-json" stops at 'j' with
 * optind still on "-json" itself, so argv[optind - 1] is the word before
 * it, or the program's own name.  Here argv is walked as getopt_long
 * walks it (non-options skipped, "--" ending the options, a value taken
 * with its option) to the option after the ones already returned, and
 * the message names that one as typed:
 *
 *   unknown option '-j' in '-json'; did you mean '--json'?
 *   option '-f' in '-qf' needs a value
 *   option '--s' is ambiguous (--skip, --strict, --schema)
 *   option '--json' takes no value ('--json=1')
 *
 * Used by the command line, init and mcp alike.  Nothing here prints.
 */
#ifndef EP_CLIOPT_H
#define EP_CLIOPT_H

#include <getopt.h>

#include "util.h"

/* Append to msg what getopt_long's return c ('?' or ':') was about,
 * after it had returned nparsed options from argv (argc words) parsed
 * with optstring and longopts. */
void cliopt_error(struct buf *msg, int argc, char *const argv[], const char *optstring,
		  const struct option *longopts, int nparsed, int c);

/* A short option's value that was glued to it in a one-dash word that is
 * a long option as a whole ("-format=json": -f with "ormat=json"):
 * append "; did you mean '--format=json'?" to msg.  word is the argv word
 * the value came from (argv[optind - 1] after getopt_long returned the
 * option), value the optarg getopt_long set. */
void cliopt_value_hint(struct buf *msg, const char *word, const char *value,
		       const struct option *longopts);

#endif
