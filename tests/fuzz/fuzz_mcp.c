/* fuzz_mcp.c - the MCP message handler (src/cli/mcp.c mcp_handle): an agent,
 * or whatever speaks on its stdin, sends envpreflight JSON-RPC messages.
 *
 * Input: a session, one message a line (at most 64), handled in order by
 * one server whose root is the scratch repository and which runs no
 * audit (mcp_config.no_audit: the audit tool checks its arguments, then
 * answers that it runs nothing).  Invariants: a response is one line of
 * JSON, an object with "jsonrpc": "2.0", an "id", and exactly one of
 * "result" and "error"; an error has an integer code and a printable
 * message; a message that is not a JSON object with a method and an id
 * (a notification, a response) gets no response or an error, never a
 * result.
 */
#include "fuzz.h"
#include "mcp.h"

#include <cJSON.h>
#include <stdlib.h>
#include <string.h>

static void check_response(const char *msg, size_t len, const char *resp)
{
	cJSON *r = cJSON_Parse(resp), *id, *res, *err, *code, *m;
	cJSON *in = cJSON_ParseWithLength(msg, len);
	const cJSON *method = cJSON_IsObject(in) ?
		cJSON_GetObjectItemCaseSensitive(in, "method") : NULL;

	FUZZ_CHECK(!strchr(resp, '\n') && !strchr(resp, '\r'));
	FUZZ_CHECK(cJSON_IsObject(r));
	m = cJSON_GetObjectItemCaseSensitive(r, "jsonrpc");
	FUZZ_CHECK(cJSON_IsString(m) && !strcmp(m->valuestring, "2.0"));
	id = cJSON_GetObjectItemCaseSensitive(r, "id");
	FUZZ_CHECK(id && (cJSON_IsNull(id) || cJSON_IsNumber(id) || cJSON_IsString(id)));
	res = cJSON_GetObjectItemCaseSensitive(r, "result");
	err = cJSON_GetObjectItemCaseSensitive(r, "error");
	FUZZ_CHECK(!res != !err);
	if (err) {
		code = cJSON_GetObjectItemCaseSensitive(err, "code");
		m = cJSON_GetObjectItemCaseSensitive(err, "message");
		FUZZ_CHECK(cJSON_IsNumber(code) && code->valuedouble == (double)(int)code->valuedouble);
		FUZZ_CHECK(cJSON_IsString(m) && fuzz_printable(m->valuestring));
	} else {
		FUZZ_CHECK(cJSON_IsString(method));
	}
	cJSON_Delete(in);
	cJSON_Delete(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mcp_config cfg;
	struct mcp_server *s;
	const uint8_t *p = data, *end = data + size;
	unsigned n = 0;

	memset(&cfg, 0, sizeof(cfg));
	cfg.root = fuzz_repo();
	cfg.no_audit = 1;
	s = mcp_new(&cfg);
	while (p <= end && n++ < 64) {
		const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = (size_t)((nl ? nl : end) - p);
		char *resp = mcp_handle(s, (const char *)p, len);

		if (resp)
			check_response((const char *)p, len, resp);
		free(resp);
		if (!nl)
			break;
		p = nl + 1;
	}
	mcp_free(s);
	return 0;
}
