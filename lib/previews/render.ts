// The card is laid out by satori (flexbox to an SVG whose text is glyph outlines) and rasterized by
// resvg's native build: next/og rasterizes with resvg's WebAssembly build, about 220 ms a card on this
// project's slower machines against 40 (issue 35), or with sharp, whose libvips cannot be loaded first by
// a worker thread. Nothing is fetched: satori is given the one font and no loader of other assets.
import { readFileSync } from "node:fs";
import { Resvg } from "@resvg/resvg-js";
import satori from "satori";
import { CARD_HEIGHT, CARD_WIDTH, previewCard } from "./card";
import type { CardContent } from "./card-tag";

const fonts = [{ name: "Geist", data: readFileSync(new URL("./fonts/Geist-Regular.ttf", import.meta.url)), weight: 400 as const, style: "normal" as const }];

/** The card as PNG bytes, in the one font (./font-coverage.ts keeps the text to what it draws). */
export async function renderPreviewCard(content: CardContent): Promise<Buffer> {
  const svg = await satori(previewCard(content), { width: CARD_WIDTH, height: CARD_HEIGHT, fonts });
  return new Resvg(svg, { fitTo: { mode: "width", value: CARD_WIDTH } }).render().asPng();
}
