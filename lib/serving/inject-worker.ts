// Runs planInjection away from the event loop: a 2 MB document can take a second to parse.
import { parentPort } from "node:worker_threads";
import { planInjection } from "./inject";

export type PlanRequest = { id: number; bytes: Uint8Array };
export type PlanReply = { id: number; plan: ReturnType<typeof planInjection> };

parentPort!.on("message", ({ id, bytes }: PlanRequest) => {
  const source = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  parentPort!.postMessage({ id, plan: planInjection(source) } satisfies PlanReply);
});
