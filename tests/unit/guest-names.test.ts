// Whether a guest's name reads as the drop owner's login (lib/comments/guest-names.ts); the API's
// refusal and what it stores are tested in tests/api/comments.test.ts.
import { describe, expect, it } from "vitest";
import { looksLike, normalizeGuestName } from "@/lib/comments/guest-names";

describe("looksLike", () => {
  it("takes a login in capitals for the login, a capital I included", () => {
    expect(looksLike(normalizeGuestName("REVIEW-OWNER"), "review-owner")).toBe(true);
    expect(looksLike(normalizeGuestName("Review-Owner"), "review-owner")).toBe(true);
  });

  it("reads a capital I as the l it looks like", () => {
    expect(looksLike(normalizeGuestName("Iola"), "lola")).toBe(true);
    expect(looksLike(normalizeGuestName("I\u0430ra"), "lara")).toBe(true);
  });

  it("leaves other names free", () => {
    expect(looksLike(normalizeGuestName("Reviewer"), "review-owner")).toBe(false);
    expect(looksLike(normalizeGuestName("Lily"), "lola")).toBe(false);
  });
});
