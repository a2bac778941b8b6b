// HTTP/1.1 over a bare socket: fetch and node:http refuse to send much of what a fuzzer needs
// (control characters in headers, odd methods and request targets, conflicting lengths).
import { connect } from "node:net";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";

export type WireRequest = {
  method: string;
  /** The request target exactly as written on the request line. */
  target: string;
  /** Written in order, as UTF-8; `host`, `content-length` and `connection` are added unless given. */
  headers: [string, string][];
  body?: Buffer;
  /** Sends the body as chunks instead of with a Content-Length. */
  chunked?: boolean;
  /** Leaves out the Host header entirely. */
  noHost?: boolean;
};

export type WireResponse = { status: number; headers: Record<string, string>; body: Buffer };
export type WireResult = WireResponse | { error: string };

function serialize(request: WireRequest, port: number): Buffer {
  const names = new Set(request.headers.map(([name]) => name.toLowerCase()));
  const lines = [`${request.method} ${request.target} HTTP/1.1`];
  if (!names.has("host") && !request.noHost) lines.push(`host: 127.0.0.1:${port}`);
  for (const [name, value] of request.headers) lines.push(`${name}: ${value}`);
  const body = request.body ?? Buffer.alloc(0);
  if (request.chunked) lines.push("transfer-encoding: chunked");
  else if (!names.has("content-length") && (body.length > 0 || ["POST", "PUT", "PATCH"].includes(request.method))) lines.push(`content-length: ${body.length}`);
  if (!names.has("connection")) lines.push("connection: close");
  const head = Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "utf8");
  if (!request.chunked) return Buffer.concat([head, body]);
  const chunks = body.length > 0 ? [Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from("\r\n")] : [];
  return Buffer.concat([head, ...chunks, Buffer.from("0\r\n\r\n")]);
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf("\r\n", at);
    if (lineEnd < 0) break;
    const size = parseInt(data.subarray(at, lineEnd).toString("latin1"), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

function decode(body: Buffer, encoding: string | undefined): Buffer {
  try {
    if (encoding === "gzip" || encoding === "x-gzip") return gunzipSync(body);
    if (encoding === "br") return brotliDecompressSync(body);
    if (encoding === "deflate") return inflateSync(body);
  } catch {
    return body;
  }
  return body;
}

/** Parses the first final (non-1xx) response in what the server sent before closing. */
export function parseResponse(data: Buffer, method: string): WireResponse | null {
  let at = 0;
  for (;;) {
    const headEnd = data.indexOf("\r\n\r\n", at);
    if (headEnd < 0) return null;
    const [statusLine = "", ...headerLines] = data.subarray(at, headEnd).toString("latin1").split("\r\n");
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
    if (!Number.isInteger(status)) return null;
    at = headEnd + 4;
    if (status < 200) continue;
    const headers: Record<string, string> = {};
    for (const line of headerLines) {
      const colon = line.indexOf(":");
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
    }
    let body = method === "HEAD" || status === 204 || status === 304 ? Buffer.alloc(0) : data.subarray(at);
    if (headers["transfer-encoding"]?.includes("chunked")) body = dechunk(body);
    else if (headers["content-length"] !== undefined) body = body.subarray(0, Number(headers["content-length"]));
    return { status, headers, body: decode(body, headers["content-encoding"]) };
  }
}

/** Sends one request on a fresh connection and reads until the server closes it. */
export function sendWire(port: number, request: WireRequest, timeoutMs: number): Promise<WireResult> {
  return new Promise((resolve) => {
    const received: Buffer[] = [];
    let settled = false;
    const socket = connect(port, "127.0.0.1");
    const finish = (reason: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      // A server may answer early and reset the connection while the body is still being written.
      resolve(parseResponse(Buffer.concat(received), request.method) ?? { error: reason });
    };
    const timer = setTimeout(() => finish(`no response within ${timeoutMs / 1000} s`), timeoutMs);
    socket.on("data", (chunk: Buffer) => received.push(chunk));
    socket.on("end", () => finish("connection closed without a response"));
    socket.on("close", () => finish("connection closed without a response"));
    socket.on("error", (error: NodeJS.ErrnoException) => finish(`connection error ${error.code ?? error.message}`));
    socket.write(serialize(request, port));
  });
}
