import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { SCOPES } from "@/lib/accounts/scopes";
import type { Caller } from "@/lib/accounts/credentials";
import { authenticateBearer } from "@/lib/accounts/tokens";
import { readJsonBody } from "@/lib/api/body";
import { errorResponse, jsonResponse, methodNotAllowed } from "@/lib/api/responses";
import { getConfig } from "@/lib/config";
import { ApiError } from "@/lib/errors";
import { protectedResourceMetadataUrl } from "@/lib/oauth/resources";
import { discoverResult, isDiscoverRequest } from "./discover";
import { screenParams } from "./invalid-params";
import { createMcpServer } from "./server";

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
 * Every MCP request carries the bearer token, initialize included; nothing here redirects to a login
 * page. The MCP transport spec also requires refusing a foreign Origin (DNS rebinding); agents send none.
 */
async function authenticate(request: Request): Promise<Caller | Response> {
  let caller: Caller;
  try {
    caller = await authenticateBearer(request.headers.get("authorization"), "mcp");
  } catch (error) {
    return withAuthorizationServerHint(errorResponse(error));
  }
  const origin = request.headers.get("origin");
  if (origin !== null && origin !== new URL(getConfig().publicUrl).origin) {
    return errorResponse(new ApiError("forbidden", `Requests from origin ${origin.slice(0, 200)} are not accepted by the MCP endpoint.`));
  }
  return caller;
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

/**
 * POST /mcp: stateless Streamable HTTP. No session id, a fresh server and transport per request,
 * and plain JSON responses, so any instance (or a serverless function) can answer any request.
 */
export async function handleMcpPost(request: Request): Promise<Response> {
  const caller = await authenticate(request);
  if (caller instanceof Response) return caller;
  let parsedBody: unknown;
  try {
    // The REST body reader: same ceiling (a maximal html upload, escaped, still fits) and same errors.
    parsedBody = await readJsonBody(request, { carriesHtml: true });
  } catch (error) {
    return errorResponse(error);
  }
  if (isDiscoverRequest(parsedBody)) return jsonResponse({ jsonrpc: "2.0", id: parsedBody.id, result: discoverResult() });
  const server = createMcpServer(caller);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await asErrorShape(await transport.handleRequest(request, { parsedBody: screenParams(parsedBody) }));
  } finally {
    await server.close();
  }
}

/** A stateless server offers no SSE stream to GET and no session to DELETE: the spec's answer is 405. */
export async function handleMcpMethodNotAllowed(request: Request): Promise<Response> {
  const caller = await authenticate(request);
  if (caller instanceof Response) return caller;
  return methodNotAllowed(request, ["POST"], "this MCP endpoint is stateless and answers POST only (no SSE stream, no sessions)");
}
