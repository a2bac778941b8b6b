// `npm run bench:previews`: what drawing one Open Graph card costs (lib/previews), drawn as the service
// draws them, on the card worker thread: the first render (starting the worker, loading the renderer and
// its font), then PREVIEW_RENDERS more with distinct titles (default 50), their p50 and p99, and
// the memory this process holds afterwards, while the worker runs and once it has stopped.
import { writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { drawCardOffThread } from "@/lib/previews/card-pool";
import { RETIRE_IDLE_MS } from "@/lib/workers/worker-pool";

const RENDERS = Number(process.env.PREVIEW_RENDERS ?? 50);
const OUTPUT = process.env.PREVIEW_OUTPUT;

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MB`;
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!;
}

const before = process.memoryUsage();
const content = {
  title: "Quarterly report: revenue, churn and the road to 2027 — 日本語 🎉",
  description: "A long description that wraps over two lines of the card, to see how the text is laid out when a drop has one.",
  version: 12,
  site: "drops.example.com",
};
let started = performance.now();
const first = await drawCardOffThread(content);
const firstMs = performance.now() - started;
if (OUTPUT) writeFileSync(OUTPUT, first);

const times: number[] = [];
for (let index = 0; index < RENDERS; index++) {
  started = performance.now();
  await drawCardOffThread({ ...content, title: `${content.title} #${index}`, version: index + 1 });
  times.push(performance.now() - started);
}
times.sort((a, b) => a - b);
const after = process.memoryUsage();
await new Promise((resolve) => setTimeout(resolve, RETIRE_IDLE_MS + 1000));
const retired = process.memoryUsage();
console.log(`first render ${firstMs.toFixed(0)} ms (${first.length} bytes of PNG); ${RENDERS} more: p50 ${percentile(times, 0.5).toFixed(0)} ms, p99 ${percentile(times, 0.99).toFixed(0)} ms`);
console.log(`memory: RSS ${megabytes(before.rss)} before, ${megabytes(after.rss)} after, ${megabytes(retired.rss)} once the worker stopped; heap ${megabytes(after.heapUsed)}, external ${megabytes(after.external)}`);
