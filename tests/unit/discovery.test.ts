import { describe, expect, it } from "vitest";
import { prefersJson } from "@/lib/discovery/respond";
import { OPERATIONS } from "@/lib/discovery/operations";

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
