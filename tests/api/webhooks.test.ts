// Webhooks against a real receiver on loopback that verifies every signature with the Standard Webhooks
// library: each event of the vocabulary, announced once its change commits; a receiver that fails and
// then accepts, retried on the schedule (the test clock moves the server's time, nobody waits); an
// endpoint disabled after every retry failed; test events and "send again"; and the URLs it refuses.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app";
import { createTestClock, type TestClock } from "../helpers/clock";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";

const CRON_SECRET = "cron-secret-for-webhook-tests";
const EVERY_EVENT = ["drop.created", "drop.updated", "version.created", "version.deleted", "drop.deleted", "drop.expired", "comment.created", "comment.resolved", "access.changed"];
// The retry schedule (lib/webhooks/schedule.ts), as the API promises it.
const SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

let app: TestApp;
let clock: TestClock;
let receiver: Receiver;

beforeAll(async () => {
  clock = createTestClock();
  receiver = await startReceiver();
  app = await startApp({ env: { HTMLDROP_TEST_CLOCK_FILE: clock.file, CRON_SECRET, LIMIT_WRITES_PER_MINUTE: "1000", LIMIT_WRITES_PER_DAY: "100000" } });
});
afterAll(async () => {
  await app?.stop();
  await receiver?.close();
});

async function register(token: string, path: string, body: Record<string, unknown> = {}) {
  const res = await app.api("/api/webhooks", { method: "POST", token, body: { url: receiver.url(path), events: EVERY_EVENT, ...body } });
  expect(res.status, res.text).toBe(201);
  receiver.trust(path, res.body.secret);
  return res.body as { id: string; secret: string };
}

async function log(token: string, id: string): Promise<any[]> {
  const res = await app.api(`/api/webhooks/${id}/deliveries`, { token });
  expect(res.status, res.text).toBe(200);
  return res.body.deliveries;
}

/** Asks the cron route to deliver what is due (the timer may have taken it already), then waits for `done`. */
async function deliverUntil(token: string, id: string, done: (deliveries: any[]) => boolean): Promise<any[]> {
  await app.api("/api/cron/deliver-webhooks", { headers: { authorization: `Bearer ${CRON_SECRET}` } });
  return logUntil(token, id, done);
}

/** The delivery log once `done` holds: a delivery is recorded after its endpoint has answered. */
async function logUntil(token: string, id: string, done: (deliveries: any[]) => boolean): Promise<any[]> {
  for (let tries = 0; tries < 300; tries++) {
    const deliveries = await log(token, id);
    if (done(deliveries)) return deliveries;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the delivery log of ${id} never got there: ${JSON.stringify(await log(token, id))}`);
}

const received = (path: string) => receiver.received.filter((entry) => entry.path === path);

describe("webhook endpoints", () => {
  it("show the secret once, in Standard Webhooks' form, and only to their account", async () => {
    const alice = await app.createToken("hook-alice");
    const bob = await app.createToken("hook-bob");
    const created = await app.api("/api/webhooks", { method: "POST", token: alice, body: { url: receiver.url("/owner"), events: ["drop.created"], description: "CI" } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^wh_[A-Za-z0-9]{20}$/),
      url: receiver.url("/owner"),
      description: "CI",
      events: ["drop.created"],
      enabled: true,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      created_at: expect.any(Number),
      updated_at: expect.any(Number),
    });
    const { id } = created.body;
    const { secret: _shownOnce, ...listed } = created.body;
    expect((await app.api("/api/webhooks", { token: alice })).body).toEqual({ webhooks: [listed] });
    expect((await app.api(`/api/webhooks/${id}`, { token: alice })).body).toEqual(listed);

    expect((await app.api("/api/webhooks", { token: bob })).body).toEqual({ webhooks: [] });
    for (const [method, path] of [["GET", `/api/webhooks/${id}`], ["PATCH", `/api/webhooks/${id}`], ["DELETE", `/api/webhooks/${id}`], ["GET", `/api/webhooks/${id}/deliveries`], ["POST", `/api/webhooks/${id}/test`]]) {
      const res = await app.api(path!, { method, token: bob, ...(method === "PATCH" ? { body: { description: "mine" } } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.code).toBe("not_found");
    }

    const readOnly = (await app.api("/api/tokens", { method: "POST", token: alice, body: { scopes: ["drops:read", "drops:write"] } })).body.token;
    const refused = await app.api("/api/webhooks", { token: readOnly });
    expect(refused.status).toBe(403);
    expect(refused.body.error.details).toEqual({ required_scope: "tokens:manage" });

    const patched = await app.api(`/api/webhooks/${id}`, { method: "PATCH", token: alice, body: { events: ["drop.created", "comment.created"], description: null } });
    expect(patched.body).toMatchObject({ events: ["drop.created", "comment.created"], enabled: true });
    expect(patched.body).not.toHaveProperty("description");
    expect((await app.api(`/api/webhooks/${id}`, { method: "DELETE", token: alice })).status).toBe(204);
    expect((await app.api(`/api/webhooks/${id}`, { token: alice })).status).toBe(404);
  });

  it("announce every kind of change once it commits, signed, with the Drop JSON, to the endpoints whose filters match", async () => {
    const token = await app.createToken("hook-events");
    const all = await register(token, "/all");
    const beta = await register(token, "/beta", { metadata: { project: "beta" } });
    const create = await app.api("/api/drops", { method: "POST", token, body: { title: "Report", html: "<p>1</p>", metadata: { project: "alpha" } } });
    const { slug } = create.body;
    const other = await register(token, "/other-drop", { drops: [slug === "aaaaaaaaaa" ? "bbbbbbbbbb" : "aaaaaaaaaa"] });
    await app.api(`/api/drops/${slug}`, { method: "PATCH", token, body: { title: "Report, edited" } });
    await app.api(`/api/drops/${slug}`, { method: "PUT", token, body: { html: "<p>2</p>" } });
    const comment = (await app.api(`/api/drops/${slug}/comments`, { method: "POST", token, body: { body: "Looks right" } })).body;
    await app.api(`/api/drops/${slug}/comments/${comment.id}`, { method: "PATCH", token, body: { resolved: true } });
    await app.api(`/api/drops/${slug}`, { method: "PATCH", token, body: { access: "signed_in" } });
    expect((await app.api(`/api/drops/${slug}/v/1`, { method: "DELETE", token })).status).toBe(200);
    // A write the service refuses announces nothing.
    expect((await app.api(`/api/drops/${slug}/v/1`, { method: "DELETE", token })).status).toBe(404);
    await app.api(`/api/drops/${slug}`, { method: "DELETE", token });

    const expected = ["drop.created", "drop.updated", "version.created", "comment.created", "comment.resolved", "drop.updated", "access.changed", "version.deleted", "drop.deleted"];
    await receiver.waitFor(() => received("/all").length >= expected.length, "every event at /all");
    const events = received("/all");
    expect(events.every((event) => event.verified)).toBe(true);
    expect(events.map((event) => event.type).sort()).toEqual([...expected].sort());
    expect(new Set(events.map((event) => event.id)).size).toBe(expected.length);
    const byType = (type: string) => events.filter((event) => event.type === type).map((event) => event.body);
    const [created] = byType("drop.created");
    expect(created).toEqual({ type: "drop.created", timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), data: { drop: create.body } });
    expect(byType("version.created")[0].data).toMatchObject({ drop: { slug, title: "Report, edited", latest_version: 2 }, version: { number: 2, size_bytes: 8 } });
    expect(byType("comment.created")[0].data).toMatchObject({ drop: { slug }, comment: { id: comment.id, body: "Looks right", cursor: comment.cursor } });
    expect(byType("comment.resolved")[0].data.comment).toMatchObject({ id: comment.id, resolved_at: expect.any(Number) });
    expect(byType("access.changed")[0].data).toMatchObject({ drop: { slug, access: "signed_in" }, access: { change: "level", level: "signed_in" } });
    expect(byType("version.deleted")[0].data).toMatchObject({ version: { number: 1 } });
    expect(byType("drop.deleted")[0].data.drop).toMatchObject({ slug, latest_version: 2 });

    // The receiver has every event; the last may not be recorded as delivered yet.
    const deliveries = await logUntil(token, all.id, (found) => found.length === expected.length && found.every((delivery) => delivery.status !== "pending"));
    expect(deliveries.every((delivery) => delivery.status === "succeeded" && delivery.attempts === 1 && delivery.log[0].status_code === 200)).toBe(true);
    expect(await log(token, beta.id)).toEqual([]);
    expect(await log(token, other.id)).toEqual([]);
    expect(received("/beta")).toEqual([]);
  });

  it("retry a receiver that fails, on the schedule, with the same webhook-id, until it accepts", async () => {
    const token = await app.createToken("hook-flaky");
    const hook = await register(token, "/flaky", { events: ["drop.created"] });
    receiver.answer("/flaky", (_request, nth) => (nth <= 2 ? { status: 503 } : undefined));
    await app.api("/api/drops", { method: "POST", token, body: { title: "Flaky", html: "<p>f</p>" } });

    let [delivery] = await deliverUntil(token, hook.id, (deliveries) => deliveries[0]?.attempts === 1);
    expect(delivery).toMatchObject({ status: "pending", type: "drop.created", log: [{ attempt: 1, status_code: 503, error: "answered 503" }] });
    expect(delivery.next_attempt_at - delivery.log[0].at).toBe(SCHEDULE_MS[0]);

    clock.advance(SCHEDULE_MS[0]!);
    [delivery] = await deliverUntil(token, hook.id, (deliveries) => deliveries[0]?.attempts === 2);
    expect(delivery.next_attempt_at - delivery.log[1].at).toBe(SCHEDULE_MS[1]);
    // Not due yet: nothing is sent early.
    clock.advance(SCHEDULE_MS[1]! - 60_000);
    await app.api("/api/cron/deliver-webhooks", { headers: { authorization: `Bearer ${CRON_SECRET}` } });
    expect(received("/flaky")).toHaveLength(2);

    clock.advance(60_000);
    [delivery] = await deliverUntil(token, hook.id, (deliveries) => deliveries[0]?.status === "succeeded");
    expect(delivery.log.map((attempt: any) => [attempt.attempt, attempt.status_code])).toEqual([[1, 503], [2, 503], [3, 200]]);
    const attempts = received("/flaky");
    expect(attempts).toHaveLength(3);
    expect(attempts.every((attempt) => attempt.verified && attempt.id === delivery.id)).toBe(true);
  });

  it("disable an endpoint once every retry of a delivery failed, say why, and deliver what waited when enabled again", async () => {
    const token = await app.createToken("hook-down");
    const hook = await register(token, "/down", { events: ["drop.created"] });
    let down = true;
    receiver.answer("/down", () => (down ? { status: 500 } : undefined));
    await app.api("/api/drops", { method: "POST", token, body: { title: "Down 1", html: "<p>d</p>" } });
    await deliverUntil(token, hook.id, (deliveries) => deliveries[0]?.attempts === 1);
    for (const [index, delay] of SCHEDULE_MS.entries()) {
      clock.advance(delay);
      await deliverUntil(token, hook.id, (deliveries) => deliveries[0]?.attempts === index + 2);
    }
    const [failed] = await log(token, hook.id);
    expect(failed).toMatchObject({ status: "failed", attempts: 8 });
    expect(failed).not.toHaveProperty("next_attempt_at");
    const endpoint = (await app.api(`/api/webhooks/${hook.id}`, { token })).body;
    expect(endpoint).toMatchObject({ enabled: false, disabled_at: expect.any(Number), disabled_reason: expect.stringContaining("failed over 8 tries") });

    // While disabled, nothing is queued for it; enabled again, it gets new events.
    await app.api("/api/drops", { method: "POST", token, body: { title: "Down 2", html: "<p>d</p>" } });
    expect(await log(token, hook.id)).toHaveLength(1);
    down = false;
    expect((await app.api(`/api/webhooks/${hook.id}`, { method: "PATCH", token, body: { enabled: true } })).body).toMatchObject({ enabled: true });
    expect((await app.api(`/api/webhooks/${hook.id}`, { token })).body).not.toHaveProperty("disabled_reason");
    await app.api("/api/drops", { method: "POST", token, body: { title: "Down 3", html: "<p>d</p>" } });
    const [latest] = await deliverUntil(token, hook.id, (deliveries) => deliveries.length === 2 && deliveries[0].status === "succeeded");
    expect(latest.type).toBe("drop.created");
  }, 120_000);

  it("send a test event now, and a delivery again with the same webhook-id", async () => {
    const token = await app.createToken("hook-test");
    const hook = await register(token, "/test", { events: ["drop.created"] });
    const test = await app.api(`/api/webhooks/${hook.id}/test`, { method: "POST", token });
    expect(test.status, test.text).toBe(200);
    expect(test.body).toMatchObject({ id: expect.stringMatching(/^msg_/), type: "webhook.test", status: "succeeded", attempts: 1, log: [{ attempt: 1, status_code: 200, duration_ms: expect.any(Number) }] });
    expect(test.body).not.toHaveProperty("event_id");
    const [arrived] = received("/test");
    expect(arrived).toMatchObject({ verified: true, id: test.body.id, body: { type: "webhook.test", data: { webhook_id: hook.id } } });

    const again = await app.api(`/api/webhooks/${hook.id}/deliveries/${test.body.id}/retry`, { method: "POST", token });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ id: test.body.id, status: "succeeded", attempts: 2 });
    expect(received("/test").map((entry) => entry.id)).toEqual([test.body.id, test.body.id]);
    expect((await app.api(`/api/webhooks/${hook.id}/deliveries/msg_AAAAAAAAAAAAAAAAAAAA/retry`, { method: "POST", token })).status).toBe(404);
  });
});

describe("endpoint URLs", () => {
  it("refuse private, link-local, IPv6-mapped and non-https targets, and htmldrop itself", async () => {
    const token = await app.createToken("hook-ssrf");
    const refused = [
      "http://10.0.0.7/hook",
      "https://192.168.1.1/hook",
      "http://169.254.169.254/latest/meta-data/",
      `http://[::ffff:127.0.0.1]:${receiver.port}/hook`,
      `http://[::ffff:7f00:1]:${receiver.port}/hook`,
      "https://[fd00::1]/hook",
      "https://[fe80::1]/hook",
      "http://example.com/hook",
      `http://user:secret@127.0.0.1:${receiver.port}/hook`,
      "ftp://example.com/hook",
      `${app.baseUrl}/api/health`,
    ];
    for (const url of refused) {
      const res = await app.api("/api/webhooks", { method: "POST", token, body: { url, events: ["drop.created"] } });
      expect(res.status, url).toBe(400);
      expect(res.body.error.code, url).toBe("invalid_arg");
      expect(res.body.error.details.fields[0].field, url).toBe("url");
    }
  });

  it("check every redirect: one to a private address or an IPv6-mapped loopback one is refused, one to an allowed URL followed", async () => {
    const token = await app.createToken("hook-redirects");
    const cases = [
      ["/to-metadata", "https://169.254.169.254/latest/meta-data/", null],
      ["/to-mapped", `https://[::ffff:127.0.0.1]:${receiver.port}/landed`, null],
      ["/to-private", "https://10.1.2.3/", null],
      ["/to-landing", "/landed", 200],
    ] as const;
    for (const [path, location, status] of cases) {
      receiver.answer(path, () => ({ status: 302, headers: { location } }));
      const hook = await register(token, path, { events: ["drop.created"] });
      const test = (await app.api(`/api/webhooks/${hook.id}/test`, { method: "POST", token })).body;
      expect(test.log[0].status_code, path).toBe(status);
      if (status === null) expect(test.log[0].error, path).toMatch(/^redirected to a refused URL: url must not point at a private, loopback or link-local address/);
    }
    expect(received("/landed")).toHaveLength(1);
  });
});

describe("comments by cursor", () => {
  it("page exactly with after=<cursor>, and since still works", async () => {
    const token = await app.createToken("hook-cursor");
    const { slug } = (await app.api("/api/drops", { method: "POST", token, body: { title: "Cursor", html: "<p>c</p>" } })).body;
    const posted = [];
    for (const body of ["one", "two", "three"]) posted.push((await app.api(`/api/drops/${slug}/comments`, { method: "POST", token, body: { body } })).body);
    const cursors = posted.map((comment) => comment.cursor);
    expect(cursors.every((cursor, index) => Number.isInteger(cursor) && (index === 0 || cursor > cursors[index - 1]))).toBe(true);
    const after = await app.api(`/api/drops/${slug}/comments?after=${cursors[0]}`, { token });
    expect(after.body.data.map((comment: any) => comment.body)).toEqual(["two", "three"]);
    expect((await app.api(`/api/drops/${slug}/comments?after=${cursors[2]}`, { token })).body.data).toEqual([]);
    expect((await app.api(`/api/drops/${slug}/comments?since=0`, { token })).body.data).toHaveLength(3);
    const bad = await app.api(`/api/drops/${slug}/comments?after=soon`, { token });
    expect(bad.status).toBe(400);
  });
});
