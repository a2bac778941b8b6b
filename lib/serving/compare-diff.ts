// The compare page's diff as it is shown, bounded (text only, no database): computed on a worker
// thread (compare-worker.ts), so a diff of two 2 MB versions never holds the event loop.
import { isApiError } from "@/lib/errors";
import { diffSourceHunks, type DiffHunk, type DiffLine } from "@/lib/drops/diff-text";

/**
 * What the page shows of a diff, at most: anyone may ask for it, so neither its work nor its size may
 * grow with the versions' (two 2 MB one-line versions made an 8 MB page that took 0.5 s to render).
 */
export const COMPARE_LIMITS = {
  /** Characters shown of one source line; the rest is counted, not sent. */
  lineMaxChars: 300,
  /** Table rows shown (changed lines and the unchanged ones around them); the rest are counted, not sent. */
  maxRows: 500,
  /** Diffs kept in memory, by the two versions' content: a version's bytes never change. */
  cachedDiffs: 16,
} as const;

export type CompareSide = { version: number; frameSrc: string };
/** A line as shown: its text cut at COMPARE_LIMITS.lineMaxChars, and how many characters were cut. */
export type CompareLine = DiffLine & { hiddenChars: number };
export type CompareHunk = Omit<DiffHunk, "lines"> & { lines: CompareLine[] };
/** Null when the versions differ too much to diff (lib/drops/diff.ts's bounds). `hiddenLines`: rows past COMPARE_LIMITS.maxRows. */
export type CompareDiff = { addedLines: number; removedLines: number; hunks: CompareHunk[]; hiddenLines: number } | null;

/** The first `max` characters of a line (never half a surrogate pair), and how many follow. */
function cutLine(line: DiffLine): CompareLine {
  const text = line.text.replace(/\r?\n$/, "");
  if (text.length <= COMPARE_LIMITS.lineMaxChars) return { ...line, text, hiddenChars: 0 };
  let end = COMPARE_LIMITS.lineMaxChars;
  if (/[\uDC00-\uDFFF]/.test(text[end]!)) end--;
  return { ...line, text: text.slice(0, end), hiddenChars: text.length - end };
}

/** The diff as the page shows it: whole hunks while they fit in maxRows (at least part of the first), each line cut. */
export function bounded(hunks: DiffHunk[]): NonNullable<CompareDiff> {
  const count = (kind: DiffLine["kind"]) => hunks.reduce((sum, hunk) => sum + hunk.lines.filter((line) => line.kind === kind).length, 0);
  const shown: CompareHunk[] = [];
  let rows = 0;
  let hiddenLines = 0;
  for (const hunk of hunks) {
    const room = COMPARE_LIMITS.maxRows - rows;
    if (room <= 0 || (shown.length > 0 && hunk.lines.length > room)) {
      hiddenLines += hunk.lines.length;
      continue;
    }
    const lines = hunk.lines.slice(0, room);
    hiddenLines += hunk.lines.length - lines.length;
    rows += lines.length;
    shown.push({ ...hunk, lines: lines.map(cutLine) });
  }
  return { addedLines: count("added"), removedLines: count("removed"), hunks: shown, hiddenLines };
}

/** The page's diff of two versions' HTML; null when they differ too much to diff (lib/drops/diff-text.ts's bounds). */
export function compareSources(from: number, to: number, fromText: string, toText: string): CompareDiff {
  try {
    return bounded(diffSourceHunks(from, to, fromText, toText));
  } catch (error) {
    if (isApiError(error) && error.code === "diff_too_large") return null;
    throw error;
  }
}
