import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEVICE_AUTH_MESSAGES } from "@/lib/device-auth/messages";
import { approveOverHttp, denyOverHttp, getVerifyPage, signInBrowserless } from "../helpers/device-flow";
import { startApp, type TestApp } from "../helpers/app";
import { createTestClock, MINUTE_MS } from "../helpers/clock";
import { PEER_ADDRESS_HEADER } from "../helpers/vercel-edge";

const CODE_PATTERN = /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/;

let app: TestApp;
let origin: string;
const clock = createTestClock();
let clients = 0;

/** Each test spends its own per-client rate-limit budget. */
function newClient(): string {
  clients += 1;
  return `127.0.100.${clients}`;
}

/** A request from `client`: as the trusted proxy reports it (`npm start`), or as Vercel's edge sees it. */
const from = (client: string) => ({ "x-forwarded-for": client, [PEER_ADDRESS_HEADER]: client });

function advanceClock(seconds: number): void {
  clock.advance(seconds * 1000);
}

async function start(client: string, body?: unknown) {
  return app.api("/api/auth/start", { method: "POST", headers: from(client), ...(body === undefined ? {} : { body }) });
}

async function poll(client: string, pollToken: string) {
  return app.api(`/api/auth/poll?token=${encodeURIComponent(pollToken)}`, { headers: from(client) });
}

beforeAll(async () => {
  app = await startApp({ env: { HTMLDROP_TEST_CLOCK_FILE: clock.file, TRUST_PROXY: "true" } });
  origin = `http://127.0.0.1:${app.env.PORT}`;
});
afterAll(async () => app?.stop());

describe("POST /api/auth/start", () => {
  it("answers an empty body with a code, an absolute verification URL carrying it, a poll secret, 600 s and 2 s", async () => {
    const res = await app.api("/api/auth/start", { method: "POST" });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["code", "expires_in", "poll_interval", "poll_token", "verification_url"]);
    expect(res.body.code).toMatch(CODE_PATTERN);
    expect(res.body.verification_url).toBe(`${app.baseUrl}/verify?code=${res.body.code}`);
    expect(res.body.poll_token).toMatch(/^[0-9A-Za-z]{43}$/);
    expect(res.body.expires_in).toBe(600);
    expect(res.body.poll_interval).toBe(2);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("accepts a label and hands out different codes and secrets each time", async () => {
    const client = newClient();
    const [a, b] = await Promise.all([start(client, { label: "laptop" }), start(client, {})]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.body.code).not.toBe(b.body.code);
    expect(a.body.poll_token).not.toBe(b.body.poll_token);
  });

  it.each([
    ["a label that is too long", { label: "x".repeat(101) }, "invalid_arg"],
    ["an empty label", { label: "  " }, "invalid_arg"],
    ["a label that is not a string", { label: 5 }, "invalid_arg"],
    ["an unknown field", { lable: "typo" }, "invalid_arg"],
  ])("refuses %s with 400", async (_name, body, code) => {
    const res = await start(newClient(), body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(code);
    expect(typeof res.body.error.message).toBe("string");
  });

  it("refuses malformed JSON with 400 invalid_json", async () => {
    const res = await app.api("/api/auth/start", { method: "POST", rawBody: "{label:", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_json");
  });
});

describe("GET /api/auth/poll", () => {
  it("answers an unknown poll token with 404 not_found", async () => {
    const res = await poll(newClient(), "not-a-real-poll-token");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: "not_found", message: expect.any(String) } });
  });

  it("refuses a missing token with 400 invalid_arg", async () => {
    const res = await app.api("/api/auth/poll");
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_arg");
  });

  it("goes pending → verified (token and user id, once) → claimed, and the token carries the label", async () => {
    const client = newClient();
    const started = (await start(client, { label: "build box" })).body;
    expect((await poll(client, started.poll_token)).body).toEqual({ status: "pending" });
    expect((await poll(client, started.poll_token)).body).toEqual({ status: "pending" });

    const alice = await signInBrowserless(app, "Alice", client);
    const page = await getVerifyPage(alice, started.code.toLowerCase().replace("-", ""));
    expect(page).toContain(started.code);
    expect(page).toContain("build box");
    const approved = await approveOverHttp(alice, started.code);
    expect(approved.status).toBe(303);
    expect(approved.page).toContain(DEVICE_AUTH_MESSAGES.approved);

    const first = await poll(client, started.poll_token);
    expect(first.status).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(["api_token", "status", "user_id"]);
    expect(first.body.status).toBe("verified");
    expect(first.body.api_token).toMatch(/^hd_[0-9A-Za-z]{40}$/);

    expect((await poll(client, started.poll_token)).body).toEqual({ status: "claimed" });
    expect((await poll(client, started.poll_token)).body).toEqual({ status: "claimed" });

    const me = await app.api("/api/me", { token: first.body.api_token });
    expect(me.status).toBe(200);
    expect(me.body.user_id).toBe(first.body.user_id);
    expect(me.body.token.label).toBe("build box");
    const tokens = await app.api("/api/tokens", { token: first.body.api_token });
    expect(tokens.body.map((token: { label: string }) => token.label)).toContain("build box");

    // The page now tells the approver to go back to the agent, and the code cannot be approved again.
    expect(await getVerifyPage(alice, started.code)).toContain(DEVICE_AUTH_MESSAGES.approved);
    const bob = await signInBrowserless(app, "bob", client);
    const bobPage = await getVerifyPage(bob, started.code);
    expect(bobPage).toContain(DEVICE_AUTH_MESSAGES.alreadyUsed);
    expect(bobPage).not.toContain("Approve this device");
  });

  it("gives the same user id and an independent token to a second flow of the same identity", async () => {
    const client = newClient();
    const carol = await signInBrowserless(app, "carol", client);
    const results = [];
    for (const label of ["machine one", "machine two"]) {
      const started = (await start(client, { label })).body;
      await approveOverHttp(carol, started.code);
      results.push((await poll(client, started.poll_token)).body);
    }
    expect(results[0].user_id).toBe(results[1].user_id);
    expect(results[0].api_token).not.toBe(results[1].api_token);
    const me = await app.api("/api/me", { token: results[0].api_token });
    const revoke = await app.api(`/api/tokens/${me.body.token.id}`, { method: "DELETE", token: results[1].api_token });
    expect(revoke.status).toBe(204);
    expect((await app.api("/api/me", { token: results[0].api_token })).status).toBe(401);
    expect((await app.api("/api/me", { token: results[1].api_token })).body.token.label).toBe("machine two");
  });

  it("hands the token to exactly one of many concurrent polls of a verified flow", async () => {
    const client = newClient();
    const started = (await start(client, { label: "racer" })).body;
    const dave = await signInBrowserless(app, "dave", client);
    await approveOverHttp(dave, started.code);
    const answers = await Promise.all(Array.from({ length: 12 }, () => poll(client, started.poll_token)));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    const winners = answers.filter((answer) => answer.body.status === "verified");
    expect(winners).toHaveLength(1);
    expect(winners[0]!.body.api_token).toMatch(/^hd_/);
    expect(answers.filter((answer) => answer.body.status === "claimed")).toHaveLength(11);
    const tokens = await app.api("/api/tokens", { token: winners[0]!.body.api_token });
    expect(tokens.body.filter((token: { label: string }) => token.label === "racer")).toHaveLength(1);
  });
});

describe("Deny (an addition: RFC 8628's access_denied)", () => {
  it("turns a pending flow into denied: the poll says so, no token exists and the code can no longer be approved", async () => {
    const client = newClient();
    const started = (await start(client, { label: "unexpected" })).body;
    const ivan = await signInBrowserless(app, "ivan", client);
    const page = await getVerifyPage(ivan, started.code);
    expect(page).toContain(">Deny</button>");
    const denied = await denyOverHttp(ivan, started.code);
    expect(denied.status).toBe(303);
    expect(denied.page).toContain(DEVICE_AUTH_MESSAGES.denied);
    expect(denied.page).not.toContain("Approve this device");

    expect((await poll(client, started.poll_token)).body).toEqual({ status: "denied" });
    expect((await poll(client, started.poll_token)).body).toEqual({ status: "denied" });
    // The form as it was before the denial, submitted again, approves nothing.
    const approved = await submitCapturedForm(ivan, started.code, page);
    expect(approved.status).toBe(303);
    expect(await getVerifyPage(ivan, started.code)).toContain(DEVICE_AUTH_MESSAGES.denied);
    expect((await poll(client, started.poll_token)).body).toEqual({ status: "denied" });
    expect((await app.api("/api/tokens", { token: await app.createToken("ivan", "check") })).body.map((token: { label: string }) => token.label)).toEqual(["check"]);
  });

  it("cannot take back an approval, and a denied flow still expires from the poll's point of view only as denied", async () => {
    const client = newClient();
    const started = (await start(client)).body;
    const judy = await signInBrowserless(app, "judy", client);
    const page = await getVerifyPage(judy, started.code);
    await approveOverHttp(judy, started.code);
    // Deny submitted from the page captured before the approval.
    const deny = await submitCapturedForm(judy, started.code, page, "Deny");
    expect(deny.status).toBe(303);
    expect((await poll(client, started.poll_token)).body.status).toBe("verified");

    const other = (await start(client)).body;
    await denyOverHttp(judy, other.code);
    advanceClock(601);
    expect((await poll(client, other.poll_token)).body).toEqual({ status: "denied" });
  });

  it("shows what approving grants and when the code expires, and keeps a mistyped code in the form", async () => {
    const client = newClient();
    const started = (await start(client, { label: "reader", scopes: ["drops:read"] })).body;
    const kim = await signInBrowserless(app, "kim", client);
    const page = await getVerifyPage(kim, started.code);
    expect(page).toMatch(/data-testid="grant"[^>]*>Approving gives this device its own API token for your account kim, labelled .{1,8}reader.{1,8}, that may read your drops, their versions and their context, and your patterns\./);
    expect(page).toMatch(/This code expires at <time dateTime="[0-9T:.-]+Z">\d\d:\d\d UTC<\/time>/);
    const typo = await getVerifyPage(kim, "BCDF-GHJX");
    expect(typo).toContain(DEVICE_AUTH_MESSAGES.invalidCode);
    expect(typo).toMatch(/<input[^>]*name="code"[^>]*value="BCDF-GHJX"/);
    expect(typo).toContain('aria-invalid="true"');
  });
});

describe("expiry (controllable clock)", () => {
  it("expires a pending flow 600 s after start; it can then never be approved", async () => {
    const client = newClient();
    const started = (await start(client, { label: "slow human" })).body;
    const erin = await signInBrowserless(app, "erin", client);
    advanceClock(599);
    expect((await poll(client, started.poll_token)).body).toEqual({ status: "pending" });
    advanceClock(2);
    expect((await poll(client, started.poll_token)).body).toEqual({ status: "expired" });
    const page = await getVerifyPage(erin, started.code);
    expect(page).toContain(DEVICE_AUTH_MESSAGES.expired);
    expect(page).not.toContain("Approve this device");
    expect((await poll(client, started.poll_token)).body).toEqual({ status: "expired" });
  });

  it("refuses to approve a code that expired while its page was open", async () => {
    const client = newClient();
    const started = (await start(client)).body;
    const frank = await signInBrowserless(app, "frank", client);
    const html = await getVerifyPage(frank, started.code);
    expect(html).toContain("Approve this device");
    advanceClock(601);
    // approveOverHttp reloads the page first; submit the form captured before expiry instead.
    const result = await submitCapturedForm(frank, started.code, html);
    expect(result.status).toBe(303);
    expect(await getVerifyPage(frank, started.code)).toContain(DEVICE_AUTH_MESSAGES.expired);
    expect((await poll(client, started.poll_token)).body).toEqual({ status: "expired" });
  });

  it("counts the 600 s claim window from the approval, and discards an unclaimed approval after it", async () => {
    const client = newClient();
    const grace = await signInBrowserless(app, "grace", client);

    const late = (await start(client, { label: "late" })).body;
    advanceClock(500);
    await approveOverHttp(grace, late.code);
    advanceClock(550); // 1050 s after start, 550 s after approval
    const claimed = (await poll(client, late.poll_token)).body;
    expect(claimed.status).toBe("verified");
    expect(claimed.api_token).toMatch(/^hd_/);

    const abandoned = (await start(client, { label: "abandoned" })).body;
    await approveOverHttp(grace, abandoned.code);
    advanceClock(599);
    const sibling = (await start(client, { label: "sibling" })).body;
    await approveOverHttp(grace, sibling.code);
    advanceClock(2); // abandoned: 601 s after approval; sibling: 2 s
    expect((await poll(client, abandoned.poll_token)).body).toEqual({ status: "expired" });
    expect((await poll(client, abandoned.poll_token)).body).toEqual({ status: "expired" });
    expect((await poll(client, sibling.poll_token)).body.status).toBe("verified");

    const labels = (await app.api("/api/tokens", { token: claimed.api_token })).body.map((token: { label: string }) => token.label);
    expect(labels.sort()).toEqual(["late", "sibling"]);
    expect(await getVerifyPage(grace, abandoned.code)).toContain(DEVICE_AUTH_MESSAGES.expired);
  });
});

describe("the verification page", () => {
  it("says when a code is unknown", async () => {
    const heidi = await signInBrowserless(app, "heidi", newClient());
    const page = await getVerifyPage(heidi, "BBBB-BBBB");
    expect(page).toContain(DEVICE_AUTH_MESSAGES.invalidCode);
    expect(page).not.toContain("Approve this device");
  });

  it("asks a visitor who is not signed in to sign in, naming the configured methods", async () => {
    const started = (await start(newClient(), { label: "kiosk" })).body;
    const res = await fetch(`${origin}/verify?code=${started.code}`);
    const page = await res.text();
    expect(page).toContain("Sign in to approve");
    expect(page).toContain(app.signsInThrough === "identity-provider" ? "Test IdP" : "local username (development)");
    expect(page).toContain(`/api/auth/signin?callbackUrl=${encodeURIComponent(`/verify?code=${started.code}`).replace(/&/g, "&amp;")}`);
    expect(page).not.toContain("Approve this device");
  });
});

describe("abuse limits", () => {
  it("rate limits starts per client with Retry-After", async () => {
    clock.startWindow(MINUTE_MS);
    const client = newClient();
    for (let i = 0; i < 20; i += 1) expect((await start(client)).status).toBe(200);
    const limited = await start(client);
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBe(limited.body.error.details.retry_after_seconds);
    expect((await start(newClient())).status).toBe(200);
  });

  it("rate limits polls per client", async () => {
    clock.startWindow(MINUTE_MS);
    const client = newClient();
    const started = (await start(client)).body;
    const answers = await Promise.all(Array.from({ length: 121 }, () => poll(client, started.poll_token)));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(120);
    const limited = answers.find((answer) => answer.status === 429)!;
    expect(limited.body.error.code).toBe("rate_limited");
    expect(limited.headers.get("retry-after")).toBeTruthy();
  });

  it("rate limits approvals per client", async () => {
    clock.startWindow(MINUTE_MS);
    const client = newClient();
    const ivan = await signInBrowserless(app, "ivan", client);
    const started = (await start(client)).body;
    const html = await getVerifyPage(ivan, started.code);
    for (let i = 0; i < 10; i += 1) await submitCapturedForm(ivan, "BBBB-BBBB", html.replaceAll(started.code, "BBBB-BBBB"));
    const result = await submitCapturedForm(ivan, started.code, html);
    expect(result.location).toContain("notice=rateLimited");
    expect(await getVerifyPage(ivan, started.code)).toContain("Approve this device");
    const page = await (await fetch(new URL(result.location!, origin), { headers: { cookie: ivan.jar.header(), ...from(client) } })).text();
    expect(page).toContain(DEVICE_AUTH_MESSAGES.rateLimited);
  });
});

async function submitCapturedForm(session: Awaited<ReturnType<typeof signInBrowserless>>, code: string, html: string, button = "Approve this device") {
  const form = [...html.matchAll(/<form[^>]*method="POST"[^>]*>([\s\S]*?)<\/form>/gi)].find((match) => match[1]!.includes(`>${button}</button>`))!;
  const body = new FormData();
  for (const input of form[1]!.matchAll(/<input[^>]*>/g)) {
    const name = /name="([^"]*)"/.exec(input[0])?.[1];
    if (name) body.append(name, /value="([^"]*)"/.exec(input[0])?.[1] ?? "");
  }
  const response = await fetch(`${origin}/verify?code=${code}`, {
    method: "POST",
    body,
    redirect: "manual",
    headers: { cookie: session.jar.header(), origin, ...from(session.client!) },
  });
  await response.arrayBuffer();
  return { status: response.status, location: response.headers.get("location") };
}
