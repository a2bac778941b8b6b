// The review loop in real Chromium: an agent opens a drop to comments, guests comment on the viewer
// page (with JavaScript and without, on a phone and a desktop), on a passage they select in the drop
// and in reply to one another, hostile text stays text, and the agent reads the comments back over
// REST and MCP, answers, and resolves them with a new version.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { startApp, type TestApp } from "../helpers/app";

const OWNER = "review-owner";
const NAME_LABEL = "Your name (shown with your comment; leave empty if signed in)";
const QUOTE_LABEL = "Quote the passage you mean (optional)";
const POSTED = "Your comment was posted.";

let app: TestApp;
let token: string;
let clients = 0;

test.beforeAll(async () => {
  // Each browser context comes from an address of its own, so the per-client comment limit never
  // depends on how many comments the other tests posted.
  app = await startApp({ env: { TRUST_PROXY: "true" } });
  token = await app.createToken(OWNER, "agent");
});
test.afterAll(async () => app?.stop());

async function createDrop(comments: "off" | "signed_in" | "anyone", title = "Review me"): Promise<{ slug: string; url: string }> {
  const created = await app.api("/api/drops", { method: "POST", token, body: { title, html: "<h1>Version one</h1><p>Revenue grew 12% in Q3.</p>" } });
  expect(created.status, created.text).toBe(201);
  const patched = await app.api(`/api/drops/${created.body.slug}`, { method: "PATCH", token, body: { comments } });
  expect(patched.status, patched.text).toBe(200);
  return created.body;
}

function newContext(browser: Browser, options: { viewport: { width: number; height: number }; javaScriptEnabled?: boolean }): Promise<BrowserContext> {
  clients += 1;
  return browser.newContext({ ...options, extraHTTPHeaders: { "x-forwarded-for": `203.0.113.${clients}` } });
}

/** The comments panel, unfolded if a phone folded it. */
async function openComments(page: Page) {
  const panel = page.locator("details#comments");
  if (!(await panel.evaluate((details) => (details as HTMLDetailsElement).open))) await panel.locator(":scope > summary").click();
  await expect(panel.getByRole("button", { name: "Post comment" })).toBeVisible();
  return panel;
}

async function fillComment(page: Page, fields: { name?: string; body: string; quote?: string }) {
  if (fields.name !== undefined) await page.getByLabel(NAME_LABEL).fill(fields.name);
  await page.getByLabel(/^Comment on version/).fill(fields.body);
  if (fields.quote !== undefined) await page.getByLabel(QUOTE_LABEL).fill(fields.quote);
}

const commentItem = (page: Page, body: string) => page.locator("li[data-comment-id]", { has: page.locator(":scope > article", { hasText: body }) });

async function mcpClient(): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL("/mcp", `http://127.0.0.1:${app.env.PORT}`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: "htmldrop-e2e", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

/** A tool's structured result; a tool error fails the test with its text. */
async function callTool<T>(client: Client, name: string, args: Record<string, unknown>): Promise<T> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as T;
}

const HOSTILE = {
  name: "<img src=x onerror=window.__xss=1>",
  body: "</textarea><script>window.__xss=1</script> The Q3 number looks off",
  quote: '<svg onload="window.__xss=1">Revenue grew 12% in Q3.</svg>',
};

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`guests comment with and without JavaScript, the agent answers and resolves (${viewport.width}×${viewport.height})`, async ({ browser }) => {
    const drop = await createDrop("anyone", `Review ${viewport.width}`);
    const phone = viewport.width < 960;

    // With JavaScript: posted as JSON, shown without a reload.
    const context = await newContext(browser, { viewport });
    const page = await context.newPage();
    // The panel hydrates over the cached HTML without a mismatch or any other script error.
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    page.on("console", (message) => {
      // Refused posts (400) and the absent favicon are expected resource errors, not script errors.
      if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) problems.push(message.text());
    });
    await page.goto(drop.url);
    await expect(page.frameLocator("iframe").getByRole("heading", { name: "Version one" })).toBeVisible();
    const panel = page.locator("details#comments");
    // Folded under its summary on a phone, beside the frame on a wide screen.
    await expect(panel).toHaveJSProperty("open", !phone);
    await openComments(page);
    await expect(panel.getByText("No comments yet.")).toBeVisible();
    if (phone) {
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    } else {
      const frameBox = (await page.locator("iframe").boundingBox())!;
      const panelBox = (await panel.boundingBox())!;
      expect(panelBox.x).toBeGreaterThanOrEqual(frameBox.x + frameBox.width - 1);
      expect(panelBox.y).toBeLessThan(frameBox.y + frameBox.height);
    }
    await page.evaluate(() => ((window as unknown as { __marker: number }).__marker = 1));
    await fillComment(page, HOSTILE);
    await page.getByRole("button", { name: "Post comment" }).click();
    const first = commentItem(page, HOSTILE.body);
    await expect(first).toBeVisible();
    await expect(panel.getByRole("status")).toHaveText(POSTED);
    expect(page.url()).toBe(drop.url);
    expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(1);
    await expect(first.locator(":scope > article")).toContainText(HOSTILE.name);
    await expect(first.locator("blockquote")).toHaveText(HOSTILE.quote);
    await expect(first.getByText("Owner", { exact: true })).toHaveCount(0);
    await expect(page.getByLabel(/^Comment on version/)).toHaveValue("");
    await expect(page.getByLabel(NAME_LABEL)).toHaveValue(HOSTILE.name);

    // A guest cannot sign as the owner: the plain message, and the typed text is kept.
    await fillComment(page, { name: OWNER.toUpperCase(), body: "Looks good to me" });
    await page.getByRole("button", { name: "Post comment" }).click();
    await expect(panel.getByRole("alert")).toHaveText("The comment was not posted: that name is, or looks like, the drop owner's. Choose another.");
    await expect(page.getByLabel(/^Comment on version/)).toHaveValue("Looks good to me");

    // Without JavaScript: a plain form post, redirected back to the thread with a notice.
    const plainContext = await newContext(browser, { viewport, javaScriptEnabled: false });
    const plain = await plainContext.newPage();
    await plain.goto(drop.url);
    await expect(plain.locator("details#comments")).toHaveAttribute("open", "");
    await fillComment(plain, { name: "Grace", body: "Please add a chart for Q4.", quote: "Revenue grew 12% in Q3." });
    await plain.getByRole("button", { name: "Post comment" }).click();
    await expect(plain).toHaveURL(`${drop.url}?comment=posted&v=1#comments`);
    await expect(plain.locator("details#comments").getByRole("status")).toHaveText(POSTED);
    await expect(commentItem(plain, "Please add a chart for Q4.")).toContainText("Grace");
    await expect(commentItem(plain, HOSTILE.body)).toBeVisible();
    // The owner-name rule, as the redirect reports it.
    await fillComment(plain, { name: OWNER, body: "Sneaky" });
    await plain.getByRole("button", { name: "Post comment" }).click();
    await expect(plain).toHaveURL(`${drop.url}?comment_error=owner_name&v=1#comments`);
    await expect(plain.locator("details#comments").getByRole("alert")).toHaveText("The comment was not posted: that name is, or looks like, the drop owner's. Choose another.");
    await expect(plain.locator("details#comments img, details#comments svg, details#comments script")).toHaveCount(0);
    await plainContext.close();

    // Everything hostile stayed text, after a reload too.
    await page.reload();
    await openComments(page);
    await expect(commentItem(page, "Please add a chart for Q4.")).toBeVisible();
    await expect(panel.locator("img, svg, script")).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();

    // The agent reads them over REST and MCP, replies, and resolves them with version 2.
    const open = await app.api(`/api/drops/${drop.slug}/comments?status=open`, { token });
    expect(open.status).toBe(200);
    expect(open.body.data.map((comment: { body: string; author: unknown; quote?: string }) => [comment.body, comment.author, comment.quote])).toEqual([
      [HOSTILE.body, { name: HOSTILE.name, kind: "guest" }, HOSTILE.quote],
      ["Please add a chart for Q4.", { name: "Grace", kind: "guest" }, "Revenue grew 12% in Q3."],
    ]);
    const ids: string[] = open.body.data.map((comment: { id: string }) => comment.id);
    const mcp = await mcpClient();
    try {
      const listed = await callTool<{ data: { id: string }[] }>(mcp, "list_comments", { slug: drop.slug, status: "open" });
      expect(listed.data.map((comment) => comment.id)).toEqual(ids);
      const reply = await callTool<{ author: unknown; reply_to: string }>(mcp, "reply_to_comment", { slug: drop.slug, reply_to: ids[1], body: "Good idea, a chart is coming." });
      expect(reply).toMatchObject({ author: { name: OWNER, kind: "owner" }, reply_to: ids[1] });
    } finally {
      await mcp.close();
    }
    const put = await app.api(`/api/drops/${drop.slug}`, { method: "PUT", token, body: { html: "<h1>Version two</h1>", resolves: ids } });
    expect(put.status, put.text).toBe(200);
    // Nothing waits for the owner any more: the guests' comments are resolved, and the owner's own reply never waited.
    const stillOpen = await app.api(`/api/drops/${drop.slug}/comments?status=open`, { token });
    expect(stillOpen.body.data).toEqual([]);

    // The viewer, now on version 2, shows both threads resolved with the owner's replies.
    await page.reload();
    await expect(page.frameLocator("iframe").getByRole("heading", { name: "Version two" })).toBeVisible();
    await openComments(page);
    for (const body of [HOSTILE.body, "Please add a chart for Q4."]) {
      const item = commentItem(page, body);
      const own = item.locator(":scope > article");
      await expect(own.getByText("Resolved", { exact: true })).toBeVisible();
      await expect(own.getByText("on version 1", { exact: true })).toBeVisible();
      await expect(own.getByText("Owner", { exact: true })).toHaveCount(0);
      const resolution = commentItem(page, "Resolved in version 2.").and(item.locator("li[data-comment-id]"));
      await expect(resolution).toHaveCount(1);
      await expect(resolution.getByText("Owner", { exact: true })).toBeVisible();
      await expect(resolution).toContainText(OWNER);
    }
    const answered = commentItem(page, "Good idea, a chart is coming.");
    await expect(answered.getByText("Owner", { exact: true })).toBeVisible();
    await expect(commentItem(page, "Please add a chart for Q4.").locator("li[data-comment-id]")).toHaveCount(2);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(problems).toEqual([]);
    await context.close();
  });
}

test("a passage selected in the drop is commented on, highlighted there and read back; replies go from the panel, with and without JavaScript", async ({ browser }) => {
  const drop = await createDrop("anyone", "Anchored review");
  const passage = "Revenue grew 12% in Q3.";
  const context = await newContext(browser, { viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(drop.url);
  const frameElement = page.locator("iframe");
  /** The passages the drop's frame highlights, as text. */
  const highlighted = async () => {
    const frame = (await (await frameElement.elementHandle())!.contentFrame())!;
    return frame.evaluate(() => [...(CSS.highlights.get("htmldrop-comment") ?? [])].map((range) => range.toString()));
  };

  // A triple click selects the paragraph; the offer appears over the drop, under the selection.
  await page.frameLocator("iframe").getByText(passage).click({ clickCount: 3 });
  const offer = page.getByRole("button", { name: "Comment on this" });
  await expect(offer).toBeVisible();
  const [offerBox, frameBox] = [(await offer.boundingBox())!, (await frameElement.boundingBox())!];
  expect(offerBox.x).toBeGreaterThanOrEqual(frameBox.x);
  expect(offerBox.x + offerBox.width).toBeLessThanOrEqual(frameBox.x + frameBox.width);
  await offer.click();
  await expect(offer).toBeHidden();
  await expect(page.getByTestId("chosen-passage")).toHaveText(passage);
  await expect(page.getByLabel(/^Comment on version/)).toBeFocused();
  await page.getByLabel(/^Comment on version/).fill("Against which baseline?");
  await page.getByLabel(NAME_LABEL).fill("Ada");
  await page.getByRole("button", { name: "Post comment" }).click();
  const remark = commentItem(page, "Against which baseline?");
  await expect(remark.getByRole("button", { name: "Show the passage" })).toBeVisible();
  await expect(page.getByTestId("chosen-passage")).toHaveCount(0);
  await expect.poll(highlighted).toEqual([passage]);

  // The agent reads the quote and its context over REST.
  const listed = await app.api(`/api/drops/${drop.slug}/comments`, { token });
  expect(listed.body.data).toEqual([expect.objectContaining({ body: "Against which baseline?", version: 1, anchor: { exact: passage, prefix: "Version one" } })]);

  // Drawn again from what was stored, and "Show the passage" marks the one asked for.
  await page.reload();
  await expect.poll(highlighted).toEqual([passage]);
  await remark.getByRole("button", { name: "Show the passage" }).click();
  const frame = (await (await frameElement.elementHandle())!.contentFrame())!;
  await expect.poll(() => frame.evaluate(() => CSS.highlights.get("htmldrop-comment-revealed")?.size ?? 0)).toBe(1);

  // A reply from the comment's own form, with JavaScript: it joins the thread under the comment.
  await remark.locator("summary", { hasText: "Reply" }).click();
  await remark.getByLabel("Your reply", { exact: true }).fill("Last year's Q3.");
  await remark.getByLabel(/^Your name/).fill("Ada");
  await remark.getByRole("button", { name: "Post reply" }).click();
  await expect(remark.getByRole("status")).toHaveText("Your reply was posted.");
  await expect(remark.locator("li[data-comment-id]")).toContainText("Last year's Q3.");
  await context.close();

  // And without JavaScript: a plain form post, back to the thread, the reply under the comment.
  const plainContext = await newContext(browser, { viewport: { width: 1280, height: 800 }, javaScriptEnabled: false });
  const plain = await plainContext.newPage();
  await plain.goto(drop.url);
  const plainRemark = commentItem(plain, "Against which baseline?");
  await plainRemark.locator(":scope > article > details > summary").click();
  await plainRemark.getByLabel("Your reply", { exact: true }).first().fill("Agreed, say so in the text.");
  await plainRemark.getByLabel(/^Your name/).first().fill("Grace");
  await plainRemark.getByRole("button", { name: "Post reply" }).first().click();
  await expect(plain).toHaveURL(`${drop.url}?comment=posted&v=1#comments`);
  await expect(commentItem(plain, "Against which baseline?").locator("li[data-comment-id]")).toHaveCount(2);
  await expect(commentItem(plain, "Agreed, say so in the text.")).toContainText("Grace");
  await plainContext.close();
  const replies = (await app.api(`/api/drops/${drop.slug}/comments`, { token })).body.data.slice(1);
  expect(replies.map((reply: { reply_to: string }) => reply.reply_to)).toEqual([listed.body.data[0].id, listed.body.data[0].id]);
});

test("a drop with comments off shows no panel; signed_in asks guests to sign in", async ({ browser }) => {
  const context = await newContext(browser, { viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const off = await createDrop("off", "Quiet drop");
  await page.goto(off.url);
  await expect(page.frameLocator("iframe").getByRole("heading", { name: "Version one" })).toBeVisible();
  await expect(page.locator("details#comments")).toHaveCount(0);
  await expect(page.locator('form[action$="/comments"]')).toHaveCount(0);

  const members = await createDrop("signed_in", "Members only");
  await page.goto(members.url);
  const panel = await openComments(page);
  await expect(panel.getByText("Sign in to comment — posting asks you to sign in.")).toBeVisible();
  await expect(page.getByLabel(NAME_LABEL)).toHaveCount(0);
  await fillComment(page, { body: "Who am I?" });
  await page.getByRole("button", { name: "Post comment" }).click();
  await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
  const listed = await app.api(`/api/drops/${members.slug}/comments`, { token });
  expect(listed.body.data).toEqual([]);
  await context.close();
});

test("a locked drop shows and takes comments only once unlocked", async ({ browser }) => {
  const created = await app.api("/api/drops", { method: "POST", token, body: { title: "Locked review", html: "<h1>Version one</h1>", passcode: "open sesame" } });
  expect(created.status, created.text).toBe(201);
  const drop: { slug: string; url: string } = created.body;
  expect((await app.api(`/api/drops/${drop.slug}`, { method: "PATCH", token, body: { comments: "anyone" } })).status).toBe(200);
  const answered = await app.api(`/api/drops/${drop.slug}/comments`, { method: "POST", token, body: { body: "Owner's note on the locked drop" } });
  expect(answered.status, answered.text).toBe(201);

  const context = await newContext(browser, { viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(drop.url);
  await expect(page.getByRole("heading", { name: "This drop is locked" })).toBeVisible();
  await expect(page.locator("details#comments")).toHaveCount(0);
  expect(await page.content()).not.toContain("Owner's note");

  await page.getByLabel("Passcode").fill("open sesame");
  await page.getByRole("button", { name: "Unlock" }).click();
  await openComments(page);
  await expect(commentItem(page, "Owner's note on the locked drop").getByText("Owner", { exact: true })).toBeVisible();
  await fillComment(page, { name: "Insider", body: "Seen after unlocking" });
  await page.getByRole("button", { name: "Post comment" }).click();
  await expect(commentItem(page, "Seen after unlocking")).toContainText("Insider");
  await context.close();
});
