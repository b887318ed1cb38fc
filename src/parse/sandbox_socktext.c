/* sandbox_socktext.c - the container socket search's pure parsers (see
 * sandbox_socktext.h).  No system call; every scan is bounded by the length
 * given, never by a terminator.
 */
#include "sandbox_socktext.h"
#include "digest.h"
#include "sandbox_mounts.h"
#include "util.h"

#include <cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- names ------------------------------------------------------------ */

/*
 * The socket names linPEAS searches the whole file system for
 * (peass-ng/PEASS-ng, linPEAS/builder/linpeas_parts/functions/
 * enumerateDockerSockets.sh at c7ff1e9f: find / -type s -name docker.sock
 * -o -name docker.socket ... -name rktlet.sock), with the daemon each
 * belongs to.  amicontained walks / for every socket and asks it over
 * HTTP (genuinetools/amicontained main.go, getValidSockets); deepce only
 * tests /var/run/docker.sock (stealthcopter/deepce deepce.sh,
 * dockerSockCheck).  We take linPEAS's names and never connect.
 */
static const struct {
	const char *name, *kind;
} sock_names[] = {
	{ "docker.sock", "docker" },
	{ "docker.socket", "docker" },
	{ "cri-dockerd.sock", "cri-dockerd" },
	{ "dockershim.sock", "dockershim" },
	{ "podman.sock", "podman" },
	{ "containerd.sock", "containerd" },
	{ "containerd.sock.ttrpc", "containerd" },
	{ "firecracker-containerd.sock", "containerd" },
	{ "crio.sock", "cri-o" },
	{ "buildkitd.sock", "buildkit" },
	{ "buildkit.sock", "buildkit" },
	{ "kubelet.sock", "kubelet" },
	{ "frakti.sock", "frakti" },
	{ "rktlet.sock", "rktlet" },
};

const char *sandbox_sock_kind(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sock_names); i++)
		if (!strcmp(name, sock_names[i].name))
			return sock_names[i].kind;
	return NULL;
}

/* ---- /proc/net/unix ---------------------------------------------------- */

/*
 * One line a socket, as the kernel's unix_seq_show (net/unix/af_unix.c)
 * prints it: "%pK: %08X %08X %08X %04X %02X %5lu" (address, references,
 * protocol, flags, type, state, inode), then " path" when bound: a file
 * system path as it was given to bind(2), or '@' and the name of an
 * abstract socket.  Flags is __SO_ACCEPTCON (0x10000) for a socket in
 * TCP_LISTEN: one that accept(2)s.  The file is per network namespace
 * (seq_open_net: the reader's), so a listener of another namespace is not
 * in it, though its path, in the file system, may be.
 */
#define SO_ACCEPTCON_FLAG 0x10000UL

/* The line [p, end): its path column (NUL-terminated copy in out) when it
 * is a listening socket's; 0, or -1. */
static int unix_line(const char *p, const char *end, char *out, size_t size)
{
	const char *f[8];
	unsigned long flags;
	size_t n = 0, plen;
	char num[16];

	/* seven fields, then the path (which may hold blanks) */
	while (p < end && n < 8) {
		while (p < end && *p == ' ')
			p++;
		if (p >= end)
			break;
		f[n++] = p;
		if (n == 8)
			break;
		while (p < end && *p != ' ')
			p++;
	}
	if (n < 8 || f[3] + 8 > end || f[3][8] != ' ')
		return -1;
	memcpy(num, f[3], 8);
	num[8] = '\0';
	flags = strtoul(num, NULL, 16);
	if (!(flags & SO_ACCEPTCON_FLAG))
		return -1;
	plen = (size_t)(end - f[7]);
	if (plen + 1 > size || !plen)
		return -1;
	memcpy(out, f[7], plen);
	out[plen] = '\0';
	return 0;
}

/* "@/containerd-shim/....sock", NUL bytes (shown as '@') after it allowed */
static int shim_name(const char *path)
{
	size_t n = strlen(path);

	while (n > 18 && path[n - 1] == '@')
		n--;
	return n > 23 && !memcmp(path + n - 5, ".sock", 5);
}

static size_t unix_each(const char *buf, size_t len, int abstract,
			void (*cb)(const char *, void *), void *arg)
{
	const char *p = buf, *end = buf + len;
	char path[4096];
	size_t count = 0;
	int first = 1;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;

		if (!first && unix_line(p, le, path, sizeof(path)) == 0) {
			if (!abstract && path[0] == '/') {
				cb(path, arg);
				count++;
			} else if (abstract && !strncmp(path, "@/containerd-shim/", 18) &&
				   shim_name(path)) {
				cb(path, arg);
				count++;
			}
		}
		first = 0;
		p = nl ? nl + 1 : end;
	}
	return count;
}

size_t sandbox_unix_listeners(const char *buf, size_t len,
			      void (*cb)(const char *path, void *arg), void *arg)
{
	return unix_each(buf, len, 0, cb, arg);
}

/*
 * containerd-shim's abstract sockets: CDK reads /proc/net/unix for
 * "@/containerd-shim/....sock" (cdk-team/CDK pkg/evaluate/
 * network_namespace.go at 656f5c00): a container sharing the host's
 * network namespace reaches them with no file permission at all (abstract
 * sockets have none; CVE-2020-15257).
 */
size_t sandbox_unix_shims(const char *buf, size_t len,
			  void (*cb)(const char *name, void *arg), void *arg)
{
	return unix_each(buf, len, 1, cb, arg);
}

/* ---- mountinfo --------------------------------------------------------- */

/* One reader of mountinfo lines for the probe: sandbox_mounts.c's
 * (proc(5)'s fields, octal escapes undone); this gives its root and mount
 * point. */
struct points_ctx {
	void (*cb)(const char *root, const char *mount_point, void *arg);
	void *arg;
};

static void points_one(const struct mount_entry *m, void *arg)
{
	const struct points_ctx *c = arg;

	c->cb(m->root, m->mount_point, c->arg);
}

size_t sandbox_mount_points(const char *buf, size_t len,
			    void (*cb)(const char *root, const char *mount_point, void *arg),
			    void *arg)
{
	struct points_ctx c = { cb, arg };

	return sandbox_mountinfo_each(buf, len, points_one, &c);
}

/* ---- SHA-256, for docker's context directories ------------------------ */

/* docker/cli cli/context/store/store.go (28f75608): contextdirOf(name) is
 * digest.FromString(name).Encoded(), the hex SHA-256 of the name. */
void sandbox_sha256_hex(const char *s, size_t len, char hex[65])
{
	unsigned char d[32];
	size_t i;

	digest_sha256((const unsigned char *)s, len, d);
	for (i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", d[i]);
}

/* ---- docker's configuration -------------------------------------------- */

static int json_string_at(const char *buf, size_t len, const char *const *keys,
			  size_t nkeys, char *out, size_t size)
{
	cJSON *doc = cJSON_ParseWithLength(buf, len), *v = doc;
	size_t i;
	int rc = -1;

	for (i = 0; v && i < nkeys; i++)
		v = cJSON_IsObject(v) ? cJSON_GetObjectItemCaseSensitive(v, keys[i]) : NULL;
	if (v && cJSON_IsString(v) && v->valuestring && v->valuestring[0] &&
	    strlen(v->valuestring) < size) {
		memcpy(out, v->valuestring, strlen(v->valuestring) + 1);
		rc = 0;
	}
	cJSON_Delete(doc);
	return rc;
}

/* docker/cli cli/config/configfile/file.go: "currentContext" */
int sandbox_docker_current_context(const char *buf, size_t len, char *out, size_t size)
{
	static const char *const k[] = { "currentContext" };

	return json_string_at(buf, len, k, 1, out, size);
}

/* docker/cli cli/context/store/metadatastore.go: meta.json is the
 * context's Metadata, its "Endpoints" keyed by endpoint ("docker"), the
 * docker endpoint's "Host" the daemon's URL (cli/context/docker). */
int sandbox_docker_context_host(const char *buf, size_t len, char *out, size_t size)
{
	static const char *const k[] = { "Endpoints", "docker", "Host" };

	return json_string_at(buf, len, k, 3, out, size);
}

/* ---- a daemon's URL ---------------------------------------------------- */

int sandbox_url_host(const char *url, char *host, size_t size, unsigned *port)
{
	static const char *const schemes[] = { "tcp://", "http://", "https://", "ssh://" };
	const char *p = NULL, *end, *at, *h, *he;
	size_t i, n;
	long v;

	for (i = 0; i < ARRAY_SIZE(schemes) && !p; i++)
		if (!strncmp(url, schemes[i], strlen(schemes[i])))
			p = url + strlen(schemes[i]);
	if (!p)
		return -1;
	end = p + strcspn(p, "/?#");
	at = memchr(p, '@', (size_t)(end - p));
	if (at)
		p = at + 1;
	*port = 0;
	if (*p == '[') {
		h = p + 1;
		he = memchr(h, ']', (size_t)(end - h));
		if (!he)
			return -1;
		p = he + 1;
	} else {
		h = p;
		he = memchr(p, ':', (size_t)(end - p));
		if (!he)
			he = end;
		p = he;
	}
	if (p < end && *p == ':') {
		char num[8];

		n = (size_t)(end - p - 1);
		if (!n || n >= sizeof(num))
			return -1;
		memcpy(num, p + 1, n);
		num[n] = '\0';
		if (parse_long(num, 1, 65535, &v) < 0)
			return -1;
		*port = (unsigned)v;
	} else if (p != end) {
		return -1;
	}
	n = (size_t)(he - h);
	if (!n || n >= size)
		return -1;
	memcpy(host, h, n);
	host[n] = '\0';
	return 0;
}

/* The first byte of a dotted quad (four decimal numbers 0-255), or -1. */
static int quad_first(const char *s)
{
	int part, first = -1;

	for (part = 0; part < 4; part++) {
		unsigned v = 0;
		size_t n = 0;

		while (s[n] >= '0' && s[n] <= '9' && n < 3)
			v = v * 10 + (unsigned)(s[n++] - '0');
		if (!n || v > 255 || (s[n] != (part < 3 ? '.' : '\0')))
			return -1;
		if (!part)
			first = (int)v;
		s += n + (part < 3);
	}
	return first;
}

int sandbox_host_loopback(const char *host)
{

	if (!strcasecmp(host, "localhost") || !strcmp(host, "::1") ||
	    !strcmp(host, "0:0:0:0:0:0:0:1"))
		return 1;
	if (strlen(host) > 10 && !strcasecmp(host + strlen(host) - 10, ".localhost"))
		return 1;
	/* 127.0.0.0/8 (RFC 1122 3.2.1.3) */
	return quad_first(host) == 127;
}
