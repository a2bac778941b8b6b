// Two instances on one database and one Redis, as behind a load balancer, with writes split across
// them: the per-minute limit admits exactly its count, concurrent PUTs to one drop mint gapless
// unique versions, an Idempotency-Key replays across instances, and every read after a write, on
// either instance, sees it (API, raw latest, viewer), a passcode change included.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app";
import { createTestClock, MINUTE_MS } from "../helpers/clock";

const WRITES_PER_MINUTE = 40;
let one: TestApp;
let two: TestApp;
const clock = createTestClock();

beforeAll(async () => {
  const env = { HTMLDROP_TEST_CLOCK_FILE: clock.file, REDIS_URL: "redis://127.0.0.1:6379", LIMIT_WRITES_PER_MINUTE: String(WRITES_PER_MINUTE), LIMIT_WRITES_PER_DAY: "100000" };
  one = await startApp({ env });
  two = await startApp({ env: { ...env, DATA_DIR: one.env.DATA_DIR!, ...(one.env.DATABASE_URL ? { DATABASE_URL: one.env.DATABASE_URL } : {}) } });
}, 180_000);
afterAll(async () => {
  await two?.stop();
  await one?.stop();
});

const instances = () => [one, two];
const html = (text: string) => `<h1>${text}</h1>`;

async function createDrop(token: string, title: string): Promise<string> {
  const res = await one.api("/api/drops", { method: "POST", token, body: { title, html: html("v1") } });
  expect(res.status, res.text).toBe(201);
  return res.body.slug as string;
}

describe("two instances, one database, one Redis", () => {
  it("admit exactly the per-minute limit from 100 concurrent writes split across them", async () => {
    const token = await one.createToken("multi-limit");
    clock.startWindow(MINUTE_MS);
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, index) => instances()[index % 2]!.api("/api/drops", { method: "POST", token, body: { title: `burst ${index}`, html: html(`burst ${index}`) } })),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(WRITES_PER_MINUTE);
    expect(statuses.filter((status) => status === 429)).toHaveLength(100 - WRITES_PER_MINUTE);
    const listed = await two.api("/api/drops?pageSize=200", { token });
    expect(listed.body.pagination.total_items).toBe(WRITES_PER_MINUTE);
    console.log(`multi-instance: 100 writes sent, ${WRITES_PER_MINUTE} admitted, ${100 - WRITES_PER_MINUTE} refused`);
  }, 120_000);

  it("mint gapless, unique versions from concurrent PUTs to one drop on both", async () => {
    const token = await one.createToken("multi-versions");
    const slug = await createDrop(token, "versions");
    const puts = 36;
    const answers = await Promise.all(
      Array.from({ length: puts }, (_, index) => instances()[index % 2]!.api(`/api/drops/${slug}`, { method: "PUT", token, body: { html: html(`put ${index}`) } })),
    );
    expect(answers.filter((answer) => answer.status !== 200).map((answer) => answer.text)).toEqual([]);
    const minted = answers.map((answer) => answer.body.latest_version as number).sort((a, b) => a - b);
    expect(minted).toEqual(Array.from({ length: puts }, (_, index) => index + 2));
    const versions = await two.api(`/api/drops/${slug}/versions`, { token });
    expect((versions.body as { version: number }[]).map((item) => item.version).sort((a, b) => a - b)).toEqual(Array.from({ length: puts + 1 }, (_, index) => index + 1));
    console.log(`multi-instance: ${puts} concurrent PUTs minted versions 2-${puts + 1}, 0 gaps, 0 duplicates`);
  }, 120_000);

  it("replay an Idempotency-Key sent to the other instance", async () => {
    const token = await one.createToken("multi-idempotency");
    const headers = { "idempotency-key": `cross-${Math.random()}` };
    const body = { title: "once", html: html("once") };
    const first = await one.api("/api/drops", { method: "POST", token, body, headers });
    const again = await two.api("/api/drops", { method: "POST", token, body, headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(first.status);
    expect(again.body.slug).toBe(first.body.slug);
    expect((await two.api("/api/drops", { token })).body.pagination.total_items).toBe(1);
  });

  it("show every write on the next read from either instance: API, raw latest, viewer, and the passcode gate", async () => {
    const token = await one.createToken("multi-reads");
    const slug = await createDrop(token, "reads");
    let stale = 0;
    for (let round = 1; round <= 10; round++) {
      const [writer, reader] = round % 2 === 0 ? [one, two] : [two, one];
      expect((await writer.api(`/api/drops/${slug}`, { method: "PUT", token, body: { html: html(`round ${round}`), title: `Round ${round}` } })).status).toBe(200);
      const api = await reader.api(`/api/drops/${slug}`, { token });
      const raw = await (await fetch(`${reader.baseUrl}/p/${slug}/raw`)).text();
      const viewer = await (await fetch(`${reader.baseUrl}/p/${slug}`)).text();
      if (api.body.latest_version !== round + 1) stale++;
      if (!raw.includes(`round ${round}`)) stale++;
      if (!viewer.includes(`Round ${round}`)) stale++;
    }
    expect(stale).toBe(0);

    expect((await one.api(`/api/drops/${slug}/passcode`, { method: "POST", token, body: { passcode: "across instances" } })).status).toBe(200);
    expect((await fetch(`${two.baseUrl}/p/${slug}/raw`)).status).toBe(403);
    const gate = await (await fetch(`${two.baseUrl}/p/${slug}`)).text();
    expect(gate).toContain("This drop is locked");
    expect(gate).not.toContain("Round 10");
    expect((await two.api(`/api/drops/${slug}/passcode`, { method: "POST", token, body: { passcode: "" } })).status).toBe(200);
    expect(await (await fetch(`${one.baseUrl}/p/${slug}`)).text()).toContain("Round 10");
    console.log("multi-instance: 10 writes alternating instances, 30 reads on the other one, 0 stale");
  });
});
