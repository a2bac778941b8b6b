// The editor's live preview: the document being edited as the viewer would show it, rendered in a frame
// with the viewer's sandbox. This module runs in the browser, so it holds no server import.

/** The message the preview sends its page as its reader scrolls, so the next update opens at the same place. */
export const PREVIEW_SCROLL_MESSAGE = "htmldrop-preview-scroll";

/**
 * Each update reloads the frame; waiting for a pause in typing keeps a large document's reload (and the
 * copy of its text) off every key press. Longer for larger documents: 0.3 s, up to 0.8 s at 2 MB.
 */
export function previewDelayMs(length: number): number {
  return Math.min(800, 300 + Math.round(length / 4096));
}

/**
 * The frame's document: the text, then what the server adds to every drop it serves (`servedTail`, the
 * defensive block), appended at the end as the server does with a document it cannot parse, and a
 * script that returns the reader to `scrollTop` and reports where they scroll to.
 */
export function previewDocument(html: string, servedTail: string, scrollTop: number): string {
  const top = Math.max(0, Math.round(scrollTop));
  const keepPlace =
    `<script>(function(){var y=${top},q=0;function go(){if(y)scrollTo(0,y)}go();addEventListener("load",go);` +
    `addEventListener("scroll",function(){q=q||setTimeout(function(){q=0;parent.postMessage({type:"${PREVIEW_SCROLL_MESSAGE}",top:scrollY},"*")},150)},{passive:true})})()</script>`;
  return html + servedTail + keepPlace;
}
