// Preloaded into the server by `npm run bench` and `npm run bench:hostile` (NODE_OPTIONS=--import):
// prints the main thread's event-loop delay and RSS every second, so the benchmark sees what a stall
// costs inside. NODE_OPTIONS also reaches tsx's launcher and the admin command, so only a process
// that listens on TCP (the server) reports; its pid lets the benchmark read its peak RSS from /proc.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { isMainThread } from "node:worker_threads";

if (isMainThread) {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  setInterval(() => {
    const report = { pid: process.pid, p99: delay.percentile(99) / 1e6, max: delay.max / 1e6, rss: process.memoryUsage().rss };
    delay.reset();
    // stderr: stdout's last line is what the admin command prints (the token).
    if (process.getActiveResourcesInfo().includes("TCPServerWrap")) console.error(`event-loop-monitor ${JSON.stringify(report)}`);
  }, 1000).unref();
}
