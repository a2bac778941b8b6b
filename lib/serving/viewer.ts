// What the public viewer page at /p/<slug> shows. A locked drop yields only the gate: no title,
// description, versions or context until the unlock cookie verifies against the current passcode.
import { now } from "@/lib/clock";
import { viewerThreadPage, type ViewerThreadPage } from "@/lib/comments/comments";
import { getConfig } from "@/lib/config";
import { dashboardDropPath } from "@/lib/dashboard/paths";
import { db } from "@/lib/db";
import { decideAccess, dropStateOf, type PasscodeUnlock, type Viewer } from "@/lib/drops/access-decision";
import { parseVersionParam, publicPath, publicUrl, routeAt, SLUG_PATTERN, viewerPath } from "@/lib/drops/public-urls";
import { cardContent, cardTag } from "@/lib/previews/card-tag";
import type { CommentPolicy } from "@/lib/schemas/comments";
import { createViewerPass } from "@/lib/sharing/pass";
import { standingOn, viewerOn } from "@/lib/sharing/standing";
import { sessionUserId } from "@/lib/auth/session-cookie";
import { createFrameToken, FRAME_TOKEN_TTL_MS, passcodeUnlock } from "./unlock";
import { CONTEXT_HEAD_CHARS, versionChoiceLabel } from "./version-choice";

/** The comments panel: who may post, and one page of the thread. */
export type ViewerComments = { policy: Exclude<CommentPolicy, "off"> } & ViewerThreadPage;

const COMMENTS_PAGE_PARAM = /^[1-9][0-9]{0,3}$/;

export type ViewerPage =
  | { kind: "not_found" }
  /** A drop for signed-in people, and nobody is signed in: the sign-in page, back to `path`. */
  | { kind: "sign_in"; path: string }
  | { kind: "gate"; slug: string; version: string | null }
  /** Past its expiry (Unix ms), shown to whoever may extend it, with the days the purge keeps it and the time of this render. */
  | { kind: "expired"; slug: string; title: string; expiresAt: number; retentionDays: number; renderedAt: number; manageHref: string | null }
  | {
      kind: "drop";
      slug: string;
      title: string;
      description: string | null;
      /** Locked: shown to a browser that unlocked it, or to its owner or an editor, whom the passcode does not stop. */
      locked: boolean;
      /** This browser holds an unlock it may forget ("Lock again"). */
      unlockedHere: boolean;
      /** The owner's way to the drop's dashboard page; null for everyone else (and on a public drop's shared page). */
      manageHref: string | null;
      version: number;
      latestVersion: number;
      /** Newest first, each with the picker's label (versionChoiceLabel). */
      versions: { number: number; label: string }[];
      context: string | null;
      frameSrc: string;
      /** "Open full page": the raw URL itself, or for a locked drop /p/<slug>/full, which hands out a token for a minute. */
      fullPageHref: string;
      url: string;
      /** Null while the owner has comments off. The same for every viewer of a public drop: the page is cached. */
      comments: ViewerComments | null;
      /** Search engines may index it (lib/serving/robots.ts). */
      indexable: boolean;
      /** The preview image of the version shown; null for a locked or non-public drop, whose title it would show. */
      imageUrl: string | null;
    };

/** The start of each version's context, read as a prefix in the database: contexts can be long, and a drop has many versions. */
async function contextHeads(dropId: string): Promise<Map<number, string>> {
  const rows = await db().$queryRaw<{ number: number | bigint; head: string }[]>`
    SELECT "number", substr("context", 1, CAST(${CONTEXT_HEAD_CHARS + 1} AS INTEGER)) AS "head" FROM "Version" WHERE "dropId" = ${dropId} AND "context" IS NOT NULL`;
  return new Map(rows.map((row) => [Number(row.number), row.head]));
}

/** A drop with a passcode, as this browser unlocked it: the frame token must not outlive the unlock. */
export type Unlock = { passcodeHash: string; unlock: PasscodeUnlock };

/**
 * The raw URL a page frames for one version: pinned, so the frame never switches content under the
 * page around it; for a drop with a passcode, with a frame token (only ever handed to an unlocked viewer);
 * for a drop for some people only or seen by its owner or an editor, with the viewer's pass
 * (lib/sharing/pass.ts).
 */
export function frameSrc(slug: string, version: number, unlock: Unlock | null, accountId: string | null = null): string {
  const token = unlock === null ? null : createFrameToken(slug, unlock.passcodeHash, unlock.unlock.until, FRAME_TOKEN_TTL_MS);
  return publicUrl(getConfig().contentOrigin, slug, "raw", { v: version, unlock: token, pass: accountId === null ? null : createViewerPass(slug, accountId) });
}

type ViewerDropRow = { id: string; ownerId: string; access: string; expiresAt: Date | null; passcodeHash: string | null; indexable: boolean };

/** The decision's view of a drop read with Prisma. */
function dropState(drop: ViewerDropRow, versionExists?: boolean) {
  return dropStateOf(drop, versionExists);
}

/** The drop's dashboard page, for its owner and its editors (who may act on it there). */
function manageHref(viewer: Viewer, slug: string): string | null {
  return viewer.kind === "account" && (viewer.standing.role === "owner" || viewer.standing.role === "editor") ? dashboardDropPath(slug) : null;
}

/**
 * The drop's dashboard page when this browser's session is its owner's or an editor's, else null (for a
 * missing drop too, so the answer says nothing to anyone else). The shared public page asks it from the browser.
 */
export async function manageHrefForSession(slug: string, cookieHeader: string | null): Promise<string | null> {
  const accountId = await sessionUserId(cookieHeader ?? undefined);
  if (accountId === null || !SLUG_PATTERN.test(slug)) return null;
  const drop = await db().drop.findUnique({ where: { slug }, select: { id: true, ownerId: true } });
  return drop && manageHref({ kind: "account", accountId, standing: await standingOn(drop, accountId), unlock: null }, slug);
}

function viewerOf(drop: ViewerDropRow | null, slug: string, cookieHeader: string | null) {
  return viewerOn(drop, { slug, cookieHeader }, passcodeUnlock(slug, drop?.passcodeHash ?? null, cookieHeader));
}

/** `commentsPage`: the query's `comments_page`; anything but a page number is the first page. */
export async function getViewerPage(slug: string, versionParam: string | undefined, cookieHeader: string | null, commentsPage?: string): Promise<ViewerPage> {
  const path = routeAt("viewer", slug, parseVersionParam(versionParam));
  if (path.slug === null) return { kind: "not_found" };
  const drop = await db().drop.findUnique({
    where: { slug },
    select: { id: true, ownerId: true, access: true, title: true, description: true, passcodeHash: true, latestVersion: true, expiresAt: true, commentPolicy: true, indexable: true },
  });
  const viewer = await viewerOf(drop, slug, cookieHeader);
  const at = now();
  const beforeVersions = decideAccess(path, drop && dropState(drop), viewer, at);
  if (beforeVersions.answer === "sign_in") return { kind: "sign_in", path: viewerPath(slug, typeof path.version === "number" ? path.version : null) };
  // proxy.ts answers an expired drop's viewer with 410 first; should one get past it, nothing is shown.
  if (beforeVersions.answer === "gate") return { kind: "gate", slug, version: typeof path.version === "number" ? String(path.version) : null };
  if (beforeVersions.answer === "expired" && beforeVersions.renewable && drop?.expiresAt) {
    const { expiredRetentionDays: retentionDays } = getConfig();
    return { kind: "expired", slug, title: drop.title, expiresAt: drop.expiresAt.getTime(), retentionDays, renderedAt: at, manageHref: manageHref(viewer, slug) };
  }
  if (beforeVersions.answer !== "serve" || drop === null) return { kind: "not_found" };

  const number = typeof path.version === "number" ? path.version : drop.latestVersion;
  const [versions, heads] = await Promise.all([
    db().version.findMany({ where: { dropId: drop.id }, orderBy: { number: "desc" }, select: { number: true, createdAt: true } }),
    contextHeads(drop.id),
  ]);
  const selected = versions.some((version) => version.number === number)
    ? await db().version.findUnique({ where: { dropId_number: { dropId: drop.id, number } }, select: { context: true } })
    : null;
  const decision = decideAccess(path, dropState(drop, selected !== null), viewer, at);
  if (decision.answer !== "serve" || selected === null) return { kind: "not_found" };

  // Read only past the gate above: a locked drop's thread is for viewers who unlocked it.
  const policy = drop.commentPolicy as CommentPolicy;
  const page = commentsPage !== undefined && COMMENTS_PAGE_PARAM.test(commentsPage) ? Number(commentsPage) : 1;
  const comments = policy === "off" ? null : { policy, ...(await viewerThreadPage(drop.id, number, page)) };

  const { publicUrl: origin } = getConfig();
  const unlock = drop.passcodeHash === null || viewer.unlock === null ? null : { passcodeHash: drop.passcodeHash, unlock: viewer.unlock };
  // viewerOn names an account only on a drop for some people or with a passcode: the frame carries
  // that viewer's pass, which the raw page on CONTENT_ORIGIN reads in place of the session.
  const frame = frameSrc(slug, number, unlock, viewer.kind === "account" ? viewer.accountId : null);
  return {
    kind: "drop",
    slug,
    title: drop.title,
    description: drop.description,
    locked: drop.passcodeHash !== null,
    unlockedHere: unlock !== null,
    manageHref: manageHref(viewer, slug),
    version: number,
    latestVersion: drop.latestVersion,
    versions: versions.map((version) => ({
      number: version.number,
      label: versionChoiceLabel({ number: version.number, createdAt: version.createdAt.getTime(), contextHead: heads.get(version.number) ?? null }, drop.latestVersion),
    })),
    context: selected.context,
    frameSrc: frame,
    fullPageHref: drop.passcodeHash === null ? frame : publicPath(slug, "full", { v: number }),
    url: `${origin}${viewerPath(slug, typeof path.version === "number" ? number : null)}`,
    comments,
    indexable: decision.indexable,
    imageUrl: decision.sharedCache ? publicUrl(origin, slug, "og", { v: number, card: cardTag(slug, cardContent(drop, number)) }) : null,
  };
}

/**
 * Whether this browser may see the drop at all: it exists, has not expired, and has no passcode or a
 * valid unlock. A not-found page offers the latest version only then, so it reveals nothing more.
 */
export async function isDropVisible(slug: string, cookieHeader: string | null): Promise<boolean> {
  const path = routeAt("viewer", slug);
  if (path.slug === null) return false;
  const drop = await db().drop.findUnique({ where: { slug }, select: { id: true, ownerId: true, access: true, passcodeHash: true, expiresAt: true, indexable: true } });
  return decideAccess(path, drop && dropState(drop), await viewerOf(drop, slug, cookieHeader), now()).answer === "serve";
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
