"use client";

// The viewer page's side of the conversation with the drop's frame (lib/comments/frame-protocol.ts): it
// greets the frame whenever it loads, hears what the person selects there, asks it to highlight the
// anchored passages of the comments shown, and learns which of them it found. The frame runs the drop's
// own scripts too, so a message counts only from the frame's window and only after it is checked; the
// page never sends the frame more than comment ids and the passages themselves.
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { DROP_FRAME_ID, FRAME_MESSAGES } from "@/lib/comments/frame-protocol";
import type { FrameSelection } from "@/lib/comments/frame-messages";
import type { CommentAnchor } from "@/lib/schemas/comment-anchor";

export type AnchoredPassage = CommentAnchor & { id: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** The checks on a selection, and zod with them, load only once something is selected. */
async function readSelection(selection: unknown): Promise<FrameSelection> {
  const { readFrameSelection } = await import("@/lib/comments/frame-messages");
  return readFrameSelection(selection);
}

export type DropFrame = {
  /** What is selected in the drop now, checked; null when nothing is. */
  selection: FrameSelection;
  /** The frame element, to place things over the selection. */
  frame: () => HTMLIFrameElement | null;
  /** Ids of the passages the frame found and highlighted; null until it says (or when it cannot draw). */
  found: ReadonlySet<string> | null;
  reveal: (id: string) => void;
};

export function useDropFrame(passages: AnchoredPassage[]): DropFrame {
  const frameRef = useRef<HTMLIFrameElement | null>(null);
  // Counts the frame's "ready" answers: each load of the frame is highlighted again.
  const [loads, setLoads] = useState(0);
  const [selection, setSelection] = useState<FrameSelection>(null);
  const [found, setFound] = useState<ReadonlySet<string> | null>(null);

  useEffect(() => {
    const frame = document.getElementById(DROP_FRAME_ID);
    if (!(frame instanceof HTMLIFrameElement)) return;
    frameRef.current = frame;
    // The frame's origin is opaque (sandboxed without allow-same-origin), so no narrower target exists.
    const hello = () => frame.contentWindow?.postMessage({ type: FRAME_MESSAGES.hello }, "*");
    let latest = 0;
    const onMessage = async (event: MessageEvent) => {
      if (event.source === null || event.source !== frame.contentWindow || !isRecord(event.data)) return;
      const { type } = event.data;
      if (type === FRAME_MESSAGES.ready) {
        setLoads((count) => count + 1);
        setSelection(null);
      } else if (type === FRAME_MESSAGES.anchored) {
        const ids = event.data.found;
        setFound(new Set(Array.isArray(ids) ? ids.filter((id): id is string => typeof id === "string") : []));
      } else if (type === FRAME_MESSAGES.selection) {
        // Checks finish in order of arrival, but only the newest selection counts.
        const mine = ++latest;
        const read = await readSelection(event.data.selection);
        if (mine === latest) setSelection(read);
      }
    };
    window.addEventListener("message", onMessage);
    frame.addEventListener("load", hello);
    hello();
    return () => {
      window.removeEventListener("message", onMessage);
      frame.removeEventListener("load", hello);
    };
  }, []);

  // A new comment with an anchor changes the list: the frame draws them all again.
  const key = JSON.stringify(passages);
  const anchors = useMemo(() => JSON.parse(key) as AnchoredPassage[], [key]);
  useEffect(() => {
    if (loads > 0) frameRef.current?.contentWindow?.postMessage({ type: FRAME_MESSAGES.highlight, anchors }, "*");
  }, [loads, anchors]);

  const reveal = useCallback((id: string) => {
    // On a phone the panel is under the drop: bring the drop into view, then the passage within it.
    frameRef.current?.scrollIntoView({ block: "nearest" });
    frameRef.current?.contentWindow?.postMessage({ type: FRAME_MESSAGES.reveal, id }, "*");
  }, []);
  const frame = useCallback(() => frameRef.current, []);
  return { selection, frame, found, reveal };
}
