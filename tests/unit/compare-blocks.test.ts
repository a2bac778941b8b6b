// The compare page's rendered view outlines the blocks whose text changed (issue 31): found on the
// server as indexes into each document's blocks in the order a browser's querySelectorAll lists them
// (tests/e2e/versions.spec.ts sees the frames outline them), and bounded like the source diff.
import { describe, expect, it } from "vitest";
import { blockTexts, renderedChanges } from "@/lib/serving/compare-blocks";
import { COMPARE_LIMITS } from "@/lib/serving/compare-diff";

const page = (figure: string, extra = "") =>
  `<!doctype html><h1>Report</h1><div class="card"><p>Intro</p>Total ${figure}<table><tr><td>North</td><td>${figure}</td></tr></table>${extra}` +
  `<ul><li>a</li><li>b<ul><li>c</li></ul></li></ul></div><script>document.write("<p>x</p>")</script><template><p>t</p></template>`;

describe("the rendered view's changed blocks", () => {
  it("lists each block's own text in document order, leaving out what is never shown", () => {
    expect(blockTexts(page("1"))).toEqual(["Report", "Total 1", "Intro", "", "North", "1", "", "a", "b", "", "c"]);
  });

  it("finds the blocks whose text changed, and anchors an insertion or removal beside where it happened", () => {
    expect(renderedChanges(page("1"), page("2"))).toEqual({
      changes: [
        { from: { blocks: [1], anchor: 1 }, to: { blocks: [1], anchor: 1 } },
        { from: { blocks: [5], anchor: 5 }, to: { blocks: [5], anchor: 5 } },
      ],
      hiddenChanges: 0,
    });
    expect(renderedChanges(page("1"), page("1", "<p>New</p>"))).toEqual({ changes: [{ from: { blocks: [], anchor: 7 }, to: { blocks: [6], anchor: 6 } }], hiddenChanges: 0 });
    expect(renderedChanges(page("1", "<p>Old</p>"), page("1"))).toEqual({ changes: [{ from: { blocks: [6], anchor: 6 }, to: { blocks: [], anchor: 7 } }], hiddenChanges: 0 });
    expect(renderedChanges(page("1"), page("1"))).toEqual({ changes: [], hiddenChanges: 0 });
    // An inline image is not text: a new chart beside a changed word is one change, the word's.
    const chart = (payload: string, word: string) => `<figure><img alt="" src="data:image/png;base64,${payload.repeat(100_000)}"><figcaption>${word}</figcaption></figure>`;
    expect(renderedChanges(chart("QUJD", "Before"), chart("REVG", "After"))).toEqual({ changes: [{ from: { blocks: [1], anchor: 1 }, to: { blocks: [1], anchor: 1 } }], hiddenChanges: 0 });
  });

  it("marks nothing past its bounds, and says why", () => {
    const paragraphs = (count: number, word: (index: number) => string) => Array.from({ length: count }, (_, index) => `<p>${word(index)}</p>`).join("");
    // Tags and runs of text between spaces: each paragraph has two tags and no space.
    const tokens = COMPARE_LIMITS.renderedMaxTokens;
    const edited = paragraphs(tokens / 2, (index) => (index === 7 ? "edited" : String(index)));
    expect(renderedChanges(paragraphs(tokens / 2, String), edited).changes).toHaveLength(1);
    expect(renderedChanges(paragraphs(tokens / 2, String) + "<br>", edited)).toEqual({ changes: null, reason: "too_large" });
    expect(renderedChanges("<p>b</p>", `<p>${"a\n".repeat(tokens)}</p>`)).toEqual({ changes: null, reason: "too_large" });
    const rewritten = COMPARE_LIMITS.renderedMaxChangedBlocks;
    const started = performance.now();
    expect(renderedChanges(paragraphs(rewritten, (index) => `old ${index}`), paragraphs(rewritten, (index) => `new ${index}`))).toEqual({ changes: null, reason: "too_different" });
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
