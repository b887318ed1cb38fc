/* test_mcp.c - the MCP message handler, one message in, one response
 * out: JSON-RPC error codes, notifications, the lifecycle, version
 * negotiation, the dir boundary, and a real audit. */
#include "test.h"
#include "mcp.h"
#include "probe.h"
#include "util.h"

#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#define INIT(v) "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":" \
	"{\"protocolVersion\":\"" v "\",\"capabilities\":{},\"clientInfo\":" \
	"{\"name\":\"t\",\"version\":\"1\"}}}"
#define CALL(id, args) "{\"jsonrpc\":\"2.0\",\"id\":" id ",\"method\":\"tools/call\"," \
	"\"params\":{\"name\":\"audit\",\"arguments\":" args "}}"

/* One message of a session and what its response must hold (NULL: no
 * response at all). */
struct row {
	const char *msg;
	const char *want;
};

static const struct row before_init[] = {
	{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}", "\"id\":1,\"error\":{\"code\":-32600" },
	{ "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}", "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}" },
	{ "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", NULL },
	{ "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"initialize\",\"params\":{}}", "\"code\":-32602" },
	{ INIT("2025-06-18"), "\"protocolVersion\":\"2025-06-18\"" },
	{ INIT("2025-06-18"), "\"id\":0,\"error\":{\"code\":-32600,\"message\":\"already initialized\"" },
	{ NULL, NULL }
};

static const struct row garbage[] = {
	{ INIT("2025-06-18"), "\"capabilities\":{\"tools\":{\"listChanged\":false}}" },
	{ "", "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700" },
	{ "nope", "\"id\":null,\"error\":{\"code\":-32700" },
	{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}{}", "\"code\":-32700" },
	{ "\"a string\"", "\"id\":null,\"error\":{\"code\":-32600" },
	{ "[]", "\"code\":-32600,\"message\":\"batches are not supported" },
	{ "{\"jsonrpc\":\"2.1\",\"id\":1,\"method\":\"ping\"}", "\"id\":1,\"error\":{\"code\":-32600" },
	{ "{\"jsonrpc\":2,\"id\":\"x\",\"method\":\"ping\"}", "\"id\":\"x\",\"error\":{\"code\":-32600" },
	{ "{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"ping\"}", "\"id\":null,\"error\":{\"code\":-32600" },
	{ "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}", "\"id\":null,\"error\":{\"code\":-32600" },
	{ "{\"jsonrpc\":\"2.0\",\"id\":2}", "\"id\":2,\"error\":{\"code\":-32600" },
	{ "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}", NULL },
	{ "{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":1,\"message\":\"m\"}}", NULL },
	{ "{\"jsonrpc\":\"2.0\",\"method\":\"whatever\"}", NULL },
	{ "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":1}}", NULL },
	{ "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"resources/list\"}", "\"id\":3,\"error\":{\"code\":-32601" },
	{ "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"\\u001b[2J\"}", "method not found: '?[2J'" },
	{ "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\",\"params\":[1]}", "\"id\":5,\"error\":{\"code\":-32602" },
	{ "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":7}}", "\"code\":-32602" },
	{ "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"x\"}}", "unknown tool 'x'" },
	{ "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\",\"params\":{\"name\":\"audit\",\"arguments\":3}}", "\"code\":-32602" },
	{ CALL("9", "{\"dir\":\"..\"}"), "\"id\":9,\"error\":{\"code\":-32602,\"message\":\"'dir': '..' is outside" },
	{ CALL("10", "{\"dir\":\"/\"}"), "\"code\":-32602" },
	{ CALL("11", "{\"dir\":\"out\"}"), "is outside" },	/* a symlink to / */
	{ CALL("12", "{\"dir\":\"a/../../x\"}"), "is outside" },	/* does not exist */
	{ CALL("13", "{\"dir\":\"\"}"), "'dir' expects a path" },
	{ CALL("14", "{\"only\":[\"env\",\"ports,tools\"]}"), "'only' expects probe names" },
	{ CALL("16", "{\"timeout_ms\":\"5\"}"), "'timeout_ms' expects a whole number" },
	{ CALL("17", "{\"timeout_ms\":1e300}"), "'timeout_ms' expects a whole number" },
	{ CALL("18", "{\"x\":1}"), "unknown argument 'x'" },
	{ "{\"jsonrpc\":\"2.0\",\"id\":19,\"method\":\"tools/list\",\"params\":{\"cursor\":\"c\"}}", "\"name\":\"list_probes\"" },
	{ "{\"jsonrpc\":\"2.0\",\"id\":1e400,\"method\":\"ping\"}", "\"id\":null,\"error\":{\"code\":-32600" },
	{ "{\"jsonrpc\":\"2.0\",\"id\":\"\xff\",\"method\":\"ping\"}", "\"id\":null,\"error\":{\"code\":-32600" },
	{ "{\"jsonrpc\":\"2.0\",\"id\":\"s\",\"method\":\"ping\"}", "{\"jsonrpc\":\"2.0\",\"id\":\"s\",\"result\":{}}" },
	{ NULL, NULL }
};

/* From 2025-11-25 a bad argument is a tool error, and an audit runs. */
static const struct row newest[] = {
	{ INIT("1999-01-01"), "\"protocolVersion\":\"2025-11-25\"" },
	{ CALL("1", "{\"dir\":\"..\"}"), "\"isError\":true" },
	{ CALL("2", "{\"dir\":\"..\"}"), "\"error\":{\"kind\":\"usage\"" },
	{ CALL("3", "{\"dir\":\"repo\",\"only\":[\"tools\"]}"), "\"isError\":false" },
	{ CALL("4", "{\"dir\":\"repo\"}"), "\"structuredContent\":{\"schema\":\"envpreflight/1\",\"ok\":true" },
	{ CALL("5", "{\"dir\":\"empty\"}"), "\"kind\":\"nothing-to-audit\"" },
	{ CALL("6", "{\"dir\":\"repo\",\"timeout_ms\":4000}"), "\"timeout_ms\":{\"value\":4000,\"from\":\"tool call\"}" },
	{ "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"list_probes\"}}", "\"schema\":\"envpreflight-probes/1\"" },
	{ NULL, NULL }
};

static const struct row oldest[] = {
	{ INIT("2024-11-05"), "\"protocolVersion\":\"2024-11-05\"" },
	{ CALL("1", "{\"dir\":\"repo\"}"), "\"type\":\"text\",\"text\":\"{\\\"schema\\\":\\\"envpreflight/1\\\"" },
	{ NULL, NULL }
};

static void session(const char *name, const struct mcp_config *cfg,
		    const struct row *rows)
{
	struct mcp_server *s = mcp_new(cfg);
	size_t i;

	for (i = 0; rows[i].msg; i++) {
		char *got = mcp_handle(s, rows[i].msg, strlen(rows[i].msg));

		if (!rows[i].want)
			CHECK(got == NULL, "%s %zu: a response to %s: %s", name, i,
			      rows[i].msg, got);
		else
			CHECK(got && strstr(got, rows[i].want) && !strchr(got, '\n'),
			      "%s %zu: %s -> %s (want %s)", name, i, rows[i].msg,
			      got ? got : "(none)", rows[i].want);
		free(got);
	}
	mcp_free(s);
}

/* Bytes that are not one message, handled without a crash. */
static void test_bytes(const struct mcp_config *cfg)
{
	static const char nul[] = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\0x";
	struct mcp_server *s = mcp_new(cfg);
	char deep[20001];
	char *got;

	got = mcp_handle(s, nul, sizeof(nul) - 1);
	CHECK(got && strstr(got, "-32700"), "a NUL byte after the message: %s", got);
	free(got);
	memset(deep, '[', sizeof(deep) - 1);
	deep[sizeof(deep) - 1] = '\0';
	got = mcp_handle(s, deep, sizeof(deep) - 1);
	CHECK(got && strstr(got, "-32700"), "20000 nested arrays: %s", got);
	free(got);
	got = mcp_handle(s, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", 20);
	CHECK(got && strstr(got, "-32700"), "a cut message: %s", got);
	free(got);
	mcp_free(s);
}

/* skip naming every probe of the table leaves none to run: the names come
 * from probe_table, so that a new probe needs no edit here. */
static void test_skip_all(const struct mcp_config *cfg)
{
	struct buf names = BUF_INIT, call = BUF_INIT;
	struct row rows[3] = { { INIT("2025-06-18"), "\"protocolVersion\":\"2025-06-18\"" } };
	size_t i;

	for (i = 0; probe_table[i]; i++)
		buf_printf(&names, "%s%s", i ? "," : "", probe_table[i]->name);
	buf_printf(&call, CALL("15", "{\"skip\":\"%s\"}"), buf_str(&names));
	rows[1].msg = buf_str(&call);
	rows[1].want = "leave no probe to run";
	session("skip every probe", cfg, rows);
	buf_release(&names);
	buf_release(&call);
}

void test_main(void)
{
	const char *tmp = test_tmpdir("mcp");
	char root[PATH_MAX], *link;
	struct mcp_config cfg;

	if (!realpath(tmp, root)) {
		CHECK(0, "realpath %s", tmp);
		return;
	}
	test_write_str(root, "repo/preflight.yaml", "version: 1\ntools: [sh]\n");
	test_write_str(root, "empty/README", "nothing here\n");
	link = path_join(root, "out");
	CHECK(symlink("/", link) == 0, "symlink");
	free(link);
	setenv("PATH", "/usr/bin:/bin", 1);
	memset(&cfg, 0, sizeof(cfg));
	cfg.root = root;
	session("before initialize", &cfg, before_init);
	session("garbage", &cfg, garbage);
	test_skip_all(&cfg);
	session("2025-11-25", &cfg, newest);
	session("2024-11-05", &cfg, oldest);
	test_bytes(&cfg);
}
