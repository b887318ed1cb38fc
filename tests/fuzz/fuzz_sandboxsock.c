/* fuzz_sandboxsock.c - the container socket search's parsers
 * (src/parse/sandbox_socktext.c): /proc/net/unix, whose paths other
 * people's processes choose (blanks, '@', newlines); mountinfo; docker's
 * config.json and a context's meta.json, which the audited HOME holds;
 * and a DOCKER_HOST URL from the environment.
 *
 * The first byte picks the text: 0, /proc/net/unix (listeners and shims);
 * 1, mountinfo; 2, config.json and meta.json; 3, a URL and its host.
 * Invariants: every path given back is non-empty and NUL-terminated, a
 * listener's starts with '/', a shim's with "@/containerd-shim/"; a mount
 * point starts with '/' and is no longer than its line; a JSON string fits
 * its buffer; a URL's port is 0-65535 and its host non-empty; the SHA-256
 * is 64 lower-case hex digits.
 */
#include "fuzz.h"
#include "sandbox_socktext.h"
#include "sandbox_mounts.h"

#include <stdlib.h>
#include <string.h>

static size_t longest;

static void one(const char *s, void *arg)
{
	const char *want = arg;

	FUZZ_CHECK(s[0] != '\0');
	FUZZ_CHECK(strlen(s) <= longest);
	FUZZ_CHECK(!strncmp(s, want, strlen(want)));
}

static void two(const char *root, const char *mp, void *arg)
{
	(void)arg;
	FUZZ_CHECK(root[0] == '/' && mp[0] == '/');
	FUZZ_CHECK(strlen(mp) <= longest && strlen(root) <= longest);
}

/* sandbox_mounts.c's whole line, beneath sandbox_mount_points: every
 * string NUL-terminated and no longer than the text, the host mount rule
 * total on it */
static void entry(const struct mount_entry *m, void *arg)
{
	(void)arg;
	FUZZ_CHECK(m->root[0] == '/' && m->mount_point[0] == '/');
	FUZZ_CHECK(strlen(m->type) <= longest && strlen(m->source) <= longest &&
		   strlen(m->super) <= longest);
	FUZZ_CHECK(m->read_only == 0 || m->read_only == 1);
	(void)sandbox_host_mount(m, "/work");
	(void)sandbox_host_mount(m, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *owned;
	char out[64], hex[65], *s;
	unsigned port;
	size_t i;
	int which;

	if (!size)
		return 0;
	which = data[0] & 3;
	data++;
	size--;
	data = fuzz_scale(data, &size, &owned);
	longest = size;
	switch (which) {
	case 0:
		sandbox_unix_listeners((const char *)data, size, one, "/");
		sandbox_unix_shims((const char *)data, size, one, "@/containerd-shim/");
		break;
	case 1:
		sandbox_mount_points((const char *)data, size, two, NULL);
		sandbox_mountinfo_each((const char *)data, size, entry, NULL);
		break;
	case 2:
		if (sandbox_docker_current_context((const char *)data, size, out, sizeof(out)) == 0)
			FUZZ_CHECK(out[0] && strlen(out) < sizeof(out));
		if (sandbox_docker_context_host((const char *)data, size, out, sizeof(out)) == 0)
			FUZZ_CHECK(out[0] && strlen(out) < sizeof(out));
		break;
	default:
		s = fuzz_str(data, size);
		if (sandbox_url_host(s, out, sizeof(out), &port) == 0) {
			FUZZ_CHECK(out[0] && strlen(out) < sizeof(out));
			FUZZ_CHECK(port <= 65535);
			(void)sandbox_host_loopback(out);
		}
		(void)sandbox_sock_kind(s);
		free(s);
		break;
	}
	sandbox_sha256_hex((const char *)data, size, hex);
	FUZZ_CHECK(strlen(hex) == 64);
	for (i = 0; i < 64; i++)
		FUZZ_CHECK((hex[i] >= '0' && hex[i] <= '9') || (hex[i] >= 'a' && hex[i] <= 'f'));
	free(owned);
	return 0;
}
