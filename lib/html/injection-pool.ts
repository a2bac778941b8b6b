// Plans injections on worker threads (worker-pool.ts), so no request blocks the event loop whatever the
// document. The uploading account is the fairness key: one that uploads costly documents waits behind
// its own jobs, never in front of everybody else's.
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { workerFromSource, workerPool } from "@/lib/workers/worker-pool";
import { fallbackPlan, type InjectionPlan } from "./inject";

/**
 * Ordinary 2 MB documents plan in about 0.3 s; hostile ones (a head of 200,000 nested <template> tags)
 * took 6 s. Past this budget, or out of memory, the document gets the fallback placement, so one
 * upload holds a worker for at most this long.
 */
export const PLAN_TIMEOUT_MS = 4_000;
const resourceLimits = { maxOldGenerationSizeMb: 512 };

const planOnWorker = workerPool<Uint8Array, InjectionPlan>({
  name: "injection",
  // One core stays with the event loop.
  slots: Math.max(1, Math.min(2, availableParallelism() - 1)),
  spawn: () => workerFromSource(import.meta.url, "inject-worker.ts", resourceLimits) ?? new Worker(new URL("./inject-worker.ts", import.meta.url), { resourceLimits }),
  timeoutMs: PLAN_TIMEOUT_MS,
  fallback: (bytes, reason) => {
    if (reason === "timeout") console.error(`htmldrop: no injection plan after ${PLAN_TIMEOUT_MS} ms; the document gets the fallback placement`);
    return fallbackPlan(bytes);
  },
});

/** Where the defensive block goes in `bytes`, computed on a worker thread; `fairnessKey` says whose turn it spends. */
export function planInjectionOffThread(bytes: Uint8Array, fairnessKey: string): Promise<InjectionPlan> {
  return planOnWorker(bytes, fairnessKey);
}
