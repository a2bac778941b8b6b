// The preview card draws only characters of its one font (lib/previews/fonts), so none is drawn as an
// empty box: the covered list must hold only code points that font's cmap maps, and card text must keep to it.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { drawCardOffThread } from "@/lib/previews/card-pool";
import { coveredRanges, drawableText, isCovered } from "@/lib/previews/font-coverage";

/** The code points a TrueType font maps to a glyph, from its cmap (format 4 or 12). */
function mappedCodePoints(font: Buffer): Set<number> {
  const tables = font.readUInt16BE(4);
  let cmap = -1;
  for (let index = 0; index < tables; index++) {
    const record = 12 + index * 16;
    if (font.toString("ascii", record, record + 4) === "cmap") cmap = font.readUInt32BE(record + 8);
  }
  expect(cmap).toBeGreaterThan(0);
  const mapped = new Set<number>();
  const encodings = font.readUInt16BE(cmap + 2);
  for (let index = 0; index < encodings; index++) {
    const subtable = cmap + font.readUInt32BE(cmap + 4 + index * 8 + 4);
    const format = font.readUInt16BE(subtable);
    if (format === 12) {
      const groups = font.readUInt32BE(subtable + 12);
      for (let group = 0; group < groups; group++) {
        const at = subtable + 16 + group * 12;
        for (let code = font.readUInt32BE(at); code <= font.readUInt32BE(at + 4); code++) mapped.add(code);
      }
    } else if (format === 4) {
      const segments = font.readUInt16BE(subtable + 6) / 2;
      const ends = subtable + 14;
      const starts = ends + segments * 2 + 2;
      const deltas = starts + segments * 2;
      const rangeOffsets = deltas + segments * 2;
      for (let segment = 0; segment < segments; segment++) {
        const start = font.readUInt16BE(starts + segment * 2);
        const end = font.readUInt16BE(ends + segment * 2);
        const delta = font.readInt16BE(deltas + segment * 2);
        const rangeOffsetAt = rangeOffsets + segment * 2;
        const rangeOffset = font.readUInt16BE(rangeOffsetAt);
        for (let code = start; code <= end && code !== 0xffff; code++) {
          const glyph = rangeOffset === 0 ? (code + delta) & 0xffff : font.readUInt16BE(rangeOffsetAt + rangeOffset + (code - start) * 2);
          if (glyph !== 0) mapped.add(code);
        }
      }
    }
  }
  return mapped;
}

describe("the preview card's text", () => {
  it("lists only code points the bundled font maps", () => {
    const mapped = mappedCodePoints(readFileSync(new URL("../../lib/previews/fonts/Geist-Regular.ttf", import.meta.url)));
    expect(mapped.size).toBeGreaterThan(500);
    const missing: string[] = [];
    for (const [first, last] of coveredRanges()) for (let code = first; code <= last; code++) if (!mapped.has(code)) missing.push(code.toString(16));
    expect(missing).toEqual([]);
  });

  it("keeps what the font draws, drops the rest, and cuts long text with an ellipsis", () => {
    expect(drawableText("Quarterly  report\n— Q3 🎉 日本語", 90)).toBe("Quarterly report — Q3");
    expect(drawableText("Прогноз на 2027 год, café, Ærø", 90)).toBe("Прогноз на 2027 год, café, Ærø");
    expect(drawableText("🎉📈", 90)).toBe("");
    const cut = drawableText("a".repeat(200), 90);
    expect(Array.from(cut)).toHaveLength(90);
    expect(cut.endsWith("…")).toBe(true);
    for (const char of "…—“”€") expect(isCovered(char.codePointAt(0)!), char).toBe(true);
  });
});

describe("drawing a card", () => {
  it.runIf(process.platform === "linux")("draws on a thread the scheduler puts behind the event loop", async () => {
    await drawCardOffThread({ title: "Priority", description: "", version: 1, site: "localhost:3000" });
    // The worker stays a while after its card; field 19 of a thread's stat is its nice value.
    const nice = (task: string) => Number(readFileSync(`/proc/self/task/${task}/stat`, "utf8").split(") ")[1]!.split(" ")[16]);
    expect(nice(String(process.pid))).toBe(0);
    expect(readdirSync("/proc/self/task").some((task) => nice(task) > 0)).toBe(true);
  });

  it("draws a 1200×630 PNG on the card worker, its text from the content", async () => {
    const content = { title: "Quarterly report", description: "Numbers and the plan.", version: 3, site: "drops.example.com" };
    const png = await drawCardOffThread(content);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) }).toEqual({ width: 1200, height: 630 });
    expect((await drawCardOffThread(content)).equals(png)).toBe(true);
    expect((await drawCardOffThread({ ...content, title: "Quarterly report, revised" })).equals(png)).toBe(false);
  });
});
