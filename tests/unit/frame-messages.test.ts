// What the viewer page accepts from a drop's frame as a selection: the drop's own scripts can post
// anything, so only a box of numbers and an anchor within the comment schema's limits count.
import { describe, expect, it } from "vitest";
import { readFrameSelection } from "@/lib/comments/frame-messages";

const box = { x: 10, y: 20, width: 100, height: 16 };

describe("readFrameSelection", () => {
  it("takes an anchor within the limits, as it came", () => {
    const anchor = { exact: "Revenue grew", prefix: "Version one", suffix: " 12%" };
    expect(readFrameSelection({ anchor, box })).toEqual({ anchor, box });
  });

  it("says a selection past 500 characters is too long, in words the page shows", () => {
    expect(readFrameSelection({ anchor: { exact: "x".repeat(501) }, box })).toEqual({ tooLong: "Select at most 500 characters to comment on a passage.", box });
  });

  it("reads anything else as nothing selected", () => {
    for (const selection of [
      null,
      "Revenue",
      { anchor: { exact: "x" } },
      { anchor: { exact: "x" }, box: { ...box, x: "10" } },
      { anchor: { exact: "x" }, box: { ...box, width: -1 } },
      { anchor: { exact: "x" }, box: { ...box, y: Number.POSITIVE_INFINITY } },
      { anchor: { exact: "x", prefix: "p".repeat(65) }, box },
      { anchor: { exact: "x", suffix: 7 }, box },
      { anchor: { exact: "   " }, box },
      { anchor: { exact: "bell \u0007" }, box },
      { anchor: { exact: "x", token: "secret" }, box },
      { anchor: { exact: 5 }, box },
    ]) {
      expect(readFrameSelection(selection), JSON.stringify(selection)).toBeNull();
    }
  });
});
