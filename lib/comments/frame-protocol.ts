// The messages between the viewer page and the drop in its frame, which carries a script of ours
// (lib/html/comment-anchors-script.ts). The frame runs the drop's own scripts too, so the page treats
// whatever comes from it as untrusted input: it checks each message, and only ever pre-fills a form that
// the person then sends. The page tells the frame nothing but where the anchored passages are.

/** The viewer's iframe, which the page's script talks to. */
export const DROP_FRAME_ID = "drop-frame";

export const FRAME_MESSAGES = {
  /** Page → frame: start talking to me; answered with `ready`. */
  hello: "htmldrop:hello",
  ready: "htmldrop:ready",
  /** Frame → page: what is selected now (`selection`: an anchor and its box, or null). */
  selection: "htmldrop:selection",
  /** Page → frame: the anchors to highlight (`anchors`: `{id, exact, prefix?, suffix?}[]`). */
  highlight: "htmldrop:highlight",
  /** Frame → page: the ids of those it found and highlighted (`found`). */
  anchored: "htmldrop:anchored",
  /** Page → frame: scroll to one highlighted passage (`id`). */
  reveal: "htmldrop:reveal",
} as const;

/** The CSS Custom Highlight names the frame draws with: every anchored passage, and the one last revealed. */
export const HIGHLIGHTS = { all: "htmldrop-comment", revealed: "htmldrop-comment-revealed" } as const;

/** Text taken either side of a selection as its prefix and suffix (UTF-16 units, under the schema's 64 characters). */
export const ANCHOR_CONTEXT_UNITS = 32;

/** Highlights drawn at most: a page of the viewer's thread is 20 comments. */
export const HIGHLIGHTS_MAX = 50;
