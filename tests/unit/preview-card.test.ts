// The preview card draws only characters of its one font (lib/previews/fonts), so none is drawn as an
// empty box: the covered list must hold only code points that font's cmap maps, and card text must keep to it.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { drawCardOffThread } from "@/lib/previews/card-pool";
import { CARD_WIDTH, previewCardSvg } from "@/lib/previews/card";
import { coveredRanges, drawableText, isCovered } from "@/lib/previews/font-coverage";
import { readFontMetrics } from "@/lib/previews/font-metrics";
import { renderPreviewCard } from "@/lib/previews/render";

const FONT = readFileSync(new URL("../../lib/previews/fonts/Geist-Regular.ttf", import.meta.url));
const metrics = readFontMetrics(FONT);

/** The text of each line the card draws in `fontSize`, from its SVG. */
function linesAt(svg: string, fontSize: number): string[] {
  return [...svg.matchAll(/<text [^>]*font-size="(\d+)"[^>]*>([^<]*)<\/text>/g)].filter((match) => Number(match[1]) === fontSize).map((match) => match[2]!);
}

describe("the preview card's text", () => {
  it("lists only code points the bundled font maps", () => {
    const mapped = metrics.codePoints();
    expect(mapped.size).toBeGreaterThan(500);
    for (const char of "Aé€Ж") expect(mapped.has(char.codePointAt(0)!), char).toBe(true);
    for (const char of "日🎉") expect(mapped.has(char.codePointAt(0)!), char).toBe(false);
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

describe("the preview card's layout", () => {
  const content = { title: "Quarterly report", description: "Numbers and the plan.", version: 3, site: "drops.example.com" };

  it("measures text by the font's advance widths", () => {
    expect(metrics.width("", 72)).toBe(0);
    expect(metrics.width("WW", 72)).toBeCloseTo(2 * metrics.width("W", 72));
    expect(metrics.width("W", 72)).toBeGreaterThan(metrics.width("i", 72));
    expect(metrics.width("W", 72, -1)).toBeCloseTo(metrics.width("W", 72) - 1);
    expect(metrics.ascender).toBeGreaterThan(0);
    expect(metrics.descender).toBeLessThan(0);
  });

  it("draws a short title and description on one line each", () => {
    const svg = previewCardSvg(content, metrics);
    expect(linesAt(svg, 72)).toEqual(["Quarterly report"]);
    expect(linesAt(svg, 32)).toEqual(["Numbers and the plan."]);
    expect(linesAt(svg, 28)).toEqual(["Version 3", "drops.example.com"]);
  });

  it("wraps long text between words within the card's width, three lines at most, the last cut with an ellipsis", () => {
    const title = "A much longer title that goes on and on to show how the card wraps it, at ninety chars";
    const svg = previewCardSvg({ ...content, title, description: "word ".repeat(40) }, metrics);
    const titleLines = linesAt(svg, 56);
    expect(titleLines.join(" ")).toBe(title);
    expect(titleLines.length).toBeGreaterThan(1);
    const descriptionLines = linesAt(svg, 32);
    expect(descriptionLines).toHaveLength(3);
    expect(descriptionLines[2]!.endsWith("…")).toBe(true);
    for (const line of descriptionLines) expect(metrics.width(line, 32)).toBeLessThanOrEqual(CARD_WIDTH - 144);
    for (const line of titleLines) expect(metrics.width(line, 56, -1)).toBeLessThanOrEqual(CARD_WIDTH - 144);

    const wide = linesAt(previewCardSvg({ ...content, title: "W".repeat(45) }, metrics), 72);
    expect(wide.length).toBeGreaterThan(1);
    for (const line of wide) expect(metrics.width(line, 72, -1)).toBeLessThanOrEqual(CARD_WIDTH - 144);
  });

  it("keeps the text between the header and the footer, however wide its characters", () => {
    const svg = previewCardSvg({ ...content, title: "W".repeat(48), description: "M".repeat(180) }, metrics);
    const baselines = [...svg.matchAll(/<text [^>]*y="([\d.]+)" font-size="(72|32)"/g)].map((match) => Number(match[1]));
    const pillTop = Number(/<rect x="72" y="([\d.]+)"/.exec(svg)![1]);
    expect(Math.min(...baselines) - 72 * metrics.ascender).toBeGreaterThanOrEqual(16 + 64 + 56);
    expect(Math.max(...baselines)).toBeLessThanOrEqual(pillTop);
  });

  it("keeps a long site name to the room beside the version, cut with an ellipsis", () => {
    const site = "a-very-long-host-name-for-a-drops-only-origin.subdomain.example.org";
    const [version, drawnSite] = linesAt(previewCardSvg({ ...content, version: 12345, site }, metrics), 28);
    expect(version).toBe("Version 12345");
    expect(drawnSite!.endsWith("…")).toBe(true);
    const pillWidth = metrics.width(version!, 28) + 48;
    expect(metrics.width(drawnSite!, 28)).toBeLessThanOrEqual(CARD_WIDTH - 144 - pillWidth - 24);
  });

  it("escapes the text it draws, which resvg then parses", () => {
    const svg = previewCardSvg({ ...content, title: '<b>Q&A</b> "quoted"', site: "a&b.example" }, metrics);
    expect(linesAt(svg, 72)).toEqual(["&lt;b&gt;Q&amp;A&lt;/b&gt; &quot;quoted&quot;"]);
    expect(renderPreviewCard({ ...content, title: '<b>Q&A</b> "quoted"' }).readUInt32BE(16)).toBe(CARD_WIDTH);
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

  it("lets go of each card's pixels after the card, which V8 does not count, where gc is exposed as npm start exposes it", async () => {
    // The unit project runs with --expose-gc (vitest.config.ts), as npm start does.
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe("function");
    const content = { title: "Memory", description: "", version: 1, site: "localhost:3000" };
    await drawCardOffThread(content);
    const before = process.memoryUsage().rss;
    for (let card = 0; card < 30; card++) await drawCardOffThread({ ...content, title: `Memory ${card}` });
    // 30 cards hold 90 MB of pixels. The worker's small young generation alone kept 44-72 MB of them, and
    // answering before their finalizers ran 17-52 MB; both done, 0-6 MB.
    expect((process.memoryUsage().rss - before) / 2 ** 20).toBeLessThan(15);
  });
});
