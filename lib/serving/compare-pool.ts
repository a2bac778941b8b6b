// Runs the compare page's diffs on one worker thread (worker-pool.ts), one at a time: the event loop
// only reads the two blobs and receives a few kilobytes of bounded rows. Requests queue there, so a
// crowd of compare pages waits for the worker instead of holding everybody else's requests.
import { Worker } from "node:worker_threads";
import type { RenderedChanges } from "./compare-blocks";
import type { CompareDiff } from "./compare-diff";
import { workerFromSource, workerPool } from "@/lib/workers/worker-pool";

/** lib/drops/diff-text.ts stops a diff after 200 ms of work; past this the worker is replaced and the page shows no diff. */
export const DIFF_WORKER_TIMEOUT_MS = 4_000;
const resourceLimits = { maxOldGenerationSizeMb: 256 };

export type DiffJob = { from: number; to: number; fromBytes: Uint8Array; toBytes: Uint8Array };
/** The source diff, and the changed blocks of the rendered view. */
export type CompareResult = { source: CompareDiff; rendered: RenderedChanges };

const diffOnWorker = workerPool<DiffJob, CompareResult>({
  name: "compare",
  slots: 1,
  spawn: () => workerFromSource(import.meta.url, "compare-worker.ts", resourceLimits) ?? new Worker(new URL("./compare-worker.ts", import.meta.url), { resourceLimits }),
  timeoutMs: DIFF_WORKER_TIMEOUT_MS,
  fallback: () => ({ source: null, rendered: { changes: null, reason: "too_large" } }),
});

/** The compare page's bounded diff and rendered changes of two versions' bytes, computed on the worker. */
export function diffOffThread(job: DiffJob): Promise<CompareResult> {
  // One queue: the page's cache already answers a repeated pair, and a diff is bounded in time.
  return diffOnWorker(job, "");
}
