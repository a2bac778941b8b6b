// "Connect by URL": the MCP SDK's own client, given only the /mcp URL, discovers htmldrop's
// authorization server, registers (Client ID Metadata Document, then dynamic registration), sends the
// human to the consent page, which Chromium approves, and then works, refreshes and is revoked.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { chromium, type Browser, type BrowserContext } from "@playwright/test";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { freePort, startApp, type TestApp } from "../helpers/app";
import { chromiumLaunchOptions } from "../helpers/chromium";
import { httpsDocumentServer, MemoryClientProvider, redirectCatcher, tokenRequest } from "../helpers/oauth";
import { signInBrowserless, tokenThroughDeviceFlow } from "../helpers/device-flow";

/** A step that hangs fails by its own name within this, well inside the test's timeout. */
const STEP_MS = 20_000;
let app: TestApp;
let origin: string;
let browser: Browser;
let context: BrowserContext;
let documents: Awaited<ReturnType<typeof httpsDocumentServer>>;
let catcher: Awaited<ReturnType<typeof redirectCatcher>>;
let adaToken: string;

beforeAll(async () => {
  documents = await httpsDocumentServer();
  catcher = await redirectCatcher();
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  // The server trusts the test's self-signed certificate, as it would a real client's https host.
  app = await startApp({ env: { PORT: String(port), PUBLIC_URL: origin, NODE_EXTRA_CA_CERTS: documents.certFile } });
  // The human who approves, and an agent's token for the same account to check what the app did.
  const session = await signInBrowserless(app, "ada");
  adaToken = await tokenThroughDeviceFlow(app, session);
  browser = await chromium.launch(chromiumLaunchOptions);
  context = await browser.newContext();
  context.setDefaultTimeout(STEP_MS);
  await context.addCookies([{ name: "next-auth.session-token", value: session.jar.get("next-auth.session-token")!, url: origin }]);
}, 120_000);

afterEach((test) => {
  if (test.task.result?.state === "fail") console.error(`app logs:\n${app.logs()}`);
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await documents?.close();
  await catcher?.close();
});

const clientMetadata = (name: string) => ({
  client_name: name,
  redirect_uris: [catcher.url],
  grant_types: ["authorization_code", "refresh_token"],
  response_types: ["code"],
  token_endpoint_auth_method: "none",
});

/** The SDK's requests carry no timeout; this one names the request whose response does not start in time. */
const fetchWithDeadline: typeof fetch = async (input, init) => {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`no response in ${STEP_MS} ms: ${init?.method ?? "GET"} ${String(input)}`)), STEP_MS);
  init?.signal?.addEventListener("abort", () => controller.abort(init.signal?.reason));
  try {
    return await fetch(input, { ...init, signal: controller.signal });
  } finally {
    clearTimeout(timer);
  }
};

/** The SDK waits 60 s for an answer by default, as long as the whole test. */
const mcpStep = { timeout: STEP_MS };

function transport(provider: MemoryClientProvider): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { authProvider: provider, fetch: fetchWithDeadline });
}

/** Names the step that hangs: some (opening a page, closing one) have no deadline of their own. */
async function step<T>(name: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`step "${name}" took over ${STEP_MS} ms`)), STEP_MS)));
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** What a person does in the browser the client opened: read the consent page, approve. */
async function approveInBrowser(provider: MemoryClientProvider, expectedName: string): Promise<URLSearchParams> {
  expect(provider.authorizationUrl, "the client was sent to the authorization page").toBeDefined();
  const page = await step("open a page", context.newPage());
  try {
    await step("open the consent page", page.goto(provider.authorizationUrl!.href));
    expect(await page.getByTestId("client-name").textContent()).toBe(expectedName);
    expect(await page.getByTestId("redirect-target").textContent()).toBe(new URL(catcher.url).host);
    expect(await page.locator("[data-scope]").evaluateAll((items) => items.map((item) => item.getAttribute("data-scope")))).toEqual(["drops:read", "drops:write", "tokens:manage"]);
    const before = catcher.received.length;
    await step("approve", page.getByRole("button", { name: "Approve" }).click());
    // Closing a page in the middle of a navigation can hang Chromium under load: let it arrive first.
    await step("arrive at the client's redirect", page.waitForURL((url) => url.href.startsWith(catcher.url), { waitUntil: "load" }));
    expect(catcher.received).toHaveLength(before + 1);
    return catcher.received.at(-1)!;
  } finally {
    await step("close the page", page.close());
  }
}

/** Connects the way Claude, ChatGPT or the Inspector do: only the URL, then the human approves once. */
async function connectByUrl(provider: MemoryClientProvider, name: string): Promise<Client> {
  const first = transport(provider);
  await expect(step("connect without a token", new Client({ name, version: "1.0.0" }).connect(first, mcpStep))).rejects.toBeInstanceOf(UnauthorizedError);
  const redirect = await approveInBrowser(provider, name);
  // RFC 9207: the authorization response names its issuer.
  expect(redirect.get("iss")).toBe(origin);
  await step("exchange the code", first.finishAuth(redirect.get("code")!));
  const client = new Client({ name, version: "1.0.0" });
  await step("connect with the token", client.connect(transport(provider), mcpStep));
  return client;
}

async function createDropThrough(client: Client, title: string): Promise<string> {
  const result = await client.callTool({ name: "create_drop", arguments: { title, html: `<h1>${title}</h1>` } }, undefined, mcpStep);
  expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy();
  return (result.structuredContent as { slug: string }).slug;
}

describe("connect by URL", () => {
  it("a client with a Client ID Metadata Document connects, creates a drop, refreshes, and a dashboard revoke ends it", async () => {
    const clientId = `${documents.origin}/clients/htmldrop-test.json`;
    documents.documents.set("/clients/htmldrop-test.json", { client_id: clientId, ...clientMetadata("Metadata Document Client") });
    const provider = new MemoryClientProvider(catcher.url, clientMetadata("Metadata Document Client"), clientId);

    const client = await connectByUrl(provider, "Metadata Document Client");
    expect(provider.client?.client_id).toBe(clientId);
    expect(documents.requests).toContain("/clients/htmldrop-test.json");
    const { tools } = await client.listTools(undefined, mcpStep);
    expect(tools.map((tool) => tool.name)).toContain("create_drop");
    const slug = await createDropThrough(client, "Made over OAuth");
    // The drop landed in the account of the human who approved.
    expect((await app.api(`/api/drops/${slug}`, { token: adaToken })).status).toBe(200);

    // Refresh: the server stops accepting the access token; the SDK refreshes and retries on its own.
    const firstTokens = provider.savedTokens!;
    provider.saveTokens({ ...firstTokens, access_token: "A".repeat(64) });
    expect((await client.listTools(undefined, mcpStep)).tools.length).toBe(tools.length);
    expect(provider.savedTokens!.access_token).not.toBe(firstTokens.access_token);
    expect(provider.savedTokens!.refresh_token, "refresh tokens rotate").not.toBe(firstTokens.refresh_token);

    // The grant is listed with the app's name, and revoking it on the dashboard ends access.
    const listed = (await app.api("/api/tokens", { token: adaToken })).body as Array<{ id: string; kind: string; label: string; client_id?: string; last_used_at: number | null }>;
    const grant = listed.find((item) => item.kind === "oauth" && item.client_id === clientId);
    expect(grant).toMatchObject({ label: "Metadata Document Client" });
    expect(grant!.last_used_at).not.toBeNull();
    const page = await context.newPage();
    await page.goto(`${origin}/dashboard/tokens`);
    const row = page.locator(`[data-token-id="${grant!.id}"]`);
    await row.getByText("Revoke…").click();
    await row.getByRole("button", { name: `Yes, revoke ${grant!.id}` }).click();
    await page.waitForURL(/notice=tokenRevoked/);
    await page.close();

    const revokedTokens = provider.savedTokens!;
    await expect(client.listTools(undefined, mcpStep)).rejects.toThrow();
    // Both the access token and the refresh token died with the grant: the human must approve again.
    const direct = await fetch(`${origin}/mcp`, { method: "POST", headers: { authorization: `Bearer ${revokedTokens.access_token}`, "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });
    expect(direct.status).toBe(401);
    const refreshed = await tokenRequest(origin, { grant_type: "refresh_token", refresh_token: revokedTokens.refresh_token!, client_id: clientId });
    expect(refreshed).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    const after = (await app.api("/api/tokens", { token: adaToken })).body as Array<{ id: string; revoked_at: number | null }>;
    expect(after.find((item) => item.id === grant!.id)?.revoked_at).not.toBeNull();
  });

  it("a client without a metadata document registers dynamically and connects", async () => {
    const provider = new MemoryClientProvider(catcher.url, clientMetadata("Dynamic Registration Client"));
    const client = await connectByUrl(provider, "Dynamic Registration Client");
    expect(provider.client?.client_id).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const slug = await createDropThrough(client, "Made by a registered client");
    expect((await app.api(`/api/drops/${slug}`, { token: adaToken })).status).toBe(200);
    const whoami = await client.callTool({ name: "whoami", arguments: {} }, undefined, mcpStep);
    expect(whoami.structuredContent).toMatchObject({ token: { label: "Dynamic Registration Client" } });
  });
});
