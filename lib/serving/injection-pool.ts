// Plans injections on worker threads, so no request blocks the event loop whatever the document.
// Jobs queue per fairness key (the uploading account): keys take turns, so one account that uploads
// costly documents waits behind its own jobs, never in front of everybody else's.
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { PlanReply } from "./inject-worker";
import { fallbackPlan, type InjectionPlan } from "./inject";

/**
 * Ordinary 2 MB documents plan in about 0.3 s; hostile ones (a head of 200,000 nested <template> tags)
 * took 6 s. Past this budget, or out of memory, the document gets the fallback placement, so one
 * upload holds a worker for at most this long.
 */
export const PLAN_TIMEOUT_MS = 4_000;
const WORKER_HEAP_MB = 512;

type Job = { bytes: Uint8Array; resolve: (plan: InjectionPlan) => void };
type Slot = { worker: Worker | null; busy: boolean };
type Pool = { queues: Map<string, Job[]>; slots: Slot[]; nextId: number };

const POOL_KEY = Symbol.for("htmldrop.injection-pool");
type PoolHolder = { [POOL_KEY]?: Pool };

function pool(): Pool {
  const holder = globalThis as PoolHolder;
  // One core stays with the event loop.
  const size = Math.max(1, Math.min(2, availableParallelism() - 1));
  return (holder[POOL_KEY] ??= { queues: new Map(), slots: Array.from({ length: size }, () => ({ worker: null, busy: false })), nextId: 0 });
}

// Run from source (the unit tests, the scripts run by tsx), the worker needs tsx's loader, which worker
// threads do not inherit on Node 20; bundled by Next, the entry below is compiled JavaScript.
const FROM_SOURCE_BOOTSTRAP = `const { entry } = require("node:worker_threads").workerData;
import("tsx/esm/api").then(({ tsImport }) => tsImport(entry, entry));`;

function spawnWorker(slot: Slot): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: WORKER_HEAP_MB };
  const worker = import.meta.url.endsWith(".ts")
    ? new Worker(FROM_SOURCE_BOOTSTRAP, { eval: true, workerData: { entry: import.meta.url.replace(/[^/]+$/, "inject-worker.ts") }, resourceLimits })
    : new Worker(new URL("./inject-worker.ts", import.meta.url), { resourceLimits });
  worker.on("error", (error) => console.error("htmldrop: injection worker failed; the document gets the fallback placement:", error.message));
  worker.once("exit", () => {
    if (slot.worker === worker) slot.worker = null;
  });
  return worker;
}

/** The next job, taking keys in turn: a key that was served goes to the back of the line. */
function takeJob(state: Pool): Job | undefined {
  for (const [key, jobs] of state.queues) {
    const job = jobs.shift();
    state.queues.delete(key);
    if (jobs.length > 0) state.queues.set(key, jobs);
    if (job) return job;
  }
  return undefined;
}

function runJob(state: Pool, slot: Slot, job: Job): void {
  slot.busy = true;
  const worker = (slot.worker ??= spawnWorker(slot));
  const id = state.nextId++;
  let settled = false;
  const finish = (plan: InjectionPlan, healthy: boolean) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    worker.off("message", onMessage);
    worker.off("exit", onExit);
    if (!healthy) {
      slot.worker = null;
      void worker.terminate();
    }
    slot.busy = false;
    job.resolve(plan);
    drain(state);
  };
  const onMessage = (reply: PlanReply) => {
    if (reply.id === id) finish(reply.plan, true);
  };
  const onExit = () => finish(fallbackPlan(job.bytes), false);
  const timer = setTimeout(() => {
    console.error(`htmldrop: no injection plan after ${PLAN_TIMEOUT_MS} ms; the document gets the fallback placement`);
    onExit();
  }, PLAN_TIMEOUT_MS);
  worker.on("message", onMessage);
  worker.once("exit", onExit);
  // A busy worker keeps the process alive until its answer arrives; an idle one must not (tests, admin commands).
  worker.ref();
  worker.postMessage({ id, bytes: job.bytes });
}

function drain(state: Pool): void {
  for (const slot of state.slots) {
    if (slot.busy) continue;
    const job = takeJob(state);
    if (!job) {
      slot.worker?.unref();
      continue;
    }
    runJob(state, slot, job);
  }
}

/** Where the defensive block goes in `bytes`, computed on a worker thread; `fairnessKey` says whose turn it spends. */
export function planInjectionOffThread(bytes: Uint8Array, fairnessKey: string): Promise<InjectionPlan> {
  const state = pool();
  return new Promise((resolve) => {
    const jobs = state.queues.get(fairnessKey);
    if (jobs) jobs.push({ bytes, resolve });
    else state.queues.set(fairnessKey, [{ bytes, resolve }]);
    drain(state);
  });
}
