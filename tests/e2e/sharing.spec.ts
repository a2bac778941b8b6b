// Sharing from the dashboard in real Chromium: an owner restricts a drop and shares it with someone who
// has never signed in (on a phone), then with a team (on a desktop); the invitee and the team member
// sign in and open it, an anonymous browser is sent to sign in and a signed-in outsider gets the 404.
// Each flow runs at one size: how the pages lay out at both is accessibility-pages.ts's to check.
import { expect, test, type Browser, type Page } from "@playwright/test";
import { hasHorizontalPageScroll, SCREENS } from "../helpers/a11y";
import { startApp, type TestApp } from "../helpers/app";
import { createDrop, openSignedIn } from "../helpers/dashboard";

let app: TestApp;

test.beforeAll(async () => {
  app = await startApp();
});

test.afterAll(async () => {
  await app?.stop();
});

/** A fresh browser of the screen's size with nobody signed in. */
async function anonymous(browser: Browser, screen: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: screen.width, height: screen.height } });
  return context.newPage();
}

/** From the sign-in page the restricted drop sent the browser to: sign in as `login`, land on the drop. */
async function signInFromDrop(page: Page, login: string, url: string, title: string): Promise<void> {
  await page.getByLabel("Username").fill(login);
  await page.getByRole("button", { name: "Sign in with a local username" }).click();
  await expect(page).toHaveURL(url);
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
}

async function expectNoSidewaysScroll(page: Page, what: string): Promise<void> {
  expect(await hasHorizontalPageScroll(page), `${what} scrolls sideways`).toBe(false);
}

test(`an owner restricts a drop and shares it with someone who has not signed in yet, at ${SCREENS[0].width}px`, async ({ browser }) => {
  const screen = SCREENS[0];
  const w = screen.width;
  const owner = `olive${w}`;
  const invitee = `pat${w}`;
  const token = await app.createToken(owner, "agent");
  const drop = await createDrop(app, token, { title: `Board minutes ${w}`, html: "<!doctype html><p>MINUTES-BODY</p>" });

  const page = await openSignedIn(browser, app, owner, `/dashboard/drops/${drop.slug}?tab=share`, screen);
  const share = page.getByRole("region", { name: "Share" });
  await expect(share.getByTestId("access-state")).toContainText("Public");
  const level = share.getByRole("form", { name: "Who can open this drop" });
  await level.getByRole("radio", { name: /Restricted/ }).check();
  await level.getByRole("button", { name: "Save access" }).click();
  await expect(level.getByRole("status")).toHaveText("Saved: the new access level applies to the drop's link now.");
  await expect(share.getByTestId("access-state")).toContainText("Restricted");
  expect((await app.api(`/api/drops/${drop.slug}`, { token })).body.access).toBe("restricted");

  // A refusal is explained under the field and keeps what was typed.
  const add = share.getByRole("form", { name: "Add a person" });
  await add.getByLabel("Login or email").fill("not an@email");
  await add.getByRole("button", { name: "Add person" }).click();
  await expect(add.getByRole("status")).toHaveText("Email must be an email address.");
  await expect(add.getByLabel("Login or email")).toHaveValue("not an@email");

  await add.getByLabel("Login or email").fill(invitee);
  await add.getByRole("button", { name: "Add person" }).click();
  await expect(add.getByRole("status")).toHaveText("Added. They are admitted once they sign in with that login or email.");
  const entry = share.getByTestId("share-entry").filter({ hasText: invitee });
  await expect(entry).toContainText("Pending");
  await expect(entry.getByLabel("Role", { exact: true })).toHaveValue("viewer");
  await expectNoSidewaysScroll(page, "the drop page");

  // The drop list marks the drop.
  await page.goto(`${app.baseUrl}/dashboard`);
  await expect(page.getByTestId("drop-table").locator("tbody tr", { hasText: drop.title }).getByTestId("access-badge")).toHaveText("Restricted");

  // Anonymous: sent to sign in. The invitee signs in there and comes back to the drop.
  const visitor = await anonymous(browser, screen);
  await visitor.goto(drop.url);
  await expect(visitor).toHaveURL(/\/signin\?callbackUrl=/);
  await signInFromDrop(visitor, invitee, drop.url, drop.title);
  await expect(visitor.frameLocator("iframe").first().getByText("MINUTES-BODY")).toBeVisible();

  // Their "Shared with me" lists it and opens it.
  await visitor.goto(`${app.baseUrl}/dashboard`);
  await visitor.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Shared with me" }).click();
  await expect(visitor).toHaveURL(`${app.baseUrl}/dashboard/shared`);
  const row = visitor.getByTestId("shared-table").locator("tbody tr", { hasText: drop.title });
  await expect(row.getByTestId("access-badge")).toHaveText("Restricted");
  await expectNoSidewaysScroll(visitor, "Shared with me");
  await row.getByRole("link", { name: `/p/${drop.slug}` }).click();
  await expect(visitor).toHaveURL(drop.url);
  await expect(visitor.getByRole("heading", { level: 1, name: drop.title })).toBeVisible();

  // The owner's list no longer shows them pending.
  await page.goto(`${app.baseUrl}/dashboard/drops/${drop.slug}?tab=share`);
  await expect(share.getByTestId("share-entry").filter({ hasText: invitee })).not.toContainText("Pending");

  // Someone signed in but not on the list finds nothing there.
  const outsider = await openSignedIn(browser, app, `otto${w}`, "/dashboard/shared", screen);
  await expect(outsider.getByTestId("no-shared")).toBeVisible();
  const refused = await outsider.goto(drop.url);
  expect(refused?.status()).toBe(404);
  await expect(outsider.getByRole("heading", { level: 1, name: "Drop not found" })).toBeVisible();
  await Promise.all([page, visitor, outsider].map((one) => one.context().close()));
});

test(`an owner makes a team, adds a member and shares a drop with it; the member opens it, at ${SCREENS[1].width}px`, async ({ browser }) => {
  const screen = SCREENS[1];
  const w = screen.width;
  const owner = `tara${w}`;
  const member = `tess${w}`;
  const token = await app.createToken(owner, "agent");
  const drop = await createDrop(app, token, { title: `Team plan ${w}`, access: "restricted" });

  const page = await openSignedIn(browser, app, owner, "/dashboard/teams", screen);
  await expect(page.getByTestId("no-teams")).toBeVisible();
  const make = page.getByRole("form", { name: "New team" });
  await make.getByLabel("Name").fill(`Crew ${w}`);
  await make.getByRole("button", { name: "Make team" }).click();
  await expect(make.getByRole("status")).toHaveText("Team made. Add its members below.");
  const team = page.getByRole("region", { name: `Crew ${w}` });
  await expect(team.getByTestId("team-member")).toHaveText([`${owner} (you)`]);
  const addMember = team.getByRole("form", { name: `Add a member to Crew ${w}` });
  await addMember.getByLabel("Login or email").fill(member);
  await addMember.getByRole("button", { name: "Add member" }).click();
  await expect(addMember.getByRole("status")).toHaveText("Added to the team.");
  await expect(team.getByTestId("team-member").filter({ hasText: member })).toContainText("Pending");
  await expectNoSidewaysScroll(page, "the teams page");

  await page.goto(`${app.baseUrl}/dashboard/drops/${drop.slug}?tab=share`);
  const share = page.getByRole("region", { name: "Share" });
  const addTeam = share.getByRole("form", { name: "Add a team" });
  await addTeam.getByLabel("Team").selectOption({ label: `Crew ${w}` });
  await addTeam.getByRole("button", { name: "Add team" }).click();
  await expect(addTeam.getByRole("status")).toHaveText("Added to the list.");
  const entry = share.getByTestId("share-entry").filter({ hasText: `Crew ${w}` });
  await expect(entry).toContainText("Team");
  // An editor role, through the entry's own form.
  const role = entry.getByRole("form", { name: `Role of team Crew ${w}` });
  await role.getByLabel("Role").selectOption("editor");
  await role.getByRole("button", { name: "Save role" }).click();
  await expect(role.getByRole("status")).toHaveText("Role saved.");
  const listed = await app.api(`/api/drops/${drop.slug}/members`, { token });
  expect(listed.body.members).toEqual([expect.objectContaining({ kind: "team", team_name: `Crew ${w}`, role: "editor" })]);

  // The member signs in from the drop's link and opens it; their teams page lets them leave.
  const visitor = await anonymous(browser, screen);
  await visitor.goto(drop.url);
  await expect(visitor).toHaveURL(/\/signin\?callbackUrl=/);
  await signInFromDrop(visitor, member, drop.url, drop.title);
  // An editor through the team: the drop's dashboard page, without the groups only the owner changes.
  await visitor.goto(`${app.baseUrl}/dashboard/drops/${drop.slug}`);
  await expect(visitor.getByTestId("drop-title")).toHaveText(drop.title);
  await expect(visitor.getByRole("navigation", { name: "Drop sections" }).getByRole("link")).toHaveText(["Versions", "Share", "Views", "Settings"]);
  await visitor.goto(`${app.baseUrl}/dashboard/teams`);
  const theirs = visitor.getByRole("region", { name: `Crew ${w}` });
  await expect(theirs).toContainText("You are a member of this team.");
  await expect(theirs.getByRole("button", { name: "Remove" })).toHaveCount(0);
  await theirs.getByRole("button", { name: "Leave team" }).click();
  await expect(visitor.getByTestId("notice")).toHaveText("You left the team. Drops shared with it no longer admit you through it.");
  expect((await visitor.goto(drop.url))?.status()).toBe(404);

  // The owner removes the team from the drop's list.
  await entry.getByRole("button", { name: "Remove" }).click();
  await expect(share.getByTestId("share-empty")).toBeVisible();
  await Promise.all([page, visitor].map((one) => one.context().close()));
});
