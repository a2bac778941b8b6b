// `npm run bench:hostile`: what one account's hostile documents cost everybody else.
// 1. The uploader's cost: publishing a 2 MB head of 200,000 nested <template> tags (6 s to parse).
// 2. The readers' attack: two anonymous clients cycle through DROPS distinct 2 MB drops (more than the
//    128 MB served-document cache holds, so it keeps evicting) while a third client calls GET /api/me
//    every 50 ms. Reports that call's latency, the server's event-loop delay (scripts/event-loop-monitor.mjs)
//    and its RSS. HOSTILE_SECONDS (default 20) and HOSTILE_DROPS (default 70) tune it; TEST_DB=postgres too.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import autocannon from "autocannon";
import { startApp, testDb } from "../tests/helpers/app";

const SECONDS = Number(process.env.HOSTILE_SECONDS ?? 20);
const DROPS = Number(process.env.HOSTILE_DROPS ?? 70);
const TWO_MB = 2_097_152;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** A distinct 2 MB page per index: nested templates in the body, where they parse fast. */
function bulkyPage(index: number): string {
  const shell = `<!DOCTYPE html><html><head><title>bulk ${index}</title></head><body></body></html>`;
  return shell.replace("<body>", `<body>${"<template>".repeat(Math.floor((TWO_MB - shell.length) / 10))}`);
}

async function main(): Promise<void> {
  const monitor = pathToFileURL(join(import.meta.dirname, "event-loop-monitor.mjs")).href;
  const app = await startApp({ env: { NODE_OPTIONS: `--import=${monitor}`, LIMIT_WRITES_PER_MINUTE: "1000", LIMIT_WRITES_PER_DAY: "10000" } });
  try {
    const mallory = await app.createToken("mallory");
    const alice = await app.createToken("alice");
    const port = new URL(app.baseUrl).port;
    console.log(`${testDb()} database, ${DROPS} drops of 2 MB, ${SECONDS} s of attack\n`);

    const hostileHead = `<!DOCTYPE html><html><head><title>t</title>${"<template>".repeat(200_000)}</head><body>x</body></html>`;
    let started = performance.now();
    const hostile = await app.api("/api/drops", { method: "POST", token: mallory, body: { title: "hostile", html: hostileHead } });
    if (hostile.status !== 201) throw new Error(`hostile upload refused: ${hostile.text}`);
    console.log(`uploader's cost: POST of a 2 MB head of nested templates answered in ${(performance.now() - started).toFixed(0)} ms`);
    started = performance.now();
    const during = await app.api("/api/me", { token: alice });
    console.log(`(an unrelated GET /api/me right after: ${during.status}, ${(performance.now() - started).toFixed(0)} ms)\n`);

    const paths: string[] = [];
    for (let index = 0; index < DROPS; index++) {
      const created = await app.api("/api/drops", { method: "POST", token: mallory, body: { title: `bulk ${index}`, html: bulkyPage(index) } });
      if (created.status !== 201) throw new Error(`could not create drop ${index}: ${created.text}`);
      paths.push(new URL(created.body.raw_url).pathname);
    }

    const logStart = app.logs().length;
    const latencies: number[] = [];
    let probing = true;
    const probe = (async () => {
      while (probing) {
        const begun = performance.now();
        const me = await app.api("/api/me", { token: alice });
        if (me.status !== 200) throw new Error(`GET /api/me answered ${me.status}`);
        latencies.push(performance.now() - begun);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const attack = await autocannon({
      url: `http://127.0.0.1:${port}`,
      connections: 2,
      duration: SECONDS,
      requests: paths.map((path) => ({ method: "GET", path, headers: { "accept-encoding": "br" } })),
    });
    probing = false;
    await probe;

    const reports = app
      .logs()
      .slice(logStart)
      .split("\n")
      .filter((line) => line.startsWith("event-loop-monitor "))
      .map((line) => JSON.parse(line.slice("event-loop-monitor ".length)) as { p99: number; max: number; rss: number });
    if (attack.non2xx > 0 || attack.errors > 0) throw new Error(`attack: ${attack.non2xx} non-2xx, ${attack.errors} errors`);
    console.log(`raw requests by the attackers: ${attack.requests.average.toFixed(0)} req/s (${attack.requests.total} in all)`);
    console.log(`GET /api/me during the attack: ${latencies.length} calls, p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms`);
    console.log(`event-loop delay per second: worst p99 ${Math.max(...reports.map((r) => r.p99)).toFixed(1)} ms, worst max ${Math.max(...reports.map((r) => r.max)).toFixed(1)} ms`);
    console.log(`server RSS: peak ${(Math.max(...reports.map((r) => r.rss)) / 2 ** 20).toFixed(0)} MB`);
  } finally {
    await app.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
