// Computes the compare page's bounded diff away from the event loop (compare-pool.ts).
import { compareSources, type CompareDiff } from "./compare-diff";
import type { DiffJob } from "./compare-pool";
import { answerJobs } from "@/lib/workers/worker-jobs";

const text = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");

answerJobs(({ from, to, fromBytes, toBytes }: DiffJob): CompareDiff => {
  try {
    return compareSources(from, to, text(fromBytes), text(toBytes));
  } catch (error) {
    console.error("htmldrop: the compare page's diff failed; the page shows none:", (error as Error).message);
    return null;
  }
});
