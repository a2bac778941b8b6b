// What changed between two versions of a drop, as a line diff of their HTML source: the unified diff
// REST and MCP answer, and the hunks the compare page shows. Myers' algorithm costs O((N+M)·D) for D
// changed lines, so two 2 MB documents could hold the event loop for seconds: the unchanged head and
// tail are cut off first (linear), and what remains is bounded in lines, in changed lines and in time.
// Text only (no database): the compare page's worker thread (lib/serving/compare-worker.ts) imports it.
import { FILE_HEADERS_ONLY, formatPatch, structuredPatch, type StructuredPatch } from "diff";
import { ApiError } from "@/lib/errors";

/**
 * Bounds measured with `npm run bench:diff` on the 2-core development box: within them a diff of two
 * 2 MB versions held the event loop at most about 0.25 s (Myers' cost grows with the square of the
 * changed lines: 1,000 took 0.5 s). Past any of them the answer is 422 diff_too_large, never a partial diff.
 */
export const DIFF_LIMITS = {
  /** Lines left on either side once the common head and tail are cut off. */
  maxLines: 20_000,
  /** Lines added plus lines removed. */
  maxChangedLines: 400,
  /** A safety net over the two above: slower hardware fails the same diffs instead of blocking longer. */
  timeoutMs: 200,
} as const;

/** Lines of unchanged source shown around each change. */
const CONTEXT_LINES = 3;

export type DiffLine = { kind: "context" | "added" | "removed"; text: string; oldNumber: number | null; newNumber: number | null };
export type DiffHunk = { oldStart: number; newStart: number; lines: DiffLine[] };
export type VersionDiff = { slug: string; from: number; to: number; addedLines: number; removedLines: number; hunks: DiffHunk[]; unified: string };

/** How many lines `text` holds, counting at most `limit + 1`. */
function countLinesUpTo(text: string, limit: number): number {
  let count = text.length > 0 && !text.endsWith("\n") ? 1 : 0;
  for (let at = text.indexOf("\n"); at !== -1 && count <= limit; at = text.indexOf("\n", at + 1)) count++;
  return count;
}

/**
 * Where the two texts stop sharing whole lines from the start and from the end, found character by
 * character (no allocation) and then moved back to line boundaries, keeping `context` lines on each side.
 */
function changedRegion(a: string, b: string, context: number): { start: number; endA: number; endB: number; linesBefore: number } {
  const shorter = Math.min(a.length, b.length);
  let start = 0;
  while (start < shorter && a.charCodeAt(start) === b.charCodeAt(start)) start++;
  // Back to the start of the line the first difference is on, then `context` lines further. (A negative
  // fromIndex would make lastIndexOf look at index 0.)
  const lineStart = (before: number) => (before < 0 ? 0 : a.lastIndexOf("\n", before) + 1);
  if (!(start === shorter && a.length === b.length)) start = lineStart(start - 1);
  for (let kept = 0; kept < context && start > 0; kept++) start = lineStart(start - 2);
  let tail = 0;
  while (tail < shorter - start && a.charCodeAt(a.length - 1 - tail) === b.charCodeAt(b.length - 1 - tail)) tail++;
  // Forward to the end of the line the last difference is on, then `context` lines further.
  let endA = a.length - tail;
  let endB = b.length - tail;
  // Both ends must fall after a newline. What follows them is the same text in both, so moving both
  // to the end of the line `a` is in lands both on a line boundary.
  const lineEnd = (from: number) => {
    const at = a.indexOf("\n", from);
    return at === -1 ? a.length : at + 1;
  };
  const atLineStart = (text: string, at: number) => at === 0 || text[at - 1] === "\n";
  for (let kept = atLineStart(a, endA) && atLineStart(b, endB) ? 0 : -1; kept < context && endA < a.length; kept++) {
    const next = lineEnd(endA);
    endB += next - endA;
    endA = next;
  }
  let linesBefore = 0;
  for (let at = a.indexOf("\n"); at !== -1 && at < start; at = a.indexOf("\n", at + 1)) linesBefore++;
  return { start, endA, endB, linesBefore };
}

function tooLarge(reason: string): ApiError {
  return new ApiError("diff_too_large", `These versions differ too much to diff here (${reason}). Compare them by downloading both from /p/{slug}/raw?v=N.`, {
    max_lines: DIFF_LIMITS.maxLines,
    max_changed_lines: DIFF_LIMITS.maxChangedLines,
  });
}

/**
 * The line diff of two documents; `oldName` and `newName` head the unified diff, which is empty when
 * nothing changed (as `diff -u` prints nothing). Throws diff_too_large past DIFF_LIMITS.
 */
export function diffSources(oldName: string, newName: string, oldText: string, newText: string): { patch: StructuredPatch; unified: string } {
  const patch = diffPatch(oldName, newName, oldText, newText);
  return { patch, unified: patch.hunks.length === 0 ? "" : formatPatch(patch, FILE_HEADERS_ONLY) };
}

/** diffSources without the unified text, which pages that show hunks never read (for two 2 MB lines, 4 MB built for nothing). */
function diffPatch(oldName: string, newName: string, oldText: string, newText: string): StructuredPatch {
  const region = changedRegion(oldText, newText, CONTEXT_LINES);
  const oldMiddle = oldText.slice(region.start, region.endA);
  const newMiddle = newText.slice(region.start, region.endB);
  if (countLinesUpTo(oldMiddle, DIFF_LIMITS.maxLines) > DIFF_LIMITS.maxLines || countLinesUpTo(newMiddle, DIFF_LIMITS.maxLines) > DIFF_LIMITS.maxLines) {
    throw tooLarge(`the changed region spans more than ${DIFF_LIMITS.maxLines} lines`);
  }
  const patch = structuredPatch(oldName, newName, oldMiddle, newMiddle, undefined, undefined, {
    context: CONTEXT_LINES,
    maxEditLength: DIFF_LIMITS.maxChangedLines,
    timeout: DIFF_LIMITS.timeoutMs,
  });
  if (!patch) throw tooLarge(`more than ${DIFF_LIMITS.maxChangedLines} changed lines, or more than ${DIFF_LIMITS.timeoutMs} ms of work`);
  for (const hunk of patch.hunks) {
    hunk.oldStart += region.linesBefore;
    hunk.newStart += region.linesBefore;
  }
  return patch;
}

/** The hunks with each line's kind and numbers, for pages that show the diff. */
export function toHunks(patch: StructuredPatch): DiffHunk[] {
  return patch.hunks.map((hunk) => {
    let oldNumber = hunk.oldStart;
    let newNumber = hunk.newStart;
    const lines: DiffLine[] = [];
    for (const line of hunk.lines) {
      const marker = line[0];
      const text = line.slice(1);
      // "\ No newline at end of file" belongs to the line before it.
      if (marker === "\\") continue;
      if (marker === "+") lines.push({ kind: "added", text, oldNumber: null, newNumber: newNumber++ });
      else if (marker === "-") lines.push({ kind: "removed", text, oldNumber: oldNumber++, newNumber: null });
      else lines.push({ kind: "context", text, oldNumber: oldNumber++, newNumber: newNumber++ });
    }
    return { oldStart: hunk.oldStart, newStart: hunk.newStart, lines };
  });
}

export function countLines(hunks: DiffHunk[], kind: DiffLine["kind"]): number {
  return hunks.reduce((sum, hunk) => sum + hunk.lines.filter((line) => line.kind === kind).length, 0);
}

/** The hunks between two versions' HTML (callers decide who may see it). Throws diff_too_large past DIFF_LIMITS. */
export function diffSourceHunks(from: number, to: number, fromText: string, toText: string): DiffHunk[] {
  return toHunks(diffPatch(`v${from}/index.html`, `v${to}/index.html`, fromText, toText));
}
