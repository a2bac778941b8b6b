// The passcode gate's proofs. Both are HMACs (getConfig().authSecret) over the slug, the current passcode
// hash and an expiry, so changing or removing the passcode voids every earlier unlock.
// - the cookie, HttpOnly + SameSite=Lax, scoped to /p/<slug>, set after a right passcode;
// - a short-lived token in the raw URL the viewer hands out (its iframe, "Open full page"), because the raw
//   endpoint may live on CONTENT_ORIGIN, another site, where the app's cookie is never sent. No token
//   outlives the cookie it was minted under, so a forwarded link never outlasts the viewer's own unlock.
import { createHmac } from "node:crypto";
import { errorResponse } from "@/lib/api/responses";
import { now } from "@/lib/clock";
import { getConfig } from "@/lib/config";
import { db } from "@/lib/db";
import { decideAccess, dropStateOf, type PasscodeUnlock } from "@/lib/drops/access-decision";
import { routeAt, viewerPath } from "@/lib/drops/public-urls";
import { ApiError } from "@/lib/errors";
import { assertRateLimit } from "@/lib/ratelimit";
import { isSameOriginPost } from "@/lib/security/headers";
import { verifyPasscode } from "@/lib/security/passcodes";
import { constantTimeEqual } from "@/lib/security/tokens";
import { viewerOn } from "@/lib/sharing/standing";

export const UNLOCK_COOKIE = "hd_unlock";
export const UNLOCK_COOKIE_MAX_AGE_SECONDS = 30 * 86_400;
/** The iframe's token: long enough for a reading session, never past the cookie. */
export const FRAME_TOKEN_TTL_MS = 12 * 3_600_000;
/** "Open full page" (/p/<slug>/full): the token only has to survive the redirect it is handed out in. */
export const FULL_PAGE_TOKEN_TTL_MS = 60_000;

type Purpose = "cookie" | "frame";

function signature(purpose: Purpose, slug: string, passcodeHash: string, expiresAt: number): string {
  return createHmac("sha256", getConfig().authSecret)
    .update(`htmldrop-unlock\n${purpose}\n${slug}\n${passcodeHash}\n${expiresAt}`)
    .digest("base64url");
}

function createProof(purpose: Purpose, slug: string, passcodeHash: string, expiresAt: number): string {
  return `${expiresAt}.${signature(purpose, slug, passcodeHash, expiresAt)}`;
}

/** When a proof expires (Unix ms), or null when it is not a valid, unexpired proof. */
function verifiedExpiry(purpose: Purpose, slug: string, passcodeHash: string, proof: string): number | null {
  const match = /^(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(proof);
  if (!match) return null;
  const expiresAt = Number(match[1]);
  if (expiresAt <= now()) return null;
  // Compared as text: decoding would accept the variants of the last character whose low bits
  // base64url discards, so one proof would have several spellings.
  return constantTimeEqual(match[2]!, signature(purpose, slug, passcodeHash, expiresAt)) ? expiresAt : null;
}

export function createUnlockCookieValue(slug: string, passcodeHash: string): string {
  return createProof("cookie", slug, passcodeHash, now() + UNLOCK_COOKIE_MAX_AGE_SECONDS * 1000);
}

/** A token for the raw URL, valid `ttlMs` but never past `cookieExpiresAt`, the unlock it is minted under. */
export function createFrameToken(slug: string, passcodeHash: string, cookieExpiresAt: number, ttlMs: number): string {
  return createProof("frame", slug, passcodeHash, Math.min(now() + ttlMs, cookieExpiresAt));
}

/** Every value of the unlock cookie in a Cookie header (path scoping means they are all this drop's). */
function unlockCookieValues(cookieHeader: string | null | undefined): string[] {
  if (!cookieHeader) return [];
  return cookieHeader
    .split(";")
    .map((part) => part.trim())
    .filter((part) => part.startsWith(`${UNLOCK_COOKIE}=`))
    .map((part) => part.slice(UNLOCK_COOKIE.length + 1));
}

/** When this browser's unlock of the drop ends (Unix ms), or null when it holds no valid unlock. */
export function unlockCookieExpiry(slug: string, passcodeHash: string, cookieHeader: string | null | undefined): number | null {
  const expiries = unlockCookieValues(cookieHeader)
    .map((value) => verifiedExpiry("cookie", slug, passcodeHash, value))
    .filter((expiry) => expiry !== null);
  return expiries.length > 0 ? Math.max(...expiries) : null;
}

/**
 * This browser's proof that it knows the drop's passcode: its unlock cookie, else a frame token (which
 * only the raw page accepts); null without one, or for a drop without a passcode.
 */
export function passcodeUnlock(slug: string, passcodeHash: string | null, cookieHeader: string | null | undefined, frameToken?: string | null): PasscodeUnlock | null {
  if (passcodeHash === null) return null;
  const cookie = unlockCookieExpiry(slug, passcodeHash, cookieHeader);
  if (cookie !== null) return { via: "cookie", until: cookie };
  const token = frameToken ? verifiedExpiry("frame", slug, passcodeHash, frameToken) : null;
  return token === null ? null : { via: "frame_token", until: token };
}

/** Set-Cookie attributes shared by setting and clearing the unlock. */
export function unlockCookieAttributes(slug: string): string {
  const secure = getConfig().publicUrl.startsWith("https:") ? "; Secure" : "";
  return `Path=${viewerPath(slug)}; HttpOnly; SameSite=Lax${secure}`;
}

export type UnlockResult = { outcome: "unlocked"; cookie: string } | { outcome: "not_locked" } | { outcome: "wrong_passcode" } | { outcome: "not_found" };

/**
 * Checks a passcode for a drop. Only attempts on a drop that exists and has a passcode are counted
 * (counting the others would let anyone add a counter row per made-up slug): against the client's
 * budget for this drop, then the drop's budget across all clients, BEFORE the passcode is verified
 * (rate_limited ApiError when spent), so guessing stays slow from one address or many.
 */
export async function unlockDrop(slug: string, passcode: string, client: string, cookieHeader: string | null): Promise<UnlockResult> {
  const path = routeAt("unlock", slug);
  const drop = path.slug === null ? null : await db().drop.findUnique({ where: { slug }, select: { id: true, ownerId: true, access: true, passcodeHash: true, expiresAt: true, indexable: true } });
  const state = drop && dropStateOf(drop);
  // Every attempt is checked against the passcode, whatever unlock the browser already holds; a drop
  // for some people only takes attempts from them alone.
  const decision = decideAccess(path, state, await viewerOn(drop, { slug, cookieHeader }, null), now());
  if (decision.answer === "serve") return { outcome: "not_locked" };
  if (decision.answer !== "gate" || !drop?.passcodeHash) return { outcome: "not_found" };
  await assertRateLimit("passcodeAttempts", `${slug}:${client}`);
  await assertRateLimit("passcodeAttemptsPerDrop", slug);
  if (!(await verifyPasscode(passcode, drop.passcodeHash))) return { outcome: "wrong_passcode" };
  const value = createUnlockCookieValue(slug, drop.passcodeHash);
  return { outcome: "unlocked", cookie: `${UNLOCK_COOKIE}=${value}; Max-Age=${UNLOCK_COOKIE_MAX_AGE_SECONDS}; ${unlockCookieAttributes(slug)}` };
}

/** The Set-Cookie that locks the drop again for this browser. */
export function lockCookie(slug: string): string {
  return `${UNLOCK_COOKIE}=; Max-Age=0; ${unlockCookieAttributes(slug)}`;
}

/**
 * The viewer's own forms (unlock, lock again) refuse posts from another site's page, a drop's
 * included: it could spend the visitor's attempts, or unlock and lock for them.
 */
export function crossSitePostRefusal(request: Request): Response | null {
  if (isSameOriginPost(request)) return null;
  return errorResponse(new ApiError("forbidden", "This form only accepts posts from the drop's own viewer page, not from another site."));
}
