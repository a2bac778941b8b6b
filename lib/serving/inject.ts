// Adds the spec's defensive style block (and a viewport meta tag when the document has none) at the
// end of <head>. The offset comes from parse5's tree-building parser with source locations, so a
// "<head>" inside a comment, a script, an attribute or a <template> never fools it, and documents
// with implied <html>/<head>, uppercase tags or a byte order mark come out right.
//
// Source locations triple the cost of parsing, and a 2 MB upload took over a second. HTML parses as a
// stream, so the head is final once the body has begun: only a prefix is parsed with locations, and
// the whole document (without them) only when the prefix cannot rule a viewport meta tag in or out.
import { parse, type DefaultTreeAdapterTypes as T } from "parse5";

export const DEFENSIVE_STYLE = "html,body{max-width:100vw;overflow-x:clip}img,svg,video,iframe{max-width:100%}pre,table{max-width:100%}";
export const VIEWPORT_META = '<meta name="viewport" content="width=device-width, initial-scale=1">';
const STYLE_ELEMENT = `<style data-htmldrop>${DEFENSIVE_STYLE}</style>`;
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

/**
 * Where the defensive block goes in the stored bytes, and whether it brings a viewport tag. Computed
 * once per blob (off the main thread, see injection-pool.ts) and stored beside it, so serving a
 * drop is a splice, whatever the document.
 */
export type InjectionPlan = { offsetBytes: number; addViewport: boolean };

export function planInjection(source: string): InjectionPlan {
  // Browsers drop a leading BOM while decoding; parse5 would read it as text and imply <head> before the doctype.
  const bom = source.startsWith(BOM) ? BOM : "";
  const html = source.slice(bom.length);
  const throughHead = parseThroughHead(html);
  const offset = bom.length + headEndOffset(throughHead.document);
  return { offsetBytes: Buffer.byteLength(source.slice(0, offset), "utf8"), addViewport: !documentHasViewport(html, throughHead) };
}

/**
 * The plan for when parsing is refused (it ran out of time or memory): the block at the very end,
 * where browsers still apply a <style> and honour a viewport tag. Linear time, no tree.
 */
export function fallbackPlan(bytes: Uint8Array): InjectionPlan {
  return { offsetBytes: bytes.length, addViewport: !/viewport/i.test(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1")) };
}

export function injectionBlock(plan: InjectionPlan): string {
  return (plan.addViewport ? VIEWPORT_META : "") + STYLE_ELEMENT;
}

/** The served bytes as parts: the upload as stored, split where the block goes, without copying it. */
export function injectionParts(bytes: Buffer, plan: InjectionPlan): Buffer[] {
  const offset = Math.min(plan.offsetBytes, bytes.length);
  return [bytes.subarray(0, offset), Buffer.from(injectionBlock(plan), "utf8"), bytes.subarray(offset)];
}

/** The served form of an upload: the document as stored plus the defensive block at the end of <head>. */
export function injectDefensiveHead(source: string): string {
  return Buffer.concat(injectionParts(Buffer.from(source, "utf8"), planInjection(source))).toString("utf8");
}
