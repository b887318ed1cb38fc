/* composeenv.h - a .env file as docker compose reads it: with compose-go's
 * own dotenv (dotenv/parser.go, godotenv.go, env.go GetEnvFromFile), not
 * the npm dotenv the app reads (dotenv.h).  The two differ: compose's
 * knows ' and " only (a backtick is text), ends an unquoted value at " #"
 * only, unescapes \" and \\ in double quotes, reads "export KEY=v",
 * "KEY: v" and a bare "KEY" (taken from the environment), substitutes
 * ${VAR} in unquoted and double-quoted values, and refuses a file it
 * cannot read (a quote left open, a key with a space or a character
 * outside [A-Za-z0-9_.[\]-] and letters) where npm's reads on.  Pure: no
 * I/O; safe to fuzz. */
#ifndef EP_COMPOSEENV_H
#define EP_COMPOSEENV_H

#include <stddef.h>

#include "composevar.h"
#include "dotenv.h"

/* Why compose refuses the file: at compose-go's line count, a fixed text
 * ("a line compose cannot read: ...", "a value compose cannot read: ...";
 * never a key or a value, which may be a secret's piece). */
struct composeenv_error {
	unsigned line;
	const char *what;
	int value;	/* a value that cannot be substituted (line: its
			 * key's), not a line that cannot be read */
};

/* Parse [buf, buf+len) into *out (overwritten; freed with
 * dotenv_release()): every assignment in file order, each value
 * substituted as compose does (composevar), its variables looked up with
 * env first (the environment compose runs with, and what the .env files
 * read before set), then among this file's keys read before it.  Returns
 * 0, or -1 with *err when compose refuses the file (*out is then empty).
 * Entries have line and col of their key; quote is the value's quote. */
int composeenv_parse(const char *buf, size_t len, composevar_lookup env, void *ctx,
		     struct dotenv *out, struct composeenv_error *err);

#endif
