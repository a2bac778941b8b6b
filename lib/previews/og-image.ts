// GET /p/<slug>/og.png[?v=N][&card=<tag>]: a drop version's Open Graph card. The viewer's og:image
// carries the card's tag so that a new title is a new URL; the tag is not read here, and the card drawn
// is always the current one. Rendering costs tens of milliseconds of CPU, so each card is drawn once per (drop, version, title, description) and kept in memory; its ETag
// names that content, so browsers, CDNs and unfurlers revalidate with a 304 and never wait for a render.
// Cached for shared caches like the raw endpoint, never past the drop's expiry. A locked drop has no
// card (its title would show); an expired one answers 410 like its viewer.
import { now } from "@/lib/clock";
import { epochMs, type HotRead, readRow } from "@/lib/db/reads";
import { type AccessDecision, decideAccess, dropStateOf, namesNothing } from "@/lib/drops/access-decision";
import { parsePublicPath, type PublicPath, routeAt } from "@/lib/drops/public-urls";
import { ApiError, isApiError } from "@/lib/errors";
import { assertRateLimit } from "@/lib/ratelimit";
import { clientKeyFromHeaders } from "@/lib/ratelimit/client-key";
import { expiredPage, matchesEtag, type RawResponse } from "@/lib/serving/raw";
import { robotsHeaders } from "@/lib/serving/robots";
import { cardContent, cardTag, type CardContent } from "./card-tag";
import { drawCardOffThread } from "./card-pool";

/** Cards kept per process: one is 30 to 60 KB, so about a hundred and fifty of the most recent. */
const CARD_CACHE_BYTES = 8 * 1024 * 1024;

type CardCache = { cards: Map<string, Buffer>; bytes: number; renders: Map<string, Promise<Buffer>> };
const CACHE_KEY = Symbol.for("htmldrop.preview-cards");
type CacheHolder = { [CACHE_KEY]?: CardCache };

function cache(): CardCache {
  return ((globalThis as CacheHolder)[CACHE_KEY] ??= { cards: new Map(), bytes: 0, renders: new Map() });
}

function keep(tag: string, png: Buffer): void {
  const state = cache();
  state.cards.set(tag, png);
  state.bytes += png.length;
  // Least recently used first: a Map iterates in insertion order and a hit re-inserts its card.
  for (const [key, oldest] of state.cards) {
    if (state.bytes <= CARD_CACHE_BYTES) break;
    state.cards.delete(key);
    state.bytes -= oldest.length;
  }
}

function cachedCard(tag: string): Buffer | undefined {
  const state = cache();
  const png = state.cards.get(tag);
  if (png) {
    state.cards.delete(tag);
    state.cards.set(tag, png);
  }
  return png;
}

/** One render per card at a time: concurrent unfurls of a new link share it. */
function renderOnce(tag: string, content: CardContent): Promise<Buffer> {
  const state = cache();
  let pending = state.renders.get(tag);
  if (!pending) {
    pending = drawCardOffThread(content)
      .then((png) => {
        keep(tag, png);
        return png;
      })
      .finally(() => state.renders.delete(tag));
    state.renders.set(tag, pending);
  }
  return pending;
}

function errorAnswer(error: ApiError): RawResponse {
  const headers: Record<string, string> = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...robotsHeaders(false) };
  if (error.retryAfterSeconds !== undefined) headers["retry-after"] = String(error.retryAfterSeconds);
  return { status: error.status, headers, body: Buffer.from(JSON.stringify(error.toBody())) };
}

const NO_CARD = "There is no preview image here: the drop does not exist, has no such version, or has a passcode.";

export type PreviewRequest = { method: string; url: URL; headers: Headers };

type CardDrop = { access: string; title: string; description: string | null; passcodeHash: string | null; expiresAt: number | null; latestVersion: number; indexable: boolean | number; pinnedExists: number | null };
const CARD_COLUMNS = `d."access", d."title", d."description", d."passcodeHash", d."latestVersion", d."indexable"`;
const CARD_EXPIRES_AT = epochMs(`d."expiresAt"`, "expiresAt");
/**
 * The drop a card shows, and whether its pinned version exists (null when none is pinned), on a prepared
 * statement (lib/db/reads.ts): Prisma's two queries were most of a drawn card's answer, about 0.5 ms of CPU.
 */
const CARD_DROP: HotRead = {
  name: "htmldrop_card_drop",
  sqlite: `SELECT ${CARD_COLUMNS}, ${CARD_EXPIRES_AT.sqlite}, (SELECT 1 FROM "Version" v WHERE v."dropId" = d."id" AND v."number" = ?) AS "pinnedExists" FROM "Drop" d WHERE d."slug" = ?`,
  postgres: `SELECT ${CARD_COLUMNS}, ${CARD_EXPIRES_AT.postgres}, (SELECT 1 FROM "Version" v WHERE v."dropId" = d."id" AND v."number" = $1::int) AS "pinnedExists" FROM "Drop" d WHERE d."slug" = $2`,
};

export async function servePreviewImage(request: PreviewRequest): Promise<RawResponse> {
  try {
    return await respond(request);
  } catch (error) {
    if (isApiError(error)) return errorAnswer(error);
    console.error("htmldrop: preview image failed", error);
    return errorAnswer(new ApiError("internal_error", "The preview image could not be made. Try again in a moment."));
  }
}

type Card = { content: CardContent; tag: string; decision: Extract<AccessDecision, { answer: "serve" }> };

/** The card a public path names, "expired" for an expired drop's (410); not_found when there is none to show. */
async function cardAt(path: PublicPath | null): Promise<Card | "expired"> {
  if (path?.route !== "og" || namesNothing(path)) throw new ApiError("not_found", NO_CARD);
  const slug = path.slug!;
  const pinned = typeof path.version === "number" ? path.version : null;
  const drop = (await readRow<CardDrop>(CARD_DROP, [pinned, slug])) ?? null;
  const version = pinned ?? drop?.latestVersion ?? 0;
  // A pinned version's existence counts only for a drop that may show a card at all.
  const mayShow = drop !== null && drop.passcodeHash === null && drop.access === "public" && pinned !== null;
  const state = drop && dropStateOf(drop, mayShow ? drop.pinnedExists !== null : undefined);
  const decision = decideAccess(path, state, { kind: "anonymous", unlock: null }, now());
  if (decision.answer === "expired") return "expired";
  if (decision.answer !== "serve" || drop === null) throw new ApiError("not_found", NO_CARD);
  const content = cardContent(drop, version);
  return { content, tag: cardTag(slug, content), decision };
}

/**
 * Starts drawing the card of a viewer page the page cache is rendering (lib/serving/cached-pages.ts),
 * unless it is drawn or another card is being drawn: an unfurler reads the page, then asks for the card
 * its og:image names, and finds it drawn or on its way rather than waiting for a worker to start and load
 * the renderer (a few hundred milliseconds). One at a time, so a flood of new pages draws no more than
 * one card at once.
 */
export function drawCardAhead(slug: string, version: number): void {
  const idle = () => cache().renders.size === 0;
  if (!idle()) return;
  cardAt(routeAt("og", slug, version))
    .then((card) => {
      if (card !== "expired" && idle() && !cache().cards.has(card.tag)) return renderOnce(card.tag, card.content);
    })
    // Drawn again when asked for, which logs a failure.
    .catch(() => undefined);
}

async function respond({ method, url, headers }: PreviewRequest): Promise<RawResponse> {
  const card = await cardAt(parsePublicPath(`${url.pathname}${url.search}`));
  if (card === "expired") return expiredPage();
  const { content, tag, decision } = card;
  const answerHeaders: Record<string, string> = {
    "content-type": "image/png",
    "cache-control": decision.cacheControl!,
    etag: `"${tag}"`,
    "x-content-type-options": "nosniff",
    ...robotsHeaders(decision.indexable),
  };
  if (matchesEtag(headers.get("if-none-match") ?? undefined, tag)) return { status: 304, headers: answerHeaders, body: null };

  let png = cachedCard(tag);
  // As the page cache says it: whether this answer was drawn for this request.
  answerHeaders["x-htmldrop-cache"] = png ? "hit" : "miss";
  if (!png) {
    // Only renders count: a flood of distinct cards is what costs CPU, never a cached one, nor one being
    // drawn already (for its viewer page, drawCardAhead, or another request).
    const drawing = cache().renders.get(tag);
    if (!drawing) await assertRateLimit("previewRenders", clientKeyFromHeaders(headers));
    png = await (drawing ?? renderOnce(tag, content));
  }
  answerHeaders["content-length"] = String(png.length);
  return { status: 200, headers: answerHeaders, body: method === "HEAD" ? null : png };
}
