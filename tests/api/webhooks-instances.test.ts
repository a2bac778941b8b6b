// Two instances on one database, each recording events and each running the delivery worker: every
// event reaches each endpoint once, not once per instance; and an instance killed in the middle of a
// delivery loses nothing: its claim runs out and the other instance sends the delivery again.
import { afterAll, beforeAll, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app";
import { createTestClock } from "../helpers/clock";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";

// A claim lasts this long (lib/webhooks/worker.ts CLAIM_LEASE_MS): longer than any attempt can take.
const CLAIM_LEASE_MS = 60_000;

let one: TestApp;
let two: TestApp;
let receiver: Receiver;
const clock = createTestClock();

beforeAll(async () => {
  receiver = await startReceiver();
  const env = { HTMLDROP_TEST_CLOCK_FILE: clock.file, LIMIT_WRITES_PER_MINUTE: "1000", LIMIT_WRITES_PER_DAY: "100000" };
  one = await startApp({ env });
  two = await startApp({ env: { ...env, DATA_DIR: one.env.DATA_DIR!, ...(one.env.DATABASE_URL ? { DATABASE_URL: one.env.DATABASE_URL } : {}) } });
}, 180_000);
afterAll(async () => {
  await two?.stop();
  await one?.stop();
  await receiver?.close();
});

async function register(app: TestApp, token: string, path: string): Promise<string> {
  const res = await app.api("/api/webhooks", { method: "POST", token, body: { url: receiver.url(path), events: ["drop.created"] } });
  expect(res.status, res.text).toBe(201);
  receiver.trust(path, res.body.secret);
  return res.body.id;
}

async function settledLog(app: TestApp, token: string, id: string, count: number): Promise<any[]> {
  for (let tries = 0; tries < 400; tries++) {
    const deliveries = (await app.api(`/api/webhooks/${id}/deliveries`, { token })).body.deliveries;
    if (deliveries.length === count && deliveries.every((delivery: any) => delivery.status !== "pending")) return deliveries;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${id}'s deliveries never settled`);
}

it("deliver each event once per endpoint, with writes and workers on both instances", async () => {
  const token = await one.createToken("instances");
  const endpoints = [await register(one, token, "/a"), await register(two, token, "/b")];
  const drops = 30;
  // Three bursts of ten: one account's creates queue on its drop count, and the point here is the delivery.
  const created = [];
  for (let burst = 0; burst < 3; burst++) {
    created.push(
      ...(await Promise.all(
        Array.from({ length: 10 }, (_, index) => [one, two][index % 2]!.api("/api/drops", { method: "POST", token, body: { title: `drop ${burst}.${index}`, html: `<p>${burst}.${index}</p>` } })),
      )),
    );
  }
  expect(created.filter((res) => res.status !== 201).map((res) => res.text)).toEqual([]);
  for (const [index, path] of ["/a", "/b"].entries()) {
    const deliveries = await settledLog(one, token, endpoints[index]!, drops);
    expect(deliveries.every((delivery) => delivery.status === "succeeded" && delivery.attempts === 1 && delivery.log.length === 1)).toBe(true);
    const arrivals = receiver.received.filter((entry) => entry.path === path);
    expect(arrivals.every((entry) => entry.verified)).toBe(true);
    expect(arrivals.map((entry) => entry.id).sort()).toEqual(deliveries.map((delivery) => delivery.id).sort());
    expect(new Set(arrivals.map((entry) => entry.body.data.drop.slug))).toEqual(new Set(created.map((res) => res.body.slug)));
  }
}, 120_000);

it("lose nothing when the instance sending a delivery is killed: the other sends it once the claim runs out", async () => {
  const token = await one.createToken("killed");
  const endpoint = await register(one, token, "/hang");
  // The first attempt is held unanswered; the second is accepted.
  receiver.answer("/hang", (_request, nth) => (nth === 1 ? "hang" : undefined));
  // Only the first instance runs while the event is recorded and claimed.
  await two.restart({}, async () => {
    await one.api("/api/drops", { method: "POST", token, body: { title: "mid-flight", html: "<p>k</p>" } });
    await receiver.waitFor((received) => received.some((entry) => entry.path === "/hang"), "the first attempt");
    process.kill(one.closeOutput(), "SIGKILL");
  });
  clock.advance(CLAIM_LEASE_MS + 1_000);
  const [delivery] = await settledLog(two, token, endpoint, 1);
  expect(delivery).toMatchObject({ status: "succeeded", type: "drop.created", log: [{ status_code: 200 }] });
  const arrivals = receiver.received.filter((entry) => entry.path === "/hang");
  expect(arrivals.map((entry) => entry.id)).toEqual([delivery.id, delivery.id]);
  expect(arrivals.every((entry) => entry.verified && entry.body.data.drop.title === "mid-flight")).toBe(true);
}, 120_000);
