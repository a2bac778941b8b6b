import { describe, expect, it } from "vitest";
import { CACHE_PRIVATE, decideAccess, namesNothing, publicCacheControl, type AccessDecision, type DropState, type Viewer } from "@/lib/drops/access-decision";
import { parsePublicPath, type PublicPath } from "@/lib/drops/public-urls";

const AT = 1_800_000_000_000;
const SLUG = "abc123def";

const live: DropState = { access: "public", expiresAt: null, locked: false, indexable: false };
const STATES = {
  live,
  indexable: { ...live, indexable: true },
  expiring: { ...live, indexable: true, expiresAt: AT + 30_000 },
  expired: { ...live, indexable: true, expiresAt: AT },
  locked: { ...live, indexable: true, locked: true },
  versionMissing: { ...live, indexable: true, versionExists: false },
  versionPresent: { ...live, indexable: true, versionExists: true },
  lockedVersionMissing: { ...live, locked: true, versionExists: false },
  signedIn: { ...live, access: "signed_in", indexable: true },
  restricted: { ...live, access: "restricted", indexable: true },
  restrictedExpired: { ...live, access: "restricted", expiresAt: AT },
  restrictedLocked: { ...live, access: "restricted", locked: true },
  restrictedVersionMissing: { ...live, access: "restricted", versionExists: false },
} satisfies Record<string, DropState>;
type StateName = keyof typeof STATES | "missing";

const anonymous: Viewer = { kind: "anonymous", unlock: null };
const unlockedByCookie: Viewer = { kind: "anonymous", unlock: { via: "cookie", until: AT + 1000 } };
const frameToken: Viewer = { kind: "anonymous", unlock: { via: "frame_token", until: AT + 1000 } };
const account = (role: "owner" | "editor" | "viewer" | null, member: boolean, unlock: Viewer["unlock"] = null): Viewer => ({ kind: "account", accountId: "account1", standing: { role, member }, unlock });
const owner = account("owner", true);
const VIEWERS = {
  anonymous,
  unlockedByCookie,
  frameToken,
  owner,
  editor: account("editor", true),
  listed: account("viewer", false),
  member: account(null, true),
  outsider: account(null, false),
  listedUnlocked: account("viewer", false, { via: "cookie", until: AT + 1000 }),
};
type ViewerName = keyof typeof VIEWERS;

const PATHS = {
  viewer: `/p/${SLUG}`,
  viewerPinned: `/p/${SLUG}?v=2`,
  viewerBadVersion: `/p/${SLUG}?v=abc`,
  raw: `/p/${SLUG}/raw`,
  rawPinned: `/p/${SLUG}/raw?v=2`,
  rawBadVersion: `/p/${SLUG}/raw?v=abc`,
  full: `/p/${SLUG}/full`,
  og: `/p/${SLUG}/og.png`,
  ogPinned: `/p/${SLUG}/og.png?v=2`,
  comments: `/p/${SLUG}/comments`,
  view: `/p/${SLUG}/view?v=2`,
  compare: `/p/${SLUG}/compare?from=1&to=2`,
  unlock: `/p/${SLUG}/unlock`,
  lock: `/p/${SLUG}/lock`,
  shared: `/p/${SLUG}/shared/latest`,
  live: `/p/${SLUG}/live.json`,
} as const;
type PathName = keyof typeof PATHS;

const NOT_FOUND: AccessDecision = { answer: "not_found" };
const VERSION_NOT_FOUND: AccessDecision = { answer: "version_not_found" };
const EXPIRED: AccessDecision = { answer: "expired", renewable: false };
/** The viewer of an expired drop, for whoever may extend it. */
const RENEWABLE: AccessDecision = { answer: "expired", renewable: true };
const GATE: AccessDecision = { answer: "gate" };
const LATEST = publicCacheControl({ maxAge: 0, sMaxAge: 10, staleWhileRevalidate: 60 }, null, AT);
const PINNED = publicCacheControl({ maxAge: 300, sMaxAge: 60, staleWhileRevalidate: 60 }, null, AT);
const LIVE = publicCacheControl({ maxAge: 0, sMaxAge: 2, staleWhileRevalidate: 3 }, null, AT);
const serve = (indexable: boolean, cacheControl: string | null, sharedCache: boolean): AccessDecision => ({ answer: "serve", indexable, cacheControl, sharedCache });
/** Served, nothing to index or share, its headers the handler's own. */
const HANDLED = serve(false, null, false);

function path(name: PathName): PublicPath {
  return parsePublicPath(PATHS[name])!;
}

function decide(state: StateName, pathName: PathName, viewer: ViewerName): AccessDecision {
  return decideAccess(path(pathName), state === "missing" ? null : STATES[state], VIEWERS[viewer], AT);
}

type Row = [StateName, PathName, ViewerName, AccessDecision];

const TABLE: Row[] = [
  // A missing drop is 404 on every path, for everyone.
  ...(Object.keys(PATHS) as PathName[]).map((name): Row => ["missing", name, "anonymous", NOT_FOUND]),

  // A live drop without a passcode.
  ["live", "viewer", "anonymous", serve(false, LATEST, true)],
  ["indexable", "viewer", "anonymous", serve(true, LATEST, true)],
  ["indexable", "viewerPinned", "anonymous", serve(true, LATEST, true)],
  ["indexable", "viewerBadVersion", "anonymous", NOT_FOUND],
  ["indexable", "raw", "anonymous", serve(true, LATEST, true)],
  ["live", "raw", "anonymous", serve(false, LATEST, true)],
  ["indexable", "rawPinned", "anonymous", serve(true, PINNED, true)],
  ["indexable", "rawBadVersion", "anonymous", NOT_FOUND],
  ["indexable", "full", "anonymous", HANDLED],
  ["indexable", "og", "anonymous", serve(true, LATEST, true)],
  ["indexable", "ogPinned", "anonymous", serve(true, PINNED, true)],
  ["indexable", "comments", "anonymous", HANDLED],
  ["indexable", "view", "anonymous", HANDLED],
  ["indexable", "compare", "anonymous", HANDLED],
  ["indexable", "unlock", "anonymous", HANDLED],
  ["indexable", "lock", "anonymous", HANDLED],
  ["indexable", "shared", "anonymous", NOT_FOUND],
  ["indexable", "viewer", "owner", serve(true, LATEST, true)],

  // An expiry ahead cuts every public lifetime short of it.
  ["expiring", "viewer", "anonymous", serve(true, publicCacheControl({ maxAge: 0, sMaxAge: 10, staleWhileRevalidate: 60 }, AT + 30_000, AT), true)],
  ["expiring", "rawPinned", "anonymous", serve(true, "public, max-age=30, s-maxage=30, stale-while-revalidate=0", true)],

  // Expired: a page says so (410); a form, a count or an unlock finds nothing.
  ["expired", "viewer", "anonymous", EXPIRED],
  ["expired", "viewer", "unlockedByCookie", EXPIRED],
  ["expired", "viewerBadVersion", "anonymous", EXPIRED],
  ["expired", "raw", "anonymous", EXPIRED],
  ["expired", "rawBadVersion", "anonymous", NOT_FOUND],
  ["expired", "full", "anonymous", EXPIRED],
  ["expired", "og", "anonymous", EXPIRED],
  ["expired", "compare", "anonymous", EXPIRED],
  ["expired", "comments", "anonymous", NOT_FOUND],
  ["expired", "view", "anonymous", NOT_FOUND],
  ["expired", "unlock", "anonymous", NOT_FOUND],
  // Whoever may change the expiry is offered to extend it on the viewer, and nowhere else.
  ["expired", "viewer", "owner", RENEWABLE],
  ["expired", "viewerPinned", "editor", RENEWABLE],
  ["expired", "viewer", "listed", EXPIRED],
  ["expired", "viewer", "member", EXPIRED],
  ["expired", "raw", "owner", EXPIRED],
  ["expired", "compare", "owner", EXPIRED],

  // Locked, not unlocked: the gate, in each path's form; never indexed, never shared.
  ["locked", "viewer", "anonymous", GATE],
  // Whoever may change the passcode is not stopped by it; a listed viewer is.
  ["locked", "viewer", "owner", serve(false, null, false)],
  ["locked", "raw", "owner", serve(false, CACHE_PRIVATE, false)],
  ["locked", "full", "editor", HANDLED],
  ["locked", "compare", "owner", HANDLED],
  ["locked", "comments", "editor", HANDLED],
  ["locked", "og", "owner", NOT_FOUND],
  ["locked", "viewer", "listed", GATE],
  ["locked", "viewer", "member", GATE],
  ["locked", "viewerBadVersion", "anonymous", GATE],
  ["locked", "raw", "anonymous", GATE],
  ["locked", "full", "anonymous", GATE],
  ["locked", "compare", "anonymous", GATE],
  ["locked", "comments", "anonymous", GATE],
  ["locked", "view", "anonymous", GATE],
  ["locked", "unlock", "anonymous", GATE],
  ["locked", "unlock", "unlockedByCookie", GATE],
  ["locked", "og", "anonymous", NOT_FOUND],
  ["locked", "og", "unlockedByCookie", NOT_FOUND],
  ["locked", "lock", "anonymous", HANDLED],

  // Unlocked by the cookie: served privately, never indexed.
  ["locked", "viewer", "unlockedByCookie", serve(false, null, false)],
  ["locked", "viewerBadVersion", "unlockedByCookie", NOT_FOUND],
  ["locked", "raw", "unlockedByCookie", serve(false, CACHE_PRIVATE, false)],
  ["locked", "rawPinned", "unlockedByCookie", serve(false, CACHE_PRIVATE, false)],
  ["locked", "full", "unlockedByCookie", HANDLED],
  ["locked", "compare", "unlockedByCookie", HANDLED],
  ["locked", "comments", "unlockedByCookie", HANDLED],
  ["locked", "view", "unlockedByCookie", HANDLED],

  // A frame token opens the raw page alone.
  ["locked", "raw", "frameToken", serve(false, CACHE_PRIVATE, false)],
  ["locked", "viewer", "frameToken", GATE],
  ["locked", "full", "frameToken", GATE],
  ["locked", "comments", "frameToken", GATE],

  // A pinned version that exists, or not.
  ["versionPresent", "viewerPinned", "anonymous", serve(true, LATEST, true)],
  ["versionPresent", "ogPinned", "anonymous", serve(true, PINNED, true)],
  ["versionMissing", "viewerPinned", "anonymous", NOT_FOUND],
  ["versionMissing", "rawPinned", "anonymous", NOT_FOUND],
  ["versionMissing", "ogPinned", "anonymous", NOT_FOUND],
  ["versionMissing", "compare", "anonymous", NOT_FOUND],
  ["versionMissing", "view", "anonymous", VERSION_NOT_FOUND],
  // The gate comes first where it always has: a locked drop tells nothing of its versions.
  ["lockedVersionMissing", "viewerPinned", "anonymous", GATE],
  ["lockedVersionMissing", "rawPinned", "anonymous", GATE],
  ["lockedVersionMissing", "rawPinned", "unlockedByCookie", NOT_FOUND],
  ["lockedVersionMissing", "view", "anonymous", VERSION_NOT_FOUND],

  // Signed-in people only: members and the listed open it, privately; nobody signed in is sent to sign in
  // from a page and finds nothing elsewhere; anyone else finds nothing at all.
  ["signedIn", "viewer", "member", HANDLED],
  ["signedIn", "viewer", "listed", HANDLED],
  ["signedIn", "viewer", "outsider", NOT_FOUND],
  ["signedIn", "viewer", "anonymous", { answer: "sign_in" }],
  ["signedIn", "raw", "member", serve(false, CACHE_PRIVATE, false)],
  ["signedIn", "og", "member", NOT_FOUND],
  ["signedIn", "view", "member", HANDLED],

  // Restricted: the owner and the list; a member of the org who is not listed finds nothing.
  ...(["viewer", "raw", "full", "compare"] as const).map((name): Row => ["restricted", name, "anonymous", { answer: "sign_in" }]),
  ...(["og", "comments", "view", "unlock", "lock", "shared"] as const).map((name): Row => ["restricted", name, "anonymous", NOT_FOUND]),
  ...(Object.keys(PATHS) as PathName[]).map((name): Row => ["restricted", name, "member", NOT_FOUND]),
  ...(Object.keys(PATHS) as PathName[]).map((name): Row => ["restricted", name, "outsider", NOT_FOUND]),
  ["restricted", "viewer", "owner", HANDLED],
  ["restricted", "viewer", "editor", HANDLED],
  ["restricted", "viewer", "listed", HANDLED],
  ["restricted", "viewerPinned", "listed", HANDLED],
  ["restricted", "raw", "listed", serve(false, CACHE_PRIVATE, false)],
  ["restricted", "rawPinned", "owner", serve(false, CACHE_PRIVATE, false)],
  ["restricted", "og", "owner", NOT_FOUND],
  ["restricted", "ogPinned", "listed", NOT_FOUND],
  ["restricted", "full", "listed", HANDLED],
  ["restricted", "compare", "editor", HANDLED],
  ["restricted", "comments", "listed", HANDLED],
  ["restricted", "view", "listed", HANDLED],
  ["restricted", "shared", "owner", NOT_FOUND],
  // Expiry and the passcode still apply to the people it admits, and to them only.
  ["restrictedExpired", "viewer", "listed", EXPIRED],
  ["restrictedExpired", "viewer", "outsider", NOT_FOUND],
  ["restrictedExpired", "viewer", "anonymous", { answer: "sign_in" }],
  ["restrictedLocked", "viewer", "listed", GATE],
  ["restrictedLocked", "raw", "owner", serve(false, CACHE_PRIVATE, false)],
  ["restrictedLocked", "viewer", "editor", serve(false, null, false)],
  ["restrictedLocked", "viewer", "listedUnlocked", HANDLED],
  ["restrictedLocked", "raw", "listedUnlocked", serve(false, CACHE_PRIVATE, false)],
  ["restrictedLocked", "viewer", "outsider", NOT_FOUND],
  ["restrictedVersionMissing", "rawPinned", "listed", NOT_FOUND],
  ["restrictedVersionMissing", "view", "listed", VERSION_NOT_FOUND],

  // The live version document: shared only for a public drop without a passcode; a locked drop's count
  // is for those who unlocked it; past the expiry, and to whoever may not open the drop, nothing.
  ["indexable", "live", "anonymous", serve(false, LIVE, true)],
  ["expiring", "live", "anonymous", serve(false, "public, max-age=0, s-maxage=2, stale-while-revalidate=3", true)],
  ["expired", "live", "anonymous", NOT_FOUND],
  ["expired", "live", "owner", NOT_FOUND],
  ["locked", "live", "anonymous", GATE],
  ["locked", "live", "frameToken", GATE],
  ["locked", "live", "unlockedByCookie", serve(false, CACHE_PRIVATE, false)],
  ["locked", "live", "owner", serve(false, CACHE_PRIVATE, false)],
  ["signedIn", "live", "anonymous", NOT_FOUND],
  ["signedIn", "live", "member", serve(false, CACHE_PRIVATE, false)],
  ["restricted", "live", "anonymous", NOT_FOUND],
  ["restricted", "live", "listed", serve(false, CACHE_PRIVATE, false)],
];

describe("decideAccess", () => {
  it.each(TABLE)("%s drop, %s, %s viewer", (state, pathName, viewer, expected) => {
    expect(decide(state, pathName, viewer)).toEqual(expected);
  });

  it("answers a path that names nothing with 404 before anything about the drop", () => {
    for (const url of ["/p/NOT_A_SLUG", `/p/${SLUG}/raw?v=0`, `/p/${SLUG}/og.png?v=1&v=1`, `/p/${SLUG}/full?v=abc`, `/p/${SLUG}/view?v=1&x=2`, `/p/${SLUG}/shared/1`, `/p/${SLUG}/live.json?v=1`, `/p/${SLUG}/live.json?x`]) {
      const parsed = parsePublicPath(url)!;
      expect(namesNothing(parsed)).toBe(true);
      expect(decideAccess(parsed, STATES.expired, unlockedByCookie, AT)).toEqual(NOT_FOUND);
    }
    for (const url of [`/p/${SLUG}?v=abc`, `/p/${SLUG}/compare?from=x`, `/p/${SLUG}/raw?v=1&v=x`]) expect(namesNothing(parsePublicPath(url)!)).toBe(false);
  });
});
