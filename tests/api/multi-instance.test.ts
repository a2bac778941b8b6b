// Two instances on one database and one Redis, as behind a load balancer, with writes split across
// them: the per-minute limit admits exactly its count, concurrent PUTs to one drop mint gapless
// unique versions, an Idempotency-Key replays across instances, and every read after a write, on
// either instance, sees it (API, raw latest, viewer), a passcode change included, and what a drop's
// list, a team or its access level stops admitting is refused on the next request on the other.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app";
import { createTestClock, MINUTE_MS } from "../helpers/clock";
import { signInAs } from "../helpers/session";

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

  it("take away what a drop's list, a team or its level gave on the next request on the other instance", async () => {
    const token = await one.createToken("multi-owner");
    // Sessions of the local sign-in; both instances share the secrets in DATA_DIR, so each accepts both.
    const [lena, tom] = await Promise.all([signInAs(one, "multi-lena"), signInAs(two, "multi-tom")]);
    const open = async (instance: TestApp, slug: string, session: string | null) =>
      (await fetch(`http://127.0.0.1:${instance.env.PORT}/p/${slug}`, { headers: session ? { cookie: session } : {}, redirect: "manual" })).status;
    const created = await one.api("/api/drops", { method: "POST", token, body: { title: "listed", html: html("listed"), access: "restricted" } });
    const slug: string = created.body.slug;
    const team = await two.api("/api/teams", { method: "POST", token, body: { name: "multi" } });
    const tomEntry = (await two.api(`/api/teams/${team.body.id}/members`, { method: "POST", token, body: { login: "multi-tom" } })).body.members.find(
      (member: { login?: string }) => member.login === "multi-tom",
    );
    const lenaEntry = await one.api(`/api/drops/${slug}/members`, { method: "POST", token, body: { login: "multi-lena", role: "viewer" } });
    expect((await one.api(`/api/drops/${slug}/members`, { method: "POST", token, body: { team_id: team.body.id, role: "viewer" } })).status).toBe(201);
    expect([await open(one, slug, lena), await open(two, slug, lena), await open(one, slug, tom), await open(two, slug, tom)]).toEqual([200, 200, 200, 200]);

    expect((await one.api(`/api/drops/${slug}/members/${lenaEntry.body.id}`, { method: "DELETE", token })).status).toBe(204);
    expect(await open(two, slug, lena)).toBe(404);
    expect((await two.api(`/api/teams/${team.body.id}/members/${tomEntry.id}`, { method: "DELETE", token })).status).toBe(204);
    expect(await open(one, slug, tom)).toBe(404);

    // Public and served from the page cache of the other instance, then signed-in only.
    expect((await one.api(`/api/drops/${slug}`, { method: "PATCH", token, body: { access: "public" } })).status).toBe(200);
    expect([await open(two, slug, null), await open(two, slug, null)]).toEqual([200, 200]);
    expect((await one.api(`/api/drops/${slug}`, { method: "PATCH", token, body: { access: "signed_in" } })).status).toBe(200);
    expect([303, 307]).toContain(await open(two, slug, null));
    expect(await open(two, slug, lena)).toBe(200);
  });
});
