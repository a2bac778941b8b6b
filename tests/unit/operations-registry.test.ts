// The registry of operations (lib/api/operations.ts) is what routes, scope checks, MCP tools and the
// documents are derived from; these check that what is derived from it covers it, and nothing more.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { methodsAt, operationLabel, OPERATIONS, toolOperation, type OperationPath } from "@/lib/api/operations";
import { mcpTools } from "@/lib/mcp/tools";
import { routeLabel } from "@/lib/ops/metrics";

const ROOT = join(__dirname, "..", "..");

/** The App Router file that serves a registry path written with {param} segments, if it is a route of its own. */
function routeFile(path: string): string {
  return join(ROOT, "app", ...path.split("/").filter(Boolean).map((segment) => segment.replace(/^\{(\w+)\}$/, "[$1]")), "route.ts");
}

// Served by a page or a catch-all rather than a route file named after the path.
const SERVED_ELSEWHERE = new Set([
  "/p/{slug}", // the viewer page, app/p/[slug]/(viewer)/page.tsx
  "/.well-known/patterns/{name}.md", // app/.well-known/patterns/[file]
  "/.well-known/patterns/{name}.template.html",
  "/.well-known/patterns/index.json",
  "/.well-known/oauth-protected-resource/mcp", // app/.well-known/oauth-protected-resource/[[...resource]]
  "/.well-known/oauth-protected-resource/api",
  "/.well-known/oauth-authorization-server", // the OAuth catch-all, app/oauth/[...path], by a rewrite
  "/.well-known/openid-configuration",
]);

describe("the registry of operations", () => {
  it("names each operation once, by id and by method and path", () => {
    expect(new Set(OPERATIONS.map((operation) => operation.operationId)).size).toBe(OPERATIONS.length);
    expect(new Set(OPERATIONS.map((operation) => `${operation.method} ${operation.path}`)).size).toBe(OPERATIONS.length);
  });

  it("says what a bearer token needs for every operation that takes one, and only for those", () => {
    for (const operation of OPERATIONS) {
      // /mcp takes a token, and each of its tools needs what its own operation needs.
      const needsAccess = operation.auth && operation.operationId !== "mcp";
      expect(operation.access !== undefined, operation.operationId).toBe(needsAccess);
    }
  });

  it("gives every operation under /api, and /mcp, /metrics and /openapi.json, a route that exports its method", () => {
    const routed = OPERATIONS.filter((operation) => !SERVED_ELSEWHERE.has(operation.path) && !operation.path.startsWith("/p/"));
    for (const operation of routed) {
      const file = routeFile(operation.path);
      expect(existsSync(file), file).toBe(true);
      const source = readFileSync(file, "utf8");
      expect(source, `${operation.operationId} in ${file}`).toMatch(new RegExp(`export (const|(async )?function) ${operation.method.toUpperCase()}\\b|as ${operation.method.toUpperCase()}\\b`));
      // Every other method is refused with the Allow list the registry gives.
      expect(source, file).toContain(`methodsNotServedAt("${operation.path}")`);
    }
    expect(methodsAt("/api/drops/{slug}" satisfies OperationPath)).toEqual(["GET", "PUT", "PATCH", "DELETE"]);
  });

  it("labels each request's metrics with the operation its method and path name, and anything else as other", () => {
    for (const operation of OPERATIONS) {
      const path = operation.path.replace(/\{\w+\}/g, "x-1");
      expect(routeLabel(operation.method.toUpperCase(), `${path}?v=2&x=/`), path).toBe(operationLabel(operation));
    }
    expect(routeLabel("GET", "/p/abc/raw")).toBe("GET /p/{slug}/raw");
    expect(routeLabel("GET", "/p/abc/raw/")).toBe("other");
    expect(routeLabel("GET", "/p/abc/d/raw")).toBe("other");
    expect(routeLabel("GET", "/.well-known/patterns/aXmd")).toBe("other");
    expect(routeLabel("PUT", "/p/abc")).toBe("other");
    expect(routeLabel("BREW", "/api/drops")).toBe("other");
  });

  it("maps every MCP tool to one operation, and every operation's tool to a tool that exists", () => {
    const tools = mcpTools().map((tool) => tool.name);
    expect(new Set(tools).size).toBe(tools.length);
    for (const tool of tools) expect(toolOperation(tool).mcpTool).toBe(tool);
    const named = OPERATIONS.flatMap((operation) => (operation.mcpTool ? [operation.mcpTool] : []));
    expect(named.sort()).toEqual([...tools].sort());
  });

  it("names the operation in each tool's description as the registry names it", () => {
    for (const tool of mcpTools()) {
      const operation = toolOperation(tool.name);
      expect(tool.description(`${operation.method.toUpperCase()} ${operation.path}`), tool.name).toContain(`same as ${operation.method.toUpperCase()} ${operation.path}`);
    }
  });
});
