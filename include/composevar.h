/* composevar.h - compose's variable interpolation, as compose-go's
 * template/template.go does it: $$, $VAR, ${VAR}, ${VAR:-default},
 * ${VAR-default}, ${VAR:?err}, ${VAR?err}, ${VAR:+alt}, ${VAR+alt},
 * nested.  Pure: no I/O, the values come from a lookup callback, safe to
 * fuzz.  The result may hold a secret (a .env value): the caller wipes it.
 */
#ifndef EP_COMPOSEVAR_H
#define EP_COMPOSEVAR_H

#include <stddef.h>

#include "util.h"

/* The value of variable [name, name+n), or NULL when it is unset. */
typedef const char *(*composevar_lookup)(void *ctx, const char *name, size_t n);

enum composevar_status {
	COMPOSEVAR_OK,
	COMPOSEVAR_UNSET,	/* ${VAR:?msg}: VAR unset (or empty, with ':') */
	COMPOSEVAR_SYNTAX,	/* a "$" compose cannot interpolate */
};

/* Why it failed: name and msg point into the text passed in (the
 * variable, and the message as written: compose prints it substituted,
 * which could show a .env value; substituting msg again with the same
 * lookup gives compose's); NULL/0 when there is none. */
struct composevar_error {
	enum composevar_status status;
	const char *name, *msg;
	size_t name_len, msg_len;
};

/* Substitute [s, s+n) into out.  Returns 0, or -1 with err filled (the
 * first failure; out then holds a part of the text, to be wiped). */
int composevar_subst(const char *s, size_t n, composevar_lookup lookup,
		     void *ctx, struct buf *out, struct composevar_error *err);

#endif
