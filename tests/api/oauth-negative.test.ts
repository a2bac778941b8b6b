// OAuth refusals: each attack or mistake a client or a hostile page can make, against the real flow.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:net";
import { freePort, startApp, type TestApp } from "../helpers/app";
import { createTestClock, DAY_MS, MINUTE_MS, type TestClock } from "../helpers/clock";
import { CookieJar } from "../helpers/cookie-jar";
import type { Browserless } from "../helpers/device-flow";
import { authorizeOverHttp, httpsDocumentServer, pkcePair, registerClient, tokenRequest } from "../helpers/oauth";
import { signInAs } from "../helpers/session";
import { tokenThroughDeviceFlow } from "../helpers/device-flow";

const REDIRECT_URI = "http://127.0.0.1:9/callback";

let app: TestApp;
let origin: string;
let port: number;
let documents: Awaited<ReturnType<typeof httpsDocumentServer>>;
let clock: TestClock;
let browser: Browserless;
let clientId: string;
let ownerToken: string;

function newBrowser(sessionCookie?: string): Browserless {
  const jar = new CookieJar();
  if (sessionCookie) jar.store(new Response(null, { headers: [["set-cookie", sessionCookie]] }));
  return { origin, jar, client: "127.0.0.1" };
}

beforeAll(async () => {
  clock = createTestClock();
  documents = await httpsDocumentServer();
  port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  app = await startApp({ env: { PORT: String(port), PUBLIC_URL: origin, HTMLDROP_TEST_CLOCK_FILE: clock.file, NODE_EXTRA_CA_CERTS: documents.certFile } });
  browser = newBrowser(await signInAs(app, "grace"));
  // An agent's token for the same account, to read its grants.
  ownerToken = await tokenThroughDeviceFlow(app, { ...browser, client: undefined });
  clientId = await registerClient(origin, { client_name: "Negative Tests", redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"] });
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await documents?.close();
});

type Authorization = { code: string; verifier: string; resource: string };

/** A refusal before the human answered: htmldrop's own page, nothing sent to the client's redirect URI. */
async function expectErrorPage(outcome: { redirect: URL | null; last: Response }, error: string): Promise<void> {
  expect(outcome.redirect).toBeNull();
  expect(outcome.last.headers.get("location")).toBeNull();
  expect(outcome.last.status).toBeGreaterThanOrEqual(400);
  const page = await outcome.last.text();
  expect(page).toContain("This app could not connect to htmldrop");
  expect(page).toContain(`<code>${error}</code>`);
}

/** An authorization request from a browser with no cookies, as a link an attacker sends would be opened. */
async function anonymousAuthorize(params: Record<string, string | undefined>): Promise<Response> {
  return fetch(`${origin}${authorizationUrl(params)}`, { redirect: "manual" });
}

function authorizationUrl(params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.set(name, value);
  return `/oauth/authorize?${query}`;
}

/** Runs the authorization code flow up to the code, approving on the consent page. */
async function authorize(options: { scope?: string; resource?: string } = {}): Promise<Authorization> {
  const { verifier, challenge } = pkcePair();
  const resource = options.resource ?? `${origin}/mcp`;
  const url = authorizationUrl({ client_id: clientId, response_type: "code", redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: "S256", scope: options.scope ?? "drops:read drops:write", resource, state: "st" });
  const { redirect, last } = await authorizeOverHttp(browser, url);
  const code = redirect?.searchParams.get("code");
  if (!code) throw new Error(`no code: ${last.status} ${redirect ?? (await last.text()).slice(0, 500)}`);
  return { code, verifier, resource };
}

function exchange(authorization: Authorization, overrides: Record<string, string> = {}) {
  return tokenRequest(origin, { grant_type: "authorization_code", code: authorization.code, code_verifier: authorization.verifier, redirect_uri: REDIRECT_URI, client_id: clientId, resource: authorization.resource, ...overrides });
}

async function tokensFor(options: { scope?: string; resource?: string } = {}): Promise<{ access_token: string; refresh_token: string; scope: string }> {
  const { status, body } = await exchange(await authorize(options));
  expect(status, JSON.stringify(body)).toBe(200);
  return body as { access_token: string; refresh_token: string; scope: string };
}

async function mcp(accessToken: string, method: string, params: Record<string, unknown> = {}) {
  const response = await fetch(`${origin}/mcp`, {
    method: "POST",
    headers: { authorization: `Bearer ${accessToken}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return { status: response.status, challenge: response.headers.get("www-authenticate"), body: (await response.json()) as Record<string, any> };
}

describe("the authorization code exchange", () => {
  it("refuses a wrong PKCE verifier", async () => {
    const authorization = await authorize();
    expect(await exchange(authorization, { code_verifier: pkcePair().verifier })).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
  });

  it("refuses a code used twice, and revokes what the first use issued", async () => {
    const authorization = await authorize();
    const first = await exchange(authorization);
    expect(first.status).toBe(200);
    expect((await mcp(first.body.access_token, "tools/list")).status).toBe(200);
    expect(await exchange(authorization)).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect((await mcp(first.body.access_token, "tools/list")).status).toBe(401);
  });

  it("never redirects to a redirect URI the client did not register", async () => {
    const { challenge } = pkcePair();
    const { redirect, last } = await authorizeOverHttp(browser, authorizationUrl({ client_id: clientId, response_type: "code", redirect_uri: "http://127.0.0.1:9/elsewhere", code_challenge: challenge, code_challenge_method: "S256", resource: `${origin}/mcp` }));
    expect(redirect).toBeNull();
    expect(last.status).toBe(400);
    expect(await last.text()).toContain("redirect_uri");
  });

  it("requires PKCE S256", async () => {
    const missing = await authorizeOverHttp(browser, authorizationUrl({ client_id: clientId, response_type: "code", redirect_uri: REDIRECT_URI, resource: `${origin}/mcp`, state: "st" }));
    await expectErrorPage(missing, "invalid_request");
    const { challenge } = pkcePair();
    const plain = await authorizeOverHttp(browser, authorizationUrl({ client_id: clientId, response_type: "code", redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: "plain", resource: `${origin}/mcp` }));
    await expectErrorPage(plain, "invalid_request");
  });

  it.each([
    ["a missing", undefined],
    ["another server's", "https://evil.example/mcp"],
    ["an unprotected path's", "ROOT/p/anything"],
  ])("refuses %s resource indicator", async (_name, resource) => {
    const { challenge } = pkcePair();
    const url = authorizationUrl({ client_id: clientId, response_type: "code", redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: "S256", resource: resource?.replace("ROOT", origin), state: "st" });
    await expectErrorPage(await authorizeOverHttp(browser, url), "invalid_target");
  });
});

describe("access tokens", () => {
  it("are bound to their resource: a token for /api is refused by /mcp, and one for /mcp by /api", async () => {
    const forApi = await tokensFor({ resource: `${origin}/api` });
    const refused = await mcp(forApi.access_token, "tools/list");
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe("invalid_token");
    expect(refused.challenge).toContain(`resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`);
    expect((await app.api("/api/me", { token: forApi.access_token })).status).toBe(200);
    // The reads an API token makes in one statement with its own row, made after the access token's check.
    const { slug } = (await app.api("/api/drops", { method: "POST", token: ownerToken, body: { title: "read over OAuth", html: "<p>x</p>" } })).body;
    expect((await app.api(`/api/drops/${slug}`, { token: forApi.access_token })).body.slug).toBe(slug);
    const listed = await app.api("/api/drops?pageSize=100", { token: forApi.access_token });
    expect(listed.body.data.map((drop: { slug: string }) => drop.slug)).toEqual((await app.api("/api/drops?pageSize=100", { token: ownerToken })).body.data.map((drop: { slug: string }) => drop.slug));
    expect(listed.body.data.map((drop: { slug: string }) => drop.slug)).toContain(slug);

    const forMcp = await tokensFor();
    expect((await mcp(forMcp.access_token, "tools/list")).status).toBe(200);
    expect((await app.api("/api/me", { token: forMcp.access_token })).body.error.code).toBe("invalid_token");
  });

  it("expire after an hour", async () => {
    const { access_token } = await tokensFor();
    try {
      clock.advance(59 * 60_000);
      expect((await mcp(access_token, "tools/list")).status).toBe(200);
      clock.advance(2 * 60_000);
      const expired = await mcp(access_token, "tools/list");
      expect(expired.status).toBe(401);
      expect(expired.body.error.message).toMatch(/expired/);
    } finally {
      clock.advance(-61 * 60_000);
    }
  });

  it("of a read-only grant cannot call a write tool", async () => {
    const { access_token, scope } = await tokensFor({ scope: "drops:read" });
    expect(scope).toBe("drops:read");
    const created = await mcp(access_token, "tools/call", { name: "create_drop", arguments: { title: "no", html: "<p>no</p>" } });
    expect(created.body.result.isError).toBe(true);
    expect(created.body.result.structuredContent.error).toMatchObject({ code: "forbidden", details: { required_scope: "drops:write" } });
    const listed = await mcp(access_token, "tools/call", { name: "list_drops", arguments: {} });
    expect(listed.body.result.isError).toBeFalsy();
  });
});

describe("refresh tokens", () => {
  it("rotate, and a replayed one revokes the whole grant", async () => {
    const first = await tokensFor();
    const rotated = await tokenRequest(origin, { grant_type: "refresh_token", refresh_token: first.refresh_token, client_id: clientId });
    expect(rotated.status).toBe(200);
    expect(rotated.body.refresh_token).not.toBe(first.refresh_token);

    expect(await tokenRequest(origin, { grant_type: "refresh_token", refresh_token: first.refresh_token, client_id: clientId })).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    // The thief's replay also ends the legitimate client's tokens: nobody holds this grant any more.
    expect((await tokenRequest(origin, { grant_type: "refresh_token", refresh_token: rotated.body.refresh_token, client_id: clientId })).status).toBe(400);
    expect((await mcp(rotated.body.access_token, "tools/list")).status).toBe(401);
    const grants = (await app.api("/api/tokens", { token: ownerToken })).body as Array<{ kind: string; revoked_at: number | null }>;
    expect(grants.filter((item) => item.kind === "oauth").some((item) => item.revoked_at !== null)).toBe(true);
  });
});

describe("before the human answers", () => {
  const LANDING = "https://evil.example/landing";
  let landingClient: string;
  beforeAll(async () => {
    landingClient = await registerClient(origin, { client_name: "Landing", redirect_uris: [LANDING] });
  });

  function request(overrides: Record<string, string>) {
    return anonymousAuthorize({ client_id: landingClient, response_type: "code", redirect_uri: LANDING, code_challenge: pkcePair().challenge, code_challenge_method: "S256", resource: `${origin}/mcp`, state: "st", ...overrides });
  }

  // RFC 9700 §4.11.2: otherwise /oauth/authorize sends anyone to any registered address, no click needed.
  it.each([
    ["prompt=none", { prompt: "none" }, "login_required"],
    ["prompt=none answered by form_post", { prompt: "none", response_mode: "form_post" }, "login_required"],
    ["a malformed code_challenge", { code_challenge: "short" }, "invalid_request"],
    ["another server's resource", { resource: "https://evil.example/mcp" }, "invalid_target"],
  ])("shows the error of %s on htmldrop's page, never at the client's redirect URI", async (_name, overrides, error) => {
    await expectErrorPage({ redirect: null, last: await request(overrides) }, error);
  });

  it("refuses a request larger than 4 KiB, storing nothing", async () => {
    const interactions = async () => Number((await app.sql<{ n: unknown }>(`SELECT COUNT(*) AS "n" FROM "OAuthRecord" WHERE "model" = 'Interaction'`))[0]?.n);
    const before = await interactions();
    await expectErrorPage({ redirect: null, last: await request({ state: "s".repeat(5000) }) }, "invalid_request");
    expect(await interactions()).toBe(before);
    expect((await request({ state: "s".repeat(1000) })).status).toBe(303);
    // What is stored lasts ten minutes, on the wall clock oidc-provider keeps.
    const [latest] = await app.sql<{ at: number | string | Date }>(`SELECT MAX("expiresAt") AS "at" FROM "OAuthRecord" WHERE "model" = 'Interaction'`);
    expect(new Date(latest!.at).getTime()).toBeLessThanOrEqual(Date.now() + 600_000);
  });
});

describe("tokens minted by a connected app", () => {
  it("are revoked with the app, and listed with it as their minter", async () => {
    const { access_token } = await tokensFor({ resource: `${origin}/api`, scope: "drops:read tokens:manage" });
    const grantId = (await app.api("/api/me", { token: access_token })).body.token.id as string;
    const minted = await app.api("/api/tokens", { method: "POST", token: access_token, body: { label: "minted by the app" } });
    expect(minted.status).toBe(201);
    const grandchild = await app.api("/api/tokens", { method: "POST", token: minted.body.token, body: {} });
    expect(grandchild.status).toBe(201);
    const listed = (await app.api("/api/tokens", { token: ownerToken })).body as Array<{ id: string; minted_by?: string }>;
    expect(listed.find((item) => item.id === minted.body.id)?.minted_by).toBe(grantId);

    expect((await app.api(`/api/tokens/${grantId}`, { method: "DELETE", token: ownerToken })).status).toBe(204);
    for (const token of [minted.body.token, grandchild.body.token]) expect((await app.api("/api/me", { token })).status).toBe(401);
    expect((await app.api("/api/me", { token: ownerToken })).status).toBe(200);
  });
});

describe("the consent form", () => {
  async function pendingConsent(): Promise<string> {
    const { challenge } = pkcePair();
    const response = await fetch(`${origin}${authorizationUrl({ client_id: clientId, response_type: "code", redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: "S256", resource: `${origin}/mcp` })}`, {
      headers: { cookie: browser.jar.header() },
      redirect: "manual",
    });
    browser.jar.store(response);
    return new URL(response.headers.get("location")!, origin).pathname;
  }

  it("refuses a cross-site post, a post without Origin, and a post from another browser", async () => {
    const consent = await pendingConsent();
    const post = (headers: Record<string, string>) => fetch(`${origin}${consent}/decision`, { method: "POST", body: new URLSearchParams({ decision: "approve" }), headers, redirect: "manual" });
    expect((await post({ cookie: browser.jar.header(), origin: "https://evil.example" })).status).toBe(403);
    expect((await post({ cookie: browser.jar.header() })).status).toBe(403);
    // Signed in as the owner, but not the browser that started this authorization.
    const elsewhere = newBrowser(await signInAs(app, "grace"));
    expect((await post({ cookie: elsewhere.jar.header(), origin })).status).toBe(403);
    // None of these approved anything: the request is still pending for its own browser.
    const page = await fetch(`${origin}${consent}`, { headers: { cookie: browser.jar.header() } });
    expect(await page.text()).toContain("Approve");
  });

  it("refuses an _interaction cookie without oidc-provider's signature", async () => {
    const consent = await pendingConsent();
    const uid = consent.split("/").at(-1)!;
    const elsewhere = newBrowser(await signInAs(app, "grace"));
    for (const planted of [`_interaction=${uid}`, `_interaction=${uid}; _interaction.sig=${"A".repeat(27)}`]) {
      const cookie = `${elsewhere.jar.header()}; ${planted}`;
      expect(await (await fetch(`${origin}${consent}`, { headers: { cookie } })).text()).toContain('data-notice="otherBrowser"');
      const post = await fetch(`${origin}${consent}/decision`, { method: "POST", body: new URLSearchParams({ decision: "approve" }), headers: { cookie, origin }, redirect: "manual" });
      expect(post.status).toBe(403);
    }
    expect(await (await fetch(`${origin}${consent}`, { headers: { cookie: browser.jar.header() } })).text()).toContain("Approve");
  });

  it("never sends a code to htmldrop's own port, which a loopback client may otherwise name", async () => {
    // RFC 8252 lets a native client use any loopback port: on a loopback PUBLIC_URL, htmldrop's included.
    const ownPort = `http://127.0.0.1:${port}/callback`;
    const started = await fetch(`${origin}${authorizationUrl({ client_id: clientId, response_type: "code", redirect_uri: ownPort, code_challenge: pkcePair().challenge, code_challenge_method: "S256", resource: `${origin}/mcp` })}`, {
      headers: { cookie: browser.jar.header() },
      redirect: "manual",
    });
    browser.jar.store(started);
    const consent = new URL(started.headers.get("location")!, origin).pathname;
    const page = await (await fetch(`${origin}${consent}`, { headers: { cookie: browser.jar.header() } })).text();
    expect(page).toContain('data-notice="redirectRefused"');
    expect(page).not.toContain("Approve");
    const answered = await fetch(`${origin}${consent}/decision`, { method: "POST", body: new URLSearchParams({ decision: "approve" }), headers: { cookie: browser.jar.header(), origin }, redirect: "manual" });
    expect(answered.headers.get("location")).toBe(consent);
  });

  it("sends a denial back to the client as access_denied", async () => {
    const { challenge } = pkcePair();
    const { redirect } = await authorizeOverHttp(browser, authorizationUrl({ client_id: clientId, response_type: "code", redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: "S256", resource: `${origin}/mcp`, state: "st" }), "deny");
    expect(redirect?.searchParams.get("error")).toBe("access_denied");
    expect(redirect?.searchParams.get("state")).toBe("st");
  });
});

describe("client registration", () => {
  it.each([
    ["http to a non-loopback host", ["http://example.com/callback"], 400],
    ["https", ["https://app.example/callback"], 201],
    ["loopback http", ["http://127.0.0.1:33418/callback"], 201],
    ["an app scheme", ["cursor://anysphere.cursor-retrieval/oauth/callback"], 201],
    ["no redirect URI", [], 400],
  ])("dynamic registration with %s redirect", async (_name, redirectUris, status) => {
    const response = await fetch(`${origin}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: "x", redirect_uris: redirectUris, token_endpoint_auth_method: "none" }) });
    expect(response.status).toBe(status);
    if (status === 400) expect(((await response.json()) as { error: string }).error).toMatch(/^invalid_(redirect_uri|client_metadata)$/);
  });

  it("refuses redirect URIs on htmldrop's own origin, whatever the path or loopback name", async () => {
    for (const uri of [`${origin}/p/abcdefgh/raw`, `${origin}/`, `http://localhost:${port}/callback`, `http://[::1]:${port}/cb`]) {
      const response = await fetch(`${origin}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: "htmldrop Sync", redirect_uris: [uri] }) });
      expect(response.status, uri).toBe(400);
      expect(await response.json()).toMatchObject({ error: "invalid_redirect_uri" });
    }
  });

  it("refuses a Client ID Metadata Document whose redirect URI is on htmldrop's own origin", async () => {
    const metadataUrl = `${documents.origin}/own-origin.json`;
    const redirectUri = `${origin}/p/abcdefgh/raw`;
    documents.documents.set("/own-origin.json", { client_id: metadataUrl, client_name: "htmldrop Sync", redirect_uris: [redirectUri], token_endpoint_auth_method: "none" });
    const response = await anonymousAuthorize({ client_id: metadataUrl, response_type: "code", redirect_uri: redirectUri, code_challenge: pkcePair().challenge, code_challenge_method: "S256", resource: `${origin}/mcp` });
    await expectErrorPage({ redirect: null, last: response }, "invalid_client");
  });

  it.each([
    ["a 201-character client_name", { client_name: "n".repeat(201) }],
    ["11 redirect URIs", { redirect_uris: Array.from({ length: 11 }, (_, index) => `https://app.example/cb${index}`) }],
    ["a 1,001-character client_uri", { client_uri: `https://app.example/${"a".repeat(981)}` }],
    ["a record over 8 KiB", { redirect_uris: Array.from({ length: 10 }, (_, index) => `https://app.example/${index}${"a".repeat(880)}`) }],
  ])("refuses a registration with %s", async (_name, fields) => {
    const response = await fetch(`${origin}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: "Large", redirect_uris: [REDIRECT_URI], ...fields }) });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "invalid_client_metadata" });
  });

  it("forgets a client nobody approved within a day, and keeps an approved one", async () => {
    const unapproved = await registerClient(origin, { client_name: "n".repeat(200), redirect_uris: Array.from({ length: 10 }, (_, index) => `http://127.0.0.1:9/cb${index}`) });
    const request = (id: string) => anonymousAuthorize({ client_id: id, response_type: "code", redirect_uri: "http://127.0.0.1:9/cb0", code_challenge: pkcePair().challenge, code_challenge_method: "S256", resource: `${origin}/mcp` });
    expect((await request(unapproved)).status).toBe(303);
    clock.advance(DAY_MS + MINUTE_MS);
    try {
      await expectErrorPage({ redirect: null, last: await request(unapproved) }, "invalid_client");
      // clientId was approved by the tests above.
      const approved = await anonymousAuthorize({ client_id: clientId, response_type: "code", redirect_uri: REDIRECT_URI, code_challenge: pkcePair().challenge, code_challenge_method: "S256", resource: `${origin}/mcp` });
      expect(approved.status).toBe(303);
    } finally {
      clock.advance(-(DAY_MS + MINUTE_MS));
    }
  });

  it("makes a client that names no token endpoint method public, with no secret it could never use", async () => {
    const response = await fetch(`${origin}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: "Silent", redirect_uris: [REDIRECT_URI] }) });
    expect(response.status).toBe(201);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body.token_endpoint_auth_method).toBe("none");
    expect(body).not.toHaveProperty("client_secret");
  });

  it("lets a client in a web page register and redeem codes across origins", async () => {
    const pageOrigin = "http://localhost:6274";
    const preflight = await fetch(`${origin}/oauth/register`, { method: "OPTIONS", headers: { origin: pageOrigin, "access-control-request-method": "POST", "access-control-request-headers": "content-type" } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-headers")).toBe("content-type");
    const registered = await fetch(`${origin}/oauth/register`, { method: "POST", headers: { origin: pageOrigin, "content-type": "application/json" }, body: JSON.stringify({ client_name: "In a page", redirect_uris: [`${pageOrigin}/oauth/callback`] }) });
    expect(registered.status).toBe(201);
    expect(registered.headers.get("access-control-allow-origin")).toBe("*");
    const tokenPreflight = await fetch(`${origin}/oauth/token`, { method: "OPTIONS", headers: { origin: pageOrigin, "access-control-request-method": "POST" } });
    expect(tokenPreflight.status).toBe(204);
    expect(tokenPreflight.headers.get("access-control-allow-origin")).toBe(pageOrigin);
  });

  it("refuses confidential clients: PKCE is the only proof a public client has", async () => {
    const response = await fetch(`${origin}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "client_secret_basic" }) });
    expect(response.status).toBe(400);
  });

  it("lets a native client use any loopback port", async () => {
    const { verifier, challenge } = pkcePair();
    const otherPort = "http://127.0.0.1:4711/callback";
    const { redirect } = await authorizeOverHttp(browser, authorizationUrl({ client_id: clientId, response_type: "code", redirect_uri: otherPort, code_challenge: challenge, code_challenge_method: "S256", scope: "drops:read", resource: `${origin}/mcp` }));
    expect(redirect?.origin).toBe("http://127.0.0.1:4711");
    const code = redirect!.searchParams.get("code")!;
    expect((await tokenRequest(origin, { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: otherPort, client_id: clientId, resource: `${origin}/mcp` })).status).toBe(200);
  });
});

/** A TCP listener on 127.0.0.1 and ::1 (one port) that counts connections and hangs up. */
async function countingListener(): Promise<{ port: number; connections(): number; close(): Promise<void> }> {
  let connections = 0;
  const servers: Server[] = [];
  const listenOn = (host: string, listenPort: number) =>
    new Promise<number>((resolve, reject) => {
      const server = createServer((socket) => {
        connections++;
        socket.destroy();
      });
      servers.push(server);
      server.once("error", reject).listen(listenPort, host, () => resolve((server.address() as { port: number }).port));
    });
  const listenerPort = await listenOn("127.0.0.1", 0);
  await listenOn("::1", listenerPort);
  return { port: listenerPort, connections: () => connections, close: async () => void (await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))))) };
}

describe("in production", () => {
  const PUBLIC_URL = "https://drops.example.test";
  let production: TestApp;
  let productionOrigin: string;
  let listener: Awaited<ReturnType<typeof countingListener>>;
  beforeAll(async () => {
    listener = await countingListener();
    production = await startApp({
      env: { PUBLIC_URL, CONTENT_ORIGIN: "https://usercontent.example.test", AUTH_SECRET: "s".repeat(32), TOKEN_PEPPER: "p".repeat(32), NODE_EXTRA_CA_CERTS: documents.certFile },
    });
    productionOrigin = `http://127.0.0.1:${production.env.PORT}`;
  }, 120_000);
  afterAll(async () => {
    await production?.stop();
    await listener?.close();
  });

  function metadataDocumentRequest(metadataUrl: string): Promise<Response> {
    const query = new URLSearchParams({ client_id: metadataUrl, response_type: "code", redirect_uri: "https://app.example/cb", code_challenge: pkcePair().challenge, code_challenge_method: "S256", resource: `${PUBLIC_URL}/mcp` });
    return fetch(`${productionOrigin}/oauth/authorize?${query}`, { redirect: "manual" });
  }

  it("refuses redirect URIs on PUBLIC_URL's and CONTENT_ORIGIN's origins", async () => {
    const register = (uri: string) => fetch(`${productionOrigin}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: "htmldrop Sync", redirect_uris: [uri] }) });
    for (const uri of [`${PUBLIC_URL}/p/abcdefgh/raw`, "https://usercontent.example.test/p/abcdefgh/raw", "https://USERCONTENT.example.test./anything", "https://drops.example.test:443/"]) {
      const response = await register(uri);
      expect(response.status, uri).toBe(400);
      expect(await response.json()).toMatchObject({ error: "invalid_redirect_uri" });
    }
    expect((await register("https://app.example/cb")).status).toBe(201);
  });

  it("never fetches a Client ID Metadata Document from a private or loopback address", async () => {
    const metadataUrl = `${documents.origin}/private.json`;
    documents.documents.set("/private.json", { client_id: metadataUrl, client_name: "Private", redirect_uris: ["https://app.example/cb"], token_endpoint_auth_method: "none" });
    const response = await metadataDocumentRequest(metadataUrl);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("invalid_client");
    expect(documents.requests).not.toContain("/private.json");
  });

  it("checks the address before connecting: a loopback listener sees no connection at all", async () => {
    for (const host of ["127.0.0.1", "localhost", "[::1]", "[::ffff:127.0.0.1]"]) {
      const response = await metadataDocumentRequest(`https://${host}:${listener.port}/client.json`);
      expect(response.status, host).toBe(400);
      expect(await response.text()).toContain("invalid_client");
    }
    expect(listener.connections()).toBe(0);
  });
});

// Last in the file: they spend this address's budgets for the minute.
describe("rate limits per address", () => {
  it.each([
    ["client registrations", 20, () => fetch(`${origin}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: "Flood", redirect_uris: [REDIRECT_URI] }) })],
    ["token requests", 120, () => fetch(`${origin}/oauth/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ grant_type: "authorization_code", code: "x".repeat(43), code_verifier: "v".repeat(43), client_id: clientId, redirect_uri: REDIRECT_URI }) })],
  ])("stop a flood of %s with 429 in OAuth's error format", async (_name, limit, send) => {
    // Up to twice the budget: a minute boundary in the middle of the loop resets the count once.
    let refused: Response | undefined;
    for (let sent = 0; sent < 2 * limit + 1 && !refused; sent++) {
      const response = await send();
      if (response.status === 429) refused = response;
      else await response.body?.cancel();
    }
    expect(refused, `no 429 after ${2 * limit + 1} requests`).toBeDefined();
    expect(Number(refused!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused!.json()).toMatchObject({ error: "temporarily_unavailable", error_description: expect.stringContaining(`at most ${limit} per minute`) });
  });

  it("stop a flood of anonymous authorization requests with 429 on htmldrop's page", async () => {
    const limit = 60;
    let refused: Response | undefined;
    for (let sent = 0; sent < 2 * limit + 1 && !refused; sent++) {
      const response = await anonymousAuthorize({ client_id: clientId, response_type: "code", redirect_uri: REDIRECT_URI, code_challenge: pkcePair().challenge, code_challenge_method: "S256", resource: `${origin}/mcp` });
      if (response.status === 429) refused = response;
      else await response.body?.cancel();
    }
    expect(refused, `no 429 after ${2 * limit + 1} requests`).toBeDefined();
    expect(Number(refused!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused!.text()).toContain(`at most ${limit} per minute`);
  });
});
