// The Open Graph card of a drop version, drawn by next/og (satori): flexbox and inline styles only.
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


/** The htmldrop mark: a white drop on the accent square, as public/icon.svg draws it. */
export function Mark({ size }: { size: number }): ReactElement {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32">
      <rect width="32" height="32" rx="7" fill={ACCENT} />
      <path d="M16 5.5C16 5.5 8.5 14 8.5 19.5a7.5 7.5 0 0 0 15 0C23.5 14 16 5.5 16 5.5Z" fill="#ffffff" />
    </svg>
  );
}

export function PreviewCard({ title, description, version, site }: CardContent): ReactElement {
  const drawnTitle = drawableText(title, TITLE_MAX_CHARS) || "A page on htmldrop";
  const drawnDescription = drawableText(description, DESCRIPTION_MAX_CHARS);
  return (
    <div style={{ width: "100%", height: "100%", display: "flex", flexDirection: "column", background: "#fbfbfa", color: INK, padding: "64px 72px", borderTop: `16px solid ${ACCENT}` }}>
      <div style={{ display: "flex", alignItems: "center", gap: 20 }}>
        <Mark size={56} />
        <div style={{ display: "flex", fontSize: 34, color: INK }}>htmldrop</div>
      </div>
      <div style={{ display: "flex", flexDirection: "column", flexGrow: 1, justifyContent: "center", gap: 24 }}>
        <div style={{ display: "flex", fontSize: drawnTitle.length > 48 ? 56 : 72, lineHeight: 1.15, letterSpacing: -1 }}>{drawnTitle}</div>
        {drawnDescription ? <div style={{ display: "flex", fontSize: 32, lineHeight: 1.35, color: MUTED }}>{drawnDescription}</div> : null}
      </div>
      <div style={{ display: "flex", alignItems: "center", justifyContent: "space-between", fontSize: 28, color: MUTED }}>
        <div style={{ display: "flex", background: ACCENT, color: "#ffffff", borderRadius: 999, padding: "8px 24px" }}>Version {version}</div>
        <div style={{ display: "flex" }}>{drawableText(site, 60)}</div>
      </div>
    </div>
  );
}
