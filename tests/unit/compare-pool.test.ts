// The compare page's diff runs on a worker thread (lib/serving/compare-pool.ts, issue 28 item 9): two
// 2 MB one-line versions held the event loop about 0.25 s per uncached pair. What comes back is the
// page's bounded diff and rendered changes, the same as computing them in place.
import { describe, expect, it } from "vitest";
import { renderedChanges } from "@/lib/serving/compare-blocks";
import { COMPARE_LIMITS, compareSources } from "@/lib/serving/compare-diff";
import { diffOffThread } from "@/lib/serving/compare-pool";

const bytes = (text: string) => new Uint8Array(Buffer.from(text, "utf8"));

describe("the compare page's diff off the event loop", () => {
  it("answers two 2 MB one-line versions with their lines cut, as computed in place", async () => {
    const [from, to] = ["a".repeat(2_097_152), "b".repeat(2_097_152)];
    const { source: diff, rendered } = await diffOffThread({ from: 1, to: 2, fromBytes: bytes(from), toBytes: bytes(to) });
    expect(diff).toEqual(compareSources(1, 2, from, to));
    expect(rendered).toEqual(renderedChanges(from, to));
    expect(diff!.hunks[0]!.lines.map((line) => [line.kind, line.text.length, line.hiddenChars])).toEqual([
      ["removed", COMPARE_LIMITS.lineMaxChars, 2_097_152 - COMPARE_LIMITS.lineMaxChars],
      ["added", COMPARE_LIMITS.lineMaxChars, 2_097_152 - COMPARE_LIMITS.lineMaxChars],
    ]);
  }, 30_000);

  it("answers null for versions past the diff's bounds, and queued diffs each get their own answer", async () => {
    const many = (letter: string) => Array.from({ length: 1_000 }, (_, index) => `${letter}${index}`).join("\n");
    const [tooMuch, same] = await Promise.all([
      diffOffThread({ from: 1, to: 2, fromBytes: bytes(many("x")), toBytes: bytes(many("y")) }),
      diffOffThread({ from: 3, to: 4, fromBytes: bytes("<p>same</p>\n"), toBytes: bytes("<p>same</p>\n") }),
    ]);
    expect(tooMuch.source).toBeNull();
    expect(same).toEqual({ source: { addedLines: 0, removedLines: 0, hunks: [], hiddenLines: 0 }, rendered: { changes: [], hiddenChanges: 0 } });
  }, 30_000);
});
