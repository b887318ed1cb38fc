/* fuzz_procnet.c - the /proc texts the ports probe reads
 * (src/parse/procnet_text.c), from a /proc that tests and containers may
 * point elsewhere and whose lines other people's processes shape (a
 * command name may hold spaces and parentheses).
 *
 * The first byte: bit 0 picks the table (tcp or tcp6); bits 1-2 the text:
 * 0, /proc/net/tcp{,6} (procnet_parse); 1, a <pid>/stat line (start time,
 * parent and process group); 2, a <pid>/status text (uids, parent,
 * process group); 3, mountinfo (hidepid), a "socket:[N]" link, a pid
 * directory name and a mountinfo field's escapes.  Invariants: only
 * LISTEN entries come back, each with a port, a NUL-terminated printable
 * address text, and at most one entry per line after the header; numbers
 * parsed are within their types; hidepid is -1, 0, 1, 2 or 4; unescaping
 * never lengthens a field; a socket link's inode and a pid name are
 * digits of the input.
 */
#include "fuzz.h"
#include "procnet.h"
#include "procnet_text.h"

#include <limits.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

static void tables(const uint8_t *data, size_t size, int family)
{
	struct tcp_listener *v = NULL;
	size_t n = 0, cap = 0, i, lines = 1;

	for (i = 0; i < size; i++)
		lines += data[i] == '\n';
	procnet_parse((const char *)data, size, family, &v, &n, &cap);
	FUZZ_CHECK(n <= lines - 1 || n == 0);
	FUZZ_CHECK(n <= cap);
	for (i = 0; i < n; i++) {
		const struct tcp_listener *l = &v[i];

		FUZZ_CHECK(l->port <= 65535);
		FUZZ_CHECK(l->family == family);
		FUZZ_CHECK(memchr(l->addr_text, '\0', sizeof(l->addr_text)) != NULL);
		FUZZ_CHECK(l->addr_text[0] && fuzz_printable(l->addr_text));
		FUZZ_CHECK(!l->v4mapped || family == AF_INET6);
	}
	free(v);
}

static void stat_line(const char *s)
{
	unsigned long long start;
	int ppid = -7, pgrp = -7;

	if (procnet_stat_starttime(s, &start) == 0)
		FUZZ_CHECK(strrchr(s, ')'));
	if (procnet_stat_ties(s, &ppid, &pgrp) == 0)
		FUZZ_CHECK(ppid >= 0 && pgrp >= 0);
	else
		FUZZ_CHECK(ppid == -7 && pgrp == -7);
}

static void status_text(const char *s)
{
	unsigned uid[4], one;
	size_t nuid = 0;
	int ppid = -7, pgrp = -7;
	unsigned char ties = 0;

	procnet_status_parse(s, uid, &nuid, &ppid, &pgrp, &ties);
	FUZZ_CHECK(nuid == 0 || nuid == 4);
	FUZZ_CHECK(!ties || (ppid >= 0 && pgrp >= 0));
	if (procnet_status_uid(s, &one) == 0 && nuid == 4 && !strstr(strstr(s, "Uid:") + 4, "Uid:"))
		FUZZ_CHECK(one == uid[0]);
}

static void misc(const uint8_t *data, size_t size, const char *s)
{
	unsigned long ino;
	size_t before = strlen(s);
	char *copy = fuzz_str((const uint8_t *)s, before);
	int h, pid;

	h = procnet_hidepid((const char *)data, size, "/proc");
	FUZZ_CHECK(h == -1 || h == 0 || h == 1 || h == 2 || h == 4);
	ino = procnet_socket_inode(s, before);
	FUZZ_CHECK(!ino || (before >= 10 && !strncmp(s, "socket:[", 8)));
	if (procnet_pid_name(s, &pid) == 0)
		FUZZ_CHECK(pid > 0 && strspn(s, "0123456789") == before);
	procnet_mountinfo_unescape(copy);
	FUZZ_CHECK(strlen(copy) <= before);
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *owned;
	int family, which;
	char *s;

	if (!size)
		return 0;
	family = data[0] & 1 ? AF_INET6 : AF_INET;
	which = (data[0] >> 1) & 3;
	data++;
	size--;
	data = fuzz_scale(data, &size, &owned);
	if (which == 0) {
		tables(data, size, family);
	} else {
		s = fuzz_str(data, size);
		if (which == 1)
			stat_line(s);
		else if (which == 2)
			status_text(s);
		else
			misc(data, size, s);
		free(s);
	}
	free(owned);
	return 0;
}
