import { SPEC_LIMITS } from "@/lib/config";
import { ApiError } from "@/lib/errors";

/**
 * The largest JSON body that could still be valid: every limited string fully escaped
 * (`\u00XX` is six bytes per byte), plus room for titles, metadata and punctuation.
 */
const MAX_BODY_BYTES = 6 * (SPEC_LIMITS.htmlMaxBytes + SPEC_LIMITS.contextMaxBytes) + 64 * 1024;

function bodyTooLarge(carriesHtml: boolean): ApiError {
  if (carriesHtml) {
    // Only html can make a body this large (context is capped at 64 KB).
    return new ApiError("html_too_large", `The request body exceeds what any valid upload needs; html is at most ${SPEC_LIMITS.htmlMaxBytes} bytes.`, {
      max_bytes: SPEC_LIMITS.htmlMaxBytes,
    });
  }
  return new ApiError("invalid_arg", `The request body exceeds ${MAX_BODY_BYTES} bytes, far more than any valid request to this endpoint.`, {
    max_bytes: MAX_BODY_BYTES,
  });
}

type ReadOptions = {
  /** What an empty body reads as; without it, an empty body is invalid_json. */
  emptyAs?: unknown;
  /** Whether the endpoint takes html, which decides how an oversized body is reported. */
  carriesHtml?: boolean;
};

/** Reads a JSON body without ever buffering more than MAX_BODY_BYTES. */
export async function readJsonBody(request: Request, { emptyAs, carriesHtml = false }: ReadOptions = {}): Promise<unknown> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw bodyTooLarge(carriesHtml);
  const chunks: Uint8Array[] = [];
  let received = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value.byteLength;
      if (received > MAX_BODY_BYTES) {
        await reader.cancel();
        throw bodyTooLarge(carriesHtml);
      }
      chunks.push(value);
    }
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") {
    if (emptyAs !== undefined) return emptyAs;
    throw new ApiError("invalid_json", "The request body is empty; send a JSON object.");
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ApiError("invalid_json", `The request body is not valid JSON: ${(error as Error).message}`);
  }
}
