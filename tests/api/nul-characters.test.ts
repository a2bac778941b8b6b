// U+0000 in a text field: PostgreSQL's text type cannot store it, so every field refuses it up front,
// naming the field, on both databases alike. html is stored as bytes and keeps it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app";
import { signInBrowserless } from "../helpers/device-flow";

const NUL = "\u0000";
const PAGE = "<!doctype html><p>page</p>";

let app: TestApp;
let token: string;
let slug: string;

beforeAll(async () => {
  // TRUST_PROXY lets the dashboard check sign in as a distinct loopback client.
  app = await startApp({ env: { TRUST_PROXY: "true" } });
  token = await app.createToken("nul");
  const created = await app.api("/api/drops", { method: "POST", token, body: { title: "Kept", html: PAGE, metadata: { k: "v" } } });
  slug = created.body.slug;
});
afterAll(async () => app?.stop());

type Request = { method: string; path: () => string; body?: Record<string, unknown> };
type McpCall = { tool: string; args: () => Record<string, unknown> };

// [name, the request, the field that must be named, what its message says]
const REST: [string, Request, string, RegExp?][] = [
  ["create: title", { method: "POST", path: () => "/api/drops", body: { title: `a${NUL}b`, html: PAGE } }, "title"],
  ["create: description", { method: "POST", path: () => "/api/drops", body: { title: "t", html: PAGE, description: NUL } }, "description"],
  ["create: context", { method: "POST", path: () => "/api/drops", body: { title: "t", html: PAGE, context: `why${NUL}` } }, "context"],
  ["create: passcode", { method: "POST", path: () => "/api/drops", body: { title: "t", html: PAGE, passcode: `pass${NUL}word` } }, "passcode"],
  ["create: metadata value", { method: "POST", path: () => "/api/drops", body: { title: "t", html: PAGE, metadata: { k: `v${NUL}` } } }, "metadata.k"],
  ["create: metadata key", { method: "POST", path: () => "/api/drops", body: { title: "t", html: PAGE, metadata: { [`k${NUL}`]: "v" } } }, `metadata.k${NUL}`, /^metadata keys use letters/],
  ["replace: title", { method: "PUT", path: () => `/api/drops/${slug}`, body: { html: PAGE, title: NUL } }, "title"],
  ["replace: description", { method: "PUT", path: () => `/api/drops/${slug}`, body: { html: PAGE, description: `d${NUL}` } }, "description"],
  ["replace: context", { method: "PUT", path: () => `/api/drops/${slug}`, body: { html: PAGE, context: NUL } }, "context"],
  ["replace: metadata value", { method: "PUT", path: () => `/api/drops/${slug}`, body: { html: PAGE, metadata: { k: NUL } } }, "metadata.k"],
  ["patch: title", { method: "PATCH", path: () => `/api/drops/${slug}`, body: { title: `x${NUL}` } }, "title"],
  ["patch: description", { method: "PATCH", path: () => `/api/drops/${slug}`, body: { description: NUL } }, "description"],
  ["patch: metadata value", { method: "PATCH", path: () => `/api/drops/${slug}`, body: { metadata: { k: NUL } } }, "metadata.k"],
  ["passcode", { method: "POST", path: () => `/api/drops/${slug}/passcode`, body: { passcode: `1234${NUL}` } }, "passcode"],
  ["list filter: metadata.<key> value", { method: "GET", path: () => "/api/drops?metadata.k=%00" }, "metadata.k"],
  ["list filter: metadata[<key>] value", { method: "GET", path: () => "/api/drops?metadata%5Bk%5D=%00" }, "metadata.k"],
  ["device sign-in: label", { method: "POST", path: () => "/api/auth/start", body: { label: `laptop${NUL}` } }, "label"],
];

const MCP: [string, McpCall, string][] = [
  ["create_drop: title", { tool: "create_drop", args: () => ({ title: NUL, html: PAGE }) }, "title"],
  ["create_drop: description", { tool: "create_drop", args: () => ({ title: "t", html: PAGE, description: NUL }) }, "description"],
  ["create_drop: context", { tool: "create_drop", args: () => ({ title: "t", html: PAGE, context: NUL }) }, "context"],
  ["create_drop: passcode", { tool: "create_drop", args: () => ({ title: "t", html: PAGE, passcode: `${NUL}1234` }) }, "passcode"],
  ["create_drop: metadata value", { tool: "create_drop", args: () => ({ title: "t", html: PAGE, metadata: { k: NUL } }) }, "metadata.k"],
  ["update_drop: context", { tool: "update_drop", args: () => ({ slug, html: PAGE, context: NUL }) }, "context"],
  ["patch_drop: title", { tool: "patch_drop", args: () => ({ slug, title: NUL }) }, "title"],
  ["set_passcode: passcode", { tool: "set_passcode", args: () => ({ slug, passcode: `1234${NUL}` }) }, "passcode"],
  ["list_drops: metadata value", { tool: "list_drops", args: () => ({ metadata: { k: NUL } }) }, "metadata.k"],
];

function expectRefused(error: unknown, field: string, message = /U\+0000/): void {
  expect(error).toEqual({
    error: {
      code: "invalid_arg",
      message: expect.any(String),
      details: { fields: [{ field, message: expect.stringMatching(message) }] },
    },
  });
}

async function callTool(tool: string, args: Record<string, unknown>) {
  const response = await fetch(`http://127.0.0.1:${app.env.PORT}/mcp`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: tool, arguments: args } }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { result: { isError?: boolean; structuredContent: unknown } }).result;
}

describe("a NUL character in a text field", () => {
  it.each(REST)("REST %s → 400 invalid_arg naming the field", async (_name, request, field, message) => {
    const res = await app.api(request.path(), { method: request.method, token, body: request.body });
    expect(res.status, res.text).toBe(400);
    expectRefused(res.body, field, message);
  });

  it.each(MCP)("MCP %s → isError invalid_arg naming the field", async (_name, call, field) => {
    const result = await callTool(call.tool, call.args());
    expect(result.isError).toBe(true);
    expectRefused(result.structuredContent, field);
  });

  it("left the drop and the account as they were", async () => {
    const drop = await app.api(`/api/drops/${slug}`, { token });
    expect(drop.body).toMatchObject({ title: "Kept", latest_version: 1, locked: false, metadata: { k: "v" } });
    expect(drop.body).not.toHaveProperty("description");
    expect((await app.api("/api/me", { token })).body.drop_count).toBe(1);
  });

  it("is kept in html, which is stored as bytes and served as uploaded", async () => {
    const html = `<!doctype html><p>a${NUL}b</p>`;
    const created = await app.api("/api/drops", { method: "POST", token, body: { title: "bytes", html } });
    expect(created.status, created.text).toBe(201);
    const raw = await fetch(`http://127.0.0.1:${app.env.PORT}/p/${created.body.slug}/raw`);
    expect(raw.status).toBe(200);
    expect(await raw.text()).toContain(`<p>a${NUL}b</p>`);
    expect((await app.api(`/api/drops/${created.body.slug}/v/1`, { token })).body.size_bytes).toBe(Buffer.byteLength(html));
  });

  it("in the dashboard's title search is shown as a refusal, not a server error", async () => {
    const session = await signInBrowserless(app, "nul");
    const response = await fetch(`${app.baseUrl}/dashboard?q=%00`, { headers: { cookie: session.jar.header() } });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("U+0000");
  });
});
