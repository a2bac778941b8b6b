// The worker pool (lib/workers/worker-pool.ts) stops an idle worker after RETIRE_IDLE_MS. A job that
// arrives while that worker is still shutting down must get a worker that will answer it, not the one
// on its way out (whose exit would give the job the fallback answer: a compare page saying two small
// versions "differ too much").
import { Worker } from "node:worker_threads";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RETIRE_IDLE_MS, workerPool } from "@/lib/workers/worker-pool";

const ECHO = `const { parentPort } = require("node:worker_threads");
parentPort.on("message", ({ id, input }) => parentPort.postMessage({ id, output: input }));`;

afterEach(() => {
  vi.useRealTimers();
});

describe("an idle worker's retirement", () => {
  it("answers a job that arrives as the idle worker is being stopped from a new worker", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const spawned: Worker[] = [];
    const echo = workerPool<string, string>({
      name: "retirement-test",
      slots: 1,
      spawn: () => {
        spawned.push(new Worker(ECHO, { eval: true }));
        return spawned.at(-1)!;
      },
      timeoutMs: 10_000,
      fallback: (_input, reason) => `fallback (${reason})`,
    });
    expect(await echo("first", "client")).toBe("first");
    vi.advanceTimersByTime(RETIRE_IDLE_MS);
    expect(await echo("second", "client")).toBe("second");
    expect(spawned).toHaveLength(2);
    await Promise.all(spawned.map((worker) => worker.terminate()));
  });
});
