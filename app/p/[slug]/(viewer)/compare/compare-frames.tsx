"use client";

// The compare page's rendered view: both versions in their sandboxed frames, side by side, or on a
// narrow screen one at a time behind a toggle (radio buttons and CSS, so it works without JavaScript).
// With JavaScript the changed blocks the server found are outlined in both frames, both scroll to the
// current change, and "Previous change" and "Next change" move both. Messages only go to the frames
// (lib/html/compare-marks.ts): nothing a frame sends is read, so a document's script can forge nothing here.
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import type { CompareMarksMessage } from "@/lib/html/compare-marks";
import type { RenderedChange } from "@/lib/serving/compare-blocks";
import type { CompareSide } from "@/lib/serving/compare-diff";
import styles from "./compare.module.css";

type Props = { title: string; sandbox: string; from: CompareSide; to: CompareSide; changes: RenderedChange[] };
type Side = CompareMarksMessage["side"];

const noSubscription = () => () => {};

export function CompareFrames({ title, sandbox, from, to, changes }: Props) {
  const fromFrame = useRef<HTMLIFrameElement>(null);
  const toFrame = useRef<HTMLIFrameElement>(null);
  const [at, setAt] = useState(0);
  // False in the server's HTML and while hydrating, true once this script runs: the steppers need it.
  const scripted = useSyncExternalStore(noSubscription, () => true, () => false);
  const sides = useMemo(() => ({ removed: changes.map((change) => change.from), added: changes.map((change) => change.to) }), [changes]);

  const post = useCallback(
    (frame: HTMLIFrameElement | null, side: Side) => {
      if (changes.length === 0) return;
      const message: CompareMarksMessage = { htmldrop: "compare-marks", side, at, changes: sides[side] };
      // A sandboxed frame's origin is opaque, so no target origin can name it; the message only holds
      // block numbers of the document the frame already shows.
      frame?.contentWindow?.postMessage(message, "*");
    },
    [at, changes.length, sides],
  );
  const postBoth = useCallback(() => {
    post(fromFrame.current, "removed");
    post(toFrame.current, "added");
  }, [post]);

  // Frames that loaded before this script ran get their marks now; the others on their load event.
  useEffect(postBoth, [postBoth]);
  // A frame the toggle just showed had no size to scroll in: once it is laid out, scroll it again.
  const shown = () => requestAnimationFrame(() => requestAnimationFrame(postBoth));
  const step = (by: number) => setAt((at + by + changes.length) % changes.length);

  const frame = (side: CompareSide, ref: typeof fromFrame, marks: Side, className: string) => (
    <figure className={`${styles.side} ${className}`}>
      <figcaption>Version {side.version}</figcaption>
      <iframe
        ref={ref}
        className={styles.frame}
        src={side.frameSrc}
        sandbox={sandbox}
        title={`Version ${side.version} of ${title}`}
        referrerPolicy="no-referrer"
        onLoad={() => post(ref.current, marks)}
      />
    </figure>
  );

  return (
    <>
      {scripted && changes.length > 0 ? (
        <div className={styles.stepper} role="group" aria-label="Changes in the rendered view">
          <button type="button" onClick={() => step(-1)}>
            Previous change
          </button>
          <span aria-live="polite">
            Change {at + 1} of {changes.length}
          </span>
          <button type="button" onClick={() => step(1)}>
            Next change
          </button>
          <span>
            Outlined: <span className={styles.legendRemoved}>removed in version {from.version}</span>, <span className={styles.legendAdded}>added in version {to.version}</span>
          </span>
        </div>
      ) : null}
      <fieldset className={styles.toggle}>
        <legend>Show</legend>
        <label>
          <input type="radio" name="show" value="from" className={styles.showFrom} onChange={shown} /> Version {from.version}
        </label>
        <label>
          <input type="radio" name="show" value="to" className={styles.showTo} onChange={shown} defaultChecked /> Version {to.version}
        </label>
      </fieldset>
      <div className={styles.frames}>
        {frame(from, fromFrame, "removed", styles.fromSide!)}
        {frame(to, toFrame, "added", styles.toSide!)}
      </div>
    </>
  );
}
