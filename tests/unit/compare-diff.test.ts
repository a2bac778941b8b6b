// The compare page's source diff marks words within changed lines (issue 31): one changed number in a
// long line is one removed and one added word, not two whole lines. The work stays bounded: past
// COMPARE_LIMITS' word bounds a pair is shown as two whole changed lines, as before.
import { describe, expect, it } from "vitest";
import { COMPARE_LIMITS, compareSources, type CompareLine } from "@/lib/serving/compare-diff";

const changedLines = (before: string, after: string): CompareLine[] => compareSources(1, 2, before, after)!.hunks.flatMap((hunk) => hunk.lines.filter((line) => line.kind !== "context"));
const changedWords = (line: CompareLine) => line.words?.filter((word) => word.changed).map((word) => word.text);

function seeded(seed: number): () => number {
  let state = seed;
  return () => ((state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648);
}

describe("the compare page's word marks", () => {
  it("marks the one word that changed in a 300-character line, not the whole line", () => {
    const row = (figure: string) => `<tr><td>North region</td><td class="figure">${figure}</td><td>${"Revenue adjusted for currency and the sale of a warehouse. ".repeat(4)}</td></tr>`.slice(0, 300);
    expect(row("1200")).toHaveLength(300);
    const [removed, added] = changedLines(`<table>\n${row("1200")}\n</table>\n`, `<table>\n${row("1300")}\n</table>\n`);
    expect(changedWords(removed!)).toEqual(["1200"]);
    expect(changedWords(added!)).toEqual(["1300"]);
    expect(removed!.words!.map((word) => word.text).join("")).toBe(row("1200"));
    expect([removed!.hiddenBefore, removed!.hiddenChars, added!.hiddenChars]).toEqual([0, 0, 0]);
  });

  it("splits each paired line into words that put it back together, the unchanged ones the same on both sides", () => {
    const random = seeded(31);
    const vocabulary = ["<p>", "</p>", "total", "42", "43", " ", "  ", "é", "😀", "a-b", "\t"];
    const line = (length: number) => Array.from({ length }, () => vocabulary[Math.floor(random() * vocabulary.length)]).join("");
    for (let round = 0; round < 200; round++) {
      const before = line(1 + Math.floor(random() * 40));
      const words = before.match(/[^]{1,3}/gu) ?? [];
      const after = words.map((word) => (random() < 0.2 ? line(1) : word)).join("") + (random() < 0.3 ? "x" : "") || "y";
      const lines = changedLines(`start\n${before}\nend\n`, `start\n${after}\nend\n`);
      if (lines.length === 0) continue;
      const [removed, added] = lines;
      expect(removed!.words!.map((word) => word.text).join("")).toBe(before);
      expect(added!.words!.map((word) => word.text).join("")).toBe(after);
      const unchanged = (marked: CompareLine) => marked.words!.filter((word) => !word.changed).map((word) => word.text).join("");
      expect(unchanged(removed!), JSON.stringify({ before, after })).toBe(unchanged(added!));
    }
  });

  it("shows a long line from a little before its first change, saying what it leaves out on each side", () => {
    const line = (figure: string) => `${"<td>cell</td>".repeat(80_000)}<td>${figure}</td>${"<td>more</td>".repeat(80_000)}`;
    const [removed, added] = changedLines(line("1200"), line("1300"));
    const at = 13 * 80_000 + 4;
    expect(removed!.hiddenBefore).toBe(at - COMPARE_LIMITS.lineLeadChars);
    expect(removed!.text).toHaveLength(COMPARE_LIMITS.lineMaxChars);
    expect(removed!.hiddenChars).toBe(line("1200").length - removed!.hiddenBefore - COMPARE_LIMITS.lineMaxChars);
    expect(changedWords(removed!)).toEqual(["1200"]);
    expect(changedWords(added!)).toEqual(["1300"]);
    expect(added!.text.indexOf("1300")).toBe(COMPARE_LIMITS.lineLeadChars);
  });

  it("marks whole lines past its bounds: a pair too long or too changed to diff by word, and pairs past the page's total", () => {
    const tooLong = changedLines(`<p>${"a".repeat(COMPARE_LIMITS.wordDiffMaxChars)}</p>`, `<p>${"b".repeat(COMPARE_LIMITS.wordDiffMaxChars)}</p>`);
    expect(tooLong.map((line) => line.words)).toEqual([null, null]);
    const words = (letter: string) => Array.from({ length: COMPARE_LIMITS.wordDiffMaxEdits }, (_, index) => `${letter}${index}`).join(" ");
    expect(changedLines(words("a"), words("b")).map((line) => line.words)).toEqual([null, null]);

    // 30 pairs of 1,000 characters each: the page's total diffs the first 20 by word.
    const lines = (letter: string) => Array.from({ length: 30 }, (_, index) => `row ${index} ${letter.repeat(500)}`).join("\n");
    const pairs = changedLines(lines("a"), lines("b"));
    expect(pairs).toHaveLength(60);
    const marked = pairs.filter((line) => line.kind === "removed").map((line) => line.words !== null);
    const withinTotal = COMPARE_LIMITS.wordDiffTotalChars / 1_000;
    expect(marked).toEqual(Array.from({ length: 30 }, (_, index) => index < withinTotal));
    expect(changedWords(pairs[0]!)).toEqual([pairs[0]!.text.slice("row 0 ".length)]);
  });
});
