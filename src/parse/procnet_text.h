/* procnet_text.h - the pure parsers of procnet_text.c that only procnet.c
 * uses (the public ones, procnet_parse, procnet_hidepid, procnet_rank ...,
 * are in procnet.h).  Private: it lives beside its .c. */
#ifndef EP_PROCNET_TEXT_H
#define EP_PROCNET_TEXT_H

#include <stddef.h>

struct tcp_listener;
struct procnet_key;

/* Exactly n (1..20) decimal digits, at most max, into *out: 0 or -1. */
int procnet_dec(const char *s, size_t n, unsigned long long max,
		unsigned long long *out);

/* Fill the derived fields of l (v4mapped, any, addr_text) from its family
 * and addr. */
void procnet_listener_text(struct tcp_listener *l);

/* The inode of a "socket:[INODE]" link text s[0..n), or 0. */
unsigned long procnet_socket_inode(const char *s, size_t n);

/* A /proc entry's name as a pid (> 0): 0, or -1 when it is not one. */
int procnet_pid_name(const char *s, int *pid);

/* The parent and process group from a <pid>/stat text: 0, or -1. */
int procnet_stat_ties(const char *buf, int *ppid, int *pgrp);

/* The scan order: higher rank first, then by pid. */
int procnet_key_cmp(const struct procnet_key *x, const struct procnet_key *y);

/* Undo the octal escapes (\040 for a space) of a mountinfo field, in
 * place. */
void procnet_mountinfo_unescape(char *s);

/* The "Uid:", "PPid:" and "NSpgid:" lines of a <pid>/status text: sets
 * the four uids and *nuid 4 when Uid: parses, both ties and *ties 1 when
 * PPid: and NSpgid: do. */
void procnet_status_parse(const char *s, unsigned *uid, size_t *nuid,
			  int *ppid, int *pgrp, unsigned char *ties);

/* The real uid from the "Uid:" line of a status text: 0, or -1. */
int procnet_status_uid(const char *s, unsigned *uid);

#endif
