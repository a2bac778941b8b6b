import { z } from "zod";
import { isDatabaseOutage } from "@/lib/db/outage";
import { ApiError, isApiError, serviceUnavailable } from "@/lib/errors";
import { apiErrorFromZod } from "@/lib/schemas/errors";
import { methodsAt, type OperationPath } from "./operations";

/** A JSON answer's headers, also written by the front door's own reads (lib/serving/direct-routes.ts). */
export const JSON_HEADERS = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" };

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

export function noContent(): Response {
  return new Response(null, { status: 204, headers: { "cache-control": "no-store" } });
}

/** A restart or failover usually takes seconds; clients that honour Retry-After come back then. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * Any thrown value → the spec's Error shape. A database that cannot be used at all is a 503 with
 * Retry-After; other internal failures are logged and never described to the caller.
 */
export function toApiError(error: unknown): ApiError {
  if (isApiError(error)) return error;
  if (error instanceof z.ZodError) return apiErrorFromZod(error, undefined);
  if (typeof error === "object" && error !== null && (error as { code?: string }).code === "P2025") {
    return new ApiError("not_found", "The requested resource does not exist.");
  }
  if (isDatabaseOutage(error)) {
    console.error("htmldrop: database unavailable:", error instanceof Error ? error.message.trim().split("\n").at(-1) : error);
    return serviceUnavailable(`The database is unavailable right now; retry in ${DATABASE_RETRY_AFTER_SECONDS} seconds.`, DATABASE_RETRY_AFTER_SECONDS);
  }
  console.error("htmldrop: unhandled error", error);
  return new ApiError("internal_error", "Something went wrong on our side; the request may be retried.");
}

/** RFC 6750: a 401 names the scheme, with error="invalid_token" once a token was presented. */
function bearerChallenge(apiError: ApiError): string {
  return apiError.code === "token_required" ? 'Bearer realm="htmldrop"' : 'Bearer realm="htmldrop", error="invalid_token"';
}

export function errorResponse(error: unknown): Response {
  const apiError = toApiError(error);
  const headers: Record<string, string> = {};
  if (apiError.retryAfterSeconds !== undefined) headers["retry-after"] = String(apiError.retryAfterSeconds);
  if (apiError.status === 401) headers["www-authenticate"] = bearerChallenge(apiError);
  return jsonResponse(apiError.toBody(), apiError.status, headers);
}

const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type HttpMethod = (typeof HTTP_METHODS)[number];
type Handler = (request: Request) => Response;

export function methodNotAllowed(request: Request, allowed: readonly string[], reason?: string): Response {
  const path = new URL(request.url).pathname;
  const message = `${request.method} is not supported on ${path}${reason ? `: ${reason}` : `; use ${allowed.join(" or ")}`}.`;
  return jsonResponse({ error: { code: "invalid_arg", message, details: { allow: allowed } } }, 405, { allow: allowed.join(", ") });
}

/**
 * Handlers for the methods a route does not implement. Next.js would answer those with an empty 405;
 * a route exports these instead (`export const { PUT, DELETE } = otherMethods("GET", "POST")`) so the
 * refusal carries the spec's Error body and an Allow header.
 */
export function otherMethods(...allowed: HttpMethod[]): Record<HttpMethod, Handler> {
  const refuse: Handler = (request) => methodNotAllowed(request, allowed);
  return Object.fromEntries(HTTP_METHODS.map((method) => [method, refuse])) as Record<HttpMethod, Handler>;
}

/** otherMethods for a path of the registry: what it serves there is what the registry lists. */
export function methodsNotServedAt(path: OperationPath): Record<HttpMethod, Handler> {
  return otherMethods(...(methodsAt(path) as HttpMethod[]));
}

/**
 * next-auth refuses what it does not serve (an unknown action, a provider that is not configured) with
 * plain text; under /api every refusal is an Error.
 */
export function asApiRefusal(request: Request, response: Response): Response {
  if (response.status < 400 || !(response.headers.get("content-type") ?? "").startsWith("text/plain")) return response;
  const path = new URL(request.url).pathname.slice(0, 200);
  const code = response.status === 404 ? "not_found" : "invalid_arg";
  return jsonResponse({ error: { code, message: `Sign-in does not answer ${request.method} ${path}.` } }, response.status === 404 ? 404 : 400);
}

/** Any method on a path under /api that no route serves. */
function unknownApiPath(request: Request): Response {
  const path = new URL(request.url).pathname;
  return errorResponse(new ApiError("not_found", `There is no API endpoint at ${request.method} ${path.slice(0, 200)}; see /openapi.json.`));
}

/** Every method of a catch-all route under /api or /mcp: without one, Next.js answers its HTML not-found page. */
export function unknownPathHandlers(): Record<HttpMethod | "OPTIONS", Handler> {
  return Object.fromEntries([...HTTP_METHODS, "OPTIONS"].map((method) => [method, unknownApiPath])) as Record<HttpMethod | "OPTIONS", Handler>;
}
