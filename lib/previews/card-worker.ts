// Draws the preview cards that card-pool.ts sends, away from the event loop.
import { setPriority } from "node:os";
import { answerJobs } from "@/lib/workers/worker-jobs";
import type { CardContent } from "./card-tag";
import { renderPreviewCard } from "./render";

// A card is background work beside the requests the event loop answers. On Linux a thread's nice value is
// its own, so under contention the scheduler favours the server's main thread (elsewhere it would be the
// whole process's). At 5 a card still gets about a quarter of a contended core.
if (process.platform === "linux") setPriority(5);

// A full collection after each card lets go of its pixels (card-pool.ts). A minor one cannot reach a
// wrapper that a scavenge during the card promoted, which the whole suite showed once (53 MB kept over 30
// cards). It takes about a millisecond in the worker's small heap; `npm start` exposes gc.
const collectGarbage = (globalThis as { gc?: () => void }).gc;

/**
 * Node.js runs the collected wrappers' native finalizers, which free the pixels, in a later turn of the
 * event loop (setImmediate). Answering first let the next card start with them still held: 30 cards kept
 * 17-52 MB of the process, against 0-6 once the answer waits for that turn.
 */
const afterNativeFinalizers = () => new Promise((resolve) => setImmediate(resolve));

answerJobs(async (content: CardContent) => {
  try {
    const png = renderPreviewCard(content);
    collectGarbage?.();
    await afterNativeFinalizers();
    return png;
  } catch (error) {
    console.error("htmldrop: the preview card worker could not draw a card:", (error as Error).message);
    return null;
  }
});
