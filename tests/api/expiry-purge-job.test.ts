// `npm start` purges expired drops by itself: at start, then hourly (lib/drops/purge-expired.ts), and
// prunes the event history with them (lib/events/retention.ts). On Vercel the cron route does it instead
// (expiry.test.ts).
import { afterAll, beforeAll, expect, it } from "vitest";
import { HISTORY_RETENTION_DAYS } from "@/lib/events/retention";
import { startApp, type TestApp } from "../helpers/app";
import { createTestClock, DAY_MS, type TestClock } from "../helpers/clock";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";

let app: TestApp;
let clock: TestClock;
let receiver: Receiver;

beforeAll(async () => {
  clock = createTestClock();
  receiver = await startReceiver();
  app = await startApp({ env: { HTMLDROP_TEST_CLOCK_FILE: clock.file, EXPIRED_RETENTION_DAYS: "1" } });
});
afterAll(async () => {
  await app?.stop();
  await receiver?.close();
});

it("deletes a drop once its retention has passed, when the server starts", async () => {
  const token = await app.createToken("purged-by-timer");
  const create = async (ttlSeconds: number) => (await app.api("/api/drops", { method: "POST", token, body: { title: "t", html: `<p>${ttlSeconds}</p>`, ttl_seconds: ttlSeconds } })).body;
  const expiring = await create(60);
  const later = await create(3 * 86_400);

  // A day and two minutes on, the first is past its one-day retention; the second has not even expired.
  await app.restart({}, async () => clock.moveTo(expiring.expires_at + DAY_MS + 120_000));
  let status = 200;
  for (let attempt = 0; attempt < 50 && status !== 404; attempt++) {
    status = (await app.api(`/api/drops/${expiring.slug}`, { token })).status;
    if (status !== 404) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(status).toBe(404);
  // The run reports once it has gone through every due drop, a moment after the deletion shows.
  await expect.poll(() => app.logs(), { timeout: 5_000 }).toContain("htmldrop: purged 1 expired drop");
  expect((await app.api(`/api/drops/${later.slug}`, { token })).body).toMatchObject({ slug: later.slug, expired: false });
});

it("prunes events and sent webhook deliveries once they are older than the history's retention", async () => {
  const token = await app.createToken("pruned-history");
  const hook = await app.api("/api/webhooks", { method: "POST", token, body: { url: receiver.url("/history"), events: ["drop.created"] } });
  expect(hook.status).toBe(201);
  const drop = (await app.api("/api/drops", { method: "POST", token, body: { title: "kept", html: "<p>kept</p>" } })).body;
  const deliveries = async () => (await app.api(`/api/webhooks/${hook.body.id}/deliveries`, { token })).body.deliveries as { status: string }[];
  await expect.poll(async () => (await deliveries()).map((delivery) => delivery.status), { timeout: 15_000 }).toEqual(["succeeded"]);
  // The purge's own drop.expired events (the first test's other drop) are new when the history is pruned.
  const events = async () => (await app.sql(`SELECT "id" FROM "Event" WHERE "type" <> 'drop.expired'`)).length;
  expect(await events()).toBeGreaterThan(0);

  await app.restart({}, async () => clock.moveTo(drop.created_at + (HISTORY_RETENTION_DAYS + 1) * DAY_MS));
  await expect.poll(events, { timeout: 10_000 }).toBe(0);
  expect(await deliveries()).toEqual([]);
  expect(await app.sql(`SELECT "id" FROM "WebhookAttempt"`)).toEqual([]);
  await expect.poll(() => app.logs(), { timeout: 5_000 }).toMatch(/htmldrop: pruned \d+ events and 1 webhook deliveries older than their retention/);
  expect((await app.api(`/api/drops/${drop.slug}`, { token })).body.slug).toBe(drop.slug);
});
