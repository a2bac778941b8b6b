// One valid request per endpoint and method: the seeds the mutations start from.
import type { Random } from "./random";

/** What the run set up in beforeAll, so that deep paths (a real drop, version, token, code) are reached. */
export type FuzzContext = {
  token: string;
  otherToken: string;
  revokedToken: string;
  /** Drops of the fuzzing account that no request deletes (versions and passcodes may change). */
  stableSlugs: string[];
  /** Drops of the fuzzing account that DELETE requests may take. */
  doomedSlugs: string[];
  otherSlug: string;
  /** Tokens of the fuzzing account that DELETE /api/tokens/{id} may revoke (never `token`). */
  doomedTokenIds: string[];
  otherTokenId: string;
  pollToken: string;
  userCode: string;
  passcode: string;
  sessionCookie: string;
  /** Server action ids from the build's manifest, by exported name. */
  actions: Record<string, string>;
  /** The app's origin, as PUBLIC_URL names it (OAuth resources and redirect checks use it). */
  origin: string;
  /** A client registered through /oauth/register, its redirect URI, and a pending consent's uid. */
  oauthClientId: string;
  oauthRedirectUri: string;
  consentUid: string;
  /** A comment on stableSlugs[0], whose comments are open to anyone. */
  commentId: string;
  /** A pattern of the fuzzing account that requests may replace or delete. */
  patternName: string;
};

export type Body =
  | { kind: "json"; value: unknown }
  | { kind: "form"; value: Record<string, string> }
  | { kind: "multipart"; value: Record<string, string> }
  | { kind: "raw"; bytes: Buffer; label: string };

export type Template = {
  /** The endpoint as the report names it, like "/api/drops/{slug}". */
  pattern: string;
  method: string;
  /** Path segments; `params` holds the indexes of those that are parameters. */
  segments: string[];
  params: number[];
  query: string;
  headers: [string, string][];
  body?: Body;
};

const HTML = "<!doctype html><html><head><title>t</title></head><body><h1>fuzz</h1></body></html>";
const MCP_ACCEPT: [string, string] = ["accept", "application/json, text/event-stream"];
const JSON_TYPE: [string, string] = ["content-type", "application/json"];

function bearer(context: FuzzContext): [string, string] {
  return ["authorization", `Bearer ${context.token}`];
}

function slug(random: Random, context: FuzzContext, deletable: boolean): string {
  if (deletable && random.chance(0.6)) return random.pick(context.doomedSlugs);
  return random.weighted([[8, random.pick(context.stableSlugs)], [1, context.otherSlug], [1, "zzzzzzzzzzzz"]]);
}

function version(random: Random): string {
  return String(random.weighted([[6, random.int(1, 4)], [1, random.int(5, 40)]]));
}

function template(pattern: string, method: string, values: Record<string, string>, rest: Partial<Template> = {}): Template {
  const segments: string[] = [];
  const params: number[] = [];
  for (const part of pattern.split("/").slice(1)) {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    if (name) params.push(segments.length);
    segments.push(name ? values[name]! : part);
  }
  return { pattern, method, segments, params, query: "", headers: [], ...rest };
}

function metadata(random: Random): Record<string, string> {
  return random.pick<Record<string, string>>([{ project: "alpha" }, { project: "beta", env: "prod" }, {}]);
}

function createBody(random: Random): Record<string, unknown> {
  const body: Record<string, unknown> = { title: "Fuzz report", html: HTML };
  if (random.chance(0.5)) body.description = "A description";
  if (random.chance(0.15)) body.passcode = "open-sesame";
  if (random.chance(0.5)) body.context = "Why this version";
  if (random.chance(0.5)) body.metadata = metadata(random);
  return body;
}

/** MCP tool calls, with arguments shaped like the REST bodies they mirror. */
function toolCall(random: Random, context: FuzzContext): { name: string; arguments: Record<string, unknown> } {
  const s = slug(random, context, true);
  return random.pick([
    { name: "whoami", arguments: {} },
    { name: "create_drop", arguments: createBody(random) },
    { name: "get_drop", arguments: { slug: s } },
    { name: "list_drops", arguments: { page: 1, page_size: 10, sort_by: "updated_at", sort_order: "asc", metadata: { project: "alpha" } } },
    { name: "update_drop", arguments: { slug: s, html: HTML, title: "v2", context: "c", metadata: metadata(random) } },
    { name: "patch_drop", arguments: { slug: s, title: "patched", description: null, metadata: metadata(random) } },
    { name: "delete_drop", arguments: { slug: random.pick(context.doomedSlugs) } },
    { name: "list_versions", arguments: { slug: s } },
    { name: "get_version", arguments: { slug: s, version: Number(version(random)) } },
    { name: "delete_version", arguments: { slug: s, version: Number(version(random)) } },
    { name: "set_passcode", arguments: { slug: s, passcode: random.pick(["", context.passcode]) } },
    { name: "diff_versions", arguments: { slug: s, from: Number(version(random)), to: Number(version(random)) } },
    { name: "list_comments", arguments: { slug: context.stableSlugs[0], status: random.pick(["open", "all"]) } },
    { name: "reply_to_comment", arguments: { slug: context.stableSlugs[0], body: "noted", reply_to: context.commentId } },
    { name: "resolve_comment", arguments: { slug: context.stableSlugs[0], id: context.commentId } },
    { name: "list_patterns", arguments: {} },
    { name: "get_pattern", arguments: { name: context.patternName } },
    { name: "save_pattern", arguments: { name: context.patternName, markdown: patternMarkdown(context.patternName) } },
  ]);
}

function jsonRpc(random: Random, context: FuzzContext): unknown {
  const id = random.int(1, 1000);
  return random.weighted<() => unknown>([
    [1, () => ({ jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "fuzz", version: "1.0.0" } } })],
    [1, () => ({ jsonrpc: "2.0", id, method: "tools/list", params: {} })],
    [1, () => ({ jsonrpc: "2.0", id, method: "ping" })],
    [1, () => ({ jsonrpc: "2.0", method: "notifications/initialized" })],
    [1, () => ({ jsonrpc: "2.0", id, method: random.pick(["resources/list", "prompts/list", "completion/complete", "logging/setLevel", "tools/unknown"]), params: {} })],
    [8, () => ({ jsonrpc: "2.0", id, method: "tools/call", params: toolCall(random, context) })],
  ])();
}

function patternMarkdown(name: string): string {
  return `---\nname: ${name}\ndescription: A fuzz pattern.\ntriggers: [fuzz]\n---\n\n# Fuzz\n`;
}

/** An authorization request as an MCP client sends it; sometimes one the server must refuse. */
function authorizeQuery(random: Random, context: FuzzContext): string {
  const query = new URLSearchParams({
    client_id: random.weighted([[6, context.oauthClientId], [1, "unknown-client"], [1, "https://127.0.0.1:1/client.json"]]),
    response_type: "code",
    redirect_uri: random.weighted([[6, context.oauthRedirectUri], [1, `${context.origin}/p/${context.stableSlugs[0]}/raw`], [1, "https://evil.example/landing"]]),
    code_challenge: random.pick(["E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", "short", ""]),
    code_challenge_method: random.pick(["S256", "plain"]),
    scope: random.pick(["drops:read", "drops:read drops:write tokens:manage offline_access", "openid unknown"]),
    resource: random.pick([`${context.origin}/mcp`, `${context.origin}/api`, "https://elsewhere.example/"]),
    state: random.pick(["s", "x".repeat(2000)]),
  });
  if (random.chance(0.3)) query.set("prompt", random.pick(["none", "consent", "login"]));
  return query.toString();
}

/** React's encoding of (previous form state, FormData): argument 1 is "$K1", its fields prefixed "1_". */
function actionBody(fields: Record<string, string>): Body {
  const value: Record<string, string> = { "0": JSON.stringify(["$undefined", "$K1"]) };
  for (const [key, field] of Object.entries(fields)) value[`1_${key}`] = field;
  return { kind: "multipart", value };
}

/** One valid request of a random endpoint. */
export function validTemplate(random: Random, context: FuzzContext): Template {
  const auth = bearer(context);
  const s = () => slug(random, context, false);
  const session: [string, string] = ["cookie", context.sessionCookie];
  return random.weighted<() => Template>([
    [6, () => template("/api/drops", "POST", {}, { headers: [auth, JSON_TYPE, ...(random.chance(0.3) ? [["idempotency-key", `k-${random.int(1, 20)}`] as [string, string]] : [])], body: { kind: "json", value: createBody(random) } })],
    [5, () => template("/api/drops", "GET", {}, { headers: [auth], query: "page=1&pageSize=5&sortBy=view_count&sortOrder=asc&metadata.project=alpha" })],
    [4, () => template("/api/drops/{slug}", "GET", { slug: s() }, { headers: [auth] })],
    [5, () => template("/api/drops/{slug}", "PUT", { slug: s() }, { headers: [auth, JSON_TYPE, ...(random.chance(0.3) ? [["if-match", `"${version(random)}"`] as [string, string]] : [])], body: { kind: "json", value: { html: HTML, title: "v2", description: "d", context: "c", metadata: metadata(random) } } })],
    [5, () => template("/api/drops/{slug}", "PATCH", { slug: s() }, { headers: [auth, JSON_TYPE], body: { kind: "json", value: { title: "patched", description: "d", metadata: metadata(random) } } })],
    [2, () => template("/api/drops/{slug}", "DELETE", { slug: slug(random, context, true) }, { headers: [auth] })],
    [3, () => template("/api/drops/{slug}/versions", "GET", { slug: s() }, { headers: [auth] })],
    [3, () => template("/api/drops/{slug}/v/{n}", "GET", { slug: s(), n: version(random) }, { headers: [auth] })],
    [2, () => template("/api/drops/{slug}/v/{n}", "DELETE", { slug: s(), n: version(random) }, { headers: [auth] })],
    [3, () => template("/api/drops/{slug}/passcode", "POST", { slug: s() }, { headers: [auth, JSON_TYPE], body: { kind: "json", value: { passcode: random.pick(["", context.passcode]) } } })],
    [3, () => template("/api/me", "GET", {}, { headers: [auth] })],
    [2, () => template("/api/tokens", "GET", {}, { headers: [auth] })],
    [2, () => template("/api/tokens/{id}", "DELETE", { id: random.pick([...context.doomedTokenIds, context.otherTokenId, "0123456789ab"]) }, { headers: [auth] })],
    [3, () => template("/api/auth/start", "POST", {}, { headers: [JSON_TYPE], body: { kind: "json", value: { label: "laptop" } } })],
    [3, () => template("/api/auth/poll", "GET", {}, { query: `token=${encodeURIComponent(context.pollToken)}` })],
    [2, () => template("/api/onboard", "GET", {}, { headers: [["accept", random.pick(["application/json", "text/markdown", "*/*"])]] })],
    [1, () => template("/openapi.json", "GET", {})],
    [14, () => template("/mcp", "POST", {}, { headers: [auth, JSON_TYPE, MCP_ACCEPT], body: { kind: "json", value: jsonRpc(random, context) } })],
    [1, () => template("/mcp", random.pick(["GET", "DELETE"]), {}, { headers: [auth, MCP_ACCEPT] })],
    [3, () => template("/p/{slug}", "GET", { slug: s() }, { query: random.pick(["", "v=1", "v=2&error=wrong"]) })],
    [4, () => template("/p/{slug}/raw", random.pick(["GET", "HEAD"]), { slug: s() }, { query: random.pick(["", "v=1", "unlock=1.abc"]), headers: random.chance(0.3) ? [["accept-encoding", "br, gzip"]] : [] })],
    [3, () => template("/p/{slug}/unlock", "POST", { slug: s() }, { body: { kind: "form", value: { passcode: random.pick([context.passcode, "wrong-guess"]), v: "1" } } })],
    [1, () => template("/p/{slug}/lock", "POST", { slug: s() }, { headers: [["origin", "http://127.0.0.1"]] })],
    [2, () => template("/verify", "GET", {}, { query: `code=${context.userCode}`, headers: random.chance(0.5) ? [session] : [] })],
    [1, () => template("/verify", "POST", {}, { headers: [session, ["next-action", context.actions.approveDeviceAction ?? ""]], body: { kind: "multipart", value: { "1_code": context.userCode, "0": '["$K1"]' } } })],
    [2, () => template(random.pick(["/.well-known/api-catalog", "/.well-known/agent-card.json", "/.well-known/agent-skills/index.json", "/.well-known/agent-skills/htmldrop/SKILL.md", "/llms.txt", "/", "/docs"]), "GET", {})],
    [2, () => template(random.pick(["/api/auth/providers", "/api/auth/csrf", "/api/auth/session", "/api/auth/signin", "/api/auth/error", "/api/auth/signout"]), "GET", {}, { query: random.pick(["", "callbackUrl=%2Fdashboard", "error=Configuration"]) })],
    [1, () => template("/api/auth/callback/{provider}", "POST", { provider: random.pick(["credentials", "github", "oidc"]) }, { body: { kind: "form", value: { csrfToken: "x", username: "fuzz", callbackUrl: "/dashboard" } } })],
    [2, () => template(random.pick(["/dashboard", "/dashboard/tokens", "/dashboard/account"]), "GET", {}, { headers: [session], query: random.pick(["", "page=2&sortBy=title&tags=project%3Dalpha&q=fuzz"]) })],
    [1, () => template("/dashboard/drops/{slug}", "GET", { slug: s() }, { headers: [session] })],
    // OAuth: the authorization server's endpoints and its consent page, which answer in OAuth's own error shape.
    [3, () => template("/oauth/authorize", "GET", {}, { query: authorizeQuery(random, context), headers: random.chance(0.5) ? [session] : [] })],
    [1, () => template("/oauth/register", "POST", {}, { headers: [JSON_TYPE], body: { kind: "json", value: { client_name: "Fuzz client", redirect_uris: [random.pick([context.oauthRedirectUri, "https://app.example/cb", `${context.origin}/p/x/raw`, "javascript:alert(1)"])], token_endpoint_auth_method: random.pick(["none", "client_secret_basic"]), grant_types: ["authorization_code", "refresh_token"], response_types: ["code"] } } })],
    [2, () => template("/oauth/token", "POST", {}, { body: { kind: "form", value: random.pick<Record<string, string>>([
      { grant_type: "authorization_code", code: "not-a-code", redirect_uri: context.oauthRedirectUri, client_id: context.oauthClientId, code_verifier: "v".repeat(43), resource: `${context.origin}/mcp` },
      { grant_type: "refresh_token", refresh_token: "not-a-token", client_id: context.oauthClientId },
      { grant_type: "client_credentials", client_id: context.oauthClientId },
    ]) } })],
    [1, () => template("/oauth/revoke", "POST", {}, { body: { kind: "form", value: { token: random.pick(["not-a-token", context.token]), client_id: context.oauthClientId } } })],
    [1, () => template("/oauth/consent/{uid}", "GET", { uid: random.pick([context.consentUid, "AAAAAAAAAAAAAAAAAAAAA"]) }, { headers: random.chance(0.7) ? [session] : [] })],
    [1, () => template("/oauth/consent/{uid}/decision", "POST", { uid: random.pick([context.consentUid, "AAAAAAAAAAAAAAAAAAAAA"]) }, { headers: [["origin", context.origin], ["cookie", `${context.sessionCookie}; _interaction=${context.consentUid}`]], body: { kind: "form", value: { decision: random.pick(["approve", "deny", "maybe"]) } } })],
    [1, () => template(random.pick(["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration", "/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource/api"]), "GET", {})],
    // Patterns, the compare page, comments and the view beacon.
    [2, () => template(random.pick(["/api/patterns", "/api/patterns/{name}"]), "GET", { name: random.pick([context.patternName, "data-report", "no-such-pattern"]) }, { headers: [auth] })],
    [2, () => template("/api/patterns/{name}", "PUT", { name: random.pick([context.patternName, "fuzz-new", "Bad Name"]) }, { headers: [auth, JSON_TYPE], body: { kind: "json", value: { markdown: patternMarkdown(context.patternName) } } })],
    [1, () => template("/api/patterns/{name}", "DELETE", { name: random.pick(["fuzz-new", "no-such-pattern"]) }, { headers: [auth] })],
    [1, () => template("/.well-known/patterns/{file}", "GET", { file: random.pick(["index.json", "data-report.md", "data-report.template.html", "nope.md"]) })],
    [2, () => template("/p/{slug}/compare", "GET", { slug: s() }, { query: `from=${version(random)}&to=${version(random)}` })],
    [2, () => template("/p/{slug}/comments", "POST", { slug: random.weighted([[4, context.stableSlugs[0]!], [1, s()]]) }, random.chance(0.5)
      ? { headers: [JSON_TYPE, ["origin", context.origin]], body: { kind: "json", value: { body: "A remark", name: random.pick(["Guest", "fuzz", "ｆuzz\u200b"]), v: 1, quote: "seed" } } }
      : { body: { kind: "form", value: { body: "A remark", name: "Form guest", v: "1" } } })],
    [2, () => template("/api/drops/{slug}/comments", "GET", { slug: s() }, { headers: [auth], query: random.pick(["", "status=open&since=0&version=1&page=1&pageSize=5", "status=resolved"]) })],
    [1, () => template("/api/drops/{slug}/comments", "POST", { slug: s() }, { headers: [auth, JSON_TYPE], body: { kind: "json", value: { body: "Owner reply", reply_to: random.pick([context.commentId, undefined]) } } })],
    [1, () => template("/api/drops/{slug}/comments/{id}", "PATCH", { slug: context.stableSlugs[0]!, id: random.pick([context.commentId, "0".repeat(20)]) }, { headers: [auth, JSON_TYPE], body: { kind: "json", value: { resolved: random.chance(0.5) } } })],
    [1, () => template("/api/drops/{slug}/comments/{id}", "DELETE", { slug: s(), id: "0".repeat(20) }, { headers: [auth] })],
    [2, () => template("/p/{slug}/view", "POST", { slug: s() }, { query: random.pick(["", "v=1", "v=99"]), headers: [["sec-fetch-site", random.pick(["same-origin", "cross-site"])]] })],
    [3, () => {
      const name = random.pick(["editDropAction", "setPasscodeAction", "deleteVersionAction", "revokeTokenAction", "deleteDropAction"]);
      const fields = { slug: random.pick(context.doomedSlugs), title: "from the dashboard", tags: "project=alpha", version: "1", passcode: context.passcode, id: random.pick(context.doomedTokenIds) };
      return template("/dashboard/drops/{slug}", "POST", { slug: s() }, { headers: [session, ["next-action", context.actions[name] ?? "0"]], body: actionBody(fields) });
    }],
  ])();
}

const PREFIXES = [
  "/api", "/api/drops", "/api/drops/{slug}", "/api/drops/{slug}/v", "/api/drops/{slug}/passcode", "/api/drops/{slug}/comments", "/api/tokens", "/api/auth", "/api/me", "/api/patterns",
  "/mcp", "/p", "/p/{slug}", "/p/{slug}/raw", "/p/{slug}/compare", "/p/{slug}/comments", "/p/{slug}/view", "/verify", "/.well-known", "/.well-known/patterns", "/dashboard", "/dashboard/drops", "/docs",
  "/oauth", "/oauth/authorize", "/oauth/token", "/oauth/consent",
  "/_next", "/_next/static/chunks", "/_next/image", "/_next/data", "/favicon.ico", "/robots.txt", "/openapi.json",
];
const WORDS = ["x", "raw", "v", "1", "unlock", "lock", "versions", "passcode", "index.html", "%zz", "..", "", "route", "page", "_rsc", "[slug]", "(group)"];

/** A request to a path no endpoint may expect: a known prefix and a few arbitrary segments. */
export function randomTemplate(random: Random, context: FuzzContext): Template {
  const prefix = random.pick(PREFIXES);
  const values = { slug: slug(random, context, false) };
  const base = template(prefix, random.pick(["GET", "GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"]), values);
  const extra = Array.from({ length: random.int(0, 3) }, () => random.pick(WORDS));
  const query = prefix === "/_next/image" ? random.pick(["url=%2Fp%2Fx&w=64&q=75", "url=http://evil.example/x.png&w=1&q=1", "url=&w=abc", "w=99999999"]) : "";
  return {
    ...base,
    pattern: `${prefix}/*`,
    segments: [...base.segments, ...extra],
    query,
    headers: random.chance(0.5) ? [bearer(context)] : [],
    body: random.chance(0.3) ? { kind: "json", value: { title: "t", html: HTML } } : undefined,
  };
}
