// Computes the compare page's bounded diff and rendered changes away from the event loop (compare-pool.ts).
import { renderedChanges } from "./compare-blocks";
import { compareSources } from "./compare-diff";
import type { CompareResult, DiffJob } from "./compare-pool";
import { answerJobs } from "@/lib/workers/worker-jobs";

const text = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");

/** One part failing leaves the other: a page with no source diff can still mark its rendered view. */
function attempt<T>(what: string, run: () => T, fallback: T): T {
  try {
    return run();
  } catch (error) {
    console.error(`htmldrop: the compare page's ${what} failed; the page shows none:`, (error as Error).message);
    return fallback;
  }
}

answerJobs(({ from, to, fromBytes, toBytes }: DiffJob): CompareResult => {
  const [fromText, toText] = [text(fromBytes), text(toBytes)];
  return {
    source: attempt("diff", () => compareSources(from, to, fromText, toText), null),
    rendered: attempt("rendered changes", () => renderedChanges(fromText, toText), { changes: null, reason: "too_large" }),
  };
});
