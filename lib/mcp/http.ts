import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { isJsonContentType } from "@modelcontextprotocol/sdk/shared/mediaType.js";
import { SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCResponse } from "@modelcontextprotocol/sdk/types.js";
import { SCOPES } from "@/lib/accounts/scopes";
import type { Caller } from "@/lib/accounts/credentials";
import { authenticateBearer, authenticateBearerAlong } from "@/lib/accounts/tokens";
import { readJsonBody } from "@/lib/api/body";
import { errorResponse, jsonResponse, methodNotAllowed } from "@/lib/api/responses";
import { getConfig, isLoopbackHost } from "@/lib/config";
import type { HotReadCall, RowRead } from "@/lib/db/reads";
import { ApiError } from "@/lib/errors";
import { protectedResourceMetadataUrl } from "@/lib/oauth/resources";
import { discoverResult, isDiscoverRequest } from "./discover";
import { screenParams } from "./invalid-params";
import { createMcpServer, directToolCall, toolRowAlongside } from "./server";

/**
 * MCP authorization: a 401 names the protected-resource metadata (RFC 9728 §5.1) and the scopes, so a
 * client given only the /mcp URL can find htmldrop's authorization server and sign the human in.
 */
function withAuthorizationServerHint(response: Response): Response {
  const challenge = response.headers.get("www-authenticate");
  if (response.status === 401 && challenge) {
    response.headers.set("www-authenticate", `${challenge}, resource_metadata="${protectedResourceMetadataUrl("mcp")}", scope="${SCOPES.join(" ")}"`);
  }
  return response;
}

/**
 * Whether a Host header names this instance: a rebound DNS name reaches the server with its own Host
 * even when no Origin is sent. A loopback name never is a rebound one (no site can own it), so
 * `localhost`, `127.0.0.1` and `[::1]` are accepted on any port: development, and a proxy on this
 * machine that does not pass the public Host on.
 */
function isOwnHost(host: string | null, publicUrl: URL): boolean {
  if (host === null) return true; // nothing names another site (HTTP/1.0)
  if (!/^[a-z0-9.:[\]-]+$/i.test(host)) return false;
  let named: URL;
  try {
    // Parsed with PUBLIC_URL's scheme, so an explicit default port (":443" for https) compares equal.
    named = new URL(`${publicUrl.protocol}//${host}`);
  } catch {
    return false;
  }
  return isLoopbackHost(named.hostname) || (named.hostname === publicUrl.hostname && named.port === publicUrl.port);
}

/**
 * Every MCP request carries the bearer token, initialize included; nothing here redirects to a login
 * page. The MCP transport spec also requires refusing a foreign Origin or Host (DNS rebinding); agents
 * send no Origin, and the Host they send names this instance. `alongside` is read with the token.
 */
async function authenticate(header: HeaderReader, alongside: HotReadCall | null): Promise<{ caller: Caller; row?: RowRead<unknown> } | Response> {
  let caller: Caller;
  let row: RowRead<unknown> | undefined;
  try {
    if (alongside) {
      const read = await authenticateBearerAlong<unknown>(header("authorization"), alongside, "mcp");
      caller = read.caller;
      row = { found: read.row };
    } else {
      caller = await authenticateBearer(header("authorization"), "mcp");
    }
  } catch (error) {
    return withAuthorizationServerHint(errorResponse(error));
  }
  const publicUrl = new URL(getConfig().publicUrl);
  const origin = header("origin");
  if (origin !== null && origin !== publicUrl.origin) {
    return errorResponse(new ApiError("forbidden", `Requests from origin ${origin.slice(0, 200)} are not accepted by the MCP endpoint.`));
  }
  const host = header("host");
  if (!isOwnHost(host, publicUrl)) {
    return errorResponse(new ApiError("forbidden", `Requests for host ${String(host).slice(0, 200)} are not accepted by the MCP endpoint; it answers as ${publicUrl.host}.`));
  }
  return { caller, row };
}

/**
 * A body this small is read before the token, so that the row its tool reads is read with the token
 * (toolRowAlongside): a tools/call is about a hundred bytes, and reading it costs an unauthenticated
 * client no more than its token's lookup does. A larger body is read only once the caller is known.
 */
const READ_FIRST_MAX_BYTES = 4096;

type EarlyBody = { body: unknown } | { error: unknown };

async function readSmallBodyFirst(post: McpPost): Promise<EarlyBody | null> {
  const length = Number(post.header("content-length") ?? Number.NaN);
  if (!(length <= READ_FIRST_MAX_BYTES)) return null;
  return post.readBody().then(
    (body) => ({ body }),
    (error: unknown) => ({ error }),
  );
}

/**
 * The SDK refuses a request it cannot take (Accept, Content-Type, not JSON-RPC) with a JSON-RPC error
 * object; the spec wants the Error shape on every 4xx, so the code becomes invalid_arg, status kept.
 */
async function asErrorShape(response: Response): Promise<Response> {
  if (response.status < 400 || !response.headers.get("content-type")?.includes("application/json")) return response;
  const body = (await response.json()) as { error?: { message?: unknown } };
  const message = typeof body.error?.message === "string" ? body.error.message : "The MCP request was refused.";
  return jsonResponse({ error: { code: "invalid_arg", message } }, response.status);
}

/** Batching was in one revision only: 2025-06-18 removed it. No header means 2025-03-26 (transport spec). */
function refusesBatches(protocolVersion: string | null): boolean {
  return protocolVersion !== null && protocolVersion >= "2025-06-18";
}

/** The headers the SDK's transport takes a request with, checked as it checks them; it refuses the rest. */
function transportAccepts(header: HeaderReader, protocolVersion: string | null): boolean {
  const accept = header("accept");
  return (
    accept !== null &&
    accept.includes("application/json") &&
    accept.includes("text/event-stream") &&
    isJsonContentType(header("content-type")) &&
    (protocolVersion === null || SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion))
  );
}

/** A request header by its lower-case name, from a Web Request or Node.js's request alike. */
type HeaderReader = (name: string) => string | null;

/**
 * An MCP POST as either server hands it over: its headers, its body read as JSON, and the Web Request
 * the SDK takes, made only when the SDK answers (its body already read: the SDK gets it parsed).
 */
export type McpPost = { header: HeaderReader; readBody(): Promise<unknown>; webRequest(): Request };

/** The answer to an MCP POST: a Response, or a tools/call's JSON-RPC answer for the caller to send as JSON. */
export type McpAnswer = Response | { toolAnswer: JSONRPCResponse };

/**
 * POST /mcp: stateless Streamable HTTP. No session id, a fresh server and transport per request,
 * and plain JSON responses, so any instance (or a serverless function) can answer any request.
 */
export async function answerMcpPost(post: McpPost): Promise<McpAnswer> {
  const early = await readSmallBodyFirst(post);
  const authenticated = await authenticate(post.header, early && "body" in early ? toolRowAlongside(early.body) : null);
  if (authenticated instanceof Response) return authenticated;
  const { caller, row } = authenticated;
  let parsedBody: unknown;
  try {
    // The REST body reader: same ceiling (a maximal html upload, escaped, still fits) and same errors.
    if (early && "error" in early) throw early.error;
    parsedBody = early ? early.body : await post.readBody();
  } catch (error) {
    return errorResponse(error);
  }
  const protocolVersion = post.header("mcp-protocol-version");
  if (Array.isArray(parsedBody) && refusesBatches(protocolVersion)) {
    return errorResponse(new ApiError("invalid_arg", `MCP ${protocolVersion!.slice(0, 20)} has no JSON-RPC batches (removed in 2025-06-18): send each request in its own POST.`));
  }
  if (isDiscoverRequest(parsedBody)) return jsonResponse({ jsonrpc: "2.0", id: parsedBody.id, result: discoverResult() });
  const toolAnswer = transportAccepts(post.header, protocolVersion) ? await directToolCall(caller, parsedBody, row) : null;
  if (toolAnswer) return { toolAnswer };
  const server = createMcpServer(caller);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await asErrorShape(await transport.handleRequest(post.webRequest(), { parsedBody: screenParams(parsedBody) }));
  } finally {
    await server.close();
  }
}

/** A tools/call's answer as the SDK's transport sends it: its Content-Type and nothing else. */
export const TOOL_ANSWER_HEADERS = { "content-type": "application/json" };

/** POST /mcp on a Web Request: Next's route handler (and so Vercel). */
export async function handleMcpPost(request: Request): Promise<Response> {
  const answer = await answerMcpPost({ header: (name) => request.headers.get(name), readBody: () => readJsonBody(request, { carriesHtml: true }), webRequest: () => request });
  return answer instanceof Response ? answer : new Response(JSON.stringify(answer.toolAnswer), { status: 200, headers: TOOL_ANSWER_HEADERS });
}

/** A stateless server offers no SSE stream to GET and no session to DELETE: the spec's answer is 405. */
export async function handleMcpMethodNotAllowed(request: Request): Promise<Response> {
  const authenticated = await authenticate((name) => request.headers.get(name), null);
  if (authenticated instanceof Response) return authenticated;
  return methodNotAllowed(request, ["POST"], "this MCP endpoint is stateless and answers POST only (no SSE stream, no sessions)");
}
