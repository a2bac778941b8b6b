// The compare page's diff as it is shown, bounded (text only, no database): computed on a worker
// thread (compare-worker.ts), so a diff of two 2 MB versions never holds the event loop. Lines come from
// the line diff (lib/drops/diff-text.ts); within each changed pair of lines, the words that changed.
import { diffWordsWithSpace } from "diff";
import { isApiError } from "@/lib/errors";
import { diffSourceHunks, type DiffHunk, type DiffLine } from "@/lib/drops/diff-text";

/**
 * What the page shows of a diff, at most: anyone may ask for it, so neither its work nor its size may
 * grow with the versions' (two 2 MB one-line versions made an 8 MB page that took 0.5 s to render).
 */
export const COMPARE_LIMITS = {
  /** Characters shown of one source line; the rest is counted, not sent. */
  lineMaxChars: 300,
  /** Characters shown before a cut line's first change, when the change lies past the first lineMaxChars. */
  lineLeadChars: 60,
  /** Table rows shown (changed lines and the unchanged ones around them); the rest are counted, not sent. */
  maxRows: 500,
  /** Diffs kept in memory, by the two versions' content: a version's bytes never change. */
  cachedDiffs: 16,
  /**
   * Characters of a removed line and the added line paired with it diffed word by word, both together,
   * once the start and end they share are set aside (linear, however long the lines). A pair past it,
   * or past wordDiffMaxEdits, is shown as two whole changed lines, as before words were marked.
   */
  wordDiffMaxChars: 2_000,
  /** Words removed plus added in one pair (Myers' cost grows with it). */
  wordDiffMaxEdits: 100,
  /** wordDiffMaxChars for all of a page's pairs together: the pairs after it are shown as whole lines. */
  wordDiffTotalChars: 20_000,
  /**
   * Tags plus runs of text between spaces, per version, past which the rendered view marks nothing:
   * parsing (compare-blocks.ts) costs about 1 µs per run of text and 5 µs per tag, whatever the characters.
   */
  renderedMaxTokens: 30_000,
  /** Blocks removed plus added past which the rendered view marks nothing (Myers, as above). */
  renderedMaxChangedBlocks: 400,
} as const;

export type CompareSide = { version: number; frameSrc: string };
/** A stretch of a shown line: `changed` words are the ones removed from (or added to) its paired line. */
export type CompareWord = { text: string; changed: boolean };
/**
 * A line as shown: at most COMPARE_LIMITS.lineMaxChars of it, with how many characters were left out
 * before and after. `words` splits the shown text for a line paired with a changed line, null otherwise.
 */
export type CompareLine = DiffLine & { hiddenBefore: number; hiddenChars: number; words: CompareWord[] | null };
export type CompareHunk = Omit<DiffHunk, "lines"> & { lines: CompareLine[] };
/** Null when the versions differ too much to diff (lib/drops/diff.ts's bounds). `hiddenLines`: rows past COMPARE_LIMITS.maxRows. */
export type CompareDiff = { addedLines: number; removedLines: number; hunks: CompareHunk[]; hiddenLines: number } | null;

/** Both lines of a pair split into words, and where their first change is (the same offset in both). */
type PairMarks = { removed: CompareWord[]; added: CompareWord[]; changeAt: number };

const WORD_CHAR = /[\p{L}\p{N}_]/u;
const isHighSurrogate = (text: string, at: number) => /[\uD800-\uDBFF]/.test(text[at] ?? "");
const isLowSurrogate = (text: string, at: number) => /[\uDC00-\uDFFF]/.test(text[at] ?? "");
const withoutNewline = (text: string) => text.replace(/\r?\n$/, "");

function append(words: CompareWord[], text: string, changed: boolean): void {
  if (text === "") return;
  const last = words.at(-1);
  if (last?.changed === changed) last.text += text;
  else words.push({ text, changed });
}

/** The words that changed between two lines, within the budget (what is left of wordDiffTotalChars); null past a bound. */
function pairMarks(before: string, after: string, budget: { chars: number }): PairMarks | null {
  const shorter = Math.min(before.length, after.length);
  let start = 0;
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let end = 0;
  while (end < shorter - start && before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)) end++;
  // Whole words and whole characters: 1200 → 1300 marks the number, not its middle digits.
  while (start > 0 && (WORD_CHAR.test(before[start - 1]!) || isHighSurrogate(before, start - 1))) start--;
  while (end > 0 && (WORD_CHAR.test(before[before.length - end]!) || isLowSurrogate(before, before.length - end))) end--;
  const removed = before.slice(start, before.length - end);
  const added = after.slice(start, after.length - end);
  const size = removed.length + added.length;
  if (size > COMPARE_LIMITS.wordDiffMaxChars || size > budget.chars) return null;
  budget.chars -= size;
  const changes = diffWordsWithSpace(removed, added, { maxEditLength: COMPARE_LIMITS.wordDiffMaxEdits });
  if (!changes) return null;
  const marks: PairMarks = { removed: [], added: [], changeAt: start };
  for (const side of [marks.removed, marks.added]) append(side, before.slice(0, start), false);
  for (const change of changes) {
    if (!change.added) append(marks.removed, change.value, change.removed);
    if (!change.removed) append(marks.added, change.value, change.added);
  }
  for (const side of [marks.removed, marks.added]) append(side, before.slice(before.length - end), false);
  return marks;
}

/** Each removed line followed by an added one, paired in order (the line diff lists a change's removed lines first). */
function markedPairs(lines: DiffLine[], budget: { chars: number }): Map<number, { words: CompareWord[]; changeAt: number }> {
  const marked = new Map<number, { words: CompareWord[]; changeAt: number }>();
  for (let index = 0; index < lines.length; ) {
    let removedEnd = index;
    while (lines[removedEnd]?.kind === "removed") removedEnd++;
    let addedEnd = removedEnd;
    while (lines[addedEnd]?.kind === "added") addedEnd++;
    for (let offset = 0; offset < Math.min(removedEnd - index, addedEnd - removedEnd); offset++) {
      const marks = pairMarks(withoutNewline(lines[index + offset]!.text), withoutNewline(lines[removedEnd + offset]!.text), budget);
      if (!marks) continue;
      marked.set(index + offset, { words: marks.removed, changeAt: marks.changeAt });
      marked.set(removedEnd + offset, { words: marks.added, changeAt: marks.changeAt });
    }
    index = Math.max(addedEnd, index + 1);
  }
  return marked;
}

/** The words that fall between `start` and `end` of their line. */
function wordsWithin(words: CompareWord[], start: number, end: number): CompareWord[] {
  const within: CompareWord[] = [];
  let at = 0;
  for (const word of words) {
    const from = Math.max(start, at);
    const to = Math.min(end, at + word.text.length);
    if (from < to) append(within, word.text.slice(from - at, to - at), word.changed);
    at += word.text.length;
  }
  return within;
}

/**
 * At most lineMaxChars of a line (never half a surrogate pair), from its start, or from a little before
 * its first change when that lies further on, and how many characters were left out on either side.
 */
function cutLine(line: DiffLine, marks: { words: CompareWord[]; changeAt: number } | undefined): CompareLine {
  const text = withoutNewline(line.text);
  const words = marks?.words ?? null;
  const { lineMaxChars: max, lineLeadChars: lead } = COMPARE_LIMITS;
  if (text.length <= max) return { ...line, text, hiddenBefore: 0, hiddenChars: 0, words };
  let start = marks && marks.changeAt + lead > max ? Math.min(marks.changeAt - lead, text.length - max) : 0;
  if (isLowSurrogate(text, start)) start++;
  let end = start + max;
  if (isLowSurrogate(text, end)) end--;
  return { ...line, text: text.slice(start, end), hiddenBefore: start, hiddenChars: text.length - end, words: words && wordsWithin(words, start, end) };
}

/** The diff as the page shows it: whole hunks while they fit in maxRows (at least part of the first), each line cut. */
export function bounded(hunks: DiffHunk[]): NonNullable<CompareDiff> {
  const count = (kind: DiffLine["kind"]) => hunks.reduce((sum, hunk) => sum + hunk.lines.filter((line) => line.kind === kind).length, 0);
  const shown: CompareHunk[] = [];
  const budget = { chars: COMPARE_LIMITS.wordDiffTotalChars };
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
    const marked = markedPairs(lines, budget);
    shown.push({ ...hunk, lines: lines.map((line, index) => cutLine(line, marked.get(index))) });
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
