// The viewer page as Next's own cached page, as on Vercel (no custom server; Next's cache shared by
// every instance there). Served here by `next start` with VERCEL=1: the first request renders, the
// next ones come from Next's cache, and every kind of write to the drop shows on the next request.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app";

let app: TestApp;
let token: string;

beforeAll(async () => {
  app = await startApp({ serverless: true, env: { VERCEL: "1" } });
  token = await app.createToken("shared-viewer");
}, 180_000);
afterAll(async () => {
  await app?.stop();
});

async function view(path: string) {
  const res = await fetch(`${app.baseUrl}${path}`, { redirect: "manual" });
  return { status: res.status, nextCache: res.headers.get("x-nextjs-cache"), cacheControl: res.headers.get("cache-control") ?? "", html: await res.text() };
}

async function write(path: string, method: string, body?: unknown): Promise<void> {
  const res = await app.api(path, { method, token, body });
  expect(res.status, res.text).toBeLessThan(300);
}

async function createDrop(title: string): Promise<string> {
  const res = await app.api("/api/drops", { method: "POST", token, body: { title, html: "<h1>v1</h1>" } });
  expect(res.status, res.text).toBe(201);
  return (res.body as { slug: string }).slug;
}

describe("a public drop's viewer on the serverless path", () => {
  it("is rendered once, then served from Next's cache with a shared-cache policy", async () => {
    const slug = await createDrop("Shared once");
    const first = await view(`/p/${slug}`);
    const second = await view(`/p/${slug}`);
    expect(first.status).toBe(200);
    expect(first.html).toContain("Shared once");
    expect(second.nextCache).toBe("HIT");
    expect(second.cacheControl).toMatch(/s-maxage=/);
    expect(second.cacheControl).not.toMatch(/private|no-store/);
    // The beacon still counts each view, since the server renders none of them.
    expect(second.html).toContain(`/p/${slug}/view`);
  });

  it("shows every kind of write on the next request", async () => {
    const slug = await createDrop("Before");
    await view(`/p/${slug}`);
    expect((await view(`/p/${slug}`)).nextCache).toBe("HIT");

    await write(`/api/drops/${slug}`, "PUT", { html: "<h1>v2</h1>", title: "After PUT", context: "Fixed the totals in the second table" });
    const afterPut = (await view(`/p/${slug}`)).html;
    expect(afterPut).toContain("After PUT");
    // The picker tells versions apart by time and the start of their context (read as a prefix in SQL).
    expect(afterPut).toMatch(/>v2 latest · \d{4}-\d\d-\d\d \d\d:\d\d UTC · Fixed the totals in the second table</);
    expect((await view(`/p/${slug}?v=1`)).html).toContain("After PUT");

    await write(`/api/drops/${slug}`, "PATCH", { title: "After PATCH" });
    expect((await view(`/p/${slug}`)).html).toContain("After PATCH");

    await write(`/api/drops/${slug}/v/2`, "DELETE");
    expect((await view(`/p/${slug}?v=2`)).status).toBe(404);
    const afterDelete = (await view(`/p/${slug}`)).html;
    expect(afterDelete).toContain('<option value="1" selected="">');
    expect(afterDelete).not.toContain('<option value="2"');

    await write(`/api/drops/${slug}/passcode`, "POST", { passcode: "open sesame" });
    const gate = await view(`/p/${slug}`);
    expect(gate.html).toContain("This drop is locked");
    expect(gate.html).not.toContain("After PATCH");
    expect(gate.nextCache).toBeNull();
    expect(gate.cacheControl).toMatch(/no-store/);

    await write(`/api/drops/${slug}/passcode`, "POST", { passcode: "" });
    const reopened = await view(`/p/${slug}`);
    expect(reopened.html).toContain("After PATCH");
    expect(reopened.html).not.toContain("This drop is locked");

    await write(`/api/drops/${slug}`, "DELETE");
    expect((await view(`/p/${slug}`)).status).toBe(404);
  });

  it("answers the cached page only at the viewer's own URL", async () => {
    const slug = await createDrop("One URL");
    expect((await view(`/p/${slug}/shared/latest`)).status).toBe(404);
  });
});
