import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app";

let app: TestApp;
let alice: string;
let bob: string;

const page = (body: string) => `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`;

beforeAll(async () => {
  app = await startApp();
  [alice, bob] = await Promise.all([app.createToken("alice", "laptop"), app.createToken("bob")]);
});
afterAll(async () => app?.stop());

async function create(token: string, body: Record<string, unknown>) {
  const res = await app.api("/api/drops", { method: "POST", token, body: { title: "Report", html: page("v1"), ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe("create and read", () => {
  it("creates a drop with version 1 and returns the Drop shape", async () => {
    const before = Date.now();
    const drop = await create(alice, { description: "weekly", metadata: { Project: "apollo", "run.id": "42" }, context: "because" });
    expect(drop).toEqual({
      slug: expect.stringMatching(/^[a-z0-9]{12}$/),
      title: "Report",
      description: "weekly",
      url: `${app.baseUrl}/p/${drop.slug}`,
      raw_url: `${app.baseUrl}/p/${drop.slug}/raw`,
      locked: false,
      latest_version: 1,
      view_count: 0,
      metadata: { project: "apollo", "run.id": "42" },
      created_at: expect.any(Number),
      updated_at: drop.created_at,
    });
    expect(drop.created_at).toBeGreaterThanOrEqual(before);
    const fetched = await app.api(`/api/drops/${drop.slug}`, { token: alice });
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(drop);
    expect(fetched.headers.get("cache-control")).toBe("no-store");
  });

  it("never returns the passcode, and reports locked", async () => {
    const drop = await create(alice, { passcode: "s3cret-code" });
    expect(drop.locked).toBe(true);
    expect(JSON.stringify(drop)).not.toContain("s3cret");
    const unlocked = await app.api(`/api/drops/${drop.slug}/passcode`, { method: "POST", token: alice, body: { passcode: "" } });
    expect(unlocked.status).toBe(200);
    expect(unlocked.body.locked).toBe(false);
    const relocked = await app.api(`/api/drops/${drop.slug}/passcode`, { method: "POST", token: alice, body: { passcode: "abcd" } });
    expect(relocked.body.locked).toBe(true);
  });
});

describe("versions", () => {
  it("PUT always mints a version; PATCH never does; metadata is replaced, kept or cleared", async () => {
    const drop = await create(alice, { metadata: { a: "1", b: "2" } });
    const put = await app.api(`/api/drops/${drop.slug}`, { method: "PUT", token: alice, body: { html: page("v2"), context: "second" } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ latest_version: 2, title: "Report", metadata: { a: "1", b: "2" } });
    expect(put.body.updated_at).toBeGreaterThanOrEqual(drop.updated_at);

    const samePut = await app.api(`/api/drops/${drop.slug}`, { method: "PUT", token: alice, body: { html: page("v2"), title: "Renamed", metadata: { c: "3" } } });
    expect(samePut.body).toMatchObject({ latest_version: 3, title: "Renamed", metadata: { c: "3" } });

    const patch = await app.api(`/api/drops/${drop.slug}`, { method: "PATCH", token: alice, body: { description: "now described" } });
    expect(patch.status).toBe(200);
    expect(patch.body).toMatchObject({ latest_version: 3, description: "now described", metadata: { c: "3" } });

    const cleared = await app.api(`/api/drops/${drop.slug}`, { method: "PATCH", token: alice, body: { metadata: {}, description: null } });
    expect(cleared.body).toMatchObject({ latest_version: 3, metadata: {} });
    expect(cleared.body).not.toHaveProperty("description");

    const versions = await app.api(`/api/drops/${drop.slug}/versions`, { token: alice });
    expect(versions.status).toBe(200);
    expect(versions.body.map((v: { version: number }) => v.version)).toEqual([1, 2, 3]);
    expect(versions.body[1]).toEqual({ version: 2, size_bytes: Buffer.byteLength(page("v2")), has_context: true, created_at: expect.any(Number) });
    expect(versions.body[0].has_context).toBe(false);

    const v2 = await app.api(`/api/drops/${drop.slug}/v/2`, { token: alice });
    expect(v2.body).toEqual({ slug: drop.slug, version: 2, size_bytes: Buffer.byteLength(page("v2")), context: "second", created_at: expect.any(Number), is_latest: false });
    const v3 = await app.api(`/api/drops/${drop.slug}/v/3`, { token: alice });
    expect(v3.body).toMatchObject({ version: 3, is_latest: true, context: null });
  });

  it("deleting the head recomputes latest_version and the last version cannot be deleted", async () => {
    const drop = await create(alice, {});
    await app.api(`/api/drops/${drop.slug}`, { method: "PUT", token: alice, body: { html: page("v2") } });
    await app.api(`/api/drops/${drop.slug}`, { method: "PUT", token: alice, body: { html: page("v3") } });

    const deletedHead = await app.api(`/api/drops/${drop.slug}/v/3`, { method: "DELETE", token: alice });
    expect(deletedHead.status).toBe(200);
    expect(deletedHead.body.latest_version).toBe(2);

    const deletedMiddle = await app.api(`/api/drops/${drop.slug}/v/1`, { method: "DELETE", token: alice });
    expect(deletedMiddle.body.latest_version).toBe(2);

    const last = await app.api(`/api/drops/${drop.slug}/v/2`, { method: "DELETE", token: alice });
    expect(last.status).toBe(409);
    expect(last.body.error.code).toBe("last_version_cannot_be_deleted");

    const gone = await app.api(`/api/drops/${drop.slug}/v/3`, { token: alice });
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe("version_not_found");

    // Numbers are never reused, so a pinned ?v=N link can never change meaning.
    const next = await app.api(`/api/drops/${drop.slug}`, { method: "PUT", token: alice, body: { html: page("v4") } });
    expect(next.body.latest_version).toBe(4);
  });

  it("deletes a drop with all its versions", async () => {
    const drop = await create(alice, {});
    const del = await app.api(`/api/drops/${drop.slug}`, { method: "DELETE", token: alice });
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    expect((await app.api(`/api/drops/${drop.slug}`, { token: alice })).status).toBe(404);
    expect((await app.api(`/api/drops/${drop.slug}`, { method: "DELETE", token: alice })).status).toBe(404);
  });
});

describe("content-addressed blobs", () => {
  it("shares one blob between identical uploads and removes it with its last reference", async () => {
    const html = page(`shared ${Math.random()}`);
    const { createHash } = await import("node:crypto");
    const sha = createHash("sha256").update(html).digest("hex");
    const blobRows = async () => (await app.sql<{ n: number | string }>(`SELECT COUNT(*) AS n FROM "Blob" WHERE "sha256" = '${sha}'`))[0]!.n;

    const first = await create(alice, { html });
    const second = await create(bob, { html });
    await app.api(`/api/drops/${first.slug}`, { method: "PUT", token: alice, body: { html } });
    expect(Number(await blobRows())).toBe(1);

    await app.api(`/api/drops/${first.slug}`, { method: "DELETE", token: alice });
    expect(Number(await blobRows())).toBe(1);
    await app.api(`/api/drops/${second.slug}`, { method: "PUT", token: bob, body: { html: page("other") } });
    await app.api(`/api/drops/${second.slug}/v/1`, { method: "DELETE", token: bob });
    expect(Number(await blobRows())).toBe(0);
  });
});

describe("list", () => {
  it("filters by metadata with AND semantics, case-insensitive keys, and paginates", async () => {
    const owner = await app.createToken("lister");
    const made = [];
    for (let i = 0; i < 5; i++) {
      made.push(await create(owner, { title: `n${i}`, metadata: { team: i % 2 === 0 ? "red" : "blue", idx: String(i) } }));
    }
    const red = await app.api("/api/drops?metadata.team=red", { token: owner });
    expect(red.body.data.map((d: { title: string }) => d.title)).toEqual(["n4", "n2", "n0"]);
    expect(red.body.pagination).toEqual({ page: 1, page_size: 50, total_items: 3, total_pages: 1, sort_by: "created_at", sort_order: "desc" });

    const both = await app.api("/api/drops?metadata.TEAM=red&metadata.idx=2", { token: owner });
    expect(both.body.data.map((d: { title: string }) => d.title)).toEqual(["n2"]);
    const none = await app.api("/api/drops?metadata.team=red&metadata.idx=1", { token: owner });
    expect(none.body.data).toEqual([]);
    expect(none.body.pagination.total_items).toBe(0);

    const paged = await app.api("/api/drops?pageSize=2&page=2&sortOrder=asc", { token: owner });
    expect(paged.body.data.map((d: { title: string }) => d.title)).toEqual(["n2", "n3"]);
    expect(paged.body.pagination).toMatchObject({ page: 2, page_size: 2, total_items: 5, total_pages: 3, sort_order: "asc" });

    await app.api(`/api/drops/${made[0].slug}`, { method: "PATCH", token: owner, body: { title: "touched" } });
    const byUpdated = await app.api("/api/drops?sortBy=updated_at&pageSize=1", { token: owner });
    expect(byUpdated.body.data[0].title).toBe("touched");
    const byViews = await app.api("/api/drops?sortBy=view_count", { token: owner });
    expect(byViews.status).toBe(200);
    expect(byViews.body.pagination.sort_by).toBe("view_count");

    const beyond = await app.api("/api/drops?page=9", { token: owner });
    expect(beyond.body.data).toEqual([]);
    // Past the end the page carries no total beside it: the count is taken on its own.
    expect(beyond.body.pagination).toMatchObject({ page: 9, total_items: 5, total_pages: 1 });
    const beyondFiltered = await app.api("/api/drops?page=9&pageSize=1&metadata.team=red", { token: owner });
    expect(beyondFiltered.body.pagination).toMatchObject({ page: 9, total_items: 3, total_pages: 3 });
  });

  it.each([
    ["page=0", "page"],
    ["page=abc", "page"],
    ["pageSize=201", "pageSize"],
    ["pageSize=1.5", "pageSize"],
    ["sortBy=title", "sortBy"],
    ["sortOrder=up", "sortOrder"],
    ["metadata.-bad=x", "metadata"],
    [`metadata.k=${"v".repeat(257)}`, "metadata"],
  ])("rejects ?%s with invalid_arg", async (query, field) => {
    const res = await app.api(`/api/drops?${query}`, { token: alice });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_arg");
    expect(res.body.error.details.fields[0].field).toContain(field);
  });
});

describe("ownership", () => {
  it("Bob can neither read, change nor delete Alice's drop, nor see it in his list", async () => {
    const drop = await create(alice, { metadata: { secret: "yes" } });
    const attempts = [
      app.api(`/api/drops/${drop.slug}`, { token: bob }),
      app.api(`/api/drops/${drop.slug}`, { method: "PUT", token: bob, body: { html: page("pwned") } }),
      app.api(`/api/drops/${drop.slug}`, { method: "PATCH", token: bob, body: { title: "pwned" } }),
      app.api(`/api/drops/${drop.slug}`, { method: "DELETE", token: bob }),
      app.api(`/api/drops/${drop.slug}/versions`, { token: bob }),
      app.api(`/api/drops/${drop.slug}/v/1`, { token: bob }),
      app.api(`/api/drops/${drop.slug}/v/1`, { method: "DELETE", token: bob }),
      app.api(`/api/drops/${drop.slug}/passcode`, { method: "POST", token: bob, body: { passcode: "abcd" } }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("forbidden");
      expect(res.text).not.toContain("secret");
    }
    const bobs = await app.api("/api/drops?metadata.secret=yes", { token: bob });
    expect(bobs.body.data).toEqual([]);
    const intact = await app.api(`/api/drops/${drop.slug}`, { token: alice });
    expect(intact.body).toMatchObject({ latest_version: 1, title: "Report", locked: false });
  });
});
