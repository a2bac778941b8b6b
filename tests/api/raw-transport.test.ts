// What `npm start` itself does for the raw endpoint, where on Vercel the platform's CDN does it:
// brotli and gzip with an ETag per encoding, and HEAD's Content-Length.
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app";

let app: TestApp;
let token: string;
let origin: string;

beforeAll(async () => {
  app = await startApp();
  origin = app.baseUrl;
  token = await app.createToken("transport");
});
afterAll(async () => app?.stop());

async function createDrop(html: string): Promise<{ slug: string }> {
  const res = await app.api("/api/drops", { method: "POST", token, body: { title: "A drop", html } });
  expect(res.status).toBe(201);
  return res.body as { slug: string };
}

describe("the raw endpoint on npm start", () => {
  it("answers HEAD with the length GET would send", async () => {
    const drop = await createDrop("<p>hello</p>");
    // As sent, uncompressed: every served document carries htmldrop's scripts, enough to be compressed.
    const identity = { "accept-encoding": "identity" };
    const body = await (await fetch(`${origin}/p/${drop.slug}/raw`, { headers: identity })).text();
    const head = await fetch(`${origin}/p/${drop.slug}/raw`, { method: "HEAD", headers: identity });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(Buffer.byteLength(body)));
  });

  it("compresses with brotli or gzip when accepted", async () => {
    const html = `<html><head></head><body>${"<p>compress me</p>".repeat(500)}</body></html>`;
    const drop = await createDrop(html);
    const identity = await (await fetch(`${origin}/p/${drop.slug}/raw`)).text();
    // fetch decodes bodies by itself, so node:http (rawRequest) checks the encoded bytes.
    for (const [encoding, decode] of [
      ["br", brotliDecompressSync],
      ["gzip", gunzipSync],
    ] as const) {
      const res = await rawRequest(`/p/${drop.slug}/raw`, { "accept-encoding": encoding });
      expect(res.headers["content-encoding"]).toBe(encoding);
      expect(res.headers.vary).toBe("Accept-Encoding");
      expect(res.headers.etag).toMatch(encoding === "br" ? /-br"$/ : /-gz"$/);
      expect(decode(res.body).toString("utf8")).toBe(identity);
      const notModified = await rawRequest(`/p/${drop.slug}/raw`, { "accept-encoding": encoding, "if-none-match": res.headers.etag as string });
      expect(notModified.status).toBe(304);
    }
    const plain = await rawRequest(`/p/${drop.slug}/raw`, { "accept-encoding": "identity" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
  });
});

/** A request whose body is not decoded, to check Content-Encoding byte for byte. */
async function rawRequest(path: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  const { request } = await import("node:http");
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}
