import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  JSONRPCRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
  type JSONRPCResponse,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { authorize } from "@/lib/api/authorize";
import { API_VERSION, operationLabel, toolOperation } from "@/lib/api/operations";
import type { Caller } from "@/lib/accounts/credentials";
import { toApiError } from "@/lib/api/responses";
import type { HotReadCall, RowRead } from "@/lib/db/reads";
import { toolOutputSchema } from "@/lib/schemas/mcp";
import { mcpInstructions } from "./guide";
import { answerInvalidParams, InvalidParamsError } from "./invalid-params";
import { asksForView, DROP_VIEW_TOOL_META, DROP_VIEW_URI, dropViewMeta, readDropView } from "./drop-view";
import { readPatternResource, servePatterns } from "./patterns";
import { mcpTools, type McpTool } from "./tools";

/** The version of the interface the tools mirror. */
export const MCP_SERVER_INFO = { name: "htmldrop", version: API_VERSION };

/** What this server offers; `initialize` and `server/discover` both answer with it. */
export const MCP_CAPABILITIES = { tools: {}, prompts: {}, resources: {} };

// Building an Ajv instance costs milliseconds; the default would build one per request.
const sharedValidator = new AjvJsonSchemaValidator();

type ObjectJsonSchema = { type: "object"; [key: string]: unknown };

// Schemas never change at run time: convert each once (keyed by the tool's own zod schema).
const jsonSchemas = { input: new WeakMap<z.ZodType, ObjectJsonSchema>(), output: new WeakMap<z.ZodType, ObjectJsonSchema>() };

/**
 * Rewrites what strict schema checkers (the MCP Inspector's --strict) warn about, meaning unchanged:
 * `type: [T, "null"]` becomes `anyOf: [{type: T, ...}, {type: "null"}]`, and an
 * `additionalProperties: {}` that admits anything is dropped (admitting anything is the default).
 */
export function strictJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strictJsonSchema);
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "additionalProperties" && value !== null && typeof value === "object" && Object.keys(value).length === 0) continue;
    // Property names are data, not keywords: a property called "type" keeps its schema as is.
    out[key] = key === "properties" ? Object.fromEntries(Object.entries(value as object).map(([name, schema]) => [name, strictJsonSchema(schema)])) : strictJsonSchema(value);
  }
  const { type } = out;
  if (!Array.isArray(type) || !type.includes("null") || type.length < 2) return out;
  const { description, title, default: fallback, ...rest } = out;
  const nonNull = type.filter((name) => name !== "null");
  const annotations = Object.fromEntries(Object.entries({ title, description, default: fallback }).filter(([, value]) => value !== undefined));
  return { ...annotations, anyOf: [{ ...rest, type: nonNull.length === 1 ? nonNull[0] : nonNull }, { type: "null" }] };
}

/** MCP wants an object schema at the root; the same converter and draft (07) the SDK uses for its own tools. */
function toObjectJsonSchema(schema: z.ZodType, io: "input" | "output"): ObjectJsonSchema {
  let json = jsonSchemas[io].get(schema);
  if (!json) {
    const advertised = io === "output" ? toolOutputSchema(schema) : schema;
    json = { ...(strictJsonSchema(z.toJSONSchema(advertised, { target: "draft-7", io })) as object), type: "object" };
    jsonSchemas[io].set(schema, json);
  }
  return json;
}

function describeTool(tool: McpTool): Tool {
  const operation = toolOperation(tool.name);
  const description = tool.description(operationLabel(operation));
  const scope = operation.access?.scope;
  return {
    name: tool.name,
    title: tool.title,
    description: scope ? `${description}\n\nNeeds a token with the ${scope} scope.` : description,
    inputSchema: toObjectJsonSchema(tool.input, "input"),
    outputSchema: toObjectJsonSchema(tool.output, "output"),
    annotations: { title: tool.title, ...tool.annotations },
    ...(tool.showsDrop ? { _meta: DROP_VIEW_TOOL_META } : {}),
  };
}

function jsonResult(json: unknown, isError: boolean): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(json) }],
    structuredContent: json as Record<string, unknown>,
    ...(isError ? { isError: true } : {}),
  };
}

/**
 * A failing tool answers with the REST Error object, never with a JSON-RPC error. Each tool is checked
 * as the REST operation it mirrors, before its arguments are parsed, exactly as the route checks it.
 */
async function callTool(tool: McpTool, caller: Caller, args: Record<string, unknown>, meta: unknown, row?: RowRead<unknown>): Promise<CallToolResult> {
  try {
    authorize(caller, toolOperation(tool.name), typeof args.slug === "string" ? args.slug : undefined);
    const output = await tool.run(caller, args, row);
    // Only the drop view asks (lib/mcp/drop-view.ts): every other call's result is the REST answer alone.
    if (tool.name === "get_version" && asksForView(meta)) {
      const { slug, version } = output as { slug: string; version: number };
      return { ...jsonResult(output, false), _meta: await dropViewMeta(caller, slug, version) };
    }
    return jsonResult(output, false);
  } catch (error) {
    return jsonResult(toApiError(error).toBody(), true);
  }
}

/**
 * A tools/call answered without a Server and transport: agents call tools far more than anything else,
 * and building the SDK's per-request server, its Protocol and its Response cost more than a read tool
 * itself (issue 35). Takes only a single request the SDK would hand to callTool as it is (a known tool,
 * no task), and answers as the SDK does, its result checked against the same schema; anything else
 * returns null and goes to the SDK. `row` is what toolRowAlongside named for this body, read with the token.
 */
export async function directToolCall(caller: Caller, body: unknown, row?: RowRead<unknown>): Promise<JSONRPCResponse | null> {
  const message = JSONRPCRequestSchema.safeParse(body);
  if (!message.success || message.data.method !== "tools/call") return null;
  const call = CallToolRequestSchema.safeParse(message.data);
  if (!call.success || call.data.params.task !== undefined) return null;
  const tool = toolNamed(call.data.params.name);
  if (!tool) return null;
  const result = await callTool(tool, caller, call.data.params.arguments ?? {}, call.data.params._meta, row);
  return { result: CallToolResultSchema.parse(result), jsonrpc: "2.0", id: message.data.id };
}

/**
 * The row a tools/call's tool reads (its `alongside`), named from the body before the caller is known;
 * null for anything else. Only a shape check: directToolCall parses the body as the SDK would.
 */
export function toolRowAlongside(body: unknown): HotReadCall | null {
  const call = body as { method?: unknown; params?: { name?: unknown; arguments?: unknown } } | null;
  if (call?.method !== "tools/call") return null;
  const { name, arguments: args } = call.params ?? {};
  if (typeof name !== "string" || typeof args !== "object" || args === null) return null;
  return toolNamed(name)?.alongside?.(args as Record<string, unknown>) ?? null;
}

function toolNamed(name: string): McpTool | undefined {
  return mcpTools().find((tool) => tool.name === name);
}

/**
 * One server per request, bound to the authenticated caller. The low-level Server (rather than
 * McpServer) lets each tool parse its own arguments, so validation failures carry the REST codes.
 * Prompts and resources are the pattern catalog (lib/mcp/patterns.ts).
 */
export function createMcpServer(caller: Caller): Server {
  const tools = mcpTools();
  const server = new Server(MCP_SERVER_INFO, {
    capabilities: MCP_CAPABILITIES,
    instructions: mcpInstructions(),
    jsonSchemaValidator: sharedValidator,
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map(describeTool) }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const tool = toolNamed(request.params.name);
    if (!tool) throw new InvalidParamsError(`Unknown tool ${request.params.name.slice(0, 100)}; tools/list names the ${tools.length} tools.`);
    return callTool(tool, caller, request.params.arguments ?? {}, request.params._meta);
  });
  servePatterns(server, caller);
  // The drop view is read by the URI its tools name, not listed: resources/list stays the pattern catalog.
  server.setRequestHandler(ReadResourceRequestSchema, (request) => (request.params.uri === DROP_VIEW_URI ? readDropView() : readPatternResource(caller, request.params.uri)));
  answerInvalidParams(server);
  return server;
}
