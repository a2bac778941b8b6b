// The Open Graph card of a drop version, laid out by satori (render.ts): flexbox and inline styles only. The
// card is a tree of plain elements, which satori reads as it reads React's: the card worker
// (card-worker.ts) then loads no React, whose server runtime expects Next's request context.
import type { ReactElement } from "react";
import type { CardContent } from "./card-tag";
import { drawableText } from "./font-coverage";

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

const TITLE_MAX_CHARS = 90;
const DESCRIPTION_MAX_CHARS = 180;
const INK = "#1d1d1f";
const MUTED = "#55555a";
const ACCENT = "#2f5bea";

type Style = Record<string, string | number>;
type CardNode = { type: string; props: { style?: Style; children?: Child | Child[]; [attribute: string]: unknown } };
type Child = CardNode | string | null;

const box = (style: Style, ...children: Child[]): CardNode => ({ type: "div", props: { style: { display: "flex", ...style }, children } });

/** The htmldrop mark: a white drop on the accent square, as public/icon.svg draws it. */
function mark(size: number): CardNode {
  return {
    type: "svg",
    props: {
      width: size,
      height: size,
      viewBox: "0 0 32 32",
      children: [
        { type: "rect", props: { width: "32", height: "32", rx: "7", fill: ACCENT } },
        { type: "path", props: { d: "M16 5.5C16 5.5 8.5 14 8.5 19.5a7.5 7.5 0 0 0 15 0C23.5 14 16 5.5 16 5.5Z", fill: "#ffffff" } },
      ],
    },
  };
}

export function previewCard({ title, description, version, site }: CardContent): ReactElement {
  const drawnTitle = drawableText(title, TITLE_MAX_CHARS) || "A page on htmldrop";
  const drawnDescription = drawableText(description, DESCRIPTION_MAX_CHARS);
  const card = box(
    { width: "100%", height: "100%", flexDirection: "column", background: "#fbfbfa", color: INK, padding: "64px 72px", borderTop: `16px solid ${ACCENT}` },
    box({ alignItems: "center", gap: 20 }, mark(56), box({ fontSize: 34, color: INK }, "htmldrop")),
    box(
      { flexDirection: "column", flexGrow: 1, justifyContent: "center", gap: 24 },
      box({ fontSize: drawnTitle.length > 48 ? 56 : 72, lineHeight: 1.15, letterSpacing: -1 }, drawnTitle),
      drawnDescription ? box({ fontSize: 32, lineHeight: 1.35, color: MUTED }, drawnDescription) : null,
    ),
    box(
      { alignItems: "center", justifyContent: "space-between", fontSize: 28, color: MUTED },
      box({ background: ACCENT, color: "#ffffff", borderRadius: 999, padding: "8px 24px" }, `Version ${version}`),
      box({}, drawableText(site, 60)),
    ),
  );
  // satori types its input as React's element, and takes this shape as one.
  return card as unknown as ReactElement;
}
