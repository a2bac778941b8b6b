// The Open Graph card of a drop version, as SVG that resvg draws (render.ts): the htmldrop mark and name,
// the title and description wrapped to the card's width by the font's advance widths, the version and the
// site. Laid out here rather than by a layout engine: the card is one fixed design, and satori (with yoga
// and opentype.js) cost a worker's first card about 200 ms of loading and warming up (issue 35).
import type { CardContent } from "./card-tag";
import { drawableText } from "./font-coverage";
import type { FontMetrics } from "./font-metrics";

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

const TITLE_MAX_CHARS = 90;
const DESCRIPTION_MAX_CHARS = 180;
const INK = "#1d1d1f";
const MUTED = "#55555a";
const ACCENT = "#2f5bea";
const PAPER = "#fbfbfa";

const ACCENT_BAR = 16;
const PADDING_X = 72;
const PADDING_Y = 64;
const CONTENT_WIDTH = CARD_WIDTH - 2 * PADDING_X;
const MARK_SIZE = 56;
const BLOCK_GAP = 24;
const PILL_PADDING = { x: 24, y: 8 };

/** How text is measured and cut into lines (wrapText); a block of lines also has its line height and colour. */
type LineStyle = { fontSize: number; letterSpacing?: number; maxLines: number };
type TextStyle = LineStyle & { lineHeight: number; color: string };
const TITLE: TextStyle = { fontSize: 72, lineHeight: 1.15, letterSpacing: -1, color: INK, maxLines: 3 };
// A long title is set smaller, so that it keeps to a few lines.
const LONG_TITLE: TextStyle = { ...TITLE, fontSize: 56 };
const LONG_TITLE_CHARS = 48;
const DESCRIPTION: TextStyle = { fontSize: 32, lineHeight: 1.35, color: MUTED, maxLines: 3 };
const NAME_SIZE = 34;
const FOOTER_SIZE = 28;

function escapeXml(text: string): string {
  return text.replace(/[&<>"]/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[char]!);
}

/**
 * `text` in lines no wider than `width`, broken between words (and inside a word longer than a line),
 * at most `maxLines`, the last cut with an ellipsis when the text goes on.
 */
function wrapText(text: string, metrics: FontMetrics, style: LineStyle, width: number): string[] {
  const fits = (line: string) => metrics.width(line, style.fontSize, style.letterSpacing) <= width;
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    const joined = line ? `${line} ${word}` : word;
    if (fits(joined)) {
      line = joined;
      continue;
    }
    if (line) lines.push(line);
    line = "";
    for (const char of word) {
      if (line && !fits(line + char)) {
        lines.push(line);
        line = "";
      }
      line += char;
    }
  }
  if (line) lines.push(line);
  if (lines.length <= style.maxLines) return lines;
  const kept = lines.slice(0, style.maxLines);
  let last = kept[style.maxLines - 1]!;
  while (last && !fits(`${last}…`)) last = Array.from(last).slice(0, -1).join("");
  kept[style.maxLines - 1] = `${last.trimEnd()}…`;
  return kept;
}

/** The baseline of text set in a line box of `height` from `top`, centred as CSS centres it. */
function baseline(metrics: FontMetrics, fontSize: number, top: number, height: number): number {
  const glyphBox = (metrics.ascender - metrics.descender) * fontSize;
  return top + (height - glyphBox) / 2 + metrics.ascender * fontSize;
}

function textElement(x: number, y: number, text: string, fontSize: number, color: string, extra = ""): string {
  return `<text x="${x}" y="${y.toFixed(1)}" font-size="${fontSize}" fill="${color}"${extra}>${escapeXml(text)}</text>`;
}

/** The htmldrop mark: a white drop on the accent square, as public/icon.svg draws it. */
function mark(x: number, y: number): string {
  return `<g transform="translate(${x} ${y}) scale(${MARK_SIZE / 32})"><rect width="32" height="32" rx="7" fill="${ACCENT}"/><path d="M16 5.5C16 5.5 8.5 14 8.5 19.5a7.5 7.5 0 0 0 15 0C23.5 14 16 5.5 16 5.5Z" fill="#ffffff"/></g>`;
}

/** The card as an SVG document in the font family "Geist", which render.ts gives resvg. */
export function previewCardSvg({ title, description, version, site }: CardContent, metrics: FontMetrics): string {
  const drawnTitle = drawableText(title, TITLE_MAX_CHARS) || "A page on htmldrop";
  const drawnDescription = drawableText(description, DESCRIPTION_MAX_CHARS);
  const top = ACCENT_BAR + PADDING_Y;
  const bottom = CARD_HEIGHT - PADDING_Y;
  const parts: string[] = [
    `<rect width="${CARD_WIDTH}" height="${CARD_HEIGHT}" fill="${PAPER}"/>`,
    `<rect width="${CARD_WIDTH}" height="${ACCENT_BAR}" fill="${ACCENT}"/>`,
    mark(PADDING_X, top),
    textElement(PADDING_X + MARK_SIZE + 20, baseline(metrics, NAME_SIZE, top, MARK_SIZE), "htmldrop", NAME_SIZE, INK),
  ];

  // The footer: the version on an accent pill at the left, the site at the right, centred on each other.
  const pillHeight = (metrics.ascender - metrics.descender) * FOOTER_SIZE + 2 * PILL_PADDING.y;
  const pillTop = bottom - pillHeight;
  const versionLabel = `Version ${version}`;
  const pillWidth = metrics.width(versionLabel, FOOTER_SIZE) + 2 * PILL_PADDING.x;
  const footerBaseline = baseline(metrics, FOOTER_SIZE, pillTop, pillHeight);
  // The site keeps to the room right of the pill, cut with an ellipsis past it.
  const siteLine = wrapText(drawableText(site, 60), metrics, { fontSize: FOOTER_SIZE, maxLines: 1 }, CONTENT_WIDTH - pillWidth - BLOCK_GAP)[0] ?? "";
  parts.push(
    `<rect x="${PADDING_X}" y="${pillTop.toFixed(1)}" width="${pillWidth.toFixed(1)}" height="${pillHeight.toFixed(1)}" rx="${(pillHeight / 2).toFixed(1)}" fill="${ACCENT}"/>`,
    textElement(PADDING_X + PILL_PADDING.x, footerBaseline, versionLabel, FOOTER_SIZE, "#ffffff"),
    textElement(CARD_WIDTH - PADDING_X, footerBaseline, siteLine, FOOTER_SIZE, MUTED, ' text-anchor="end"'),
  );

  // The title and description, centred between the header and the footer.
  const lineBox = (style: TextStyle) => style.fontSize * style.lineHeight;
  const middle = pillTop - top - MARK_SIZE;
  const titleStyle = Array.from(drawnTitle).length > LONG_TITLE_CHARS ? LONG_TITLE : TITLE;
  const titleLines = wrapText(drawnTitle, metrics, titleStyle, CONTENT_WIDTH);
  // The description gets the lines the title leaves.
  const descriptionStyle = { ...DESCRIPTION, maxLines: Math.min(DESCRIPTION.maxLines, Math.floor((middle - titleLines.length * lineBox(titleStyle) - BLOCK_GAP) / lineBox(DESCRIPTION))) };
  const blocks = [
    { style: titleStyle, lines: titleLines },
    ...(drawnDescription && descriptionStyle.maxLines > 0 ? [{ style: descriptionStyle, lines: wrapText(drawnDescription, metrics, descriptionStyle, CONTENT_WIDTH) }] : []),
  ];
  const blocksHeight = blocks.reduce((total, { style, lines }) => total + lines.length * lineBox(style), 0) + BLOCK_GAP * (blocks.length - 1);
  let lineTop = top + MARK_SIZE + (middle - blocksHeight) / 2;
  for (const { style, lines } of blocks) {
    const spacing = style.letterSpacing ? ` letter-spacing="${style.letterSpacing}"` : "";
    for (const line of lines) {
      parts.push(textElement(PADDING_X, baseline(metrics, style.fontSize, lineTop, lineBox(style)), line, style.fontSize, style.color, spacing));
      lineTop += lineBox(style);
    }
    lineTop += BLOCK_GAP;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}" viewBox="0 0 ${CARD_WIDTH} ${CARD_HEIGHT}" font-family="Geist">${parts.join("")}</svg>`;
}
