/* fuzz_sandbox.c - the sandbox probe's parsers (src/parse/sandbox.c):
 * /proc/self/status, /proc/net/dev, route and ipv6_route, resolv.conf,
 * mountinfo, namespace links, uid_map, passwd, group, and the token lines
 * of credential files (.npmrc, .aws/credentials, .netrc, docker's
 * config.json); also capability and secret names.  A sandbox or a
 * container image decides all of these texts.
 *
 * Input: one selector byte (its value modulo the number of parsers),
 * then the text.  Invariants: every name handed out (interface, route,
 * name server, user, home, group, npm variable) is a NUL-terminated run
 * of the input's bytes that fits its buffer, and names of a table come in
 * the order of its lines; counts agree with the calls;
 * a status that parses has uids and gids, a sorted group count within
 * the line; an id map's answer is the id when the map is the whole
 * identity; the token readers answer 0, 1 (or 2 for .npmrc) and copy no
 * more than the variable's name.
 */
#include "fuzz.h"
#include "sandbox.h"

#include <net/if.h>
#include <stdlib.h>
#include <string.h>

struct names {
	const uint8_t *text;
	size_t len, calls, max;
	size_t at;		/* where the last name was found */
};

/* Names come in the order of their lines: each is looked for after the
 * last, so that the check stays linear in a large table. */
static void name_seen(const char *name, void *arg)
{
	struct names *n = arg;
	size_t l = strlen(name);
	const uint8_t *hit;

	n->calls++;
	FUZZ_CHECK(l > 0 && l < n->max);
	hit = memmem(n->text + n->at, n->len - n->at, name, l);
	FUZZ_CHECK(hit != NULL);
	n->at = (size_t)(hit - n->text) + l;
}

static int is_text_of(const char *s, const uint8_t *t, size_t len)
{
	return !*s || memmem(t, len, s, strlen(s)) != NULL;
}

static void status(const uint8_t *t, size_t len)
{
	struct proc_identity id;
	const char *bad = NULL;

	if (sandbox_status_parse((const char *)t, len, &id, &bad) == 0) {
		FUZZ_CHECK(id.no_new_privs >= -1 && id.no_new_privs <= 1);
		FUZZ_CHECK(id.seccomp >= -1 && id.seccomp <= 2);
		FUZZ_CHECK(id.ngroups <= len);
		FUZZ_CHECK(id.ngroups == 0 || id.groups);
	} else {
		FUZZ_CHECK(bad && *bad);
	}
	proc_identity_release(&id);
}

static void tables(const uint8_t *t, size_t len, int which)
{
	struct names n = { t, len, 0, IFNAMSIZ, 0 };
	size_t got;

	if (which == 0)
		got = sandbox_netdev_names((const char *)t, len, name_seen, &n);
	else if (which == 1)
		got = sandbox_default_routes((const char *)t, len, 4, name_seen, &n);
	else if (which == 2)
		got = sandbox_default_routes((const char *)t, len, 6, name_seen, &n);
	else {
		n.max = 64;
		got = sandbox_resolv_nameservers((const char *)t, len, name_seen, &n);
	}
	FUZZ_CHECK(got == n.calls);
}

static void mounts(const uint8_t *t, size_t len)
{
	struct proc_mount m;

	memset(&m, 0x55, sizeof(m));
	if (sandbox_mountinfo_proc((const char *)t, len, "/proc", &m) == 0) {
		FUZZ_CHECK(m.found == 0 || m.found == 1);
		FUZZ_CHECK(m.hidepid == HIDEPID_OFF || m.hidepid == HIDEPID_NOACCESS ||
			   m.hidepid == HIDEPID_INVISIBLE ||
			   m.hidepid == HIDEPID_PTRACEABLE);
	}
}

static void links(const uint8_t *t, size_t len)
{
	static const char *const types[] = { "pid", "user", "net", "mnt" };
	char *s = fuzz_str(t, len);
	unsigned long ino = 0;
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (sandbox_ns_inode(s, types[i], &ino) == 0)
			FUZZ_CHECK(!strncmp(s, types[i], strlen(types[i])));
	i = (size_t)sandbox_cap_parse(s);
	FUZZ_CHECK(i == (size_t)-1 || (i < SANDBOX_CAPS_KNOWN && sandbox_cap_name((unsigned)i)));
	i = (size_t)sandbox_secret_parse(s);
	FUZZ_CHECK(i == (size_t)-1 || i < SANDBOX_SECRETS_KNOWN);
	if (sandbox_sudoers_d_name(s))
		FUZZ_CHECK(!strchr(s, '.') && s[0] && s[strlen(s) - 1] != '~');
	free(s);
}

static void idmap(const uint8_t *t, size_t len)
{
	static const unsigned long ids[] = { 0, 1000, 65534, 4294967294UL };
	unsigned long out;
	int whole;
	size_t i;

	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		whole = -1;
		if (sandbox_id_map((const char *)t, len, ids[i], &out, &whole) == 0 &&
		    whole == 1)
			FUZZ_CHECK(out == ids[i]);
	}
}

static void users(const uint8_t *t, size_t len)
{
	char name[16], home[24];
	unsigned long id;

	for (id = 0; id <= 1000; id += 1000) {
		if (sandbox_passwd_find((const char *)t, len, id, name, sizeof(name),
					home, sizeof(home)) == 0) {
			FUZZ_CHECK(memchr(name, '\0', sizeof(name)) && is_text_of(name, t, len));
			FUZZ_CHECK(memchr(home, '\0', sizeof(home)) && is_text_of(home, t, len));
		}
		if (sandbox_group_name((const char *)t, len, id, name, sizeof(name)) == 0)
			FUZZ_CHECK(memchr(name, '\0', sizeof(name)) && is_text_of(name, t, len));
	}
}

static void tokens(const uint8_t *t, size_t len)
{
	char var[12];
	int rc;

	memset(var, 0, sizeof(var));
	rc = sandbox_npmrc_token((const char *)t, len, var, sizeof(var));
	FUZZ_CHECK(rc >= 0 && rc <= 2);
	FUZZ_CHECK(var[sizeof(var) - 1] == '\0' && is_text_of(var, t, len));
	FUZZ_CHECK(rc != 2 || var[0]);
	rc = sandbox_aws_secret((const char *)t, len);
	FUZZ_CHECK(rc == 0 || rc == 1);
	rc = sandbox_netrc_password((const char *)t, len);
	FUZZ_CHECK(rc == 0 || rc == 1);
	rc = sandbox_docker_auth((const char *)t, len);
	FUZZ_CHECK(rc == 0 || rc == 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *owned;
	unsigned which;

	if (!size)
		return 0;
	which = data[0] % 10;
	data++;
	size--;
	data = fuzz_scale(data, &size, &owned);
	switch (which) {
	case 0: status(data, size); break;
	case 1: case 2: case 3: case 4: tables(data, size, (int)which - 1); break;
	case 5: mounts(data, size); break;
	case 6: links(data, size); break;
	case 7: idmap(data, size); break;
	case 8: users(data, size); break;
	default: tokens(data, size); break;
	}
	free(owned);
	return 0;
}
