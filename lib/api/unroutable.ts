import { maxHeaderSize, STATUS_CODES, type IncomingHttpHeaders } from "node:http";
import { ApiError, type ErrorCode } from "@/lib/errors";

/**
 * Requests that server.ts answers itself, in the spec's Error shape, because Next.js would fail on them
 * (a 500 for TRACE, `OPTIONS *` or a malformed percent-escape) or Node.js would answer them with an
 * empty body (unparseable requests, oversized headers, timeouts). These apply to every path, pages
 * included: the server cannot know what such a request wanted.
 */

/** The methods Next.js serves; every route of the app takes some of them. */
export const SERVED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
const SERVED = new Set(SERVED_METHODS);
const ALLOW = SERVED_METHODS.join(", ");

export type Answer = { status: number; headers: Record<string, string>; body: string };

/** An Error (invalid_arg unless `extra.code` says) as an answer server.ts writes itself; the connection closes after it. */
export function refusal(status: number, message: string, extra: { code?: ErrorCode; details?: Record<string, unknown>; headers?: Record<string, string> } = {}): Answer {
  const body = JSON.stringify(new ApiError(extra.code ?? "invalid_arg", message, extra.details).toBody());
  const headers = { "content-type": "application/json; charset=utf-8", "content-length": String(Buffer.byteLength(body)), "cache-control": "no-store" };
  // Such a client may not be speaking HTTP as we understand it: answer once, then close.
  return { status, headers: { ...headers, connection: "close", ...extra.headers }, body };
}

function methodRefusal(method: string): Answer {
  const message = `${method.slice(0, 32)} is not a method this server answers; it takes ${ALLOW}.`;
  return refusal(405, message, { details: { allow: SERVED_METHODS }, headers: { allow: ALLOW } });
}

function hasMalformedEscape(path: string): boolean {
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    return true;
  }
}

type Target = { method: string; url: string; httpVersion: string; headers: IncomingHttpHeaders };

/**
 * A request sent in absolute form (`GET http://host/path`, as to a proxy) is taken as `GET /path` with
 * that Host, as RFC 9112 §3.2.2 asks of an origin server; Next.js would redirect to the URL instead.
 */
export function toOriginForm(request: { url?: string; headers: IncomingHttpHeaders }): void {
  if (!request.url || !/^https?:\/\//i.test(request.url) || !URL.canParse(request.url)) return;
  const url = new URL(request.url);
  request.url = `${url.pathname}${url.search}`;
  request.headers.host = url.host;
}

/** A `.` or `..` segment, spelt out or percent-encoded, as the URL standard recognises them. */
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i;

/**
 * Next.js routes `/api/../lock` (or `/api/%2e%2e/lock`) as the URL standard resolves it, to `/lock`; the
 * front door resolves it first, so that what it decides by path (which refusals apply, which requests
 * it serves itself) is about the path Next serves. Paths with `//` or `\` are left alone: Next redirects
 * those to their normal form before routing them.
 */
export function resolveDotSegments(request: { url?: string }): void {
  const url = request.url ?? "";
  const queryAt = url.includes("?") ? url.indexOf("?") : url.length;
  const path = url.slice(0, queryAt);
  if (!path.startsWith("/") || path.includes("//") || path.includes("\\") || !DOT_SEGMENT.test(path)) return;
  request.url = `${new URL(path, "http://n").pathname}${url.slice(queryAt)}`;
}

/** The answer to a request Next.js cannot take, or null when it can. */
export function answerUnroutable({ method, url, httpVersion, headers }: Target): Answer | null {
  // RFC 9110 §9.3.7: asks about the server as a whole.
  if (url === "*" && method === "OPTIONS") return { status: 204, headers: { allow: ALLOW }, body: "" };
  if (!SERVED.has(method)) return methodRefusal(method);
  if (!url.startsWith("/")) return refusal(400, "The request target must be a path such as /api/drops.");
  // Node.js would answer an empty 400 (requireHostHeader is off so that this one has a body).
  if (httpVersion === "1.1" && headers.host === undefined) return refusal(400, "An HTTP/1.1 request needs a Host header.");
  const path = url.split("?", 1)[0]!;
  if (path.includes("%") && hasMalformedEscape(path)) {
    return refusal(400, "The request path has a malformed percent-escape: % must be followed by two hexadecimal digits forming UTF-8.");
  }
  return null;
}

/** The answer to an Expect header other than 100-continue. */
export function answerExpectation(): Answer {
  return refusal(417, "The only expectation this server meets is Expect: 100-continue.");
}

/** The answer to a CONNECT request: this server is not a proxy. */
export function answerConnect(): Answer {
  return methodRefusal("CONNECT");
}

type ClientError = Error & { code?: string; rawPacket?: Buffer };

/** The answer to a request Node.js could not read (its `clientError` event); null when none can be sent. */
export function answerClientError(error: ClientError): Answer | null {
  switch (error.code) {
    case "ECONNRESET":
      return null;
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return refusal(408, "The request did not arrive in time; send the headers and body without pausing.");
    case "HPE_HEADER_OVERFLOW": {
      // The limit counts the request line and the headers together; a long line means a long URL.
      const head = error.rawPacket?.toString("latin1", 0, maxHeaderSize) ?? "";
      const lineEnd = head.indexOf("\r\n");
      const longUrl = /^[A-Z-]+ /.test(head) && (lineEnd === -1 || lineEnd > maxHeaderSize / 2);
      if (longUrl) return refusal(414, `The URL is too long; the request line and headers may take at most ${maxHeaderSize} bytes.`, { details: { max_bytes: maxHeaderSize } });
      return refusal(431, `The request headers are too large; the request line and headers may take at most ${maxHeaderSize} bytes.`, { details: { max_bytes: maxHeaderSize } });
    }
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return refusal(413, "The chunk extensions of the request body are too large.");
    case "HPE_INVALID_METHOD":
      return methodRefusal(error.rawPacket?.toString("latin1", 0, 32).split(" ", 1)[0] ?? "That");
    default:
      return refusal(400, `The request is not valid HTTP/1.1 (${error.code ?? "parse error"}).`);
  }
}

/** An answer as bytes, for a socket no response object is attached to. */
export function serializeAnswer({ status, headers, body }: Answer): string {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${lines.join("")}\r\n${body}`;
}
