// client.mjs - the official MCP TypeScript SDK as a client of
// `envpreflight mcp` (run by tests/integration/mcp.sh).
//
//   node client.mjs BINARY ROOT OUTDIR
//
// Starts BINARY mcp --no-config in ROOT (the fixture tree), and checks
// what an agent's harness sees: the lifecycle, tools/list (the audit
// tool's outputSchema compiles under Ajv's strict mode), the audit tool
// (the SDK itself validates structuredContent against the tool's
// outputSchema), list_probes, and the errors for garbage.  Every
// structuredContent report is written to OUTDIR for tests/validate.py.
// Prints "not ok: ..." for each failure and a last line
// "sdk: N passed, M failed".
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { McpError, LATEST_PROTOCOL_VERSION, ResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const [bin, root, outdir] = process.argv.slice(2);
let passed = 0, failed = 0, saved = 0;

function check(desc, cond, detail) {
  if (cond) passed++;
  else { failed++; console.log(`not ok: ${desc}${detail ? ": " + detail : ""}`); }
}

function save(doc) {
  fs.writeFileSync(path.join(outdir, `mcp-sdk.${saved++}.json`), JSON.stringify(doc));
}

// The error a request ends with, or null when it succeeded.
async function failure(promise) {
  try { await promise; return null; } catch (e) { return e; }
}

const env = {
  PATH: process.env.PATH, HOME: process.env.HOME, LC_ALL: "C.UTF-8",
  XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME, XDG_CACHE_HOME: process.env.XDG_CACHE_HOME,
};
const transport = new StdioClientTransport({
  command: bin, args: ["mcp", "--no-config"], cwd: root, env, stderr: "pipe",
});
let stderr = "";
transport.stderr?.on("data", (d) => { stderr += d; });
const transportErrors = [];
// the client hands the agreed revision to transports that want it
let agreed;
transport.setProtocolVersion = (v) => { agreed = v; };
const client = new Client({ name: "envpreflight-test", version: "1.0.0" });
client.onerror = (e) => transportErrors.push(e);

await client.connect(transport);

// ---- lifecycle
const info = client.getServerVersion();
check("serverInfo names envpreflight", info?.name === "envpreflight", JSON.stringify(info));
check("tools capability", client.getServerCapabilities()?.tools !== undefined);
check(`the SDK's newest revision (${LATEST_PROTOCOL_VERSION}) is agreed on`,
  agreed === LATEST_PROTOCOL_VERSION, String(agreed));
check("instructions for the model", typeof client.getInstructions() === "string");
await client.ping();
passed++;

// ---- tools/list
const { tools } = await client.listTools();
const names = tools.map((t) => t.name).sort();
check("tools: audit and list_probes", JSON.stringify(names) === '["audit","list_probes"]', names.join());
const auditTool = tools.find((t) => t.name === "audit");
check("audit's outputSchema is envpreflight/1", auditTool?.outputSchema?.title === "envpreflight/1");
check("audit's inputSchema names its arguments",
  ["dir", "only", "skip", "strict", "timeout_ms"].every((k) => k in (auditTool?.inputSchema?.properties ?? {})));
// A client may compile outputSchema with Ajv in strict mode, which throws
// on the first keyword whose type the subschema does not state (maxItems
// in an if/then without "type": "array") or a required name its
// properties do not define, and logs what it only warns about: the
// schema must compile with neither.  The Ajv is the SDK's own dependency
// (the validator it checks structuredContent with, and whose strict: true
// its documentation shows a client passing in), hoisted by npm ci; the
// 2020 class, as the schema is draft 2020-12.
{
  const logged = [];
  const logger = {
    log: (...a) => logged.push(a.join(" ")),
    warn: (...a) => logged.push(a.join(" ")),
    error: (...a) => logged.push(a.join(" ")),
  };
  let err = null;
  try {
    const { default: Ajv2020 } = await import("ajv/dist/2020.js");
    new Ajv2020({ strict: true, allErrors: true, logger }).compile(auditTool?.outputSchema);
  } catch (e) {
    err = e;
  }
  check("audit's outputSchema compiles under Ajv 2020, strict: true", err === null, String(err?.message ?? err));
  check("... and Ajv logs nothing about it", logged.length === 0, logged.slice(0, 5).join("; "));
}

// ---- audit: a report (the SDK validates structuredContent itself)
let r = await client.callTool({ name: "audit", arguments: { dir: "env-mixed-json/repo" } });
save(r.structuredContent);
check("a failing audit is not an error", r.isError === false);
check("structuredContent is envpreflight/1", r.structuredContent?.schema === "envpreflight/1");
check("ok false", r.structuredContent?.ok === false);
check("the human report as text", r.content?.[0]?.type === "text" && r.content[0].text.includes(".env parity"),
  JSON.stringify(r.content?.[0]));
check("the text is the human report only (the JSON is structuredContent)", r.content.length === 1);

r = await client.callTool({ name: "audit", arguments: { dir: "env-pass/repo", only: ["env"], strict: true, timeout_ms: 5000 } });
save(r.structuredContent);
const opts = r.structuredContent?.run?.options;
check("a passing audit", r.isError === false && r.structuredContent?.ok === true);
check("timeout_ms from the tool call", opts?.timeout_ms?.value === 5000 && opts?.timeout_ms?.from === "tool call",
  JSON.stringify(opts?.timeout_ms));
check("only from the tool call", JSON.stringify(opts?.probes?.value) === '["env"]' && opts?.probes?.from === "tool call");
check("strict from the tool call", opts?.strict?.value === true && opts?.strict?.from === "tool call");

r = await client.callTool({ name: "audit", arguments: { dir: "env-pass/repo", skip: "compose,ports,runtimes" } });
save(r.structuredContent);
{
  // the skipped probes are gone, the others stay (the table grows)
  const probes = r.structuredContent?.run?.options?.probes?.value ?? [];
  check("skip as a comma list", probes.includes("env") && probes.includes("tools") &&
    !probes.includes("compose") && !probes.includes("ports") && !probes.includes("runtimes"),
    JSON.stringify(probes));
}

// ---- audit that cannot run: isError, with the envpreflight/1 error document
r = await client.callTool({ name: "audit", arguments: { dir: "nothing/repo" } });
save(r.structuredContent);
check("nothing to audit is an error", r.isError === true);
check("... with the error document", r.structuredContent?.outcome === "not-run" &&
  r.structuredContent?.error?.kind === "nothing-to-audit", JSON.stringify(r.structuredContent?.error));
r = await client.callTool({ name: "audit", arguments: { dir: "bad-yaml/repo" } });
save(r.structuredContent);
check("a malformed preflight.yaml", r.isError === true && r.structuredContent?.error?.kind === "spec-invalid" &&
  r.structuredContent?.error?.file === "preflight.yaml");

// ---- bad arguments: from 2025-11-25 on, tool errors the model can read
for (const [desc, args, want] of [
  ["dir outside the root", { dir: "../.." }, /outside the directory/],
  ["absolute dir outside the root", { dir: "/" }, /outside the directory/],
  ["a symlink out of the root", { dir: "link-out" }, /outside the directory/],
  ["an unknown probe", { only: ["nope"] }, /unknown probe 'nope'/],
  ["only and skip leave nothing", { only: "env", skip: ["env"] }, /leave no probe/],
  ["timeout_ms not a whole number", { timeout_ms: 1.5 }, /timeout_ms/],
  ["timeout_ms too large", { timeout_ms: 600001 }, /timeout_ms/],
  ["strict not a boolean", { strict: "yes" }, /strict/],
  ["an unknown argument", { dri: "." }, /unknown argument 'dri'/],
]) {
  r = await client.callTool({ name: "audit", arguments: args });
  save(r.structuredContent);
  check(`${desc}: isError with a usage error`, r.isError === true &&
    r.structuredContent?.error?.kind === "usage" && want.test(r.structuredContent?.error?.message),
    JSON.stringify(r.structuredContent?.error ?? r));
}

// ---- list_probes
r = await client.callTool({ name: "list_probes", arguments: {} });
// the same document as --list-probes --format=json: the registry, not a
// copy of its names here
const listed = JSON.parse(execFileSync(bin, ["--list-probes", "--format=json"], { env }).toString());
check("list_probes is --list-probes --format=json", r.isError === false &&
  r.structuredContent?.schema === "envpreflight-probes/1" &&
  JSON.stringify(r.structuredContent) === JSON.stringify(listed),
  JSON.stringify(r.structuredContent?.probes?.map((p) => p.name)));

// ---- calls side by side: a ping and another call answered while a
// wait_ms call waits (for a port bound, never listening: sdkwait, made by
// mcp.sh), which sends progress (onprogress gives the request a
// progressToken) until the SDK cancels it (an AbortSignal: the SDK sends
// notifications/cancelled); no answer may come for it after that, which
// the SDK would report through onerror as a response to an unknown id
if (fs.existsSync(path.join(root, "sdkwait"))) {
  const ac = new AbortController();
  const notes = [];
  let enough;
  const twoNotes = new Promise((resolve) => { enough = resolve; });
  const waiting = client.callTool({ name: "audit", arguments: { dir: "sdkwait", wait_ms: 600000, interval_ms: 100 } },
    undefined, {
      signal: ac.signal, timeout: 600000, resetTimeoutOnProgress: true,
      onprogress: (p) => { notes.push(p); if (notes.length >= 2) enough(); },
    });
  const settled = waiting.then(() => "answered", (err) => err);
  await client.ping();
  passed++;
  r = await client.callTool({ name: "audit", arguments: { dir: "env-pass/repo", only: ["env"] } });
  check("a call beside a waiting call is answered", r.structuredContent?.ok === true);
  await twoNotes;
  check("progress: grows, total is wait_ms, a message",
    notes[0].progress < notes[1].progress && notes[0].total === 600000 &&
    /^waiting for port \d+/.test(notes[0].message ?? ""), JSON.stringify(notes.slice(0, 2)));
  ac.abort("the test is done waiting");
  const end = await settled;
  check("the aborted call rejects (no answer)", end !== "answered", String(end));
  await client.ping();	// after the cancellation: the server goes on
  passed++;
} else {
  console.log("note: no sdkwait repository: the concurrent calls not tried");
}

// ---- protocol errors
let e = await failure(client.callTool({ name: "no_such_tool", arguments: {} }));
check("an unknown tool is -32602", e instanceof McpError && e.code === -32602, String(e));
e = await failure(client.request({ method: "no/such/method", params: {} }, ResultSchema));
check("an unknown method is -32601", e instanceof McpError && e.code === -32601, String(e));
e = await failure(client.request({ method: "tools/call", params: { arguments: {} } }, ResultSchema));
check("tools/call without a name is -32602", e instanceof McpError && e.code === -32602, String(e));
e = await failure(client.request({ method: "tools/call", params: { name: "audit", arguments: [1] } },
  ResultSchema));
check("arguments that are not an object are -32602", e instanceof McpError && e.code === -32602, String(e));

// ---- garbage on the wire: answered with an error, and the server goes on
const raw = transport._process?.stdin;
if (raw) {
  const seen = [];
  const prev = transport.onmessage;
  transport.onmessage = (m) => { seen.push(m); prev?.(m); };
  raw.write("this is not json\n");
  raw.write('{"jsonrpc":"1.0","id":"garbage-1","method":"ping"}\n');
  raw.write('{"jsonrpc":"2.0","id":"garbage-2","method":"tools/call","params":"x"}\n');
  await client.ping();	// answered after the three above: one message at a time
  transport.onmessage = prev;
  const byId = (id) => seen.find((m) => m.id === id)?.error?.code;
  check("wrong jsonrpc version is -32600", byId("garbage-1") === -32600, JSON.stringify(seen));
  check("params not an object is -32602", byId("garbage-2") === -32602, JSON.stringify(seen));
  // the parse error has id null, which the SDK reports through onerror
  // (or as a message, depending on its version): either is fine, the
  // server must only not die
  passed++;
} else {
  console.log("note: the SDK transport has no _process: garbage not sent");
}
r = await client.callTool({ name: "list_probes", arguments: {} });
check("the server still answers after garbage", r.isError === false);

const exited = new Promise((resolve) => transport._process?.once("exit", (code, sig) => resolve([code, sig])));
await client.close();
const [code, sig] = await exited;
check("end of input ends the server with status 0", code === 0, `${code} ${sig}`);
check("nothing but diagnostics on stderr", !/\{"jsonrpc"/.test(stderr), stderr);
// the garbage above has string ids; the SDK's requests have numbers
check("no answer to a cancelled call (a response to an unknown number id)",
  !transportErrors.some((e) => /unknown message ID: \{"jsonrpc":"2\.0","id":\d/.test(String(e))),
  transportErrors.map(String).join("; ").slice(0, 600));
console.log(`sdk: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
