/* sandbox_socktext.c - the container socket search's pure parsers (see
 * sandbox_socktext.h).  No system call; every scan is bounded by the length
 * given, never by a terminator.
 */
#include "sandbox_socktext.h"
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

/* proc(5): "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root
 * rw": field 5 is the mount point, relative to our root, with blanks,
 * tabs, newlines and backslashes as octal escapes (show_mountinfo's
 * seq_path_root(..., " \t\n\\")). */
static void unescape_octal(const char *s, size_t n, char *out)
{
	size_t i, o = 0;

	for (i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 3 < n &&
		    s[i + 1] >= '0' && s[i + 1] <= '3' && s[i + 2] >= '0' && s[i + 2] <= '7' &&
		    s[i + 3] >= '0' && s[i + 3] <= '7') {
			out[o++] = (char)((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 +
					  (s[i + 3] - '0'));
			i += 3;
		} else {
			out[o++] = s[i];
		}
	}
	out[o] = '\0';
}

size_t sandbox_mount_points(const char *buf, size_t len,
			    void (*cb)(const char *root, const char *mount_point, void *arg),
			    void *arg)
{
	const char *p = buf, *end = buf + len;
	char root[4096], mp[4096];
	size_t count = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end, *q = p, *f[5] = { NULL };
		size_t fl[5] = { 0 };
		int field = 0;

		while (q < le && field < 5) {
			while (q < le && *q == ' ')
				q++;
			f[field] = q;
			while (q < le && *q != ' ')
				q++;
			fl[field] = (size_t)(q - f[field]);
			field++;
		}
		if (field == 5 && fl[3] && fl[4] && fl[3] < sizeof(root) && fl[4] < sizeof(mp) &&
		    *f[3] == '/' && *f[4] == '/') {
			unescape_octal(f[3], fl[3], root);
			unescape_octal(f[4], fl[4], mp);
			cb(root, mp, arg);
			count++;
		}
		p = nl ? nl + 1 : end;
	}
	return count;
}

/* ---- SHA-256 (FIPS 180-4), for docker's context directories ------------- */

static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void sha256_block(uint32_t h[8], const unsigned char *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, k, t1, t2;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (i = 16; i < 64; i++)
		w[i] = w[i - 16] + (ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3)) +
		       w[i - 7] + (ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10));
	a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
	for (i = 0; i < 64; i++) {
		t1 = k + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
		t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
		k = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
	}
	h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += k;
}

/* docker/cli cli/context/store/store.go (28f75608): contextdirOf(name) is
 * digest.FromString(name).Encoded(), the hex SHA-256 of the name. */
void sandbox_sha256_hex(const char *s, size_t len, char hex[65])
{
	uint32_t h[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
			  0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
	unsigned char blk[64];
	size_t i, r = len;
	uint64_t bits = (uint64_t)len * 8;
	const unsigned char *p = (const unsigned char *)s;

	while (r >= 64) {
		sha256_block(h, p);
		p += 64;
		r -= 64;
	}
	memset(blk, 0, sizeof(blk));
	memcpy(blk, p, r);
	blk[r] = 0x80;
	if (r >= 56) {
		sha256_block(h, blk);
		memset(blk, 0, sizeof(blk));
	}
	for (i = 0; i < 8; i++)
		blk[63 - i] = (unsigned char)(bits >> (8 * i));
	sha256_block(h, blk);
	for (i = 0; i < 8; i++)
		snprintf(hex + 8 * i, 9, "%08x", (unsigned)h[i]);
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
