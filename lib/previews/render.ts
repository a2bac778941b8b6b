import { ImageResponse } from "next/og";
import { CARD_HEIGHT, CARD_WIDTH, previewCard } from "./card";
import type { CardContent } from "./card-tag";

/** The card as PNG bytes. No network: the text is limited to the bundled font (./font-coverage.ts). */
export async function renderPreviewCard(content: CardContent): Promise<Buffer> {
  const image = new ImageResponse(previewCard(content), { width: CARD_WIDTH, height: CARD_HEIGHT });
  return Buffer.from(await image.arrayBuffer());
}
