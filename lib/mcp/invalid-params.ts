import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
  RequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

/**
 * Requests with malformed params must answer JSON-RPC -32602 with a readable reason. Left to the SDK,
 * params that are not an object fail its message parsing (HTTP 400, no JSON-RPC id), and params that
 * miss its schema surface as -32603 carrying zod's raw issue dump. So each request is checked here
 * first, against the same SDK schema its handler parses with; a refused one is renamed to a method of
 * ours whose handler answers -32602, which keeps the transport's header checks, ids and batching.
 */
const INVALID_PARAMS_METHOD = "htmldrop/invalid-params";

const invalidParamsRequestSchema = z.object({ method: z.literal(INVALID_PARAMS_METHOD), params: z.object({ reason: z.string() }) });

// The methods this server handles (the SDK's Server answers ping and initialize itself); others get -32601.
const REQUEST_SCHEMAS: Record<string, z.ZodType> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  "tools/list": ListToolsRequestSchema,
  "tools/call": CallToolRequestSchema,
  "prompts/list": ListPromptsRequestSchema,
  "prompts/get": GetPromptRequestSchema,
  "resources/list": ListResourcesRequestSchema,
  "resources/templates/list": ListResourceTemplatesRequestSchema,
  "resources/read": ReadResourceRequestSchema,
  [INVALID_PARAMS_METHOD]: invalidParamsRequestSchema,
};

/** An error the SDK passes on as is: its `code` becomes the JSON-RPC code, its message stays unprefixed. */
export class InvalidParamsError extends Error {
  readonly code = ErrorCode.InvalidParams;
}

type JsonRpcRequest = { jsonrpc: "2.0"; id: string | number; method: string; params?: unknown };

function isRequest(message: unknown): message is JsonRpcRequest {
  if (message === null || typeof message !== "object" || Array.isArray(message)) return false;
  const { jsonrpc, id, method } = message as Record<string, unknown>;
  return jsonrpc === "2.0" && (typeof id === "string" || Number.isInteger(id)) && typeof method === "string";
}

function paramsProblem({ method, params }: JsonRpcRequest): string | null {
  if (params !== undefined && (params === null || typeof params !== "object" || Array.isArray(params))) return "params must be an object";
  const parsed = (REQUEST_SCHEMAS[method] ?? RequestSchema).safeParse({ method, params });
  if (parsed.success) return null;
  return parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ");
}

function screen(message: unknown): unknown {
  if (!isRequest(message)) return message;
  const problem = paramsProblem(message);
  if (problem === null) return message;
  return { jsonrpc: "2.0", id: message.id, method: INVALID_PARAMS_METHOD, params: { reason: `Invalid params for ${message.method.slice(0, 100)}: ${problem}` } };
}

/** The request body with each request whose params are malformed replaced by one that answers -32602. */
export function screenParams(body: unknown): unknown {
  return Array.isArray(body) ? body.map(screen) : screen(body);
}

/** Lets `server` answer the requests screenParams replaced. */
export function answerInvalidParams(server: Server): void {
  server.setRequestHandler(invalidParamsRequestSchema, (request) => {
    throw new InvalidParamsError(request.params.reason);
  });
}
