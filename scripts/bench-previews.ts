// `npm run bench:previews`: what drawing one Open Graph card costs (lib/previews), in this process:
// the first render (loading next/og's font and WebAssembly), then PREVIEW_RENDERS more with distinct
// titles (default 50), their p50 and p99, and the memory the process holds afterwards. Any attempt to
// reach the network fails the run: the card must be drawn from what next/og bundles.
import { writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { renderPreviewCard } from "@/lib/previews/render";

const RENDERS = Number(process.env.PREVIEW_RENDERS ?? 50);
const OUTPUT = process.env.PREVIEW_OUTPUT;

globalThis.fetch = () => Promise.reject(new Error("a preview render tried to reach the network"));

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
const first = await renderPreviewCard(content);
const firstMs = performance.now() - started;
if (OUTPUT) writeFileSync(OUTPUT, first);

const times: number[] = [];
for (let index = 0; index < RENDERS; index++) {
  started = performance.now();
  await renderPreviewCard({ ...content, title: `${content.title} #${index}`, version: index + 1 });
  times.push(performance.now() - started);
}
times.sort((a, b) => a - b);
const after = process.memoryUsage();
console.log(`first render ${firstMs.toFixed(0)} ms (${first.length} bytes of PNG); ${RENDERS} more: p50 ${percentile(times, 0.5).toFixed(0)} ms, p99 ${percentile(times, 0.99).toFixed(0)} ms`);
console.log(`memory: RSS ${megabytes(before.rss)} before, ${megabytes(after.rss)} after; heap ${megabytes(after.heapUsed)}, external ${megabytes(after.external)}`);
