/* gemreq.h - RubyGems' version requirements ("~> 3.3"; ">= 3.1" and
 * "< 3.4"; "3.4.4"), as a Gemfile's ruby directive gives them and Bundler checks
 * the running Ruby against them.  Pure: no I/O, safe to fuzz.
 */
#ifndef EP_GEMREQ_H
#define EP_GEMREQ_H

#include <stddef.h>

/* 1 when version satisfies every requirement of reqs (the directive's
 * strings joined with ", ", as the model keeps them: the Gemfile reader
 * refuses a string with a comma of its own; each one Gem::Requirement's
 * "[op] version", op one of = != > < >= <= ~>, "=" when none), 0 when
 * not, -1 with a message in err when a requirement is not one RubyGems
 * parses (Gem::Requirement::BadRequirementError) or version is not a
 * version. */
int gem_req_check(const char *reqs, const char *version, char *err, size_t errlen);

/* The version a requirement of reqs pins exactly ("3.4.4" of "= 3.4.4"),
 * into out; 1 when there is one, 0 when not. */
int gem_req_exact(const char *reqs, char *out, size_t outlen);

#endif
