/* npm_cache.h - what npm's own cache says the registry holds.
 *
 * npm keeps every registry answer it fetched in a content-addressed cache
 * (cacache, below `<cache>/_cacache`): an index entry named by the request
 * and the body it points to.  When whether npm changes a lockfile depends
 * on what the registry holds (the newest version in an override's range),
 * the packument npm last fetched is the one thing on this machine that
 * says it; no request is ever sent.
 */
#ifndef EP_NPM_CACHE_H
#define EP_NPM_CACHE_H

#include "util.h"

/* The packument of url (the registry's document of one package, as
 * pacote asks it: "<registry>/<escaped name>") from the cacache folder
 * cacache, into out: 0, or -1 when the cache holds none (or not one this
 * can read). */
int npm_cache_packument(const char *cacache, const char *url, struct blob *out);

#endif
