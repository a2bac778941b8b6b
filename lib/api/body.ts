import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import { SPEC_LIMITS } from "@/lib/config";
import { ApiError, type ErrorBody } from "@/lib/errors";

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

function smallBodyTooLarge(maxBytes: number): ApiError {
  return new ApiError("invalid_arg", `The request body exceeds ${maxBytes} bytes, more than any valid request to this endpoint.`, { max_bytes: maxBytes });
}

/** next-auth's forms and the device flow's JSON are small; see authBodyRefusal. */
export const AUTH_BODY_MAX_BYTES = 64 * 1024;

/**
 * next-auth reads a whole body before looking at it, and Next's proxy caps bodies only at 10 MB, so
 * server.ts refuses a large /api/auth/* body, or one of unstated length, before any of it is read.
 * (On Vercel the platform's own 4.5 MB cap applies.)
 */
export function authBodyRefusal(url: string, headers: IncomingHttpHeaders): { status: number; body: ErrorBody } | null {
  if (!url.startsWith("/api/auth/")) return null;
  const declared = headers["content-length"];
  if (declared === undefined && headers["transfer-encoding"] !== undefined) {
    const message = `Send this body with a Content-Length header; it may be at most ${AUTH_BODY_MAX_BYTES} bytes.`;
    return { status: 411, body: new ApiError("invalid_arg", message, { max_bytes: AUTH_BODY_MAX_BYTES }).toBody() };
  }
  if (declared !== undefined && Number(declared) > AUTH_BODY_MAX_BYTES) return { status: 413, body: smallBodyTooLarge(AUTH_BODY_MAX_BYTES).toBody() };
  return null;
}

type ReadOptions = {
  /** What an empty body reads as; without it, an empty body is invalid_json. */
  emptyAs?: unknown;
  /** Whether the endpoint takes html, which decides how an oversized body is reported. */
  carriesHtml?: boolean;
  /** A lower ceiling for endpoints whose valid bodies are small. */
  maxBytes?: number;
};

/**
 * Reads what the client still sends and throws it away. Cancelling the stream instead would destroy the
 * connection with bytes unread, and the kernel's reset would destroy the refusal on its way to the client.
 */
async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  try {
    while (!(await reader.read()).done);
  } catch {
    // The client hung up, or the server cut the connection off: nothing is left to discard.
  }
}

/** Reads a body as UTF-8 text without ever buffering more than `maxBytes`. */
async function readCappedText(request: Request, maxBytes: number, tooLarge: () => ApiError): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let received = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read().catch(() => {
        // The client hung up, or server.ts cut off a body that trickled in too slowly.
        throw new ApiError("invalid_arg", "The request body ended before it was complete.");
      });
      if (done) break;
      received += value.byteLength;
      if (received > maxBytes) {
        void discardRest(reader);
        throw tooLarge();
      }
      chunks.push(value);
    }
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** A small body of any type (a form's), as text, refused with 400 beyond `maxBytes`. */
export function readSmallBodyText(request: Request, maxBytes: number): Promise<string> {
  return readCappedText(request, maxBytes, () => smallBodyTooLarge(maxBytes));
}

function jsonCeiling({ carriesHtml = false, maxBytes = MAX_BODY_BYTES }: ReadOptions): { maxBytes: number; tooLarge: () => ApiError } {
  return { maxBytes, tooLarge: () => (maxBytes < MAX_BODY_BYTES ? smallBodyTooLarge(maxBytes) : bodyTooLarge(carriesHtml)) };
}

function parseJsonBody(text: string, emptyAs: unknown): unknown {
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

/** Reads a JSON body without ever buffering more than MAX_BODY_BYTES (or `maxBytes`). */
export async function readJsonBody(request: Request, options: ReadOptions = {}): Promise<unknown> {
  const { maxBytes, tooLarge } = jsonCeiling(options);
  return parseJsonBody(await readCappedText(request, maxBytes, tooLarge), options.emptyAs);
}

/**
 * readJsonBody for the front door's own routes, on Node.js's request rather than a Web stream made of
 * it. A refused body is left unread: server.ts reads and discards the rest once the answer is written.
 */
export async function readIncomingJsonBody(request: IncomingMessage, options: ReadOptions = {}): Promise<unknown> {
  const { maxBytes, tooLarge } = jsonCeiling(options);
  if (Number(request.headers["content-length"] ?? "0") > maxBytes) throw tooLarge();
  const text = await new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const stop = (error: ApiError) => {
      request.removeListener("data", collect);
      reject(error);
    };
    const collect = (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) stop(tooLarge());
      else chunks.push(chunk);
    };
    request.on("data", collect);
    request.once("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    // The client hung up, or server.ts cut off a body that trickled in too slowly.
    const cutOff = () => stop(new ApiError("invalid_arg", "The request body ended before it was complete."));
    request.once("error", cutOff);
    request.once("close", () => request.complete || cutOff());
  });
  return parseJsonBody(text, options.emptyAs);
}
