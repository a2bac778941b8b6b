// The dashboard's Webhooks page in real Chromium, on a phone without JavaScript and on a desktop with it:
// the owner adds an endpoint (its secret shown once), sends a test event to a real receiver that verifies
// the signature with that secret, and reads the delivery log; then a publish shows up in the log too.
import { expect, test } from "@playwright/test";
import { startApp, type TestApp } from "../helpers/app";
import { expectNoAxeViolations, SCREENS, screenshotPath } from "../helpers/a11y";
import { openSignedIn } from "../helpers/dashboard";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";

let app: TestApp;
let receiver: Receiver;

test.beforeAll(async () => {
  receiver = await startReceiver();
  app = await startApp();
});
test.afterAll(async () => {
  await app?.stop();
  await receiver?.close();
});

for (const screen of SCREENS) {
  const javaScript = screen.name === "desktop";
  test(`the owner adds an endpoint, sends a test event and reads the log (${screen.width} px, ${javaScript ? "with" : "without"} JavaScript)`, async ({ browser }) => {
    const login = `hooks-${screen.name}`;
    const path = `/e2e-${screen.name}`;
    const page = await openSignedIn(browser, app, login, "/dashboard/webhooks", screen, javaScript);

    const form = page.getByRole("form", { name: "Add endpoint" });
    await form.getByLabel("URL").fill(receiver.url(path));
    await form.getByLabel("Description (optional)").fill("CI rebuild");
    await expect(form.getByRole("checkbox", { name: /version\.created/ })).toBeChecked();
    await form.getByRole("checkbox", { name: /drop\.created/ }).check();
    await form.getByRole("button", { name: "Add endpoint" }).click();
    await expect(page.getByRole("form", { name: "Add endpoint" }).getByRole("status")).toHaveText("Endpoint added. Copy its signing secret now: it is shown only this once.");
    const secret = (await page.getByTestId("new-webhook-secret").textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    receiver.trust(path, secret);

    // A reload shows the endpoint, never the secret again.
    await page.goto(`${app.baseUrl}/dashboard/webhooks`);
    await expect(page.getByTestId("new-webhook")).toHaveCount(0);
    const card = page.getByRole("region", { name: `Endpoint ${receiver.url(path)}` });
    await expect(card.getByText("CI rebuild")).toBeVisible();
    await expect(card.getByText("Nothing sent yet.")).toBeVisible();

    await card.getByRole("button", { name: "Send a test event" }).click();
    if (javaScript) await expect(card.getByRole("form", { name: /^Send a test event/ }).getByRole("status")).toHaveText(/^Delivered: the endpoint answered 200 in \d+ ms\.$/);
    await receiver.waitFor((received) => received.some((entry) => entry.path === path), "the test event");
    const [arrived] = receiver.received.filter((entry) => entry.path === path);
    expect(arrived).toMatchObject({ verified: true, type: "webhook.test" });

    // A publish through the API is announced and logged too.
    const token = await app.createToken(login);
    expect((await app.api("/api/drops", { method: "POST", token, body: { title: "Announced", html: "<p>a</p>" } })).status).toBe(201);
    await receiver.waitFor((received) => received.filter((entry) => entry.path === path).length === 2, "drop.created");
    await expect(async () => {
      await page.goto(`${app.baseUrl}/dashboard/webhooks`);
      const log = page.getByRole("table", { name: `Deliveries to ${receiver.url(path)}` });
      await expect(log.getByRole("row")).toHaveCount(3, { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    const log = page.getByRole("table", { name: `Deliveries to ${receiver.url(path)}` });
    await expect(log.getByRole("rowheader", { name: "drop.created" })).toBeVisible();
    await expect(log.getByRole("rowheader", { name: "webhook.test" })).toBeVisible();
    await expect(log.getByRole("row").nth(1)).toContainText("delivered · 200");

    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1)).toBe(true);
    await page.screenshot({ path: screenshotPath("webhooks", screen.name), fullPage: true });
    if (javaScript) await expectNoAxeViolations(page);
    await page.context().close();
  });
}

for (const screen of SCREENS) {
  const javaScript = screen.name === "desktop";
  test(`an endpoint for some drops only: a refusal under its field keeps what was typed (${screen.width} px, ${javaScript ? "with" : "without"} JavaScript)`, async ({ browser }) => {
    const login = `hook-filters-${screen.name}`;
    const token = await app.createToken(login);
    const drop = (await app.api("/api/drops", { method: "POST", token, body: { title: "Watched", html: "<p>w</p>" } })).body as { slug: string; url: string };
    const page = await openSignedIn(browser, app, login, "/dashboard/webhooks", screen, javaScript);
    const form = () => page.getByRole("form", { name: "Add endpoint" });
    const url = receiver.url(`/filters-${screen.name}`);
    await form().getByLabel("URL").fill(url);
    await form().getByLabel("Drops").fill(drop.url);
    await form().getByLabel("Tags").fill("team");
    await form().getByRole("button", { name: "Add endpoint" }).click();
    await expect(form().getByTestId("metadata-error")).toHaveText('Tag line 1 ("team") must look like key=value.');
    await expect(form().getByLabel("Tags")).toHaveAttribute("aria-invalid", "true");
    await expect(form().getByRole("status")).toHaveText("The endpoint was not added: see the field marked below.");
    await expect(form().getByLabel("URL")).toHaveValue(url);
    await expect(form().getByLabel("Drops")).toHaveValue(drop.url);

    await form().getByLabel("Tags").fill("team=payments");
    await form().getByLabel("Drops").fill(`${drop.slug} Not-A-Slug`);
    await form().getByRole("button", { name: "Add endpoint" }).click();
    await expect(form().getByTestId("drops-error")).toHaveText("“Not-A-Slug” is not a drop: give each drop's slug (the letters and digits after /p/ in its link) or its link.");
    await expect(form().getByTestId("metadata-error")).toHaveCount(0);
    await expect(form().getByLabel("Tags")).toHaveValue("team=payments");

    await form().getByLabel("Drops").fill(drop.slug);
    await form().getByRole("button", { name: "Add endpoint" }).click();
    await expect(form().getByRole("status")).toHaveText("Endpoint added. Copy its signing secret now: it is shown only this once.");
    const [created] = (await app.api("/api/webhooks", { token })).body.webhooks as { drops: string[]; metadata: Record<string, string> }[];
    expect(created).toMatchObject({ drops: [drop.slug], metadata: { team: "payments" } });
    await page.goto(`${app.baseUrl}/dashboard/webhooks`);
    const card = page.getByRole("region", { name: `Endpoint ${url}` });
    await expect(card.getByTestId("webhook-drops")).toHaveText(`Only these drops: ${drop.slug}`);
    await expect(card.getByTestId("webhook-metadata")).toHaveText("Only drops tagged team=payments");
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1)).toBe(true);
    if (javaScript) await expectNoAxeViolations(page);
    await page.context().close();
  });
}
