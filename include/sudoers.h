/* sudoers.h - sudoers(5) as sudo reads it, for the sandbox probe's sudo
 * check: which lines let the invoking user run a command without a
 * password.  A buffer and a length in (the text need not end in a NUL), no
 * system call, safe to fuzz (tests/fuzz/fuzz_sudoers.c).  Thread-safe.
 */
#ifndef EP_SUDOERS_H
#define EP_SUDOERS_H

#include <stddef.h>

/* Who asks sudo: the invoking user. */
struct sudo_who {
	const char *user;	/* name, or NULL when unknown */
	unsigned long uid;
	const char *const *groups;	/* names of its groups (NULL entries
					 * for gids without a name) */
	const unsigned long *gids;
	size_t ngroups;
};

/* User_Alias definitions collected from every sudoers file before any
 * rule is matched (an alias may be defined in /etc/sudoers and used in
 * /etc/sudoers.d).  Owned; release with sudo_aliases_release. */
struct sudo_aliases {
	char **name, **list;
	size_t n, cap;
};
void sandbox_sudoers_aliases(const char *buf, size_t len, struct sudo_aliases *a);
void sudo_aliases_release(struct sudo_aliases *a);

/*
 * The lines of one sudoers text that let who run a command without a
 * password: a user specification whose user list matches who and that
 * carries a NOPASSWD: tag, or a Defaults (global, or Defaults:LIST that
 * matches who) that sets !authenticate.  fn gets each line's number (of
 * its first physical line) and what it found ("NOPASSWD",
 * "!authenticate").  The user list is matched as sudoers(5) says: ALL,
 * the user's name or #uid, %group or %#gid, a User_Alias, each negated
 * by !, the last item that matches deciding; a netgroup (+name) or a
 * non-Unix group (%:name) never matches.  Host and runas lists are not
 * looked at.  Returns how many.
 */
size_t sandbox_sudoers_scan(const char *buf, size_t len, const struct sudo_who *who,
			    const struct sudo_aliases *aliases,
			    void (*fn)(unsigned line, const char *what, void *arg),
			    void *arg);

/* 1 when a file name in /etc/sudoers.d is read by sudo: sudo skips names
 * that end in '~' or hold a '.' (sudoers(5), @includedir). */
int sandbox_sudoers_d_name(const char *name);

#endif
