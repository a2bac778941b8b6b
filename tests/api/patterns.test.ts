// Patterns (issue 18): the public catalog under /.well-known/patterns/, an account's own patterns under
// /api/patterns (private, before built-in ones of the same name, refused to another account), and the
// same catalog through the MCP SDK's client as tools, prompts and resources, matching REST.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePatternMarkdown } from "@/lib/patterns";
import { patternIndexSchema, patternListSchema, patternSchema } from "@/lib/schemas/patterns";
import { startApp, type TestApp } from "../helpers/app";

let app: TestApp;
let alice: string;
let bob: string;
const clients: Client[] = [];

beforeAll(async () => {
  // The 50-pattern limit is what one test reaches, not the write limits: budgets large enough for it.
  app = await startApp({ env: { LIMIT_WRITES_PER_MINUTE: "1000", LIMIT_WRITES_PER_DAY: "10000" } });
  [alice, bob] = await Promise.all([app.createToken("patterns-alice"), app.createToken("patterns-bob")]);
}, 180_000);
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await app?.stop();
});

async function mcpAs(token: string): Promise<Client> {
  const client = new Client({ name: "htmldrop-pattern-tests", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", app.baseUrl), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  clients.push(client);
  return client;
}

function markdown(name: string, extra = "", guide = "# Ours\n\n## When to use\nAlways.\n"): string {
  return `---\nname: ${name}\ndescription: Our own ${name}.\ntriggers:\n  - our ${name}\n${extra}---\n\n${guide}`;
}

const TEMPLATE = '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Ours</title></head><body><main><h1>Ours</h1></main></body></html>';

function put(token: string, name: string, body: unknown) {
  return app.api(`/api/patterns/${name}`, { method: "PUT", token, body });
}

describe("the public catalog", () => {
  it("lists every built-in pattern with its guide and template, and each document validates", async () => {
    const res = await app.api("/.well-known/patterns/index.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const index = patternIndexSchema.parse(res.body);
    expect(index.patterns.length).toBeGreaterThanOrEqual(5);
    for (const entry of index.patterns) {
      expect(entry.url).toBe(`${app.baseUrl}/.well-known/patterns/${entry.name}.md`);
      const guide = await fetch(entry.url);
      expect(guide.status).toBe(200);
      expect(guide.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
      const { frontMatter } = parsePatternMarkdown(await guide.text());
      expect(frontMatter).toMatchObject({ name: entry.name, description: entry.description, triggers: entry.triggers });
      expect(entry.template_url).toBe(`${app.baseUrl}/.well-known/patterns/${entry.name}.template.html`);
      const template = await fetch(entry.template_url!);
      expect(template.status).toBe(200);
      expect(template.headers.get("content-type")).toBe("text/html; charset=utf-8");
      // Shown on the service's own origin, so shown inert: no script runs and nothing is fetched.
      expect(template.headers.get("content-security-policy")).toBe("sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:");
      expect(await template.text()).toMatch(/^<!DOCTYPE html>/i);
    }
  });

  it.each(["nothing.md", "nothing.template.html", "index.xml", "..%2Fpackage.json", "PR-EXPLAINER.md"])("answers 404 in the Error shape for %s", async (file) => {
    const res = await app.api(`/.well-known/patterns/${file}`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
    expect(res.body.error.message).toContain("index.json");
  });

  it("refuses other methods with 405", async () => {
    const res = await app.api("/.well-known/patterns/index.json", { method: "POST", body: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toContain("GET");
  });

  it("is named by the landing page's Link header, the API catalog and the onboarding documents", async () => {
    const landing = await fetch(app.baseUrl);
    expect(landing.headers.get("link")).toContain('</.well-known/patterns/index.json>; rel="patterns"');
    const linkset = await app.api("/.well-known/api-catalog");
    expect(JSON.stringify(linkset.body)).toContain(`${app.baseUrl}/.well-known/patterns/index.json`);
    const index = patternIndexSchema.parse((await app.api("/.well-known/patterns/index.json")).body);
    for (const path of ["/api/onboard", "/.well-known/agent-skills/htmldrop/SKILL.md", "/llms.txt"]) {
      const text = (await app.api(path)).text;
      expect(text, path).toContain("/.well-known/patterns/index.json");
      for (const entry of index.patterns) expect(text, `${path} names ${entry.name}`).toContain(entry.name);
    }
    const card = (await app.api("/.well-known/agent-card.json")).body;
    expect(card.skills.map((skill: { id: string }) => skill.id)).toContain("patterns");
  });
});

describe("an account's own patterns", () => {
  it("adds (201), replaces (200), reads and lists a pattern, before the built-in one of the same name", async () => {
    const builtin = patternSchema.parse((await app.api("/api/patterns/status-report", { token: alice })).body);
    expect(builtin).toMatchObject({ source: "builtin", title: "Status report", has_template: true, updated_at: null });

    const created = await put(alice, "status-report", { markdown: markdown("status-report"), template: TEMPLATE });
    expect(created.status, created.text).toBe(201);
    expect(patternSchema.parse(created.body)).toMatchObject({ name: "status-report", title: "Ours", source: "account", has_template: true, url: null, markdown: markdown("status-report"), template: TEMPLATE });
    const replaced = await put(alice, "status-report", { markdown: markdown("status-report", "", "# Ours, again\n") });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body).toMatchObject({ template: null, has_template: false, markdown: markdown("status-report", "", "# Ours, again\n") });

    const list = patternListSchema.parse((await app.api("/api/patterns", { token: alice })).body);
    const names = list.patterns.map((pattern) => pattern.name);
    expect(names).toEqual([...names].sort());
    expect(names.filter((name) => name === "status-report")).toHaveLength(1);
    expect(list.patterns.find((pattern) => pattern.name === "status-report")).toMatchObject({ source: "account", description: "Our own status-report." });
    expect(list.patterns.find((pattern) => pattern.name === "pr-explainer")).toMatchObject({ source: "builtin" });

    // Deleting it brings the built-in one back; a second delete has nothing to delete.
    expect((await app.api("/api/patterns/status-report", { method: "DELETE", token: alice })).status).toBe(204);
    expect((await app.api("/api/patterns/status-report", { token: alice })).body).toEqual(builtin);
    const again = await app.api("/api/patterns/status-report", { method: "DELETE", token: alice });
    expect(again.status).toBe(404);
    expect(again.body.error.message).toContain("built-in");
  });

  it("never shows one account's pattern to another, nor in the public catalog", async () => {
    expect((await put(alice, "alice-secret", { markdown: markdown("alice-secret") })).status).toBe(201);
    const read = await app.api("/api/patterns/alice-secret", { token: bob });
    expect(read.status).toBe(404);
    expect(read.body.error.code).toBe("not_found");
    expect(JSON.stringify((await app.api("/api/patterns", { token: bob })).body)).not.toContain("alice-secret");
    expect((await app.api("/api/patterns/alice-secret", { method: "DELETE", token: bob })).status).toBe(404);
    expect(JSON.stringify((await app.api("/.well-known/patterns/index.json")).body)).not.toContain("alice-secret");
    expect((await app.api("/.well-known/patterns/alice-secret.md")).status).toBe(404);
    // Bob's own of the same name is his, and leaves Alice's as it was.
    expect((await put(bob, "alice-secret", { markdown: markdown("alice-secret", "", "# Bob's\n") })).status).toBe(201);
    expect((await app.api("/api/patterns/alice-secret", { token: alice })).body.markdown).toBe(markdown("alice-secret"));
  });

  it.each([
    ["no front matter", { markdown: "# Just a guide\n" }, 400, "invalid_pattern"],
    ["a front matter name other than the path's", { markdown: markdown("other-name") }, 400, "invalid_pattern"],
    ["a template named but not sent", { markdown: markdown("ours", "template: ours.template.html\n") }, 400, "invalid_pattern"],
    ["a template of another name", { markdown: markdown("ours", "template: theirs.template.html\n"), template: TEMPLATE }, 400, "invalid_pattern"],
    ["Markdown over 64 KiB", { markdown: markdown("ours", "", `# Big\n${"x".repeat(65_536)}`) }, 400, "pattern_too_large"],
    ["an empty template", { markdown: markdown("ours"), template: "" }, 400, "invalid_arg"],
    ["a NUL character", { markdown: markdown("ours", "", "# A\u0000B\n") }, 400, "invalid_arg"],
    ["an unknown field", { markdown: markdown("ours"), html: TEMPLATE }, 400, "invalid_arg"],
    ["no markdown", { template: TEMPLATE }, 400, "invalid_arg"],
  ])("refuses %s with a clear error, saving nothing", async (_case, body, status, code) => {
    const res = await put(alice, "ours", body);
    expect(res.status, res.text).toBe(status);
    expect(res.body.error.code).toBe(code);
    expect((await app.api("/api/patterns/ours", { token: alice })).status).toBe(404);
  });

  it("refuses front matter too large or nested too deep before parsing it, and says which", async () => {
    const cases = [
      // The reviewer's 64 KiB of nesting, which took the parser 300 ms to overflow its stack.
      { markdown: `---\nx: ${"[".repeat(65_000)}\n---\n# G\n`, says: "larger than 16384 bytes", field: "at most 16384 bytes" },
      { markdown: markdown("ours", `notes: ${"x".repeat(16_384)}\n`), says: "larger than 16384 bytes", field: "at most 16384 bytes" },
      { markdown: markdown("ours", `x: ${"[".repeat(11)}${"]".repeat(11)}\n`), says: "more than 10 levels deep", field: "nested at most 10 levels deep" },
      { markdown: markdown("ours", `x:\n${"- ".repeat(11)}deep\n`), says: "more than 10 levels deep", field: "nested at most 10 levels deep" },
    ];
    for (const { markdown: text, says, field } of cases) {
      const res = await put(alice, "ours", { markdown: text });
      expect(res.status, res.text).toBe(400);
      expect(res.body.error.code).toBe("invalid_pattern");
      expect(res.body.error.message).toContain(says);
      expect(res.body.error.details.fields).toEqual([{ field: "front_matter", message: field }]);
    }
    // Nesting a pattern's own keys need, and a little more, is fine.
    expect((await put(alice, "nested-ok", { markdown: markdown("nested-ok", `x: [[[1], {a: [2]}]]\n`) })).status).toBe(201);
  });

  it("says which field is too large, and refuses malformed names and bodies", async () => {
    const big = await put(alice, "ours", { markdown: markdown("ours"), template: "x".repeat(2_097_153) });
    expect(big.status).toBe(400);
    expect(big.body.error).toMatchObject({ code: "pattern_too_large", details: { field: "template", max_bytes: 2_097_152 } });
    for (const name of ["Not_Kebab", "a--b", "-a", "x".repeat(65)]) {
      const res = await put(alice, name, { markdown: markdown("ours") });
      expect(res.status, name).toBe(400);
      expect(res.body.error.code, name).toBe("invalid_arg");
    }
    const notJson = await app.api("/api/patterns/ours", { method: "PUT", token: alice, rawBody: "{", headers: { "content-type": "application/json" } });
    expect(notJson.body.error.code).toBe("invalid_json");
    expect((await app.api("/api/patterns")).status).toBe(401);
    expect((await app.api("/api/patterns", { method: "POST", token: alice, body: {} })).status).toBe(405);
  });

  it("creates a name once when saved concurrently, and holds at most 50 patterns however they race", async () => {
    const same = await Promise.all(Array.from({ length: 6 }, () => put(bob, "raced", { markdown: markdown("raced") })));
    expect(same.map((res) => res.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    const ownCount = async () => (await app.api("/api/patterns", { token: bob })).body.patterns.filter((pattern: { source: string }) => pattern.source === "account").length;
    for (let n = await ownCount(); n < 45; n++) expect((await put(bob, `bulk-${n}`, { markdown: markdown(`bulk-${n}`) })).status).toBe(201);
    const burst = await Promise.all(Array.from({ length: 10 }, (_, n) => put(bob, `burst-${n}`, { markdown: markdown(`burst-${n}`) })));
    expect(burst.filter((res) => res.status === 201)).toHaveLength(5);
    for (const refused of burst.filter((res) => res.status !== 201)) {
      expect(refused.status).toBe(429);
      expect(refused.body.error).toMatchObject({ code: "quota_exceeded", details: { max_patterns: 50 } });
    }
    expect(await ownCount()).toBe(50);
    // Replacing one is always allowed; deleting one makes room for exactly one more.
    expect((await put(bob, "bulk-44", { markdown: markdown("bulk-44", "", "# Replaced\n") })).status).toBe(200);
    expect((await app.api("/api/patterns/bulk-44", { method: "DELETE", token: bob })).status).toBe(204);
    expect((await put(bob, "one-more", { markdown: markdown("one-more") })).status).toBe(201);
    expect((await put(bob, "two-more", { markdown: markdown("two-more") })).status).toBe(429);
  });
});

describe("patterns over MCP", () => {
  it("lists and reads them with the tools, as REST answers", async () => {
    expect((await put(alice, "weekly-notes", { markdown: markdown("weekly-notes", "template: weekly-notes.template.html\n"), template: TEMPLATE })).status).toBe(201);
    const mcp = await mcpAs(alice);
    const listed = (await mcp.callTool({ name: "list_patterns", arguments: {} })) as CallToolResult;
    expect(listed.structuredContent).toEqual((await app.api("/api/patterns", { token: alice })).body);
    const got = (await mcp.callTool({ name: "get_pattern", arguments: { name: "weekly-notes" } })) as CallToolResult;
    expect(got.structuredContent).toEqual((await app.api("/api/patterns/weekly-notes", { token: alice })).body);
    const saved = (await mcp.callTool({ name: "save_pattern", arguments: { name: "by-tool", markdown: markdown("by-tool") } })) as CallToolResult;
    expect(saved.isError).toBeFalsy();
    expect((await app.api("/api/patterns/by-tool", { token: alice })).body.source).toBe("account");
    const refused = (await mcp.callTool({ name: "save_pattern", arguments: { name: "by-tool", markdown: "# no front matter" } })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect((refused.structuredContent as any).error.code).toBe("invalid_pattern");
    expect(((await mcp.callTool({ name: "delete_pattern", arguments: { name: "by-tool" } })) as CallToolResult).structuredContent).toEqual({ deleted: true, name: "by-tool" });
  });

  it("offers every pattern as a prompt whose text holds the pattern and its template, with the topic", async () => {
    const mcp = await mcpAs(alice);
    expect(mcp.getServerCapabilities()).toMatchObject({ prompts: {}, resources: {}, tools: {} });
    const rest = patternListSchema.parse((await app.api("/api/patterns", { token: alice })).body);
    const { prompts } = await mcp.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(rest.patterns.map((pattern) => pattern.name));
    expect(prompts.find((prompt) => prompt.name === "pr-explainer")).toMatchObject({ title: "Pull-request explainer", arguments: [{ name: "topic", required: false }] });
    expect(prompts.map((prompt) => prompt.title ?? null)).toEqual(rest.patterns.map((pattern) => pattern.title));
    for (const name of ["pr-explainer", "weekly-notes"]) {
      const pattern = (await app.api(`/api/patterns/${name}`, { token: alice })).body;
      const result = await mcp.getPrompt({ name, arguments: { topic: "Cache rendered previews per version" } });
      expect(result.description).toBe(pattern.description);
      expect(result.messages).toHaveLength(1);
      const text = (result.messages[0]!.content as { type: "text"; text: string }).text;
      expect(text).toContain("Write a page about: Cache rendered previews per version");
      expect(text).toContain(pattern.markdown);
      expect(text).toContain(pattern.template);
      expect(text).toContain("create_drop");
    }
    // A template holding a code fence of its own is fenced with a longer one.
    const fenced = "<!DOCTYPE html><title>Fenced</title><pre>```js\nx()\n```</pre>";
    expect((await put(alice, "fenced", { markdown: markdown("fenced"), template: fenced })).status).toBe(201);
    const fencedText = ((await mcp.getPrompt({ name: "fenced" })).messages[0]!.content as { text: string }).text;
    expect(fencedText).toContain(`\`\`\`\`html\n${fenced}\n\`\`\`\``);
    const bare = await mcp.getPrompt({ name: "pr-explainer" });
    expect((bare.messages[0]!.content as { text: string }).text).not.toContain("Write a page about:");
    const unknown = await mcp.getPrompt({ name: "no-such-pattern" }).catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(McpError);
    expect((unknown as McpError).code).toBe(-32602);
  });

  it("offers the catalog as resources whose contents equal REST's", async () => {
    const mcp = await mcpAs(alice);
    const { resources } = await mcp.listResources();
    const rest = patternListSchema.parse((await app.api("/api/patterns", { token: alice })).body);
    const expected = ["htmldrop://patterns/index.json", ...rest.patterns.flatMap((pattern) => [`htmldrop://patterns/${pattern.name}.md`, ...(pattern.has_template ? [`htmldrop://patterns/${pattern.name}.template.html`] : [])])];
    expect(resources.map((resource) => resource.uri)).toEqual(expected);
    const index = await mcp.readResource({ uri: "htmldrop://patterns/index.json" });
    expect(JSON.parse((index.contents[0] as { text: string }).text)).toEqual(rest);
    for (const name of ["design-proposal", "weekly-notes"]) {
      const pattern = (await app.api(`/api/patterns/${name}`, { token: alice })).body;
      const guide = await mcp.readResource({ uri: `htmldrop://patterns/${name}.md` });
      expect(guide.contents[0]).toEqual({ uri: `htmldrop://patterns/${name}.md`, mimeType: "text/markdown", text: pattern.markdown });
      const template = await mcp.readResource({ uri: `htmldrop://patterns/${name}.template.html` });
      expect((template.contents[0] as { text: string }).text).toBe(pattern.template);
    }
    // The public files are the built-in resources, byte for byte.
    expect((await mcp.readResource({ uri: "htmldrop://patterns/design-proposal.md" })).contents[0]).toMatchObject({ text: (await app.api("/.well-known/patterns/design-proposal.md")).text });
    const { resourceTemplates } = await mcp.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(["htmldrop://patterns/{name}.md", "htmldrop://patterns/{name}.template.html"]);
    for (const uri of ["htmldrop://patterns/nothing.md", "htmldrop://patterns/by-tool.template.html", "https://example.com/x.md", "htmldrop://patterns/../secret.md"]) {
      const missing = await mcp.readResource({ uri }).catch((error: unknown) => error);
      expect(missing, uri).toBeInstanceOf(McpError);
      expect((missing as McpError).code, uri).toBe(-32002);
    }
  });

  it("keeps one account's patterns out of another's prompts and resources, and a token without drops:read sees the built-in ones", async () => {
    const bobs = await mcpAs(bob);
    expect((await bobs.listPrompts()).prompts.map((prompt) => prompt.name)).not.toContain("weekly-notes");
    expect(JSON.stringify(await bobs.listResources())).not.toContain("weekly-notes");
    expect((await bobs.readResource({ uri: "htmldrop://patterns/weekly-notes.md" }).catch((error: unknown) => error)) as McpError).toMatchObject({ code: -32002 });
    const minted = await app.api("/api/tokens", { method: "POST", token: alice, body: { label: "writer only", scopes: ["drops:write"] } });
    const writer = await mcpAs(minted.body.token);
    const names = (await writer.listPrompts()).prompts.map((prompt) => prompt.name);
    expect(names).toContain("pr-explainer");
    expect(names).not.toContain("weekly-notes");
    expect((await writer.getPrompt({ name: "weekly-notes" }).catch((error: unknown) => error)) as McpError).toMatchObject({ code: -32602 });
  });
});
