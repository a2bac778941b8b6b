// Owner notifications (issue 33) against a real SMTP server on loopback: without SMTP the dashboard shows
// the notice and nothing is queued; with it, a comment by someone else is one email a minute later, fifty
// within that minute are one email too, and the email's unsubscribe link (the page and RFC 8058's
// one-click POST) turns the emails off without a session, as GET /api/me/notifications then says; an
// instance killed mid-send loses nothing. The test clock moves the server's time.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app";
import { createTestClock, type TestClock } from "../helpers/clock";
import { signInAs } from "../helpers/session";
import { PEER_ADDRESS_HEADER } from "../helpers/vercel-edge";
import { startSmtpReceiver, type SmtpReceiver } from "../helpers/smtp-receiver";

const CRON_SECRET = "cron-secret-for-notification-tests";
const MAIL_FROM = "htmldrop <notify@htmldrop.test>";
const ALICE_EMAIL = "alice@example.test";
const WINDOW_MS = 60_000;
// How long an instance's claim on an account's email lasts (lib/notifications/worker.ts).
const CLAIM_LEASE_MS = 90_000;

let app: TestApp;
let clock: TestClock;
let smtp: SmtpReceiver;
let alice: string;
let slug: string;
let clients = 0;

beforeAll(async () => {
  clock = createTestClock();
  smtp = await startSmtpReceiver();
  app = await startApp({ env: { TRUST_PROXY: "true", HTMLDROP_TEST_CLOCK_FILE: clock.file, CRON_SECRET, LIMIT_WRITES_PER_MINUTE: "1000", LIMIT_WRITES_PER_DAY: "100000" } });
  alice = await app.createToken("mail-alice");
  const created = await app.api("/api/drops", { method: "POST", token: alice, body: { title: "Q3 <plan> & notes", html: "<p>plan</p>", comments: "anyone" } });
  expect(created.status, created.text).toBe(201);
  slug = created.body.slug;
});
afterAll(async () => {
  await app?.stop();
  await smtp?.close();
});

/** A viewer's comment through the viewer's form, as a guest from an address of its own (each has a limit). */
async function comment(body: string): Promise<void> {
  const client = `203.0.113.${++clients}`;
  const res = await fetch(`${app.baseUrl}/p/${slug}/comments`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: new URL(app.baseUrl).origin, "x-forwarded-for": client, [PEER_ADDRESS_HEADER]: client },
    body: JSON.stringify({ v: 1, body, name: "Bob" }),
  });
  expect(res.status, await res.text()).toBe(201);
}

async function sendDue(): Promise<{ attempted: number; succeeded: number }> {
  const res = await app.api("/api/cron/send-notifications", { headers: { authorization: `Bearer ${CRON_SECRET}` } });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** Asks the cron route to send what is due (npm start's timer may have sent it already) until `count` emails arrived. */
async function emailsUntil(count: number) {
  for (let tries = 0; tries < 100 && smtp.received.length < count; tries++) {
    await sendDue();
    if (smtp.received.length < count) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(smtp.received).toHaveLength(count);
  return smtp.received[count - 1]!;
}

describe("without SMTP", () => {
  it("queues nothing, and the dashboard shows the notice", async () => {
    await comment("Is <b>this</b> final?");
    expect(await sendDue()).toEqual({ attempted: 0, succeeded: 0 });
    expect(await app.sql(`SELECT * FROM "NotificationDigest"`)).toEqual([]);
    const cookie = await signInAs(app, "mail-alice");
    const page = await fetch(`${app.baseUrl}/dashboard`, { headers: { cookie } });
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('data-testid="notices"');
    expect(html).toContain(`href="/dashboard/drops/${slug}?tab=comments"`);
    expect(html).toContain("Is &lt;b&gt;this&lt;/b&gt; final?");
    const account = await (await fetch(`${app.baseUrl}/dashboard/account`, { headers: { cookie } })).text();
    expect(account).toContain("This instance sends no email");
    expect((await app.api("/api/me/notifications", { token: alice })).body).toEqual({ comments: true, email: null, email_configured: false });
  });
});

describe("with SMTP", () => {
  beforeAll(async () => {
    await app.restart({ SMTP_URL: smtp.url, MAIL_FROM });
    // The local sign-in vouches for no email (and each sign-in sets what the provider vouched for); an
    // OIDC provider's verified one is what the emails go to.
    await app.sql(`UPDATE "Identity" SET "email" = '${ALICE_EMAIL}' WHERE "userId" = (SELECT "id" FROM "User" WHERE "login" = 'mail-alice')`);
  });

  it("sends one email a minute after a comment by someone else, with the drop's title, its dashboard page and no markup from the comment", async () => {
    await comment("<script>alert(1)</script> & the numbers?");
    expect(await sendDue()).toEqual({ attempted: 0, succeeded: 0 });
    clock.advance(WINDOW_MS + 1_000);
    const mail = await emailsUntil(1);
    expect(mail.subject).toBe("New comment on “Q3 <plan> & notes”");
    expect(mail.to).toMatchObject({ text: ALICE_EMAIL });
    expect(mail.from?.value).toEqual([{ name: "htmldrop", address: "notify@htmldrop.test" }]);
    const dropPage = `${app.env.PUBLIC_URL ?? app.baseUrl}/dashboard/drops/${slug}?tab=comments`;
    expect(mail.text).toContain("Q3 <plan> & notes");
    expect(mail.text).toContain(dropPage);
    expect(mail.text).toContain("Bob wrote:");
    expect(mail.text).toContain("<script>alert(1)</script> & the numbers?");
    // The comment before SMTP was configured was shown on the dashboard, and is not mailed now.
    expect(mail.text).not.toContain("final?");
    const html = mail.html as string;
    expect(html).toContain("&#60;script&#62;alert(1)&#60;/script&#62; &#38; the numbers?");
    expect(html).toContain("Q3 &#60;plan&#62; &#38; notes");
    expect(html).not.toContain("<script");
    expect(html).toContain(`href="${dropPage}"`);
    expect(smtp.header(mail, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    expect(smtp.header(mail, "List-Unsubscribe")).toMatch(/^<https?:\/\/[^>]+\/unsubscribe\/one-click\?token=[^>]+>$/);
  });

  it("makes fifty comments within the minute one email, without the owner's own reply", async () => {
    for (let n = 1; n <= 50; n++) await comment(`Point ${n}.`);
    const own = await app.api(`/api/drops/${slug}/comments`, { method: "POST", token: alice, body: { body: "My own reply" } });
    expect(own.status, own.text).toBe(201);
    clock.advance(WINDOW_MS + 1_000);
    const mail = await emailsUntil(2);
    expect(mail.subject).toBe("50 new comments on “Q3 <plan> & notes”");
    for (const n of [1, 2, 25, 50]) expect(mail.text).toContain(`Point ${n}.`);
    expect(mail.text).not.toContain("My own reply");
    // Nothing more is due: the next call sends nothing, and no third email comes.
    expect(await sendDue()).toEqual({ attempted: 0, succeeded: 0 });
    expect(smtp.received).toHaveLength(2);
  });

  it("turns the emails off from the email's links without a session: the page's button and the one-click POST", async () => {
    const mail = smtp.received.at(-1)!;
    const oneClick = smtp.header(mail, "List-Unsubscribe")!.slice(1, -1);
    const pageUrl = /Unsubscribe: (\S+)/.exec(mail.text!)![1]!;
    expect(new URL(pageUrl).search).toBe(new URL(oneClick).search);

    const forged = oneClick.replace(/token=([^&]+)/, (_all, token: string) => `token=${token.slice(0, -2)}xx`);
    expect((await fetch(forged, { method: "POST", body: "List-Unsubscribe=One-Click", headers: { "content-type": "application/x-www-form-urlencoded" } })).status).toBe(404);
    expect(await (await fetch(pageUrl.replace(/.{2}$/, "xx"))).text()).toContain("This unsubscribe link is not valid");

    const page = await fetch(pageUrl);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('data-testid="unsubscribe-account">mail-alice<');
    expect(html).toContain(`action="/unsubscribe/one-click${new URL(oneClick).search.replace(/&/g, "&amp;")}"`);
    // Opening the page changed nothing; RFC 8058's POST does, with no cookie.
    const posted = await fetch(oneClick, { method: "POST", body: "List-Unsubscribe=One-Click", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(posted.status).toBe(200);
    expect(await (await fetch(pageUrl)).text()).toContain('data-testid="unsubscribed"');
    // The page's button is a browser's form post: sent back to the page.
    const button = await fetch(oneClick, { method: "POST", redirect: "manual", headers: { accept: "text/html", "content-type": "application/x-www-form-urlencoded" }, body: "" });
    expect(button.status).toBe(303);
    expect(button.headers.get("location")).toBe(`/unsubscribe${new URL(oneClick).search}`);

    await comment("Anyone there?");
    clock.advance(WINDOW_MS + 1_000);
    expect(await sendDue()).toEqual({ attempted: 0, succeeded: 0 });
    expect(smtp.received).toHaveLength(2);
    // The API (and the dashboard's account page) says so, and turns them on again.
    expect((await app.api("/api/me/notifications", { token: alice })).body).toEqual({ comments: false, email: ALICE_EMAIL, email_configured: true });
    const on = await app.api("/api/me/notifications", { method: "PATCH", token: alice, body: { comments: true } });
    expect(on.body).toEqual({ comments: true, email: ALICE_EMAIL, email_configured: true });
    const cookie = await signInAs(app, "mail-alice");
    expect(await (await fetch(`${app.baseUrl}/dashboard`, { headers: { cookie } })).text()).toContain("Anyone there?");
  });

  it("loses nothing when the instance sending an email is killed mid-send: its claim runs out and the next instance sends it", async () => {
    await app.sql(`UPDATE "Identity" SET "email" = '${ALICE_EMAIL}' WHERE "userId" = (SELECT "id" FROM "User" WHERE "login" = 'mail-alice')`);
    smtp.holdNext();
    await comment("Still there?");
    clock.advance(WINDOW_MS + 1_000);
    // The cron call (or npm start's timer) claims the email and is left waiting on the SMTP server's answer.
    const stalledCall = sendDue().catch(() => undefined);
    for (let tries = 0; tries < 100 && smtp.held === 0; tries++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(smtp.held).toBe(1);
    process.kill(app.closeOutput(), "SIGKILL");
    await stalledCall;
    await app.restart();
    expect(await sendDue()).toEqual({ attempted: 0, succeeded: 0 });
    clock.advance(CLAIM_LEASE_MS);
    const mail = await emailsUntil(3);
    expect(mail.text).toContain("Still there?");
  });
});
