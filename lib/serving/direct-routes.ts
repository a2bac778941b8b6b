// The agents' hottest calls, answered by the front door without Next's router on `npm start`: the drop
// reads (agents poll a drop, and look drops up by their tags) and MCP; and a pattern's save, whose
// refusals (a spent write budget, before the body is read) cost a hostile client's every request:
// through Next, each held the event loop for milliseconds of routing, and 16 clients sending 64 KiB saves
// held GET /api/health for seconds (issue 28, item 8). Next's routing and rendering pipeline costs more
// than the handlers themselves (`npm run bench`); these run the very route handlers Next runs, on a Web
// Request built from the Node.js one, so both paths answer the same bytes. The drop reads and MCP, whose
// Request and Response cost more than the reads themselves, run the same code without them. And the
// health check, which load balancers ask every second or so: through Next it would wait for a slot
// behind the pages being rendered (lib/serving/render-queue.ts), and a busy instance would look down.
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { readIncomingJsonBody } from "@/lib/api/body";
import type { OperationPath } from "@/lib/api/operations";
import { readDrop, readDropList } from "@/lib/api/drop-routes";
import { errorResponse, JSON_HEADERS } from "@/lib/api/responses";
import { savePatternRoute } from "@/lib/api/pattern-routes";
import { checkHealth } from "@/lib/ops/health";
import { SLUG_PATTERN } from "@/lib/schemas/common";
import { mergeHeaders } from "./merge-headers";
import { header } from "./raw";

/**
 * A route handler on a Web Request; a read given the Authorization header whose result is answered as
 * JSON; or a handler of Node.js's request and response.
 */
export type DirectRoute =
  | { web: (request: Request) => Promise<Response> }
  | { read: (authorization: string | null) => Promise<unknown> }
  | { node: (request: IncomingMessage, response: ServerResponse, origin: string) => Promise<void> };

const DROP_PATH = /^\/api\/drops\/([a-z0-9]+)$/;
const DROP_LIST_PATH = "/api/drops";
const HEALTH_PATH: OperationPath = "/api/health";
// Any name without a query, percent-encoding or another segment: the handler validates it as Next's would.
const PATTERN_PATH = /^\/api\/patterns\/([A-Za-z0-9._~-]+)$/;

/** The handler of a request the front door answers itself, or null to leave it to Next. */
export function directRoute(method: string | undefined, url: string | undefined): DirectRoute | null {
  if (method === "POST" && url === "/mcp") return { node: answerMcp };
  if (method === "GET" && url === HEALTH_PATH) return { read: () => checkHealth() };
  const search = method === "GET" && url?.startsWith(DROP_LIST_PATH) ? url.slice(DROP_LIST_PATH.length) : undefined;
  if (search === "" || search?.startsWith("?")) return { read: (authorization) => readDropList.call(authorization, { search }) };
  const slug = method === "GET" && url?.startsWith("/api/drops/") ? DROP_PATH.exec(url)?.[1] : undefined;
  if (slug && SLUG_PATTERN.test(slug)) return { read: (authorization) => readDrop.call(authorization, { slug }) };
  const name = method === "PUT" && url?.startsWith("/api/patterns/") ? PATTERN_PATH.exec(url)?.[1] : undefined;
  if (name) return { web: (request) => savePatternRoute(request, { params: Promise.resolve({ name }) }) };
  return null;
}

type McpHttp = typeof import("@/lib/mcp/http");
// MCP (the SDK, its JSON Schema validator, every tool) is loaded with the first call: a start, and a
// server no agent calls over MCP, need none of it.
let mcpHttp: McpHttp | undefined;

/**
 * POST /mcp: the body read from Node.js's request, and a tools/call answered without a Web Request or
 * Response, whose making cost a third of such a call (issue 35); the SDK gets a Request when it answers.
 */
async function answerMcp(request: IncomingMessage, response: ServerResponse, origin: string): Promise<void> {
  const { answerMcpPost, TOOL_ANSWER_HEADERS } = (mcpHttp ??= await import("@/lib/mcp/http"));
  const answer = await answerMcpPost({
    header: (name) => header(request.headers, name) ?? null,
    readBody: () => readIncomingJsonBody(request, { carriesHtml: true }),
    webRequest: () => toWebRequest(request, origin, { withBody: false }),
  });
  if (answer instanceof Response) return writeWebResponse(response, answer);
  const body = Buffer.from(JSON.stringify(answer.toolAnswer));
  response.writeHead(200, mergeHeaders(TOOL_ANSWER_HEADERS, { "content-length": String(body.length) })).end(body);
}

/** Node.js's request headers as Web Headers. */
export function webHeaders(request: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

/** The Web Request a route handler takes; `withBody: false` when the body was read already. */
export function toWebRequest(request: IncomingMessage, origin: string, { withBody = true } = {}): Request {
  const headers = webHeaders(request);
  const method = request.method ?? "GET";
  const body = !withBody || method === "GET" || method === "HEAD" ? undefined : (Readable.toWeb(request) as ReadableStream<Uint8Array>);
  return new Request(`${origin}${request.url ?? "/"}`, { method, headers, body, duplex: "half" } as RequestInit);
}

export async function writeWebResponse(response: ServerResponse, answer: Response): Promise<void> {
  const body = Buffer.from(await answer.arrayBuffer());
  const headers: Record<string, string | string[]> = {};
  answer.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = answer.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  headers["content-length"] = String(body.length);
  response.writeHead(answer.status, headers).end(body);
}

/** A read's answer, as jsonResponse would give it, or its failure in the Error shape. */
export async function answerRead(response: ServerResponse, read: Promise<unknown>): Promise<void> {
  let body: Buffer;
  try {
    body = Buffer.from(JSON.stringify(await read));
  } catch (error) {
    return writeWebResponse(response, errorResponse(error));
  }
  response.writeHead(200, mergeHeaders(JSON_HEADERS, { "content-length": String(body.length) })).end(body);
}
