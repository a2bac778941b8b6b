// Draws preview cards on one worker thread (worker-pool.ts) that stops when idle, as the diff and
// injection workers do. The renderer (resvg and the font) stays loaded in whichever thread first draws a
// card, and a card costs tens of milliseconds of CPU: on the worker both leave the event loop, and the
// memory leaves the process 15 s after the last card.
import { Worker } from "node:worker_threads";
import type { CardContent } from "./card-tag";
import { workerFromSource, workerPool } from "@/lib/workers/worker-pool";

/** A worker's first card loads the renderer (about a hundred milliseconds); past this it is replaced. */
const CARD_RENDER_TIMEOUT_MS = 10_000;
// resvg-js frees a card's pixels (3 MB at 1200×630) only when V8 collects the objects holding them, and V8
// does not count that memory: with the default young generation a worker went hundreds of cards between
// collections (428 MB after 200 cards). At 1 MB it collects every few cards (187 MB after 200); where
// `gc` is exposed (npm start), the worker also collects after each card (card-worker.ts).
const resourceLimits = { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 1 };

const drawOnWorker = workerPool<CardContent, Uint8Array | null>({
  name: "preview-cards",
  slots: 1,
  spawn: () => workerFromSource(import.meta.url, "card-worker.ts", resourceLimits) ?? new Worker(new URL("./card-worker.ts", import.meta.url), { resourceLimits }),
  timeoutMs: CARD_RENDER_TIMEOUT_MS,
  fallback: () => null,
});

/** The card as PNG bytes, drawn on the worker; the cards' own cache (og-image.ts) keeps it from being drawn twice. */
export async function drawCardOffThread(content: CardContent): Promise<Buffer> {
  const png = await drawOnWorker(content, "");
  if (!png) throw new Error("the preview card worker gave no card (it failed or ran out of time)");
  return Buffer.from(png.buffer, png.byteOffset, png.byteLength);
}
