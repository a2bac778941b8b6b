import { existsSync } from "node:fs";
import { join } from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type ApiResult, type TestApp } from "../helpers/app";
import { createTestClock, MINUTE_MS } from "../helpers/clock";
import { authorizeOverHttp, pkcePair, registerClient, tokenRequest } from "../helpers/oauth";
import { signInBrowserless, tokenThroughDeviceFlow } from "../helpers/device-flow";

// Limits that differ from the spec's defaults prove the documents read the running configuration.
const ENV = { LIMIT_WRITES_PER_MINUTE: "37", LIMIT_DROPS_PER_ACCOUNT: "123", EXPIRED_RETENTION_DAYS: "3", CRON_SECRET: "cron-secret-0123456789abcdef" };

// The MCP clients the guide, llms.txt, /docs and the landing page explain how to add by URL.
const CONNECT_CLIENTS = ["Claude", "ChatGPT", "VS Code", "Cursor", "MCP Inspector"];

// Every endpoint of the interface specification, stated independently of the implementation.
const SPEC_ENDPOINTS: [string, string][] = [
  ["get", "/api/onboard"],
  ["get", "/openapi.json"],
  ["post", "/api/auth/start"],
  ["get", "/api/auth/poll"],
  ["get", "/api/me"],
  ["get", "/api/tokens"],
  ["delete", "/api/tokens/{id}"],
  ["get", "/api/drops"],
  ["post", "/api/drops"],
  ["get", "/api/drops/{slug}"],
  ["put", "/api/drops/{slug}"],
  ["patch", "/api/drops/{slug}"],
  ["delete", "/api/drops/{slug}"],
  ["get", "/api/drops/{slug}/versions"],
  ["get", "/api/drops/{slug}/v/{n}"],
  ["delete", "/api/drops/{slug}/v/{n}"],
  ["post", "/api/drops/{slug}/passcode"],
  ["get", "/p/{slug}"],
  ["get", "/p/{slug}/raw"],
  ["post", "/mcp"],
];

let app: TestApp;
const clock = createTestClock();
let openapi: any;
let ajv: Ajv2020;

beforeAll(async () => {
  app = await startApp({ env: { ...ENV, HTMLDROP_TEST_CLOCK_FILE: clock.file } });
  openapi = (await app.api("/openapi.json")).body;
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(openapi, "openapi");
});
afterAll(async () => app?.stop());

/** A reference into the OpenAPI document, so that its relative $refs resolve. */
function pointer(...segments: string[]): string {
  return `openapi#/${segments.map((segment) => segment.replaceAll("~", "~0").replaceAll("/", "~1")).join("/")}`;
}

/** Asserts that a live response is documented for this operation and status, and matches the documented schema. */
function expectDocumented(res: ApiResult, method: string, path: string): void {
  const response = openapi.paths[path]?.[method]?.responses?.[String(res.status)];
  expect(response, `${method.toUpperCase()} ${path} ${res.status} is documented`).toBeDefined();
  const schema = response.content?.["application/json"]?.schema;
  if (res.status === 204) {
    expect(schema).toBeUndefined();
    return;
  }
  expect(schema, `${method.toUpperCase()} ${path} ${res.status} has a JSON schema`).toBeDefined();
  const validate = ajv.compile({ $ref: pointer("paths", path, method, "responses", String(res.status), "content", "application/json", "schema") });
  expect(validate(res.body), JSON.stringify(validate.errors)).toBe(true);
  if (res.status >= 400) expect(response.content["application/json"].examples?.[res.body.error.code], `example for ${res.body.error.code}`).toBeDefined();
}

describe("GET /api/onboard", () => {
  it("serves Markdown by default and JSON on request, with the running URL and limits", async () => {
    const markdown = await app.api("/api/onboard");
    expect(markdown.status).toBe(200);
    expect(markdown.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    const text = markdown.text;
    const topics = ["device code", "Publish", "PUT creates a new version", "PATCH", "lookup, then mutate", "Passcodes", "Versions", "Comments", "Errors to switch on", "Limits", "MCP"];
    const headings = [...text.matchAll(/^## (\d+)\. (.+)$/gm)].map((match) => match[2]);
    expect(headings).toHaveLength(topics.length);
    topics.forEach((topic, index) => expect(headings[index]).toContain(topic));
    for (const fact of [`${app.baseUrl}/api/auth/start`, `${app.baseUrl}/api/drops`, `${app.baseUrl}/mcp`, "| Writes per minute | 37 per account", "| Drops | 123 per account", "| HTML size | 2097152 bytes", "If-Match", "Idempotency-Key", "environment variable", "never in a drop"]) {
      expect(text).toContain(fact);
    }
    for (const code of ["token_required", "invalid_token", "unauthorized", "forbidden", "version_conflict", "rate_limited", "metadata_only_on_patch"]) expect(text).toContain(`\`${code}\``);
    for (const tool of ["whoami", "create_drop", "get_drop", "list_drops", "update_drop", "patch_drop", "delete_drop", "list_versions", "get_version", "delete_version", "set_passcode", "drop_stats", "list_comments", "reply_to_comment", "resolve_comment"]) {
      expect(text).toContain(`\`${tool}\``);
    }
    // Links that expire and the view stats: where the fields go, what 410 means, the retention as configured, the counting rule.
    for (const fact of ["`ttl_seconds`", "`expires_at`", "410 Gone", '`"expired": true`', "deleted 3 days after the expiry", "`expired` (`true`", `${app.baseUrl}/api/drops/<slug>/stats?days=30`, "the owner's own views while signed in"]) {
      expect(text, fact).toContain(fact);
    }
    expect(text).toContain("| Expired drops | deleted 3 days after the expiry");
    expect(text).toMatch(/^\| GET \| `\/api\/cron\/purge-expired` \| `CRON_SECRET` \|/m);
    expect(text).toMatch(/^\| GET \| `\/api\/drops\/\{slug\}\/stats` \| yes \(`drops:read`\) \|/m);
    // The review loop: comments are off until PATCH turns them on; read the open ones before a revision, resolve them with PUT's resolves, poll with since.
    const loop = text.slice(text.indexOf("## 8. Comments"), text.indexOf("## 9."));
    for (const fact of ['"comments": "anyone"', `GET ${app.baseUrl}/api/drops/<slug>/comments?status=open`, '"resolves": [', "Resolved in version N.", "`since`", "`invalid_arg`", "`drops:read`"]) {
      expect(loop, fact).toContain(fact);
    }
    expect(text).toContain("| Comments | at most 4000 characters, quoting at most 20 lines; an anchor's exact at most 500 characters, its prefix and suffix at most 64; a guest's name at most 60 characters; 1000 per drop |");
    expect(text).toContain("| Comment rate | 5 per 10 minutes per guest's address, 30 per 10 minutes per account (the owner's replies included), 100 per hour per drop from everyone but the owner; never counted as writes |");
    expect(text).toMatch(/^\| PATCH \| `\/api\/drops\/\{slug\}\/comments\/\{id\}` \| yes \(`drops:write`\) \|/m);

    const json = await app.api("/api/onboard", { headers: { accept: "application/json" } });
    expect(json.status).toBe(200);
    expect(json.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(json.body).toEqual({ instructions: text, public_url: app.baseUrl });
    expectDocumented(json, "get", "/api/onboard");
    expect((await app.api("/api/onboard", { headers: { accept: "text/markdown, application/json;q=0.5" } })).headers.get("content-type")).toContain("text/markdown");
  });

  it("renders the guide as a page for a browser that asks for HTML first (an addition); agents keep the Markdown", async () => {
    const markdown = (await app.api("/api/onboard")).text;
    const browser = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";
    const page = await app.api("/api/onboard", { headers: { accept: browser } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("vary")).toContain("accept");
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.text).toMatch(/^<!doctype html>/);
    expect(page.text).not.toMatch(/<script/i);
    const sections = [...markdown.matchAll(/^## (.+)$/gm)].length;
    expect(page.text.match(/<h2 id="/g)).toHaveLength(sections);
    expect(page.text).toContain(`POST ${app.baseUrl}/api/auth/start`);
    expect(page.text).toContain("<th>code</th>");
    // What agents send, and what a wildcard, plain text or a lower-ranked HTML means: the spec's Markdown or JSON.
    for (const accept of ["", "*/*", "text/*", "text/plain", "text/markdown", "text/html;q=0.5, text/markdown", "text/html;q=0.5, */*"]) {
      const answer = await app.api("/api/onboard", { headers: accept ? { accept } : {} });
      expect(answer.headers.get("content-type"), accept).toBe("text/markdown; charset=utf-8");
      expect(answer.text, accept).toBe(markdown);
    }
    expect((await app.api("/api/onboard", { headers: { accept: "text/html;q=0.5, application/json" } })).headers.get("content-type")).toBe("application/json; charset=utf-8");
  });
});

describe("connecting by URL", () => {
  it("the guide explains adding htmldrop by URL, client by client, with the server's own OAuth metadata", async () => {
    const guide = (await app.api("/api/onboard")).text;
    const section = guide.slice(guide.indexOf("## 11. MCP"));
    for (const client of CONNECT_CLIENTS) expect(section, client).toContain(`**${client}`);
    for (const step of ["Add custom connector", "Developer mode", "**OAuth**", ".vscode/mcp.json", "MCP: Add Server", "~/.cursor/mcp.json", "npx @modelcontextprotocol/inspector", "Streamable HTTP", "Open Auth Settings"]) {
      expect(section, step).toContain(step);
    }
    // The header configuration with an API token stays documented.
    expect(section).toContain('"Authorization": "Bearer ${HTMLDROP_TOKEN}"');

    // Every URL a client discovers is the one the guide names, and the 401 is quoted exactly.
    const resource = (await app.api("/.well-known/oauth-protected-resource/mcp")).body;
    const server = (await app.api("/.well-known/oauth-authorization-server")).body;
    expect(resource.resource).toBe(`${app.baseUrl}/mcp`);
    expect(resource.authorization_servers).toEqual([server.issuer]);
    for (const url of [resource.resource, `${app.baseUrl}/.well-known/oauth-protected-resource/mcp`, `${app.baseUrl}/.well-known/oauth-protected-resource/api`, `${app.baseUrl}/.well-known/oauth-authorization-server`, `${app.baseUrl}/.well-known/openid-configuration`, server.issuer, server.authorization_endpoint, server.token_endpoint, server.registration_endpoint, server.revocation_endpoint]) {
      expect(section, url).toContain(url);
    }
    for (const scope of resource.scopes_supported) expect(section).toContain(`\`${scope}\``);
    expect(server.code_challenge_methods_supported).toEqual(["S256"]);
    expect(section).toContain("`code_challenge_method=S256`");
    expect(section).toContain(`\`resource=${resource.resource}\``);
    const unauthenticated = await app.api("/mcp", { method: "POST", body: {}, headers: { accept: "application/json, text/event-stream" } });
    expect(unauthenticated.status).toBe(401);
    expect(section).toContain(`\`WWW-Authenticate: ${unauthenticated.headers.get("www-authenticate")}\``);
    // The agent-facing intro points people with a URL-only client there too.
    expect(guide.slice(0, guide.indexOf("## 1."))).toContain(`${app.baseUrl}/mcp`);
  });
});

describe("GET /openapi.json", () => {
  it("is an OpenAPI 3.1 document that a real validator accepts", async () => {
    const res = await app.api("/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(openapi.openapi).toBe("3.1.0");
    expect(openapi.info.version).toBe("1.2.0");
    expect(openapi.servers).toEqual([{ url: app.baseUrl }]);
    const result = await new Validator().validate(structuredClone(openapi));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("describes every endpoint of the spec, its bearer scheme, errors and 429 Retry-After", () => {
    for (const [method, path] of SPEC_ENDPOINTS) expect(openapi.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    expect(openapi.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(openapi.paths["/api/drops"].post.security).toContainEqual({ bearerAuth: [] });
    expect(openapi.paths["/api/onboard"].get.security).toEqual([]);
    expect(openapi.paths["/api/drops"].post.responses["201"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Drop" });
    expect(openapi.paths["/api/drops"].post.responses["429"].headers["Retry-After"]).toBeDefined();
    expect(openapi.paths["/api/drops/{slug}"].put.responses["409"].content["application/json"].examples.version_conflict).toBeDefined();
    expect(openapi.paths["/api/drops/{slug}"].patch.responses["400"].content["application/json"].examples.metadata_only_on_patch).toBeDefined();
    for (const [method, path] of SPEC_ENDPOINTS) {
      const operation = openapi.paths[path][method];
      for (const name of path.match(/\{(\w+)\}/g) ?? []) {
        expect(operation.parameters.some((parameter: any) => parameter.in === "path" && `{${parameter.name}}` === name), `${path} ${name}`).toBe(true);
      }
      if (operation.security.length > 0) expect(operation.responses["401"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Error" });
    }
    const listParameters = openapi.paths["/api/drops"].get.parameters.map((parameter: any) => parameter.name);
    expect(listParameters).toEqual(expect.arrayContaining(["page", "pageSize", "sortBy", "sortOrder", "metadata"]));
    expect(openapi.paths["/api/drops"].get.parameters.find((parameter: any) => parameter.name === "metadata")).toMatchObject({ in: "query", style: "deepObject", explode: true, schema: { type: "object" } });
    expect(openapi.components.schemas.CreateDropBody.properties.title.maxLength).toBe(200);
    expect(openapi.components.schemas.CreateDropBody.required).toEqual(expect.arrayContaining(["title", "html"]));
  });

  it("describes expiry, the stats operation and the purge route with its own CRON_SECRET scheme", () => {
    // Every write takes the expiry, optional and described; the Drop shows it only when set.
    for (const body of ["CreateDropBody", "ReplaceDropBody", "PatchDropBody"]) {
      const schema = openapi.components.schemas[body];
      expect(schema.properties.expires_at.description, body).toContain("410 Gone");
      expect(schema.properties.ttl_seconds).toMatchObject({ type: "integer", minimum: 1, maximum: 315_360_000, description: expect.any(String) });
      expect(schema.required ?? []).not.toContain("expires_at");
      expect(schema.required ?? []).not.toContain("ttl_seconds");
    }
    const drop = openapi.components.schemas.Drop;
    expect(drop.properties.expires_at.description).toContain("Present only when an expiry is set");
    expect(drop.properties.expired).toMatchObject({ type: "boolean", description: expect.stringContaining("410 Gone") });
    expect(drop.required).not.toContain("expires_at");
    expect(drop.required).not.toContain("expired");
    expect(openapi.paths["/api/drops"].get.parameters.find((parameter: any) => parameter.name === "expired")).toMatchObject({ in: "query", required: false, schema: { type: "boolean" } });

    const stats = openapi.paths["/api/drops/{slug}/stats"]?.get;
    expect(stats).toMatchObject({ operationId: "getDropStats", tags: ["Drops"], security: [{ bearerAuth: [] }, { oauth2: ["drops:read"] }] });
    expect(stats.parameters.find((parameter: any) => parameter.name === "days")).toMatchObject({ in: "query", required: false, schema: { type: "integer", minimum: 1, maximum: 365, default: 30 } });
    expect(stats.responses["200"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/DropStats" });
    expect(stats.responses["200"].content["application/json"].example).toMatchObject({ total_views: expect.any(Number), daily: expect.any(Array), versions: expect.any(Array) });
    expect(stats.responses["400"].content["application/json"].examples.invalid_arg).toBeDefined();
    expect(Object.keys(openapi.components.schemas.DropStats.properties)).toEqual(["slug", "days", "from", "to", "total_views", "view_count", "daily", "versions"]);

    for (const path of ["/p/{slug}", "/p/{slug}/raw"]) {
      expect(openapi.paths[path].get.responses["410"], path).toMatchObject({ description: expect.stringContaining("expiry"), content: { "text/html": expect.any(Object) } });
    }

    const purge = openapi.paths["/api/cron/purge-expired"]?.get;
    expect(purge).toMatchObject({ operationId: "purgeExpiredDrops", tags: ["Operations"], security: [{ cronSecret: [] }] });
    expect(purge.responses["200"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/PurgeResult" });
    expect(Object.keys(purge.responses)).toEqual(expect.arrayContaining(["401", "403", "503"]));
    expect(openapi.components.securitySchemes.cronSecret).toMatchObject({ type: "http", scheme: "bearer", description: expect.stringContaining("CRON_SECRET") });
    expect(openapi.tags.find((tag: any) => tag.name === "Operations").description).toContain("CRON_SECRET");
  });

  it("describes the comment operations, PATCH's comments, PUT's resolves and the Drop's comments", () => {
    const operations: [string, string, string, string][] = [
      ["get", "/api/drops/{slug}/comments", "listComments", "drops:read"],
      ["post", "/api/drops/{slug}/comments", "createComment", "drops:write"],
      ["patch", "/api/drops/{slug}/comments/{id}", "resolveComment", "drops:write"],
      ["delete", "/api/drops/{slug}/comments/{id}", "deleteComment", "drops:write"],
    ];
    for (const [method, path, operationId, scope] of operations) {
      const operation = openapi.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toMatchObject({ operationId, tags: ["Comments"], security: [{ bearerAuth: [] }, { oauth2: [scope] }] });
      expect(operation.description).toContain(`\`${scope}\` scope`);
      for (const status of ["401", "403", "404", "503"]) expect(operation.responses[status], `${operationId} ${status}`).toBeDefined();
    }
    const list = openapi.paths["/api/drops/{slug}/comments"].get;
    expect(list.parameters.map((parameter: any) => parameter.name)).toEqual(["slug", "status", "since", "after", "version", "page", "pageSize"]);
    expect(list.parameters.find((parameter: any) => parameter.name === "status").schema).toMatchObject({ enum: ["open", "resolved", "all"], default: "all" });
    expect(list.parameters.find((parameter: any) => parameter.name === "since")).toMatchObject({ in: "query", required: false, schema: { type: "integer" }, description: expect.stringContaining("created_at") });
    expect(list.responses["200"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/CommentList" });
    const create = openapi.paths["/api/drops/{slug}/comments"].post;
    expect(create.requestBody.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/CreateCommentBody" });
    expect(create.responses["201"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Comment" });
    expect(Object.keys(create.responses["429"].content["application/json"].examples)).toEqual(["rate_limited", "quota_exceeded"]);
    expect(create.responses["429"].headers["Retry-After"]).toBeDefined();
    const resolve = openapi.paths["/api/drops/{slug}/comments/{id}"].patch;
    expect(resolve.parameters.map((parameter: any) => [parameter.name, parameter.in])).toEqual([["slug", "path"], ["id", "path"]]);
    expect(resolve.requestBody.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/PatchCommentBody" });
    expect(openapi.paths["/api/drops/{slug}/comments/{id}"].delete.responses["204"]).toBeDefined();

    const schemas = openapi.components.schemas;
    expect(schemas.CreateCommentBody).toMatchObject({ required: ["body"], additionalProperties: false, properties: { body: { type: "string", minLength: 1, maxLength: 4000 }, quote: { maxLength: 4000 } } });
    expect(schemas.PatchCommentBody).toMatchObject({ required: ["resolved"], properties: { resolved: { type: "boolean" } } });
    expect(schemas.Comment.required).toEqual(["id", "version", "body", "author", "created_at"]);
    expect(schemas.Comment.properties.author.properties.kind.enum).toEqual(["owner", "account", "guest"]);
    expect(schemas.CommentList.properties.data.items).toEqual(schemas.Comment);
    expect(schemas.PatchDropBody.properties.comments).toMatchObject({ enum: ["off", "signed_in", "anyone"], description: expect.stringContaining("unlocked") });
    expect(schemas.ReplaceDropBody.properties.resolves).toMatchObject({ type: "array", maxItems: 50, description: expect.stringContaining("resolved") });
    expect(schemas.Drop.properties.comments.description).toContain("Present only when comments are on");
    for (const body of ["PatchDropBody", "ReplaceDropBody"]) expect(schemas[body].required ?? [], body).not.toEqual(expect.arrayContaining(["comments", "resolves"]));
    expect(schemas.Drop.required).not.toContain("comments");
    // Issue 31: an anchor's limits in characters, and who may comment on a new drop when the creator does not say.
    for (const body of ["CreateCommentBody", "Comment"]) {
      expect(schemas[body].properties.anchor.properties, body).toMatchObject({ exact: { minLength: 1, maxLength: 500 }, prefix: { maxLength: 64 }, suffix: { maxLength: 64 } });
      expect(schemas[body].properties.anchor.required, body).toEqual(["exact"]);
    }
    expect(schemas.CreateDropBody.properties.comments.description).toContain("account's default");
    expect(openapi.tags.find((tag: any) => tag.name === "Comments").description).toContain("`resolves`");
  });

  it("describes OAuth: a scheme that matches the live authorization server, accepted wherever a token is, and /mcp's challenge", async () => {
    const server = (await app.api("/.well-known/oauth-authorization-server")).body;
    const resource = (await app.api("/.well-known/oauth-protected-resource/mcp")).body;
    const scheme = openapi.components.securitySchemes.oauth2;
    expect(scheme).toMatchObject({ type: "oauth2", flows: { authorizationCode: { authorizationUrl: server.authorization_endpoint, tokenUrl: server.token_endpoint, refreshUrl: server.token_endpoint } } });
    expect(Object.keys(scheme.flows.authorizationCode.scopes)).toEqual(resource.scopes_supported);
    for (const url of [server.registration_endpoint, server.revocation_endpoint, `${app.baseUrl}/.well-known/oauth-authorization-server`, `${app.baseUrl}/mcp`, `${app.baseUrl}/api`]) expect(scheme.description).toContain(url);
    for (const [path, methods] of Object.entries<any>(openapi.paths)) {
      for (const [method, operation] of Object.entries<any>(methods)) {
        if (operation.security.length === 0) continue;
        if (path === "/metrics") {
          // The operator's token, or none from the server's own machine; never an account's.
          expect(operation.security).toEqual([{ metricsToken: [] }, {}]);
          continue;
        }
        if (path.startsWith("/api/cron/")) {
          // The cron's secret alone: neither an account's token nor a local exception.
          expect(operation.security).toEqual([{ cronSecret: [] }]);
          continue;
        }
        expect(operation.security, `${method} ${path}`).toEqual([{ bearerAuth: [] }, { oauth2: expect.any(Array) }]);
        for (const scope of operation.security[1].oauth2) expect(scheme.flows.authorizationCode.scopes).toHaveProperty([scope]);
        const challenge = operation.responses["401"].headers["WWW-Authenticate"].$ref;
        expect(challenge, `${method} ${path}`).toBe(path === "/mcp" ? "#/components/headers/McpChallenge" : "#/components/headers/BearerChallenge");
      }
    }
    for (const [path, operationId] of [
      ["/.well-known/oauth-protected-resource/mcp", "getMcpResourceMetadata"],
      ["/.well-known/oauth-protected-resource/api", "getApiResourceMetadata"],
      ["/.well-known/oauth-authorization-server", "getAuthorizationServerMetadata"],
      ["/.well-known/openid-configuration", "getOpenIdConfiguration"],
    ] as const) {
      expect(openapi.paths[path]?.get).toMatchObject({ operationId, tags: ["OAuth"], security: [] });
    }
    const live = await app.api("/mcp", { method: "POST", body: {}, headers: { accept: "application/json, text/event-stream" } });
    expect(openapi.components.headers.McpChallenge.example).toBe(live.headers.get("www-authenticate"));
    const rest = await app.api("/api/me", { token: "hd_0123456789abcdefghijABCDEFGHIJ0123456789" });
    expect(openapi.components.headers.BearerChallenge.example).toBe(rest.headers.get("www-authenticate"));
    expect(openapi.components.schemas.TokenListItem.properties.kind.enum).toEqual(["api_token", "oauth"]);
    expect(openapi.components.schemas.TokenListItem.properties.client_id).toMatchObject({ type: "string" });
  });

  it("carries examples that validate against their own schemas", () => {
    let checked = 0;
    for (const [path, methods] of Object.entries<any>(openapi.paths)) {
      for (const [method, operation] of Object.entries<any>(methods)) {
        const media: [string[], any][] = [
          [["requestBody"], operation.requestBody?.content?.["application/json"]],
          ...Object.entries<any>(operation.responses).map(([status, response]): [string[], any] => [["responses", status], response.content?.["application/json"]]),
        ];
        for (const [location, item] of media) {
          if (!item?.schema) continue;
          const validate = ajv.compile({ $ref: pointer("paths", path, method, ...location, "content", "application/json", "schema") });
          const examples = [item.example, ...Object.values<any>(item.examples ?? {}).map((example) => example.value)].filter((example) => example !== undefined);
          for (const example of examples) {
            expect(validate(example), `${method} ${path}: ${JSON.stringify(validate.errors)}`).toBe(true);
            checked += 1;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(40);
  });
});

describe("real responses validate against the document", () => {
  it("covers create, get, list, patch, versions, passcode, me, tokens and errors", async () => {
    const token = await app.createToken("alice", "laptop");
    const bob = await app.createToken("bob");
    const created = await app.api("/api/drops", { method: "POST", token, body: { title: "Report", html: "<p>one</p>", context: "why", metadata: { project: "alpha" } } });
    expect(created.status).toBe(201);
    expectDocumented(created, "post", "/api/drops");
    const slug = created.body.slug;
    expectDocumented(await app.api(`/api/drops/${slug}`, { token }), "get", "/api/drops/{slug}");
    expectDocumented(await app.api(`/api/drops/${slug}`, { method: "PUT", token, body: { html: "<p>two</p>" } }), "put", "/api/drops/{slug}");
    expectDocumented(await app.api(`/api/drops?metadata.project=alpha&pageSize=5`, { token }), "get", "/api/drops");
    expectDocumented(await app.api(`/api/drops/${slug}`, { method: "PATCH", token, body: { description: "d" } }), "patch", "/api/drops/{slug}");
    expectDocumented(await app.api(`/api/drops/${slug}/versions`, { token }), "get", "/api/drops/{slug}/versions");
    expectDocumented(await app.api(`/api/drops/${slug}/v/1`, { token }), "get", "/api/drops/{slug}/v/{n}");
    expectDocumented(await app.api(`/api/drops/${slug}/passcode`, { method: "POST", token, body: { passcode: "s3cret" } }), "post", "/api/drops/{slug}/passcode");
    expectDocumented(await app.api(`/api/drops/${slug}/v/2`, { method: "DELETE", token }), "delete", "/api/drops/{slug}/v/{n}");
    expectDocumented(await app.api("/api/me", { token }), "get", "/api/me");
    expectDocumented(await app.api("/api/tokens", { token }), "get", "/api/tokens");

    const errors: [ApiResult, string, string, string][] = [
      [await app.api("/api/me"), "get", "/api/me", "token_required"],
      [await app.api("/api/me", { token: "not a token" }), "get", "/api/me", "invalid_token"],
      [await app.api("/api/me", { token: "hd_0123456789abcdefghijABCDEFGHIJ0123456789" }), "get", "/api/me", "unauthorized"],
      [await app.api(`/api/drops/${slug}`, { token: bob }), "get", "/api/drops/{slug}", "forbidden"],
      [await app.api("/api/drops/zzzzzzzzzz", { token }), "get", "/api/drops/{slug}", "not_found"],
      [await app.api("/api/drops", { method: "POST", token, body: { html: "<p>x</p>" } }), "post", "/api/drops", "title_required"],
      [await app.api("/api/drops", { method: "POST", token, body: { title: "x", html: "x".repeat(2_097_153) } }), "post", "/api/drops", "html_too_large"],
      [await app.api(`/api/drops/${slug}`, { method: "PATCH", token, body: { html: "<p>x</p>" } }), "patch", "/api/drops/{slug}", "metadata_only_on_patch"],
      [await app.api(`/api/drops/${slug}/v/1`, { method: "DELETE", token }), "delete", "/api/drops/{slug}/v/{n}", "last_version_cannot_be_deleted"],
      [await app.api(`/api/drops/${slug}/v/9`, { token }), "get", "/api/drops/{slug}/v/{n}", "version_not_found"],
      [await app.api("/api/drops?pageSize=500", { token }), "get", "/api/drops", "invalid_arg"],
      [await app.api(`/api/drops/${slug}/passcode`, { method: "POST", token, body: { passcode: "abc" } }), "post", "/api/drops/{slug}/passcode", "passcode_too_short"],
      [await app.api("/api/tokens/000000000000", { method: "DELETE", token }), "delete", "/api/tokens/{id}", "not_found"],
    ];
    for (const [res, method, path, code] of errors) {
      expect(res.body?.error?.code, `${method} ${path}`).toBe(code);
      expectDocumented(res, method, path);
    }
    expectDocumented(await app.api(`/api/drops/${slug}`, { method: "DELETE", token }), "delete", "/api/drops/{slug}");
  });

  it("covers expiry, the stats and the purge, and the 410 page of an expired drop", async () => {
    const token = await app.createToken("erin");
    const created = await app.api("/api/drops", { method: "POST", token, body: { title: "Short-lived", html: "<p>soon gone</p>", ttl_seconds: 1 } });
    expectDocumented(created, "post", "/api/drops");
    expect(created.body).toMatchObject({ expired: false, expires_at: expect.any(Number) });
    const slug = created.body.slug;
    expectDocumented(await app.api(`/api/drops/${slug}/stats?days=7`, { token }), "get", "/api/drops/{slug}/stats");
    expectDocumented(await app.api(`/api/drops/${slug}/stats`, { token }), "get", "/api/drops/{slug}/stats");
    const outOfRange = await app.api(`/api/drops/${slug}/stats?days=366`, { token });
    expect(outOfRange.body.error.code).toBe("invalid_arg");
    expectDocumented(outOfRange, "get", "/api/drops/{slug}/stats");
    expectDocumented(await app.api(`/api/drops?expired=false`, { token }), "get", "/api/drops");

    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const expired = await app.api(`/api/drops/${slug}`, { token });
    expect(expired.body.expired).toBe(true);
    expectDocumented(expired, "get", "/api/drops/{slug}");
    expectDocumented(await app.api(`/api/drops?expired=true`, { token }), "get", "/api/drops");
    for (const path of [`/p/${slug}`, `/p/${slug}/raw`, `/p/${slug}?v=1`]) {
      const page = await app.api(path);
      expect(page.status, path).toBe(410);
      expect(page.headers.get("content-type"), path).toContain("text/html");
      expect(openapi.paths[path.startsWith(`/p/${slug}/raw`) ? "/p/{slug}/raw" : "/p/{slug}"].get.responses["410"]).toBeDefined();
    }
    expectDocumented(await app.api(`/api/drops/${slug}`, { method: "PATCH", token, body: { expires_at: null } }), "patch", "/api/drops/{slug}");

    const cron = "/api/cron/purge-expired";
    const purged = await app.api(cron, { headers: { authorization: `Bearer ${ENV.CRON_SECRET}` } });
    expect(purged.status).toBe(200);
    expectDocumented(purged, "get", cron);
    for (const [res, code] of [
      [await app.api(cron), "token_required"],
      [await app.api(cron, { headers: { authorization: "Bearer not-the-cron-secret-at-all" } }), "unauthorized"],
    ] as const) {
      expect(res.body?.error?.code).toBe(code);
      expectDocumented(res, "get", cron);
    }
  });

  it("covers the comment operations, PATCH comments and PUT resolves, with their errors", async () => {
    const token = await app.createToken("fran");
    const created = await app.api("/api/drops", { method: "POST", token, body: { title: "Draft", html: "<p>draft</p>" } });
    const slug = created.body.slug;
    expect(created.body.comments).toBeUndefined();
    const opened = await app.api(`/api/drops/${slug}`, { method: "PATCH", token, body: { comments: "anyone" } });
    expect(opened.body.comments).toBe("anyone");
    expectDocumented(opened, "patch", "/api/drops/{slug}");
    const posted = await app.api(`/api/drops/${slug}/comments`, { method: "POST", token, body: { body: "A note to myself", quote: "draft" } });
    expect(posted.status).toBe(201);
    expectDocumented(posted, "post", "/api/drops/{slug}/comments");
    const id = posted.body.id;
    const reply = await app.api(`/api/drops/${slug}/comments`, { method: "POST", token, body: { body: "And an answer", reply_to: id } });
    expectDocumented(reply, "post", "/api/drops/{slug}/comments");
    expectDocumented(await app.api(`/api/drops/${slug}/comments?status=open&since=0`, { token }), "get", "/api/drops/{slug}/comments");
    expectDocumented(await app.api(`/api/drops/${slug}/comments/${reply.body.id}`, { method: "PATCH", token, body: { resolved: true } }), "patch", "/api/drops/{slug}/comments/{id}");
    const revised = await app.api(`/api/drops/${slug}`, { method: "PUT", token, body: { html: "<p>revised</p>", resolves: [id] } });
    expect(revised.status).toBe(200);
    expectDocumented(revised, "put", "/api/drops/{slug}");
    const resolved = await app.api(`/api/drops/${slug}/comments?status=resolved`, { token });
    expectDocumented(resolved, "get", "/api/drops/{slug}/comments");
    expect(resolved.body.data.map((comment: any) => comment.body)).toEqual(["A note to myself", "And an answer"]);
    const versionTwo = await app.api(`/api/drops/${slug}/comments?version=2`, { token });
    expect(versionTwo.body.data.map((comment: any) => comment.body)).toEqual(["Resolved in version 2."]);
    expectDocumented(await app.api(`/api/drops/${slug}/comments/${id}`, { method: "DELETE", token }), "delete", "/api/drops/{slug}/comments/{id}");

    const errors: [ApiResult, string, string, string][] = [
      [await app.api(`/api/drops/${slug}/comments?status=new`, { token }), "get", "/api/drops/{slug}/comments", "invalid_arg"],
      [await app.api(`/api/drops/${slug}/comments`, { method: "POST", token, body: { body: "x".repeat(4001) } }), "post", "/api/drops/{slug}/comments", "invalid_arg"],
      [await app.api(`/api/drops/${slug}/comments`, { method: "POST", token, body: { body: "late", version: 9 } }), "post", "/api/drops/{slug}/comments", "version_not_found"],
      [await app.api(`/api/drops/${slug}/comments/${id}`, { method: "PATCH", token, body: { resolved: true } }), "patch", "/api/drops/{slug}/comments/{id}", "not_found"],
      [await app.api(`/api/drops/${slug}/comments/${id}`, { method: "DELETE", token }), "delete", "/api/drops/{slug}/comments/{id}", "not_found"],
      [await app.api(`/api/drops/${slug}/comments/not-an-id`, { method: "DELETE", token }), "delete", "/api/drops/{slug}/comments/{id}", "invalid_arg"],
      [await app.api(`/api/drops/${slug}`, { method: "PUT", token, body: { html: "<p>x</p>", resolves: [id] } }), "put", "/api/drops/{slug}", "invalid_arg"],
      [await app.api(`/api/drops/${slug}`, { method: "PATCH", token, body: { comments: "everyone" } }), "patch", "/api/drops/{slug}", "invalid_arg"],
    ];
    for (const [res, method, path, code] of errors) {
      expect(res.body?.error?.code, `${method} ${path} ${res.text}`).toBe(code);
      expectDocumented(res, method, path);
    }
    // The refused PUT wrote nothing.
    expect((await app.api(`/api/drops/${slug}`, { token })).body.latest_version).toBe(2);
  });

  it("covers the OAuth metadata documents and an app connected through OAuth in the token list", async () => {
    expectDocumented(await app.api("/.well-known/oauth-protected-resource/mcp"), "get", "/.well-known/oauth-protected-resource/mcp");
    expectDocumented(await app.api("/.well-known/oauth-protected-resource/api"), "get", "/.well-known/oauth-protected-resource/api");
    expectDocumented(await app.api("/.well-known/oauth-authorization-server"), "get", "/.well-known/oauth-authorization-server");
    expectDocumented(await app.api("/.well-known/openid-configuration"), "get", "/.well-known/openid-configuration");

    // Dora connects an app through OAuth; her token list then shows it with kind and client_id.
    const session = await signInBrowserless(app, "dora");
    const token = await tokenThroughDeviceFlow(app, session, "laptop");
    const redirectUri = "http://127.0.0.1:9/callback";
    const clientId = await registerClient(app.baseUrl, { client_name: "Documented App", redirect_uris: [redirectUri], token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"] });
    const { jar } = session;
    const { verifier, challenge } = pkcePair();
    const query = new URLSearchParams({ client_id: clientId, response_type: "code", redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: "S256", scope: "drops:read", resource: `${app.baseUrl}/mcp`, state: "s" });
    const { redirect } = await authorizeOverHttp({ origin: app.baseUrl, jar, client: "127.0.0.1" }, `/oauth/authorize?${query}`);
    const code = redirect?.searchParams.get("code");
    expect(code, String(redirect)).toBeTruthy();
    const exchanged = await tokenRequest(app.baseUrl, { grant_type: "authorization_code", code: code!, code_verifier: verifier, redirect_uri: redirectUri, client_id: clientId, resource: `${app.baseUrl}/mcp` });
    expect(exchanged.status, JSON.stringify(exchanged.body)).toBe(200);

    const listed = await app.api("/api/tokens", { token });
    expectDocumented(listed, "get", "/api/tokens");
    expect(listed.body.map((item: any) => [item.kind, item.label, item.client_id])).toEqual(expect.arrayContaining([["api_token", "laptop", undefined], ["oauth", "Documented App", clientId]]));
  });

  it("documents the 429 a spent write budget answers, with Retry-After", async () => {
    const token = await app.createToken("carol");
    // All the writes in one window, whenever the test runs.
    clock.startWindow(MINUTE_MS);
    let res: ApiResult | undefined;
    for (let write = 0; write <= Number(ENV.LIMIT_WRITES_PER_MINUTE); write += 1) {
      res = await app.api("/api/drops", { method: "POST", token, body: { title: `n${write}`, html: "<p>x</p>" } });
      if (res.status === 429) break;
    }
    expect(res!.status).toBe(429);
    expect(Number(res!.headers.get("retry-after"))).toBe(res!.body.error.details.retry_after_seconds);
    expectDocumented(res!, "post", "/api/drops");
  });
});

describe("well-known documents", () => {
  it("serves an agent card", async () => {
    const res = await app.api("/.well-known/agent-card.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.body).toMatchObject({ name: "htmldrop", url: app.baseUrl, version: "1.2.0", documentationUrl: `${app.baseUrl}/api/onboard`, capabilities: expect.any(Object) });
    expect(typeof res.body.description).toBe("string");
    expect(res.body.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(res.body.skills.length).toBeGreaterThan(0);
    for (const skill of res.body.skills) expect(skill).toMatchObject({ id: expect.any(String), name: expect.any(String), description: expect.any(String), tags: expect.any(Array) });
    expect(res.body.additionalInterfaces).toContainEqual({ url: `${app.baseUrl}/mcp`, transport: "MCP" });
    expect(res.body.skills.map((skill: any) => skill.id)).toEqual(expect.arrayContaining(["expiry", "view_stats", "comments"]));
    // Either an API token or OAuth, whose URLs are the authorization server's own.
    const server = (await app.api("/.well-known/oauth-authorization-server")).body;
    expect(res.body.securitySchemes.oauth2).toMatchObject({
      type: "oauth2",
      oauth2MetadataUrl: `${app.baseUrl}/.well-known/oauth-authorization-server`,
      flows: { authorizationCode: { authorizationUrl: server.authorization_endpoint, tokenUrl: server.token_endpoint } },
    });
    expect(res.body.security).toEqual([{ bearerAuth: [] }, { oauth2: ["drops:read", "drops:write", "tokens:manage"] }]);
  });

  it("serves an RFC 9727 API catalog whose links resolve", async () => {
    const res = await app.api("/.well-known/api-catalog");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/linkset\+json/);
    const entry = JSON.parse(res.text).linkset[0];
    expect(entry.anchor).toBe(`${app.baseUrl}/api`);
    expect(entry["service-desc"][0].href).toBe(`${app.baseUrl}/openapi.json`);
    for (const link of [...entry["service-desc"], ...entry["service-doc"], ...entry["service-meta"], ...entry.describedby]) {
      const target = await app.api(new URL(link.href).pathname);
      expect(target.status, link.href).toBe(200);
      expect(target.headers.get("content-type")).toContain(link.type === "application/openapi+json" ? "application/json" : link.type);
    }
    const head = await app.api("/.well-known/api-catalog", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("link")).toContain('rel="api-catalog"');
  });

  it("serves an agent-skills index pointing to a skill file", async () => {
    const index = await app.api("/.well-known/agent-skills/index.json");
    expect(index.status).toBe(200);
    expect(index.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const [skill] = index.body.skills;
    expect(skill).toMatchObject({ name: "htmldrop", description: expect.any(String), url: expect.stringMatching(/SKILL\.md$/) });
    const file = await app.api(new URL(skill.url).pathname);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(file.text).toMatch(/^---\nname: htmldrop\ndescription: .+\n---\n/);
    expect(/^description: (.+)$/m.exec(file.text)?.[1]).toMatch(/expire.*viewed/);
    expect(file.text).toContain((await app.api("/api/onboard")).text);
  });

  it("serves llms.txt with schema version 1 and the same facts as the guide", async () => {
    const res = await app.api("/llms.txt");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.text).toMatch(/^# htmldrop\n/);
    expect(res.text).toContain("schema version: 1\n");
    expect(res.text).toContain(`${app.baseUrl}/api/onboard`);
    const guide = (await app.api("/api/onboard")).text;
    for (const [, name, value] of guide.matchAll(/^\| ([A-Z][^|]+?) \| ([^|]+?) \|$/gm)) {
      if (name === "limit") continue;
      expect(res.text).toContain(`- ${name}: ${value}`);
    }
    expect(res.text).toContain("- Writes per minute: 37 per account");
    for (const fact of ["ttl_seconds", "expired=true|false", "410 Gone", "deleted 3 days after the expiry", "GET /api/drops/{slug}/stats?days=30", "drop_stats"]) expect(res.text, fact).toContain(fact);
    expect(res.text).toContain("- GET /api/cron/purge-expired (CRON_SECRET): ");
    expect(res.text).toContain("- GET /metrics (METRICS_TOKEN): ");
    expect(res.text).toContain("- GET /api/drops/{slug}/stats (token): ");
    for (const fact of ["GET /api/drops/{slug}/comments?status=open", "list_comments", "resolves: [ids]", "since="]) expect(res.text, fact).toContain(fact);
    expect(res.text).toContain("- PATCH /api/drops/{slug}/comments/{id} (token): ");
    const connect = res.text.slice(res.text.indexOf("## Connect an assistant by URL"));
    expect(connect).toContain(`${app.baseUrl}/.well-known/oauth-protected-resource/mcp`);
    expect(connect).toContain(`${app.baseUrl}/.well-known/oauth-authorization-server`);
    for (const client of CONNECT_CLIENTS) expect(connect).toContain(`\n- ${client}`);
  });
});

describe("pages for humans", () => {
  it("serves the landing page with a Link header advertising the documents", async () => {
    const res = await app.api("/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    const link = res.headers.get("link") ?? "";
    for (const rel of ["service-desc", "service-doc", "api-catalog", "describedby"]) expect(link).toContain(`rel="${rel}"`);
    expect(link).toContain("</openapi.json>");
    expect(res.text).toContain(`${app.baseUrl}/mcp`);
    expect(res.text).toContain(`Read ${app.baseUrl}/api/onboard`);
    for (const path of ["/api/onboard", "/openapi.json", "/docs", "/.well-known/api-catalog", "/llms.txt", "/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-authorization-server"]) {
      expect(res.text).toContain(`href="${path}"`);
    }
    // Adding htmldrop by URL, for every client, next to the header configuration that keeps working.
    expect(res.text).toContain("Or add htmldrop by URL");
    for (const client of ["claude", "chatgpt", "vscode", "cursor", "inspector"]) expect(res.text).toContain(`data-client="${client}"`);
    expect(res.text).toContain("Or add the MCP server with a token");
  });

  it("renders the API reference from the OpenAPI document", async () => {
    const res = await app.api("/docs");
    expect(res.status).toBe(200);
    // Small enough for a public page: each schema is declared once, a long field comment another schema
    // already wrote out is a link to it, and folded parts are drawn when opened. (About 102 KB with the
    // stats and purge operations; the budget grows with the API, not with how it is drawn: the four
    // comment operations, their tag and schemas added 13 KB with descriptions cut to a line, so 118 KB;
    // the preview image and version diff operations, the `indexable` field and the page's own header and
    // Try it help about 8 KB more, so 128 KB; the pattern catalog and the account patterns' seven
    // operations, their tag and four schemas 13 KB more, so 144 KB; sharing's ten operations, its tag,
    // seven schemas and the `access` field 24 KB more, so 170 KB; a comment's anchor, the comments choice
    // on create and the preview card's tag 2 KB more, so 172 KB; /mcp's JSON-RPC request and answer and
    // /openapi.json's own answer described, 2 KB more, so 174 KB; which hosts show drops inline (MCP
    // Apps), on /mcp, 1 KB more, so 175 KB; webhooks' eight operations, their tag with the event
    // vocabulary, six schemas, the cron route and comments' cursor 26 KB more, so 201 KB; the contents
    // column and the operation filter 3 KB more, so 204 KB; the live version document 3 KB more, so 207 KB;
    // the notification emails' cron route and the account's notification settings (two operations, two
    // schemas) 5.6 KB more, so 214 KB.)
    expect(Buffer.byteLength(res.text)).toBeLessThan(214_000);
    // Every operation in view, with its method, path, statuses and error codes, and links to the schemas it
    // takes and returns (the Error shape, common to all, is linked once).
    for (const [path, methods] of Object.entries<any>(openapi.paths)) {
      for (const [method, operation] of Object.entries<any>(methods)) {
        const start = res.text.indexOf(`id="${operation.operationId}"`);
        expect(start, `${method} ${path} is on the page`).toBeGreaterThan(-1);
        const article = res.text.slice(start, res.text.indexOf("</article>", start));
        expect(article).toContain(`>${method}<`);
        expect(article).toContain(`>${path.replaceAll("<", "&lt;").replaceAll(">", "&gt;")}<`);
        for (const [status, response] of Object.entries<any>(operation.responses)) {
          expect(article).toContain(status);
          for (const code of Object.keys(response.content?.["application/json"]?.examples ?? {})) expect(article).toContain(code);
        }
        for (const [, name] of JSON.stringify(operation).matchAll(/"#\/components\/schemas\/(\w+)"/g)) if (name !== "Error") expect(article).toContain(`href="#schema-${name}"`);
      }
    }
    expect(res.text).toContain('href="#schema-Error"');
    for (const name of Object.keys(openapi.components.schemas)) expect(res.text).toContain(`id="schema-${name}"`);
    // How to connect by URL, and both security schemes with the OAuth flow's endpoints.
    expect(res.text).toContain('id="connect-by-url"');
    for (const client of ["claude", "chatgpt", "vscode", "cursor", "inspector"]) expect(res.text).toContain(`data-client="${client}"`);
    for (const name of Object.keys(openapi.components.securitySchemes)) expect(res.text).toContain(`id="security-${name}"`);
    expect(res.text).toContain(openapi.components.securitySchemes.oauth2.flows.authorizationCode.authorizationUrl);
  });
});

describe("an agent given only the base URL", () => {
  type HttpBlock = { section: string; method: string; url: string; headers: [string, string][]; body?: unknown };

  /** The guide's ```http blocks, each under the heading of its section. */
  function httpBlocks(markdown: string): HttpBlock[] {
    const blocks: HttpBlock[] = [];
    let section = "";
    for (const part of markdown.split(/^```/m).entries()) {
      const [index, text] = part;
      if (index % 2 === 0) {
        section = [...text.matchAll(/^## (.+)$/gm)].at(-1)?.[1] ?? section;
        continue;
      }
      if (!text.startsWith("http\n")) continue;
      const [head, ...rest] = text.slice(5).split("\n\n");
      const [requestLine, ...headerLines] = head!.trim().split("\n");
      const [method, url] = requestLine!.split(" ");
      const headers = headerLines.map((line) => line.split(/:\s*/, 2) as [string, string]);
      blocks.push({ section, method: method!, url: url!, headers, body: rest.length ? JSON.parse(rest.join("\n\n")) : undefined });
    }
    return blocks;
  }

  it("follows /api/onboard to a published drop", async () => {
    const guide = await fetch(`${app.baseUrl}/api/onboard`).then((res) => res.text());
    const blocks = httpBlocks(guide);

    // Sign-in: the guide's first request starts the device flow; the admin command stands in for the human's approval.
    const start = blocks.find((block) => /sign in/i.test(block.section));
    expect(start?.method).toBe("POST");
    expect(start!.url.startsWith(app.baseUrl)).toBe(true);
    expect(openapi.paths[new URL(start!.url).pathname]?.post?.operationId).toBe("startDeviceAuth");
    const tokenVariable = /environment variable \(`(\w+)`\)/.exec(guide)?.[1];
    expect(tokenVariable).toBeDefined();
    const token = await app.createToken("agent", "walk");

    const send = async (block: HttpBlock, slug?: string) => {
      const headers: Record<string, string> = {};
      for (const [name, value] of block.headers) {
        if (/<[^>]+>/.test(value)) continue; // optional headers with placeholders
        headers[name] = value.replace(`$${tokenVariable}`, token);
      }
      const url = slug ? block.url.replace("<slug>", slug) : block.url;
      const res = await fetch(url, { method: block.method, headers, body: block.body === undefined ? undefined : JSON.stringify(block.body) });
      return { status: res.status, body: (await res.json()) as any };
    };

    // Publishing starts by picking a pattern from the public catalog the guide names.
    const [catalog, publish] = blocks.filter((block) => /publish/i.test(block.section));
    expect(catalog!.method).toBe("GET");
    const index = await fetch(catalog!.url).then((res) => res.json() as Promise<{ patterns: { name: string; url: string }[] }>);
    expect(index.patterns.length).toBeGreaterThanOrEqual(5);
    expect(guide).toContain(index.patterns[0]!.name);
    expect(publish!.method).toBe("POST");
    const created = await send(publish!);
    expect(created.status).toBe(201);
    expect(created.body.title).toBe((publish!.body as { title: string }).title);
    expect(created.body.url.startsWith(`${app.baseUrl}/`)).toBe(true);

    const iterate = blocks.find((block) => /new version/i.test(block.section))!;
    const updated = await send(iterate, created.body.slug);
    expect(updated.status).toBe(200);
    expect(updated.body.latest_version).toBe(2);
    expect(updated.body.url).toBe(created.body.url);

    // Open the URL. The public viewer is built in its own issue: once present it must show the drop.
    const page = await fetch(created.body.url);
    if (existsSync(join(import.meta.dirname, "..", "..", "app", "p", "[slug]"))) {
      expect(page.status).toBe(200);
      expect(await page.text()).toContain((publish!.body as { title: string }).title);
    } else {
      expect(page.status).toBe(404);
    }
  });
});
