// What changed between two versions of a drop: the unified diff REST and MCP answer. The diff itself
// (text only, bounded) is lib/drops/diff-text.ts.
import { db } from "@/lib/db";
import { ApiError } from "@/lib/errors";
import { getDropFor } from "./access";
import { countLines, diffSources, toHunks, type VersionDiff } from "./diff-text";

/** The HTML of two versions of a drop (any drop: callers decide who may see it). */
export async function readVersionSources(dropId: string, slug: string, from: number, to: number): Promise<[string, string]> {
  const versions = await db().version.findMany({ where: { dropId, number: { in: [from, to] } }, select: { number: true, blob: { select: { bytes: true } } } });
  const source = (number: number) => {
    const version = versions.find((candidate) => candidate.number === number);
    if (!version) throw new ApiError("version_not_found", `Drop ${slug} has no version ${number}.`);
    return Buffer.from(version.blob.bytes).toString("utf8");
  };
  return [source(from), source(to)];
}

/** The diff between two versions of a drop whose HTML is already read. */
export function diffVersionSources(slug: string, from: number, to: number, fromText: string, toText: string): VersionDiff {
  const { patch, unified } = diffSources(`v${from}/index.html`, `v${to}/index.html`, fromText, toText);
  const hunks = toHunks(patch);
  return { slug, from, to, addedLines: countLines(hunks, "added"), removedLines: countLines(hunks, "removed"), hunks, unified };
}

/** GET /api/drops/{slug}/diff and MCP diff_versions: two versions of one of the caller's drops. */
export async function diffVersions(userId: string, slug: string, from: number, to: number): Promise<VersionDiff> {
  const drop = await getDropFor(userId, slug, "editor");
  const [fromText, toText] = await readVersionSources(drop.id, slug, from, to);
  return diffVersionSources(slug, from, to, fromText, toText);
}
