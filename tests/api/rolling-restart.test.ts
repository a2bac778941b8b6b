// A rolling restart: two instances on one database take writes, one gets SIGTERM in the middle. It
// stops accepting, finishes what it took, writes pending view counts and exits; every write it
// acknowledged is there afterwards, and none was answered 5xx.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app";

let survivor: TestApp;
let stopping: TestApp;
let token: string;

beforeAll(async () => {
  const limits = { LIMIT_WRITES_PER_MINUTE: "100000", LIMIT_WRITES_PER_DAY: "100000", LIMIT_DROPS_PER_ACCOUNT: "100000" };
  survivor = await startApp({ env: limits });
  const shared = { DATA_DIR: survivor.env.DATA_DIR!, ...(survivor.env.DATABASE_URL ? { DATABASE_URL: survivor.env.DATABASE_URL } : {}) };
  // Behind a declared proxy, so the views below can come from five clients: each counts once (README, View counts).
  stopping = await startApp({ env: { ...limits, ...shared, TRUST_PROXY: "true" } });
  token = await survivor.createToken("rolling-restart");
}, 180_000);
afterAll(async () => {
  await stopping?.stop();
  await survivor?.stop();
});

type Tally = { acknowledged: string[]; failedToConnect: number; serverErrors: number };

/** Creates drops on `target` until `until` resolves; what was acknowledged, refused or lost on the way. */
async function writeUntil(target: TestApp, until: Promise<unknown>, tally: Tally): Promise<void> {
  let done = false;
  void until.then(() => (done = true));
  while (!done) {
    try {
      const res = await fetch(`http://127.0.0.1:${target.env.PORT}/api/drops`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ title: "rolling", html: "<p>rolling restart</p>" }),
      });
      const body = await res.text();
      if (res.status === 201) tally.acknowledged.push((JSON.parse(body) as { slug: string }).slug);
      else if (res.status >= 500) tally.serverErrors++;
    } catch {
      // The instance is gone (connection refused or reset): the write was never acknowledged.
      tally.failedToConnect++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

describe("SIGTERM during writes", () => {
  it("loses no acknowledged write and answers none with 5xx", async () => {
    const tally: Tally = { acknowledged: [], failedToConnect: 0, serverErrors: 0 };
    const viewed = await survivor.api("/api/drops", { method: "POST", token, body: { title: "viewed", html: "<p>views</p>" } });
    const viewedSlug = viewed.body.slug as string;
    // Views recorded in memory on the instance that stops must be written before it exits.
    for (let i = 0; i < 5; i++) {
      const client = `203.0.113.${i + 1}`;
      const beacon = await fetch(`http://127.0.0.1:${stopping.env.PORT}/p/${viewedSlug}/view`, { method: "POST", headers: { "sec-fetch-site": "same-origin", "x-forwarded-for": client } });
      expect(beacon.status).toBe(204);
    }

    let finish: () => void = () => {};
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const writers = Array.from({ length: 8 }, (_, index) => writeUntil(index % 2 === 0 ? stopping : survivor, finished, tally));
    await new Promise((resolve) => setTimeout(resolve, 700));
    await stopping.stop();
    await new Promise((resolve) => setTimeout(resolve, 300));
    finish();
    await Promise.all(writers);

    expect(tally.serverErrors).toBe(0);
    expect(tally.acknowledged.length).toBeGreaterThan(20);
    const missing: string[] = [];
    for (const slug of tally.acknowledged) {
      if ((await survivor.api(`/api/drops/${slug}`, { token })).status !== 200) missing.push(slug);
    }
    expect(missing).toEqual([]);
    expect((await survivor.api(`/api/drops/${viewedSlug}`, { token })).body.view_count).toBeGreaterThanOrEqual(5);
    console.log(`rolling restart: ${tally.acknowledged.length} writes acknowledged, 0 lost; ${tally.failedToConnect} attempts found the stopped instance gone`);
  });
});
