// Work that would hold the event loop (planning an injection, diffing two versions) runs on worker
// threads. Jobs queue per fairness key: keys take turns, so a client that sends costly work waits
// behind its own jobs, never in front of everybody else's. A job that outlasts its budget, or a worker
// that dies, gets the pool's fallback answer, and the worker is replaced.
import { Worker, type ResourceLimits } from "node:worker_threads";

type Job<In, Out> = { input: In; resolve: (output: Out) => void };
type Slot = { worker: Worker | null; busy: boolean; retire?: NodeJS.Timeout };
type PoolState<In, Out> = { queues: Map<string, Job<In, Out>[]>; slots: Slot[]; nextId: number };

/** What a worker is sent and answers; workers reply through answerJobs (worker-jobs.ts). */
export type JobMessage<In> = { id: number; input: In };
export type ReplyMessage<Out> = { id: number; output: Out };

export type WorkerPoolOptions<In, Out> = {
  /** Names the pool in the logs, and its state on globalThis: Next loads a module once per layer, and they share one pool. */
  name: string;
  slots: number;
  /** Starts a worker; each pool names its own worker file literally, so Next's bundler finds it. */
  spawn: () => Worker;
  timeoutMs: number;
  /** The answer for a job that outlasted timeoutMs or whose worker died. */
  fallback: (input: In, reason: "timeout" | "failed") => Out;
};

/**
 * An idle worker is stopped after this long: each holds a V8 isolate of its own (about 40 MB of the
 * process's resident memory, issue 35), and starting one again costs tens of milliseconds, off the event loop.
 */
export const RETIRE_IDLE_MS = 15_000;

// Run from source (the unit tests, the scripts run by tsx), a worker needs tsx's loader, which worker
// threads do not inherit on Node 20. Bundled by Next, a pool's worker entry is compiled JavaScript.
const FROM_SOURCE_BOOTSTRAP = `const { entry } = require("node:worker_threads").workerData;
import("tsx/esm/api").then(({ tsImport }) => tsImport(entry, entry));`;

/**
 * Outside Next's bundle, the worker file beside the pool's module, loaded by tsx; inside it, null. The
 * module's URL cannot tell: Turbopack keeps import.meta.url naming the .ts source, and a server that
 * took it for source loaded the source through tsx (which a Vercel function does not carry). Next
 * inlines NEXT_RUNTIME into its bundles, and nothing else sets it.
 */
export function workerFromSource(moduleUrl: string, file: string, resourceLimits: ResourceLimits): Worker | null {
  if (process.env.NEXT_RUNTIME) return null;
  return new Worker(FROM_SOURCE_BOOTSTRAP, { eval: true, workerData: { entry: moduleUrl.replace(/[^/]+$/, file) }, resourceLimits });
}

/** A pool of `slots` workers; the function it answers queues `input` under `fairnessKey` and resolves with the worker's output. */
export function workerPool<In, Out>(options: WorkerPoolOptions<In, Out>): (input: In, fairnessKey: string) => Promise<Out> {
  const key = Symbol.for(`htmldrop.worker-pool.${options.name}`);
  const state = () => ((globalThis as Record<symbol, PoolState<In, Out>>)[key] ??= { queues: new Map(), slots: Array.from({ length: options.slots }, () => ({ worker: null, busy: false })), nextId: 0 });

  const spawn = (slot: Slot): Worker => {
    const worker = options.spawn();
    worker.on("error", (error) => console.error(`htmldrop: the ${options.name} worker failed; its job gets the fallback answer:`, error.message));
    worker.once("exit", () => {
      if (slot.worker === worker) slot.worker = null;
    });
    return worker;
  };

  /** The next job, taking keys in turn: a key that was served goes to the back of the line. */
  const takeJob = (pool: PoolState<In, Out>): Job<In, Out> | undefined => {
    for (const [fairnessKey, jobs] of pool.queues) {
      const job = jobs.shift();
      pool.queues.delete(fairnessKey);
      if (jobs.length > 0) pool.queues.set(fairnessKey, jobs);
      if (job) return job;
    }
    return undefined;
  };

  const run = (pool: PoolState<In, Out>, slot: Slot, job: Job<In, Out>): void => {
    slot.busy = true;
    clearTimeout(slot.retire);
    const worker = (slot.worker ??= spawn(slot));
    const id = pool.nextId++;
    let settled = false;
    const finish = (output: Out, healthy: boolean) => {
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
      job.resolve(output);
      drain(pool);
    };
    const onMessage = (reply: ReplyMessage<Out>) => {
      if (reply.id === id) finish(reply.output, true);
    };
    const onExit = () => finish(options.fallback(job.input, "failed"), false);
    const timer = setTimeout(() => finish(options.fallback(job.input, "timeout"), false), options.timeoutMs);
    worker.on("message", onMessage);
    worker.once("exit", onExit);
    // A busy worker keeps the process alive until its answer arrives; an idle one must not (tests, admin commands).
    worker.ref();
    worker.postMessage({ id, input: job.input } satisfies JobMessage<In>);
  };

  const drain = (pool: PoolState<In, Out>): void => {
    for (const slot of pool.slots) {
      if (slot.busy) continue;
      const job = takeJob(pool);
      if (!job) {
        const idle = slot.worker;
        if (idle) {
          idle.unref();
          clearTimeout(slot.retire);
          slot.retire = setTimeout(() => {
            if (slot.worker !== idle || slot.busy) return;
            // Let go of it now: it exits a moment later, and a job given to it meanwhile would get the fallback.
            slot.worker = null;
            void idle.terminate();
          }, RETIRE_IDLE_MS).unref();
        }
        continue;
      }
      run(pool, slot, job);
    }
  };

  return (input, fairnessKey) => {
    const pool = state();
    return new Promise((resolve) => {
      const jobs = pool.queues.get(fairnessKey);
      if (jobs) jobs.push({ input, resolve });
      else pool.queues.set(fairnessKey, [{ input, resolve }]);
      drain(pool);
    });
  };
}
