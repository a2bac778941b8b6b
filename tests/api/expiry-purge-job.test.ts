// `npm start` purges expired drops by itself: at start, then hourly (lib/drops/purge-expired.ts). On
// Vercel the cron route does it instead (expiry.test.ts).
import { afterAll, beforeAll, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app";
import { createTestClock, DAY_MS, type TestClock } from "../helpers/clock";

let app: TestApp;
let clock: TestClock;

beforeAll(async () => {
  clock = createTestClock();
  app = await startApp({ env: { HTMLDROP_TEST_CLOCK_FILE: clock.file, EXPIRED_RETENTION_DAYS: "1" } });
});
afterAll(async () => app?.stop());

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
  expect(app.logs()).toContain("htmldrop: purged 1 expired drop");
  expect((await app.api(`/api/drops/${later.slug}`, { token })).body).toMatchObject({ slug: later.slug, expired: false });
});
