// OAuth test kit: an MCP SDK client-side provider kept in memory, a loopback listener that catches
// authorization redirects, an https server for Client ID Metadata Documents, and the authorization
// code flow driven over plain HTTP as a browser without JavaScript would.
import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { Browserless } from "./device-flow";

export class MemoryClientProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  savedTokens: OAuthTokens | undefined;
  authorizationUrl: URL | undefined;
  private verifier = "";

  constructor(
    readonly redirectUrl: string,
    readonly clientMetadata: OAuthClientMetadata,
    readonly clientMetadataUrl?: string,
  ) {}

  clientInformation() {
    return this.client;
  }
  saveClientInformation(client: OAuthClientInformationMixed) {
    this.client = client;
  }
  tokens() {
    return this.savedTokens;
  }
  saveTokens(tokens: OAuthTokens) {
    this.savedTokens = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

function listen(server: Server, host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve) => server.listen(0, host, () => resolve((server.address() as AddressInfo).port)));
}

/** A native app's loopback redirect listener: records each redirect's query. */
export async function redirectCatcher(): Promise<{ url: string; received: URLSearchParams[]; close(): Promise<void> }> {
  const received: URLSearchParams[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    // Browsers also ask for /favicon.ico.
    if (url.pathname === "/callback") received.push(url.searchParams);
    response.end("You can close this window.");
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}/callback`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * An https server on 127.0.0.1 with a throwaway self-signed certificate; the app under test trusts it
 * through NODE_EXTRA_CA_CERTS=certFile. Serves JSON documents by path and counts requests.
 */
export async function httpsDocumentServer(): Promise<{ certFile: string; origin: string; documents: Map<string, unknown>; requests: string[]; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "htmldrop-cimd-"));
  const [keyFile, certFile] = [join(dir, "key.pem"), join(dir, "cert.pem")];
  execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", keyFile, "-out", certFile, "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"], { stdio: "ignore" });
  const documents = new Map<string, unknown>();
  const requests: string[] = [];
  const server = createHttpsServer({ key: readFileSync(keyFile), cert: readFileSync(certFile) }, (request, response) => {
    const path = request.url ?? "/";
    requests.push(path);
    const document = documents.get(path);
    response.writeHead(document ? 200 : 404, { "content-type": "application/json" });
    response.end(JSON.stringify(document ?? { error: "not found" }));
  });
  const port = await listen(server);
  return { certFile, origin: `https://127.0.0.1:${port}`, documents, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

async function send(session: Browserless, url: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const cookie = session.jar.header();
  if (cookie) headers.set("cookie", cookie);
  const response = await fetch(new URL(url, session.origin), { ...init, headers, redirect: "manual" });
  session.jar.store(response);
  return response;
}

/**
 * Follows an authorization URL to the consent page, answers it, and follows the redirects back to the
 * client. Returns the final redirect (to the client's redirect URI), or the response that stopped the walk.
 */
/** An authorization request as an MCP client builds it: PKCE S256, the /mcp resource, one scope, a state. */
export function mcpAuthorizationRequest(origin: string, clientId: string, redirectUri: string, state: string): { url: string; verifier: string } {
  const { verifier, challenge } = pkcePair();
  const query = new URLSearchParams({
    client_id: clientId,
    response_type: "code",
    redirect_uri: redirectUri,
    scope: "drops:read",
    resource: `${origin}/mcp`,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state,
  });
  return { url: `${origin}/oauth/authorize?${query}`, verifier };
}

export async function authorizeOverHttp(session: Browserless, authorizationUrl: string, decision: "approve" | "deny" = "approve"): Promise<{ redirect: URL | null; last: Response; consentHtml: string }> {
  let response = await send(session, authorizationUrl);
  let consentHtml = "";
  for (let hops = 0; hops < 6; hops++) {
    const location = response.headers.get("location");
    if (!location) break;
    const next = new URL(location, session.origin);
    if (next.origin !== new URL(session.origin).origin) return { redirect: next, last: response, consentHtml };
    if (/^\/oauth\/consent\/[^/]+$/.test(next.pathname)) {
      consentHtml = await (await send(session, next.href)).text();
      response = await send(session, `${next.href}/decision`, { method: "POST", body: new URLSearchParams({ decision }), headers: { origin: new URL(session.origin).origin } });
    } else {
      response = await send(session, next.href);
    }
  }
  return { redirect: null, last: response, consentHtml };
}

/** Dynamic registration of a public client; returns its client_id. */
export async function registerClient(origin: string, metadata: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${origin}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(metadata) });
  const body = (await response.json()) as { client_id?: string };
  if (response.status !== 201 || !body.client_id) throw new Error(`registration failed: ${response.status} ${JSON.stringify(body)}`);
  return body.client_id;
}

export async function tokenRequest(origin: string, form: Record<string, string>): Promise<{ status: number; body: Record<string, any> }> {
  const response = await fetch(`${origin}/oauth/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(form) });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}
