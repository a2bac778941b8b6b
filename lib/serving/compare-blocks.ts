// The compare page's rendered view: which block elements' text changed between two versions, as indexes
// into each document's list of blocks (lib/html/compare-marks.ts), for the frames to outline. Computed
// on the compare worker from the documents as parsed, so text a document's own script writes is not
// compared. Bounded like the source diff: past COMPARE_LIMITS' rendered bounds, nothing is marked.
import { diffArrays } from "diff";
import { parse, type DefaultTreeAdapterTypes as T } from "parse5";
import { COMPARED_BLOCK_TAGS, MAX_MARKED_CHANGES, MAX_MARKS_PER_CHANGE, type FrameChange } from "@/lib/html/compare-marks";
import { COMPARE_LIMITS } from "./compare-diff";

/** One change: the blocks it removed from the older version and added to the newer one. */
export type RenderedChange = { from: FrameChange; to: FrameChange };
/**
 * The changes in document order, at most MAX_MARKED_CHANGES (`hiddenChanges` counts the rest); null
 * when the versions are past the bounds, `reason` saying which.
 */
export type RenderedChanges = { changes: RenderedChange[]; hiddenChanges: number } | { changes: null; reason: "too_large" | "too_different" };

const BLOCKS: ReadonlySet<string> = new Set(COMPARED_BLOCK_TAGS);
const HTML_NAMESPACE = "http://www.w3.org/1999/xhtml";
/** Never shown as text: a browser (scripts allowed) parses noscript's content as text too. */
const UNSHOWN = new Set(["script", "style", "noscript", "template"]);
/**
 * The payload of an inline image or font: never text, nor markup (base64 has no quote, space or "<"), so
 * leaving it out changes no block, and the parser need not read it character by character (a 2 MB chart
 * took 60 ms).
 */
const BASE64_PAYLOAD = /(;base64,)[A-Za-z0-9+/]{256,}={0,2}/g;

/**
 * Whether `html` holds more than `max` tags and runs of text between spaces, which is what parsing costs
 * (an inline image is one long attribute, quick to read; a million one-letter lines took 2 s). Linear, no allocation.
 */
function hasMoreTokens(html: string, max: number): boolean {
  let count = 0;
  let inSpace = true;
  for (let at = 0; at < html.length; at++) {
    const code = html.charCodeAt(at);
    // The spaces of HTML: tab, line feed, form feed, carriage return, space.
    const space = code === 32 || (code >= 9 && code <= 13 && code !== 11);
    if (code === 60 || (inSpace && !space)) count++;
    if (count > max) return true;
    inSpace = space;
  }
  return false;
}

/**
 * The text of each block, in the order `document.querySelectorAll` lists them, that is the block's
 * own text, not its inner blocks': a changed table cell marks the cell, not the table.
 */
export function blockTexts(html: string): string[] {
  const texts: string[] = [];
  // An explicit stack, in reverse so children come off in order: a document can nest deeper than the call stack.
  const stack: { node: T.ChildNode | T.Document; block: number }[] = [{ node: parse(html.replace(BASE64_PAYLOAD, "$1")), block: -1 }];
  while (stack.length > 0) {
    const { node, block } = stack.pop()!;
    if (node.nodeName === "#text") {
      if (block >= 0) texts[block] += (node as T.TextNode).value;
      continue;
    }
    if (!("childNodes" in node)) continue;
    let inner = block;
    if ("tagName" in node) {
      if (UNSHOWN.has(node.tagName)) continue;
      if (node.namespaceURI === HTML_NAMESPACE && BLOCKS.has(node.tagName)) inner = texts.push("") - 1;
    }
    for (let index = node.childNodes.length - 1; index >= 0; index--) stack.push({ node: node.childNodes[index]!, block: inner });
  }
  return texts.map((text) => text.replace(/\s+/g, " ").trim());
}

/** The blocks worth comparing: those with text, by their index among all blocks. */
function withText(texts: string[]): { text: string; block: number }[] {
  return texts.flatMap((text, block) => (text === "" ? [] : [{ text, block }]));
}

/** Where a side's view goes for a change that has no block on that side: the next unchanged block, else the previous. */
function anchorAt(side: { block: number }[], position: number): number | null {
  return (side[position] ?? side[position - 1])?.block ?? null;
}

/** The changed blocks of two versions' HTML, or why none are marked. */
export function renderedChanges(fromHtml: string, toHtml: string): RenderedChanges {
  if (fromHtml === toHtml) return { changes: [], hiddenChanges: 0 };
  if (hasMoreTokens(fromHtml, COMPARE_LIMITS.renderedMaxTokens) || hasMoreTokens(toHtml, COMPARE_LIMITS.renderedMaxTokens)) return { changes: null, reason: "too_large" };
  const from = withText(blockTexts(fromHtml));
  const to = withText(blockTexts(toHtml));
  const parts = diffArrays(
    from.map((entry) => entry.text),
    to.map((entry) => entry.text),
    { maxEditLength: COMPARE_LIMITS.renderedMaxChangedBlocks },
  );
  if (!parts) return { changes: null, reason: "too_different" };

  const changes: RenderedChange[] = [];
  let fromAt = 0;
  let toAt = 0;
  let current: { removed: number[]; added: number[]; fromAt: number; toAt: number } | null = null;
  const close = () => {
    if (!current) return;
    const side = (blocks: number[], entries: { block: number }[], position: number): FrameChange => ({
      blocks: blocks.slice(0, MAX_MARKS_PER_CHANGE),
      anchor: blocks[0] ?? anchorAt(entries, position),
    });
    changes.push({ from: side(current.removed, from, current.fromAt), to: side(current.added, to, current.toAt) });
    current = null;
  };
  for (const part of parts) {
    if (!part.added && !part.removed) {
      close();
      fromAt += part.count;
      toAt += part.count;
      continue;
    }
    current ??= { removed: [], added: [], fromAt, toAt };
    for (let offset = 0; offset < part.count; offset++) {
      if (part.removed) current.removed.push(from[fromAt++]!.block);
      else current.added.push(to[toAt++]!.block);
    }
  }
  close();
  return { changes: changes.slice(0, MAX_MARKED_CHANGES), hiddenChanges: Math.max(0, changes.length - MAX_MARKED_CHANGES) };
}
