import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import { getConfig } from "@/lib/config";
import { isDatabaseOutage } from "@/lib/db/outage";
import { ApiError } from "@/lib/errors";
import { assertRateLimit, type RateLimitPolicyName } from "@/lib/ratelimit";
import { clientKeyFromHeaders } from "@/lib/ratelimit/client-key";
import { clientMetadataSizeProblem, defaultApplicationType, publicClientRedirectProblem } from "./client-policy";
import { ERROR_PAGE_HEADERS, oauthErrorPage } from "./error-page";
import { oauthProvider } from "./provider";

/** OAuth requests are small forms and JSON; anything larger is refused before oidc-provider sees it. */
const MAX_OAUTH_BODY_BYTES = 64 * 1024;

/** The POSTs that spend a budget of the caller's address; the other routes are answered by oidc-provider alone. */
const RATE_LIMITED_POSTS: Record<string, RateLimitPolicyName> = {
  "/oauth/register": "oauthRegistrations",
  "/oauth/token": "oauthTokenRequests",
};

const REGISTRATION_PATH = "/oauth/register";
const AUTHORIZATION_PATH = "/oauth/authorize";
/**
 * An anonymous authorization request stores its parameters (state included) as an interaction for ten
 * minutes; real ones are a few hundred bytes. Counted over the query and a POSTed form together.
 */
const MAX_AUTHORIZATION_PARAMS_BYTES = 4096;
// Registration is open to anyone and sends no cookie, so any origin may call it. Browser-based clients
// (the MCP Inspector's direct mode) register before they have a redirect origin to be checked against;
// oidc-provider itself answers CORS for the token and revocation endpoints, by the client's redirect origins.
const REGISTRATION_CORS = { "access-control-allow-origin": "*" };

function oauthError(status: number, error: string, description: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ error, error_description: description }), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers },
  });
}

function registrationPreflight(request: Request): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...REGISTRATION_CORS,
      "access-control-allow-methods": "POST",
      "access-control-allow-headers": request.headers.get("access-control-request-headers") ?? "content-type",
      "access-control-max-age": "600",
    },
  });
}

async function readCappedBody(request: Request): Promise<Buffer | null> {
  if (!request.body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > MAX_OAUTH_BODY_BYTES) return null;
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/**
 * Dynamic registration (RFC 7591) gets htmldrop's redirect rule for public clients before oidc-provider
 * validates the rest; a loopback or app-scheme client becomes "native", and a client that names no token
 * endpoint method becomes public, unless it said otherwise.
 */
function screenRegistration(body: Buffer): Buffer | Response {
  let metadata: unknown;
  try {
    metadata = JSON.parse(body.toString("utf8"));
  } catch {
    return oauthError(400, "invalid_client_metadata", "the registration body must be a JSON object");
  }
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) {
    return oauthError(400, "invalid_client_metadata", "the registration body must be a JSON object");
  }
  const fields = metadata as Record<string, unknown>;
  const tooLarge = clientMetadataSizeProblem(fields);
  if (tooLarge) return oauthError(400, "invalid_client_metadata", tooLarge);
  const redirectUris = Array.isArray(fields.redirect_uris) ? fields.redirect_uris.filter((uri): uri is string => typeof uri === "string") : [];
  const problem = publicClientRedirectProblem(redirectUris);
  if (problem) return oauthError(400, "invalid_redirect_uri", problem);
  // "none" is the only method offered; said explicitly, oidc-provider no longer mints a secret nobody can use.
  return Buffer.from(JSON.stringify({ application_type: defaultApplicationType(redirectUris), token_endpoint_auth_method: "none", ...fields }));
}

const HANDLER_KEY = Symbol.for("htmldrop.oauthHandler");
type HandlerHolder = { [HANDLER_KEY]?: ReturnType<ReturnType<typeof oauthProvider>["callback"]> };

function providerHandler() {
  const holder = globalThis as HandlerHolder;
  return (holder[HANDLER_KEY] ??= oauthProvider().callback());
}

/**
 * Runs oidc-provider (a Koa application written for node:http) inside a route handler: the Web Request
 * becomes an IncomingMessage, the ServerResponse is collected into a Web Response. Host and scheme come
 * from PUBLIC_URL, never from the client, so every URL oidc-provider builds names the public origin.
 */
async function runOAuthProvider(request: Request, path: string): Promise<Response> {
  const incomingUrl = new URL(request.url);
  if (path === REGISTRATION_PATH && request.method === "OPTIONS") return registrationPreflight(request);
  const budget = path === AUTHORIZATION_PATH ? "oauthAuthorizations" : request.method === "POST" ? RATE_LIMITED_POSTS[path] : undefined;
  if (budget) await assertRateLimit(budget, clientKeyFromHeaders(request.headers));
  let body = await readCappedBody(request);
  if (body === null) return oauthError(413, "invalid_request", `OAuth request bodies are at most ${MAX_OAUTH_BODY_BYTES} bytes`);
  if (path === AUTHORIZATION_PATH && incomingUrl.search.length + body.length > MAX_AUTHORIZATION_PARAMS_BYTES) {
    // Shown to the person, not sent to the client's redirect URI: nothing has been approved.
    return new Response(oauthErrorPage("invalid_request", `The app's authorization request is larger than ${MAX_AUTHORIZATION_PARAMS_BYTES} bytes.`), { status: 400, headers: ERROR_PAGE_HEADERS });
  }
  if (request.method === "POST" && path === REGISTRATION_PATH) {
    const screened = screenRegistration(body);
    if (screened instanceof Response) return screened;
    body = screened;
  }

  const publicUrl = new URL(getConfig().publicUrl);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    if (!name.startsWith("x-forwarded-")) headers[name] = value;
  });
  headers.host = publicUrl.host;
  headers["x-forwarded-proto"] = publicUrl.protocol.slice(0, -1);
  headers["content-length"] = String(body.length);

  const req = new IncomingMessage(new Socket());
  req.method = request.method;
  req.url = path + incomingUrl.search;
  req.headers = headers;
  if (body.length > 0) req.push(body);
  req.push(null);

  const res = new ServerResponse(req);
  const chunks: Buffer[] = [];
  const collect = (chunk: unknown, encoding?: unknown) => {
    if (chunk !== undefined && chunk !== null && typeof chunk !== "function") {
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8"));
    }
  };
  return new Promise<Response>((resolve, reject) => {
    res.write = ((chunk: unknown, encoding?: unknown) => {
      collect(chunk, encoding);
      return true;
    }) as typeof res.write;
    res.end = ((chunk?: unknown, encoding?: unknown) => {
      collect(chunk, encoding);
      const responseHeaders = new Headers();
      for (const [name, value] of Object.entries(res.getHeaders())) {
        for (const item of Array.isArray(value) ? value : [value]) responseHeaders.append(name, String(item));
      }
      const status = res.statusCode;
      resolve(new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), { status, headers: responseHeaders }));
      return res;
    }) as typeof res.end;
    Promise.resolve(providerHandler()(req, res)).catch(reject);
  });
}

/**
 * The route handlers' entry: oidc-provider answers in OAuth's own error format, so a failure here
 * (the database down, a bug) is answered in that format too, never with a stack trace.
 */
export async function oauthRoute(request: Request, path = new URL(request.url).pathname): Promise<Response> {
  const cors: Record<string, string> = path === REGISTRATION_PATH ? REGISTRATION_CORS : {};
  try {
    const response = await runOAuthProvider(request, path);
    for (const [name, value] of Object.entries(cors)) response.headers.set(name, value);
    return response;
  } catch (error) {
    // A spent budget (429) or unreachable rate-limit counters (503): either way the caller should retry later.
    if (error instanceof ApiError && error.retryAfterSeconds !== undefined) {
      // A person's browser is at /oauth/authorize: it gets the error page, not JSON.
      if (path === AUTHORIZATION_PATH) {
        return new Response(oauthErrorPage("temporarily_unavailable", error.message), { status: error.status, headers: { ...ERROR_PAGE_HEADERS, "retry-after": String(error.retryAfterSeconds) } });
      }
      return oauthError(error.status, "temporarily_unavailable", error.message, { "retry-after": String(error.retryAfterSeconds), ...cors });
    }
    if (isDatabaseOutage(error)) return oauthError(503, "temporarily_unavailable", "the database is unavailable right now; retry in a few seconds");
    console.error("htmldrop: OAuth request failed", error);
    return oauthError(500, "server_error", "something went wrong on our side; the request may be retried");
  }
}
