// The MCP endpoint driven by the SDK's own client over real HTTP; every tool result is compared
// with what the REST API answers for the same drop.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, ErrorCode, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app";
import { createTestClock, MINUTE_MS } from "../helpers/clock";

const TOOL_NAMES = [
  "whoami",
  "create_drop",
  "get_drop",
  "list_drops",
  "update_drop",
  "patch_drop",
  "delete_drop",
  "list_versions",
  "get_version",
  "diff_versions",
  "delete_version",
  "set_passcode",
  "drop_stats",
  "list_comments",
  "reply_to_comment",
  "resolve_comment",
  "list_patterns",
  "get_pattern",
  "save_pattern",
  "delete_pattern",
  "list_drop_members",
  "share_drop",
  "set_member_role",
  "unshare_drop",
  "list_teams",
  "create_team",
  "get_team",
  "add_team_member",
  "remove_team_member",
  "delete_team",
  "list_webhooks",
  "create_webhook",
  "get_webhook",
  "update_webhook",
  "delete_webhook",
  "list_webhook_deliveries",
  "test_webhook",
  "retry_webhook_delivery",
];

const PAGE = (body: string) => `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`;

function mcpUrl(app: TestApp): URL {
  return new URL("/mcp", `http://127.0.0.1:${app.env.PORT}`);
}

type Seen = { method: string; status: number; headers: Headers };
type Connection = { client: Client; responses: Seen[] };

/** Connects the SDK client; the status and headers of every HTTP response it receives are kept. */
async function connect(app: TestApp, token?: string): Promise<Connection> {
  const responses: Seen[] = [];
  const transport = new StreamableHTTPClientTransport(mcpUrl(app), {
    requestInit: { headers: token ? { authorization: `Bearer ${token}` } : {} },
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      // Not response.clone(): cancelling one branch of a tee waits for the other.
      responses.push({ method: init?.method ?? "GET", status: response.status, headers: response.headers });
      return response;
    },
  });
  const client = new Client({ name: "htmldrop-tests", version: "1.0.0" });
  await client.connect(transport);
  return { client, responses };
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  // The text content always carries the same JSON as structuredContent.
  expect(result.content).toHaveLength(1);
  const [content] = result.content;
  expect(content?.type).toBe("text");
  expect(JSON.parse((content as { text: string }).text)).toEqual(result.structuredContent);
  return result;
}

async function ok(client: Client, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const result = await call(client, name, args);
  expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy();
  return result.structuredContent;
}

async function fails(client: Client, name: string, args: Record<string, unknown> = {}): Promise<{ error: { code: string; message: string; details?: any } }> {
  const result = await call(client, name, args);
  expect(result.isError).toBe(true);
  return result.structuredContent as any;
}

/** A raw JSON-RPC POST, for checks the SDK client hides (status, headers). */
async function rawPost(app: TestApp, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(mcpUrl(app), {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: await response.json().catch(() => undefined) };
}

/** A POST naming `host` in its Host header, which fetch does not let a caller set. */
function postWithHost(app: TestApp, host: string, token: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      mcpUrl(app),
      { method: "POST", headers: { host, authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" } },
      (response) => {
        let text = "";
        response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text || "null") }));
      },
    );
    outgoing.on("error", reject);
    outgoing.end(JSON.stringify(INITIALIZE));
  });
}

/** Every place in a JSON Schema that strict checkers (the MCP Inspector's --strict) warn about. */
function strictWarnings(node: unknown, path = "#"): string[] {
  if (Array.isArray(node)) return node.flatMap((item, index) => strictWarnings(item, `${path}/${index}`));
  if (node === null || typeof node !== "object") return [];
  const schema = node as Record<string, unknown>;
  const own: string[] = [];
  if (Array.isArray(schema.type)) own.push(`${path}: type ${JSON.stringify(schema.type)}`);
  const extra = schema.additionalProperties;
  if (extra !== null && typeof extra === "object" && Object.keys(extra).length === 0) own.push(`${path}: additionalProperties {}`);
  return [...own, ...Object.entries(schema).flatMap(([key, value]) => strictWarnings(value, `${path}/${key}`))];
}

function oauthHint(app: TestApp): string {
  return `resource_metadata="http://localhost:${app.env.PORT}/.well-known/oauth-protected-resource/mcp", scope="drops:read drops:write tokens:manage"`;
}

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

describe("MCP endpoint", () => {
  let app: TestApp;
  let alice: string;
  let bob: string;
  let mcp: Client;

  beforeAll(async () => {
    app = await startApp();
    [alice, bob] = await Promise.all([app.createToken("alice", "laptop"), app.createToken("bob")]);
    mcp = (await connect(app, alice)).client;
  });
  afterAll(async () => {
    await mcp?.close();
    await app?.stop();
  });

  describe("authentication", () => {
    it("refuses initialize without a token: 401, Error body, WWW-Authenticate: Bearer", async () => {
      const error = await connect(app).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(StreamableHTTPError);
      expect((error as StreamableHTTPError).code).toBe(401);

      const response = await rawPost(app, INITIALIZE);
      expect(response.status).toBe(401);
      // RFC 9728: the challenge names where an OAuth client finds htmldrop's authorization server.
      expect(response.headers.get("www-authenticate")).toBe(`Bearer realm="htmldrop", ${oauthHint(app)}`);
      expect(response.body).toEqual({ error: { code: "token_required", message: expect.any(String) } });
      expect(response.headers.get("location")).toBeNull();
    });

    it("refuses unknown, revoked and malformed tokens with 401 and error=invalid_token", async () => {
      const unknown = await rawPost(app, INITIALIZE, { authorization: `Bearer hd_${"x".repeat(40)}` });
      expect(unknown.status).toBe(401);
      expect(unknown.body.error.code).toBe("unauthorized");
      expect(unknown.headers.get("www-authenticate")).toBe(`Bearer realm="htmldrop", error="invalid_token", ${oauthHint(app)}`);

      const malformed = await rawPost(app, INITIALIZE, { authorization: "Basic YWxpY2U6cHc=" });
      expect(malformed.status).toBe(401);
      expect(malformed.body.error.code).toBe("invalid_token");
      expect(malformed.headers.get("www-authenticate")).toMatch(/^Bearer /);

      const revocable = await app.createToken("alice", "to revoke");
      const { client } = await connect(app, revocable);
      const me = await ok(client, "whoami");
      expect((await app.api(`/api/tokens/${me.token.id}`, { method: "DELETE", token: alice })).status).toBe(204);
      // Stateless: the very next request is authenticated again and refused.
      const error = await client.callTool({ name: "whoami", arguments: {} }).catch((caught: unknown) => caught);
      expect((error as StreamableHTTPError).code).toBe(401);
      await client.close();
    });

    it("requires the token on every request, not only on initialize; each request stands alone", async () => {
      const listTools = await rawPost(app, { jsonrpc: "2.0", id: 2, method: "tools/list" });
      expect(listTools.status).toBe(401);
      expect(listTools.body.error.code).toBe("token_required");

      const stateless = await rawPost(app, { jsonrpc: "2.0", id: 3, method: "tools/list" }, { authorization: `Bearer ${alice}` });
      expect(stateless.status).toBe(200);
      expect(stateless.headers.get("content-type")).toMatch(/^application\/json/);
      expect(stateless.body.result.tools).toHaveLength(TOOL_NAMES.length);
    });

    it("refuses a foreign Origin with 403, as the transport spec requires against DNS rebinding", async () => {
      const foreign = await rawPost(app, INITIALIZE, { authorization: `Bearer ${alice}`, origin: "http://evil.example" });
      expect(foreign.status).toBe(403);
      expect(foreign.body.error.code).toBe("forbidden");
      const own = await rawPost(app, INITIALIZE, { authorization: `Bearer ${alice}`, origin: new URL(app.baseUrl).origin });
      expect(own.status).toBe(200);
      expect(own.body.result.serverInfo.name).toBe("htmldrop");
      // The token is checked first: without one, any origin gets the spec's 401.
      const anonymous = await rawPost(app, INITIALIZE, { origin: "http://evil.example" });
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.error.code).toBe("token_required");
    });

    it("refuses a Host that does not name this instance, Origin or not (DNS rebinding); loopback names, which no site can rebind, pass", async () => {
      const port = new URL(app.baseUrl).port;
      const rebound = await postWithHost(app, `evil.example.com:${port}`, alice);
      expect(rebound.status).toBe(403);
      expect(rebound.body.error.code).toBe("forbidden");
      expect((await postWithHost(app, "localhost.evil.example.com", alice)).status).toBe(403);
      for (const alias of ["localhost", "127.0.0.1", "[::1]", "127.0.0.1:1"]) {
        const own = await postWithHost(app, alias.includes(":1") ? alias : `${alias}:${port}`, alice);
        expect(own.status, alias).toBe(200);
        expect(own.body.result.serverInfo.name).toBe("htmldrop");
      }
    });

    it("answers requests the transport refuses with the spec's Error body, not a JSON-RPC error", async () => {
      const authorization = `Bearer ${alice}`;
      const notAcceptable = await rawPost(app, INITIALIZE, { authorization, accept: "application/json" });
      expect(notAcceptable.status).toBe(406);
      expect(notAcceptable.body).toEqual({ error: { code: "invalid_arg", message: expect.stringMatching(/text\/event-stream/) } });

      const wrongType = await rawPost(app, INITIALIZE, { authorization, "content-type": "text/plain" });
      expect(wrongType.status).toBe(415);
      expect(wrongType.body.error.code).toBe("invalid_arg");

      const notJsonRpc = await rawPost(app, { hello: "world" }, { authorization });
      expect(notJsonRpc.status).toBe(400);
      expect(notJsonRpc.body.error.code).toBe("invalid_arg");

      const response = await fetch(mcpUrl(app), {
        method: "POST",
        headers: { authorization, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: '{"jsonrpc":',
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: { code: "invalid_json", message: expect.any(String) } });
    });

    it("initializes with a token: stateless JSON, server info and instructions built from the limits", async () => {
      const { client, responses } = await connect(app, alice);
      expect(client.getServerVersion()).toMatchObject({ name: "htmldrop", version: "1.2.0" });
      expect(client.getServerCapabilities()?.tools).toBeDefined();
      const instructions = client.getInstructions() ?? "";
      expect(instructions).toContain("60 writes per minute");
      expect(instructions).toContain("list_drops");
      // The review loop: open comments before a revision, resolved by the update that addresses them.
      expect(instructions).toContain('list_comments with status "open"');
      expect(responses[0]?.status).toBe(200);
      expect(responses[0]?.headers.get("content-type")).toMatch(/^application\/json/);
      expect(responses.every((response) => response.headers.get("mcp-session-id") === null)).toBe(true);
      await client.close();
    });
  });

  describe("server/discover (MCP 2026-07-28)", () => {
    it("answers without a handshake, naming the revisions that initialize speaks", async () => {
      const discovered = await rawPost(app, { jsonrpc: "2.0", id: 7, method: "server/discover", params: {} }, { authorization: `Bearer ${alice}`, "mcp-protocol-version": "2026-07-28" });
      expect(discovered.status).toBe(200);
      expect(discovered.body).toMatchObject({ jsonrpc: "2.0", id: 7, result: { capabilities: { tools: {} }, serverInfo: { name: "htmldrop" } } });
      expect(discovered.body.result.supportedVersions).toContain("2025-11-25");
      expect(discovered.body.result.instructions).toContain("create_drop");
      // One definition: a client that discovers first learns of the prompts and resources too.
      const initializedCapabilities = (await rawPost(app, INITIALIZE, { authorization: `Bearer ${alice}` })).body.result.capabilities;
      expect(discovered.body.result.capabilities).toEqual(initializedCapabilities);
      expect(Object.keys(initializedCapabilities).sort()).toEqual(["prompts", "resources", "tools"]);
      // An older client's handshake on the same endpoint is unchanged.
      const initialized = await rawPost(app, INITIALIZE, { authorization: `Bearer ${alice}` });
      expect(initialized.body.result.protocolVersion).toBe("2025-06-18");
    });

    it("needs the token like every other request", async () => {
      expect((await rawPost(app, { jsonrpc: "2.0", id: 1, method: "server/discover" })).status).toBe(401);
    });
  });

  describe("GET and DELETE /mcp", () => {
    for (const method of ["GET", "DELETE"]) {
      it(`${method} answers 405 with Allow: POST for a stateless server`, async () => {
        const response = await app.api("/mcp", { method, token: alice, headers: { accept: "text/event-stream" } });
        expect(response.status).toBe(405);
        expect(response.headers.get("allow")).toBe("POST");
        expect(response.body.error).toMatchObject({ code: "invalid_arg", message: expect.any(String) });

        const anonymous = await app.api("/mcp", { method });
        expect(anonymous.status).toBe(401);
        expect(anonymous.headers.get("www-authenticate")).toMatch(/^Bearer /);
      });
    }
  });

  describe("tools/list", () => {
    it("lists the eleven tools of the spec, drop_stats, the comment, pattern and sharing tools, with schemas, annotations and teaching descriptions", async () => {
      const { tools } = await mcp.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOL_NAMES].sort());
      const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
      for (const tool of tools) {
        expect(tool.inputSchema.type).toBe("object");
        expect(tool.outputSchema?.type).toBe("object");
        expect(tool.description?.length).toBeGreaterThan(40);
        expect(tool.title, tool.name).toBeTruthy();
        expect(strictWarnings(tool.inputSchema), tool.name).toEqual([]);
        expect(strictWarnings(tool.outputSchema), tool.name).toEqual([]);
      }
      // Nullable is expressed as anyOf, which strict checkers accept; the meaning is unchanged.
      expect((byName.create_drop!.inputSchema as any).properties.description.anyOf).toEqual([expect.objectContaining({ type: "string" }), { type: "null" }]);

      const properties = (name: string) => Object.keys(byName[name]!.inputSchema.properties ?? {}).sort();
      expect(properties("whoami")).toEqual([]);
      expect(properties("create_drop")).toEqual(["access", "comments", "context", "description", "expires_at", "html", "indexable", "metadata", "passcode", "title", "ttl_seconds"]);
      expect(byName.create_drop!.inputSchema.required).toEqual(["title", "html"]);
      expect(properties("get_drop")).toEqual(["slug"]);
      expect(properties("list_drops")).toEqual(["expired", "metadata", "page", "page_size", "shared", "sort_by", "sort_order"]);
      expect(byName.list_drops!.inputSchema.required ?? []).toEqual([]);
      expect(properties("update_drop")).toEqual(["access", "context", "description", "expires_at", "html", "metadata", "resolves", "slug", "title", "ttl_seconds"]);
      expect([...(byName.update_drop!.inputSchema.required ?? [])].sort()).toEqual(["html", "slug"]);
      expect(properties("patch_drop")).toEqual(["access", "comments", "description", "expires_at", "indexable", "metadata", "slug", "title", "ttl_seconds"]);
      expect(properties("delete_drop")).toEqual(["slug"]);
      expect(properties("list_versions")).toEqual(["slug"]);
      expect(properties("get_version")).toEqual(["slug", "version"]);
      expect(properties("delete_version")).toEqual(["slug", "version"]);
      expect(properties("set_passcode")).toEqual(["passcode", "slug"]);
      expect(properties("drop_stats")).toEqual(["days", "slug"]);
      expect(byName.drop_stats!.inputSchema.required).toEqual(["slug"]);
      expect(properties("list_comments")).toEqual(["after", "page", "page_size", "since", "slug", "status", "version"]);
      expect(byName.list_comments!.inputSchema.required).toEqual(["slug"]);
      expect(properties("reply_to_comment")).toEqual(["anchor", "body", "quote", "reply_to", "slug", "version"]);
      expect([...(byName.reply_to_comment!.inputSchema.required ?? [])].sort()).toEqual(["body", "slug"]);
      expect(properties("resolve_comment")).toEqual(["id", "resolved", "slug"]);
      expect([...(byName.resolve_comment!.inputSchema.required ?? [])].sort()).toEqual(["id", "slug"]);

      const schema = byName.list_drops!.inputSchema as any;
      expect(schema.properties.page_size).toMatchObject({ type: "integer", minimum: 1, maximum: 200, default: 50 });
      expect(schema.properties.sort_by.enum).toEqual(["created_at", "updated_at", "view_count"]);
      expect((byName.get_drop!.inputSchema as any).properties.slug.pattern).toBe("^[a-z0-9]{6,64}$");
      expect((byName.create_drop!.inputSchema as any).additionalProperties).toBe(false);

      const annotations = (name: string) => {
        const { readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = byName[name]!.annotations ?? {};
        return [readOnlyHint, destructiveHint, idempotentHint, openWorldHint];
      };
      for (const name of ["whoami", "get_drop", "list_drops", "list_versions", "get_version", "drop_stats", "list_comments", "list_patterns", "get_pattern", "list_drop_members", "list_teams", "get_team"]) {
        expect(annotations(name), name).toEqual([true, false, true, false]);
      }
      expect(annotations("create_drop")).toEqual([false, false, false, false]);
      expect(annotations("update_drop")).toEqual([false, true, false, false]);
      expect(annotations("patch_drop")).toEqual([false, true, true, false]);
      expect(annotations("delete_drop")).toEqual([false, true, true, false]);
      expect(annotations("delete_version")).toEqual([false, true, true, false]);
      expect(annotations("set_passcode")).toEqual([false, true, false, false]);
      expect(annotations("reply_to_comment")).toEqual([false, false, false, false]);
      expect(annotations("resolve_comment")).toEqual([false, false, true, false]);
      expect(annotations("save_pattern")).toEqual([false, true, true, false]);
      expect(annotations("delete_pattern")).toEqual([false, true, true, false]);
      // Webhook tools that send to the account's own endpoints reach outside htmldrop.
      for (const name of ["list_webhooks", "get_webhook", "list_webhook_deliveries"]) expect(annotations(name), name).toEqual([true, false, true, false]);
      for (const name of ["create_webhook", "test_webhook", "retry_webhook_delivery"]) expect(annotations(name), name).toEqual([false, false, false, true]);

      // Descriptions teach the model: versions, metadata rules, the lookup-then-mutate recipe, limits.
      expect(byName.update_drop!.description).toMatch(/next version/);
      expect(byName.update_drop!.description).toContain("200 versions per drop");
      expect(byName.create_drop!.description).toContain("list_drops with metadata");
      expect(byName.create_drop!.description).toContain("At most 10 keys");
      expect(byName.create_drop!.description).toContain("2097152 bytes");
      expect(byName.list_drops!.description).toContain("otherwise create_drop");
      expect(byName.drop_stats!.description).toContain("owner's own views");
      expect(byName.patch_drop!.description).toContain("ttl_seconds");
      expect(byName.patch_drop!.description).toContain("comments");
      // The review loop is taught where it happens: reading comments, and the update that resolves them.
      for (const name of ["list_comments", "update_drop"]) expect(byName[name]!.description, name).toContain('list_comments with status "open"');
      expect(byName.update_drop!.description).toContain("resolves");
      expect(byName.list_comments!.description).toContain("since");
    });
  });

  describe("every tool in a realistic sequence, compared with REST", () => {
    it("publishes, finds, iterates, gates and deletes a drop", async () => {
      const me = await ok(mcp, "whoami");
      const restMe = await app.api("/api/me", { token: alice });
      expect(me).toEqual(restMe.body);
      expect(me.token.label).toBe("laptop");

      const created = await ok(mcp, "create_drop", {
        title: "Weekly report",
        description: "Numbers for week 47",
        html: PAGE("<h1>v1</h1>"),
        context: "First draft from the sales export.",
        metadata: { Project: "weekly-report", week: "47" },
      });
      expect(created).toMatchObject({ title: "Weekly report", latest_version: 1, locked: false, metadata: { project: "weekly-report", week: "47" } });
      const slug: string = created.slug;
      expect(created.url).toBe(`${app.baseUrl}/p/${slug}`);
      expect(created).toEqual((await app.api(`/api/drops/${slug}`, { token: alice })).body);

      expect(await ok(mcp, "get_drop", { slug })).toEqual((await app.api(`/api/drops/${slug}`, { token: alice })).body);

      // Lookup then mutate: find the drop by its tag, then upload a new version to it.
      await ok(mcp, "create_drop", { title: "Other", html: PAGE("other"), metadata: { project: "elsewhere" } });
      const found = await ok(mcp, "list_drops", { metadata: { PROJECT: "weekly-report" } });
      expect(found).toEqual((await app.api("/api/drops?metadata.project=weekly-report", { token: alice })).body);
      expect(found.data.map((drop: { slug: string }) => drop.slug)).toEqual([slug]);
      const all = await ok(mcp, "list_drops", { page: 1, page_size: 1, sort_by: "created_at", sort_order: "asc" });
      expect(all).toEqual((await app.api("/api/drops?page=1&pageSize=1&sortBy=created_at&sortOrder=asc", { token: alice })).body);
      expect(all.pagination).toMatchObject({ total_items: 2, total_pages: 2, page_size: 1 });

      const updated = await ok(mcp, "update_drop", { slug: found.data[0].slug, html: PAGE("<h1>v2</h1>"), title: "Weekly report (final)", context: "Fixed totals." });
      expect(updated).toMatchObject({ slug, latest_version: 2, title: "Weekly report (final)", metadata: { project: "weekly-report", week: "47" } });
      expect(updated).toEqual((await app.api(`/api/drops/${slug}`, { token: alice })).body);

      const patched = await ok(mcp, "patch_drop", { slug, description: "Final numbers", metadata: { project: "weekly-report", status: "final" } });
      expect(patched).toMatchObject({ latest_version: 2, description: "Final numbers", metadata: { project: "weekly-report", status: "final" } });
      expect(patched).toEqual((await app.api(`/api/drops/${slug}`, { token: alice })).body);

      const versions = await ok(mcp, "list_versions", { slug });
      expect(versions).toEqual({ versions: (await app.api(`/api/drops/${slug}/versions`, { token: alice })).body });
      expect(versions.versions.map((version: { version: number; has_context: boolean }) => [version.version, version.has_context])).toEqual([
        [1, true],
        [2, true],
      ]);

      const first = await ok(mcp, "get_version", { slug, version: 1 });
      expect(first).toEqual((await app.api(`/api/drops/${slug}/v/1`, { token: alice })).body);
      expect(first).toMatchObject({ version: 1, context: "First draft from the sales export.", is_latest: false });

      const locked = await ok(mcp, "set_passcode", { slug, passcode: "open sesame" });
      expect(locked.locked).toBe(true);
      expect(locked).toEqual((await app.api(`/api/drops/${slug}`, { token: alice })).body);
      expect(locked).not.toHaveProperty("passcode");
      const unlocked = await ok(mcp, "set_passcode", { slug, passcode: "" });
      expect(unlocked.locked).toBe(false);

      const afterDelete = await ok(mcp, "delete_version", { slug, version: 2 });
      expect(afterDelete.latest_version).toBe(1);
      expect(afterDelete).toEqual((await app.api(`/api/drops/${slug}`, { token: alice })).body);

      const last = await fails(mcp, "delete_version", { slug, version: 1 });
      const restLast = await app.api(`/api/drops/${slug}/v/1`, { method: "DELETE", token: alice });
      expect(restLast.status).toBe(409);
      expect(last).toEqual(restLast.body);
      expect(last.error.code).toBe("last_version_cannot_be_deleted");

      expect(await ok(mcp, "delete_drop", { slug })).toEqual({ deleted: true, slug });
      expect((await app.api(`/api/drops/${slug}`, { token: alice })).status).toBe(404);
      expect((await ok(mcp, "whoami")).drop_count).toBe(1);
    });
  });

  describe("errors come back as isError with the REST Error object", () => {
    let slug: string;
    let bobSlug: string;
    beforeAll(async () => {
      slug = (await ok(mcp, "create_drop", { title: "Errors", html: PAGE("e") })).slug;
      bobSlug = (await app.api("/api/drops", { method: "POST", token: bob, body: { title: "Bob's", html: PAGE("b") } })).body.slug;
    });

    const longTitle = "t".repeat(201);
    const hugeHtml = "x".repeat(2_097_153);
    // [tool, arguments, REST request answering the same (or null), expected code]
    const cases: [string, () => Record<string, unknown>, (() => { path: string; method: string; body?: unknown }) | null, string][] = [
      ["get_drop", () => ({ slug: "zzzzzz999" }), () => ({ path: "/api/drops/zzzzzz999", method: "GET" }), "not_found"],
      ["get_drop", () => ({ slug: "Not-A-Slug" }), () => ({ path: "/api/drops/Not-A-Slug", method: "GET" }), "invalid_slug"],
      ["get_drop", () => ({ slug: bobSlug }), () => ({ path: `/api/drops/${bobSlug}`, method: "GET" }), "forbidden"],
      ["delete_drop", () => ({ slug: "zzzzzz999" }), () => ({ path: "/api/drops/zzzzzz999", method: "DELETE" }), "not_found"],
      ["list_versions", () => ({ slug: "zzzzzz999" }), () => ({ path: "/api/drops/zzzzzz999/versions", method: "GET" }), "not_found"],
      ["get_version", () => ({ slug, version: 9 }), () => ({ path: `/api/drops/${slug}/v/9`, method: "GET" }), "version_not_found"],
      ["delete_version", () => ({ slug, version: 9 }), () => ({ path: `/api/drops/${slug}/v/9`, method: "DELETE" }), "version_not_found"],
      ["create_drop", () => ({ title: longTitle, html: PAGE("x") }), () => ({ path: "/api/drops", method: "POST", body: { title: longTitle, html: PAGE("x") } }), "title_too_long"],
      ["create_drop", () => ({ title: "t" }), () => ({ path: "/api/drops", method: "POST", body: { title: "t" } }), "html_required"],
      ["create_drop", () => ({ html: PAGE("x") }), () => ({ path: "/api/drops", method: "POST", body: { html: PAGE("x") } }), "title_required"],
      ["create_drop", () => ({ title: "t", html: hugeHtml }), () => ({ path: "/api/drops", method: "POST", body: { title: "t", html: hugeHtml } }), "html_too_large"],
      ["create_drop", () => ({ title: "t", html: PAGE("x"), passcode: "abc" }), () => ({ path: "/api/drops", method: "POST", body: { title: "t", html: PAGE("x"), passcode: "abc" } }), "passcode_too_short"],
      ["create_drop", () => ({ title: "t", html: PAGE("x"), context: "c".repeat(65_537) }), () => ({ path: "/api/drops", method: "POST", body: { title: "t", html: PAGE("x"), context: "c".repeat(65_537) } }), "context_too_large"],
      ["create_drop", () => ({ title: "t", html: PAGE("x"), description: "d".repeat(501) }), () => ({ path: "/api/drops", method: "POST", body: { title: "t", html: PAGE("x"), description: "d".repeat(501) } }), "description_too_long"],
      ["create_drop", () => ({ title: "t", html: PAGE("x"), metadata: { "-bad": "v" } }), () => ({ path: "/api/drops", method: "POST", body: { title: "t", html: PAGE("x"), metadata: { "-bad": "v" } } }), "invalid_arg"],
      ["create_drop", () => ({ title: "t", html: PAGE("x"), metadata: { n: 1 } }), () => ({ path: "/api/drops", method: "POST", body: { title: "t", html: PAGE("x"), metadata: { n: 1 } } }), "invalid_arg"],
      ["create_drop", () => ({ title: "t", html: PAGE("x"), colour: "red" }), () => ({ path: "/api/drops", method: "POST", body: { title: "t", html: PAGE("x"), colour: "red" } }), "invalid_arg"],
      ["update_drop", () => ({ slug, title: "t" }), () => ({ path: `/api/drops/${slug}`, method: "PUT", body: { title: "t" } }), "html_required"],
      ["update_drop", () => ({ slug: "zzzzzz999", html: PAGE("x") }), () => ({ path: "/api/drops/zzzzzz999", method: "PUT", body: { html: PAGE("x") } }), "not_found"],
      ["patch_drop", () => ({ slug, html: PAGE("x") }), () => ({ path: `/api/drops/${slug}`, method: "PATCH", body: { html: PAGE("x") } }), "metadata_only_on_patch"],
      ["patch_drop", () => ({ slug, title: longTitle }), () => ({ path: `/api/drops/${slug}`, method: "PATCH", body: { title: longTitle } }), "title_too_long"],
      ["patch_drop", () => ({ slug, title: "" }), () => ({ path: `/api/drops/${slug}`, method: "PATCH", body: { title: "" } }), "title_required"],
      ["set_passcode", () => ({ slug }), () => ({ path: `/api/drops/${slug}/passcode`, method: "POST", body: {} }), "passcode_required"],
      ["set_passcode", () => ({ slug, passcode: "12" }), () => ({ path: `/api/drops/${slug}/passcode`, method: "POST", body: { passcode: "12" } }), "passcode_too_short"],
      ["set_passcode", () => ({ slug: bobSlug, passcode: "1234" }), () => ({ path: `/api/drops/${bobSlug}/passcode`, method: "POST", body: { passcode: "1234" } }), "forbidden"],
      // Argument errors whose field names differ from the REST query/path parameters: same code.
      ["get_version", () => ({ slug, version: 0 }), null, "invalid_arg"],
      ["get_version", () => ({ slug }), null, "invalid_arg"],
      ["get_drop", () => ({}), null, "invalid_arg"],
      ["list_drops", () => ({ page_size: 201 }), null, "invalid_arg"],
      ["list_drops", () => ({ sort_by: "title" }), null, "invalid_arg"],
      ["list_drops", () => ({ metadata: { "bad key": "x" } }), null, "invalid_arg"],
      ["whoami", () => ({ extra: true }), null, "invalid_arg"],
    ];

    for (const [index, [tool, args, rest, code]] of cases.entries()) {
      it(`#${index} ${tool} → ${code}`, async () => {
        const failure = await fails(mcp, tool, args());
        expect(failure.error).toMatchObject({ code, message: expect.any(String) });
        if (rest) {
          const request = rest();
          const restResponse = await app.api(request.path, { method: request.method, token: alice, body: request.body });
          expect(restResponse.status).toBeGreaterThanOrEqual(400);
          expect(failure).toEqual(restResponse.body);
        }
      });
    }

    it("reports html_too_large with details.max_bytes", async () => {
      const failure = await fails(mcp, "create_drop", { title: "t", html: hugeHtml });
      expect(failure.error.details).toEqual({ max_bytes: 2_097_152 });
    });

    it("reports invalid_arg with the offending fields", async () => {
      const failure = await fails(mcp, "list_drops", { page_size: 0, colour: "red" });
      const fields = failure.error.details.fields.map((field: { field: string }) => field.field).sort();
      expect(fields).toEqual(["colour", "page_size"]);
    });

    it("failed writes leave the drop untouched", async () => {
      expect(await ok(mcp, "get_drop", { slug })).toMatchObject({ title: "Errors", latest_version: 1 });
    });

    it("an unknown tool is a protocol error, not a tool result", async () => {
      await expect(mcp.callTool({ name: "publish", arguments: {} })).rejects.toThrow(/Unknown tool publish/);
    });
  });

  describe("malformed params are JSON-RPC -32602 with a readable reason", () => {
    const rpc = (id: number, method: string, params?: unknown) => ({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });
    // [what, request, a fragment of the reason]
    const cases: [string, Record<string, unknown>, string][] = [
      ["tools/call: name is not a string", rpc(7, "tools/call", { name: 5 }), "params.name"],
      ["tools/call: name missing", rpc(7, "tools/call", { arguments: {} }), "params.name"],
      ["tools/call: no params", rpc(7, "tools/call"), "params"],
      ["tools/call: params is a string", rpc(7, "tools/call", "whoami"), "params must be an object"],
      ["tools/call: params is an array", rpc(7, "tools/call", ["whoami"]), "params must be an object"],
      ["tools/call: params is null", rpc(7, "tools/call", null), "params must be an object"],
      ["tools/call: arguments is an array", rpc(7, "tools/call", { name: "whoami", arguments: [] }), "params.arguments"],
      ["tools/call: arguments is a string", rpc(7, "tools/call", { name: "get_drop", arguments: "abc" }), "params.arguments"],
      ["tools/call: unknown tool", rpc(7, "tools/call", { name: "publish", arguments: {} }), "Unknown tool publish"],
      ["tools/list: cursor is a number", rpc(7, "tools/list", { cursor: 5 }), "params.cursor"],
      ["initialize: required fields missing", rpc(7, "initialize", {}), "params.protocolVersion"],
      ["ping: _meta is not an object", rpc(7, "ping", { _meta: 5 }), "params._meta"],
    ];

    it.each(cases)("%s", async (_name, request, reason) => {
      const response = await rawPost(app, request, { authorization: `Bearer ${alice}` });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ jsonrpc: "2.0", id: 7, error: { code: -32602, message: expect.stringContaining(reason) } });
      // A sentence, not zod's issue list serialised as JSON, and not the SDK's "MCP error" prefix.
      expect(response.body.error.message).not.toMatch(/^\[|\n|MCP error/);
    });

    it("answers each request of a batch on its own", async () => {
      const response = await rawPost(app, [rpc(1, "tools/call", "whoami"), rpc(2, "ping"), rpc(3, "tools/call", { name: "whoami", arguments: {} })], { authorization: `Bearer ${alice}` });
      expect(response.status).toBe(200);
      const byId = Object.fromEntries((response.body as { id: number }[]).map((message) => [message.id, message]));
      expect(byId[1]).toMatchObject({ error: { code: -32602 } });
      expect(byId[2]).toMatchObject({ result: {} });
      expect(byId[3]).toMatchObject({ result: { structuredContent: { user_id: expect.any(String) } } });
    });

    it("answers a lone tools/call as the SDK's server answers the same call in a batch", async () => {
      // A lone call skips the SDK's per-request server (lib/mcp/server.ts, directToolCall); a batch goes through it.
      // Not whoami: its token's last_used_at may move between the two calls.
      const created = await rawPost(app, rpc(4, "tools/call", { name: "create_drop", arguments: { title: "Direct", html: PAGE("d"), metadata: { kind: "direct" } } }), {
        authorization: `Bearer ${alice}`,
      });
      const directSlug = (created.body as { result: { structuredContent: { slug: string } } }).result.structuredContent.slug;
      const calls: [string, Record<string, unknown>][] = [
        ["get_drop", { slug: directSlug }],
        ["get_drop", { slug: "nosuchdrop" }],
        ["get_drop", { slug: 5 }],
        ["list_drops", { metadata: { kind: "direct" } }],
        ["get_version", { slug: directSlug, version: 1 }],
      ];
      for (const [name, args] of calls) {
        const call = rpc(9, "tools/call", { name, arguments: args });
        const lone = await rawPost(app, call, { authorization: `Bearer ${alice}`, "mcp-protocol-version": "2025-03-26" });
        // With a ping beside it: the transport answers a batch of one request with that one answer, unwrapped.
        const batched = await rawPost(app, [call, rpc(10, "ping")], { authorization: `Bearer ${alice}`, "mcp-protocol-version": "2025-03-26" });
        expect(lone.status, name).toBe(200);
        expect(lone.body, name).toEqual((batched.body as { id: number }[]).find((message) => message.id === 9));
        expect(lone.headers.get("content-type"), name).toBe(batched.headers.get("content-type"));
      }
      expect((created.body as { result: { isError?: boolean } }).result.isError).toBeUndefined();
    });

    it("refuses a batch once the negotiated revision (2025-06-18 on) has none", async () => {
      for (const version of ["2025-06-18", "2025-11-25"]) {
        const response = await rawPost(app, [rpc(1, "ping"), rpc(2, "ping")], { authorization: `Bearer ${alice}`, "mcp-protocol-version": version });
        expect(response.status, version).toBe(400);
        expect(response.body).toEqual({ error: { code: "invalid_arg", message: expect.stringContaining("batches") } });
      }
      const older = await rawPost(app, [rpc(1, "ping")], { authorization: `Bearer ${alice}`, "mcp-protocol-version": "2025-03-26" });
      expect(older.status).toBe(200);
    });

    it("reaches the SDK client as an McpError with code -32602", async () => {
      const malformed = [
        mcp.request({ method: "tools/call", params: { name: 5 } } as never, CallToolResultSchema),
        mcp.callTool({ name: "whoami", arguments: ["x"] as never }),
        mcp.callTool({ name: "publish", arguments: {} }),
      ];
      for (const outcome of await Promise.allSettled(malformed)) {
        expect(outcome.status).toBe("rejected");
        expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(McpError);
        expect((outcome as PromiseRejectedResult).reason.code).toBe(ErrorCode.InvalidParams);
      }
    });

    it("keeps wrong or missing tool arguments a tool result carrying the REST Error", async () => {
      const wrongType = await fails(mcp, "get_drop", { slug: 5 });
      expect(wrongType.error).toMatchObject({ code: "invalid_arg", details: { fields: [{ field: "slug", message: expect.any(String) }] } });
      expect((await fails(mcp, "create_drop", { html: PAGE("x") })).error.code).toBe("title_required");
      expect((await fails(mcp, "list_drops", { page: "two" })).error.code).toBe("invalid_arg");
    });
  });
});

describe("MCP Apps: the drop view", () => {
  let app: TestApp;
  let token: string;
  let mcp: Client;

  beforeAll(async () => {
    app = await startApp();
    token = await app.createToken("carol");
    mcp = (await connect(app, token)).client;
  });
  afterAll(async () => {
    await mcp?.close();
    await app?.stop();
  });

  const SHOWS_DROP = ["create_drop", "delete_version", "get_drop", "get_version", "patch_drop", "set_passcode", "update_drop"];

  it("names the view in the _meta of the tools that show a drop, and serves it with the extension's MIME type and exact CSP", async () => {
    const { tools } = await mcp.listTools();
    const withView = tools.filter((tool) => tool._meta?.ui !== undefined);
    expect(withView.map((tool) => tool.name).sort()).toEqual(SHOWS_DROP);
    for (const tool of withView) expect(tool._meta).toEqual({ ui: { resourceUri: "ui://htmldrop/drop" }, "ui/resourceUri": "ui://htmldrop/drop" });

    const { contents } = await mcp.readResource({ uri: "ui://htmldrop/drop" });
    expect(contents).toHaveLength(1);
    const [view] = contents as [{ uri: string; mimeType: string; text: string; _meta: any }];
    expect(view).toMatchObject({ uri: "ui://htmldrop/drop", mimeType: "text/html;profile=mcp-app" });
    // The raw pages' origin, and nothing else: no fetches, no scripts or styles from elsewhere.
    expect(view._meta.ui.csp).toEqual({ connectDomains: [], resourceDomains: [], frameDomains: [new URL(app.baseUrl).origin] });
    expect(view.text).toContain('sandbox="allow-scripts allow-forms allow-popups allow-modals"');
    expect(view.text).not.toMatch(/allow-same-origin|https?:\/\//);
    // Read by its URI, not listed: resources/list stays the pattern catalog.
    expect((await mcp.listResources()).resources.map((resource) => resource.uri)).not.toContain("ui://htmldrop/drop");
  });

  it("answers the view's own get_version with a frame address that works for a locked, restricted drop; other calls are unchanged", async () => {
    const created = await ok(mcp, "create_drop", { title: "Locked notes", html: PAGE("<p>first secret</p>"), passcode: "hunter22", access: "restricted", context: "Why v1" });
    await ok(mcp, "update_drop", { slug: created.slug, html: PAGE("<p>second secret</p>") });

    const plain = await mcp.callTool({ name: "get_version", arguments: { slug: created.slug, version: 1 } });
    expect(plain._meta).toBeUndefined();

    const asked = await mcp.callTool({ name: "get_version", arguments: { slug: created.slug, version: 1 }, _meta: { "htmldrop/view": {} } });
    expect(asked.structuredContent).toEqual(plain.structuredContent);
    const view = (asked._meta as any)["htmldrop/view"];
    expect(view).toMatchObject({ title: "Locked notes", url: created.url, latest_version: 2, versions: [1, 2], compare_url: null });
    expect(view.frame_src).toMatch(new RegExp(`^${created.raw_url}\\?v=1&pass=`));
    expect(JSON.stringify(asked)).not.toContain("hunter22");
    expect(JSON.stringify(asked)).not.toContain(token);

    const framed = await fetch(view.frame_src);
    expect(framed.status).toBe(200);
    expect(await framed.text()).toContain("first secret");
    expect(framed.headers.get("content-security-policy")).toMatch(/^sandbox /);
    // Without the pass, the raw page shows nothing of the drop.
    const bare = await fetch(`${created.raw_url}?v=1`, { redirect: "manual" });
    expect(bare.status).not.toBe(200);

    const second = await mcp.callTool({ name: "get_version", arguments: { slug: created.slug, version: 2 }, _meta: { "htmldrop/view": {} } });
    expect((second._meta as any)["htmldrop/view"].compare_url).toBe(`${app.baseUrl}/p/${created.slug}/compare?from=1&to=2`);
  });
});

describe("MCP writes share the REST rate limit", () => {
  let app: TestApp;
  beforeAll(async () => {
    const clock = createTestClock();
    // One second into a fresh minute, so the write window cannot roll over mid-test.
    clock.startWindow(MINUTE_MS);
    app = await startApp({ env: { LIMIT_WRITES_PER_MINUTE: "3", HTMLDROP_TEST_CLOCK_FILE: clock.file } });
  });
  afterAll(async () => app?.stop());

  it("counts tool writes and REST writes together and answers 429-class errors as isError", async () => {
    const token = await app.createToken("carol");
    const { client } = await connect(app, token);
    const first = await ok(client, "create_drop", { title: "one", html: PAGE("1") });
    expect((await app.api("/api/drops", { method: "POST", token, body: { title: "two", html: PAGE("2") } })).status).toBe(201);
    await ok(client, "patch_drop", { slug: first.slug, title: "one!" });

    // Reads are not writes.
    await ok(client, "list_drops");
    await ok(client, "get_drop", { slug: first.slug });

    const limited = await fails(client, "update_drop", { slug: first.slug, html: PAGE("again") });
    expect(limited.error.code).toBe("rate_limited");
    expect(limited.error.details.retry_after_seconds).toBeGreaterThan(0);
    expect(limited.error.details.retry_after_seconds).toBeLessThanOrEqual(60);

    const rest = await app.api(`/api/drops/${first.slug}`, { method: "PUT", token, body: { html: PAGE("again") } });
    expect(rest.status).toBe(429);
    expect(rest.body.error.code).toBe("rate_limited");
    expect(Number(rest.headers.get("retry-after"))).toBeGreaterThan(0);

    for (const [tool, args] of [
      ["create_drop", { title: "three", html: PAGE("3") }],
      ["delete_drop", { slug: first.slug }],
      ["set_passcode", { slug: first.slug, passcode: "1234" }],
      ["delete_version", { slug: first.slug, version: 1 }],
    ] as const) {
      expect((await fails(client, tool, args)).error.code, tool).toBe("rate_limited");
    }
    expect(await ok(client, "get_drop", { slug: first.slug })).toMatchObject({ title: "one!", latest_version: 1, locked: false });
    await client.close();
  });
});
