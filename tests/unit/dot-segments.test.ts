import { describe, expect, it } from "vitest";
import { resolveDotSegments } from "@/lib/api/unroutable";

function resolved(url: string): string | undefined {
  const request = { url };
  resolveDotSegments(request);
  return request.url;
}

describe("resolveDotSegments", () => {
  it("resolves dot segments, spelt out or percent-encoded, as Next.js routes them", () => {
    expect(resolved("/api/../lock")).toBe("/lock");
    expect(resolved("/api/%2E%2e/lock")).toBe("/lock");
    expect(resolved("/x/./api/me")).toBe("/x/api/me");
    expect(resolved("/../../api/me")).toBe("/api/me");
  });

  it("leaves the query as it was sent", () => {
    expect(resolved("/a/../b?next=/../c&x=%2e%2e")).toBe("/b?next=/../c&x=%2e%2e");
  });

  it("leaves paths without dot segments, and those Next redirects (// and \\), untouched", () => {
    for (const url of ["/api/drops", "/a..b/c.d", "/a/.../b", "//evil.example/../api/me", "/a\\..\\b", "*"]) expect(resolved(url)).toBe(url);
  });
});
