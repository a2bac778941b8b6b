// On `npm start` the front door answers GET /api/drops, GET /api/drops/{slug}, GET /api/health and POST /mcp itself, without Next's
// router (lib/serving/direct-routes.ts). These compare its answers with Next's own, from `next start`
// on the same database, for the same requests: success, every refusal, and MCP calls.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app";

let direct: TestApp;
let throughNext: TestApp;
let token: string;
let otherToken: string;
let slug: string;

beforeAll(async () => {
  direct = await startApp();
  // Same database and secrets, and the same public URL, so the documents they answer are equal.
  const shared = { DATA_DIR: direct.env.DATA_DIR!, PUBLIC_URL: direct.baseUrl, ...(direct.env.DATABASE_URL ? { DATABASE_URL: direct.env.DATABASE_URL } : {}) };
  throughNext = await startApp({ serverless: true, env: shared });
  token = await direct.createToken("direct-routes");
  otherToken = await direct.createToken("direct-routes-other");
  const created = await direct.api("/api/drops", { method: "POST", token, body: { title: "Direct", html: "<p>direct</p>", metadata: { team: "core" } } });
  expect(created.status, created.text).toBe(201);
  slug = (created.body as { slug: string }).slug;
}, 180_000);
afterAll(async () => {
  await throughNext?.stop();
  await direct?.stop();
});

type Answer = { status: number; contentType: string | null; cacheControl: string | null; authenticate: string | null; body: string };

async function ask(app: TestApp, path: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(`http://localhost:${app.env.PORT}${path}`, init);
  return {
    status: res.status,
    contentType: res.headers.get("content-type"),
    cacheControl: res.headers.get("cache-control"),
    authenticate: res.headers.get("www-authenticate"),
    body: await res.text(),
  };
}

async function both(path: string, init: () => RequestInit): Promise<[Answer, Answer]> {
  return [await ask(direct, path, init()), await ask(throughNext, path, init())];
}

const bearer = (value: string) => ({ authorization: `Bearer ${value}` });

describe("GET /api/drops/{slug} without Next's router", () => {
  it.each([
    ["the owner", () => bearer(token), 200],
    ["another account", () => bearer(otherToken), 403],
    ["no token", () => ({}), 401],
    ["a malformed token", () => bearer("not-a-token"), 401],
  ])("answers %s exactly as Next does", async (_who, headers, status) => {
    const [fast, next] = await both(`/api/drops/${slug}`, () => ({ headers: headers() }));
    expect(fast.status).toBe(status);
    expect(fast).toEqual(next);
  });

  it("answers an unknown drop exactly as Next does", async () => {
    const [fast, next] = await both("/api/drops/nosuchdrop123", () => ({ headers: bearer(token) }));
    expect(fast.status).toBe(404);
    expect(fast).toEqual(next);
  });
});

describe("GET /api/drops without Next's router", () => {
  it.each([
    ["no query", ""],
    ["a metadata filter and a page", "?metadata.team=core&pageSize=5&sortBy=updated_at&sortOrder=asc"],
    ["an empty query", "?"],
    ["a filter nothing matches", "?metadata.team=nobody"],
  ])("lists with %s exactly as Next does", async (_what, search) => {
    const [fast, next] = await both(`/api/drops${search}`, () => ({ headers: bearer(token) }));
    expect(fast.status).toBe(200);
    expect(fast).toEqual(next);
  });

  it.each([
    ["an unknown parameter", () => bearer(token), "?colour=red", 400],
    ["a page size over the limit", () => bearer(token), "?pageSize=1000", 400],
    ["no token", () => ({}), "", 401],
  ])("refuses %s exactly as Next does", async (_what, headers, search, status) => {
    const [fast, next] = await both(`/api/drops${search}`, () => ({ headers: headers() }));
    expect(fast.status).toBe(status);
    expect(fast).toEqual(next);
  });

  it("lists only the drops of the caller", async () => {
    const [fast, next] = await both("/api/drops", () => ({ headers: bearer(otherToken) }));
    expect(JSON.parse(fast.body).data).toEqual([]);
    expect(fast).toEqual(next);
  });
});

describe("GET /api/health without Next's router", () => {
  it("answers exactly as Next does", async () => {
    const [fast, next] = await both("/api/health", () => ({}));
    expect(fast.status).toBe(200);
    expect(fast).toEqual(next);
  });
});

describe("POST /mcp without Next's router", () => {
  const call = (body: unknown, authorization = token) => () => ({
    method: "POST",
    headers: { ...bearer(authorization), "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify(body),
  });

  it.each([
    ["get_drop", () => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_drop", arguments: { slug } } })],
    ["tools/list", () => ({ jsonrpc: "2.0", id: 2, method: "tools/list" })],
    ["a tool refusing bad arguments", () => ({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "get_drop", arguments: { slug: "NOT A SLUG" } } })],
  ])("answers %s exactly as Next does", async (_what, body) => {
    const [fast, next] = await both("/mcp", call(body()));
    expect(fast.status).toBe(200);
    expect(fast).toEqual(next);
  });

  it("refuses a bad body and a missing token exactly as Next does", async () => {
    const [fastBody, nextBody] = await both("/mcp", () => ({ method: "POST", headers: { ...bearer(token), "content-type": "application/json" }, body: "{" }));
    expect(fastBody.status).toBe(400);
    expect(fastBody).toEqual(nextBody);
    const [fastToken, nextToken] = await both("/mcp", call({ jsonrpc: "2.0", id: 4, method: "tools/list" }, ""));
    expect(fastToken.status).toBe(401);
    expect(fastToken).toEqual(nextToken);
  });
});

describe("PUT /api/patterns/{name} without Next's router", () => {
  // Answered by the front door since issue 28 (item 8): through Next, every refused save of a hostile
  // client cost milliseconds of routing, and 16 such clients held GET /api/health for seconds.
  const save = (markdown: string, authorization = token) => () => ({
    method: "PUT",
    headers: { ...bearer(authorization), "content-type": "application/json" },
    body: JSON.stringify({ markdown }),
  });

  it.each([
    ["front matter too deep", () => save(`---\nx: ${"[".repeat(16_000)}\n---\n# G\n`)(), 400],
    ["front matter naming another pattern", () => save("---\nname: other\ndescription: d\n---\n# G\n")(), 400],
    ["invalid JSON", () => ({ method: "PUT", headers: { ...bearer(token), "content-type": "application/json" }, body: "{" }), 400],
    ["no token", () => save("---\nname: shared\n---\n", "")(), 401],
  ])("refuses %s exactly as Next does", async (_what, init, status) => {
    const [fast, next] = await both("/api/patterns/shared", init);
    expect(fast.status).toBe(status);
    expect(fast).toEqual(next);
  });

  it("saves a pattern as Next does", async () => {
    const markdown = (name: string) => `---\nname: ${name}\ndescription: Saved.\ntriggers:\n  - saved\n---\n\n# Saved\n`;
    const fast = await ask(direct, "/api/patterns/saved-directly", save(markdown("saved-directly"))());
    const next = await ask(throughNext, "/api/patterns/saved-by-next", save(markdown("saved-by-next"))());
    expect([fast.status, next.status]).toEqual([201, 201]);
    const [fastBody, nextBody] = [JSON.parse(fast.body), JSON.parse(next.body)];
    expect({ ...fastBody, created_at: null, updated_at: null }).toEqual({ ...nextBody, name: "saved-directly", markdown: markdown("saved-directly"), created_at: null, updated_at: null });
    expect({ ...fast, body: "" }).toEqual({ ...next, body: "" });
  });
});
