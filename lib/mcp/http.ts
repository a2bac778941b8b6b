import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { authenticateBearer, type TokenCaller } from "@/lib/accounts/tokens";
import { MAX_BODY_BYTES } from "@/lib/api/body";
import { errorResponse, jsonResponse, toApiError } from "@/lib/api/responses";
import { getConfig } from "@/lib/config";
import { ApiError } from "@/lib/errors";
import { createMcpServer } from "./server";

/** RFC 6750: a 401 names the scheme; error="invalid_token" once a token was presented. */
function authenticationFailed(error: unknown, authorization: string | null): Response {
  const apiError = toApiError(error);
  const response = errorResponse(apiError);
  if (apiError.status === 401) {
    const challenge = authorization?.trim() ? 'Bearer realm="htmldrop", error="invalid_token"' : 'Bearer realm="htmldrop"';
    response.headers.set("www-authenticate", challenge);
  }
  return response;
}

/**
 * The MCP transport spec requires refusing a foreign Origin (DNS rebinding); agents send none.
 * Every MCP request carries the bearer token, initialize included; nothing here redirects to a login page.
 */
async function authenticate(request: Request): Promise<TokenCaller | Response> {
  const origin = request.headers.get("origin");
  if (origin !== null && origin !== new URL(getConfig().publicUrl).origin) {
    return errorResponse(new ApiError("forbidden", `Requests from origin ${origin.slice(0, 200)} are not accepted by the MCP endpoint.`));
  }
  const authorization = request.headers.get("authorization");
  try {
    return await authenticateBearer(authorization);
  } catch (error) {
    return authenticationFailed(error, authorization);
  }
}

/**
 * POST /mcp: stateless Streamable HTTP. No session id, a fresh server and transport per request,
 * and plain JSON responses, so any instance (or a serverless function) can answer any request.
 */
export async function handleMcpPost(request: Request): Promise<Response> {
  const caller = await authenticate(request);
  if (caller instanceof Response) return caller;
  const server = createMcpServer(caller);
  // Same body ceiling as REST, so a maximal html upload (escaped in JSON) still fits.
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true, maxRequestBodySize: MAX_BODY_BYTES });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    await server.close();
  }
}

/** A stateless server offers no SSE stream to GET and no session to DELETE: the spec's answer is 405. */
export async function handleMcpMethodNotAllowed(request: Request): Promise<Response> {
  const caller = await authenticate(request);
  if (caller instanceof Response) return caller;
  return jsonResponse(
    {
      error: {
        code: "invalid_arg",
        message: `${request.method} /mcp is not supported: this MCP endpoint is stateless and answers POST only (no SSE stream, no sessions).`,
        details: { allow: ["POST"] },
      },
    },
    405,
    { allow: "POST" },
  );
}
