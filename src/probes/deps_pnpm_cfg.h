/* deps_pnpm_cfg.h - the deps probe's pnpm: the lockfile's configuration
 * against the project's (src/probes/deps_pnpm_cfg.c).  Private to the
 * deps probe.
 */
#ifndef EP_DEPS_PNPM_CFG_H
#define EP_DEPS_PNPM_CFG_H

#include "deps_probe.h"
#include "deps_pnpm.h"

/* Whether pnpm's frozen install would refuse lock for a configuration
 * that differs from the one it records (overrides, patches, catalogs,
 * checksums, settings): 1 with r set (the relock as fix), else 0. */
int deps_pnpm_config_check(const struct spec *spec, const struct lock_req *l,
			   const struct pnpm_lock *lock, struct result *r);

#endif
