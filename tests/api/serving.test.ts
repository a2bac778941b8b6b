// The public side over real HTTP: raw endpoint headers and caching, the passcode gate's cookies,
// PUT visibility and view counts. Runs on SQLite and PostgreSQL.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFENSIVE_BLOCK } from "@/lib/html/inject";
import { freePort, startApp, type TestApp } from "../helpers/app";
import { createTestClock, MINUTE_MS } from "../helpers/clock";

let app: TestApp;
let token: string;
let origin: string;
let contentOrigin: string;
const clock = createTestClock();

beforeAll(async () => {
  const port = await freePort();
  // Drops on another origin, as a usercontent domain would be. The app keeps 127.0.0.1, the host
  // `npm start`'s page cache renders from, so that its pages are cached as behind a real domain.
  contentOrigin = `http://localhost:${port}`;
  app = await startApp({ env: { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, CONTENT_ORIGIN: contentOrigin, HTMLDROP_TEST_CLOCK_FILE: clock.file } });
  origin = app.baseUrl;
  token = await app.createToken("serving-alice");
});
afterAll(async () => app?.stop());

const SANDBOX = "sandbox allow-scripts allow-forms allow-popups allow-modals";
const STYLE = "html,body{max-width:100vw;overflow-x:clip}img,svg,video,iframe{max-width:100%}pre,table{max-width:100%}";
// The spec's style element first, word for word, then what keeps wide content reachable.
const BLOCK = DEFENSIVE_BLOCK;
expect(BLOCK.startsWith(`<style data-htmldrop>${STYLE}</style>`)).toBe(true);

async function createDrop(body: Record<string, unknown>) {
  const res = await app.api("/api/drops", { method: "POST", token, body: { title: "A drop", html: "<h1>v1</h1>", ...body } });
  expect(res.status).toBe(201);
  return res.body as { slug: string; raw_url: string; url: string };
}

function get(path: string, headers: Record<string, string> = {}, method = "GET") {
  return fetch(`${origin}${path}`, { method, headers, redirect: "manual" });
}

async function unlock(slug: string, passcode: string, v?: string, fields: Record<string, string> = {}) {
  const form = new URLSearchParams({ passcode, ...(v ? { v } : {}), ...fields });
  return fetch(`${origin}/p/${slug}/unlock`, { method: "POST", body: form, redirect: "manual" });
}

function cookieFrom(response: Response): string {
  const setCookie = response.headers.get("set-cookie")!;
  return setCookie.split(";")[0]!;
}

describe("raw endpoint", () => {
  it("serves the upload with the defensive block, the sandbox and a strong ETag", async () => {
    const drop = await createDrop({ html: "<!DOCTYPE html><html><head><title>x</title></head><body><p>hello</p></body></html>" });
    expect(drop.raw_url).toBe(`${contentOrigin}/p/${drop.slug}/raw`);
    const res = await get(`/p/${drop.slug}/raw`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-security-policy")).toBe(SANDBOX);
    expect(res.headers.get("content-security-policy")).not.toContain("allow-same-origin");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-frame-options")).toBeNull();
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const body = await res.text();
    expect(body).toBe(
      `<!DOCTYPE html><html><head><title>x</title><meta name="viewport" content="width=device-width, initial-scale=1">${BLOCK}</head><body><p>hello</p></body></html>`,
    );

    const again = await get(`/p/${drop.slug}/raw`, { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect(await again.text()).toBe("");
    expect((await get(`/p/${drop.slug}/raw`, { "if-none-match": '"something-else"' })).status).toBe(200);

    expect((await get(`/p/${drop.slug}/raw`, {}, "HEAD")).status).toBe(200);
    expect((await get(`/p/${drop.slug}/raw`, {}, "POST")).status).toBe(405);
  });

  it("plans a blob stored before injection plans existed on its first serve, once", async () => {
    const source = "<html><head><title>old</title></head><body><p>from before</p></body></html>";
    const drop = await createDrop({ html: source });
    const sha = createHash("sha256").update(source).digest("hex");
    const planned = `SELECT "injectOffset" AS "offset", "injectViewport" AS "viewport" FROM "Blob" WHERE "sha256" = '${sha}'`;
    const [atWrite] = await app.sql<{ offset: number; viewport: unknown }>(planned);
    expect(atWrite!.offset).toBe(source.indexOf("</head>"));
    await app.sql(`UPDATE "Blob" SET "injectOffset" = NULL, "injectViewport" = NULL WHERE "sha256" = '${sha}'`);

    const res = await get(`/p/${drop.slug}/raw`);
    expect(await res.text()).toBe(source.replace("</head>", `<meta name="viewport" content="width=device-width, initial-scale=1">${BLOCK}</head>`));
    const [afterServe] = await app.sql<{ offset: number; viewport: unknown }>(planned);
    expect(afterServe!.offset).toBe(atWrite!.offset);
    expect(Boolean(afterServe!.viewport)).toBe(true);
  });

  it("plans again a blob planned before layout widths existed, and keeps the new plan", async () => {
    const source = "<html><head><title>legacy</title><style>body{width:1200px}</style></head><body><p>three columns</p></body></html>";
    const drop = await createDrop({ html: source });
    const sha = createHash("sha256").update(source).digest("hex");
    const planned = `SELECT "injectLayoutWidth" AS "width", "injectPlanVersion" AS "version" FROM "Blob" WHERE "sha256" = '${sha}'`;
    expect((await app.sql<{ width: number; version: number }>(planned))[0]).toEqual({ width: 1200, version: 2 });
    // As a blob stored by the previous release was: a plan, but no layout width and no planner version.
    await app.sql(`UPDATE "Blob" SET "injectLayoutWidth" = NULL, "injectPlanVersion" = NULL WHERE "sha256" = '${sha}'`);

    const served = await (await get(`/p/${drop.slug}/raw?v=1`)).text();
    expect(served).toContain(`<meta name="viewport" content="width=1200">${BLOCK}<style data-htmldrop-layout>`);
    expect(served).not.toContain("device-width");
    expect((await app.sql<{ width: number; version: number }>(planned))[0]).toEqual({ width: 1200, version: 2 });
  });

  it("sets cache headers per case: latest, pinned, locked", async () => {
    const open = await createDrop({});
    const latest = await get(`/p/${open.slug}/raw`);
    expect(latest.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=10, stale-while-revalidate=60");
    const pinned = await get(`/p/${open.slug}/raw?v=1`);
    // Never immutable: a passcode set later or a deleted version must leave shared caches within minutes.
    expect(pinned.headers.get("cache-control")).toBe("public, max-age=300, s-maxage=60, stale-while-revalidate=60");
    expect(pinned.headers.get("etag")).toBe(latest.headers.get("etag"));

    const locked = await createDrop({ passcode: "sesame" });
    const gated = await get(`/p/${locked.slug}/raw?v=1`);
    expect(gated.status).toBe(403);
    expect(gated.headers.get("cache-control")).toBe("private, no-store");
    expect(await gated.text()).not.toContain("v1</h1>");
  });

  it("answers 404 for a missing drop, a bad slug and an unknown or malformed version", async () => {
    const drop = await createDrop({});
    for (const path of ["/p/nosuchdrop123/raw", "/p/BAD!/raw", `/p/${drop.slug}/raw?v=9`, `/p/${drop.slug}/raw?v=abc`, `/p/${drop.slug}/raw?v=0`]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-security-policy")).toBe(SANDBOX);
    }
    for (const path of ["/p/nosuchdrop123", "/p/BAD!", `/p/${drop.slug}?v=9`, `/p/${drop.slug}?v=abc`]) {
      expect((await get(path)).status, path).toBe(404);
    }
  });

  it("shows a PUT on the very next request and keeps old versions pinned", async () => {
    const drop = await createDrop({});
    const before = await get(`/p/${drop.slug}/raw`);
    expect(await before.text()).toContain("<h1>v1</h1>");
    const put = await app.api(`/api/drops/${drop.slug}`, { method: "PUT", token, body: { html: "<h1>v2</h1>" } });
    expect(put.status).toBe(200);
    const after = await get(`/p/${drop.slug}/raw`);
    expect(await after.text()).toContain("<h1>v2</h1>");
    expect(after.headers.get("etag")).not.toBe(before.headers.get("etag"));
    expect(await (await get(`/p/${drop.slug}/raw?v=1`)).text()).toContain("<h1>v1</h1>");

    const viewer = await (await get(`/p/${drop.slug}`)).text();
    expect(viewer).toContain(`src="${contentOrigin}/p/${drop.slug}/raw?v=2"`);

    expect((await app.api(`/api/drops/${drop.slug}`, { method: "DELETE", token })).status).toBe(204);
    expect((await get(`/p/${drop.slug}/raw?v=1`)).status).toBe(404);
  });

  // Concurrent lookups may share database queries (PostgreSQL): each must still get its own answer.
  it("answers a burst of concurrent requests for many drops and versions each correctly", async () => {
    const drops = await Promise.all(["a", "b", "c"].map((name) => createDrop({ html: `<h1>${name}1</h1>` })));
    for (const [index, drop] of drops.entries()) {
      await app.api(`/api/drops/${drop.slug}`, { method: "PUT", token, body: { html: `<h1>${"abc"[index]}2</h1>` } });
    }
    const locked = await createDrop({ passcode: "sesame", html: "<h1>secret</h1>" });
    const cases = drops.flatMap((drop, index) => [
      { path: `/p/${drop.slug}/raw`, status: 200, body: `<h1>${"abc"[index]}2</h1>` },
      { path: `/p/${drop.slug}/raw?v=1`, status: 200, body: `<h1>${"abc"[index]}1</h1>` },
      { path: `/p/${drop.slug}/raw?v=3`, status: 404, body: "Not found" },
    ]);
    cases.push({ path: `/p/${locked.slug}/raw`, status: 403, body: "" }, { path: "/p/nosuchdrop123/raw", status: 404, body: "Not found" });
    const burst = Array.from({ length: 8 }, () => cases).flat();
    const responses = await Promise.all(burst.map(async ({ path }) => ({ path, res: await get(path) })));
    for (const [index, { path, res }] of responses.entries()) {
      expect(res.status, path).toBe(burst[index]!.status);
      const body = await res.text();
      expect(body, path).toContain(burst[index]!.body);
      expect(body, path).not.toContain("secret");
    }

    // A PUT that returned is seen by every request sent after it, even amid a burst of lookups.
    const [drop] = drops;
    const background = Array.from({ length: 40 }, () => get(`/p/${drop!.slug}/raw`));
    expect((await app.api(`/api/drops/${drop!.slug}`, { method: "PUT", token, body: { html: "<h1>a3</h1>" } })).status).toBe(200);
    const afterPut = await Promise.all(Array.from({ length: 20 }, () => get(`/p/${drop!.slug}/raw`).then((res) => res.text())));
    for (const body of afterPut) expect(body).toContain("<h1>a3</h1>");
    await Promise.all(background);
  });
});

describe("viewer page", () => {
  it("shows title, description, versions and escaped context, with security headers", async () => {
    const drop = await createDrop({ title: "Report <Q3>", description: "All numbers", context: "why: <script>alert(1)</script>" });
    const res = await get(`/p/${drop.slug}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Report &lt;Q3&gt;");
    expect(html).toContain("All numbers");
    expect(html).toContain("why: &lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toMatch(/<iframe[^>]*sandbox="allow-scripts allow-forms allow-popups allow-modals"/);
    expect(html).not.toContain("allow-same-origin");
    expect(html).toContain('property="og:title" content="Report &lt;Q3&gt;"');
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain(`frame-src 'self' ${contentOrigin}`);
    expect(csp).not.toContain("form-action");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  });

  it("counts a shown page's beacon, once per client, not page renders, raw hits or gate views", async () => {
    const drop = await createDrop({});
    const beacon = (slug: string) => fetch(`${origin}/p/${slug}/view`, { method: "POST", headers: { "sec-fetch-site": "same-origin" } });
    for (let i = 0; i < 3; i++) {
      const page = await get(`/p/${drop.slug}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(`navigator.sendBeacon("/p/${drop.slug}/view?v=1")`);
      expect((await beacon(drop.slug)).status).toBe(204);
    }
    await get(`/p/${drop.slug}/raw`);
    const locked = await createDrop({ passcode: "sesame" });
    const gate = await (await get(`/p/${locked.slug}`)).text();
    expect(gate).not.toContain("sendBeacon");
    expect((await beacon(locked.slug)).status).toBe(403);
    let count = -1;
    for (let attempt = 0; attempt < 50 && count !== 1; attempt++) {
      count = (await app.api(`/api/drops/${drop.slug}`, { token })).body.view_count;
      if (count !== 1) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(count).toBe(1);
    expect((await app.api(`/api/drops/${locked.slug}`, { token })).body.view_count).toBe(0);
  });
});

describe("passcode gate", () => {
  it("shows only a generic gate and serves nothing locked without an unlock", async () => {
    const drop = await createDrop({ title: "Secret plans", description: "Top secret", passcode: "sesame", context: "hidden context" });
    const res = await get(`/p/${drop.slug}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("no-store");
    const html = await res.text();
    expect(html).toContain("This drop is locked");
    for (const leak of ["Secret plans", "Top secret", "hidden context", "/raw", "og:title", "<iframe"]) expect(html).not.toContain(leak);
    expect((await get(`/p/${drop.slug}/raw`)).status).toBe(403);
  });

  it("returns a gate on the compare page to the versions it compared, with or without the passcode right", async () => {
    const drop = await createDrop({ title: "Secret plans", passcode: "sesame" });
    const gate = await (await get(`/p/${drop.slug}/compare?from=1&to=1`)).text();
    for (const field of ['name="page" value="compare"', 'name="from" value="1"', 'name="to" value="1"']) expect(gate).toContain(field);
    const compare = { page: "compare", from: "1", to: "1" };
    expect((await unlock(drop.slug, "nope", undefined, compare)).headers.get("location")).toBe(`/p/${drop.slug}/compare?from=1&to=1&error=wrong`);
    const right = await unlock(drop.slug, "sesame", undefined, compare);
    expect(right.headers.get("location")).toBe(`/p/${drop.slug}/compare?from=1&to=1`);
    expect((await get(`/p/${drop.slug}/compare?from=1&to=1`, { cookie: cookieFrom(right) })).status).toBe(200);
    // Whatever else a hand-made post names, it lands under this drop.
    const forged = await unlock(drop.slug, "sesame", undefined, { page: "//evil.example", from: "../x", to: "1" });
    expect(forged.headers.get("location")).toBe(`/p/${drop.slug}`);
  });

  it("unlocks with the right passcode via a signed, scoped cookie that a passcode change voids", async () => {
    const drop = await createDrop({ title: "Secret plans", passcode: "sesame" });

    const wrong = await unlock(drop.slug, "nope");
    expect(wrong.status).toBe(303);
    expect(wrong.headers.get("location")).toBe(`/p/${drop.slug}?error=wrong`);
    expect(wrong.headers.get("set-cookie")).toBeNull();
    expect(await (await get(`/p/${drop.slug}?error=wrong`)).text()).toContain("That passcode is not right");

    const right = await unlock(drop.slug, "sesame", "1");
    expect(right.status).toBe(303);
    expect(right.headers.get("location")).toBe(`/p/${drop.slug}?v=1`);
    const setCookie = right.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/^hd_unlock=\d+\.[A-Za-z0-9_-]{43}; /);
    expect(setCookie).toContain(`Path=/p/${drop.slug}`);
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Lax");
    expect(setCookie).not.toContain("sesame");
    const cookie = cookieFrom(right);

    const viewer = await get(`/p/${drop.slug}`, { cookie });
    const html = await viewer.text();
    expect(html).toContain("Secret plans");
    expect(html).not.toContain("og:title");
    const frameSrc = /<iframe[^>]*src="([^"]+)"/.exec(html)![1]!.replaceAll("&amp;", "&");
    expect(frameSrc).toMatch(new RegExp(`^${contentOrigin}/p/${drop.slug}/raw\\?v=1&unlock=`));

    const withCookie = await get(`/p/${drop.slug}/raw`, { cookie });
    expect(withCookie.status).toBe(200);
    expect(withCookie.headers.get("cache-control")).toBe("private, no-store");
    expect(await withCookie.text()).toContain("<h1>v1</h1>");
    // The iframe's token works without any cookie (CONTENT_ORIGIN never sees the app's cookies).
    expect((await fetch(frameSrc)).status).toBe(200);

    // Tampering with the cookie or the token fails.
    const flipped = (text: string, index: number, bit: number) => {
      const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
      const at = index < 0 ? text.length + index : index;
      return text.slice(0, at) + alphabet[alphabet.indexOf(text[at]!) ^ bit] + text.slice(at + 1);
    };
    expect((await get(`/p/${drop.slug}/raw`, { cookie: flipped(cookie, -10, 32) })).status).toBe(403);
    // The last character's lowest bits are padding that base64url decoding drops: the same bytes, another spelling.
    expect((await get(`/p/${drop.slug}/raw`, { cookie: flipped(cookie, -1, 1) })).status).toBe(403);
    expect((await fetch(frameSrc.replace(/unlock=\d+/, "unlock=99999999999999"))).status).toBe(403);
    // Another drop does not accept this drop's cookie.
    const other = await createDrop({ passcode: "sesame" });
    expect((await get(`/p/${other.slug}/raw`, { cookie })).status).toBe(403);

    // Changing the passcode voids the unlock, even back to the same passcode (new hash).
    expect((await app.api(`/api/drops/${drop.slug}/passcode`, { method: "POST", token, body: { passcode: "sesame" } })).status).toBe(200);
    expect(await (await get(`/p/${drop.slug}`, { cookie })).text()).toContain("This drop is locked");
    expect((await get(`/p/${drop.slug}/raw`, { cookie })).status).toBe(403);
    expect((await fetch(frameSrc)).status).toBe(403);

    // Removing it opens the drop to everyone.
    expect((await app.api(`/api/drops/${drop.slug}/passcode`, { method: "POST", token, body: { passcode: "" } })).status).toBe(200);
    expect((await get(`/p/${drop.slug}/raw`)).headers.get("cache-control")).toBe("public, max-age=0, s-maxage=10, stale-while-revalidate=60");
  });

  it("locks again for this browser by clearing the cookie", async () => {
    const drop = await createDrop({ passcode: "sesame" });
    const res = await fetch(`${origin}/p/${drop.slug}/lock`, { method: "POST", redirect: "manual" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/p/${drop.slug}`);
    const setCookie = res.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/^hd_unlock=; Max-Age=0; /);
    expect(setCookie).toContain(`Path=/p/${drop.slug}`);

    // Another site's page cannot lock it for the visitor; the viewer's own form can.
    const forged = await fetch(`${origin}/p/${drop.slug}/lock`, { method: "POST", redirect: "manual", headers: { origin: "https://evil.example" } });
    expect(forged.status).toBe(403);
    expect(forged.headers.get("set-cookie")).toBeNull();
    expect((await forged.json()).error.code).toBe("forbidden");
    const own = await fetch(`${origin}/p/${drop.slug}/lock`, { method: "POST", redirect: "manual", headers: { origin } });
    expect(own.status).toBe(303);
  });

  it("refuses a passcode posted from another site's page; the viewer's own form works", async () => {
    const drop = await createDrop({ passcode: "sesame" });
    const post = (headers: Record<string, string>) => {
      const form = new FormData();
      form.set("passcode", "sesame");
      return fetch(`${origin}/p/${drop.slug}/unlock`, { method: "POST", body: form, redirect: "manual", headers });
    };
    // A sandboxed drop's own form posts with Origin: null.
    for (const foreign of ["https://evil.example", contentOrigin, "null"]) {
      const forged = await post({ origin: foreign });
      expect(forged.status).toBe(403);
      expect(forged.headers.get("set-cookie")).toBeNull();
      expect(forged.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(await forged.json()).toEqual({ error: { code: "forbidden", message: expect.stringContaining("another site") } });
    }
    const own = await post({ origin });
    expect(own.status).toBe(303);
    expect(own.headers.get("location")).toBe(`/p/${drop.slug}`);
    expect(own.headers.get("set-cookie")).toMatch(/^hd_unlock=/);
  });

  it("rate limits passcode attempts per client and drop, before verifying", async () => {
    // Move the server's clock to the start of a 15-minute window, so the fixed window cannot roll over mid-test.
    clock.startWindow(15 * MINUTE_MS);
    const drop = await createDrop({ passcode: "sesame" });
    for (let i = 0; i < 10; i++) expect((await unlock(drop.slug, `wrong${i}`)).headers.get("location")).toBe(`/p/${drop.slug}?error=wrong`);
    const limited = await unlock(drop.slug, "sesame");
    expect(limited.headers.get("location")).toBe(`/p/${drop.slug}?error=limited`);
    expect(limited.headers.get("set-cookie")).toBeNull();
    expect(await (await get(`/p/${drop.slug}?error=limited`)).text()).toContain("Too many attempts");
    // Another drop has its own budget.
    const other = await createDrop({ passcode: "sesame" });
    expect((await unlock(other.slug, "sesame")).headers.get("set-cookie")).toMatch(/^hd_unlock=/);
  });
});

describe("a separate CONTENT_ORIGIN", () => {
  it("serves raw drops and nothing of the app", async () => {
    const drop = await createDrop({});
    expect((await fetch(`${contentOrigin}/p/${drop.slug}/raw`)).status).toBe(200);
    const pages = ["/", "/dashboard", `/p/${drop.slug}`, "/verify", "/api/auth/signin", "/signin", "/signout", "/docs", "/llms.txt", "/openapi.json", "/.well-known/api-catalog"];
    // Requested on the app's host first, so that `npm start`'s page cache holds them.
    for (const path of pages) await (await get(path)).arrayBuffer();
    for (const path of pages) {
      const res = await fetch(`${contentOrigin}${path}`, { redirect: "manual" });
      expect(res.status, path).toBe(404);
      expect(res.headers.get("x-frame-options"), path).toBe("DENY");
    }
    // The app's own host still serves them.
    expect((await get(`/p/${drop.slug}`)).status).toBe(200);
    // Nor does a drop's own script on that origin count views (Next answers 404 there too).
    const beacon = await fetch(`${contentOrigin}/p/${drop.slug}/view`, { method: "POST", headers: { "sec-fetch-site": "same-origin" } });
    expect(beacon.status).toBe(404);
  });

  it("sends the app's security headers on next-auth's endpoints and the sign-in pages too", async () => {
    for (const [path, status] of [["/api/auth/signin", 302], ["/signin?error=Cookies", 200], ["/signout", 200], ["/signin/error", 200]] as const) {
      const res = await get(path);
      expect(res.status, path).toBe(status);
      expect(res.headers.get("x-frame-options"), path).toBe("DENY");
      expect(res.headers.get("content-security-policy"), path).toContain("frame-ancestors 'none'");
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
    }
  });
});
