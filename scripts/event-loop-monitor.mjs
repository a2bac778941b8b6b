// Preloaded into the server by `npm run bench:hostile` (NODE_OPTIONS=--import): prints the main
// thread's event-loop delay and RSS every second, so the benchmark sees what a stall costs inside.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { isMainThread } from "node:worker_threads";

if (isMainThread) {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  setInterval(() => {
    const report = { p99: delay.percentile(99) / 1e6, max: delay.max / 1e6, rss: process.memoryUsage().rss };
    // stderr: stdout's last line is what the admin command prints (the token).
    console.error(`event-loop-monitor ${JSON.stringify(report)}`);
    delay.reset();
  }, 1000).unref();
}
