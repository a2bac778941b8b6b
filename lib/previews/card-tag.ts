// What a drop version's preview card shows, and the tag that names it: the card's ETag and a parameter
// of the URL the viewer gives as og:image, so a new title or description is a new image URL. Chat apps
// keep a card by its URL and seldom revalidate; an ETag alone never reached them.
import { createHash } from "node:crypto";
import { getConfig } from "@/lib/config";

/** Bumped whenever the drawing changes, so every cached card (and ETag) is made anew. */
export const CARD_FORMAT = 1;

export type CardContent = { title: string; description: string; version: number; site: string };

export function cardContent(drop: { title: string; description: string | null }, version: number): CardContent {
  return { title: drop.title, description: drop.description ?? "", version, site: new URL(getConfig().publicUrl).host };
}

/** The same drop, version, title and description always make the same bytes, and the same tag. */
export function cardTag(slug: string, content: CardContent): string {
  const fields = JSON.stringify([CARD_FORMAT, slug, content.version, content.title, content.description, content.site]);
  return createHash("sha256").update(fields).digest("base64url").slice(0, 27);
}
