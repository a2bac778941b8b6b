// Scoped tokens against every REST endpoint and every MCP tool: each scope combination is either let
// through or refused with 403 forbidden naming the missing scope, identically on both doors. Then
// drop-limited tokens and expiry on the movable test clock.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type ApiResult, type TestApp } from "../helpers/app";
import { createTestClock } from "../helpers/clock";

type Scope = "drops:read" | "drops:write" | "tokens:manage";
const ALL: Scope[] = ["drops:read", "drops:write", "tokens:manage"];
const HOUR_MS = 3_600_000;

let app: TestApp;
const clock = createTestClock();
let full: string;

beforeAll(async () => {
  // Writes are not what this file tests: budgets large enough for every call below.
  app = await startApp({ env: { HTMLDROP_TEST_CLOCK_FILE: clock.file, LIMIT_WRITES_PER_MINUTE: "100000", LIMIT_WRITES_PER_DAY: "100000" } });
  full = await app.createToken("scoper", "full");
});
afterAll(async () => app?.stop());

const html = (text: string) => `<!doctype html><title>${text}</title><p>${text}</p>`;

async function mint(body: Record<string, unknown>, token = full): Promise<string> {
  const res = await app.api("/api/tokens", { method: "POST", token, body });
  expect(res.status, res.text).toBe(201);
  return res.body.token;
}

/** A drop of the full token's account with two versions, so that one can be deleted. */
async function newDrop(token = full, title = "fixture"): Promise<string> {
  const created = await app.api("/api/drops", { method: "POST", token, body: { title, html: html("v1") } });
  expect(created.status, created.text).toBe(201);
  expect((await app.api(`/api/drops/${created.body.slug}`, { method: "PUT", token, body: { html: html("v2") } })).status).toBe(200);
  return created.body.slug;
}

// An id of no comment: on a drop the token may not touch, the refusal comes before any lookup.
/** An id (of a comment, a list entry) that names nothing. */
const NO_COMMENT = "0".repeat(20);

/** A new comment by the owner on one of the full token's drops (owners may comment with comments off). */
async function newComment(slug: string): Promise<string> {
  const res = await app.api(`/api/drops/${slug}/comments`, { method: "POST", token: full, body: { body: "a fixture comment" } });
  return res.status === 201 ? res.body.id : NO_COMMENT;
}

// One comment per drop serves every PATCH: comments count against the account's 30 per 10 minutes.
const comments = new Map<string, Promise<string>>();
function commentOf(slug: string): Promise<string> {
  if (!comments.has(slug)) comments.set(slug, newComment(slug));
  return comments.get(slug)!;
}

let patternCount = 0;
const nextPatternName = () => `scoped-${++patternCount}`;
const patternBody = (name: string) => ({ markdown: `---\nname: ${name}\ndescription: A fixture.\ntriggers: [fixture]\n---\n\n# Fixture\n` });
const savePattern = (token: string, name: string) => app.api(`/api/patterns/${name}`, { method: "PUT", token, body: patternBody(name) });

/** A new pattern of the full token's account. */
async function newPattern(): Promise<string> {
  const name = nextPatternName();
  expect((await savePattern(full, name)).status).toBe(201);
  return name;
}

let inviteCount = 0;
/** A new entry on a drop's list (a person invited by email), made by the full token; on a drop not its own, an id of none. */
async function newListEntry(slug: string): Promise<string> {
  const res = await app.api(`/api/drops/${slug}/members`, { method: "POST", token: full, body: { email: `invitee-${++inviteCount}@example.test`, role: "viewer" } });
  return res.status === 201 ? res.body.id : NO_COMMENT;
}

/** A new team of the full token's account, with one invited member; its id and that member's. */
async function newTeam(): Promise<{ id: string; memberId: string }> {
  const team = await app.api("/api/teams", { method: "POST", token: full, body: { name: "fixture" } });
  const added = await app.api(`/api/teams/${team.body.id}/members`, { method: "POST", token: full, body: { login: `teammate-${++inviteCount}` } });
  expect(added.status, added.text).toBe(201);
  return { id: team.body.id, memberId: added.body.members.find((member: { pending: boolean }) => member.pending).id };
}

// Webhooks of the full token's account: one shared by the calls that read or change it (a test event
// sent to it gives the delivery "send again" retries), and one spare for each call that deletes one.
// Nothing listens at port 9: a delivery there fails at once, which is still a 200 for test and retry.
const HOOK_URL = "http://127.0.0.1:9/hook";
let sharedHook: { id: string; delivery: string } | null = null;
let spareHook: string | null = null;

async function webhookFixture(): Promise<{ id: string; delivery: string }> {
  if (sharedHook) return sharedHook;
  const created = await app.api("/api/webhooks", { method: "POST", token: full, body: { url: HOOK_URL, events: ["drop.created"] } });
  expect(created.status, created.text).toBe(201);
  const test = await app.api(`/api/webhooks/${created.body.id}/test`, { method: "POST", token: full });
  return (sharedHook = { id: created.body.id, delivery: test.body.id });
}

async function spareWebhook(): Promise<string> {
  if (spareHook) return spareHook;
  const created = await app.api("/api/webhooks", { method: "POST", token: full, body: { url: HOOK_URL, events: ["drop.created"] } });
  expect(created.status, created.text).toBe(201);
  return (spareHook = created.body.id as string);
}

async function deleteSpare(send: (id: string) => Promise<ApiResult>): Promise<ApiResult> {
  const res = await send(await spareWebhook());
  if (res.status === 204) spareHook = null;
  return res;
}

type ToolResult = { isError?: boolean; structuredContent: any };

async function callTool(token: string, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  const response = await fetch(`http://127.0.0.1:${app.env.PORT}/mcp`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { result: ToolResult }).result;
}

// Every endpoint that takes a bearer token, stated independently of the implementation: the scope it
// needs (null: none), and a call that succeeds when allowed. `fresh` calls destroy their drop.
type RestCase = { name: string; scope: Scope | null; fresh?: boolean; status: number; send(token: string, slug: string): Promise<ApiResult> };
const REST: RestCase[] = [
  { name: "GET /api/me", scope: null, status: 200, send: (token) => app.api("/api/me", { token }) },
  { name: "GET /api/me/notifications", scope: "tokens:manage", status: 200, send: (token) => app.api("/api/me/notifications", { token }) },
  { name: "PATCH /api/me/notifications", scope: "tokens:manage", status: 200, send: (token) => app.api("/api/me/notifications", { method: "PATCH", token, body: { comments: true } }) },
  { name: "GET /api/tokens", scope: "tokens:manage", status: 200, send: (token) => app.api("/api/tokens", { token }) },
  { name: "POST /api/tokens", scope: "tokens:manage", status: 201, send: (token) => app.api("/api/tokens", { method: "POST", token, body: { label: "child" } }) },
  {
    name: "DELETE /api/tokens/{id}",
    scope: "tokens:manage",
    status: 204,
    send: async (token) => {
      // No broader than any token with tokens:manage, so every such token may revoke it.
      const victim = await mint({ label: "victim", scopes: ["tokens:manage"] });
      const id = (await app.api("/api/me", { token: victim })).body.token.id;
      return app.api(`/api/tokens/${id}`, { method: "DELETE", token });
    },
  },
  { name: "GET /api/drops", scope: "drops:read", status: 200, send: (token) => app.api("/api/drops", { token }) },
  { name: "POST /api/drops", scope: "drops:write", status: 201, send: (token) => app.api("/api/drops", { method: "POST", token, body: { title: "new", html: html("new") } }) },
  { name: "GET /api/drops/{slug}", scope: "drops:read", status: 200, send: (token, slug) => app.api(`/api/drops/${slug}`, { token }) },
  { name: "PUT /api/drops/{slug}", scope: "drops:write", status: 200, send: (token, slug) => app.api(`/api/drops/${slug}`, { method: "PUT", token, body: { html: html("put") } }) },
  { name: "PATCH /api/drops/{slug}", scope: "drops:write", status: 200, send: (token, slug) => app.api(`/api/drops/${slug}`, { method: "PATCH", token, body: { title: "patched" } }) },
  { name: "DELETE /api/drops/{slug}", scope: "drops:write", fresh: true, status: 204, send: (token, slug) => app.api(`/api/drops/${slug}`, { method: "DELETE", token }) },
  { name: "GET /api/drops/{slug}/versions", scope: "drops:read", status: 200, send: (token, slug) => app.api(`/api/drops/${slug}/versions`, { token }) },
  { name: "GET /api/drops/{slug}/stats", scope: "drops:read", status: 200, send: (token, slug) => app.api(`/api/drops/${slug}/stats`, { token }) },
  { name: "GET /api/drops/{slug}/v/{n}", scope: "drops:read", status: 200, send: (token, slug) => app.api(`/api/drops/${slug}/v/1`, { token }) },
  { name: "GET /api/drops/{slug}/diff", scope: "drops:read", status: 200, send: (token, slug) => app.api(`/api/drops/${slug}/diff?from=1&to=2`, { token }) },
  { name: "DELETE /api/drops/{slug}/v/{n}", scope: "drops:write", fresh: true, status: 200, send: (token, slug) => app.api(`/api/drops/${slug}/v/1`, { method: "DELETE", token }) },
  { name: "GET /api/drops/{slug}/comments", scope: "drops:read", status: 200, send: (token, slug) => app.api(`/api/drops/${slug}/comments?status=open`, { token }) },
  { name: "POST /api/drops/{slug}/comments", scope: "drops:write", status: 201, send: (token, slug) => app.api(`/api/drops/${slug}/comments`, { method: "POST", token, body: { body: "noted" } }) },
  {
    name: "PATCH /api/drops/{slug}/comments/{id}",
    scope: "drops:write",
    status: 200,
    send: async (token, slug) => app.api(`/api/drops/${slug}/comments/${await commentOf(slug)}`, { method: "PATCH", token, body: { resolved: true } }),
  },
  // Each call deletes a comment of its own.
  { name: "DELETE /api/drops/{slug}/comments/{id}", scope: "drops:write", status: 204, send: async (token, slug) => app.api(`/api/drops/${slug}/comments/${await newComment(slug)}`, { method: "DELETE", token }) },
  { name: "POST /api/drops/{slug}/passcode", scope: "drops:write", status: 200, send: (token, slug) => app.api(`/api/drops/${slug}/passcode`, { method: "POST", token, body: { passcode: "" } }) },
  { name: "GET /api/drops/{slug}/members", scope: "drops:read", status: 200, send: (token, slug) => app.api(`/api/drops/${slug}/members`, { token }) },
  {
    name: "POST /api/drops/{slug}/members",
    scope: "drops:write",
    status: 201,
    send: (token, slug) => app.api(`/api/drops/${slug}/members`, { method: "POST", token, body: { email: `invitee-${++inviteCount}@example.test`, role: "viewer" } }),
  },
  {
    name: "PATCH /api/drops/{slug}/members/{id}",
    scope: "drops:write",
    status: 200,
    send: async (token, slug) => app.api(`/api/drops/${slug}/members/${await newListEntry(slug)}`, { method: "PATCH", token, body: { role: "editor" } }),
  },
  { name: "DELETE /api/drops/{slug}/members/{id}", scope: "drops:write", status: 204, send: async (token, slug) => app.api(`/api/drops/${slug}/members/${await newListEntry(slug)}`, { method: "DELETE", token }) },
  { name: "GET /api/teams", scope: "drops:read", status: 200, send: (token) => app.api("/api/teams", { token }) },
  { name: "POST /api/teams", scope: "drops:write", status: 201, send: (token) => app.api("/api/teams", { method: "POST", token, body: { name: "new team" } }) },
  { name: "GET /api/teams/{id}", scope: "drops:read", status: 200, send: async (token) => app.api(`/api/teams/${(await newTeam()).id}`, { token }) },
  { name: "DELETE /api/teams/{id}", scope: "drops:write", status: 204, send: async (token) => app.api(`/api/teams/${(await newTeam()).id}`, { method: "DELETE", token }) },
  {
    name: "POST /api/teams/{id}/members",
    scope: "drops:write",
    status: 201,
    send: async (token) => app.api(`/api/teams/${(await newTeam()).id}/members`, { method: "POST", token, body: { login: `teammate-${++inviteCount}` } }),
  },
  {
    name: "DELETE /api/teams/{id}/members/{member_id}",
    scope: "drops:write",
    status: 204,
    send: async (token) => {
      const team = await newTeam();
      return app.api(`/api/teams/${team.id}/members/${team.memberId}`, { method: "DELETE", token });
    },
  },
  { name: "GET /api/patterns", scope: "drops:read", status: 200, send: (token) => app.api("/api/patterns", { token }) },
  { name: "GET /api/patterns/{name}", scope: "drops:read", status: 200, send: async (token) => app.api(`/api/patterns/${await newPattern()}`, { token }) },
  { name: "PUT /api/patterns/{name}", scope: "drops:write", status: 201, send: (token) => savePattern(token, nextPatternName()) },
  { name: "DELETE /api/patterns/{name}", scope: "drops:write", status: 204, send: async (token) => app.api(`/api/patterns/${await newPattern()}`, { method: "DELETE", token }) },
  { name: "GET /api/webhooks", scope: "tokens:manage", status: 200, send: (token) => app.api("/api/webhooks", { token }) },
  { name: "POST /api/webhooks", scope: "tokens:manage", status: 201, send: (token) => app.api("/api/webhooks", { method: "POST", token, body: { url: HOOK_URL, events: ["drop.created"] } }) },
  { name: "GET /api/webhooks/{id}", scope: "tokens:manage", status: 200, send: async (token) => app.api(`/api/webhooks/${(await webhookFixture()).id}`, { token }) },
  {
    name: "PATCH /api/webhooks/{id}",
    scope: "tokens:manage",
    status: 200,
    send: async (token) => app.api(`/api/webhooks/${(await webhookFixture()).id}`, { method: "PATCH", token, body: { description: "patched" } }),
  },
  { name: "DELETE /api/webhooks/{id}", scope: "tokens:manage", status: 204, send: (token) => deleteSpare((id) => app.api(`/api/webhooks/${id}`, { method: "DELETE", token })) },
  { name: "GET /api/webhooks/{id}/deliveries", scope: "tokens:manage", status: 200, send: async (token) => app.api(`/api/webhooks/${(await webhookFixture()).id}/deliveries`, { token }) },
  { name: "POST /api/webhooks/{id}/test", scope: "tokens:manage", status: 200, send: async (token) => app.api(`/api/webhooks/${(await webhookFixture()).id}/test`, { method: "POST", token }) },
  {
    name: "POST /api/webhooks/{id}/deliveries/{delivery_id}/retry",
    scope: "tokens:manage",
    status: 200,
    send: async (token) => {
      const { id, delivery } = await webhookFixture();
      return app.api(`/api/webhooks/${id}/deliveries/${delivery}/retry`, { method: "POST", token });
    },
  },
];

/** `before`: makes what the call acts on, by the full token, before each call (`args` reads what it made). */
type ToolCase = { name: string; scope: Scope | null; fresh?: boolean; before?(slug: string): Promise<unknown>; args(slug: string): Record<string, unknown> };
let toolTeam = { id: NO_COMMENT, memberId: NO_COMMENT };
let toolEntry = NO_COMMENT;
const saveSharedPattern = async () => expect((await savePattern(full, "scoped-shared")).status).toBeLessThan(300);
const makeTeam = async () => (toolTeam = await newTeam());
const makeListEntry = async (slug: string) => (toolEntry = await newListEntry(slug));
const TOOLS: ToolCase[] = [
  { name: "whoami", scope: null, args: () => ({}) },
  { name: "create_drop", scope: "drops:write", args: () => ({ title: "by mcp", html: html("mcp") }) },
  { name: "get_drop", scope: "drops:read", args: (slug) => ({ slug }) },
  { name: "list_drops", scope: "drops:read", args: () => ({}) },
  { name: "update_drop", scope: "drops:write", args: (slug) => ({ slug, html: html("mcp v") }) },
  { name: "patch_drop", scope: "drops:write", args: (slug) => ({ slug, title: "mcp patched" }) },
  { name: "delete_drop", scope: "drops:write", fresh: true, args: (slug) => ({ slug }) },
  { name: "list_versions", scope: "drops:read", args: (slug) => ({ slug }) },
  { name: "get_version", scope: "drops:read", args: (slug) => ({ slug, version: 1 }) },
  { name: "diff_versions", scope: "drops:read", args: (slug) => ({ slug, from: 1, to: 2 }) },
  { name: "delete_version", scope: "drops:write", fresh: true, args: (slug) => ({ slug, version: 1 }) },
  { name: "set_passcode", scope: "drops:write", args: (slug) => ({ slug, passcode: "" }) },
  { name: "drop_stats", scope: "drops:read", args: (slug) => ({ slug }) },
  { name: "list_comments", scope: "drops:read", args: (slug) => ({ slug, status: "open" }) },
  { name: "reply_to_comment", scope: "drops:write", args: (slug) => ({ slug, body: "noted over mcp" }) },
  // The shared drop's comment, made before the calls (beforeAll); elsewhere the refusal comes first.
  { name: "resolve_comment", scope: "drops:write", args: (slug) => ({ slug, id: sharedComment ?? NO_COMMENT }) },
  { name: "list_patterns", scope: "drops:read", args: () => ({}) },
  // Saved before each call: a built-in name would be refused as a delete, and get works either way.
  { name: "get_pattern", scope: "drops:read", before: saveSharedPattern, args: () => ({ name: "scoped-shared" }) },
  { name: "save_pattern", scope: "drops:write", before: saveSharedPattern, args: () => ({ name: "scoped-shared", ...patternBody("scoped-shared") }) },
  { name: "delete_pattern", scope: "drops:write", before: saveSharedPattern, args: () => ({ name: "scoped-shared" }) },
  { name: "list_drop_members", scope: "drops:read", args: (slug) => ({ slug }) },
  { name: "share_drop", scope: "drops:write", args: (slug) => ({ slug, email: `invitee-${++inviteCount}@example.test`, role: "viewer" }) },
  { name: "set_member_role", scope: "drops:write", before: makeListEntry, args: (slug) => ({ slug, id: toolEntry, role: "editor" }) },
  { name: "unshare_drop", scope: "drops:write", before: makeListEntry, args: (slug) => ({ slug, id: toolEntry }) },
  { name: "list_teams", scope: "drops:read", args: () => ({}) },
  { name: "create_team", scope: "drops:write", args: () => ({ name: "by mcp" }) },
  { name: "get_team", scope: "drops:read", before: makeTeam, args: () => ({ team_id: toolTeam.id }) },
  { name: "add_team_member", scope: "drops:write", before: makeTeam, args: () => ({ team_id: toolTeam.id, login: `teammate-${++inviteCount}` }) },
  { name: "remove_team_member", scope: "drops:write", before: makeTeam, args: () => ({ team_id: toolTeam.id, member_id: toolTeam.memberId }) },
  { name: "delete_team", scope: "drops:write", before: makeTeam, args: () => ({ team_id: toolTeam.id }) },
  { name: "list_webhooks", scope: "tokens:manage", args: () => ({}) },
  { name: "create_webhook", scope: "tokens:manage", args: () => ({ url: HOOK_URL, events: ["drop.created"] }) },
  { name: "get_webhook", scope: "tokens:manage", before: webhookFixture, args: () => ({ webhook_id: sharedHook!.id }) },
  { name: "update_webhook", scope: "tokens:manage", before: webhookFixture, args: () => ({ webhook_id: sharedHook!.id, description: "by mcp" }) },
  // A new spare before each call: one the previous call deleted is gone.
  { name: "delete_webhook", scope: "tokens:manage", before: async () => (spareHook = null, spareWebhook()), args: () => ({ webhook_id: spareHook! }) },
  { name: "list_webhook_deliveries", scope: "tokens:manage", before: webhookFixture, args: () => ({ webhook_id: sharedHook!.id }) },
  { name: "test_webhook", scope: "tokens:manage", before: webhookFixture, args: () => ({ webhook_id: sharedHook!.id }) },
  { name: "retry_webhook_delivery", scope: "tokens:manage", before: webhookFixture, args: () => ({ webhook_id: sharedHook!.id, delivery_id: sharedHook!.delivery }) },
];
let sharedComment: string | undefined;

// Every combination that decides anything: each scope alone and each pair (all three is the admin token).
const COMBINATIONS: Scope[][] = [["drops:read"], ["drops:write"], ["tokens:manage"], ["drops:read", "drops:write"], ["drops:read", "tokens:manage"], ["drops:write", "tokens:manage"], ALL];

function expectRefusal(body: any, scope: Scope, context: string): void {
  expect(body?.error?.code, context).toBe("forbidden");
  expect(body.error.details, context).toEqual({ required_scope: scope });
  expect(body.error.message, context).toContain(scope);
}

describe("every scope combination against every endpoint and tool", () => {
  const tokens = new Map<string, string>();
  let shared: string;

  beforeAll(async () => {
    shared = await newDrop();
    sharedComment = await commentOf(shared);
    for (const scopes of COMBINATIONS) tokens.set(scopes.join(" "), scopes.length === 3 ? full : await mint({ label: scopes.join("+"), scopes }));
  });

  it("covers every authenticated operation of the OpenAPI document and every MCP tool", async () => {
    const openapi = (await app.api("/openapi.json")).body;
    const authenticated = Object.entries<any>(openapi.paths).flatMap(([path, methods]) =>
      Object.entries<any>(methods)
        // /metrics and the cron route take an operator's secret (METRICS_TOKEN, CRON_SECRET), not an account's token.
        .filter(([, operation]) => operation.security?.some((scheme: object) => "bearerAuth" in scheme) && path !== "/mcp")
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(REST.map((entry) => entry.name).sort()).toEqual(authenticated.sort());
    const listed = await fetch(`http://127.0.0.1:${app.env.PORT}/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${full}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    const names = ((await listed.json()) as { result: { tools: { name: string }[] } }).result.tools.map((tool) => tool.name);
    expect(TOOLS.map((tool) => tool.name).sort()).toEqual(names.sort());
  });

  it.each(REST)("REST $name", async (entry) => {
    for (const scopes of COMBINATIONS) {
      const allowed = entry.scope === null || scopes.includes(entry.scope);
      const slug = entry.fresh ? await newDrop() : shared;
      const res = await entry.send(tokens.get(scopes.join(" "))!, slug);
      const context = `${entry.name} with [${scopes.join(", ")}]`;
      if (allowed) {
        expect(res.status, `${context}: ${res.text}`).toBe(entry.status);
      } else {
        expect(res.status, context).toBe(403);
        expectRefusal(res.body, entry.scope!, context);
        // A refused call changed nothing.
        if (entry.fresh) expect((await app.api(`/api/drops/${slug}/versions`, { token: full })).body, context).toHaveLength(2);
      }
    }
  });

  it.each(TOOLS)("MCP $name", async (tool) => {
    for (const scopes of COMBINATIONS) {
      const allowed = tool.scope === null || scopes.includes(tool.scope);
      const slug = tool.fresh ? await newDrop() : shared;
      await tool.before?.(slug);
      const result = await callTool(tokens.get(scopes.join(" "))!, tool.name, tool.args(slug));
      const context = `${tool.name} with [${scopes.join(", ")}]`;
      if (allowed) {
        expect(result.isError, `${context}: ${JSON.stringify(result.structuredContent)}`).toBeFalsy();
      } else {
        expect(result.isError, context).toBe(true);
        expectRefusal(result.structuredContent, tool.scope!, context);
        if (tool.fresh) expect((await app.api(`/api/drops/${slug}/versions`, { token: full })).body, context).toHaveLength(2);
      }
    }
  });

  it("shows each token's scopes, drops and expiry in GET /api/me, GET /api/tokens and whoami", async () => {
    const reader = tokens.get("drops:read")!;
    const me = await app.api("/api/me", { token: reader });
    expect(me.body.token).toMatchObject({ label: "drops:read", scopes: ["drops:read"], drops: null, expires_at: null });
    expect((await callTool(reader, "whoami", {})).structuredContent).toEqual(me.body);
    const listed = (await app.api("/api/tokens", { token: full })).body.find((item: { id: string }) => item.id === me.body.token.id);
    expect(listed).toMatchObject({ scopes: ["drops:read"], drops: null, expires_at: null, revoked_at: null });
    // The admin command without flags makes a token with everything, as before scopes existed.
    expect((await app.api("/api/me", { token: full })).body.token).toMatchObject({ scopes: ALL, drops: null, expires_at: null });
  });
});

describe("a token limited to some drops", () => {
  let mine: string;
  let sibling: string;
  let foreign: string;
  let limited: string;

  beforeAll(async () => {
    mine = await newDrop(full, "mine");
    sibling = await newDrop(full, "sibling");
    const other = await app.createToken("someone-else");
    foreign = await newDrop(other, "someone else's secret plan");
    limited = await mint({ label: "one drop", drops: [mine] });
  });

  it("acts on its drops and is refused on every other slug, existing or not, over REST", async () => {
    expect((await app.api(`/api/drops/${mine}`, { token: limited })).status).toBe(200);
    for (const slug of [sibling, foreign, "zzzzzzzzzzzz"]) {
      for (const entry of REST.filter((candidate) => candidate.name.includes("{slug}"))) {
        const res = await entry.send(limited, slug);
        const context = `${entry.name} on ${slug}`;
        expect(res.status, context).toBe(403);
        expect(res.body.error.code, context).toBe("forbidden");
        expect(res.body.error.message, context).toContain(mine);
        expect(res.text, context).not.toContain("secret plan");
      }
    }
    expect((await app.api(`/api/drops/${sibling}`, { token: full })).body.latest_version).toBe(2);
  });

  it("lists only its drops and cannot create one, over REST", async () => {
    const list = await app.api("/api/drops", { token: limited });
    expect(list.status).toBe(200);
    expect(list.body.data.map((drop: { slug: string }) => drop.slug)).toEqual([mine]);
    expect(list.body.pagination.total_items).toBe(1);
    const create = await app.api("/api/drops", { method: "POST", token: limited, body: { title: "escape", html: html("x") } });
    expect(create.status).toBe(403);
    expect(create.body.error.code).toBe("forbidden");
    expect(create.body.error.message).toContain(mine);
  });

  it("is held to the same limits by every MCP tool", async () => {
    expect((await callTool(limited, "get_drop", { slug: mine })).isError).toBeFalsy();
    for (const tool of TOOLS.filter((candidate) => candidate.args("x").slug !== undefined)) {
      const result = await callTool(limited, tool.name, tool.args(sibling));
      expect(result.isError, tool.name).toBe(true);
      expect(result.structuredContent.error.code, tool.name).toBe("forbidden");
      expect(result.structuredContent.error.message, tool.name).toContain(mine);
    }
    const listed = await callTool(limited, "list_drops", {});
    expect(listed.structuredContent.data.map((drop: { slug: string }) => drop.slug)).toEqual([mine]);
    const created = await callTool(limited, "create_drop", { title: "escape", html: html("x") });
    expect(created.isError).toBe(true);
    expect(created.structuredContent.error.code).toBe("forbidden");
    expect((await callTool(limited, "whoami", {})).structuredContent.token.drops).toEqual([mine]);
  });

  it("reads the account's patterns but cannot change them, which would shape every drop", async () => {
    const name = await newPattern();
    expect((await app.api("/api/patterns", { token: limited })).status).toBe(200);
    expect((await app.api(`/api/patterns/${name}`, { token: limited })).status).toBe(200);
    for (const res of [await savePattern(limited, name), await app.api(`/api/patterns/${name}`, { method: "DELETE", token: limited })]) {
      expect(res.status).toBe(403);
      expect(res.body.error.message).toContain("cannot change the account's patterns");
    }
    const tool = await callTool(limited, "save_pattern", { name, ...patternBody(name) });
    expect(tool.structuredContent.error.code).toBe("forbidden");
  });

  it("cannot manage the account's webhooks, which see every drop's events", async () => {
    const res = await app.api("/api/webhooks", { token: limited });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toContain("cannot manage the account's webhooks");
    const settings = await app.api("/api/me/notifications", { method: "PATCH", token: limited, body: { comments: false } });
    expect(settings.status).toBe(403);
    expect(settings.body.error.message).toContain("cannot change the account's notification settings");
  });

  it("hands on only its own drops through POST /api/tokens", async () => {
    const child = await app.api("/api/tokens", { method: "POST", token: limited, body: {} });
    expect(child.status).toBe(201);
    expect(child.body.drops).toEqual([mine]);
    for (const drops of [null, [sibling], [mine, sibling]]) {
      const res = await app.api("/api/tokens", { method: "POST", token: limited, body: { drops } });
      expect(res.status, JSON.stringify(drops)).toBe(403);
      expect(res.body.error.code).toBe("forbidden");
    }
    // A token for every drop may name any drop of its account, but not another account's or a missing one.
    for (const slug of [foreign, "zzzzzzzzzzzz"]) {
      const res = await app.api("/api/tokens", { method: "POST", token: full, body: { drops: [mine, slug] } });
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual({ code: "invalid_arg", message: `Invalid arguments: drops.1: no drop ${slug} in your account`, details: { fields: [{ field: "drops.1", message: `no drop ${slug} in your account` }] } });
    }
  });

  it("sees and revokes only tokens no broader than itself, and learns no other drop's slug from them", async () => {
    const narrower = await mint({ label: "narrower", drops: [mine], scopes: ["drops:read"] });
    const broader = { sibling: await mint({ drops: [sibling] }), both: await mint({ drops: [mine, sibling] }), everything: await mint({ label: "everything" }) };
    const idOf = async (token: string) => (await app.api("/api/me", { token })).body.token.id as string;
    const listed = await app.api("/api/tokens", { token: limited });
    expect(listed.status).toBe(200);
    const ids = listed.body.map((item: { id: string }) => item.id);
    expect(ids).toEqual(expect.arrayContaining([await idOf(limited), await idOf(narrower)]));
    for (const token of [full, ...Object.values(broader)]) expect(ids).not.toContain(await idOf(token));
    expect(listed.text).not.toContain(sibling);
    for (const token of [full, ...Object.values(broader)]) {
      const res = await app.api(`/api/tokens/${await idOf(token)}`, { method: "DELETE", token: limited });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("not_found");
      expect((await app.api("/api/me", { token })).status).toBe(200);
    }
    expect((await app.api(`/api/tokens/${await idOf(narrower)}`, { method: "DELETE", token: limited })).status).toBe(204);
    expect((await app.api("/api/me", { token: narrower })).status).toBe(401);
  });
});

describe("a token with fewer scopes", () => {
  it("sees and revokes only tokens whose scopes it holds too", async () => {
    const manager = await mint({ label: "manager only", scopes: ["tokens:manage"] });
    const fullId = (await app.api("/api/me", { token: full })).body.token.id;
    const listed = await app.api("/api/tokens", { token: manager });
    expect(listed.body.every((item: { scopes: Scope[] }) => item.scopes.every((scope) => scope === "tokens:manage"))).toBe(true);
    expect(listed.body.map((item: { id: string }) => item.id)).not.toContain(fullId);
    expect((await app.api(`/api/tokens/${fullId}`, { method: "DELETE", token: manager })).status).toBe(404);
    expect((await app.api("/api/me", { token: full })).status).toBe(200);
  });
});

describe("expiry, on the server's clock", () => {
  it("stops a token at its expiry with a 401 that says so, on REST and MCP, and never lets a child outlive it", async () => {
    const at = Date.now();
    const expiring = await mint({ label: "an hour", expires_at: at + HOUR_MS });
    expect((await app.api("/api/me", { token: expiring })).body.token.expires_at).toBe(at + HOUR_MS);

    // Lifetime cannot be extended through POST /api/tokens; omitted, it is inherited.
    for (const expires_at of [null, at + 2 * HOUR_MS]) {
      const res = await app.api("/api/tokens", { method: "POST", token: expiring, body: { expires_at } });
      expect(res.status, String(expires_at)).toBe(403);
      expect(res.body.error.code).toBe("forbidden");
    }
    const inherited = await app.api("/api/tokens", { method: "POST", token: expiring, body: {} });
    expect(inherited.body.expires_at).toBe(at + HOUR_MS);
    const shorter = await app.api("/api/tokens", { method: "POST", token: expiring, body: { expires_at: at + HOUR_MS / 2 } });
    expect(shorter.status).toBe(201);

    clock.advance(2 * HOUR_MS);
    for (const token of [expiring, inherited.body.token, shorter.body.token]) {
      const res = await app.api("/api/drops", { token });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("unauthorized");
      expect(res.body.error.message).toMatch(/expired at \d{4}-\d{2}-\d{2}T/);
    }
    const mcp = await fetch(`http://127.0.0.1:${app.env.PORT}/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${expiring}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(mcp.status).toBe(401);
    expect(((await mcp.json()) as any).error.message).toMatch(/expired/);
    // A token without expiry is untouched by time; an expiry already past cannot be asked for.
    expect((await app.api("/api/me", { token: full })).status).toBe(200);
    const past = await app.api("/api/tokens", { method: "POST", token: full, body: { expires_at: at + HOUR_MS } });
    expect(past.status).toBe(400);
    expect(past.body.error.details.fields).toEqual([{ field: "expires_at", message: "must be in the future" }]);
  });
});
