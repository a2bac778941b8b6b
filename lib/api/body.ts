import { SPEC_LIMITS } from "@/lib/config";
import { ApiError } from "@/lib/errors";

/**
 * The largest JSON body that could still be valid: every limited string fully escaped
 * (`\u00XX` is six bytes per byte), plus room for titles, metadata and punctuation.
 */
export const MAX_BODY_BYTES = 6 * (SPEC_LIMITS.htmlMaxBytes + SPEC_LIMITS.contextMaxBytes) + 64 * 1024;

function bodyTooLarge(): ApiError {
  return new ApiError("html_too_large", `The request body exceeds what any valid upload needs; html is at most ${SPEC_LIMITS.htmlMaxBytes} bytes.`, {
    max_bytes: SPEC_LIMITS.htmlMaxBytes,
  });
}

/** Reads a JSON body without ever buffering more than MAX_BODY_BYTES. An empty body reads as `emptyAs`. */
export async function readJsonBody(request: Request, emptyAs: unknown = undefined): Promise<unknown> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw bodyTooLarge();
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
        throw bodyTooLarge();
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
