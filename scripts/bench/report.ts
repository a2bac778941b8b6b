// The bench's output: Markdown that can be pasted into the README as it is.
import { cpus, release, totalmem, type } from "node:os";
import type { Sample, Target } from "./measure";

export function machine(): string {
  const cores = cpus();
  return `${type()} ${release()}, ${cores.length} × ${cores[0]?.model.trim() ?? "unknown CPU"}, ${(totalmem() / 2 ** 30).toFixed(1)} GB RAM, Node.js ${process.version}`;
}

export function size(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

/** Two significant digits, whole numbers from 10 up: 0.0071, 0.62, 3.4, 27. */
export function ratio(value: number): string {
  return value >= 10 ? value.toFixed(0) : value.toPrecision(2);
}

export type Row = { target: Target; bytes: number; sample: Sample; sameBytes?: number; sameBytesCpu?: number };

/** One row per target; the ratios compare requests per second with the floors. */
export function table(rows: Row[], bare: Sample, nextPage: Sample): string {
  const header = ["Target", "Conns", "Body", "req/s", "p50 ms", "p99 ms", "× bare, same bytes", "CPU µs/req", "× bare's CPU/req", "× bare 50 KB", "× minimal Next page", "loop delay p99 ms", "server RSS MB"];
  const lines = rows.map(({ target, bytes, sample, sameBytes, sameBytesCpu }) =>
    [
      target.label,
      String(target.connections),
      size(bytes),
      sample.rps.toFixed(0),
      String(sample.p50),
      String(sample.p99),
      sameBytes === undefined ? "" : `**${ratio(sameBytes)}**`,
      Number.isNaN(sample.cpuUs) ? "" : sample.cpuUs.toFixed(0),
      sameBytesCpu === undefined ? "" : ratio(sameBytesCpu),
      ratio(sample.rps / bare.rps),
      ratio(sample.rps / nextPage.rps),
      target.floor ? "–" : sample.loopP99.toFixed(0),
      target.floor ? "–" : (sample.rss / 2 ** 20).toFixed(0),
    ].join(" | "),
  );
  return [header.join(" | "), header.map((_, index) => (index < 1 ? "---" : "---:")).join(" | "), ...lines].map((line) => `| ${line} |`).join("\n");
}
