// How the compare page outlines changed blocks inside its two sandboxed frames. The server finds the
// changes (lib/serving/compare-blocks.ts, on the compare worker) as indexes into the list of a document's
// block elements; the page posts them to each frame; the script every served document carries
// (lib/html/inject.ts) outlines those blocks and scrolls to the current change. Messages go one way only,
// page to frame: the page listens to nothing a frame sends, so a document's own script can forge nothing
// the page acts on (it can only restyle its own frame, as it always could). Imports nothing: the page's
// client component, the worker and the injected block share these definitions.

/** The elements whose text the compare page diffs and whose boxes it outlines, in document order. */
export const COMPARED_BLOCK_TAGS = [
  "address", "article", "aside", "blockquote", "caption", "dd", "details", "dialog", "div", "dl", "dt", "fieldset", "figcaption",
  "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "legend", "li", "main", "nav", "ol", "p",
  "pre", "section", "summary", "table", "td", "th", "ul",
] as const;

/** Changes posted to a frame at most, and blocks outlined per change; the frame ignores anything past them. */
export const MAX_MARKED_CHANGES = 200;
export const MAX_MARKS_PER_CHANGE = 50;

/** One change as one frame sees it: the blocks to outline (maybe none: an insertion), and the block to scroll to. */
export type FrameChange = { blocks: number[]; anchor: number | null };

/** The one message the frame script acts on: `side` colours the outlines, `at` is the change to scroll to. */
export type CompareMarksMessage = { htmldrop: "compare-marks"; side: "removed" | "added"; at: number; changes: FrameChange[] };

const MARK = "data-htmldrop-mark";
// Outlines draw outside the box and take no room, so the document's layout does not move.
const MARK_STYLE =
  `[${MARK}~=removed]{outline:2px dashed #cf222e!important;outline-offset:2px!important}` +
  `[${MARK}~=added]{outline:2px dashed #1a7f37!important;outline-offset:2px!important}` +
  `[${MARK}~=current]{outline-style:solid!important;outline-width:4px!important}`;

/**
 * Acts only on a message from the parent window (a served document opened on its own has none) of the
 * shape above, within the bounds above. Scrolls the frame's own window, never the page around it
 * (scrollIntoView would scroll that too).
 */
export const COMPARE_MARKS_SCRIPT =
  `(function(){var d=document,k="${MARK}",s;addEventListener("message",function(e){var m=e.data,c=m&&m.changes,a=m&&m.at,i=Number.isInteger;` +
  `if(e.source!==parent||parent===window||!m||m.htmldrop!=="compare-marks"||(m.side!=="removed"&&m.side!=="added")||!Array.isArray(c)||c.length>${MAX_MARKED_CHANGES}||!i(a)||a<0||a>=c.length)return;` +
  `if(!s){s=d.createElement("style");s.textContent=${JSON.stringify(MARK_STYLE)};(d.head||d.documentElement).appendChild(s)}` +
  `var b=d.querySelectorAll(${JSON.stringify(COMPARED_BLOCK_TAGS.join(","))});d.querySelectorAll("["+k+"]").forEach(function(x){x.removeAttribute(k)});` +
  `c.forEach(function(h,n){if(h&&Array.isArray(h.blocks))h.blocks.slice(0,${MAX_MARKS_PER_CHANGE}).forEach(function(j){var x=i(j)&&b[j];if(x)x.setAttribute(k,m.side+(n===a?" current":""))})});` +
  `var t=c[a]&&i(c[a].anchor)&&b[c[a].anchor];if(t)scrollTo(scrollX,t.getBoundingClientRect().top+scrollY-innerHeight/4)})})()`;
