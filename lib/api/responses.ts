import { z } from "zod";
import { ApiError, isApiError } from "@/lib/errors";
import { apiErrorFromZod } from "@/lib/schemas/errors";

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" };

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

export function noContent(): Response {
  return new Response(null, { status: 204, headers: { "cache-control": "no-store" } });
}

/** Any thrown value → the spec's Error shape. Internal failures are logged and never described to the caller. */
export function toApiError(error: unknown): ApiError {
  if (isApiError(error)) return error;
  if (error instanceof z.ZodError) return apiErrorFromZod(error, undefined);
  if (typeof error === "object" && error !== null && (error as { code?: string }).code === "P2025") {
    return new ApiError("not_found", "The requested resource does not exist.");
  }
  console.error("htmldrop: unhandled error", error);
  return new ApiError("internal_error", "Something went wrong on our side; the request may be retried.");
}

export function errorResponse(error: unknown): Response {
  const apiError = toApiError(error);
  const retryAfter = apiError.retryAfterSeconds;
  return jsonResponse(apiError.toBody(), apiError.status, retryAfter !== undefined ? { "retry-after": String(retryAfter) } : {});
}
