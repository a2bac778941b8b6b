import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app";

let app: TestApp;
let token: string;
let slug: string;

const MAX_HTML = 2_097_152;

beforeAll(async () => {
  app = await startApp();
  token = await app.createToken("errors");
  const res = await app.api("/api/drops", { method: "POST", token, body: { title: "t", html: "<p>x</p>" } });
  slug = res.body.slug;
});
afterAll(async () => app?.stop());

type Case = {
  name: string;
  method: string;
  path: () => string;
  body?: unknown;
  rawBody?: string;
  status: number;
  error: { code: string; message?: string | RegExp; details?: unknown };
};

const cases: Case[] = [
  { name: "malformed JSON", method: "POST", path: () => "/api/drops", rawBody: '{"title":', status: 400, error: { code: "invalid_json" } },
  { name: "empty body", method: "POST", path: () => "/api/drops", rawBody: "", status: 400, error: { code: "invalid_json" } },
  { name: "body not an object", method: "POST", path: () => "/api/drops", body: ["x"], status: 400, error: { code: "invalid_arg" } },
  {
    name: "wrong types",
    method: "POST",
    path: () => "/api/drops",
    body: { title: "t", html: "<p/>", description: 5 },
    status: 400,
    error: { code: "invalid_arg", details: { fields: [{ field: "description", message: expect.any(String) }] } },
  },
  {
    name: "unknown field",
    method: "POST",
    path: () => "/api/drops",
    body: { title: "t", html: "<p/>", colour: "red" },
    status: 400,
    error: { code: "invalid_arg", details: { fields: [{ field: "colour", message: "unknown field" }] } },
  },
  { name: "missing title", method: "POST", path: () => "/api/drops", body: { html: "<p/>" }, status: 400, error: { code: "title_required", message: "title is required" } },
  { name: "blank title", method: "POST", path: () => "/api/drops", body: { title: "  ", html: "<p/>" }, status: 400, error: { code: "title_required" } },
  {
    name: "title of 201 characters",
    method: "POST",
    path: () => "/api/drops",
    body: { title: "é".repeat(201), html: "<p/>" },
    status: 400,
    error: { code: "title_too_long", details: { max_chars: 200 } },
  },
  {
    name: "description of 501 characters",
    method: "POST",
    path: () => "/api/drops",
    body: { title: "t", html: "<p/>", description: "d".repeat(501) },
    status: 400,
    error: { code: "description_too_long", details: { max_chars: 500 } },
  },
  { name: "missing html on POST", method: "POST", path: () => "/api/drops", body: { title: "t" }, status: 400, error: { code: "html_required" } },
  {
    name: "html one byte over the limit (multi-byte UTF-8)",
    method: "POST",
    path: () => "/api/drops",
    body: { title: "t", html: "é".repeat(MAX_HTML / 2) + "x" },
    status: 400,
    error: { code: "html_too_large", details: { max_bytes: MAX_HTML } },
  },
  {
    name: "context over 65536 bytes",
    method: "POST",
    path: () => "/api/drops",
    body: { title: "t", html: "<p/>", context: "c".repeat(65_537) },
    status: 400,
    error: { code: "context_too_large", details: { max_bytes: 65_536 } },
  },
  { name: "passcode of 3 characters", method: "POST", path: () => "/api/drops", body: { title: "t", html: "<p/>", passcode: "abc" }, status: 400, error: { code: "passcode_too_short" } },
  {
    name: "eleven metadata keys",
    method: "POST",
    path: () => "/api/drops",
    body: { title: "t", html: "<p/>", metadata: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, "v"])) },
    status: 400,
    error: { code: "invalid_arg" },
  },
  { name: "metadata key with trailing dot", method: "POST", path: () => "/api/drops", body: { title: "t", html: "<p/>", metadata: { "bad.": "v" } }, status: 400, error: { code: "invalid_arg" } },
  { name: "metadata key of 65 characters", method: "POST", path: () => "/api/drops", body: { title: "t", html: "<p/>", metadata: { ["k".repeat(65)]: "v" } }, status: 400, error: { code: "invalid_arg" } },
  { name: "metadata number value", method: "POST", path: () => "/api/drops", body: { title: "t", html: "<p/>", metadata: { n: 1 } }, status: 400, error: { code: "invalid_arg" } },
  { name: "metadata value of 257 characters", method: "POST", path: () => "/api/drops", body: { title: "t", html: "<p/>", metadata: { k: "v".repeat(257) } }, status: 400, error: { code: "invalid_arg" } },
  { name: "metadata keys equal but for case", method: "POST", path: () => "/api/drops", body: { title: "t", html: "<p/>", metadata: { Env: "a", env: "b" } }, status: 400, error: { code: "invalid_arg" } },
  { name: "PUT without html", method: "PUT", path: () => `/api/drops/${slug}`, body: { title: "t" }, status: 400, error: { code: "html_required" } },
  { name: "PATCH with html", method: "PATCH", path: () => `/api/drops/${slug}`, body: { html: "<p/>" }, status: 400, error: { code: "metadata_only_on_patch" } },
  { name: "PATCH with an empty title", method: "PATCH", path: () => `/api/drops/${slug}`, body: { title: "" }, status: 400, error: { code: "title_required" } },
  { name: "passcode body without passcode", method: "POST", path: () => `/api/drops/${slug}/passcode`, body: {}, status: 400, error: { code: "passcode_required" } },
  { name: "passcode too short", method: "POST", path: () => `/api/drops/${slug}/passcode`, body: { passcode: "12" }, status: 400, error: { code: "passcode_too_short" } },
  { name: "slug with bad characters", method: "GET", path: () => "/api/drops/NOT_A_SLUG!", status: 400, error: { code: "invalid_slug" } },
  { name: "missing drop", method: "GET", path: () => "/api/drops/zzzzzzzzzzzz", status: 404, error: { code: "not_found" } },
  { name: "missing drop on PUT", method: "PUT", path: () => "/api/drops/zzzzzzzzzzzz", body: { html: "<p/>" }, status: 404, error: { code: "not_found" } },
  { name: "missing version", method: "GET", path: () => `/api/drops/${slug}/v/99`, status: 404, error: { code: "version_not_found" } },
  { name: "version zero", method: "GET", path: () => `/api/drops/${slug}/v/0`, status: 400, error: { code: "invalid_arg" } },
  { name: "null title", method: "POST", path: () => "/api/drops", body: { title: null, html: "<p/>" }, status: 400, error: { code: "title_required" } },
  { name: "null html on PUT", method: "PUT", path: () => `/api/drops/${slug}`, body: { html: null }, status: 400, error: { code: "html_required" } },
  {
    name: "metadata key that only lower-cases into the pattern (Kelvin sign)",
    method: "POST",
    path: () => "/api/drops",
    body: { title: "t", html: "<p/>", metadata: { "\u212a": "kelvin" } },
    status: 400,
    error: { code: "invalid_arg", details: { fields: [{ field: "metadata.\u212a" }] } },
  },
  {
    name: "metadata key __proto__, which a map cannot hold",
    method: "PATCH",
    path: () => `/api/drops/${slug}`,
    rawBody: '{"metadata":{"__proto__":"x","a":"1"}}',
    status: 400,
    error: { code: "invalid_arg", message: /__proto__ is reserved/, details: { fields: [{ field: "metadata.__proto__" }] } },
  },
  { name: "metadata key __PROTO__", method: "PATCH", path: () => `/api/drops/${slug}`, body: { metadata: { __PROTO__: "x" } }, status: 400, error: { code: "invalid_arg", message: /reserved/ } },
  { name: "version written in hex", method: "GET", path: () => `/api/drops/${slug}/v/0x1`, status: 400, error: { code: "invalid_arg", details: { fields: [{ field: "n" }] } } },
  { name: "version in exponent form", method: "DELETE", path: () => `/api/drops/${slug}/v/1e0`, status: 400, error: { code: "invalid_arg", details: { fields: [{ field: "n" }] } } },
  { name: "page written as 2.0", method: "GET", path: () => "/api/drops?page=2.0", status: 400, error: { code: "invalid_arg", details: { fields: [{ field: "page" }] } } },
  { name: "pageSize in hex", method: "GET", path: () => "/api/drops?pageSize=0x10", status: 400, error: { code: "invalid_arg", details: { fields: [{ field: "pageSize" }] } } },
  {
    name: "metadata filter value of 257 characters",
    method: "GET",
    path: () => `/api/drops?metadata.project=${"v".repeat(257)}`,
    status: 400,
    error: { code: "invalid_arg", details: { fields: [{ field: "metadata.project" }] } },
  },
  {
    name: "metadata filter without a key",
    method: "GET",
    path: () => "/api/drops?metadata=project:alpha",
    status: 400,
    error: { code: "invalid_arg", message: /metadata\.<key>=<value>/, details: { fields: [{ field: "metadata" }] } },
  },
  { name: "metadata filter with an empty key", method: "GET", path: () => "/api/drops?metadata.=x", status: 400, error: { code: "invalid_arg", details: { fields: [{ field: "metadata." }] } } },
  { name: "malformed token id", method: "DELETE", path: () => "/api/tokens/XYZ", status: 400, error: { code: "invalid_arg", details: { fields: [{ field: "id" }] } } },
  { name: "poll token longer than any issued", method: "GET", path: () => `/api/auth/poll?token=${"a".repeat(201)}`, status: 404, error: { code: "not_found" } },
  { name: "unknown path under /api", method: "GET", path: () => "/api/nonexistent", status: 404, error: { code: "not_found" } },
  { name: "unknown path below a drop", method: "POST", path: () => `/api/drops/${slug}/v`, body: {}, status: 404, error: { code: "not_found" } },
  { name: "unsupported method on /api/me", method: "POST", path: () => "/api/me", body: {}, status: 405, error: { code: "invalid_arg", details: { allow: ["GET"] } } },
  { name: "unsupported method on /api/drops", method: "DELETE", path: () => "/api/drops", status: 405, error: { code: "invalid_arg", details: { allow: ["GET", "POST"] } } },
  { name: "unsupported method on a version", method: "PUT", path: () => `/api/drops/${slug}/v/1`, body: {}, status: 405, error: { code: "invalid_arg", details: { allow: ["GET", "DELETE"] } } },
  { name: "unsupported method on the poll", method: "POST", path: () => "/api/auth/poll", body: {}, status: 405, error: { code: "invalid_arg", details: { allow: ["GET"] } } },
  { name: "unknown token id", method: "DELETE", path: () => "/api/tokens/0123456789ab", status: 404, error: { code: "not_found" } },
];

describe("error envelopes", () => {
  it.each(cases)("$name → $status $error.code", async (c) => {
    const res = await app.api(c.path(), { method: c.method, token, ...(c.body !== undefined ? { body: c.body } : {}), ...(c.rawBody !== undefined ? { rawBody: c.rawBody } : {}) });
    expect(res.status).toBe(c.status);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(Object.keys(res.body)).toEqual(["error"]);
    expect(res.body.error).toMatchObject({ code: c.error.code, message: expect.any(String) });
    if (c.error.message) expect(res.body.error.message).toMatch(c.error.message);
    if (c.error.details) expect(res.body.error.details).toMatchObject(c.error.details as object);
    expect(Object.keys(res.body.error).every((key) => ["code", "message", "details"].includes(key))).toBe(true);
  });

  it("accepts exactly 2097152 bytes of html, and exactly 200 characters of title", async () => {
    const html = "é".repeat(MAX_HTML / 2);
    const res = await app.api("/api/drops", { method: "POST", token, body: { title: "😀".repeat(200), html } });
    expect(res.status, res.text).toBe(201);
    const version = await app.api(`/api/drops/${res.body.slug}/v/1`, { token });
    expect(version.body.size_bytes).toBe(MAX_HTML);
  });

  it("refuses a body larger than any valid upload without reading it all", async () => {
    const huge = "x".repeat(14 * 1024 * 1024);
    const res = await app.api("/api/drops", { method: "POST", token, rawBody: `{"title":"t","html":"${huge}"}` });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "html_too_large", details: { max_bytes: MAX_HTML } });
  });

  it("names the allowed methods in the Allow header of a 405", async () => {
    const res = await app.api(`/api/drops/${slug}/versions`, { method: "DELETE", token });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET");
  });

  it("reports an oversized body as invalid_arg where the endpoint takes no html", async () => {
    const huge = "x".repeat(14 * 1024 * 1024);
    const res = await app.api(`/api/drops/${slug}`, { method: "PATCH", token, rawBody: `{"description":"${huge}"}` });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "invalid_arg", details: { max_bytes: expect.any(Number) } });
  });


  it("challenges with WWW-Authenticate on every 401", async () => {
    const missing = await app.api("/api/me");
    expect(missing.status).toBe(401);
    expect(missing.body.error.code).toBe("token_required");
    expect(missing.headers.get("www-authenticate")).toBe('Bearer realm="htmldrop"');
    const unknown = await app.api("/api/me", { token: `${token.slice(0, -4)}${token.endsWith("AAAA") ? "BBBB" : "AAAA"}` });
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get("www-authenticate")).toBe('Bearer realm="htmldrop", error="invalid_token"');
  });

  it("refuses a device sign-in start body over 4 KB", async () => {
    const start = await app.api("/api/auth/start", { method: "POST", body: { label: "l".repeat(5000) } });
    expect(start.status).toBe(400);
    expect(start.body.error).toMatchObject({ code: "invalid_arg", details: { max_bytes: 4096 } });
  });

  it("leaves the drop untouched after every failed write", async () => {
    const res = await app.api(`/api/drops/${slug}`, { token });
    expect(res.body).toMatchObject({ title: "t", latest_version: 1, metadata: {} });
  });
});
