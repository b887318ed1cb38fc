/* elixirreq.h - Elixir's version requirements ("~> 1.15", ">= 1.14.0 and
 * < 1.18.0"), as mix.exs's project elixir: gives them and Mix checks the
 * running Elixir against them.  Pure: no I/O, safe to fuzz.
 */
#ifndef EP_ELIXIRREQ_H
#define EP_ELIXIRREQ_H

#include "util.h"

/* The node-semver range that matches what Elixir's Version.match?/2
 * matches for req (lib/elixir/lib/version.ex: ==, >, >=, <, <=, ~>, and,
 * or, && and ||; a version alone is ==) into out.  0, or -1 for a
 * requirement Elixir refuses, or one with != (which a node-semver
 * comparator set cannot say). */
int elixir_req_semver(const char *req, struct buf *out);

/* 1 when version satisfies req, 0 when not, -1 when req is not one
 * elixir_req_semver takes or version is not a version. */
int elixir_req_check(const char *req, const char *version);

#endif
