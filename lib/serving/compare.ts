// What the compare page at /p/<slug>/compare shows: two versions of a drop rendered side by side and a
// line diff of their source. The same gate as the viewer: a drop with a passcode shows nothing of
// itself (not even its title) until this browser has unlocked it.
import { now } from "@/lib/clock";
import { db } from "@/lib/db";
import { diffVersionSources, readVersionSources, type DiffHunk } from "@/lib/drops/diff";
import { isExpired } from "@/lib/drops/expiry";
import { isApiError } from "@/lib/errors";
import { SLUG_PATTERN, versionNumberSchema } from "@/lib/schemas/common";
import { unlockCookieExpiry } from "./unlock";
import { frameSrc } from "./viewer";

export type CompareSide = { version: number; frameSrc: string };
/** Null when the versions differ too much to diff (lib/drops/diff.ts's bounds). */
export type CompareDiff = { addedLines: number; removedLines: number; hunks: DiffHunk[] } | null;

export type ComparePage =
  | { kind: "not_found" }
  | { kind: "gate"; slug: string }
  | {
      kind: "compare";
      slug: string;
      title: string;
      versions: number[];
      from: CompareSide;
      to: CompareSide;
      diff: CompareDiff;
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
  if (!SLUG_PATTERN.test(slug)) return { kind: "not_found" };
  const drop = await db().drop.findUnique({ where: { slug }, select: { id: true, title: true, passcodeHash: true, latestVersion: true, expiresAt: true } });
  // proxy.ts answers an expired drop's pages with 410 first; should one get past it, nothing is shown.
  if (!drop || isExpired(drop.expiresAt, now())) return { kind: "not_found" };
  const cookieExpiresAt = drop.passcodeHash === null ? null : unlockCookieExpiry(slug, drop.passcodeHash, cookieHeader);
  if (drop.passcodeHash !== null && cookieExpiresAt === null) return { kind: "gate", slug };
  const unlock = drop.passcodeHash === null ? null : { passcodeHash: drop.passcodeHash, cookieExpiresAt: cookieExpiresAt! };

  const versions = (await db().version.findMany({ where: { dropId: drop.id }, orderBy: { number: "desc" }, select: { number: true } })).map((version) => version.number);
  const to = versionParam(query.to, drop.latestVersion);
  const from = versionParam(query.from, versions.find((number) => to !== null && number < to) ?? to ?? drop.latestVersion);
  if (from === null || to === null || !versions.includes(from) || !versions.includes(to)) return { kind: "not_found" };

  let diff: CompareDiff = null;
  try {
    const [fromText, toText] = await readVersionSources(drop.id, slug, from, to);
    diff = diffVersionSources(slug, from, to, fromText, toText);
  } catch (error) {
    if (!(isApiError(error) && error.code === "diff_too_large")) throw error;
  }
  return {
    kind: "compare",
    slug,
    title: drop.title,
    versions,
    from: { version: from, frameSrc: frameSrc(slug, from, unlock) },
    to: { version: to, frameSrc: frameSrc(slug, to, unlock) },
    diff,
  };
}
