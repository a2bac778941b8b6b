// Draws the preview cards that card-pool.ts sends, away from the event loop.
import { setPriority } from "node:os";
import { answerJobs } from "@/lib/workers/worker-jobs";
import type { CardContent } from "./card-tag";
import { renderPreviewCard } from "./render";

// A card is background work beside the requests the event loop answers. On Linux a thread's nice value is
// its own, so under contention the scheduler favours the server's main thread (elsewhere it would be the
// whole process's). At 5 a card still gets about a quarter of a contended core.
if (process.platform === "linux") setPriority(5);

// A minor collection (half a millisecond) frees the card's pixels at once (card-pool.ts); `npm start` exposes gc.
const collectGarbage = (globalThis as { gc?: (options: { type: "minor" }) => void }).gc;

answerJobs((content: CardContent) => {
  try {
    const png = renderPreviewCard(content);
    collectGarbage?.({ type: "minor" });
    return png;
  } catch (error) {
    console.error("htmldrop: the preview card worker could not draw a card:", (error as Error).message);
    return null;
  }
});
