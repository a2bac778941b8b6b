// Who sees what at a drop's public URLs: one pure function, asked by every path that answers one
// (proxy.ts, the page cache, the viewer, raw, full page, og card, compare, comments, unlock, the view
// beacon). Each path renders the answer its own way (the gate is a form on the viewer, a 403 page on
// raw, a redirect on "Open full page"); none decides on its own.
import { getConfig } from "@/lib/config";
import type { DropAccess, MemberRole } from "@/lib/sharing/levels";
import { isExpired } from "./expiry";
import type { PublicPath } from "./public-urls";

/** What the decision needs of a drop; a missing drop is null. */
export type DropState = {
  /** Who may open it, as the instance applies it (effectiveAccess). */
  access: DropAccess;
  /** Unix ms; null when it never expires. */
  expiresAt: number | null;
  /** It has a passcode. */
  locked: boolean;
  /** Its owner lets search engines index it. */
  indexable: boolean;
  /** Whether the version the path names exists; undefined when the caller has not looked (the page it renders finds out). */
  versionExists?: boolean;
};

/** A drop's row as the decision reads it (Prisma's or a raw lookup's: dates as Date or Unix ms, SQLite's booleans as 0/1). */
export function dropStateOf(
  row: { access: string; expiresAt: Date | number | null; passcodeHash: string | null; indexable: boolean | number },
  versionExists?: boolean,
): DropState {
  const expiresAt = row.expiresAt instanceof Date ? row.expiresAt.getTime() : row.expiresAt;
  return {
    access: effectiveAccess(row.access),
    expiresAt,
    locked: row.passcodeHash !== null,
    indexable: Boolean(row.indexable),
    ...(versionExists === undefined ? {} : { versionExists }),
  };
}

/** A stored access level as this instance applies it: with PUBLIC_DROPS=off, a drop made public earlier is signed_in. */
export function effectiveAccess(stored: string): DropAccess {
  if (stored === "restricted") return "restricted";
  if (stored === "signed_in" || !getConfig().sharing.publicAllowed) return "signed_in";
  return "public";
}

/** Proof that this browser knows the drop's current passcode, and until when it holds (Unix ms). */
export type PasscodeUnlock = { via: "cookie" | "frame_token"; until: number };

/** An account's place on one drop, as lib/sharing/standing.ts reads it. */
export type Standing = {
  /** Its owner; on its list as a person or through a team (the higher role of the two); or neither. */
  role: "owner" | MemberRole | null;
  /** A member of this instance: of its org, when ORG_EMAIL_DOMAINS or ORG_OIDC_CLAIM draw a boundary. */
  member: boolean;
};

/**
 * Who asks: nobody signed in, or an account (a browser's session, a viewer's pass, a bearer token).
 * A public drop without a passcode needs no account, so its paths never look one up: anyone sees what
 * the anonymous see.
 */
export type Viewer =
  | { kind: "anonymous"; unlock: PasscodeUnlock | null }
  | { kind: "account"; accountId: string; standing: Standing; unlock: PasscodeUnlock | null };

/** Whether an account in this standing may open a drop of this access level. */
export function admits(access: DropAccess, standing: Standing | null): boolean {
  if (access === "public") return true;
  if (standing === null) return false;
  if (standing.role !== null) return true;
  return access === "signed_in" && standing.member;
}

export type AccessDecision =
  | { answer: "not_found" }
  /** A drop for signed-in people, asked for by nobody signed in: the sign-in page, and back. */
  | { answer: "sign_in" }
  | { answer: "version_not_found" }
  /**
   * 410: nothing of the drop, not even its title; or, `renewable`, its viewer shows whoever may change
   * the expiry when it passed and lets them extend it.
   */
  | { answer: "expired"; renewable: boolean }
  /** The passcode gate, in the path's own form (on unlock: check the passcode). */
  | { answer: "gate" }
  | {
      answer: "serve";
      /** Search engines may index it (X-Robots-Tag, meta robots). */
      indexable: boolean;
      /** The answer's Cache-Control; null: the renderer's own (Next's). */
      cacheControl: string | null;
      /** A copy made for one viewer may be given to another: the page cache, Vercel's shared page. */
      sharedCache: boolean;
    };

// A version's bytes never change, but whether they may be served does (a passcode set later, a deleted
// version or drop). Shared caches therefore keep a pinned version one minute and then revalidate (a
// cheap 304 by ETag while it is still public), so a lock or delete reaches every CDN within about two
// minutes; a viewer's own browser may keep what it already saw for five.
export type CachePolicy = { maxAge: number; sMaxAge: number; staleWhileRevalidate: number };
export const CACHE_PINNED: CachePolicy = { maxAge: 300, sMaxAge: 60, staleWhileRevalidate: 60 };
export const CACHE_LATEST: CachePolicy = { maxAge: 0, sMaxAge: 10, staleWhileRevalidate: 60 };
export const CACHE_PRIVATE = "private, no-store";
// The live version document (what open viewers poll): a shared cache answers a crowd of readers, and its
// origin sees a couple of requests per cache every few seconds however many read; lifetimes short enough
// that a new version reaches them within about five seconds.
export const CACHE_LIVE: CachePolicy = { maxAge: 0, sMaxAge: 2, staleWhileRevalidate: 3 };

/**
 * A public answer's Cache-Control. For a drop that expires, every lifetime is cut so that no cache,
 * shared or not, may serve it (fresh or stale) past the expiry: s-maxage plus stale-while-revalidate
 * and max-age end by then.
 */
export function publicCacheControl(policy: CachePolicy, expiresAt: number | null, at: number): string {
  const left = expiresAt === null ? Infinity : Math.floor((expiresAt - at) / 1000);
  if (left <= 0) return "no-store";
  const sMaxAge = Math.min(policy.sMaxAge, left);
  const staleWhileRevalidate = Math.min(policy.staleWhileRevalidate, left - sMaxAge);
  return `public, max-age=${Math.min(policy.maxAge, left)}, s-maxage=${sMaxAge}, stale-while-revalidate=${staleWhileRevalidate}`;
}

/** Paths whose version is checked before the drop is read: a malformed one names nothing. */
const STRICT_VERSION = new Set(["raw", "og", "full", "view"]);
/** Where a drop past its expiry is simply gone (a form, a count) rather than a page saying so. */
const EXPIRED_IS_NOT_FOUND = new Set(["comments", "view", "unlock", "live"]);

/** The pages a browser opens, where nobody signed in is sent to sign in rather than told "not found". */
const SIGN_IN_ROUTES = new Set(["viewer", "raw", "full", "compare"]);

/** The path alone answers 404, whatever the drop: callers skip the drop's lookup. */
export function namesNothing(path: PublicPath): boolean {
  if (path.slug === null || path.route === "shared" || path.route === "missing") return true;
  if (path.route === "view" && !path.plain) return true;
  // The live document has one URL, so that every reader's poll is the same cache entry.
  if (path.route === "live" && (path.version !== null || !path.plain)) return true;
  return STRICT_VERSION.has(path.route) && path.version === "invalid";
}

/**
 * Whoever may change a drop's locks (passcode, expiry): its owner and its editors. A passcode does not
 * stop them, and past the expiry its viewer offers them to extend it.
 */
function mayChangeLocks(viewer: Viewer): boolean {
  return viewer.kind === "account" && (viewer.standing.role === "owner" || viewer.standing.role === "editor");
}

function isUnlocked(path: PublicPath, viewer: Viewer): boolean {
  // A frame token is handed out for the raw page alone (its iframe, "Open full page").
  return viewer.unlock !== null && (viewer.unlock.via === "cookie" || path.route === "raw");
}

function serve(indexable: boolean, cacheControl: string | null, sharedCache: boolean): AccessDecision {
  return { answer: "serve", indexable, cacheControl, sharedCache };
}

/** `at`: the time the drop's expiry is compared with (Unix ms). */
export function decideAccess(path: PublicPath, drop: DropState | null, viewer: Viewer, at: number): AccessDecision {
  if (namesNothing(path) || drop === null) return { answer: "not_found" };
  // Before the expiry: someone the drop does not admit learns nothing of it, not even that it expired.
  if (!admits(drop.access, viewer.kind === "account" ? viewer.standing : null)) {
    return viewer.kind === "anonymous" && SIGN_IN_ROUTES.has(path.route) ? { answer: "sign_in" } : { answer: "not_found" };
  }
  if (isExpired(drop.expiresAt, at)) {
    return EXPIRED_IS_NOT_FOUND.has(path.route) ? { answer: "not_found" } : { answer: "expired", renewable: path.route === "viewer" && mayChangeLocks(viewer) };
  }
  // A drop with a passcode or for some people only: never indexed, never in a shared cache or the page
  // cache, and no preview image, which would show its title to whoever holds the URL.
  const personal = drop.locked || drop.access !== "public";
  const gated = drop.locked && !isUnlocked(path, viewer) && !mayChangeLocks(viewer);
  const indexable = drop.indexable && !personal;
  const pinned = typeof path.version === "number";
  const missingVersion = drop.versionExists === false;
  switch (path.route) {
    case "og":
      if (personal || missingVersion) return { answer: "not_found" };
      return serve(indexable, publicCacheControl(pinned ? CACHE_PINNED : CACHE_LATEST, drop.expiresAt, at), true);
    case "live":
      // A locked drop's version count is only for those who unlocked it; a personal drop's is stored by no cache.
      if (gated) return { answer: "gate" };
      return serve(false, personal ? CACHE_PRIVATE : publicCacheControl(CACHE_LIVE, drop.expiresAt, at), !personal);
    case "view":
      if (missingVersion) return { answer: "version_not_found" };
      return gated ? { answer: "gate" } : serve(false, null, false);
    case "unlock":
      return drop.locked ? { answer: "gate" } : serve(false, null, false);
    case "raw":
      if (gated) return { answer: "gate" };
      if (missingVersion) return { answer: "not_found" };
      return serve(indexable, personal ? CACHE_PRIVATE : publicCacheControl(pinned ? CACHE_PINNED : CACHE_LATEST, drop.expiresAt, at), !personal);
    case "viewer":
      if (gated) return { answer: "gate" };
      if (path.version === "invalid" || missingVersion) return { answer: "not_found" };
      // Pinned or not, a viewer page is cached like the latest: it shows the versions list, which changes.
      return personal ? serve(false, null, false) : serve(indexable, publicCacheControl(CACHE_LATEST, drop.expiresAt, at), true);
    case "compare":
      if (gated) return { answer: "gate" };
      return missingVersion ? { answer: "not_found" } : serve(false, null, false);
    case "full":
    case "comments":
      return gated ? { answer: "gate" } : serve(false, null, false);
    case "lock":
      return serve(false, null, false);
    case "shared":
    case "missing":
      return { answer: "not_found" };
  }
}
