// Link previews and indexing: the Open Graph card of a public drop version (a 1200×630 PNG, cached by
// ETag and never past the expiry), the tags that point at it, a locked drop that shows none of it, the
// noindex default on the viewer, raw and card with the per-drop opt-in (REST, MCP, refused for
// another account), and the files of public/.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_FILES } from "@/lib/serving/public-files";
import { servesServerless, startApp, type TestApp } from "../helpers/app";
import { createTestClock, type TestClock } from "../helpers/clock";

const SECRET_TITLE = "Locked board minutes";
const PAGE = "<!doctype html><html><head><title>doc</title></head><body><p>Preview body</p></body></html>";

let app: TestApp;
let clock: TestClock;
let token: string;
let otherToken: string;

beforeAll(async () => {
  clock = createTestClock();
  app = await startApp({ env: { HTMLDROP_TEST_CLOCK_FILE: clock.file, LIMIT_WRITES_PER_MINUTE: "1000" } });
  token = await app.createToken("preview-owner");
  otherToken = await app.createToken("preview-stranger");
});
afterAll(async () => app?.stop());

async function create(body: Record<string, unknown> = {}): Promise<{ slug: string; [field: string]: unknown }> {
  const created = await app.api("/api/drops", { method: "POST", token, body: { title: "Launch plan", html: PAGE, ...body } });
  expect(created.status).toBe(201);
  return created.body;
}

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${app.baseUrl}${path}`, { headers, redirect: "manual" });

/** The content of each <meta> named by property or name, as the viewer page renders it. */
function metaTags(html: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const [tag] of html.matchAll(/<meta\b[^>]*>/g)) {
    const key = /(?:property|name)="([^"]+)"/.exec(tag)?.[1];
    const content = /content="([^"]*)"/.exec(tag)?.[1];
    if (key && content !== undefined) tags.set(key, content.replaceAll("&amp;", "&"));
  }
  return tags;
}

function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
  expect(bytes.subarray(12, 16).toString("ascii")).toBe("IHDR");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

describe("the preview card", () => {
  it("is named by the viewer's Open Graph and Twitter tags, with a fallback description", async () => {
    const drop = await create();
    const viewer = await get(`/p/${drop.slug}`);
    expect(viewer.status).toBe(200);
    const tags = metaTags(await viewer.text());
    // The version shown, and the card's own tag (its ETag): a new title is a new image URL.
    expect(pathOf(tags.get("og:image")!)).toMatch(new RegExp(`^/p/${drop.slug}/og\\.png\\?v=1&card=[A-Za-z0-9_-]{27}$`));
    const card = await get(pathOf(tags.get("og:image")!));
    expect(card.headers.get("etag")).toBe(`"${new URL(tags.get("og:image")!).searchParams.get("card")}"`);
    expect(tags.get("og:image:width")).toBe("1200");
    expect(tags.get("og:image:height")).toBe("630");
    expect(tags.get("twitter:card")).toBe("summary_large_image");
    expect(tags.get("twitter:image")).toBe(tags.get("og:image"));
    expect(tags.get("og:description")).toBe("Version 1 of a page published with htmldrop");
    expect(tags.get("twitter:description")).toBe("Version 1 of a page published with htmldrop");

    await app.api(`/api/drops/${drop.slug}`, { method: "PUT", token, body: { html: PAGE, description: "Dates and owners" } });
    const described = metaTags(await (await get(`/p/${drop.slug}?v=2`)).text());
    expect(described.get("og:description")).toBe("Dates and owners");
    expect(pathOf(described.get("og:image")!)).toMatch(new RegExp(`^/p/${drop.slug}/og\\.png\\?v=2&card=`));
  });

  it("is a 1200×630 PNG, drawn once, then answered from cache and by ETag", async () => {
    const drop = await create({ title: "Cards 📈 and 日本語 titles", description: "Drawn from the bundled font only" });
    const first = await get(`/p/${drop.slug}/og.png?v=1`);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("image/png");
    expect(first.headers.get("cache-control")).toBe("public, max-age=300, s-maxage=60, stale-while-revalidate=60");
    expect(first.headers.get("x-robots-tag")).toBe("noindex");
    expect(first.headers.get("x-htmldrop-cache")).toBe("miss");
    // The app's own headers, whether the front door (npm start) or Next's route (Vercel) answered.
    expect(first.headers.get("x-frame-options")).toBe("DENY");
    expect(first.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    const bytes = Buffer.from(await first.arrayBuffer());
    expect(pngSize(bytes)).toEqual({ width: 1200, height: 630 });

    const again = await get(`/p/${drop.slug}/og.png?v=1`);
    expect(again.headers.get("x-htmldrop-cache")).toBe("hit");
    expect(again.headers.get("etag")).toBe(etag);
    expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true);

    const revalidated = await get(`/p/${drop.slug}/og.png?v=1`, { "if-none-match": etag });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe("");

    const latest = await get(`/p/${drop.slug}/og.png`);
    expect(latest.status).toBe(200);
    expect(latest.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=10, stale-while-revalidate=60");
    expect(latest.headers.get("etag")).toBe(etag);

    // Characters the bundled font lacks are left out rather than fetched from the network.
    expect(app.logs()).not.toMatch(/dynamic font|preview image failed/i);
  });

  it("changes with the title: a new image URL in the viewer, and an old ETag gets the new card", async () => {
    const drop = await create({ title: "Before the rename" });
    const imageUrl = async () => metaTags(await (await get(`/p/${drop.slug}`)).text()).get("og:image");
    const urlBefore = await imageUrl();
    const before = await get(`/p/${drop.slug}/og.png?v=1`);
    const oldTag = before.headers.get("etag")!;
    await app.api(`/api/drops/${drop.slug}`, { method: "PATCH", token, body: { title: "After the rename" } });
    expect(await imageUrl()).not.toBe(urlBefore);
    const after = await get(`/p/${drop.slug}/og.png?v=1`, { "if-none-match": oldTag });
    expect(after.status).toBe(200);
    // The renamed card, drawn for this request or already for the viewer page (drawCardAhead).
    expect(after.headers.get("etag")).not.toBe(oldTag);
    expect(pngSize(Buffer.from(await after.arrayBuffer()))).toEqual({ width: 1200, height: 630 });
  });

  it("answers 404 in the Error shape for an unknown drop, version or query", async () => {
    const drop = await create();
    for (const path of [`/p/${drop.slug}/og.png?v=9`, `/p/${drop.slug}/og.png?v=abc`, `/p/${drop.slug}/og.png?v=1&v=1`, "/p/nosuchdrop1/og.png", "/p/NOT_A_SLUG/og.png"]) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get("cache-control"), path).toBe("no-store");
      expect(await response.json(), path).toEqual({ error: { code: "not_found", message: expect.stringContaining("no preview image") } });
    }
    const posted = await fetch(`${app.baseUrl}/p/${drop.slug}/og.png`, { method: "POST" });
    expect(posted.status).toBe(405);
  });

  it("never shows a locked drop's title: no card, no Open Graph tags", async () => {
    const drop = await create({ title: SECRET_TITLE, description: "Secret description", passcode: "correct horse" });
    const card = await get(`/p/${drop.slug}/og.png?v=1`);
    expect(card.status).toBe(404);
    const body = await card.text();
    expect(body).not.toContain(SECRET_TITLE);
    expect(JSON.parse(body).error.code).toBe("not_found");
    const gate = await (await get(`/p/${drop.slug}`)).text();
    for (const leak of [SECRET_TITLE, "Secret description", "og:", "twitter:", "og.png"]) expect(gate).not.toContain(leak);
    expect(metaTags(gate).get("robots")).toContain("noindex");
  });

  it("answers 410 once the drop has expired, and is never cached past the expiry", async () => {
    clock.moveTo(Date.now());
    const drop = await create({ title: "Short-lived", ttl_seconds: 30 });
    const fresh = await get(`/p/${drop.slug}/og.png?v=1`);
    expect(fresh.status).toBe(200);
    const lifetimes = Object.fromEntries([...fresh.headers.get("cache-control")!.matchAll(/([a-z-]+)=(\d+)/g)].map(([, name, value]) => [name!, Number(value)]));
    expect(lifetimes["max-age"]).toBeLessThanOrEqual(30);
    expect(lifetimes["s-maxage"]! + lifetimes["stale-while-revalidate"]!).toBeLessThanOrEqual(30);

    clock.advance(31_000);
    try {
      for (const path of [`/p/${drop.slug}/og.png?v=1`, `/p/${drop.slug}/og.png`]) {
        const gone = await get(path);
        expect(gone.status, path).toBe(410);
        expect(gone.headers.get("cache-control"), path).toBe("no-store");
        expect(await gone.text(), path).not.toContain("Short-lived");
      }
    } finally {
      clock.moveTo(Date.now());
    }
  });
});

describe("indexing", () => {
  async function robots(slug: string): Promise<{ viewerHeader: string | null; viewerMeta: string | undefined; raw: string | null; card: string | null }> {
    const viewer = await get(`/p/${slug}`);
    const html = await viewer.text();
    return {
      viewerHeader: viewer.headers.get("x-robots-tag"),
      viewerMeta: metaTags(html).get("robots"),
      raw: (await get(`/p/${slug}/raw`)).headers.get("x-robots-tag"),
      card: (await get(`/p/${slug}/og.png?v=1`)).headers.get("x-robots-tag"),
    };
  }

  it("keeps every drop out of search engines by default, and the Drop JSON in the spec's shape", async () => {
    const drop = await create();
    expect(drop).not.toHaveProperty("indexable");
    expect(await robots(drop.slug)).toEqual({ viewerHeader: "noindex", viewerMeta: "noindex", raw: "noindex", card: "noindex" });
  });

  it("lets the owner opt in and out with PATCH, shown at once on the cached viewer page", async () => {
    const drop = await create();
    // Render the page into the cache first, so the opt-in must reach a page already kept.
    await get(`/p/${drop.slug}`);
    await get(`/p/${drop.slug}`);
    const on = await app.api(`/api/drops/${drop.slug}`, { method: "PATCH", token, body: { indexable: true } });
    expect(on.status).toBe(200);
    expect(on.body.indexable).toBe(true);
    expect((await app.api(`/api/drops/${drop.slug}`, { token })).body.indexable).toBe(true);
    expect(await robots(drop.slug)).toEqual({ viewerHeader: null, viewerMeta: undefined, raw: null, card: null });

    const off = await app.api(`/api/drops/${drop.slug}`, { method: "PATCH", token, body: { indexable: false } });
    expect(off.body).not.toHaveProperty("indexable");
    expect(await robots(drop.slug)).toEqual({ viewerHeader: "noindex", viewerMeta: "noindex", raw: "noindex", card: "noindex" });
  });

  it("takes indexable on POST, refuses a value that is not a boolean, and never indexes a locked drop", async () => {
    const drop = await create({ indexable: true });
    expect(drop.indexable).toBe(true);
    const wrong = await app.api(`/api/drops/${drop.slug}`, { method: "PATCH", token, body: { indexable: "yes" } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatchObject({ code: "invalid_arg", details: { fields: [{ field: "indexable", message: "indexable must be true or false" }] } });

    const locked = await create({ indexable: true, passcode: "correct horse" });
    const gate = await get(`/p/${locked.slug}`);
    expect(gate.headers.get("x-robots-tag")).toBe("noindex");
    expect((await get(`/p/${locked.slug}/raw`)).headers.get("x-robots-tag")).toBe("noindex");
  });

  it("refuses another account, which changes nothing", async () => {
    const drop = await create();
    const refused = await app.api(`/api/drops/${drop.slug}`, { method: "PATCH", token: otherToken, body: { indexable: true } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("forbidden");
    expect((await app.api(`/api/drops/${drop.slug}`, { token })).body).not.toHaveProperty("indexable");
    expect((await get(`/p/${drop.slug}`)).headers.get("x-robots-tag")).toBe("noindex");
  });

  it("is set by the MCP tools with the same field", async () => {
    const transport = new StreamableHTTPClientTransport(new URL("/mcp", `http://127.0.0.1:${app.env.PORT}`), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
    const client = new Client({ name: "htmldrop-preview-tests", version: "1.0.0" });
    await client.connect(transport);
    try {
      const tools = (await client.listTools()).tools;
      for (const name of ["create_drop", "patch_drop"]) {
        const properties = (tools.find((tool) => tool.name === name)!.inputSchema as { properties: Record<string, unknown> }).properties;
        expect(Object.keys(properties), name).toContain("indexable");
      }
      const drop = await create();
      const patched = (await client.callTool({ name: "patch_drop", arguments: { slug: drop.slug, indexable: true } })) as CallToolResult;
      expect(patched.isError).toBeFalsy();
      expect(patched.structuredContent).toMatchObject({ slug: drop.slug, indexable: true });
      expect((await get(`/p/${drop.slug}`)).headers.get("x-robots-tag")).toBeNull();
    } finally {
      await client.close();
    }
  });
});

describe("public files", () => {
  it("serves robots.txt that keeps drops crawlable and the app's own pages out", async () => {
    const response = await get("/robots.txt");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(response.headers.get("cache-control")).toBe("public, max-age=86400, stale-while-revalidate=604800");
    const text = await response.text();
    for (const path of ["/api/", "/dashboard", "/mcp", "/oauth/", "/verify"]) expect(text).toContain(`Disallow: ${path}`);
    expect(text).not.toMatch(/Disallow: \/p\b/);
    expect(text).not.toMatch(/Disallow: \/\s*$/m);
  });

  it("serves the favicon, app icons and manifest the pages link to", async () => {
    const home = await (await get("/")).text();
    for (const link of ['rel="icon" href="/favicon.ico"', 'href="/icon.svg"', 'rel="apple-touch-icon" href="/apple-touch-icon.png"', 'rel="manifest" href="/site.webmanifest"']) {
      expect(home).toContain(link);
    }
    const favicon = await get("/favicon.ico");
    expect(favicon.status).toBe(200);
    expect(Buffer.from(await favicon.arrayBuffer()).subarray(0, 4).toString("hex")).toBe("00000100");
    const svg = await get("/icon.svg");
    expect(svg.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    expect(svg.headers.get("cache-control")).toBe("public, max-age=86400, stale-while-revalidate=604800");
    const touch = await get("/apple-touch-icon.png");
    expect(pngSize(Buffer.from(await touch.arrayBuffer()))).toEqual({ width: 180, height: 180 });
    const manifest = await (await get("/site.webmanifest")).json();
    expect(manifest.icons.map((icon: { src: string }) => icon.src)).toEqual(["/icon-192.png", "/icon-512.png", "/icon.svg"]);
    for (const icon of manifest.icons) expect((await get(icon.src)).status, icon.src).toBe(200);
  });

  it("refuses every method but GET and HEAD on public/'s files with 405 in the Error shape, and lists every file of public/", async () => {
    expect([...PUBLIC_FILES].sort()).toEqual(readdirSync(join(import.meta.dirname, "..", "..", "public")).sort());
    for (const name of PUBLIC_FILES) {
      for (const method of ["POST", "PUT", "DELETE"]) {
        const response = await fetch(`${app.baseUrl}/${name}`, { method, body: method === "DELETE" ? undefined : '{"x":"a\\u0000b"}', headers: { "content-type": "text/plain" } });
        expect(response.status, `${method} /${name}`).toBe(405);
        expect(response.headers.get("allow")).toBe("GET, HEAD");
        expect((await response.json()).error.code).toBe("invalid_arg");
      }
      expect((await fetch(`${app.baseUrl}/${name}`, { method: "HEAD" })).status, `HEAD /${name}`).toBe(200);
    }
  });
});

describe("the documents", () => {
  it("describe the preview image and the indexable field as additions", async () => {
    const openapi = (await app.api("/openapi.json")).body;
    const card = openapi.paths["/p/{slug}/og.png"]?.get;
    expect(card).toMatchObject({ operationId: "dropPreviewImage", tags: ["Public"] });
    expect(card.responses["200"].content).toEqual({ "image/png": { schema: { type: "string", format: "binary" } } });
    expect(card.responses["404"].content["application/json"]).toBeDefined();
    expect(Object.keys(card.responses)).toEqual(expect.arrayContaining(["304", "410", "429"]));
    expect(openapi.components.schemas.Drop.properties.indexable).toMatchObject({ description: expect.stringContaining("search engines") });
    expect(openapi.components.schemas.Drop.required ?? []).not.toContain("indexable");
    for (const body of ["CreateDropBody", "PatchDropBody"]) expect(openapi.components.schemas[body].properties.indexable, body).toMatchObject({ type: "boolean" });
  });
});

// Last: it spends this client's render budget for the current minute. Its window is moved on the test
// clock, which Upstash's limiter (serving as Vercel does) does not read: upstash.test.ts covers that one.
describe("the render limit", () => {
  it.skipIf(servesServerless())("refuses to draw more than 60 new cards a minute for one client, while cards drawn already or for their viewer page still answer", async () => {
    clock.startWindow(60_000);
    const drop = await create({ title: "Renamed again and again" });
    const cached = await get(`/p/${drop.slug}/og.png?v=1`);
    expect(cached.status).toBe(200);
    const cachedTag = cached.headers.get("etag")!;
    let refused: Response | null = null;
    for (let rename = 1; rename <= 61 && !refused; rename++) {
      await app.api(`/api/drops/${drop.slug}`, { method: "PATCH", token, body: { title: `Renamed ${rename} times` } });
      const card = await get(`/p/${drop.slug}/og.png?v=1`);
      if (card.status === 429) refused = card;
      else expect(card.status).toBe(200);
    }
    expect(refused, "no render was refused").not.toBeNull();
    expect(Number(refused!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused!.json()).toMatchObject({ error: { code: "rate_limited", details: { limit: 60, retry_after_seconds: expect.any(Number) } } });
    // A card already drawn costs nothing: its ETag still revalidates.
    await app.api(`/api/drops/${drop.slug}`, { method: "PATCH", token, body: { title: "Renamed again and again" } });
    expect((await get(`/p/${drop.slug}/og.png?v=1`, { "if-none-match": cachedTag })).status).toBe(304);
    // Nor does the card its viewer page started drawing: an unfurler reads the page, then asks for the card.
    await app.api(`/api/drops/${drop.slug}`, { method: "PATCH", token, body: { title: "Unfurled after the limit" } });
    const imageUrl = metaTags(await (await get(`/p/${drop.slug}`)).text()).get("og:image")!;
    const unfurled = await get(pathOf(imageUrl));
    expect(unfurled.status).toBe(200);
    expect(unfurled.headers.get("etag")).toBe(`"${new URL(imageUrl).searchParams.get("card")}"`);
  });
});
