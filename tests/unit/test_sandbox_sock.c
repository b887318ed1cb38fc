/* test_sandbox_sock.c - the container socket search's pure parsers
 * (sandbox_socktext.c): socket names, /proc/net/unix, mountinfo, SHA-256 (the
 * FIPS 180-4 vectors and docker's context directory), docker's config and
 * context metadata, a DOCKER_HOST's host; hostile rows and random bytes
 * through each. */
#include "test.h"
#include "sandbox_socktext.h"

#include <stdint.h>

static void test_names(void)
{
	CHECK_STR(sandbox_sock_kind("docker.sock"), "docker", "docker");
	CHECK_STR(sandbox_sock_kind("podman.sock"), "podman", "podman");
	CHECK_STR(sandbox_sock_kind("containerd.sock"), "containerd", "containerd");
	CHECK_STR(sandbox_sock_kind("crio.sock"), "cri-o", "crio");
	CHECK_STR(sandbox_sock_kind("cri-dockerd.sock"), "cri-dockerd", "cri-dockerd");
	CHECK_STR(sandbox_sock_kind("buildkitd.sock"), "buildkit", "buildkitd");
	CHECK(sandbox_sock_kind("docker.sock.bak") == NULL, "a longer name");
	CHECK(sandbox_sock_kind("agent.sock") == NULL, "an ssh agent");
	CHECK(sandbox_sock_kind("") == NULL, "empty");
}

struct got {
	char v[8][256];
	size_t n;
};

static void got_one(const char *s, void *arg)
{
	struct got *g = arg;

	if (g->n < 8)
		snprintf(g->v[g->n++], sizeof(g->v[0]), "%s", s);
}

static void got_two(const char *a, const char *b, void *arg)
{
	struct got *g = arg;

	if (g->n < 8)
		snprintf(g->v[g->n++], sizeof(g->v[0]), "%s|%s", a, b);
}

static const char unix_text[] =
	"Num       RefCount Protocol Flags    Type St Inode Path\n"
	"0000000000000000: 00000002 00000000 00010000 0001 01 20011 /run/docker.sock\n"
	"0000000000000000: 00000003 00000000 00000000 0001 03 20012 /run/docker.sock\n"
	"0000000000000000: 00000002 00000000 00010000 0001 01 20013 @/containerd-shim/"
	"moby/abc/shim.sock@\n"
	"0000000000000000: 00000002 00000000 00010000 0001 01 20013 @/containerd-shim/"
	"k8s.io/0f1e.sock\n"
	"0000000000000000: 00000002 00000000 00010000 0005 01 20014 /tmp/with space.sock\n"
	"0000000000000000: 00000002 00000000 00000000 0002 01 20015 /run/systemd/notify\n"
	"0000000000000000: 00000002 00000000 00010000 0001 01 20016\n"
	"garbage line\n"
	"0000000000000000: 00000002 00000000 0001zzzz 0001 01 20017 /x\n"
	"0000000000000000: 00000002 00000000 00010000 0001 01 20018 /last/no-newline.sock";

static void test_unix(void)
{
	struct got g = { .n = 0 };

	CHECK_INT((int)sandbox_unix_listeners(unix_text, strlen(unix_text), got_one, &g), 3,
		  "listening paths");
	CHECK_STR(g.v[0], "/run/docker.sock", "listening, not the connected one");
	CHECK_STR(g.v[1], "/tmp/with space.sock", "a blank in the path");
	CHECK_STR(g.v[2], "/last/no-newline.sock", "no newline at the end");
	memset(&g, 0, sizeof(g));
	CHECK_INT((int)sandbox_unix_shims(unix_text, strlen(unix_text), got_one, &g), 2, "shims");
	CHECK_STR(g.v[0], "@/containerd-shim/moby/abc/shim.sock@", "a trailing NUL");
	CHECK_STR(g.v[1], "@/containerd-shim/k8s.io/0f1e.sock", "the shim");
	memset(&g, 0, sizeof(g));
	CHECK_INT((int)sandbox_unix_listeners(unix_text, 40, got_one, &g), 0, "the header only");
	CHECK_INT((int)sandbox_unix_listeners("", 0, got_one, &g), 0, "empty");
}

static void test_mountinfo(void)
{
	static const char text[] =
		"22 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw\n"
		"30 22 0:25 /docker.sock /home/agent/w/api rw - tmpfs tmpfs rw\n"
		"31 22 0:25 /a\\040b /mnt/with\\040space rw - tmpfs tmpfs rw\n"
		"32 22 0:25 /x\\\\y /back\\134slash rw - tmpfs tmpfs rw\n"
		"33 22 short\n"
		"34 22 0:26 relative /r rw - tmpfs tmpfs rw";
	struct got g = { .n = 0 };

	CHECK_INT((int)sandbox_mount_points(text, strlen(text), got_two, &g), 4, "mounts");
	CHECK_STR(g.v[0], "/|/", "root");
	CHECK_STR(g.v[1], "/docker.sock|/home/agent/w/api", "a bind-mounted socket");
	CHECK_STR(g.v[2], "/a b|/mnt/with space", "\\040");
	CHECK_STR(g.v[3], "/x\\\\y|/back\\slash", "\\134, and a lone backslash kept");
}

static void test_sha256(void)
{
	char hex[65], *big;
	size_t i;

	sandbox_sha256_hex("", 0, hex);
	CHECK_STR(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "empty");
	sandbox_sha256_hex("abc", 3, hex);
	CHECK_STR(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "abc");
	sandbox_sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, hex);
	CHECK_STR(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
		  "two blocks of padding");
	big = malloc(1000000);
	for (i = 0; i < 1000000; i++)
		big[i] = 'a';
	sandbox_sha256_hex(big, 1000000, hex);
	CHECK_STR(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
		  "a million a");
	free(big);
	/* the directory docker keeps Docker Desktop's context in */
	sandbox_sha256_hex("desktop-linux", 13, hex);
	CHECK_STR(hex, "fe9c6bd7a66301f49ca9b6a70b217107cd1284598bfc254700c989b916da791e",
		  "desktop-linux");
}

static void test_docker_json(void)
{
	static const char cfg[] = "{\"auths\": {\"x\": {\"auth\": \"c2VjcmV0\"}}, "
				  "\"currentContext\": \"desktop-linux\"}";
	static const char meta[] = "{\"Name\":\"desktop-linux\",\"Metadata\":{},\"Endpoints\":"
				   "{\"docker\":{\"Host\":\"unix:///home/u/.docker/desktop/"
				   "docker.sock\",\"SkipTLSVerify\":false}}}";
	char out[64];

	CHECK_INT(sandbox_docker_current_context(cfg, strlen(cfg), out, sizeof(out)), 0, "cfg");
	CHECK_STR(out, "desktop-linux", "currentContext");
	CHECK_INT(sandbox_docker_current_context("{}", 2, out, sizeof(out)), -1, "none");
	CHECK_INT(sandbox_docker_current_context("{\"currentContext\": 3}", 21, out,
						 sizeof(out)), -1, "not a string");
	CHECK_INT(sandbox_docker_current_context("not json", 8, out, sizeof(out)), -1, "bad");
	CHECK_INT(sandbox_docker_current_context(cfg, strlen(cfg), out, 5), -1, "too long");
	CHECK_INT(sandbox_docker_context_host(meta, strlen(meta), out, sizeof(out)), 0, "meta");
	CHECK_STR(out, "unix:///home/u/.docker/desktop/docker.sock", "Host");
	CHECK_INT(sandbox_docker_context_host("{\"Endpoints\": []}", 17, out, sizeof(out)), -1,
		  "no docker endpoint");
}

static void test_url(void)
{
	static const struct {
		const char *url;
		int rc;
		const char *host;
		unsigned port;
		int loopback;
	} rows[] = {
		{ "tcp://127.0.0.1:2375", 0, "127.0.0.1", 2375, 1 },
		{ "tcp://deploy:pw@build.example:2376", 0, "build.example", 2376, 0 },
		{ "tcp://[::1]:2375", 0, "::1", 2375, 1 },
		{ "tcp://[2001:db8::1]", 0, "2001:db8::1", 0, 0 },
		{ "ssh://me@localhost", 0, "localhost", 0, 1 },
		{ "https://10.0.0.1:443/v1", 0, "10.0.0.1", 443, 0 },
		{ "tcp://127.1.2.3:1", 0, "127.1.2.3", 1, 1 },
		{ "tcp://128.0.0.1:1", 0, "128.0.0.1", 1, 0 },
		{ "tcp://host:0", -1, NULL, 0, 0 },
		{ "tcp://host:99999", -1, NULL, 0, 0 },
		{ "tcp://host:12ab", -1, NULL, 0, 0 },
		{ "tcp://:2375", -1, NULL, 0, 0 },
		{ "tcp://[::1", -1, NULL, 0, 0 },
		{ "unix:///run/docker.sock", -1, NULL, 0, 0 },
		{ "npipe:////./pipe/docker_engine", -1, NULL, 0, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char host[64] = "";
		unsigned port = 7;
		int rc = sandbox_url_host(rows[i].url, host, sizeof(host), &port);

		CHECK_INT(rc, rows[i].rc, "%s", rows[i].url);
		if (rc || rows[i].rc)
			continue;
		CHECK_STR(host, rows[i].host, "%s", rows[i].url);
		CHECK_INT((int)port, (int)rows[i].port, "%s", rows[i].url);
		CHECK_INT(sandbox_host_loopback(host), rows[i].loopback, "%s", rows[i].url);
	}
	CHECK_INT(sandbox_host_loopback("LocalHost"), 1, "any case");
	CHECK_INT(sandbox_host_loopback("a.localhost"), 1, ".localhost");
	CHECK_INT(sandbox_host_loopback("127.0.0.1.example"), 0, "a name");
	CHECK_INT(sandbox_host_loopback("127.0.0.256"), 0, "out of range");
}

static void test_random(void)
{
	uint32_t x = 0x50c4e7u;
	char buf[2048], hex[65], out[64];
	unsigned port;
	int round;

	for (round = 0; round < 2000; round++) {
		size_t n = (size_t)(round % (int)sizeof(buf)), i;
		struct got g = { .n = 0 };

		for (i = 0; i < n; i++) {
			x = x * 1103515245u + 12345u;
			buf[i] = "0123456789ABCDEF: /@\\\n\t {}\"x.sock"[(x >> 16) % 34];
		}
		sandbox_unix_listeners(buf, n, got_one, &g);
		sandbox_unix_shims(buf, n, got_one, &g);
		g.n = 0;
		sandbox_mount_points(buf, n, got_two, &g);
		sandbox_sha256_hex(buf, n, hex);
		sandbox_docker_current_context(buf, n, out, sizeof(out));
		sandbox_docker_context_host(buf, n, out, sizeof(out));
		buf[n < sizeof(buf) ? n : n - 1] = '\0';
		sandbox_url_host(buf, out, sizeof(out), &port);
	}
	CHECK(1, "random bytes: no crash");
}

void test_main(void)
{
	test_names();
	test_unix();
	test_mountinfo();
	test_sha256();
	test_docker_json();
	test_url();
	test_random();
}
