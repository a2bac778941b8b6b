// Issue 30: an org boundary (ORG_EMAIL_DOMAINS, ORG_OIDC_CLAIM) and invitations by email, signed in
// through a real OpenID Connect provider whose accounts have verified emails and groups.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startApp, type TestApp } from "../helpers/app";
import { signInThroughProvider, startIdentityProvider, type IdentityProvider } from "../helpers/identity-provider";

let app: TestApp;
let provider: IdentityProvider;
let owner: string;
const page = "<!doctype html><html><head><title>t</title></head><body>org</body></html>";

beforeAll(async () => {
  const port = await freePort();
  provider = await startIdentityProvider(await freePort(), `http://localhost:${port}`);
  app = await startApp({ env: { PORT: String(port), ...provider.env, ORG_EMAIL_DOMAINS: "corp.test", ORG_OIDC_CLAIM: "groups=staff" } });
  owner = await app.createToken("olive");
});
afterAll(async () => {
  await app?.stop();
  await provider?.close();
});

async function drop(access: string): Promise<string> {
  const created = await app.api("/api/drops", { method: "POST", token: owner, body: { title: access, html: page, access } });
  expect(created.status, created.text).toBe(201);
  return created.body.slug;
}

const open = async (slug: string, session: string) => (await fetch(`http://127.0.0.1:${app.env.PORT}/p/${slug}`, { headers: { cookie: session }, redirect: "manual" })).status;

describe("an org boundary", () => {
  it("admits to a signed_in drop the org's people (by verified email domain or by claim), and nobody else signed in", async () => {
    const slug = await drop("signed_in");
    const [carol, sam, mallory] = await Promise.all(["carol@corp.test", "staff-sam@elsewhere.test", "mallory@elsewhere.test"].map((login) => signInThroughProvider(app, login)));
    expect(await open(slug, carol!)).toBe(200);
    expect(await open(slug, sam!)).toBe(200);
    expect(await open(slug, mallory!)).toBe(404);
  });

  it("lets only the org's people be editors", async () => {
    const slug = await drop("restricted");
    const outsider = await app.api(`/api/drops/${slug}/members`, { method: "POST", token: owner, body: { email: "eve@elsewhere.test", role: "editor" } });
    expect(outsider.status).toBe(400);
    expect(outsider.body.error).toMatchObject({ code: "invalid_arg", details: { fields: [{ field: "role" }] } });
    expect((await app.api(`/api/drops/${slug}/members`, { method: "POST", token: owner, body: { email: "eve@elsewhere.test", role: "viewer" } })).status).toBe(201);
    expect((await app.api(`/api/drops/${slug}/members`, { method: "POST", token: owner, body: { email: "erin@corp.test", role: "editor" } })).status).toBe(201);
  });
});

describe("an invitation by email", () => {
  it("waits for the first sign-in with that verified address, then admits that account alone", async () => {
    const slug = await drop("restricted");
    const invited = await app.api(`/api/drops/${slug}/members`, { method: "POST", token: owner, body: { email: "Dan@Corp.test", role: "viewer" } });
    expect(invited.status, invited.text).toBe(201);
    expect(invited.body).toMatchObject({ kind: "person", email: "dan@corp.test", pending: true });
    // Someone else of the org, signed in before Dan, finds nothing.
    expect(await open(slug, await signInThroughProvider(app, "dave@corp.test"))).toBe(404);
    expect(await open(slug, await signInThroughProvider(app, "dan@corp.test"))).toBe(200);
    const list = await app.api(`/api/drops/${slug}/members`, { token: owner });
    expect(list.body.members).toEqual([expect.objectContaining({ id: invited.body.id, login: "dan", pending: false })]);
  });
});
