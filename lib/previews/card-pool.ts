// Draws preview cards on one worker thread (worker-pool.ts) that stops when idle, as the diff and
// injection workers do. The renderer (resvg, with the font) stays
// loaded in whichever thread first draws a card, about 20 MB of resident memory (issue 35), and a card
// costs tens of milliseconds of CPU: on the worker both leave the event loop, and the memory leaves the
// process 15 s after the last card.
import { Worker } from "node:worker_threads";
import type { CardContent } from "./card-tag";
import { workerFromSource, workerPool } from "@/lib/workers/worker-pool";

/** A worker's first card loads the renderer (a few hundred milliseconds); past this it is replaced. */
const CARD_RENDER_TIMEOUT_MS = 10_000;
const resourceLimits = { maxOldGenerationSizeMb: 128 };

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
