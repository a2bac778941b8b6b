// Adds the spec's defensive style block (and a viewport meta tag when the document has none) at the
// end of <head>. The offset comes from parse5's tree-building parser with source locations, so a
// "<head>" inside a comment, a script, an attribute or a <template> never fools it, and documents
// with implied <html>/<head>, uppercase tags or a byte order mark come out right.
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

/** The served form of an upload: the document as stored plus the defensive block at the end of <head>. */
export function injectDefensiveHead(source: string): string {
  // Browsers drop a leading BOM while decoding; parse5 would read it as text and imply <head> before the doctype.
  const bom = source.startsWith(BOM) ? BOM : "";
  const html = source.slice(bom.length);
  const document = parse(html, { sourceCodeLocationInfo: true });
  const offset = headEndOffset(document);
  const block = (hasViewportMeta(document) ? "" : VIEWPORT_META) + STYLE_ELEMENT;
  return bom + html.slice(0, offset) + block + html.slice(offset);
}
