// The version diff's own shortcut (cutting off the shared head and tail before Myers' algorithm) must
// give a patch that turns the old text into the new one, with the real line numbers; and the bounds
// must refuse a diff too large rather than run long.
import { applyPatch } from "diff";
import { describe, expect, it } from "vitest";
import { DIFF_LIMITS, diffSources, toHunks } from "@/lib/drops/diff-text";

function randomText(random: () => number, lines: number): string {
  const words = ["<p>", "</p>", "a", "b", "", "<div>", "x y"];
  return Array.from({ length: lines }, () => words[Math.floor(random() * words.length)]).join("\n") + (random() < 0.5 ? "\n" : "");
}

function seeded(seed: number): () => number {
  let state = seed;
  return () => ((state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648);
}

describe("diffSources", () => {
  it("gives a patch that applies, for many random pairs of texts", () => {
    const random = seeded(17);
    for (let round = 0; round < 400; round++) {
      const before = randomText(random, Math.floor(random() * 30));
      let after = before.split("\n");
      for (let edits = Math.floor(random() * 4); edits > 0; edits--) after.splice(Math.floor(random() * (after.length + 1)), Math.floor(random() * 3), ...(random() < 0.6 ? ["changed"] : []));
      if (random() < 0.2) after = [...after, "tail"];
      const afterText = after.join("\n");
      const { unified } = diffSources("v1/index.html", "v2/index.html", before, afterText);
      expect(applyPatch(before, unified), JSON.stringify({ before, afterText, unified })).toBe(afterText);
    }
  });

  it("numbers lines as in the whole documents and keeps three lines of context", () => {
    const before = Array.from({ length: 100 }, (_, index) => `line ${index + 1}`).join("\n");
    const after = before.replace("line 50\n", "line fifty\n");
    const { patch, unified } = diffSources("v1/index.html", "v2/index.html", before, after);
    expect(unified).toContain("--- v1/index.html\n+++ v2/index.html\n@@ -47,7 +47,7 @@\n line 47\n line 48\n line 49\n-line 50\n+line fifty\n line 51\n");
    const [hunk] = toHunks(patch);
    expect(hunk!.lines.find((line) => line.kind === "removed")).toEqual({ kind: "removed", text: "line 50", oldNumber: 50, newNumber: null });
    expect(hunk!.lines.find((line) => line.kind === "added")).toEqual({ kind: "added", text: "line fifty", oldNumber: null, newNumber: 50 });
  });

  it("says when nothing changed", () => {
    expect(diffSources("a", "b", "<p>same</p>\n", "<p>same</p>\n").patch.hunks).toEqual([]);
  });

  it("refuses, quickly, changes beyond its bounds", () => {
    const many = (prefix: string) => Array.from({ length: DIFF_LIMITS.maxLines + 10 }, (_, index) => `${prefix} ${index}`).join("\n");
    const started = performance.now();
    expect(() => diffSources("a", "b", many("old"), many("new"))).toThrow(expect.objectContaining({ code: "diff_too_large", status: 422 }));
    const changed = (prefix: string) => Array.from({ length: DIFF_LIMITS.maxChangedLines }, (_, index) => `${prefix} ${index}`).join("\n");
    expect(() => diffSources("a", "b", changed("old"), changed("new"))).toThrow(expect.objectContaining({ code: "diff_too_large" }));
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
