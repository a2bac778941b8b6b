// The worker side of worker-pool.ts: answers each job the pool sends with `run`'s output.
import { parentPort } from "node:worker_threads";
import type { JobMessage, ReplyMessage } from "./worker-pool";

export function answerJobs<In, Out>(run: (input: In) => Out | Promise<Out>): void {
  parentPort!.on("message", async ({ id, input }: JobMessage<In>) => parentPort!.postMessage({ id, output: await run(input) } satisfies ReplyMessage<Out>));
}
