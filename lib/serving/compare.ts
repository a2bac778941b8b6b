// What the compare page at /p/<slug>/compare shows: two versions of a drop rendered side by side with
// their changed blocks, and a diff of their source by line and, within changed lines, by word. The
// same gate as the viewer: a drop with a passcode shows nothing of itself (not even its title) until
// this browser has unlocked it.
import { now } from "@/lib/clock";
import { db } from "@/lib/db";
import { decideAccess, dropStateOf } from "@/lib/drops/access-decision";
import { publicPath, routeAt } from "@/lib/drops/public-urls";
import { versionNumberSchema } from "@/lib/schemas/common";
import type { RenderedChanges } from "./compare-blocks";
import type { CompareDiff, CompareSide } from "./compare-diff";
import { COMPARE_LIMITS } from "./compare-diff";
import { diffOffThread, type CompareResult } from "./compare-pool";
import { readServedBlob } from "./lookup";
import { viewerOn } from "@/lib/sharing/standing";
import { passcodeUnlock } from "./unlock";
import { frameSrc } from "./viewer";

export { COMPARE_LIMITS, type CompareDiff, type CompareHunk, type CompareLine, type CompareSide, type CompareWord } from "./compare-diff";
export type { RenderedChange, RenderedChanges } from "./compare-blocks";

export type ComparePage =
  | { kind: "not_found" }
  /** A drop for signed-in people, and nobody is signed in: the sign-in page, back to `path`. */
  | { kind: "sign_in"; path: string }
  | { kind: "gate"; slug: string }
  | {
      kind: "compare";
      slug: string;
      title: string;
      versions: number[];
      from: CompareSide;
      to: CompareSide;
      diff: CompareDiff;
      rendered: RenderedChanges;
    };

/** A version named in the query: absent gives `fallback`, anything but one well-formed number gives null. */
function versionParam(value: string | string[] | undefined, fallback: number): number | null {
  if (value === undefined) return fallback;
  const parsed = versionNumberSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/**
 * `from` and `to` default to the version before the latest and the latest. A version the drop does not
 * have (deleted, never made, malformed) is not_found, which the page answers with a way to the latest.
 */
export async function getComparePage(slug: string, query: { from?: string | string[]; to?: string | string[] }, cookieHeader: string | null): Promise<ComparePage> {
  const path = routeAt("compare", slug);
  if (path.slug === null) return { kind: "not_found" };
  const drop = await db().drop.findUnique({
    where: { slug },
    select: { id: true, ownerId: true, access: true, title: true, passcodeHash: true, latestVersion: true, expiresAt: true, indexable: true },
  });
  const viewer = await viewerOn(drop, { slug, cookieHeader }, passcodeUnlock(slug, drop?.passcodeHash ?? null, cookieHeader));
  const at = now();
  const state = drop && dropStateOf(drop);
  const beforeVersions = decideAccess(path, state, viewer, at);
  if (beforeVersions.answer === "sign_in") return { kind: "sign_in", path: publicPath(slug, "compare") };
  // proxy.ts answers an expired drop's pages with 410 first; should one get past it, nothing is shown.
  if (beforeVersions.answer === "gate") return { kind: "gate", slug };
  if (beforeVersions.answer !== "serve" || drop === null || state === null) return { kind: "not_found" };
  const unlock = drop.passcodeHash === null || viewer.unlock === null ? null : { passcodeHash: drop.passcodeHash, unlock: viewer.unlock };
  // viewerOn names an account only on a drop for some people or with a passcode, whose frames carry
  // that viewer's pass.
  const pass = viewer.kind === "account" ? viewer.accountId : null;

  const versions = (await db().version.findMany({ where: { dropId: drop.id }, orderBy: { number: "desc" }, select: { number: true } })).map((version) => version.number);
  const to = versionParam(query.to, drop.latestVersion);
  const from = versionParam(query.from, versions.find((number) => to !== null && number < to) ?? to ?? drop.latestVersion);
  const versionExists = from !== null && to !== null && versions.includes(from) && versions.includes(to);
  if (decideAccess(path, { ...state, versionExists }, viewer, at).answer !== "serve" || from === null || to === null) return { kind: "not_found" };

  return {
    kind: "compare",
    slug,
    title: drop.title,
    versions,
    from: { version: from, frameSrc: frameSrc(slug, from, unlock, pass) },
    to: { version: to, frameSrc: frameSrc(slug, to, unlock, pass) },
    ...(await compareVersions(drop.id, from, to)),
  };
}

const CACHE_KEY = Symbol.for("htmldrop.compare-diffs");
type CacheHolder = { [CACHE_KEY]?: Map<string, CompareResult> };

/** The two versions' bounded diff and rendered changes, from memory when the same two contents were compared lately. */
async function compareVersions(dropId: string, from: number, to: number): Promise<{ diff: CompareDiff; rendered: RenderedChanges }> {
  const cache = ((globalThis as CacheHolder)[CACHE_KEY] ??= new Map());
  const rows = await db().version.findMany({ where: { dropId, number: { in: [from, to] } }, select: { number: true, blobSha: true } });
  const sha = (number: number) => rows.find((row) => row.number === number)?.blobSha;
  const key = `${sha(from)}:${sha(to)}`;
  const cached = cache.get(key);
  if (cached) {
    // Least recently used first: a Map iterates in insertion order.
    cache.delete(key);
    cache.set(key, cached);
    return { diff: cached.source, rendered: cached.rendered };
  }
  // The bytes on the serving connections (Prisma's base64 held the event loop about 100 ms per 2 MB),
  // the diff on a worker thread: two 2 MB one-line versions held it about 0.25 s each (issue 28, item 9).
  const [fromBlob, toBlob] = await Promise.all([readServedBlob(sha(from)!), readServedBlob(sha(to)!)]);
  if (!fromBlob || !toBlob) return { diff: null, rendered: { changes: null, reason: "too_large" } };
  const result = await diffOffThread({ from, to, fromBytes: fromBlob.bytes, toBytes: toBlob.bytes });
  cache.set(key, result);
  for (const oldest of cache.keys()) {
    if (cache.size <= COMPARE_LIMITS.cachedDiffs) break;
    cache.delete(oldest);
  }
  return { diff: result.source, rendered: result.rendered };
}
