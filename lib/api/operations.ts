import { z } from "zod";
import { INLINE_VIEW_SUMMARY } from "@/lib/mcp/apps";
import type { ErrorCode } from "@/lib/errors";
import type { Scope } from "@/lib/accounts/scopes";
import { createdTokenSchema, createTokenBodySchema, meSchema, tokenIdSchema, tokenListItemSchema } from "@/lib/schemas/accounts";
import { pollDeviceAuthQuerySchema, pollDeviceAuthResponseSchema, startDeviceAuthBodySchema, startDeviceAuthResponseSchema } from "@/lib/schemas/device-auth";
import { slugSchema } from "@/lib/schemas/common";
import { patternIndexSchema, patternListSchema, patternNameSchema, patternSchema, savePatternBodySchema } from "@/lib/schemas/patterns";
import { healthSchema, onboardJsonSchema } from "@/lib/schemas/discovery";
import { commentIdSchema, commentListSchema, commentSchema, createCommentBodySchema, listCommentsQuerySchema, patchCommentBodySchema } from "@/lib/schemas/comments";
import {
  addDropMemberBodySchema,
  addTeamMemberBodySchema,
  createTeamBodySchema,
  dropMemberListSchema,
  dropMemberSchema,
  memberIdSchema,
  patchDropMemberBodySchema,
  teamIdSchema,
  teamListSchema,
  teamSchema,
} from "@/lib/schemas/sharing";
import { authorizationServerMetadataSchema, protectedResourceMetadataSchema } from "@/lib/schemas/oauth";
import {
  createdWebhookSchema,
  createWebhookBodySchema,
  deliveryIdSchema,
  deliveryListSchema,
  deliveryRunSchema,
  deliverySchema,
  patchWebhookBodySchema,
  webhookIdSchema,
  webhookListSchema,
  webhookSchema,
} from "@/lib/schemas/webhooks";
import { notificationSettingsSchema, patchNotificationSettingsBodySchema } from "@/lib/schemas/notifications";
import { EVENT_DESCRIPTIONS, EVENT_TYPES } from "@/lib/events/types";
import { liveVersionSchema } from "@/lib/schemas/serving";
import { CACHE_LIVE, publicCacheControl } from "@/lib/drops/access-decision";
import { LIVE_POLL } from "@/lib/drops/live-poll";
import type { ResourceName } from "@/lib/oauth/resources";
import {
  createDropBodySchema,
  idempotencyKeySchema,
  ifMatchSchema,
  dropListSchema,
  dropSchema,
  dropStatsQuerySchema,
  dropStatsSchema,
  listDropsQuerySchema,
  metadataFilterMapSchema,
  patchDropBodySchema,
  purgeResultSchema,
  replaceDropBodySchema,
  setPasscodeBodySchema,
  diffQuerySchema,
  versionListItemSchema,
  versionNumberSchema,
  versionSchema,
} from "@/lib/schemas/drops";

// The registry of operations: every endpoint once, with the shared schemas its handler validates with,
// the error codes it can answer, what a bearer token needs to call it and the MCP tool that does the
// same. The scope checks (lib/api/authorize.ts), the routes' 405 answers, the MCP tools' access and
// cross-references, the metrics labels, the OpenAPI document, the onboarding guide and /docs all read it.

/** The version of this API, as the OpenAPI document and the MCP server's info give it. */
export const API_VERSION = "1.2.0";

export type Method = "get" | "post" | "put" | "patch" | "delete";

export type ParameterSpec = {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  schema: z.ZodType;
  description: string;
  /** An object parameter sent as `name[key]=value` pairs. */
  style?: "deepObject";
};

export const TAGS = {
  Discovery: "Documents that teach a client the service: the onboarding guide and this OpenAPI document. No sign-in.",
  Authentication: "Device-code sign-in: an agent starts it, a human approves it in a browser, the agent polls for its API token.",
  Account: "The account behind the bearer token, and its API tokens. Tokens carry scopes (`drops:read`, `drops:write`, `tokens:manage`) and may be limited to some drops and expire; a call the token may not make is 403 `forbidden` with `details.required_scope` when a scope is missing.",
  Drops: "Publish, find, change and delete drops: HTML documents at stable URLs, each with numbered versions, optionally an expiry, and views counted per day.",
  Versions: "The numbered versions of one drop.",
  Comments:
    "What viewers write under a drop, for its owner to read, answer and resolve (PUT's `resolves` too). Off until PATCH sets `comments`.",
  Sharing:
    "Additions: who may open a drop beyond its public URL. A drop's `access` is `public` (the spec's behaviour), `signed_in` or `restricted`; its list holds " +
    "people (by login or email, admitted once they sign in) and teams, each a `viewer` or an `editor`. Only the owner reads or changes the list. " +
    "Anyone makes teams and manages their members; a member may leave. Someone a drop does not admit gets the 404 of a missing drop.",
  Patterns:
    "What a good page of each kind looks like. The built-in catalog is public (`/.well-known/patterns/`); an account's own patterns are private, " +
    "come before built-in ones of the same name, and are read with `drops:read` and saved or deleted with `drops:write` (a token limited to some drops cannot change them). " +
    "MCP clients also get every pattern as a prompt and the catalog as resources (see MCP).",
  Public: "What viewers open: the viewer page and the raw HTML, with no sign-in (a passcode gate when one is set; 410 Gone once the drop's expiry has passed).",
  Webhooks:
    "Additions: an account's endpoints, told of each event as it happens, as Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`: HMAC-SHA256 " +
    "with the `whsec_` secret shown once at creation). Body `{type, timestamp, data}`, `data` holding the Drop (and the version, comment or access change). " +
    "Events: " + EVENT_TYPES.map((type) => `\`${type}\` (${EVENT_DESCRIPTIONS[type]})`).join("; ") + " " +
    "At least once: a failed delivery is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then the endpoint is disabled until PATCH enables it. " +
    "Deduplicate by `webhook-id`. Managed with the `tokens:manage` scope, by a token not limited to some drops.",
  MCP: "The Model Context Protocol endpoint: the same operations as tools, and the pattern catalog as prompts and resources, over JSON-RPC.",
  Operations:
    "For the people who run the service: health for load balancers and monitors (no sign-in), metrics for Prometheus (the operator's METRICS_TOKEN), " +
    "and the purge of expired drops for a scheduler (the operator's CRON_SECRET).",
  OAuth:
    "Connect by URL: htmldrop is its own OAuth 2.1 authorization server, so an MCP client given only the /mcp URL signs the human in. A 401 from /mcp names the " +
    "protected-resource metadata, which names the authorization server, whose metadata names the endpoints: authorization code with PKCE S256 at /oauth/authorize, " +
    "tokens at /oauth/token, dynamic registration at /oauth/register (or a Client ID Metadata Document), revocation at /oauth/revoke. `resource` (RFC 8707) is required. " +
    "No sign-in is needed to read these documents.",
} as const;

/**
 * Credentials of the people who run the service rather than of an account, each a security scheme of
 * its own: an account's token never opens these operations.
 */
export const OPERATOR_SECRETS = {
  metrics: {
    scheme: "metricsToken",
    variable: "METRICS_TOKEN",
    description: "The operator's METRICS_TOKEN, for Prometheus scrapers; an account's token does not read the metrics.",
    /** Without the variable set, a client on the server's own machine may call with no credential at all. */
    openToThisMachine: true,
  },
  cron: {
    scheme: "cronSecret",
    variable: "CRON_SECRET",
    description: "The operator's CRON_SECRET, which Vercel's cron sends with each scheduled call; while it is unset, the scheduled routes refuse every call.",
    openToThisMachine: false,
  },
} as const;

export type OperatorSecret = keyof typeof OPERATOR_SECRETS;

/**
 * What a call needs from its credential. `drop` says how the call relates to drops: `slug` acts on the
 * drop its path or arguments name, `create` makes a new one, `list` lists them (filtered to the
 * credential's drops), `account` changes what serves every drop (the account's patterns), `none` touches no drop.
 */
export type Access = { scope: Scope | null; drop: "slug" | "create" | "list" | "account" | "none" };

export type Operation = {
  method: Method;
  path: string;
  operationId: string;
  tag: keyof typeof TAGS;
  summary: string;
  description: string;
  auth: boolean;
  /** What a bearer token needs (every operation with `auth` but /mcp, whose tools each name theirs). */
  access?: Access;
  /** The MCP tool that does the same; lib/mcp/tools.ts runs it under this operation's access. */
  mcpTool?: string;
  /** Called with an operator's secret (OPERATOR_SECRETS) rather than an account's token. */
  operatorSecret?: OperatorSecret;
  parameters?: readonly ParameterSpec[];
  body?: { schema: z.ZodType; name: string; required: boolean };
  /** Success status, with the named response schema (null: no body; "html"/"markdown": non-JSON). */
  success: {
    status: number;
    description: string;
    schema?: { zod: z.ZodType; name: string } | { array: z.ZodType; name: string };
    /** Which example illustrates this response, when not the one named like the schema. */
    example?: string;
    content?: "html" | "markdown" | "onboard" | "openapi" | "jsonrpc" | "prometheus" | "png" | "diff";
  };
  errors: readonly ErrorCode[];
  /** Responses of public pages that are HTML rather than the Error body, by status. */
  pageResponses?: Record<string, string>;
  /** Error-shaped answers at statuses other than the codes' own (the MCP transport's refusals), by status. */
  statusErrors?: Record<string, { description: string; codes: readonly ErrorCode[] }>;
  /** Further answers, by status (or range), described without a body schema. */
  plainResponses?: Record<string, string>;
  /** The OAuth protected resource an access token must be issued for (RFC 8707); authenticated operations default to the REST API. */
  oauthResource?: ResourceName;
};

const AUTH_ERRORS: ErrorCode[] = ["token_required", "invalid_token", "unauthorized"];
const WRITE_LIMITS: ErrorCode[] = ["rate_limited", "daily_quota_exceeded"];
const DROP_LOOKUP: ErrorCode[] = ["invalid_slug", "forbidden", "not_found"];
const BODY_ERRORS: ErrorCode[] = ["invalid_json", "invalid_arg"];


const LIST_QUERY_FIELDS = ["page", "pageSize", "sortBy", "sortOrder", "expired", "shared"] as const;
const COMMENT_QUERY_FIELDS = ["status", "since", "after", "version", "page", "pageSize"] as const;

const HTTP_LAYER_REFUSALS = { "4XX": "The request was refused before it reached this document: a malformed request, or a request line or headers too large." };

const EXPIRED_PAGE = "The drop's expiry has passed (any `v`): an HTML page showing nothing of the drop, not cached.";

const slugParam: ParameterSpec = { name: "slug", in: "path", required: true, schema: slugSchema, description: "The drop's slug." };
const versionParam: ParameterSpec = { name: "n", in: "path", required: true, schema: versionNumberSchema, description: "Version number, at least 1." };
const patternParam: ParameterSpec = { name: "name", in: "path", required: true, schema: patternNameSchema, description: "The pattern's name (kebab-case)." };
const memberParam: ParameterSpec = { name: "id", in: "path", required: true, schema: memberIdSchema, description: "The list entry's id." };
const teamParam: ParameterSpec = { name: "id", in: "path", required: true, schema: teamIdSchema, description: "The team's id." };
const TEAM_LOOKUP: ErrorCode[] = ["invalid_arg", "not_found", "forbidden"];
const commentParam: ParameterSpec = { name: "id", in: "path", required: true, schema: commentIdSchema, description: "The comment's id." };
const webhookParam: ParameterSpec = { name: "id", in: "path", required: true, schema: webhookIdSchema, description: "The endpoint's id." };
const WEBHOOK_ACCESS: Access = { scope: "tokens:manage", drop: "account" };
const WEBHOOK_LOOKUP: ErrorCode[] = ["invalid_arg", "not_found"];

const REGISTRY = [
  {
    method: "get", path: "/api/onboard", operationId: "getOnboarding", tag: "Discovery", auth: false,
    summary: "Onboarding guide for agents",
    description: "Markdown by default; send `Accept: application/json` for `{instructions, public_url}`. A browser whose Accept ranks `text/html` first gets the guide rendered as an HTML page.",
    success: { status: 200, description: "The guide.", schema: { zod: onboardJsonSchema, name: "Onboarding" }, content: "onboard" },
    errors: [],
    plainResponses: HTTP_LAYER_REFUSALS,
  },
  {
    method: "get", path: "/openapi.json", operationId: "getOpenApi", tag: "Discovery", auth: false,
    summary: "This OpenAPI document",
    description: "OpenAPI 3.1, generated from the schemas the handlers validate with; the limits and URLs are those of this instance.",
    success: { status: 200, description: "OpenAPI 3.1 document.", content: "openapi" },
    errors: [],
    plainResponses: HTTP_LAYER_REFUSALS,
  },
  {
    method: "get", path: "/api/health", operationId: "getHealth", tag: "Operations", auth: false,
    summary: "Whether this instance can serve",
    description:
      "For load balancers and monitors: 200 when the database (and Redis or Upstash, when they keep the rate limits) answered within a short deadline; " +
      "otherwise 503 `service_unavailable`, whose `details` name each dependency's state. One round trip each, cheap enough to ask every second.",
    success: { status: 200, description: "Every dependency answered.", schema: { zod: healthSchema, name: "Health" } },
    errors: ["service_unavailable"],
    plainResponses: HTTP_LAYER_REFUSALS,
  },
  {
    method: "get", path: "/metrics", operationId: "getMetrics", tag: "Operations", auth: false, operatorSecret: "metrics",
    summary: "Prometheus metrics of this instance",
    description:
      "Prometheus text format: requests and durations by route and status, raw and page cache lookups, rate-limit refusals, database pool use, the view-count flush lag, " +
      "process and Node.js figures. Send `Authorization: Bearer <METRICS_TOKEN>`; without METRICS_TOKEN set, only a client on the server's own machine may read it. " +
      "Each instance reports its own counts.",
    success: { status: 200, description: "The metrics, `text/plain; version=0.0.4`.", content: "prometheus" },
    errors: ["token_required", "unauthorized", "forbidden"],
    plainResponses: HTTP_LAYER_REFUSALS,
  },
  {
    method: "get", path: "/api/cron/purge-expired", operationId: "purgeExpiredDrops", tag: "Operations", auth: false, operatorSecret: "cron",
    summary: "Delete drops whose expiry is long past",
    description:
      "Deletes the drops whose expiry passed more than EXPIRED_RETENTION_DAYS days ago (default 7), with their versions. Vercel's cron calls it daily; " +
      "`npm start` purges hourly by itself. Send `Authorization: Bearer <CRON_SECRET>`; while CRON_SECRET is unset, 403 `forbidden`.",
    success: { status: 200, description: "What this run deleted.", schema: { zod: purgeResultSchema, name: "PurgeResult" } },
    errors: ["token_required", "unauthorized", "forbidden"],
    plainResponses: HTTP_LAYER_REFUSALS,
  },
  {
    method: "get", path: "/api/cron/deliver-webhooks", operationId: "deliverWebhooks", tag: "Operations", auth: false, operatorSecret: "cron",
    summary: "Deliver the webhooks that are due",
    description:
      "Sends the webhook deliveries that are due (new events missed by the instance that recorded them, retries, claims of a dead instance) for up to 45 seconds. " +
      "Vercel's cron calls it every minute; `npm start` does the same work every few seconds by itself. Send `Authorization: Bearer <CRON_SECRET>`.",
    success: { status: 200, description: "What this run sent.", schema: { zod: deliveryRunSchema, name: "DeliveryRun" } },
    errors: ["token_required", "unauthorized", "forbidden"],
    plainResponses: HTTP_LAYER_REFUSALS,
  },
  {
    method: "get", path: "/api/cron/send-notifications", operationId: "sendNotifications", tag: "Operations", auth: false, operatorSecret: "cron",
    summary: "Send the notification emails that are due",
    description:
      "Sends the owners' notification emails whose batching minute has passed (and those of a dead instance's claims) for up to 30 seconds; nothing while SMTP_URL is unset. " +
      "Vercel's cron calls it every minute; `npm start` does the same work every few seconds by itself. Send `Authorization: Bearer <CRON_SECRET>`.",
    success: { status: 200, description: "What this run sent: `attempted` accounts' emails, `succeeded` of them sent.", schema: { zod: deliveryRunSchema, name: "DeliveryRun" } },
    errors: ["token_required", "unauthorized", "forbidden"],
    plainResponses: HTTP_LAYER_REFUSALS,
  },
  {
    method: "post", path: "/api/auth/start", operationId: "startDeviceAuth", tag: "Authentication", auth: false,
    summary: "Start a device-code sign-in",
    description: "Show `verification_url` and `code` to a human, then poll GET /api/auth/poll every `poll_interval` seconds. The body is optional.",
    body: { schema: startDeviceAuthBodySchema, name: "AuthStartBody", required: false },
    success: { status: 200, description: "A pending sign-in request.", schema: { zod: startDeviceAuthResponseSchema, name: "AuthStart" } },
    errors: [...BODY_ERRORS, "rate_limited"],
  },
  {
    method: "get", path: "/api/auth/poll", operationId: "pollDeviceAuth", tag: "Authentication", auth: false,
    summary: "Poll a device-code sign-in",
    description: "While `status` is `pending`, poll again after `poll_interval` seconds. `verified` carries `api_token` and `user_id` exactly once; later reads say `claimed`.",
    parameters: [{ name: "token", in: "query", required: true, schema: pollDeviceAuthQuerySchema.shape.token, description: "The poll_token from POST /api/auth/start." }],
    success: { status: 200, description: "The status of the sign-in.", schema: { zod: pollDeviceAuthResponseSchema, name: "AuthPoll" } },
    errors: ["invalid_arg", "not_found", "rate_limited"],
  },
  {
    method: "get", path: "/api/me", operationId: "getMe", tag: "Account", auth: true,
    access: { scope: null, drop: "none" }, mcpTool: "whoami",
    summary: "Who am I",
    description: "The account the bearer token belongs to, its drop count, and the token itself (id and label, never its value). Use it to check a token.",
    success: { status: 200, description: "The caller's account and token.", schema: { zod: meSchema, name: "Me" } },
    errors: [],
  },
  {
    method: "get", path: "/api/me/notifications", operationId: "getNotificationSettings", tag: "Account", auth: true,
    access: { scope: "tokens:manage", drop: "account" },
    summary: "Get the account's notification settings",
    description: "Whether the owner is emailed about comments by others on their drops, where to, and whether this instance sends email at all.",
    success: { status: 200, description: "The settings.", schema: { zod: notificationSettingsSchema, name: "NotificationSettings" } },
    errors: [],
  },
  {
    method: "patch", path: "/api/me/notifications", operationId: "updateNotificationSettings", tag: "Account", auth: true,
    access: { scope: "tokens:manage", drop: "account" },
    summary: "Change the account's notification settings",
    description: "`comments: false` stops comment emails (as an email's unsubscribe link does), `true` starts them again. Counts as a write.",
    body: { schema: patchNotificationSettingsBodySchema, name: "PatchNotificationSettingsBody", required: true },
    success: { status: 200, description: "The settings.", schema: { zod: notificationSettingsSchema, name: "NotificationSettings" } },
    errors: [...BODY_ERRORS, ...WRITE_LIMITS],
  },
  {
    method: "get", path: "/api/tokens", operationId: "listTokens", tag: "Account", auth: true,
    access: { scope: "tokens:manage", drop: "none" },
    summary: "List the account's tokens",
    description: "Every token of the account, revoked ones included (with `revoked_at`); never the plaintext.",
    success: { status: 200, description: "Token list.", schema: { array: tokenListItemSchema, name: "TokenListItem" } },
    errors: [],
  },
  {
    method: "delete", path: "/api/tokens/{id}", operationId: "revokeToken", tag: "Account", auth: true,
    access: { scope: "tokens:manage", drop: "none" },
    summary: "Revoke a token",
    description: "The token stops working at once, on the API and on MCP alike. Revoking does not count as a write, so a spent write budget never blocks it.",
    parameters: [{ name: "id", in: "path", required: true, schema: tokenIdSchema, description: "Token id: 12 hexadecimal characters." }],
    success: { status: 204, description: "Revoked; the token stays listed with `revoked_at`." },
    errors: ["invalid_arg", "not_found"],
  },
  {
    method: "post", path: "/api/tokens", operationId: "createToken", tag: "Account", auth: true,
    access: { scope: "tokens:manage", drop: "none" },
    summary: "Create a token",
    description:
      "A new API token for the same account, returned in plaintext only in this response. It can do at most what the calling token can: " +
      "`scopes` must be among the caller's, `drops` among the caller's drops (and drops of this account), `expires_at` no later than the caller's expiry. " +
      "Fields left out are copied from the calling token. Asking for more is 403 `forbidden`. Counts as a write.",
    body: { schema: createTokenBodySchema, name: "CreateTokenBody", required: false },
    success: { status: 201, description: "The new token; `token` is shown only here.", schema: { zod: createdTokenSchema, name: "CreatedToken" } },
    errors: [...BODY_ERRORS, ...WRITE_LIMITS],
  },
  {
    method: "get", path: "/api/drops", operationId: "listDrops", tag: "Drops", auth: true,
    access: { scope: "drops:read", drop: "list" }, mcpTool: "list_drops",
    summary: "List your drops, filtered by metadata",
    description:
      "Filter by metadata with one query parameter per pair, written `metadata[<key>]=<value>` (the `metadata` object parameter below, as generated clients send it) " +
      "or `metadata.<key>=<value>`; the forms mix, and every pair given must match (AND), so a key given twice with different values matches nothing. " +
      "`expired=true` or `false` keeps only the drops past their expiry, or only the others.",
    parameters: [
      ...LIST_QUERY_FIELDS.map((name): ParameterSpec => ({ name, in: "query", required: false, schema: listDropsQuerySchema.shape[name], description: listDropsQuerySchema.shape[name].description ?? name })),
      {
        name: "metadata",
        in: "query",
        required: false,
        style: "deepObject",
        schema: metadataFilterMapSchema,
        description: "Tags to match, sent as `metadata[project]=alpha&metadata[kind]=weekly-report`; `metadata.project=alpha` is the same filter. Keys follow the metadata key rules and are case-insensitive.",
      },
    ],
    success: { status: 200, description: "A page of drops.", schema: { zod: dropListSchema, name: "DropList" } },
    errors: ["invalid_arg"],
  },
  {
    method: "post", path: "/api/drops", operationId: "createDrop", tag: "Drops", auth: true,
    access: { scope: "drops:write", drop: "create" }, mcpTool: "create_drop",
    summary: "Publish a new drop",
    description: "Creates version 1. Send an `Idempotency-Key` header to make retries safe: a repeat of the same request within 24 hours returns the first response, and the same key with a different request is refused (400 `invalid_arg`).",
    parameters: [{ name: "Idempotency-Key", in: "header", required: false, schema: idempotencyKeySchema, description: "Optional; 1 to 255 visible ASCII characters. Repeats of the same request within 24 hours replay the first response (header `Idempotent-Replayed: true`)." }],
    body: { schema: createDropBodySchema, name: "CreateDropBody", required: true },
    success: { status: 201, description: "The new drop.", schema: { zod: dropSchema, name: "Drop" }, example: "CreatedDrop" },
    errors: [...BODY_ERRORS, "title_required", "title_too_long", "description_too_long", "html_required", "html_too_large", "context_too_large", "passcode_too_short", ...WRITE_LIMITS, "quota_exceeded"],
  },
  {
    method: "get", path: "/api/drops/{slug}", operationId: "getDrop", tag: "Drops", auth: true,
    access: { scope: "drops:read", drop: "slug" }, mcpTool: "get_drop",
    summary: "Get one of your drops",
    description:
      "The drop's title, description, URLs, latest version, lock state, view count and metadata, and its expiry when one is set (`expired: true` once past). " +
      "Another account's drop is `forbidden`.",
    parameters: [slugParam],
    success: { status: 200, description: "The drop.", schema: { zod: dropSchema, name: "Drop" } },
    errors: DROP_LOOKUP,
  },
  {
    method: "put", path: "/api/drops/{slug}", operationId: "replaceDrop", tag: "Drops", auth: true,
    access: { scope: "drops:write", drop: "slug" }, mcpTool: "update_drop",
    summary: "Upload new HTML: a new version",
    description: "Always creates the next version; the URL stays the same. `metadata` replaces the whole map when given (`{}` clears it). Send `If-Match: \"<latest_version>\"` to refuse the write when someone else published first. " +
      "`resolves` (addition): an unknown comment id is 400 `invalid_arg`, and nothing is written.",
    parameters: [slugParam, { name: "If-Match", in: "header", required: false, schema: ifMatchSchema, description: 'Optional: the quoted latest_version this edit is based on, like "3"; a mismatch answers 409 version_conflict.' }],
    body: { schema: replaceDropBodySchema, name: "ReplaceDropBody", required: true },
    success: { status: 200, description: "The drop with its bumped latest_version.", schema: { zod: dropSchema, name: "Drop" } },
    errors: [...BODY_ERRORS, ...DROP_LOOKUP, "html_required", "html_too_large", "title_required", "title_too_long", "description_too_long", "context_too_large", "version_conflict", ...WRITE_LIMITS, "version_limit_reached"],
  },
  {
    method: "patch", path: "/api/drops/{slug}", operationId: "patchDrop", tag: "Drops", auth: true,
    access: { scope: "drops:write", drop: "slug" }, mcpTool: "patch_drop",
    summary: "Change title, description, metadata, expiry, comments or indexing",
    description: "No new version. Sending `html` is refused with `metadata_only_on_patch`. `expires_at: null` removes the expiry. " +
      "`indexable` (addition) lets search engines index the drop; the drop's JSON carries it only while true.",
    parameters: [slugParam],
    body: { schema: patchDropBodySchema, name: "PatchDropBody", required: true },
    success: { status: 200, description: "The drop, latest_version unchanged.", schema: { zod: dropSchema, name: "Drop" } },
    errors: [...BODY_ERRORS, ...DROP_LOOKUP, "metadata_only_on_patch", "title_required", "title_too_long", "description_too_long", ...WRITE_LIMITS],
  },
  {
    method: "delete", path: "/api/drops/{slug}", operationId: "deleteDrop", tag: "Drops", auth: true,
    access: { scope: "drops:write", drop: "slug" }, mcpTool: "delete_drop",
    summary: "Delete a drop and all its versions",
    description: "Its URLs stop working at once. Cannot be undone.",
    parameters: [slugParam],
    success: { status: 204, description: "Deleted." },
    errors: [...DROP_LOOKUP, ...WRITE_LIMITS],
  },
  {
    method: "get", path: "/api/drops/{slug}/versions", operationId: "listVersions", tag: "Versions", auth: true,
    access: { scope: "drops:read", drop: "slug" }, mcpTool: "list_versions",
    summary: "List a drop's versions",
    description: "Every remaining version with its size, creation time and whether a context was recorded with it. Numbers are never reused, so gaps show deleted versions.",
    parameters: [slugParam],
    success: { status: 200, description: "Versions, oldest first.", schema: { array: versionListItemSchema, name: "VersionListItem" } },
    errors: DROP_LOOKUP,
  },
  {
    method: "get", path: "/api/drops/{slug}/v/{n}", operationId: "getVersion", tag: "Versions", auth: true,
    access: { scope: "drops:read", drop: "slug" }, mcpTool: "get_version",
    summary: "Get one version (with its context)",
    description: "The version's size, creation time, whether it is the latest, and the context recorded with it. Its HTML is at `/p/{slug}/raw?v={n}`.",
    parameters: [slugParam, versionParam],
    success: { status: 200, description: "The version.", schema: { zod: versionSchema, name: "Version" } },
    errors: [...DROP_LOOKUP, "invalid_arg", "version_not_found"],
  },
  {
    method: "get", path: "/api/drops/{slug}/diff", operationId: "diffVersions", tag: "Versions", auth: true,
    access: { scope: "drops:read", drop: "slug" }, mcpTool: "diff_versions",
    summary: "What changed between two versions (addition)",
    description:
      "A unified diff of the two versions' HTML as `text/plain` (files `v{from}/index.html` and `v{to}/index.html`), empty when they are the same; " +
      "`from` may be newer than `to`. Diffing is bounded: when the changed part spans more than 20,000 lines, more than 400 lines changed or the work " +
      "takes too long, the answer is 422 `diff_too_large` (compare `/p/{slug}/raw?v=N` yourself then).",
    parameters: [
      slugParam,
      { name: "from", in: "query", required: true, schema: diffQuerySchema.shape.from, description: "The older side: a version number." },
      { name: "to", in: "query", required: true, schema: diffQuerySchema.shape.to, description: "The newer side: a version number." },
    ],
    success: { status: 200, description: "The unified diff, `text/plain; charset=utf-8`.", content: "diff" },
    errors: [...DROP_LOOKUP, "invalid_arg", "version_not_found", "diff_too_large"],
  },
  {
    method: "delete", path: "/api/drops/{slug}/v/{n}", operationId: "deleteVersion", tag: "Versions", auth: true,
    access: { scope: "drops:write", drop: "slug" }, mcpTool: "delete_version",
    summary: "Delete one version",
    description: "When it was the head, latest_version falls back to the highest remaining version. The only remaining version cannot be deleted.",
    parameters: [slugParam, versionParam],
    success: { status: 200, description: "The updated drop.", schema: { zod: dropSchema, name: "Drop" } },
    errors: [...DROP_LOOKUP, "invalid_arg", "version_not_found", "last_version_cannot_be_deleted", ...WRITE_LIMITS],
  },
  {
    method: "post", path: "/api/drops/{slug}/passcode", operationId: "setPasscode", tag: "Drops", auth: true,
    access: { scope: "drops:write", drop: "slug" }, mcpTool: "set_passcode",
    summary: "Set, change or remove the passcode gate",
    description: "A soft share gate, not encryption. An empty string removes it.",
    parameters: [slugParam],
    body: { schema: setPasscodeBodySchema, name: "SetPasscodeBody", required: true },
    success: { status: 200, description: "The drop; `locked` reflects the gate.", schema: { zod: dropSchema, name: "Drop" } },
    errors: [...BODY_ERRORS, ...DROP_LOOKUP, "passcode_required", "passcode_too_short", ...WRITE_LIMITS],
  },
  {
    method: "get", path: "/api/drops/{slug}/stats", operationId: "getDropStats", tag: "Drops", auth: true,
    access: { scope: "drops:read", drop: "slug" }, mcpTool: "drop_stats",
    summary: "Views of a drop, per day and per version",
    description:
      "Views in the last `days` UTC days, today included: each day (zeros too) and each version. A view is a browser showing the viewer page; not counted: " +
      "bots that say so, prefetches, other sites, an expired drop, a locked drop not unlocked, the owner signed in. Counts arrive moments after the view.",
    parameters: [slugParam, { name: "days", in: "query", required: false, schema: dropStatsQuerySchema.shape.days, description: "Days to report, ending today (UTC)." }],
    success: { status: 200, description: "The drop's views.", schema: { zod: dropStatsSchema, name: "DropStats" } },
    errors: [...DROP_LOOKUP, "invalid_arg"],
  },
  {
    method: "get", path: "/api/drops/{slug}/comments", operationId: "listComments", tag: "Comments", auth: true,
    access: { scope: "drops:read", drop: "slug" }, mcpTool: "list_comments",
    summary: "List a drop's comments",
    description: "Oldest first. `status=open` lists what waits for the owner: unresolved comments by others.",
    parameters: [slugParam, ...COMMENT_QUERY_FIELDS.map((name): ParameterSpec => ({ name, in: "query", required: false, schema: listCommentsQuerySchema.shape[name], description: listCommentsQuerySchema.shape[name].description ?? name }))],
    success: { status: 200, description: "A page of comments.", schema: { zod: commentListSchema, name: "CommentList" } },
    errors: [...DROP_LOOKUP, "invalid_arg"],
  },
  {
    method: "post", path: "/api/drops/{slug}/comments", operationId: "createComment", tag: "Comments", auth: true,
    access: { scope: "drops:write", drop: "slug" }, mcpTool: "reply_to_comment",
    summary: "Comment or reply as the owner",
    description: "With the owner's badge; `reply_to` answers one. Not a write; 30 per 10 minutes per account, 1,000 per drop.",
    parameters: [slugParam],
    body: { schema: createCommentBodySchema, name: "CreateCommentBody", required: true },
    success: { status: 201, description: "The new comment.", schema: { zod: commentSchema, name: "Comment" } },
    errors: [...BODY_ERRORS, ...DROP_LOOKUP, "version_not_found", "rate_limited", "quota_exceeded"],
  },
  {
    method: "patch", path: "/api/drops/{slug}/comments/{id}", operationId: "resolveComment", tag: "Comments", auth: true,
    access: { scope: "drops:write", drop: "slug" }, mcpTool: "resolve_comment",
    summary: "Resolve or reopen a comment",
    description: "`resolved: false` reopens it.",
    parameters: [slugParam, commentParam],
    body: { schema: patchCommentBodySchema, name: "PatchCommentBody", required: true },
    success: { status: 200, description: "The comment.", schema: { zod: commentSchema, name: "Comment" } },
    errors: [...BODY_ERRORS, ...DROP_LOOKUP],
  },
  {
    method: "delete", path: "/api/drops/{slug}/comments/{id}", operationId: "deleteComment", tag: "Comments", auth: true,
    access: { scope: "drops:write", drop: "slug" },
    summary: "Delete a comment",
    description: "Replies to it stay.",
    parameters: [slugParam, commentParam],
    success: { status: 204, description: "Deleted." },
    errors: [...DROP_LOOKUP, "invalid_arg"],
  },
  {
    method: "get", path: "/api/drops/{slug}/members", operationId: "listDropMembers", tag: "Sharing", auth: true,
    access: { scope: "drops:read", drop: "slug" }, mcpTool: "list_drop_members",
    summary: "List who a drop is shared with",
    description: "The people and teams on the drop's list, oldest first, with their roles; `pending` marks people who have not signed in yet. The owner's alone.",
    parameters: [slugParam],
    success: { status: 200, description: "The list.", schema: { zod: dropMemberListSchema, name: "DropMemberList" } },
    errors: DROP_LOOKUP,
  },
  {
    method: "post", path: "/api/drops/{slug}/members", operationId: "addDropMember", tag: "Sharing", auth: true,
    access: { scope: "drops:write", drop: "slug" }, mcpTool: "share_drop",
    summary: "Share a drop with a person or a team",
    description:
      "One of `login`, `email` or `team_id`, and a `role`. A person without an account yet is invited: the entry waits, and admits them at their first sign-in " +
      "(by that login, or an email their provider verified). Behind an org boundary only members may be editors. Counts as a write.",
    parameters: [slugParam],
    body: { schema: addDropMemberBodySchema, name: "AddDropMemberBody", required: true },
    success: { status: 201, description: "The new entry.", schema: { zod: dropMemberSchema, name: "DropMember" } },
    errors: [...BODY_ERRORS, ...DROP_LOOKUP, ...WRITE_LIMITS],
  },
  {
    method: "patch", path: "/api/drops/{slug}/members/{id}", operationId: "setDropMemberRole", tag: "Sharing", auth: true,
    access: { scope: "drops:write", drop: "slug" }, mcpTool: "set_member_role",
    summary: "Change a list entry's role",
    description: "Takes effect on the entry's next request, on every instance. Counts as a write.",
    parameters: [slugParam, memberParam],
    body: { schema: patchDropMemberBodySchema, name: "PatchDropMemberBody", required: true },
    success: { status: 200, description: "The entry.", schema: { zod: dropMemberSchema, name: "DropMember" } },
    errors: [...BODY_ERRORS, ...DROP_LOOKUP, ...WRITE_LIMITS],
  },
  {
    method: "delete", path: "/api/drops/{slug}/members/{id}", operationId: "removeDropMember", tag: "Sharing", auth: true,
    access: { scope: "drops:write", drop: "slug" }, mcpTool: "unshare_drop",
    summary: "Stop sharing a drop with a person or a team",
    description: "They lose access on their next request, on every instance. Counts as a write.",
    parameters: [slugParam, memberParam],
    success: { status: 204, description: "Removed." },
    errors: [...DROP_LOOKUP, ...WRITE_LIMITS],
  },
  {
    method: "get", path: "/api/teams", operationId: "listTeams", tag: "Sharing", auth: true,
    access: { scope: "drops:read", drop: "none" }, mcpTool: "list_teams",
    summary: "List your teams",
    description: "The teams you made (`owned`) or belong to.",
    success: { status: 200, description: "The teams.", schema: { zod: teamListSchema, name: "TeamList" } },
    errors: [],
  },
  {
    method: "post", path: "/api/teams", operationId: "createTeam", tag: "Sharing", auth: true,
    access: { scope: "drops:write", drop: "account" }, mcpTool: "create_team",
    summary: "Make a team",
    description: "You are its maker and first member. Counts as a write.",
    body: { schema: createTeamBodySchema, name: "CreateTeamBody", required: true },
    success: { status: 201, description: "The team, with its members.", schema: { zod: teamSchema, name: "Team" } },
    errors: [...BODY_ERRORS, ...WRITE_LIMITS, "quota_exceeded"],
  },
  {
    method: "get", path: "/api/teams/{id}", operationId: "getTeam", tag: "Sharing", auth: true,
    access: { scope: "drops:read", drop: "none" }, mcpTool: "get_team",
    summary: "Get a team and its members",
    description: "For its maker and members; anyone else gets not_found.",
    parameters: [teamParam],
    success: { status: 200, description: "The team, with its members.", schema: { zod: teamSchema, name: "Team" } },
    errors: TEAM_LOOKUP,
  },
  {
    method: "delete", path: "/api/teams/{id}", operationId: "deleteTeam", tag: "Sharing", auth: true,
    access: { scope: "drops:write", drop: "account" }, mcpTool: "delete_team",
    summary: "Delete a team",
    description: "Its maker's alone; every drop shared with it stops admitting its members. Counts as a write.",
    parameters: [teamParam],
    success: { status: 204, description: "Deleted." },
    errors: [...TEAM_LOOKUP, ...WRITE_LIMITS],
  },
  {
    method: "post", path: "/api/teams/{id}/members", operationId: "addTeamMember", tag: "Sharing", auth: true,
    access: { scope: "drops:write", drop: "account" }, mcpTool: "add_team_member",
    summary: "Add a person to a team",
    description: "By `login` or `email`; someone without an account yet joins at their first sign-in. The maker's alone. Counts as a write.",
    parameters: [teamParam],
    body: { schema: addTeamMemberBodySchema, name: "AddTeamMemberBody", required: true },
    success: { status: 201, description: "The team, with its members.", schema: { zod: teamSchema, name: "Team" } },
    errors: [...BODY_ERRORS, ...TEAM_LOOKUP, ...WRITE_LIMITS, "quota_exceeded"],
  },
  {
    method: "delete", path: "/api/teams/{id}/members/{member_id}", operationId: "removeTeamMember", tag: "Sharing", auth: true,
    access: { scope: "drops:write", drop: "account" }, mcpTool: "remove_team_member",
    summary: "Remove a person from a team, or leave it",
    description: "The maker removes anyone else; a member removes themselves. They lose what the team admitted them to on their next request. Counts as a write.",
    parameters: [teamParam, { name: "member_id", in: "path", required: true, schema: memberIdSchema, description: "The member's id." }],
    success: { status: 204, description: "Removed." },
    errors: [...TEAM_LOOKUP, ...WRITE_LIMITS],
  },
  {
    method: "get", path: "/api/webhooks", operationId: "listWebhooks", tag: "Webhooks", auth: true,
    access: WEBHOOK_ACCESS, mcpTool: "list_webhooks",
    summary: "List the account's webhook endpoints",
    description: "Every endpoint, never its secret; `enabled: false` with `disabled_reason` when persistent failure disabled it.",
    success: { status: 200, description: "The endpoints.", schema: { zod: webhookListSchema, name: "WebhookList" } },
    errors: [],
  },
  {
    method: "post", path: "/api/webhooks", operationId: "createWebhook", tag: "Webhooks", auth: true,
    access: WEBHOOK_ACCESS, mcpTool: "create_webhook",
    summary: "Register a webhook endpoint",
    description:
      "`url` must be https on a public address (private, loopback and link-local addresses are refused, after DNS resolution and on every redirect; " +
      "on an instance whose PUBLIC_URL is loopback, loopback URLs are allowed). `events` names what it receives; `drops` (slugs) and `metadata` (tags) narrow it. " +
      "The answer carries `secret`, shown only here. Counts as a write.",
    body: { schema: createWebhookBodySchema, name: "CreateWebhookBody", required: true },
    success: { status: 201, description: "The endpoint, with its signing secret.", schema: { zod: createdWebhookSchema, name: "CreatedWebhook" } },
    errors: [...BODY_ERRORS, ...WRITE_LIMITS, "quota_exceeded"],
  },
  {
    method: "get", path: "/api/webhooks/{id}", operationId: "getWebhook", tag: "Webhooks", auth: true,
    access: WEBHOOK_ACCESS, mcpTool: "get_webhook",
    summary: "Get a webhook endpoint",
    description: "Another account's endpoint is not_found.",
    parameters: [webhookParam],
    success: { status: 200, description: "The endpoint.", schema: { zod: webhookSchema, name: "Webhook" } },
    errors: WEBHOOK_LOOKUP,
  },
  {
    method: "patch", path: "/api/webhooks/{id}", operationId: "updateWebhook", tag: "Webhooks", auth: true,
    access: WEBHOOK_ACCESS, mcpTool: "update_webhook",
    summary: "Change a webhook endpoint",
    description: "Fields left out stay; `null` clears `description`, `drops` or `metadata`. `enabled: true` enables an endpoint disabled after persistent failure. Counts as a write.",
    parameters: [webhookParam],
    body: { schema: patchWebhookBodySchema, name: "PatchWebhookBody", required: true },
    success: { status: 200, description: "The endpoint.", schema: { zod: webhookSchema, name: "Webhook" } },
    errors: [...BODY_ERRORS, ...WEBHOOK_LOOKUP, ...WRITE_LIMITS],
  },
  {
    method: "delete", path: "/api/webhooks/{id}", operationId: "deleteWebhook", tag: "Webhooks", auth: true,
    access: WEBHOOK_ACCESS, mcpTool: "delete_webhook",
    summary: "Delete a webhook endpoint",
    description: "Its deliveries and their log go with it; nothing more is sent to it. Counts as a write.",
    parameters: [webhookParam],
    success: { status: 204, description: "Deleted." },
    errors: [...WEBHOOK_LOOKUP, ...WRITE_LIMITS],
  },
  {
    method: "get", path: "/api/webhooks/{id}/deliveries", operationId: "listWebhookDeliveries", tag: "Webhooks", auth: true,
    access: WEBHOOK_ACCESS, mcpTool: "list_webhook_deliveries",
    summary: "The delivery log of a webhook endpoint",
    description: "Its latest deliveries, newest first, each with its attempts: when, the status code (null without an answer), the duration and the error.",
    parameters: [webhookParam],
    success: { status: 200, description: "The log.", schema: { zod: deliveryListSchema, name: "WebhookDeliveryList" } },
    errors: WEBHOOK_LOOKUP,
  },
  {
    method: "post", path: "/api/webhooks/{id}/test", operationId: "testWebhook", tag: "Webhooks", auth: true,
    access: WEBHOOK_ACCESS, mcpTool: "test_webhook",
    summary: "Send a test event",
    description: "Sends `{type: \"webhook.test\", data: {webhook_id}}`, signed like every delivery, once and now; answers with the delivery and its attempt. Its failure disables nothing. Counts as a write.",
    parameters: [webhookParam],
    success: { status: 200, description: "The test delivery, attempted.", schema: { zod: deliverySchema, name: "WebhookDelivery" } },
    errors: [...WEBHOOK_LOOKUP, ...WRITE_LIMITS],
  },
  {
    method: "post", path: "/api/webhooks/{id}/deliveries/{delivery_id}/retry", operationId: "retryWebhookDelivery", tag: "Webhooks", auth: true,
    access: WEBHOOK_ACCESS, mcpTool: "retry_webhook_delivery",
    summary: "Send a delivery again",
    description: "One more attempt now, with the same `webhook-id` and body; its failure disables nothing. A delivery being sent at this moment is answered as it stands. Counts as a write.",
    parameters: [webhookParam, { name: "delivery_id", in: "path", required: true, schema: deliveryIdSchema, description: "The delivery's id (its webhook-id)." }],
    success: { status: 200, description: "The delivery, attempted.", schema: { zod: deliverySchema, name: "WebhookDelivery" } },
    errors: [...WEBHOOK_LOOKUP, ...WRITE_LIMITS],
  },
  {
    method: "get", path: "/api/patterns", operationId: "listPatterns", tag: "Patterns", auth: true,
    access: { scope: "drops:read", drop: "none" }, mcpTool: "list_patterns",
    summary: "List page patterns",
    description: "Your own patterns and the built-in ones, by name; yours replace a built-in one of the same name. Pick the one whose `triggers` match the request before writing a page.",
    success: { status: 200, description: "The patterns, without their Markdown and templates.", schema: { zod: patternListSchema, name: "PatternList" } },
    errors: [],
  },
  {
    method: "get", path: "/api/patterns/{name}", operationId: "getPattern", tag: "Patterns", auth: true,
    access: { scope: "drops:read", drop: "none" }, mcpTool: "get_pattern",
    summary: "Read a page pattern",
    description: "One pattern with its Markdown guide and its template: your own of that name, else the built-in one.",
    parameters: [patternParam],
    success: { status: 200, description: "The pattern.", schema: { zod: patternSchema, name: "Pattern" } },
    errors: ["invalid_arg", "not_found"],
  },
  {
    method: "put", path: "/api/patterns/{name}", operationId: "savePattern", tag: "Patterns", auth: true,
    access: { scope: "drops:write", drop: "account" }, mcpTool: "save_pattern",
    summary: "Add or replace one of your patterns",
    description:
      "The Markdown starts with YAML front matter: `name` (the same as the path), `description`, `triggers` (a list of phrases) and, when a `template` is sent, " +
      "`template: <name>.template.html`; then the guide (when to use, content checklist, layout, what not to do). Answers 201 when the account had no pattern of this name, " +
      "200 when it replaced one. Counts as a write.",
    parameters: [patternParam],
    body: { schema: savePatternBodySchema, name: "SavePatternBody", required: true },
    success: { status: 200, description: "The pattern as saved (replaced).", schema: { zod: patternSchema, name: "Pattern" } },
    plainResponses: { "201": "The pattern as saved (a new one): the same Pattern body." },
    errors: [...BODY_ERRORS, "invalid_pattern", "pattern_too_large", "quota_exceeded", ...WRITE_LIMITS],
  },
  {
    method: "delete", path: "/api/patterns/{name}", operationId: "deletePattern", tag: "Patterns", auth: true,
    access: { scope: "drops:write", drop: "account" }, mcpTool: "delete_pattern",
    summary: "Delete one of your patterns",
    description: "A built-in pattern of the same name applies again; built-in patterns themselves cannot be deleted (404). Counts as a write.",
    parameters: [patternParam],
    success: { status: 204, description: "Deleted." },
    errors: ["invalid_arg", "not_found", ...WRITE_LIMITS],
  },
  {
    method: "get", path: "/.well-known/patterns/index.json", operationId: "getPatternCatalog", tag: "Discovery", auth: false,
    summary: "The built-in pattern catalog (addition)",
    description: "Every built-in pattern with its `triggers`, the URL of its Markdown and of its template. Public; an account's own patterns are at `/api/patterns`.",
    success: { status: 200, description: "The catalog.", schema: { zod: patternIndexSchema, name: "PatternIndex" } },
    errors: [],
    plainResponses: HTTP_LAYER_REFUSALS,
  },
  {
    method: "get", path: "/.well-known/patterns/{name}.md", operationId: "getPatternGuide", tag: "Discovery", auth: false,
    summary: "A built-in pattern's guide (addition)",
    description: "`text/markdown`: YAML front matter (`name`, `description`, `triggers`, `template`), then when to use it, a content checklist, the layout and what not to do.",
    parameters: [patternParam],
    success: { status: 200, description: "The Markdown.", content: "markdown" },
    errors: ["not_found"],
  },
  {
    method: "get", path: "/.well-known/patterns/{name}.template.html", operationId: "getPatternTemplate", tag: "Discovery", auth: false,
    summary: "A built-in pattern's starting document (addition)",
    description: "A self-contained, responsive, printable HTML document readable in light and dark, to start a page from. Served sandboxed (`Content-Security-Policy: sandbox`).",
    parameters: [patternParam],
    success: { status: 200, description: "The HTML template.", content: "html" },
    errors: ["not_found"],
  },
  {
    method: "get", path: "/p/{slug}", operationId: "viewDrop", tag: "Public", auth: false,
    summary: "Public viewer page",
    description:
      "Shows the drop in a sandboxed iframe, with the version's context under a toggle. A passcode gate is shown first when one is set. " +
      "An older version says so and links to the latest; `/p/{slug}/compare?from=N&to=M` shows two versions side by side with what changed marked, in the rendered pages and in a line and word diff of the source (addition).",
    parameters: [slugParam, { name: "v", in: "query", required: false, schema: versionNumberSchema, description: "Version to show; default the latest." }],
    success: { status: 200, description: "The viewer page (or the passcode gate).", content: "html" },
    errors: [],
    pageResponses: { "404": "No such drop or version (an HTML page; for a missing version of a drop the reader may see, with a link to the latest).", "410": EXPIRED_PAGE },
  },
  {
    method: "get", path: "/p/{slug}/raw", operationId: "rawDrop", tag: "Public", auth: false,
    summary: "Raw HTML of a drop",
    description: "The uploaded document with the defensive style block (and a viewport meta tag when absent), edge-cached, with a strong ETag.",
    parameters: [slugParam, { name: "v", in: "query", required: false, schema: versionNumberSchema, description: "Version to serve; default the latest." }],
    success: { status: 200, description: "The HTML document.", content: "html" },
    errors: [],
    pageResponses: {
      "304": "Not modified (the `If-None-Match` ETag matches).",
      "403": "The drop is locked by a passcode: unlock it on the viewer page first (an HTML page).",
      "404": "No such drop or version (an HTML page).",
      "410": EXPIRED_PAGE,
    },
  },
  {
    method: "get", path: "/p/{slug}/og.png", operationId: "dropPreviewImage", tag: "Public", auth: false,
    summary: "Link preview image of a drop (addition)",
    description:
      "A 1200×630 PNG card with the title, description and version, named by the viewer page's `og:image` for drops without a passcode. " +
      "Drawn once per drop, version, title and description; a strong ETag, cached like the raw endpoint. `X-Robots-Tag: noindex` unless the drop is `indexable`.",
    parameters: [
      slugParam,
      { name: "v", in: "query", required: false, schema: versionNumberSchema, description: "Version to show; default the latest." },
      {
        name: "card",
        in: "query",
        required: false,
        schema: z.string(),
        description: "The card's tag, as the viewer's `og:image` gives it, so that a new title or description is a new URL. Not read: the card is always the current one.",
      },
    ],
    success: { status: 200, description: "The PNG image.", content: "png" },
    errors: ["not_found", "rate_limited"],
    pageResponses: { "304": "Not modified (the `If-None-Match` ETag matches).", "410": EXPIRED_PAGE },
  },
  {
    method: "get", path: "/p/{slug}/live.json", operationId: "dropLiveVersion", tag: "Public", auth: false,
    summary: "The latest version's number, for open viewers (addition)",
    description:
      `What the viewer polls (every ${(LIVE_POLL.intervalMs - LIVE_POLL.jitterMs) / 1000} to ${(LIVE_POLL.intervalMs + LIVE_POLL.jitterMs) / 1000} s) to learn of a new version. ` +
      `A public drop's answer is the same for everyone, \`${publicCacheControl(CACHE_LIVE, null, 0)}\` with an ETag, for a CDN to answer readers; ` +
      "`private, no-store` for a drop with a passcode (unlocked) or not public. A missing, expired or locked drop, or one the reader may not open, is the same 404.",
    parameters: [slugParam],
    success: { status: 200, description: "The latest version.", schema: { zod: liveVersionSchema, name: "LiveVersion" } },
    errors: ["not_found", "service_unavailable"],
    pageResponses: { "304": "Not modified (the `If-None-Match` ETag matches)." },
  },
  {
    method: "post", path: "/mcp", operationId: "mcp", tag: "MCP", auth: true,
    summary: "MCP endpoint (Streamable HTTP, JSON-RPC)",
    description:
      "Streamable HTTP transport, stateless, plain JSON responses. Every request, `initialize` included, needs the bearer token; tools mirror the REST operations " +
      "and fail with the REST Error object as an `isError` result. Malformed `params` are JSON-RPC error -32602. GET and DELETE answer 405: there is no SSE stream and no session. " +
      "Each pattern is a prompt (`prompts/list`; `prompts/get` with an optional `topic` returns the pattern and its template) and the catalog is resources " +
      "(`htmldrop://patterns/index.json`, `htmldrop://patterns/{name}.md` and `{name}.template.html`; an unknown one is error -32002), the same as `/api/patterns`. " +
      INLINE_VIEW_SUMMARY,
    success: { status: 200, description: "JSON-RPC response.", content: "jsonrpc" },
    errors: ["invalid_json", "invalid_arg", "html_too_large", "forbidden"],
    plainResponses: { "202": "Accepted: the body held only notifications or responses, which get no answer." },
    oauthResource: "mcp",
    statusErrors: {
      "405": { description: "Only POST is served here: GET (no SSE stream) and DELETE (no sessions) answer 405 with `Allow: POST`.", codes: ["invalid_arg"] },
      "406": { description: "The `Accept` header does not list both `application/json` and `text/event-stream`.", codes: ["invalid_arg"] },
      "415": { description: "The body is not sent as `Content-Type: application/json`.", codes: ["invalid_arg"] },
    },
  },
  {
    method: "get", path: "/.well-known/oauth-protected-resource/mcp", operationId: "getMcpResourceMetadata", tag: "OAuth", auth: false,
    summary: "Protected-resource metadata of /mcp",
    description:
      "RFC 9728 metadata that the `resource_metadata` of /mcp's 401 points to: the resource URL to request tokens for, htmldrop as its authorization server, and the scopes. " +
      "Also served at `/.well-known/oauth-protected-resource`, the path older clients try.",
    success: { status: 200, description: "The metadata.", schema: { zod: protectedResourceMetadataSchema, name: "ProtectedResourceMetadata" }, example: "McpResourceMetadata" },
    errors: [],
    plainResponses: HTTP_LAYER_REFUSALS,
  },
  {
    method: "get", path: "/.well-known/oauth-protected-resource/api", operationId: "getApiResourceMetadata", tag: "OAuth", auth: false,
    summary: "Protected-resource metadata of the REST API",
    description: "RFC 9728 metadata of `/api`: an OAuth client that calls the REST API asks for tokens with this `resource`. A token issued for /mcp is refused here, and the other way round.",
    success: { status: 200, description: "The metadata.", schema: { zod: protectedResourceMetadataSchema, name: "ProtectedResourceMetadata" }, example: "ApiResourceMetadata" },
    errors: [],
    plainResponses: HTTP_LAYER_REFUSALS,
  },
  {
    method: "get", path: "/.well-known/oauth-authorization-server", operationId: "getAuthorizationServerMetadata", tag: "OAuth", auth: false,
    summary: "Authorization server metadata",
    description: "RFC 8414 metadata of htmldrop's authorization server (issuer = PUBLIC_URL): its endpoints, PKCE S256, public clients, `client_id_metadata_document_supported`.",
    success: { status: 200, description: "The metadata.", schema: { zod: authorizationServerMetadataSchema, name: "AuthorizationServerMetadata" } },
    errors: [],
    plainResponses: HTTP_LAYER_REFUSALS,
  },
  {
    method: "get", path: "/.well-known/openid-configuration", operationId: "getOpenIdConfiguration", tag: "OAuth", auth: false,
    summary: "Authorization server metadata (OpenID path)",
    description: "The same document as /.well-known/oauth-authorization-server, at the path OpenID Connect clients and some MCP clients try first.",
    success: { status: 200, description: "The metadata.", schema: { zod: authorizationServerMetadataSchema, name: "AuthorizationServerMetadata" } },
    errors: [],
    plainResponses: HTTP_LAYER_REFUSALS,
  },
] as const satisfies readonly Operation[];

export type OperationId = (typeof REGISTRY)[number]["operationId"];
export type OperationPath = (typeof REGISTRY)[number]["path"];
export const OPERATIONS: readonly Operation[] = REGISTRY;

const BY_ID = new Map<string, Operation>(OPERATIONS.map((operation) => [operation.operationId, operation]));

export function operationById(id: OperationId): Operation {
  return BY_ID.get(id)!;
}

const BY_TOOL = new Map<string, Operation>(OPERATIONS.filter((operation) => operation.mcpTool).map((operation) => [operation.mcpTool!, operation]));

/** The operation an MCP tool does; every tool is one operation's `mcpTool`. */
export function toolOperation(tool: string): Operation {
  const operation = BY_TOOL.get(tool);
  if (!operation) throw new Error(`No operation names the MCP tool ${tool}`);
  return operation;
}

/** The methods the registry serves at `path`, upper-case, in the registry's order: a 405's Allow. */
export function methodsAt(path: OperationPath): string[] {
  return OPERATIONS.filter((operation) => operation.path === path).map((operation) => operation.method.toUpperCase());
}

/** "GET /api/drops/{slug}": how the docs and the MCP tools' descriptions name an operation. */
export function operationLabel(operation: Operation): string {
  return `${operation.method.toUpperCase()} ${operation.path}`;
}

/** Every JSON endpoint that reads the database or counts a limit can meet an outage of either. */
function reachesDependencies(operation: Operation): boolean {
  return operation.tag !== "Discovery" && operation.tag !== "Public" && operation.tag !== "OAuth";
}

/** The scope a token needs for this operation, if any. */
export function requiredScope(operation: Operation): Scope | null {
  return operation.access?.scope ?? null;
}

/** A scoped operation refuses a token without its scope, or limited to other drops: 403 forbidden. */
function scopeErrors(operation: Operation): ErrorCode[] {
  return operation.auth && requiredScope(operation) ? ["forbidden"] : [];
}

export function operationErrors(operation: Operation): ErrorCode[] {
  return [
    ...new Set([
      ...(operation.auth ? AUTH_ERRORS : []),
      ...scopeErrors(operation),
      ...operation.errors,
      ...(reachesDependencies(operation) ? (["service_unavailable"] as const) : []),
    ]),
  ];
}
