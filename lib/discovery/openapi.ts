import { z } from "zod";
import { ERROR_STATUS, type ErrorCode } from "@/lib/errors";
import { metadataSchema, metadataValueSchema } from "@/lib/schemas/common";
import { ANCHOR_LIMITS, anchorExactSchema, anchorPrefixSchema, anchorSuffixSchema } from "@/lib/schemas/comment-anchor";
import { COMMENT_LIMITS, commentTextSchema, quoteSchema } from "@/lib/schemas/comments";
import { descriptionSchema, htmlSchema, passcodeSchema, titleSchema } from "@/lib/schemas/drops";
import { errorBodySchema } from "@/lib/schemas/errors";
import { buildExamples } from "./examples";
import { discoveryFacts, ERROR_GUIDE, mcpChallenge } from "./facts";
import { OPERATOR_SECRETS, operationErrors, OPERATIONS, requiredScope, TAGS, type Operation } from "@/lib/api/operations";

type JsonSchema = Record<string, unknown>;

/**
 * Limits that zod checks with refinements (lengths in code points, like JSON Schema's maxLength)
 * and so cannot export by itself, stated next to the schema they belong to.
 */
function refinementKeywords(): Map<z.ZodType, JsonSchema> {
  const { limits } = discoveryFacts();
  return new Map<z.ZodType, JsonSchema>([
    [titleSchema, { minLength: 1, maxLength: limits.titleMaxChars }],
    [descriptionSchema, { maxLength: limits.descriptionMaxChars }],
    [htmlSchema, { minLength: 1 }],
    [metadataValueSchema, { maxLength: limits.metadataValueMaxChars }],
    [commentTextSchema, { minLength: 1, maxLength: COMMENT_LIMITS.bodyMaxChars }],
    [quoteSchema, { minLength: 1, maxLength: COMMENT_LIMITS.quoteMaxChars }],
    [anchorExactSchema, { minLength: 1, maxLength: ANCHOR_LIMITS.exactMaxChars }],
    [anchorPrefixSchema, { maxLength: ANCHOR_LIMITS.contextMaxChars }],
    [anchorSuffixSchema, { maxLength: ANCHOR_LIMITS.contextMaxChars }],
    [passcodeSchema, { pattern: `^(|[\\s\\S]{${limits.passcodeMinChars},256})$` }],
    [
      metadataSchema,
      {
        maxProperties: limits.metadataMaxKeys,
        propertyNames: { type: "string", maxLength: limits.metadataKeyMaxChars, pattern: "^[A-Za-z0-9_]([A-Za-z0-9_.-]*[A-Za-z0-9_])?$" },
        additionalProperties: { type: "string", maxLength: limits.metadataValueMaxChars },
      },
    ],
  ]);
}

/** One zod schema as JSON Schema 2020-12 (the dialect of OpenAPI 3.1): request side for inputs, response side for outputs. */
export function toJsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const extra = refinementKeywords();
  const json = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io,
    unrepresentable: "any",
    override: (ctx) => {
      const keywords = extra.get(ctx.zodSchema as unknown as z.ZodType);
      if (keywords) Object.assign(ctx.jsonSchema, keywords);
    },
  }) as JsonSchema;
  delete json.$schema;
  return json;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function errorExample(code: ErrorCode, facts: ReturnType<typeof discoveryFacts>) {
  const details: Record<string, unknown> | undefined =
    code === "html_too_large"
      ? { max_bytes: facts.limits.htmlMaxBytes }
      : code === "context_too_large"
        ? { max_bytes: facts.limits.contextMaxBytes }
        : ERROR_STATUS[code] === 429 || ERROR_STATUS[code] === 503
          ? { retry_after_seconds: 42 }
          : code === "invalid_arg"
            ? { fields: [{ field: "pageSize", message: `Too big: expected number to be <=${facts.limits.pageSizeMax}` }] }
            : code === "forbidden"
              ? { required_scope: "drops:write" }
              : undefined;
  return { summary: ERROR_GUIDE[code], value: { error: { code, message: ERROR_GUIDE[code], ...(details ? { details } : {}) } } };
}

function errorResponse(description: string, codes: readonly ErrorCode[], facts: ReturnType<typeof discoveryFacts>) {
  return { description, content: { "application/json": { schema: ref("Error"), examples: Object.fromEntries(codes.map((code) => [code, errorExample(code, facts)])) } } };
}

/** How an error response that stands for its codes alone describes itself. */
export function errorCodesDescription(codes: string[]): string {
  return `Error; \`error.code\` is one of: ${codes.join(", ")}.`;
}

function errorResponses(operation: Operation, facts: ReturnType<typeof discoveryFacts>) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of operationErrors(operation)) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  const responses: Record<string, unknown> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const response = errorResponse(errorCodesDescription(codes), codes, facts);
    responses[String(status)] =
      status === 429 || status === 503
        ? { ...response, headers: { "Retry-After": { $ref: "#/components/headers/RetryAfter" } } }
        : status === 401
          ? { ...response, headers: { "WWW-Authenticate": { $ref: `#/components/headers/${operation.oauthResource === "mcp" ? "McpChallenge" : "BearerChallenge"}` } } }
          : response;
  }
  for (const [status, { description, codes }] of Object.entries(operation.statusErrors ?? {})) responses[status] = errorResponse(description, codes, facts);
  return responses;
}

// Described rather than bare `{type: "object"}`, which generated clients turn into an object with no keys.
const JSON_OBJECT: JsonSchema = { type: "object", additionalProperties: true };
const JSON_RPC_ID: JsonSchema = { type: ["string", "integer"], description: "Chosen by the client; the answer carries the same id. Absent on a notification." };

const JSON_RPC_REQUEST: JsonSchema = {
  type: "object",
  required: ["jsonrpc", "method"],
  properties: {
    jsonrpc: { const: "2.0" },
    id: JSON_RPC_ID,
    method: { type: "string", description: "An MCP method: initialize, ping, tools/list, tools/call, prompts/list, prompts/get, resources/list, resources/templates/list, resources/read, server/discover, or a notification." },
    params: {
      type: "object",
      description: "The method's parameters, as the MCP specification defines them; tools/call takes the tool's `name` and its `arguments` (each tool's input schema is in tools/list).",
      properties: {
        name: { type: "string", description: "tools/call and prompts/get: the tool or prompt." },
        arguments: { ...JSON_OBJECT, description: "tools/call and prompts/get: the arguments." },
        uri: { type: "string", description: "resources/read: the resource." },
        protocolVersion: { type: "string", description: "initialize: the revision the client speaks." },
        _meta: { ...JSON_OBJECT, description: "Request metadata (progressToken and extensions' keys)." },
      },
      additionalProperties: true,
    },
  },
};

const JSON_RPC_RESPONSE: JsonSchema = {
  type: "object",
  required: ["jsonrpc", "id"],
  description: "Exactly one of `result` and `error`. A failing tool answers a `result` with `isError: true` and the REST Error object as `structuredContent`.",
  properties: {
    jsonrpc: { const: "2.0" },
    id: JSON_RPC_ID,
    result: { ...JSON_OBJECT, description: "The method's result, as the MCP specification defines it (tools/call: `content`, `structuredContent`, `isError`)." },
    error: {
      type: "object",
      required: ["code", "message"],
      properties: { code: { type: "integer", description: "JSON-RPC error code: -32602 malformed params, -32601 unknown method, -32002 unknown resource." }, message: { type: "string" }, data: {} },
    },
  },
};

const OPENAPI_DOCUMENT: JsonSchema = {
  type: "object",
  required: ["openapi", "info", "paths"],
  description: "An OpenAPI 3.1 document (its schema: https://spec.openapis.org/oas/3.1/schema/2022-10-07).",
  properties: {
    openapi: { type: "string", description: "The OpenAPI version, 3.1.x." },
    info: { ...JSON_OBJECT, description: "Title, version and description of this API." },
    servers: { type: "array", items: JSON_OBJECT, description: "This instance's URL." },
    paths: { ...JSON_OBJECT, description: "Every operation, by path and method." },
    components: { ...JSON_OBJECT, description: "Schemas, responses, headers and security schemes the operations refer to." },
    security: { type: "array", items: JSON_OBJECT },
    tags: { type: "array", items: JSON_OBJECT },
  },
  additionalProperties: true,
};

function successResponse(operation: Operation, examples: Record<string, unknown>) {
  const { success } = operation;
  const base = { description: success.description };
  if (success.content === "html") return { ...base, content: { "text/html": { schema: { type: "string" } } } };
  if (success.content === "markdown") return { ...base, content: { "text/markdown": { schema: { type: "string" } } } };
  if (success.content === "png") return { ...base, content: { "image/png": { schema: { type: "string", format: "binary" } } } };
  if (success.content === "diff") {
    return { ...base, content: { "text/plain": { schema: { type: "string" }, example: "--- v1/index.html\n+++ v2/index.html\n@@ -1,1 +1,1 @@\n-<h1>Draft</h1>\n+<h1>Final</h1>\n" } } };
  }
  if (success.content === "prometheus") return { ...base, content: { "text/plain": { schema: { type: "string" } } } };
  if (success.content === "openapi") return { ...base, content: { "application/json": { schema: OPENAPI_DOCUMENT } } };
  if (success.content === "jsonrpc") {
    return { ...base, content: { "application/json": { schema: JSON_RPC_RESPONSE }, "text/event-stream": { schema: { type: "string" } } } };
  }
  if (!success.schema) return base;
  const schema = "zod" in success.schema ? ref(success.schema.name) : { type: "array", items: ref(success.schema.name) };
  const json = { "application/json": { schema, example: examples[success.example ?? success.schema.name] } };
  if (success.content === "onboard") return { ...base, content: { "text/markdown": { schema: { type: "string" } }, ...json, "text/html": { schema: { type: "string" } } } };
  return { ...base, content: json };
}

/** An API token or an OAuth access token issued for the operation's resource, with the scope of the scope table; or an operator's secret. */
function operationSecurity(operation: Operation, scope: string | null | undefined) {
  if (operation.operatorSecret) {
    const secret = OPERATOR_SECRETS[operation.operatorSecret];
    // `{}`: no credential at all is also accepted (a client on the server's own machine, while the variable is unset).
    return [{ [secret.scheme]: [] }, ...(secret.openToThisMachine ? [{}] : [])];
  }
  return operation.auth ? [{ bearerAuth: [] }, { oauth2: scope ? [scope] : [] }] : [];
}

/** The OAuth scheme: how a client that has only the URL gets an access token. */
function oauthScheme(facts: ReturnType<typeof discoveryFacts>) {
  const o = facts.oauth;
  return {
    type: "oauth2",
    description:
      `htmldrop is its own authorization server (issuer ${o.issuer}; metadata at ${o.authorizationServerMetadataUrl}). Authorization code with PKCE (S256, required) for public clients: ` +
      `register at ${o.registrationUrl} (RFC 7591, \`token_endpoint_auth_method\` none) or use the https URL of a Client ID Metadata Document as \`client_id\`. ` +
      `Send \`resource\` (RFC 8707) with the authorization and token requests: ${o.mcpResource} for /mcp, ${o.apiResource} for the REST API; a token for one is refused by the other. ` +
      `Access tokens live ${o.accessTokenTtlSeconds / 3600} hour(s); refresh tokens rotate (${o.refreshTokenTtlSeconds / 86_400} days each) and reusing an old one revokes the grant. Revocation: ${o.revocationUrl} (RFC 7009).`,
    flows: {
      authorizationCode: {
        authorizationUrl: o.authorizationUrl,
        tokenUrl: o.tokenUrl,
        refreshUrl: o.tokenUrl,
        scopes: Object.fromEntries(o.scopes.map((scope) => [scope.name, scope.description])),
      },
    },
  };
}

function buildOperation(operation: Operation, facts: ReturnType<typeof discoveryFacts>, examples: Record<string, unknown>) {
  const scope = requiredScope(operation);
  return {
    operationId: operation.operationId,
    tags: [operation.tag],
    summary: operation.summary,
    description: [operation.description, operation.mcpTool ? `MCP: \`${operation.mcpTool}\`.` : null].filter(Boolean).join(" ") + (scope ? `\n\nNeeds a token with the \`${scope}\` scope.` : ""),
    security: operationSecurity(operation, scope),
    ...(operation.parameters
      ? {
          parameters: operation.parameters.map((parameter) => ({
            name: parameter.name,
            in: parameter.in,
            required: parameter.required,
            description: parameter.description,
            ...(parameter.style ? { style: parameter.style, explode: true } : {}),
            schema: toJsonSchema(parameter.schema, "input"),
          })),
        }
      : {}),
    ...(operation.body
      ? { requestBody: { required: operation.body.required, content: { "application/json": { schema: ref(operation.body.name), example: examples[operation.body.name] } } } }
      : operation.success.content === "jsonrpc"
        ? {
            requestBody: {
              required: true,
              content: { "application/json": { schema: JSON_RPC_REQUEST, example: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "whoami", arguments: {} } } } },
            },
          }
        : {}),
    responses: {
      [String(operation.success.status)]: successResponse(operation, examples),
      ...errorResponses(operation, facts),
      ...Object.fromEntries(Object.entries(operation.plainResponses ?? {}).map(([status, description]) => [status, { description }])),
      ...Object.fromEntries(
        Object.entries(operation.pageResponses ?? {}).map(([status, description]) => [status, status === "304" ? { description } : { description, content: { "text/html": { schema: { type: "string" } } } }]),
      ),
    },
  };
}

/** The OpenAPI 3.1 document of the whole service, generated from the shared zod schemas and the operation table. */
export function buildOpenApiDocument() {
  const facts = discoveryFacts();
  const examples = buildExamples(facts) as unknown as Record<string, unknown>;
  const schemas: Record<string, JsonSchema> = { Error: toJsonSchema(errorBodySchema, "output") };
  for (const operation of OPERATIONS) {
    if (operation.body) schemas[operation.body.name] = toJsonSchema(operation.body.schema, "input");
    const success = operation.success.schema;
    if (success) schemas[success.name] = toJsonSchema("zod" in success ? success.zod : success.array, "output");
  }
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of OPERATIONS) (paths[operation.path] ??= {})[operation.method] = buildOperation(operation, facts, examples);

  return {
    openapi: "3.1.0",
    info: {
      title: "htmldrop API",
      version: facts.apiVersion,
      summary: "Publish self-contained HTML at stable URLs.",
      description: `${facts.summary}\n\nAgents: start with [/api/onboard](${facts.onboardUrl}). Errors always use the Error schema; switch on \`error.code\`.`,
      license: { name: "MIT", identifier: "MIT" },
      contact: { name: `${facts.name} at ${new URL(facts.publicUrl).host}`, url: facts.publicUrl },
    },
    servers: [{ url: facts.publicUrl }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          bearerFormat: `${facts.tokenPrefix}_<base62>`,
          description:
            "API token from the device-code flow (POST /api/auth/start, then GET /api/auth/poll), the admin command or POST /api/tokens. " +
            "Each operation lists the scope it needs (`drops:read`, `drops:write`, `tokens:manage`); tokens issued without scopes have all three.",
        },
        oauth2: oauthScheme(facts),
        ...Object.fromEntries(Object.values(OPERATOR_SECRETS).map((secret) => [secret.scheme, { type: "http", scheme: "bearer", description: secret.description }])),
      },
      headers: {
        BearerChallenge: {
          description: 'The bearer challenge: `Bearer realm="htmldrop"`, plus `error="invalid_token"` once a token was sent.',
          schema: { type: "string" },
          example: `Bearer realm="${facts.name}", error="invalid_token"`,
        },
        McpChallenge: {
          description:
            "The bearer challenge of the MCP authorization specification: `realm`, `error=\"invalid_token\"` once a token was sent, `resource_metadata` (the protected-resource " +
            "metadata, RFC 9728, from which a client finds the authorization server) and the `scope` to ask for.",
          schema: { type: "string" },
          example: mcpChallenge(facts),
        },
        RetryAfter: { description: "Seconds to wait before retrying (until the limit's window opens, or the dependency is expected back); equals details.retry_after_seconds.", schema: { type: "integer", minimum: 1 } },
      },
    },
  };
}
