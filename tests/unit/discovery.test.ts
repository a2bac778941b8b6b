import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/discovery/openapi";
import { OPERATIONS } from "@/lib/api/operations";
import { buildApiReference, type TypeText } from "@/lib/discovery/reference";
import { prefersHtml, prefersJson } from "@/lib/discovery/respond";
import { buildOnboardingMarkdown } from "@/lib/discovery/onboard";
import { buildLlmsTxt, buildSkillMarkdown } from "@/lib/discovery/documents";
import cliPackage from "@/cli/package.json";
import { mcpInstructions } from "@/lib/mcp/guide";
import { INLINE_VIEW_SUMMARY } from "@/lib/mcp/apps";

describe("prefersJson", () => {
  it.each([
    [null, false],
    ["*/*", false],
    ["application/json", true],
    ["application/json; charset=utf-8", true],
    ["text/markdown, application/json;q=0.5", false],
    ["text/markdown;q=0.2, application/json", true],
    ["application/json;q=0", false],
    ["text/plain, application/json", false],
  ])("%s → %s", (accept, expected) => {
    expect(prefersJson(accept)).toBe(expected);
  });
});

describe("prefersHtml", () => {
  it.each([
    [null, false],
    ["*/*", false],
    ["text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8", true],
    ["text/html", true],
    ["text/html;q=0.5, */*", false],
    ["text/html, text/markdown", false],
    ["text/html;q=0.9, text/markdown;q=0.8", true],
    ["text/html, application/json", false],
    ["text/html;q=0", false],
    ["text/*", false],
  ])("%s → %s", (accept, expected) => {
    expect(prefersHtml(accept)).toBe(expected);
  });
});

describe("operation table", () => {
  it("has unique operation ids and one entry per method and path", () => {
    expect(new Set(OPERATIONS.map((operation) => operation.operationId)).size).toBe(OPERATIONS.length);
    expect(new Set(OPERATIONS.map((operation) => `${operation.method} ${operation.path}`)).size).toBe(OPERATIONS.length);
  });
});

describe("operator-only operations", () => {
  const document = buildOpenApiDocument() as any;

  it("take the operator's secret as a scheme of its own, never an account's token", () => {
    expect(document.paths["/metrics"].get.security).toEqual([{ metricsToken: [] }, {}]);
    expect(document.paths["/api/cron/purge-expired"].get.security).toEqual([{ cronSecret: [] }]);
    for (const name of ["metricsToken", "cronSecret"]) expect(document.components.securitySchemes[name]).toMatchObject({ type: "http", scheme: "bearer" });
    expect(OPERATIONS.filter((operation) => operation.operatorSecret).map((operation) => [operation.path, operation.auth, operation.tag])).toEqual([
      ["/metrics", false, "Operations"],
      ["/api/cron/purge-expired", false, "Operations"],
      ["/api/cron/deliver-webhooks", false, "Operations"],
      ["/api/cron/send-notifications", false, "Operations"],
    ]);
  });
});

describe("API reference", () => {
  const components = (buildOpenApiDocument() as any).components.schemas;
  const reference = buildApiReference();
  const operations = reference.tags.flatMap((tag) => tag.operations);
  const text = (parts: TypeText) => parts.map((part) => (typeof part === "string" ? part : part.schema)).join("");

  it("lists every operation once, under its tag", () => {
    expect(operations.map((operation) => operation.id).sort()).toEqual(OPERATIONS.map((operation) => operation.operationId).sort());
  });

  it("declares every property of every component schema, marking the optional ones", () => {
    expect(reference.schemas.map((schema) => schema.name)).toEqual(Object.keys(components));
    for (const schema of reference.schemas) {
      const declaration = text(schema.declaration);
      const { properties = {}, required = [] } = components[schema.name];
      for (const key of Object.keys(properties)) expect(declaration).toMatch(new RegExp(`^  ${key}${required.includes(key) ? "" : "\\?"}: `, "m"));
    }
  });

  it("shows the purge under Operations and the stats under Drops, with their schemes and schemas", () => {
    const byTag = (name: string) => reference.tags.find((tag) => tag.name === name)!.operations.map((operation) => operation.id);
    expect(byTag("Operations")).toEqual(["getHealth", "getMetrics", "purgeExpiredDrops", "deliverWebhooks", "sendNotifications"]);
    expect(byTag("Drops")).toContain("getDropStats");
    expect(reference.securitySchemes.map((scheme) => scheme.name)).toEqual(["bearerAuth", "oauth2", "metricsToken", "cronSecret"]);
    const stats = operations.find((operation) => operation.id === "getDropStats")!;
    expect(stats.parameters.map((parameter) => parameter.name)).toEqual(["slug", "days"]);
    expect(stats.responses.find((response) => response.status === "200")!.type).toEqual([{ schema: "DropStats" }]);
    const drop = text(reference.schemas.find((schema) => schema.name === "Drop")!.declaration);
    expect(drop).toMatch(/^  expires_at\?: /m);
    expect(drop).toMatch(/^  expired\?: boolean$/m);
  });

  it("shows the comment operations under Comments, with their parameters and schemas, and the fields they add to drops", () => {
    const byTag = (name: string) => reference.tags.find((tag) => tag.name === name)!.operations;
    expect(byTag("Comments").map((operation) => [operation.method, operation.path, operation.id])).toEqual([
      ["get", "/api/drops/{slug}/comments", "listComments"],
      ["post", "/api/drops/{slug}/comments", "createComment"],
      ["patch", "/api/drops/{slug}/comments/{id}", "resolveComment"],
      ["delete", "/api/drops/{slug}/comments/{id}", "deleteComment"],
    ]);
    const [list, create, resolve] = byTag("Comments");
    expect(list!.parameters.map((parameter) => parameter.name)).toEqual(["slug", "status", "since", "after", "version", "page", "pageSize"]);
    expect(list!.responses.find((response) => response.status === "200")!.type).toEqual([{ schema: "CommentList" }]);
    expect(create!.body!.type).toEqual([{ schema: "CreateCommentBody" }]);
    expect(create!.responses.find((response) => response.status === "201")!.type).toEqual([{ schema: "Comment" }]);
    expect(create!.errors).toContain("429 rate_limited, quota_exceeded");
    expect(create!.errors).not.toContain("daily_quota_exceeded");
    expect(resolve!.body!.type).toEqual([{ schema: "PatchCommentBody" }]);
    const declaration = (name: string) => text(reference.schemas.find((schema) => schema.name === name)!.declaration);
    expect(declaration("PatchDropBody")).toMatch(/^  comments\?: "off" \| "signed_in" \| "anyone"$/m);
    expect(declaration("ReplaceDropBody")).toMatch(/^  resolves\?: string\[\]$/m);
    expect(declaration("Drop")).toMatch(/^  comments\?: /m);
    expect(declaration("CreateCommentBody")).toMatch(/\(minLength 1, maxLength 4000\)\n  body: string$/m);
  });

  it("names a component schema where another repeats it, rather than writing it out again", () => {
    expect(reference.schemas.find((schema) => schema.name === "DropList")!.declaration).toContainEqual({ schema: "Drop" });
  });

  it("links a long field comment to the schema that wrote it out first, instead of repeating it", () => {
    const patch = reference.schemas.find((schema) => schema.name === "PatchDropBody")!.declaration;
    expect(patch).toContainEqual({ schema: "CreateDropBody" });
    expect(text(patch)).toMatch(/^  \/\/ as in CreateDropBody\n  expires_at\?: /m);
    expect(text(reference.schemas.find((schema) => schema.name === "CreateDropBody")!.declaration)).toMatch(/^  \/\/ When the link stops working.*\n  expires_at\?: /m);
    // Short comments stay where they are.
    expect(text(reference.schemas.find((schema) => schema.name === "Version")!.declaration)).toMatch(/^  \/\/ Unix time in milliseconds\n  created_at: /m);
  });

  it("gives error statuses their codes, and their description only where it says more", () => {
    const mcp = operations.find((operation) => operation.id === "mcp")!;
    expect(mcp.errors).toContain("401 token_required, invalid_token, unauthorized");
    expect(mcp.errors).toContain("406 invalid_arg (The `Accept` header");
    expect(mcp.errors).not.toContain("is one of");
  });
});

describe("the review loop in the guides", () => {
  it("tells agents to read open comments before revising and to resolve them with the update", () => {
    const guide = buildOnboardingMarkdown();
    const loop = guide.slice(guide.indexOf("## 8. Comments"), guide.indexOf("## 9. Errors"));
    expect(loop).toContain('"comments": "anyone"');
    expect(loop).toContain("/api/drops/<slug>/comments?status=open");
    expect(loop).toMatch(/"resolves": \[\n\s+"Q7mN2pR4sT6vW8xY0zA1"\n\s+\]/);
    expect(loop).toContain("`since`");
    const instructions = mcpInstructions();
    for (const fact of ['list_comments with status "open"', "resolves to update_drop", "since", '"off", the default']) expect(instructions, fact).toContain(fact);
  });
});

describe("the command-line client in the guides", () => {
  it("names its package and its commands in the onboarding guide, SKILL.md and llms.txt", () => {
    for (const document of [buildOnboardingMarkdown(), buildSkillMarkdown(), buildLlmsTxt()]) {
      expect(document).toContain(`npm install -g ${cliPackage.name}`);
      expect(document).toContain(`npx ${cliPackage.name} <command>`);
      expect(document).toContain("`htmldrop publish report.html`");
      expect(document).toContain("`HTMLDROP_URL` and `HTMLDROP_TOKEN`");
    }
  });
});

describe("drops inline (MCP Apps) in the guides", () => {
  it("names the hosts and says how to turn it on in the onboarding guide, SKILL.md and the /mcp operation (/docs, OpenAPI)", () => {
    const mcpOperation = (buildOpenApiDocument() as any).paths["/mcp"].post.description;
    for (const document of [buildOnboardingMarkdown(), buildSkillMarkdown(), mcpOperation]) {
      expect(document).toContain(INLINE_VIEW_SUMMARY);
    }
    for (const host of ["Claude", "ChatGPT", "VS Code"]) expect(INLINE_VIEW_SUMMARY).toContain(host);
    expect(INLINE_VIEW_SUMMARY).toContain("Nothing to turn on in htmldrop");
  });
});
