// Views over time: what the viewer page's beacon counts per drop, version and UTC day, and what
// GET /api/drops/{slug}/stats and the drop_stats tool read back.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app";
import { createTestClock, DAY_MS, MINUTE_MS, type TestClock } from "../helpers/clock";
import { signInBrowserless, tokenThroughDeviceFlow, type Browserless } from "../helpers/device-flow";
import { PEER_ADDRESS_HEADER } from "../helpers/vercel-edge";

let app: TestApp;
let clock: TestClock;
let owner: Browserless;
let token: string;

beforeAll(async () => {
  clock = createTestClock();
  // Behind a declared proxy, so that beacons can come from many clients (each counts once per window).
  app = await startApp({ env: { HTMLDROP_TEST_CLOCK_FILE: clock.file, TRUST_PROXY: "true" } });
  // A person signed in to the dashboard, and their agent's token: the views of the first must not count.
  owner = await signInBrowserless(app, "stats-owner");
  token = await tokenThroughDeviceFlow(app, owner);
});
afterAll(async () => app?.stop());

const utcDate = (at: number) => new Date(at).toISOString().slice(0, 10);

async function createDrop(body: Record<string, unknown> = {}): Promise<{ slug: string }> {
  const created = await app.api("/api/drops", { method: "POST", token, body: { title: "Counted", html: "<p>v1</p>", ...body } });
  expect(created.status).toBe(201);
  return created.body;
}

let clients = 0;
/** Another client's address, as a proxy (or Vercel's edge) reports it. */
const newClient = () => `198.51.100.${++clients % 250}`;

/** What the viewer page sends once shown, from `client`; `query` names the version (`?v=N`). */
function beacon(slug: string, query = "", headers: Record<string, string> = {}, client = newClient()): Promise<Response> {
  return fetch(`${app.baseUrl}/p/${slug}/view${query}`, {
    method: "POST",
    // Behind `npm start` a trusted proxy appended the address; as Vercel serves, the edge sees it.
    headers: { "sec-fetch-site": "same-origin", "x-forwarded-for": client, [PEER_ADDRESS_HEADER]: client, ...headers },
  });
}

async function stats(slug: string, days?: number) {
  const answer = await app.api(`/api/drops/${slug}/stats${days === undefined ? "" : `?days=${days}`}`, { token });
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

/** Views reach the counters in a batch just after each beacon: wait until `total` have arrived. */
async function statsOnceCounted(slug: string, total: number, days?: number) {
  let latest = await stats(slug, days);
  for (let attempt = 0; attempt < 50 && latest.total_views < total; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    latest = await stats(slug, days);
  }
  expect(latest.total_views).toBe(total);
  return latest;
}

describe("counting", () => {
  it("puts N views in today's row and in the version shown", async () => {
    clock.moveTo(Date.now());
    const drop = await createDrop();
    for (let i = 0; i < 5; i++) expect((await beacon(drop.slug, "?v=1")).status).toBe(204);
    await app.api(`/api/drops/${drop.slug}`, { method: "PUT", token, body: { html: "<p>v2</p>" } });
    // Without ?v= the beacon counts the latest version.
    for (let i = 0; i < 2; i++) expect((await beacon(drop.slug)).status).toBe(204);
    expect((await beacon(drop.slug, "?v=2")).status).toBe(204);

    const counted = await statsOnceCounted(drop.slug, 8);
    const today = utcDate(Date.now());
    expect(counted).toMatchObject({ slug: drop.slug, days: 30, to: today, from: utcDate(Date.now() - 29 * DAY_MS), total_views: 8, view_count: 8 });
    expect(counted.daily).toHaveLength(30);
    expect(counted.daily.at(-1)).toEqual({ date: today, views: 8 });
    expect(counted.daily.slice(0, -1).every((day: { views: number }) => day.views === 0)).toBe(true);
    expect(counted.versions).toEqual([
      { version: 1, views: 5 },
      { version: 2, views: 3 },
    ]);
    expect((await app.api(`/api/drops/${drop.slug}`, { token })).body.view_count).toBe(8);
  });

  it("counts nothing for bots, prefetches, other sites, unknown versions, the owner or a locked drop's gate", async () => {
    clock.moveTo(Date.now());
    const drop = await createDrop();
    expect((await beacon(drop.slug, "?v=1", { "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" })).status).toBe(204);
    expect((await beacon(drop.slug, "?v=1", { "user-agent": "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)" })).status).toBe(204);
    expect((await beacon(drop.slug, "?v=1", { "sec-purpose": "prefetch;prerender" })).status).toBe(204);
    expect((await beacon(drop.slug, "?v=1", { "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect((await beacon(drop.slug, "?v=7")).status).toBe(404);
    expect((await beacon(drop.slug, "?v=1", { cookie: owner.jar.header() })).status).toBe(204);

    const locked = await createDrop({ passcode: "sesame" });
    expect((await beacon(locked.slug, "?v=1")).status).toBe(403);
    const unlocked = await fetch(`${app.baseUrl}/p/${locked.slug}/unlock`, { method: "POST", body: new URLSearchParams({ passcode: "sesame" }), redirect: "manual" });
    const unlockCookie = unlocked.headers.get("set-cookie")!.split(";")[0]!;
    expect((await beacon(locked.slug, "?v=1", { cookie: unlockCookie })).status).toBe(204);

    // Another signed-in person is a reader like any other: their view is the one that counts.
    const reader = await signInBrowserless(app, "stats-reader");
    expect((await beacon(drop.slug, "?v=1", { cookie: reader.jar.header() })).status).toBe(204);
    const counted = await statsOnceCounted(drop.slug, 1);
    expect(counted.versions).toEqual([{ version: 1, views: 1 }]);
    expect((await statsOnceCounted(locked.slug, 1)).view_count).toBe(1);
    expect((await app.api(`/api/drops/${drop.slug}`, { token })).body.view_count).toBe(1);
  });

  it("counts a client once per drop and version in each 30-minute window, however often it reports", async () => {
    clock.startWindow(30 * MINUTE_MS);
    const drop = await createDrop();
    await app.api(`/api/drops/${drop.slug}`, { method: "PUT", token, body: { html: "<p>v2</p>" } });
    const client = "203.0.113.77";
    const answers = await Promise.all(Array.from({ length: 40 }, () => beacon(drop.slug, "?v=1", {}, client)));
    expect(answers.every((answer) => answer.status === 204)).toBe(true);
    // Another version, and another client, each count once more.
    for (let i = 0; i < 5; i++) expect((await beacon(drop.slug, "?v=2", {}, client)).status).toBe(204);
    for (let i = 0; i < 5; i++) expect((await beacon(drop.slug, "?v=1", {}, "203.0.113.78")).status).toBe(204);
    const counted = await statsOnceCounted(drop.slug, 3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await stats(drop.slug)).total_views).toBe(3);
    expect(counted.versions).toEqual([
      { version: 1, views: 2 },
      { version: 2, views: 1 },
    ]);
    clock.advance(30 * MINUTE_MS);
    expect((await beacon(drop.slug, "?v=1", {}, client)).status).toBe(204);
    await statsOnceCounted(drop.slug, 4);
    clock.moveTo(Date.now());
  });

  it("puts views on either side of midnight UTC on their own days", async () => {
    const drop = await createDrop();
    const midnight = Math.ceil(Date.now() / DAY_MS) * DAY_MS + DAY_MS;
    clock.moveTo(midnight - 1500);
    expect((await beacon(drop.slug, "?v=1")).status).toBe(204);
    await statsOnceCounted(drop.slug, 1, 2);
    clock.moveTo(midnight + 500);
    expect((await beacon(drop.slug, "?v=1")).status).toBe(204);
    expect((await beacon(drop.slug, "?v=1")).status).toBe(204);
    const counted = await statsOnceCounted(drop.slug, 3, 2);
    expect(counted.daily).toEqual([
      { date: utcDate(midnight - 1500), views: 1 },
      { date: utcDate(midnight), views: 2 },
    ]);
    // A day later, one day's window holds only that day.
    clock.moveTo(midnight + DAY_MS);
    expect((await stats(drop.slug, 1)).daily).toEqual([{ date: utcDate(midnight + DAY_MS), views: 0 }]);
    expect((await stats(drop.slug, 3)).total_views).toBe(3);
    clock.moveTo(Date.now());
  });
});

describe("the stats endpoint", () => {
  it.each(["0", "366", "abc", "1.5", "-3", ""])("refuses days=%s with 400 invalid_arg", async (days) => {
    const drop = await createDrop();
    const answer = await app.api(`/api/drops/${drop.slug}/stats?days=${days}`, { token });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: { code: "invalid_arg", message: expect.any(String), details: expect.anything() } });
    expect(answer.body.error.message).toContain("days");
  });

  it("takes 1 and 365, and refuses other parameters", async () => {
    const drop = await createDrop();
    expect((await stats(drop.slug, 1)).daily).toHaveLength(1);
    expect((await stats(drop.slug, 365)).daily).toHaveLength(365);
    expect((await app.api(`/api/drops/${drop.slug}/stats?since=1`, { token })).status).toBe(400);
  });

  it("shows a drop's stats to its owner only", async () => {
    const drop = await createDrop();
    expect((await app.api(`/api/drops/${drop.slug}/stats`)).status).toBe(401);
    const other = await app.createToken("stats-stranger");
    const refused = await app.api(`/api/drops/${drop.slug}/stats`, { token: other });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("forbidden");
    expect((await app.api("/api/drops/nosuchdrop1/stats", { token })).status).toBe(404);
    expect((await app.api(`/api/drops/${drop.slug}/stats`, { method: "POST", token })).status).toBe(405);
  });

  it("answers drop_stats over MCP with the REST result", async () => {
    clock.moveTo(Date.now());
    const drop = await createDrop();
    expect((await beacon(drop.slug, "?v=1")).status).toBe(204);
    const rest = await statsOnceCounted(drop.slug, 1, 7);
    const transport = new StreamableHTTPClientTransport(new URL("/mcp", `http://127.0.0.1:${app.env.PORT}`), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
    const client = new Client({ name: "htmldrop-stats-tests", version: "1.0.0" });
    await client.connect(transport);
    try {
      const tool = (await client.listTools()).tools.find((candidate) => candidate.name === "drop_stats")!;
      expect(tool.annotations).toMatchObject({ readOnlyHint: true });
      const result = (await client.callTool({ name: "drop_stats", arguments: { slug: drop.slug, days: 7 } })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual(rest);
      const refused = (await client.callTool({ name: "drop_stats", arguments: { slug: drop.slug, days: 400 } })) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent).toMatchObject({ error: { code: "invalid_arg" } });
    } finally {
      await client.close();
    }
  });
});
