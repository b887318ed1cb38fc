/* poetryhash.h - poetry's content-hash of pyproject.toml: whether the
 * hash a poetry.lock records still matches the project (poetry's
 * Locker._get_content_hash and is_fresh).
 */
#ifndef EP_POETRYHASH_H
#define EP_POETRYHASH_H

struct toml_value;

/* 1 when hash (64 hex digits, poetry.lock's metadata.content-hash) is
 * the content-hash of pyproject (its parsed tree) as some poetry release
 * computes it (1.x and 2.x: [tool.poetry]'s dependencies, source, extras,
 * dev-dependencies and group; 2.x: also [project]'s requires-python,
 * dependencies and optional-dependencies; 2.3 on: [dependency-groups]);
 * 0 when none does: the lock is stale; -1 when it cannot be told (a
 * float, a date or a time in what is hashed, whose JSON text poetry's
 * Python would write its own way, or no hash).  since: the oldest release
 * whose hash counts (0, 1, 2 as above: 1.x, 2.0, 2.3; a lock-version 2.1
 * is poetry 2's: 1; one a poetry >= 2.3 wrote: 2). */
int poetry_hash_fresh(const struct toml_value *pyproject, const char *hash, int since);

/* The JSON text poetry hashes for variant k (0, 1, 2: the releases
 * above, oldest first), into *out (a new string): 0, -1 when it cannot be
 * told.  For the tests, which compare it with Python's json.dumps. */
int poetry_hash_text(const struct toml_value *pyproject, int k, char **out);

#endif
