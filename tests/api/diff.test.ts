// GET /api/drops/{slug}/diff and MCP diff_versions: the unified diff of two versions' HTML, the same
// through both doors, with the same refusals as reading a version (another account, bad arguments, a
// missing version), and diff_too_large instead of a long diff.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { applyPatch } from "diff";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app";

const V1 = "<!doctype html>\n<title>Report</title>\n<h1>Draft</h1>\n<p>Numbers</p>\n";
const V2 = "<!doctype html>\n<title>Report</title>\n<h1>Final</h1>\n<p>Numbers</p>\n<p>Signed</p>\n";

let app: TestApp;
let alice: string;
let bob: string;
let slug: string;
let mcp: Client;

beforeAll(async () => {
  app = await startApp();
  [alice, bob] = await Promise.all([app.createToken("diff-alice"), app.createToken("diff-bob")]);
  const created = await app.api("/api/drops", { method: "POST", token: alice, body: { title: "Diffed", html: V1, passcode: "open sesame" } });
  expect(created.status, created.text).toBe(201);
  slug = created.body.slug;
  expect((await app.api(`/api/drops/${slug}`, { method: "PUT", token: alice, body: { html: V2 } })).status).toBe(200);
  const transport = new StreamableHTTPClientTransport(new URL("/mcp", app.baseUrl), { requestInit: { headers: { authorization: `Bearer ${alice}` } } });
  mcp = new Client({ name: "htmldrop-diff-tests", version: "1.0.0" });
  await mcp.connect(transport);
}, 180_000);
afterAll(async () => {
  await mcp?.close();
  await app?.stop();
});

const EXPECTED = "--- v1/index.html\n+++ v2/index.html\n@@ -1,4 +1,5 @@\n <!doctype html>\n <title>Report</title>\n-<h1>Draft</h1>\n+<h1>Final</h1>\n <p>Numbers</p>\n+<p>Signed</p>\n";

async function tool(args: Record<string, unknown>, token?: string): Promise<CallToolResult> {
  if (!token) return (await mcp.callTool({ name: "diff_versions", arguments: args })) as CallToolResult;
  const transport = new StreamableHTTPClientTransport(new URL("/mcp", app.baseUrl), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  const other = new Client({ name: "htmldrop-diff-tests", version: "1.0.0" });
  await other.connect(transport);
  try {
    return (await other.callTool({ name: "diff_versions", arguments: args })) as CallToolResult;
  } finally {
    await other.close();
  }
}

describe("GET /api/drops/{slug}/diff", () => {
  it("answers the unified diff of a locked drop to its owner, as text that applies", async () => {
    const res = await app.api(`/api/drops/${slug}/diff?from=1&to=2`, { token: alice });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.headers.get("cache-control")).toContain("no-store");
    expect(res.text).toBe(EXPECTED);
    expect(applyPatch(V1, res.text)).toBe(V2);
    // Backwards too, and empty for a version against itself.
    expect(applyPatch(V2, (await app.api(`/api/drops/${slug}/diff?from=2&to=1`, { token: alice })).text)).toBe(V1);
    const same = await app.api(`/api/drops/${slug}/diff?from=2&to=2`, { token: alice });
    expect(same.status).toBe(200);
    expect(same.text).toBe("");
  });

  it.each([
    ["from=0&to=2", "from"],
    ["from=1&to=two", "to"],
    ["to=2", "from"],
    ["from=1", "to"],
    ["from=1&from=2&to=2", "from"],
  ])("refuses %s with 400 invalid_arg naming %s", async (query, field) => {
    const res = await app.api(`/api/drops/${slug}/diff?${query}`, { token: alice });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error.code).toBe("invalid_arg");
    expect(res.body.error.details.fields.map((entry: { field: string }) => entry.field)).toContain(field);
  });

  it("answers 404 for a missing version or drop, 401 without a token, 403 for another account's drop", async () => {
    const missing = await app.api(`/api/drops/${slug}/diff?from=1&to=9`, { token: alice });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toEqual({ code: "version_not_found", message: `Drop ${slug} has no version 9.` });
    const noDrop = await app.api("/api/drops/nosuchdrop1/diff?from=1&to=2", { token: alice });
    expect(noDrop.status).toBe(404);
    expect(noDrop.body.error.code).toBe("not_found");
    expect((await app.api(`/api/drops/${slug}/diff?from=1&to=2`)).body.error.code).toBe("token_required");
    const foreign = await app.api(`/api/drops/${slug}/diff?from=1&to=2`, { token: bob });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe("forbidden");
    expect(foreign.text).not.toContain("Draft");
  });

  it("refuses versions that differ too much with 422 diff_too_large, quickly", async () => {
    const lines = (word: string) => Array.from({ length: 2_000 }, (_, index) => `<p>${word} ${index}</p>`).join("\n");
    const created = await app.api("/api/drops", { method: "POST", token: alice, body: { title: "Rewritten", html: lines("old") } });
    const big = created.body.slug;
    expect((await app.api(`/api/drops/${big}`, { method: "PUT", token: alice, body: { html: lines("new") } })).status).toBe(200);
    const started = Date.now();
    const res = await app.api(`/api/drops/${big}/diff?from=1&to=2`, { token: alice });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("diff_too_large");
    expect(res.body.error.details).toEqual({ max_lines: 20_000, max_changed_lines: 400 });
    const viaTool = await tool({ slug: big, from: 1, to: 2 });
    expect(viaTool.isError).toBe(true);
    expect((viaTool.structuredContent as any).error.code).toBe("diff_too_large");
  });
});

describe("MCP diff_versions", () => {
  it("returns the same diff as REST with line counts", async () => {
    const result = await tool({ slug, from: 1, to: 2 });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ slug, from: 1, to: 2, added_lines: 2, removed_lines: 1, diff: EXPECTED });
  });

  it("refuses bad arguments, a missing version and another account's drop with the REST errors", async () => {
    const bad = await tool({ slug, from: 0, to: 2 });
    expect(bad.isError).toBe(true);
    expect((bad.structuredContent as any).error.code).toBe("invalid_arg");
    const missing = await tool({ slug, from: 1, to: 9 });
    expect((missing.structuredContent as any).error.code).toBe("version_not_found");
    const foreign = await tool({ slug, from: 1, to: 2 }, bob);
    expect(foreign.isError).toBe(true);
    expect((foreign.structuredContent as any).error.code).toBe("forbidden");
  });

  it("is listed as read-only with its arguments", async () => {
    const { tools } = await mcp.listTools();
    const diff = tools.find((entry) => entry.name === "diff_versions")!;
    expect(diff.annotations?.readOnlyHint).toBe(true);
    expect(diff.inputSchema.required?.sort()).toEqual(["from", "slug", "to"]);
  });
});

describe("the viewer's missing versions and compare page, as served (page cache, or Next's shared page on Vercel)", () => {
  async function page(path: string) {
    const res = await fetch(`${app.baseUrl}${path}`, { redirect: "manual" });
    return { status: res.status, html: await res.text() };
  }

  it("answers a missing version of a public drop with a 404 that links to the latest, and a missing drop with a plain one", async () => {
    const created = await app.api("/api/drops", { method: "POST", token: alice, body: { title: "Public diffed", html: V1 } });
    const publicSlug = created.body.slug;
    await page(`/p/${publicSlug}?v=1`);
    for (const path of [`/p/${publicSlug}?v=99`, `/p/${publicSlug}/compare?from=1&to=99`]) {
      const missing = await page(path);
      expect(missing.status, path).toBe(404);
      expect(missing.html).toContain("This version does not exist");
      if (path.includes("compare")) {
        // The compare page checks its versions itself and calls notFound(): Next streams that 404 for the
        // browser to draw, so the link is in its payload, escaped.
        expect(missing.html).toContain(`\\"href\\":\\"/p/${publicSlug}\\"`);
      } else {
        // proxy.ts answers a missing viewer version with the missing page, drawn on the server.
        expect(missing.html).toContain(`<a href="/p/${publicSlug}">See the latest version</a>`);
      }
    }
    const noDrop = await page("/p/nosuchdrop77?v=2");
    expect(noDrop.status).toBe(404);
    expect(noDrop.html).toContain("<h1>Drop not found</h1>");
    expect(noDrop.html).not.toContain("This version does not exist");
  });

  it("bounds the compare page whatever the versions hold: long lines are cut, and rows past the cap are counted, not sent", async () => {
    // One 200,000-character line each: the whole of both used to be sent, twice (HTML and payload).
    const long = await app.api("/api/drops", { method: "POST", token: alice, body: { title: "Long lines", html: "x".repeat(200_000) } });
    expect((await app.api(`/api/drops/${long.body.slug}`, { method: "PUT", token: alice, body: { html: "y".repeat(200_000) } })).status).toBe(200);
    // React separates adjacent text with empty comments.
    const cut = await page(`/p/${long.body.slug}/compare?from=1&to=2`).then((res) => ({ ...res, html: res.html.replaceAll("<!-- -->", "") }));
    expect(cut.status).toBe(200);
    expect(cut.html).toContain("1 line added, 1 removed");
    expect(cut.html.match(/199,700 more characters not shown/g)).toHaveLength(2);
    expect(cut.html.length).toBeLessThan(50_000);
    // 150 lines changed 10 lines apart: 150 hunks of 8 rows, of which whole hunks fill 500 rows.
    const source = (changed: boolean) => Array.from({ length: 1_500 }, (_, n) => (changed && n % 10 === 5 ? `changed ${n}` : `line ${n}`)).join("\n");
    const many = await app.api("/api/drops", { method: "POST", token: alice, body: { title: "Many hunks", html: source(false) } });
    expect((await app.api(`/api/drops/${many.body.slug}`, { method: "PUT", token: alice, body: { html: source(true) } })).status).toBe(200);
    const capped = await page(`/p/${many.body.slug}/compare?from=1&to=2`).then((res) => ({ ...res, html: res.html.replaceAll("<!-- -->", "") }));
    expect(capped.html).toContain("150 lines added, 150 removed");
    // 496 rows, and the head row.
    expect(capped.html.match(/<tr[ >]/g)).toHaveLength(497);
    expect(capped.html).toContain("704 more lines of the diff are not shown here");
  });

  it("marks the one changed word of a long line with <del> and <ins>, and counts the change in the rendered view", async () => {
    const report = (figure: string) => `<!doctype html>\n<h1>Quarter</h1>\n<p>Revenue came to ${figure} thousand this quarter, ${"after the sale of the old warehouse and before the new contracts. ".repeat(4)}</p>\n`;
    const created = await app.api("/api/drops", { method: "POST", token: alice, body: { title: "One figure", html: report("1200") } });
    expect((await app.api(`/api/drops/${created.body.slug}`, { method: "PUT", token: alice, body: { html: report("1300") } })).status).toBe(200);
    const compared = await page(`/p/${created.body.slug}/compare?from=1&to=2`).then((res) => ({ ...res, html: res.html.replaceAll("<!-- -->", "") }));
    expect(compared.status).toBe(200);
    expect(compared.html.match(/<del>[^<]*<\/del>/g)).toEqual(["<del>1200</del>"]);
    expect(compared.html.match(/<ins>[^<]*<\/ins>/g)).toEqual(["<ins>1300</ins>"]);
    expect(compared.html).toContain("The text changed in 1 place.");
  });

  it("shows a locked drop's gate for any version and on its compare page, never its title or source", async () => {
    for (const path of [`/p/${slug}?v=99`, `/p/${slug}/compare?from=1&to=2`, `/p/${slug}/compare?from=1&to=99`]) {
      const gate = await page(path);
      expect(gate.status, path).toBe(200);
      expect(gate.html).toContain("This drop is locked");
      expect(gate.html).not.toContain("Diffed");
      expect(gate.html).not.toContain("Draft");
    }
  });
});
