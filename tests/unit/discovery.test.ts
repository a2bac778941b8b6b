import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/discovery/openapi";
import { OPERATIONS } from "@/lib/discovery/operations";
import { buildApiReference, type TypeText } from "@/lib/discovery/reference";
import { prefersJson } from "@/lib/discovery/respond";

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

describe("operation table", () => {
  it("has unique operation ids and one entry per method and path", () => {
    expect(new Set(OPERATIONS.map((operation) => operation.operationId)).size).toBe(OPERATIONS.length);
    expect(new Set(OPERATIONS.map((operation) => `${operation.method} ${operation.path}`)).size).toBe(OPERATIONS.length);
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

  it("names a component schema where another repeats it, rather than writing it out again", () => {
    expect(reference.schemas.find((schema) => schema.name === "DropList")!.declaration).toContainEqual({ schema: "Drop" });
  });

  it("links a long field comment to the schema that wrote it out first, instead of repeating it", () => {
    const patch = reference.schemas.find((schema) => schema.name === "PatchDropBody")!.declaration;
    expect(patch).toContainEqual({ schema: "CreateDropBody" });
    expect(text(patch)).toMatch(/^  \/\/ as in CreateDropBody\n  expires_at\?: /m);
    expect(text(reference.schemas.find((schema) => schema.name === "CreateDropBody")!.declaration)).toMatch(/^  \/\/ Addition: when the link stops working.*\n  expires_at\?: /m);
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
