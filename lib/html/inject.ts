// Adds the spec's defensive style block (and a viewport meta tag when the document has none), then
// what keeps wide content reachable, at the end of <head>. The offset comes from parse5's tree-building parser with source locations, so a
// "<head>" inside a comment, a script, an attribute or a <template> never fools it, and documents
// with implied <html>/<head>, uppercase tags or a byte order mark come out right.
//
// Source locations triple the cost of parsing, and a 2 MB upload took over a second. HTML parses as a
// stream, so the head is final once the body has begun: only a prefix is parsed with locations, and
// the whole document (without them) only when the prefix cannot rule a viewport meta tag in or out.
import { parse, type DefaultTreeAdapterTypes as T } from "parse5";
import { COMMENT_ANCHORS_SCRIPT, COMMENT_ANCHORS_STYLE } from "./comment-anchors-script";
import { COMPARE_MARKS_SCRIPT } from "./compare-marks";

export const DEFENSIVE_STYLE = "html,body{max-width:100vw;overflow-x:clip}img,svg,video,iframe{max-width:100%}pre,table{max-width:100%}";
export const VIEWPORT_META = '<meta name="viewport" content="width=device-width, initial-scale=1">';
const STYLE_ELEMENT = `<style data-htmldrop>${DEFENSIVE_STYLE}</style>`;

// The spec's block clips whatever is wider than the screen; these keep every part of it reachable.
// `pre` scrolls inside its own box (`:where` so any rule of the author's wins). A table cannot scroll
// as a table, and `display:block` would stop one with `width:100%` from stretching, so only a table
// wider than its container is made a scroll box: the script marks those, again whenever the page's
// size changes (a resized window, content added by the page's own script). A table whose container
// already scrolls sideways is the author's choice and stays as it is.
// A marked table's clipped edge fades (the clip attribute names the sides with columns out of view,
// updated as it scrolls), so hidden columns show before anyone finds the scrollbar under the table. A
// mask changes no layout and shows over any background the author gave the table or its cells.
const WIDE_TABLE = "data-htmldrop-wide";
const CLIPPED_SIDES = "data-htmldrop-clip";
const FADE = "#0003,#000 3em";
const REACH_STYLE =
  `:where(pre){overflow-x:auto}table[${WIDE_TABLE}]{display:block;overflow-x:auto}` +
  `table[${CLIPPED_SIDES}=right]{mask-image:linear-gradient(to left,${FADE})}table[${CLIPPED_SIDES}=left]{mask-image:linear-gradient(to right,${FADE})}` +
  `table[${CLIPPED_SIDES}=both]{mask-image:linear-gradient(to right,${FADE},#000 calc(100% - 3em),#0003)}`;
const REACH_SCRIPT =
  `(function(){var d=document,a="${WIDE_TABLE}",c="${CLIPPED_SIDES}",q=0;` +
  // The sides of a table with content beyond them: scrollLeft runs from 0 leftwards (negative) in a right-to-left table.
  `function e(t){var x=t.scrollWidth-t.clientWidth,l=getComputedStyle(t).direction=="rtl"?x+t.scrollLeft:t.scrollLeft,` +
  `v=t.hasAttribute(a)&&x>1?(l>1?(x-l>1?"both":"left"):"right"):"";if(v!=(t.getAttribute(c)||""))v?t.setAttribute(c,v):t.removeAttribute(c)}` +
  `function m(){q=0;for(var t of d.querySelectorAll("table")){var p=t.parentElement,w=t.hasAttribute(a);` +
  `if(w?t.scrollWidth<=t.clientWidth:p&&t.offsetWidth>p.clientWidth&&!/auto|scroll/.test(getComputedStyle(p).overflowX))w?t.removeAttribute(a):t.setAttribute(a,"");` +
  `if(t.hasAttribute(a)||t.hasAttribute(c))e(t)}}` +
  `d.addEventListener("scroll",function(v){var t=v.target;if(t.tagName=="TABLE"&&t.hasAttribute(a))e(t)},{capture:true,passive:true});` +
  `new ResizeObserver(function(){q=q||requestAnimationFrame(m)}).observe(d.documentElement)})()`;
/**
 * Everything injected after the viewport tag: the spec's style element first, exactly as the spec words
 * it, then what keeps wide content reachable and answers the compare page, which outlines changed
 * blocks in its frames (compare-marks.ts), then the viewer's anchored comments (dormant outside it).
 */
export const DEFENSIVE_BLOCK =
  `${STYLE_ELEMENT}<style data-htmldrop-reach>${REACH_STYLE}</style><script data-htmldrop>${REACH_SCRIPT};${COMPARE_MARKS_SCRIPT}</script>` +
  `<style data-htmldrop-comments>${COMMENT_ANCHORS_STYLE}</style><script data-htmldrop>${COMMENT_ANCHORS_SCRIPT}</script>`;

/** Layout widths (CSS px) taken as a page made for a fixed width: narrower ones fit phones nearly as they are. */
const MIN_LAYOUT_WIDTH = 480;
const MAX_LAYOUT_WIDTH = 4096;
const MAX_LAYOUT_CANDIDATES = 256;

/**
 * For a page made for `width` px: a phone lays it out that wide and shows it whole (the viewport tag),
 * and where the tag does not apply (in the viewer's iframe, a narrow desktop window) the page is
 * zoomed to fit. Under the zoom, the spec's `max-width:100vw` would shrink with it, so html and body
 * keep the declared width, which the zoom makes exactly the screen's.
 */
function fixedLayoutBlock(width: number): string {
  return `<style data-htmldrop-layout>@media (max-width:${width - 0.02}px){html{zoom:calc(100vw / ${width}px)}html,body{max-width:${width}px}}</style>`;
}

const BOM = "\uFEFF";

function isElement(node: T.ChildNode | T.Document): node is T.Element {
  return "tagName" in node;
}

function childElement(parent: T.ParentNode, tagName: string): T.Element | undefined {
  return parent.childNodes.find((node): node is T.Element => isElement(node) && node.tagName === tagName);
}

/** Any <meta name="viewport"> in the document (browsers honour it outside <head> too). */
function hasViewportMeta(document: T.Document): boolean {
  // An explicit stack: a 2 MB upload can nest deeper than the call stack allows.
  const stack: T.ParentNode[] = [document];
  while (stack.length > 0) {
    const node = stack.pop()!;
    for (const child of node.childNodes) {
      if (!isElement(child)) continue;
      if (child.tagName === "meta" && child.attrs.some((attr) => attr.name === "name" && attr.value.trim().toLowerCase() === "viewport")) {
        return true;
      }
      stack.push(child);
    }
  }
  return false;
}

/** Where the end of <head> is in the source: before </head>, else after the last thing the parser put in the head. */
function headEndOffset(document: T.Document): number {
  const html = childElement(document, "html");
  const head = html && childElement(html, "head");
  const headLocation = head?.sourceCodeLocation;
  if (headLocation?.endTag) return headLocation.endTag.startOffset;

  // No </head>: after the last located node of the head, its start tag, the <html> start tag or the doctype.
  const candidates = [0];
  const doctype = document.childNodes.find((node) => node.nodeName === "#documentType");
  if (doctype?.sourceCodeLocation) candidates.push(doctype.sourceCodeLocation.endOffset);
  if (html?.sourceCodeLocation?.startTag) candidates.push(html.sourceCodeLocation.startTag.endOffset);
  if (headLocation?.startTag) candidates.push(headLocation.startTag.endOffset);
  for (const child of head?.childNodes ?? []) {
    if (child.sourceCodeLocation) candidates.push(child.sourceCodeLocation.endOffset);
  }
  return Math.max(...candidates);
}

/** Characters parsed with locations first; grown fourfold until the body has begun. */
export const FIRST_PREFIX_CHARS = 64 * 1024;

/**
 * True when the parse of a prefix got past <head>: the body has an explicit start tag or content. At the
 * end of its input the parser always adds an empty body, which proves nothing.
 */
function bodyHasBegun(document: T.Document): boolean {
  const html = childElement(document, "html");
  const body = html && (childElement(html, "body") ?? childElement(html, "frameset"));
  return Boolean(body && (body.sourceCodeLocation?.startTag || body.childNodes.some((node) => node.sourceCodeLocation)));
}

/** The document parsed with locations up to where its head is final (the whole of it, at worst). */
function parseThroughHead(html: string): { document: T.Document; complete: boolean } {
  for (let size = FIRST_PREFIX_CHARS; ; size *= 4) {
    const complete = size >= html.length;
    const document = parse(complete ? html : html.slice(0, size), { sourceCodeLocationInfo: true });
    if (complete || bodyHasBegun(document)) return { document, complete };
  }
}

/** Whether the document has a viewport meta tag, parsing the rest of it only when that can matter. */
function documentHasViewport(html: string, throughHead: { document: T.Document; complete: boolean }): boolean {
  // A tag cut off at the end of a prefix is dropped by the parser, so what it found is really there.
  const inPrefix = hasViewportMeta(throughHead.document);
  if (inPrefix || throughHead.complete) return inPrefix;
  // "viewport" can only appear in an attribute as written, or spelled with character references.
  if (!/viewport/i.test(html) && !html.includes("&")) return false;
  return hasViewportMeta(parse(html));
}

/** The elements whose declared width is the page's layout width: html, body and body's top-level elements. */
function layoutElements(document: T.Document): T.Element[] {
  const html = childElement(document, "html");
  const body = html && childElement(html, "body");
  if (!html || !body) return html ? [html] : [];
  return [html, body, ...body.childNodes.filter(isElement)];
}

/**
 * The text of the <style> elements that are children of head or body, the ones a page's layout rules
 * live in: no walk of the whole tree, which for a large page costs as much as the rest of the plan.
 */
function styleSheets(document: T.Document): string[] {
  const html = childElement(document, "html");
  const sections = html ? html.childNodes.filter(isElement).filter((element) => element.tagName === "head" || element.tagName === "body") : [];
  return sections
    .flatMap((section) => section.childNodes.filter((node): node is T.Element => isElement(node) && node.tagName === "style"))
    .map((style) => style.childNodes.map((text) => ("value" in text ? text.value : "")).join(""))
    .filter((sheet) => /width/i.test(sheet));
}

const COMPOUND_SELECTOR = /^([a-z][a-z0-9-]*)?((?:[#.][\w-]+)*)$/i;

/** Whether a simple selector (`body`, `#page`, `div.wrapper`) selects the element. */
function selects(selector: string, element: T.Element): boolean {
  const match = COMPOUND_SELECTOR.exec(selector);
  if (!match || selector === "") return false;
  if (match[1] && match[1].toLowerCase() !== element.tagName) return false;
  const attribute = (name: string) => element.attrs.find((attr) => attr.name === name)?.value ?? "";
  const classes = attribute("class").split(/\s+/);
  return (match[2]!.match(/[#.][\w-]+/g) ?? []).every((part) => (part[0] === "#" ? attribute("id") === part.slice(1) : classes.includes(part.slice(1))));
}

// A `width` or `min-width` in px of a plausible layout (3 or 4 digits; `max-width` never matches).
const LAYOUT_WIDTH = /(?<=^|[;{\s])(?:min-)?width\s*:\s*(\d{3,4}(?:\.\d+)?)px\s*(?:!important\s*)?(?=[;}]|$)/gi;

function plausibleWidth(match: RegExpMatchArray): number | null {
  const width = Math.ceil(Number(match[1]));
  return width >= MIN_LAYOUT_WIDTH && width <= MAX_LAYOUT_WIDTH ? width : null;
}

/**
 * The layout widths a style sheet gives the elements, from rules outside any at-rule (a width inside
 * `@media` is a responsive page's). One pass of one regex finds the candidates; only a sheet that has
 * some is walked for their rules' selectors, once, up to the last candidate.
 */
function sheetLayoutWidths(css: string, elements: T.Element[]): number[] {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, "");
  const widths: number[] = [];
  let depth = 0;
  let position = 0;
  let ruleStart = 0;
  let open = -1;
  let candidates = 0;
  for (const match of text.matchAll(LAYOUT_WIDTH)) {
    const width = plausibleWidth(match);
    if (width === null) continue;
    // A page's layout is set by a few rules; past this many, the cost is bounded and the rest ignored.
    if (++candidates > MAX_LAYOUT_CANDIDATES) break;
    for (; position < match.index; position++) {
      const char = text[position];
      if (char === "{") {
        if (depth === 0) open = position;
        depth++;
      } else if (char === "}") {
        depth = Math.max(0, depth - 1);
        if (depth === 0) ruleStart = position + 1;
      } else if (char === ";" && depth === 0) {
        // Statements such as `@import url(a.css);` end before the next rule's selectors.
        ruleStart = position + 1;
      }
    }
    if (depth !== 1 || open < ruleStart) continue;
    const selectors = text.slice(ruleStart, open).trim();
    if (selectors.startsWith("@")) continue;
    if (selectors.split(",").some((selector) => elements.some((element) => selects(selector.trim(), element)))) widths.push(width);
  }
  return widths;
}

/**
 * The fixed layout width a document declares, in px: the widest `width` or `min-width` its own styles
 * (or inline style attributes) give html, body or one of body's top-level elements. Only what the
 * parse through the head found is read, so this costs no second parse.
 */
export function declaredLayoutWidth(document: T.Document): number | null {
  const elements = layoutElements(document);
  const widths: number[] = [];
  for (const element of elements) {
    const inline = element.attrs.find((attr) => attr.name === "style")?.value ?? "";
    for (const match of inline.matchAll(LAYOUT_WIDTH)) {
      const width = plausibleWidth(match);
      if (width !== null) widths.push(width);
    }
  }
  for (const sheet of styleSheets(document)) widths.push(...sheetLayoutWidths(sheet, elements));
  return widths.length > 0 ? Math.max(...widths) : null;
}

/**
 * Where the defensive block goes in the stored bytes, whether it brings a viewport tag, and the fixed
 * layout width of a page without one (null for any other). Computed once per blob (off the main thread,
 * see injection-pool.ts) and stored beside it, so serving a drop is a splice, whatever the document.
 */
export type InjectionPlan = { offsetBytes: number; addViewport: boolean; layoutWidth: number | null };

/**
 * Which planner a stored plan came from. Plans stored before layout widths existed (no version) lack
 * one; only those that add a viewport tag could have had one, so only those are planned again.
 */
export const INJECTION_PLAN_VERSION = 2;

export type StoredPlan = { offsetBytes: number | null; addViewport: boolean | null; layoutWidth: number | null; version: number | null };

/** A stored plan still current, or null when the blob must be planned (again). */
export function currentPlan(stored: StoredPlan): InjectionPlan | null {
  if (stored.offsetBytes === null || stored.addViewport === null) return null;
  if (stored.version === null && stored.addViewport) return null;
  return { offsetBytes: stored.offsetBytes, addViewport: stored.addViewport, layoutWidth: stored.layoutWidth };
}

export function planInjection(source: string): InjectionPlan {
  // Browsers drop a leading BOM while decoding; parse5 would read it as text and imply <head> before the doctype.
  const bom = source.startsWith(BOM) ? BOM : "";
  const html = source.slice(bom.length);
  const throughHead = parseThroughHead(html);
  const offset = bom.length + headEndOffset(throughHead.document);
  const addViewport = !documentHasViewport(html, throughHead);
  return {
    offsetBytes: Buffer.byteLength(source.slice(0, offset), "utf8"),
    addViewport,
    layoutWidth: addViewport ? declaredLayoutWidth(throughHead.document) : null,
  };
}

/**
 * The plan for when parsing is refused (it ran out of time or memory): the block at the very end,
 * where browsers still apply a <style> and honour a viewport tag. Linear time, no tree.
 */
export function fallbackPlan(bytes: Uint8Array): InjectionPlan {
  return { offsetBytes: bytes.length, addViewport: !/viewport/i.test(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1")), layoutWidth: null };
}

export function injectionBlock(plan: InjectionPlan): string {
  if (!plan.addViewport) return DEFENSIVE_BLOCK;
  if (plan.layoutWidth === null) return VIEWPORT_META + DEFENSIVE_BLOCK;
  return `<meta name="viewport" content="width=${plan.layoutWidth}">${DEFENSIVE_BLOCK}${fixedLayoutBlock(plan.layoutWidth)}`;
}

/** The served bytes in three parts, without a copy: the upload as stored, split where the plan puts the block. */
export function injectedParts(bytes: Buffer, plan: InjectionPlan): [Buffer, Buffer, Buffer] {
  const offset = Math.min(plan.offsetBytes, bytes.length);
  return [bytes.subarray(0, offset), Buffer.from(injectionBlock(plan), "utf8"), bytes.subarray(offset)];
}

/** The served bytes: the upload as stored, with the block where the plan puts it. */
export function injectedBytes(bytes: Buffer, plan: InjectionPlan): Buffer {
  return Buffer.concat(injectedParts(bytes, plan));
}

/** The served form of an upload: the document as stored plus the defensive block at the end of <head>. */
export function injectDefensiveHead(source: string): string {
  return injectedBytes(Buffer.from(source, "utf8"), planInjection(source)).toString("utf8");
}
