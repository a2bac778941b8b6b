// The card is laid out as SVG (card.ts) and drawn by resvg's native build, which shapes its text in the
// one bundled font: next/og rasterizes with resvg's WebAssembly build, about 220 ms a card on this
// project's slower machines against 40 (issue 35), or with sharp, whose libvips cannot be loaded first by
// a worker thread. Nothing is fetched: resvg gets the one font file and no system fonts, and the SVG
// names no other resource.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Resvg } from "@resvg/resvg-js";
import { CARD_WIDTH, previewCardSvg } from "./card";
import type { CardContent } from "./card-tag";
import { readFontMetrics } from "./font-metrics";

const FONT_FILE = fileURLToPath(new URL("./fonts/Geist-Regular.ttf", import.meta.url));
const metrics = readFontMetrics(readFileSync(FONT_FILE));
const font = { fontFiles: [FONT_FILE], loadSystemFonts: false, defaultFontFamily: "Geist" };

/** The card as PNG bytes, in the one font (./font-coverage.ts keeps the text to what it draws). */
export function renderPreviewCard(content: CardContent): Buffer {
  return new Resvg(previewCardSvg(content, metrics), { font, fitTo: { mode: "width", value: CARD_WIDTH } }).render().asPng();
}
