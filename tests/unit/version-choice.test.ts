import { describe, expect, it } from "vitest";
import { CONTEXT_HEAD_CHARS, versionChoiceLabel } from "@/lib/serving/version-choice";

describe("the viewer's version picker", () => {
  const at = Date.UTC(2026, 10, 25, 14, 5);
  it("says the number, whether it is the latest, the time and the start of the context", () => {
    expect(versionChoiceLabel({ number: 3, createdAt: at, contextHead: "Fixed the\n totals" }, 3)).toBe("v3 latest · 2026-11-25 14:05 UTC · Fixed the totals");
    expect(versionChoiceLabel({ number: 2, createdAt: at, contextHead: null }, 3)).toBe("v2 · 2026-11-25 14:05 UTC");
  });
  it("cuts a long context with an ellipsis", () => {
    const label = versionChoiceLabel({ number: 1, createdAt: at, contextHead: "x".repeat(CONTEXT_HEAD_CHARS + 1) }, 3);
    expect(label.endsWith(`${"x".repeat(CONTEXT_HEAD_CHARS - 1)}…`)).toBe(true);
  });
});
