// Links that expire: the fields on every write, the 410 pages at the boundary (on a movable clock),
// cache lifetimes that end by the expiry, the list filter, the MCP tools and the purge through the
// cron route. The purge timer of `npm start` is in expiry-purge-job.test.ts.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { servesServerless, startApp, type TestApp } from "../helpers/app";
import { createTestClock, DAY_MS, type TestClock } from "../helpers/clock";

const CRON_SECRET = "cron-secret-for-the-expiry-tests";
const SECRET_TITLE = "Quarterly secrets";
const SECRET_BODY = "EXPIRING-BODY-TEXT";
const HTML = `<!doctype html><html><head><title>${SECRET_TITLE}</title></head><body><p>${SECRET_BODY}</p></body></html>`;

let app: TestApp;
let clock: TestClock;
let token: string;

beforeAll(async () => {
  clock = createTestClock();
  // The clock jumps days ahead and back: the write limits would count those windows, not what is tested here.
  app = await startApp({ env: { HTMLDROP_TEST_CLOCK_FILE: clock.file, CRON_SECRET, EXPIRED_RETENTION_DAYS: "2", LIMIT_WRITES_PER_MINUTE: "1000", LIMIT_WRITES_PER_DAY: "5000" } });
  token = await app.createToken("expiring");
});
afterAll(async () => app?.stop());

async function create(body: Record<string, unknown>) {
  const created = await app.api("/api/drops", { method: "POST", token, body: { title: SECRET_TITLE, html: HTML, ...body } });
  expect(created.status).toBe(201);
  return created.body;
}

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${app.baseUrl}${path}`, { headers, redirect: "manual" });

async function expectGone(path: string): Promise<void> {
  const response = await get(path);
  expect(response.status, path).toBe(410);
  expect(response.headers.get("cache-control"), path).toBe("no-store");
  const html = await response.text();
  expect(html, path).toContain("This link has expired");
  for (const leak of [SECRET_TITLE, SECRET_BODY, "og:", "<iframe"]) expect(html, path).not.toContain(leak);
}

/** Seconds of each directive in a Cache-Control value. */
function lifetimes(cacheControl: string | null): Record<string, number> {
  return Object.fromEntries([...(cacheControl ?? "").matchAll(/([a-z-]+)=(\d+)/g)].map(([, name, value]) => [name!, Number(value)]));
}

describe("setting, changing and clearing an expiry", () => {
  it("leaves a drop without one in the spec's shape", async () => {
    const drop = await create({});
    expect(drop).not.toHaveProperty("expires_at");
    expect(drop).not.toHaveProperty("expired");
  });

  it("takes ttl_seconds or expires_at on POST, PUT and PATCH, and null removes it", async () => {
    const before = Date.now();
    const drop = await create({ ttl_seconds: 3600 });
    // The ttl counts from when the request arrived, a moment before the drop's row is stamped.
    expect(drop.expires_at - drop.created_at).toBeGreaterThan(3_600_000 - 2000);
    expect(drop.expires_at - drop.created_at).toBeLessThanOrEqual(3_600_000);
    expect(drop.expires_at).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(drop.expired).toBe(false);

    const at = drop.created_at + 7 * DAY_MS;
    const put = await app.api(`/api/drops/${drop.slug}`, { method: "PUT", token, body: { html: "<p>v2</p>", expires_at: at } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ latest_version: 2, expires_at: at, expired: false });

    // A write that names no expiry keeps it.
    const retitled = await app.api(`/api/drops/${drop.slug}`, { method: "PATCH", token, body: { title: "Renamed" } });
    expect(retitled.body.expires_at).toBe(at);
    const kept = await app.api(`/api/drops/${drop.slug}`, { method: "PUT", token, body: { html: "<p>v3</p>" } });
    expect(kept.body.expires_at).toBe(at);

    const cleared = await app.api(`/api/drops/${drop.slug}`, { method: "PATCH", token, body: { expires_at: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body).not.toHaveProperty("expires_at");
    expect((await app.api(`/api/drops/${drop.slug}`, { token })).body).not.toHaveProperty("expired");

    const patched = await app.api(`/api/drops/${drop.slug}`, { method: "PATCH", token, body: { ttl_seconds: 60 } });
    expect(patched.body.expires_at - patched.body.updated_at).toBeGreaterThan(60_000 - 2000);
    expect(patched.body.expires_at - patched.body.updated_at).toBeLessThanOrEqual(60_000);
  });

  it.each([
    [{ ttl_seconds: 60, expires_at: Date.now() + DAY_MS }, "not both"],
    [{ expires_at: Date.now() - 1000 }, "in the future"],
    [{ expires_at: Date.now() + 11 * 365 * DAY_MS }, "10 years"],
    [{ expires_at: "tomorrow" }, "expires_at"],
    [{ expires_at: 1.5 }, "expires_at"],
    [{ ttl_seconds: 0 }, "ttl_seconds"],
    [{ ttl_seconds: 11 * 365 * 86_400 }, "ttl_seconds"],
    [{ ttl_seconds: null }, "ttl_seconds"],
  ])("refuses %j with 400 invalid_arg naming the problem", async (fields, words) => {
    const created = await app.api("/api/drops", { method: "POST", token, body: { title: "t", html: "<p/>", ...fields } });
    expect(created.status).toBe(400);
    expect(created.body.error.code).toBe("invalid_arg");
    expect(created.body.error.message).toContain(words);
    const drop = await create({});
    const patched = await app.api(`/api/drops/${drop.slug}`, { method: "PATCH", token, body: fields });
    expect(patched.status).toBe(400);
    expect(patched.body.error.code).toBe("invalid_arg");
    const put = await app.api(`/api/drops/${drop.slug}`, { method: "PUT", token, body: { html: "<p>2</p>", ...fields } });
    expect(put.status).toBe(400);
    expect((await app.api(`/api/drops/${drop.slug}`, { token })).body.latest_version).toBe(1);
  });
});

describe("at the expiry", () => {
  it("serves the drop before its expiry, then answers 410 from the moment it passes on viewer and raw, latest and pinned", async () => {
    const drop = await create({ ttl_seconds: 600 });
    await app.api(`/api/drops/${drop.slug}`, { method: "PUT", token, body: { html: HTML.replace("EXPIRING", "SECOND") } });
    const paths = [`/p/${drop.slug}`, `/p/${drop.slug}?v=1`, `/p/${drop.slug}/raw`, `/p/${drop.slug}/raw?v=1`, `/p/${drop.slug}/raw?v=2`];

    // A minute short of it: the test clock runs on in real time, and on a busy machine these requests take seconds.
    clock.moveTo(drop.expires_at - 60_000);
    for (const path of paths) expect((await get(path)).status, path).toBe(200);
    expect((await app.api(`/api/drops/${drop.slug}`, { token })).body.expired).toBe(false);

    clock.moveTo(drop.expires_at);
    for (const path of [...paths, `/p/${drop.slug}?v=9`, `/p/${drop.slug}/raw?v=9`, `/p/${drop.slug}?error=wrong`]) await expectGone(path);
    const owned = await app.api(`/api/drops/${drop.slug}`, { token });
    expect(owned.status).toBe(200);
    expect(owned.body).toMatchObject({ slug: drop.slug, expires_at: drop.expires_at, expired: true, latest_version: 2 });

    // The owner extends it, and the same URLs work again.
    const extended = await app.api(`/api/drops/${drop.slug}`, { method: "PATCH", token, body: { ttl_seconds: 3600 } });
    expect(extended.body.expired).toBe(false);
    for (const path of paths) expect((await get(path)).status, path).toBe(200);
    clock.moveTo(Date.now());
  });

  it("answers 410 rather than the gate for an expired drop with a passcode, and checks no passcode", async () => {
    const drop = await create({ ttl_seconds: 60, passcode: "sesame" });
    expect((await get(`/p/${drop.slug}`)).status).toBe(200);
    clock.moveTo(drop.expires_at + 1000);
    await expectGone(`/p/${drop.slug}`);
    await expectGone(`/p/${drop.slug}/raw`);
    // Nor is its passcode checked any more: the right one unlocks nothing.
    const unlocked = await fetch(`${app.baseUrl}/p/${drop.slug}/unlock`, { method: "POST", body: new URLSearchParams({ passcode: "sesame" }), redirect: "manual" });
    expect(unlocked.status).toBe(303);
    expect(unlocked.headers.get("set-cookie")).toBeNull();
    clock.moveTo(Date.now());
  });

  it("filters the list by expired=true|false and refuses other values", async () => {
    const expiring = await create({ ttl_seconds: 30, metadata: { batch: "filter" } });
    const lasting = await create({ ttl_seconds: 86_400, metadata: { batch: "filter" } });
    const forever = await create({ metadata: { batch: "filter" } });
    clock.moveTo(expiring.expires_at + 1000);
    const list = async (query: string) => ((await app.api(`/api/drops?metadata.batch=filter${query}`, { token })).body.data as { slug: string }[]).map((drop) => drop.slug).sort();
    expect(await list("&expired=true")).toEqual([expiring.slug]);
    expect(await list("&expired=false")).toEqual([lasting.slug, forever.slug].sort());
    expect(await list("")).toEqual([expiring.slug, lasting.slug, forever.slug].sort());
    const refused = await app.api("/api/drops?expired=yes", { token });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: "invalid_arg" });
    expect(refused.body.error.message).toContain("expired must be true or false");
    clock.moveTo(Date.now());
  });
});

describe("cache lifetimes near the expiry", () => {
  it("keeps the usual lifetimes for a drop far from its expiry", async () => {
    const drop = await create({ ttl_seconds: 86_400 });
    expect((await get(`/p/${drop.slug}/raw`)).headers.get("cache-control")).toBe("public, max-age=0, s-maxage=10, stale-while-revalidate=60");
    expect((await get(`/p/${drop.slug}/raw?v=1`)).headers.get("cache-control")).toBe("public, max-age=300, s-maxage=60, stale-while-revalidate=60");
  });

  it("ends every lifetime, stale ones included, by the expiry", async () => {
    const drop = await create({ ttl_seconds: 600 });
    clock.moveTo(drop.expires_at - 30_000);
    const paths = [`/p/${drop.slug}/raw`, `/p/${drop.slug}/raw?v=1`];
    // The custom server answers the viewer page itself; on Vercel the shared page is the platform's to cache.
    if (!servesServerless()) paths.push(`/p/${drop.slug}`, `/p/${drop.slug}?v=1`);
    for (const path of paths) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      const seconds = lifetimes(response.headers.get("cache-control"));
      expect(response.headers.get("cache-control"), path).toMatch(/^public, /);
      expect(seconds["max-age"], path).toBeLessThanOrEqual(30);
      expect(seconds["s-maxage"]! + seconds["stale-while-revalidate"]!, path).toBeLessThanOrEqual(30);
      expect(seconds["s-maxage"]! + seconds["stale-while-revalidate"]!, path).toBeGreaterThanOrEqual(25);
    }
    clock.moveTo(drop.expires_at - 500);
    expect((await get(`/p/${drop.slug}/raw?v=1`)).headers.get("cache-control")).toBe("no-store");
    clock.moveTo(Date.now());
  });
});

describe("the purge", () => {
  const cron = (authorization?: string) => app.api("/api/cron/purge-expired", { headers: authorization ? { authorization } : {} });

  it("refuses callers without the CRON_SECRET", async () => {
    const missing = await cron();
    expect(missing.status).toBe(401);
    expect(missing.body.error.code).toBe("token_required");
    const wrong = await cron("Bearer not-the-secret-at-all");
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe("unauthorized");
    const method = await app.api("/api/cron/purge-expired", { method: "POST", headers: { authorization: `Bearer ${CRON_SECRET}` } });
    expect(method.status).toBe(405);
  });

  it("deletes drops expired longer than the retention, with their versions and blobs, and nothing else", async () => {
    clock.moveTo(Date.now());
    const unique = `<p>purged ${Math.random()}</p>`;
    const old = await create({ ttl_seconds: 60, html: unique });
    await app.api(`/api/drops/${old.slug}`, { method: "PUT", token, body: { html: `${unique}<p>2</p>` } });
    const recent = await create({ ttl_seconds: DAY_MS / 1000 });
    const lasting = await create({});
    const dropCount = async () => (await app.api("/api/me", { token })).body.drop_count;
    const countBefore = await dropCount();
    const shas = [unique, `${unique}<p>2</p>`].map((html) => `'${createHash("sha256").update(html).digest("hex")}'`).join(", ");
    const blobs = () => app.sql(`SELECT "sha256" FROM "Blob" WHERE "sha256" IN (${shas})`);
    expect(await blobs()).toHaveLength(2);

    // Two days and a minute after the first expiry: only it is past the two-day retention.
    clock.moveTo(old.expires_at + 2 * DAY_MS + 60_000);
    const purged = await cron(`Bearer ${CRON_SECRET}`);
    expect(purged.status).toBe(200);
    expect(purged.body.purged).toBeGreaterThanOrEqual(1);
    expect(purged.body.cutoff).toBeGreaterThanOrEqual(old.expires_at);
    expect((await app.api(`/api/drops/${old.slug}`, { token })).status).toBe(404);
    expect((await get(`/p/${old.slug}/raw`)).status).toBe(404);
    expect(await blobs()).toEqual([]);
    expect(await app.sql(`SELECT "id" FROM "Version" WHERE "dropId" NOT IN (SELECT "id" FROM "Drop")`)).toEqual([]);
    expect((await app.api(`/api/drops/${recent.slug}`, { token })).body.expired).toBe(true);
    expect((await app.api(`/api/drops/${lasting.slug}`, { token })).status).toBe(200);
    expect(await dropCount()).toBe(countBefore - purged.body.purged);

    // Nothing is left to purge: a second run removes nothing.
    expect((await cron(`Bearer ${CRON_SECRET}`)).body.purged).toBe(0);
    clock.moveTo(Date.now());
  });
});

describe("the MCP tools", () => {
  async function connect(): Promise<Client> {
    const transport = new StreamableHTTPClientTransport(new URL("/mcp", `http://127.0.0.1:${app.env.PORT}`), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
    const client = new Client({ name: "htmldrop-expiry-tests", version: "1.0.0" });
    await client.connect(transport);
    return client;
  }
  const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;

  it("set, list by and clear an expiry with the same fields and rules as REST", async () => {
    clock.moveTo(Date.now());
    const client = await connect();
    try {
      const tools = (await client.listTools()).tools;
      for (const name of ["create_drop", "update_drop", "patch_drop"]) {
        const properties = (tools.find((tool) => tool.name === name)!.inputSchema as { properties: Record<string, unknown> }).properties;
        expect(Object.keys(properties), name).toEqual(expect.arrayContaining(["expires_at", "ttl_seconds"]));
      }
      const created = await call(client, "create_drop", { title: "MCP expiring", html: "<p>mcp</p>", ttl_seconds: 120, metadata: { via: "mcp-expiry" } });
      const drop = created.structuredContent as { slug: string; expires_at: number; created_at: number; expired: boolean };
      expect(drop.expires_at - drop.created_at).toBeGreaterThan(120_000 - 2000);
      expect(drop.expires_at - drop.created_at).toBeLessThanOrEqual(120_000);
      expect(drop).toEqual((await app.api(`/api/drops/${drop.slug}`, { token })).body);

      const both = await call(client, "patch_drop", { slug: drop.slug, ttl_seconds: 5, expires_at: null });
      expect(both.isError).toBe(true);
      expect(both.structuredContent).toMatchObject({ error: { code: "invalid_arg" } });

      clock.moveTo(drop.expires_at + 1);
      const expired = await call(client, "list_drops", { metadata: { via: "mcp-expiry" }, expired: true });
      expect((expired.structuredContent as { data: { slug: string; expired: boolean }[] }).data).toEqual([expect.objectContaining({ slug: drop.slug, expired: true })]);
      const cleared = await call(client, "patch_drop", { slug: drop.slug, expires_at: null });
      expect(cleared.structuredContent).not.toHaveProperty("expires_at");
      expect((await call(client, "list_drops", { metadata: { via: "mcp-expiry" }, expired: true })).structuredContent).toMatchObject({ data: [] });
      expect((await get(`/p/${drop.slug}/raw`)).status).toBe(200);
    } finally {
      await client.close();
      clock.moveTo(Date.now());
    }
  });
});
