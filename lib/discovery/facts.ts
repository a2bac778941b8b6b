import { z } from "zod";
// The command-line client's package names itself; the documents repeat its name from there.
import cliPackage from "@/cli/package.json";
import { SCOPE_DESCRIPTIONS, SCOPES } from "@/lib/accounts/scopes";
import { API_VERSION, operationLabel, toolOperation } from "@/lib/api/operations";
import { getConfig } from "@/lib/config";
import { expiredDeletion } from "@/lib/mcp/guide";
import { mcpTools } from "@/lib/mcp/tools";
import { COMMENTS_PER_DROP_MAX } from "@/lib/comments/comments";
import { rateLimitPolicies } from "@/lib/ratelimit";
import { ANCHOR_LIMITS } from "@/lib/schemas/comment-anchor";
import { COMMENT_LIMITS } from "@/lib/schemas/comments";
import { EXPIRY_MAX_SECONDS, STATS_DAYS_DEFAULT, STATS_DAYS_MAX } from "@/lib/schemas/drops";
import { ERROR_STATUS, type ErrorCode } from "@/lib/errors";
import { ACCESS_TOKEN_TTL_SECONDS, OAUTH_ROUTES, REFRESH_TOKEN_TTL_SECONDS } from "@/lib/oauth/endpoints";
import { protectedResourceMetadataUrl, resourceUrl } from "@/lib/oauth/resources";

// The facts every discovery document states, in one place: names, URLs, limits, tools and error codes.
// URLs and limits come from the running configuration, so no document can disagree with the service.

export const DISCOVERY_SCHEMA_VERSION = 1;
export const SERVICE_NAME = "htmldrop";
export const SERVICE_SUMMARY =
  "htmldrop publishes self-contained HTML documents (drops) at stable public URLs, with numbered versions, an optional passcode gate, owner-only metadata tags, device-code sign-in for agents and an MCP endpoint.";
/** Where the onboarding guide tells agents to keep their token. */
export const TOKEN_ENV_VAR = "HTMLDROP_TOKEN";

export type McpToolSummary = { name: string; args: string; mirrors: string; description: string };

/** The MCP tools as the documents list them, read from the tool registry itself. */
export function mcpToolSummaries(): McpToolSummary[] {
  return mcpTools().map((tool) => ({ name: tool.name, args: argumentSignature(tool.input), mirrors: operationLabel(toolOperation(tool.name)), description: tool.title }));
}

function argumentSignature(schema: z.ZodType): string {
  if (!(schema instanceof z.ZodObject)) return "{}";
  const fields = Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, field]) => (field.safeParse(undefined).success ? `${name}?` : name));
  return `{${fields.join(", ")}}`;
}

/** What each error code means to a client and what it should do: the codes to switch on. */
export const ERROR_GUIDE: Record<ErrorCode, string> = {
  token_required: "No Authorization header was sent: add `Authorization: Bearer <token>`.",
  invalid_token: "The Authorization header is not a well-formed htmldrop bearer token (check how the token is read from its store), or an OAuth access token was issued for another resource (`/mcp` and `/api` each need their own).",
  unauthorized: "The token is unknown, revoked or expired, or an OAuth access token expired: run the device-code sign-in again (an OAuth client refreshes its token or connects again).",
  forbidden: "Not allowed: the drop belongs to another account, or the token lacks the scope this call needs (`details.required_scope`), is limited to other drops, or would grant more than it has.",
  not_found: "No such drop (or unknown poll token / token id / pattern).",
  version_not_found: "The drop exists but that version does not: list versions first.",
  invalid_slug: "The slug is malformed: use the slug returned in a Drop.",
  invalid_json: "The body is not valid JSON.",
  invalid_arg: "A field or parameter is invalid: `details.fields` names each problem.",
  title_required: "`title` is missing or empty.",
  title_too_long: "`title` exceeds the title limit.",
  description_too_long: "`description` exceeds the description limit.",
  html_required: "`html` is missing or empty (PUT always needs it).",
  html_too_large: "`html` exceeds the HTML size limit; `details.max_bytes` gives it.",
  context_too_large: "`context` exceeds the context size limit; `details.max_bytes` gives it.",
  passcode_required: "`passcode` is missing: send \"\" to remove the gate.",
  passcode_too_short: "The passcode is shorter than the minimum.",
  metadata_only_on_patch: "PATCH got `html`: upload HTML with PUT instead.",
  version_conflict: "Another PUT minted the next version first (or If-Match did not match): GET the drop, reapply your change, retry.",
  last_version_cannot_be_deleted: "The only remaining version cannot be deleted: delete the drop instead.",
  rate_limited: "Per-minute write limit (or a comment limit) hit: wait `Retry-After` seconds.",
  daily_quota_exceeded: "Daily write limit hit: wait `Retry-After` seconds.",
  quota_exceeded: "The account holds the maximum number of drops (or the drop the maximum of comments, or the account the maximum of patterns): delete some.",
  version_limit_reached: "The drop holds the maximum number of versions: delete old versions.",
  diff_too_large: "The two versions differ too much to diff on the server (`details` gives the bounds): fetch both from the raw URL with `?v=N` and compare them yourself.",
  invalid_pattern: "A pattern's Markdown lacks its front matter or the front matter is invalid (`details.fields` names each problem), its name differs from the path, or it names a template that was not sent.",
  pattern_too_large: "A pattern's `markdown` or `template` exceeds its size limit; `details.field` and `details.max_bytes` give it.",
  internal_error: "A fault on the server: retry later.",
  service_unavailable: "The database or the rate-limit store is unreachable: retry after `Retry-After` seconds (an Idempotency-Key keeps a retried POST from publishing twice).",
};

export function errorGuide(): { code: ErrorCode; status: number; meaning: string }[] {
  return (Object.keys(ERROR_STATUS) as ErrorCode[]).map((code) => ({ code, status: ERROR_STATUS[code], meaning: ERROR_GUIDE[code] }));
}

/**
 * How OAuth clients find and use htmldrop's authorization server: the URLs its metadata names, the
 * protected resources, scopes and token lifetimes, read from lib/oauth so no document can disagree.
 */
function oauthFacts(base: string) {
  const endpoint = (route: string) => `${base}${route}`;
  return {
    issuer: base,
    authorizationServerMetadataUrl: `${base}/.well-known/oauth-authorization-server`,
    openidConfigurationUrl: `${base}/.well-known/openid-configuration`,
    authorizationUrl: endpoint(OAUTH_ROUTES.authorization),
    tokenUrl: endpoint(OAUTH_ROUTES.token),
    registrationUrl: endpoint(OAUTH_ROUTES.registration),
    revocationUrl: endpoint(OAUTH_ROUTES.revocation),
    jwksUrl: endpoint(OAUTH_ROUTES.jwks),
    mcpResource: resourceUrl("mcp"),
    apiResource: resourceUrl("api"),
    mcpResourceMetadataUrl: protectedResourceMetadataUrl("mcp"),
    apiResourceMetadataUrl: protectedResourceMetadataUrl("api"),
    scopes: SCOPES.map((name) => ({ name, description: SCOPE_DESCRIPTIONS[name] })),
    accessTokenTtlSeconds: ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlSeconds: REFRESH_TOKEN_TTL_SECONDS,
  };
}

export type OAuthFacts = ReturnType<typeof oauthFacts>;

/** The comment limits as the guides state them, read from the schemas and the rate-limit table. */
function commentLimitFacts() {
  const { commentsPerGuest, commentsPerAccount, commentsPerDrop } = rateLimitPolicies();
  const per = (policy: { limit: number; windowMs: number }) => `${policy.limit} per ${policy.windowMs === 3_600_000 ? "hour" : `${policy.windowMs / 60_000} minutes`}`;
  return {
    size:
      `at most ${COMMENT_LIMITS.bodyMaxChars} characters, quoting at most ${COMMENT_LIMITS.quoteMaxLines} lines; an anchor's exact at most ${ANCHOR_LIMITS.exactMaxChars} characters, ` +
      `its prefix and suffix at most ${ANCHOR_LIMITS.contextMaxChars}; a guest's name at most ${COMMENT_LIMITS.nameMaxChars} characters; ${COMMENTS_PER_DROP_MAX} per drop`,
    rate:
      `${per(commentsPerGuest)} per guest's address, ${per(commentsPerAccount)} per account (the owner's replies included), ` +
      `${per(commentsPerDrop)} per drop from everyone but the owner; never counted as writes`,
  };
}

export function discoveryFacts() {
  const config = getConfig();
  const base = config.publicUrl;
  const { limits } = config;
  return {
    name: SERVICE_NAME,
    summary: SERVICE_SUMMARY,
    apiVersion: API_VERSION,
    schemaVersion: DISCOVERY_SCHEMA_VERSION,
    publicUrl: base,
    contentOrigin: config.contentOrigin,
    apiBase: `${base}/api`,
    mcpUrl: `${base}/mcp`,
    onboardUrl: `${base}/api/onboard`,
    openapiUrl: `${base}/openapi.json`,
    docsUrl: `${base}/docs`,
    tokenPrefix: config.tokenPrefix,
    tokenEnvVar: TOKEN_ENV_VAR,
    oauth: oauthFacts(base),
    /** The command-line client (cli/): its npm package and the command it installs. */
    cli: { packageName: cliPackage.name, command: Object.keys(cliPackage.bin)[0]! },
    limits,
    /** When an expired drop (answering 410 Gone meanwhile) is deleted, in words: "7 days after the expiry". */
    expiredDeletion: expiredDeletion(config.expiredRetentionDays),
    statsDays: { default: STATS_DAYS_DEFAULT, max: STATS_DAYS_MAX },
    /** Every limit as a labelled line, in the order the guide lists them. */
    limitList: [
      ["HTML size", `${limits.htmlMaxBytes} bytes per upload or version`],
      ["Context size", `${limits.contextMaxBytes} bytes per version`],
      ["Title", `at most ${limits.titleMaxChars} characters`],
      ["Description", `at most ${limits.descriptionMaxChars} characters`],
      ["Passcode", `at least ${limits.passcodeMinChars} characters`],
      ["Writes per minute", `${limits.writesPerMinute} per account (every mutating call counts, REST and MCP)`],
      ["Writes per day", `${limits.writesPerDay} per account`],
      ["Drops", `${limits.dropsPerAccount} per account`],
      ["Versions", `${limits.versionsPerDrop} per drop`],
      ["Metadata keys", `${limits.metadataMaxKeys} per drop`],
      ["Metadata key length", `${limits.metadataKeyMaxChars} characters`],
      ["Metadata value length", `${limits.metadataValueMaxChars} characters`],
      ["List page size", `1 to ${limits.pageSizeMax}, default ${limits.pageSizeDefault}`],
      ["Expiry", `at most 10 years ahead (\`ttl_seconds\` 1 to ${EXPIRY_MAX_SECONDS})`],
      ["Expired drops", `deleted ${expiredDeletion(config.expiredRetentionDays)} (answering 410 Gone until then)`],
      ["View stats", `1 to ${STATS_DAYS_MAX} days, default ${STATS_DAYS_DEFAULT}`],
      ["Comments", commentLimitFacts().size],
      ["Comment rate", commentLimitFacts().rate],
      ["Device-code verification time-to-live", `${limits.deviceCodeTtlSeconds} seconds`],
      ["Default poll interval", `${limits.pollIntervalSeconds} seconds`],
    ] as [string, string][],
  };
}

export type DiscoveryFacts = ReturnType<typeof discoveryFacts>;

/**
 * The 401 challenge of /mcp as lib/mcp/http.ts writes it for a request without a token (a token that
 * was sent adds error="invalid_token"); tests/api/discovery.test.ts compares it with the live header.
 */
export function mcpChallenge(f: DiscoveryFacts): string {
  return `Bearer realm="${f.name}", resource_metadata="${f.oauth.mcpResourceMetadataUrl}", scope="${f.oauth.scopes.map((scope) => scope.name).join(" ")}"`;
}
