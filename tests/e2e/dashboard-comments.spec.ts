// Comments in the owner dashboard, in real Chromium against the real server: the owner turns comments
// on (with the one-click switch, then the choices), a guest comments through the viewer's JSON
// endpoint, and the owner replies, resolves and deletes from the inbox; each change is checked back
// through the REST API.
import { expect, test, type Page } from "@playwright/test";
import { startApp, type TestApp } from "../helpers/app";
import { createDrop, signInToDashboard } from "../helpers/dashboard";
import { PEER_ADDRESS_HEADER } from "../helpers/vercel-edge";

let app: TestApp;

test.beforeAll(async () => {
  // Trusting the forwarded address lets each guest comment come from an address of its own.
  app = await startApp({ env: { TRUST_PROXY: "true" } });
});

test.afterAll(async () => {
  await app?.stop();
});

let clients = 0;

/** A guest's comment as the viewer page's script posts it; each from an address of its own, so the per-client limit never trips. */
async function guestComment(slug: string, body: string, quote?: string): Promise<void> {
  clients += 1;
  const client = `198.51.100.${clients}`;
  const response = await fetch(`${app.baseUrl}/p/${slug}/comments`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: new URL(app.baseUrl).origin, "x-forwarded-for": client, [PEER_ADDRESS_HEADER]: client },
    body: JSON.stringify({ v: 1, name: "Guest", body, ...(quote ? { quote } : {}) }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
}

async function expectNoSidewaysScroll(page: Page, what: string): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${what} overflows by ${overflow}px`).toBeLessThanOrEqual(0);
}

for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  test(`the owner turns comments on and replies, resolves and deletes them at ${viewport.width}px`, async ({ browser }) => {
    const login = `cora${viewport.width}`;
    const token = await app.createToken(login, "agent");
    const drop = await createDrop(app, token, { title: `Field notes ${viewport.width}` });
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await signInToDashboard(page, app, login, `/dashboard/drops/${drop.slug}?tab=comments`);

    // Comments start off, and the page says so where they would be; one click turns them on.
    const policyForm = page.getByRole("form", { name: "Who may comment" });
    await expect(policyForm.getByRole("radio", { name: /^Off/ })).toBeChecked();
    await expect(page.getByTestId("no-comments")).toBeVisible();
    await expect(page.getByTestId("comments-state")).toContainText("Comments are off.");
    await page.getByRole("button", { name: "Turn comments on" }).click();
    await expect(page.getByTestId("comments-state")).toHaveText("Comments are on for signed-in accounts.");
    await expect(policyForm.getByRole("radio", { name: "Signed-in accounts" })).toBeChecked();
    expect((await app.api(`/api/drops/${drop.slug}`, { token })).body.comments).toBe("signed_in");
    // Then the owner lets anyone comment.
    await policyForm.getByRole("radio", { name: /^Anyone/ }).check();
    await policyForm.getByRole("button", { name: "Save comment setting" }).click();
    await expect(policyForm.getByRole("status")).toHaveText("Saved: the comment setting now applies on the viewer page.");
    expect((await app.api(`/api/drops/${drop.slug}`, { token })).body.comments).toBe("anyone");
    await expectNoSidewaysScroll(page, `the drop page at ${viewport.width}px`);

    await guestComment(drop.slug, "<b>bold?</b> remark", "a passage");
    await guestComment(drop.slug, "spam to delete");

    // The inbox, from the nav: newest first, markup shown as the characters typed.
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Comments" }).click();
    await expect(page).toHaveURL(`${app.baseUrl}/dashboard/comments`);
    const items = page.getByTestId("comment");
    await expect(items).toHaveCount(2);
    await expect(items.getByTestId("comment-body")).toHaveText(["spam to delete", "<b>bold?</b> remark"]);
    const remark = items.filter({ hasText: "remark" });
    await expect(remark.locator("b")).toHaveCount(0);
    await expect(remark).toContainText("a passage");
    await expect(remark).toContainText("Guest");
    await expect(remark.getByRole("link", { name: `Field notes ${viewport.width}` })).toHaveAttribute("href", `/dashboard/drops/${drop.slug}?tab=comments`);
    await expect(page.getByTestId("page-info")).toContainText("2 open comments");
    await expectNoSidewaysScroll(page, `the inbox at ${viewport.width}px`);

    // Reply: the API then lists the owner's answer to it.
    await remark.getByText("Reply", { exact: true }).click();
    await remark.getByLabel("Your reply").fill("Thanks, fixed in v2.");
    await remark.getByRole("button", { name: "Post reply" }).click();
    await expect(remark.getByRole("form", { name: /^Reply to/ }).getByRole("status")).toHaveText("Reply posted.");
    await expectNoSidewaysScroll(page, `the inbox with a reply form at ${viewport.width}px`);
    let list = (await app.api(`/api/drops/${drop.slug}/comments`, { token })).body.data as { id: string; body: string; author: { kind: string }; reply_to?: string; resolved_at?: number }[];
    const original = list.find((comment) => comment.body === "<b>bold?</b> remark")!;
    const spam = list.find((comment) => comment.body === "spam to delete")!;
    expect(list.find((comment) => comment.author.kind === "owner")).toMatchObject({ body: "Thanks, fixed in v2.", reply_to: original.id });

    // Resolve: it leaves the inbox, and the API has when.
    await remark.getByRole("button", { name: "Resolve" }).click();
    await expect(items).toHaveCount(1);
    list = (await app.api(`/api/drops/${drop.slug}/comments`, { token })).body.data;
    expect(list.find((comment) => comment.id === original.id)?.resolved_at).toEqual(expect.any(Number));

    // Delete the other one, after confirming.
    const spamItem = items.filter({ hasText: "spam to delete" });
    await spamItem.getByText("Delete…").click();
    await spamItem.getByRole("button", { name: "Yes, delete this comment" }).click();
    await expect(items).toHaveCount(0);
    await expect(page.getByTestId("inbox-empty")).toHaveText("No open comments.");
    list = (await app.api(`/api/drops/${drop.slug}/comments`, { token })).body.data;
    expect(list.map((comment) => comment.id)).not.toContain(spam.id);

    // The drop page keeps the whole thread: the resolved comment (to reopen) and the owner's reply.
    await page.goto(`${app.baseUrl}/dashboard/drops/${drop.slug}?tab=comments`);
    const thread = page.getByRole("list", { name: "Comments on this drop" }).getByTestId("comment");
    await expect(thread).toHaveCount(2);
    await expect(thread.first().getByTestId("comment-resolved")).toBeVisible();
    await expect(thread.first().getByRole("button", { name: "Reopen" })).toBeVisible();
    await expect(thread.nth(1).getByText("Owner", { exact: true })).toBeVisible();
    await expect(thread.nth(1)).toContainText("Thanks, fixed in v2.");
    await expectNoSidewaysScroll(page, `the drop page with comments at ${viewport.width}px`);
    await context.close();
  });
}

test("a comment form pointed at another account's drop or a missing comment is refused in plain words", async ({ page }) => {
  const aliceToken = await app.createToken("alva", "agent");
  const alice = await createDrop(app, aliceToken, { title: "Alva's notes" });
  const bobToken = await app.createToken("boris", "agent");
  const bob = await createDrop(app, bobToken, { title: "Boris's notes" });
  for (const [slug, token] of [[alice.slug, aliceToken], [bob.slug, bobToken]]) {
    expect((await app.api(`/api/drops/${slug}`, { method: "PATCH", token, body: { comments: "anyone" } })).status).toBe(200);
  }
  await guestComment(alice.slug, "for alva only");
  await guestComment(bob.slug, "for boris");
  const [aliceComment] = (await app.api(`/api/drops/${alice.slug}/comments`, { token: aliceToken })).body.data;

  await signInToDashboard(page, app, "boris", "/dashboard/comments");
  const item = page.getByTestId("comment");
  await expect(item).toHaveCount(1);
  await expect(item).not.toContainText("for alva only");

  // Boris's resolve form, pointed at Alice's drop and comment: it reads like a comment that is not there.
  // (Tampering waits for hydration, which would otherwise put the rendered values back.)
  await page.waitForLoadState("networkidle");
  const resolveForm = item.getByRole("form", { name: /^Resolve/ });
  await resolveForm.locator('input[name="slug"]').evaluate((input, slug) => ((input as HTMLInputElement).value = slug), alice.slug);
  await resolveForm.locator('input[name="id"]').evaluate((input, id) => ((input as HTMLInputElement).value = id), aliceComment.id);
  await resolveForm.getByRole("button", { name: "Resolve" }).click();
  await expect(resolveForm.locator('[data-state="error"]')).toHaveText("No such comment on this drop: it may have been deleted.");
  expect((await app.api(`/api/drops/${alice.slug}/comments`, { token: aliceToken })).body.data[0].resolved_at).toBeUndefined();

  // A comment id that is not there (deleted meanwhile, say).
  await page.reload({ waitUntil: "networkidle" });
  await item.getByText("Delete…").click();
  const deleteForm = item.getByRole("form", { name: /^Delete/ });
  await deleteForm.locator('input[name="id"]').evaluate((input) => ((input as HTMLInputElement).value = "A".repeat(20)));
  await deleteForm.getByRole("button", { name: "Yes, delete this comment" }).click();
  await expect(deleteForm.locator('[data-state="error"]')).toHaveText("No such comment on this drop: it may have been deleted.");
  expect((await app.api(`/api/drops/${bob.slug}/comments`, { token: bobToken })).body.data).toHaveLength(1);
});

test("without JavaScript, a refused reply comes back in its open fold, says why and keeps what was typed", async ({ browser }) => {
  const token = await app.createToken("nojsreply", "agent");
  const drop = await createDrop(app, token, { title: "Plain notes" });
  expect((await app.api(`/api/drops/${drop.slug}`, { method: "PATCH", token, body: { comments: "anyone" } })).status).toBe(200);
  await guestComment(drop.slug, "a question");
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signInToDashboard(page, app, "nojsreply", "/dashboard/comments");
  const item = page.getByTestId("comment");
  await item.getByText("Reply", { exact: true }).click();
  const reply = item.getByRole("form", { name: /^Reply to/ });
  await reply.getByLabel("Your reply").fill("Ring the \u0007 bell");
  await reply.getByRole("button", { name: "Post reply" }).click();
  // A new page: the fold is open on the refusal, not closed over it.
  await expect(reply.getByRole("status")).toHaveText("Body must not contain control characters.");
  await expect(reply.getByLabel("Your reply")).toHaveValue("Ring the \u0007 bell");
  expect((await app.api(`/api/drops/${drop.slug}/comments`, { token })).body.data).toHaveLength(1);
  await context.close();
});
