// What the public viewer page at /p/<slug> shows. A locked drop yields only the gate: no title,
// description, versions or context until the unlock cookie verifies against the current passcode.
import { now } from "@/lib/clock";
import { viewerThread } from "@/lib/comments/comments";
import { getConfig } from "@/lib/config";
import { db } from "@/lib/db";
import { isExpired } from "@/lib/drops/expiry";
import type { CommentJson, CommentPolicy } from "@/lib/schemas/comments";
import { SLUG_PATTERN } from "@/lib/schemas/common";
import { previewImagePath } from "@/lib/previews/paths";
import { mayIndex } from "./robots";
import { createFrameToken, FRAME_TOKEN_TTL_MS, hasValidUnlockCookie, unlockCookieExpiry } from "./unlock";

const VERSION_PARAM = /^[1-9][0-9]{0,8}$/;
/** `/p/<slug>`, optionally `?v=N` and nothing else: the viewer URLs a cache may answer. */
const PLAIN_VIEWER_URL = /^\/p\/([^/?#]+)\/?(?:\?v=([1-9][0-9]{0,8}))?$/;

export type PlainViewerUrl = { slug: string; encodedSlug: string; version: string | undefined };

/** The drop and version of a plain viewer URL (path and query), or null for any other URL. */
export function parsePlainViewerUrl(url: string): PlainViewerUrl | null {
  const match = url.startsWith("/p/") ? PLAIN_VIEWER_URL.exec(url) : null;
  if (!match) return null;
  let slug: string;
  try {
    slug = decodeURIComponent(match[1]!);
  } catch {
    return null;
  }
  return SLUG_PATTERN.test(slug) ? { slug, encodedSlug: match[1]!, version: match[2] } : null;
}

/** The comments panel: who may post, and every comment of the drop, oldest first. */
export type ViewerComments = { policy: Exclude<CommentPolicy, "off">; thread: CommentJson[] };

export type ViewerPage =
  | { kind: "not_found" }
  | { kind: "gate"; slug: string; version: string | null }
  | {
      kind: "drop";
      slug: string;
      title: string;
      description: string | null;
      /** Locked, and this browser holds a valid unlock. */
      unlocked: boolean;
      version: number;
      latestVersion: number;
      versions: { number: number; createdAt: number }[];
      context: string | null;
      frameSrc: string;
      /** "Open full page": the raw URL itself, or for a locked drop /p/<slug>/full, which hands out a token for a minute. */
      fullPageHref: string;
      url: string;
      /** Null while the owner has comments off. The same for every viewer: the page is cached. */
      comments: ViewerComments | null;
      /** Search engines may index it (lib/serving/robots.ts). */
      indexable: boolean;
      /** The preview image of the version shown; null for a locked drop, whose title it would show. */
      imageUrl: string | null;
    };

/** A drop with a passcode, as this browser unlocked it: the frame token must not outlive the cookie. */
export type Unlock = { passcodeHash: string; cookieExpiresAt: number };

/**
 * The raw URL a page frames for one version: pinned, so the frame never switches content under the
 * page around it; for a drop with a passcode, with a frame token (only ever handed to an unlocked viewer).
 */
export function frameSrc(slug: string, version: number, unlock: Unlock | null): string {
  const token = unlock === null ? "" : `&unlock=${createFrameToken(slug, unlock.passcodeHash, unlock.cookieExpiresAt, FRAME_TOKEN_TTL_MS)}`;
  return `${getConfig().contentOrigin}/p/${slug}/raw?v=${version}${token}`;
}

export async function getViewerPage(slug: string, versionParam: string | undefined, cookieHeader: string | null): Promise<ViewerPage> {
  if (!SLUG_PATTERN.test(slug)) return { kind: "not_found" };
  const drop = await db().drop.findUnique({
    where: { slug },
    select: { id: true, title: true, description: true, passcodeHash: true, latestVersion: true, expiresAt: true, commentPolicy: true, indexable: true },
  });
  // proxy.ts answers an expired drop's viewer with 410 first; should one get past it, nothing is shown.
  if (!drop || isExpired(drop.expiresAt, now())) return { kind: "not_found" };
  const validVersion = versionParam !== undefined && VERSION_PARAM.test(versionParam) ? versionParam : null;
  const unlockExpiresAt = drop.passcodeHash === null ? null : unlockCookieExpiry(slug, drop.passcodeHash, cookieHeader);
  if (drop.passcodeHash !== null && unlockExpiresAt === null) {
    return { kind: "gate", slug, version: validVersion };
  }
  if (versionParam !== undefined && validVersion === null) return { kind: "not_found" };

  const number = validVersion === null ? drop.latestVersion : Number(validVersion);
  const versions = await db().version.findMany({ where: { dropId: drop.id }, orderBy: { number: "desc" }, select: { number: true, createdAt: true } });
  if (!versions.some((version) => version.number === number)) return { kind: "not_found" };
  const selected = await db().version.findUnique({ where: { dropId_number: { dropId: drop.id, number } }, select: { context: true } });
  if (!selected) return { kind: "not_found" };

  // Read only past the gate above: a locked drop's thread is for viewers who unlocked it.
  const policy = drop.commentPolicy as CommentPolicy;
  const comments = policy === "off" ? null : { policy, thread: await viewerThread(drop.id) };

  const { publicUrl } = getConfig();
  const frame = frameSrc(slug, number, drop.passcodeHash === null ? null : { passcodeHash: drop.passcodeHash, cookieExpiresAt: unlockExpiresAt! });
  return {
    kind: "drop",
    slug,
    title: drop.title,
    description: drop.description,
    unlocked: drop.passcodeHash !== null,
    version: number,
    latestVersion: drop.latestVersion,
    versions: versions.map((version) => ({ number: version.number, createdAt: version.createdAt.getTime() })),
    context: selected.context,
    frameSrc: frame,
    fullPageHref: drop.passcodeHash === null ? frame : fullPagePath(slug, number),
    url: `${publicUrl}/p/${slug}${validVersion === null ? "" : `?v=${number}`}`,
    comments,
    indexable: mayIndex(drop),
    imageUrl: drop.passcodeHash === null ? `${publicUrl}${previewImagePath(slug, number)}` : null,
  };
}

/** The public-origin address that opens a drop's raw page (lib/serving/full-page.ts). */
export function fullPagePath(slug: string, version: number | null): string {
  return `/p/${slug}/full${version === null ? "" : `?v=${version}`}`;
}

/**
 * Whether this browser may see the drop at all: it exists, has not expired, and has no passcode or a
 * valid unlock. A not-found page offers the latest version only then, so it reveals nothing more.
 */
export async function isDropVisible(slug: string, cookieHeader: string | null): Promise<boolean> {
  if (!SLUG_PATTERN.test(slug)) return false;
  const drop = await db().drop.findUnique({ where: { slug }, select: { passcodeHash: true, expiresAt: true } });
  if (!drop || isExpired(drop.expiresAt, now())) return false;
  return drop.passcodeHash === null || hasValidUnlockCookie(slug, drop.passcodeHash, cookieHeader);
}

/** What the gate says after a failed attempt (?error=...). */
export const GATE_MESSAGES = {
  wrong: "That passcode is not right. Check it with whoever shared this link.",
  limited: "Too many attempts for this drop. Wait a few minutes, then try again.",
  unavailable: "Passcodes cannot be checked right now. Try again in a few seconds.",
} as const;

export type GateError = keyof typeof GATE_MESSAGES;

export function gateError(value: unknown): GateError | null {
  return typeof value === "string" && Object.hasOwn(GATE_MESSAGES, value) ? (value as GateError) : null;
}
