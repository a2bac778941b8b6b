// `npm run bench:live`: what LIVE_READERS (default 1,000) open viewers of one drop cost the origin, in
// requests reaching it per minute, each scenario run for LIVE_SECONDS (default 60) against `npm start`
// (TEST_DB=postgres for PostgreSQL), with one version published halfway through:
//  reload          before: each reader reloads the viewer page every 5 s, straight to the origin (a
//                  conditional request, as a browser's reload is)
//  poll, no cache  each reader polls /p/<slug>/live.json as the viewer does (lib/drops/live-poll.ts),
//                  straight to the origin, as without a CDN
//  poll, CDN       the same polls through a shared cache honouring the answer's s-maxage and
//                  stale-while-revalidate (scripts/bench/shared-cache.ts), as one CDN location
// For the polling scenarios it also reports how long after the publish returned the readers saw the
// new version (median, 99th percentile, last reader).
import { nextPollDelay } from "@/lib/drops/live-poll";
import { publicPath } from "@/lib/drops/public-urls";
import { startApp, type TestApp } from "../tests/helpers/app";
import { startSharedCache } from "./bench/shared-cache";

const READERS = Number(process.env.LIVE_READERS ?? 1000);
const SECONDS = Number(process.env.LIVE_SECONDS ?? 60);
const RELOAD_MS = 5_000;

type Outcome = { originRequests: number; readerRequests: number; seenAfterMs: number[]; errors: number };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? NaN;
}

async function publish(app: TestApp, token: string, slug: string, version: number): Promise<number> {
  const put = await app.api(`/api/drops/${slug}`, { method: "PUT", token, body: { html: `<h1>Version ${version}</h1>` } });
  if (put.status !== 200) throw new Error(`the publish failed: ${put.status} ${put.text}`);
  return performance.now();
}

/**
 * Runs READERS readers for SECONDS against `base`, publishing version `next` halfway. A reader keeps
 * its last answer's ETag and asks with If-None-Match, as a browser revalidating does.
 */
async function run(base: string, path: string, delay: (failures: number) => number, publishNext: () => Promise<number>, next: number): Promise<Omit<Outcome, "originRequests">> {
  const end = performance.now() + SECONDS * 1000;
  let publishedAt = Infinity;
  let readerRequests = 0;
  let errors = 0;
  const seenAfterMs: number[] = [];
  const reader = async () => {
    let etag: string | null = null;
    let failures = 0;
    let seen = false;
    // Readers opened the page at different moments.
    await sleep(Math.random() * delay(0));
    while (performance.now() < end) {
      readerRequests++;
      try {
        const response: Response = await fetch(`${base}${path}`, { headers: etag ? { "if-none-match": etag } : {} });
        // Read to the end either way, so the connection is reused.
        const body = await response.text();
        if (response.status !== 200 && response.status !== 304) throw new Error(String(response.status));
        etag = response.headers.get("etag") ?? etag;
        failures = 0;
        if (!seen && body.includes(`"latest_version":${next}`)) {
          seen = true;
          seenAfterMs.push(Math.max(0, performance.now() - publishedAt));
        }
      } catch {
        errors++;
        failures++;
      }
      await sleep(delay(failures));
    }
  };
  const readers = Array.from({ length: READERS }, reader);
  await sleep((SECONDS * 1000) / 2);
  publishedAt = await publishNext();
  await Promise.all(readers);
  return { readerRequests, seenAfterMs: seenAfterMs.sort((a, b) => a - b), errors };
}

function seconds(ms: number): string {
  return Number.isNaN(ms) ? "—" : `${(ms / 1000).toFixed(1)} s`;
}

async function main(): Promise<void> {
  const app = await startApp({ env: { LIMIT_WRITES_PER_MINUTE: "1000" } });
  try {
    const token = await app.createToken("bench-live");
    const created = await app.api("/api/drops", { method: "POST", token, body: { title: "Live bench", html: "<h1>Version 1</h1>" } });
    if (created.status !== 201) throw new Error(`could not create the drop: ${created.text}`);
    const slug: string = created.body.slug;
    const origin = `http://127.0.0.1:${app.env.PORT}`;
    let version = 1;
    const publishNext = () => publish(app, token, slug, ++version);
    const poll = (failures: number) => nextPollDelay(failures, Math.random());
    const results: [string, Outcome][] = [];

    console.log(`${READERS} readers, ${SECONDS} s per scenario, ${process.env.TEST_DB === "postgres" ? "PostgreSQL" : "SQLite"}`);
    const reload = await run(origin, publicPath(slug), () => RELOAD_MS, publishNext, version + 1);
    results.push(["reload the page every 5 s, no shared cache", { ...reload, originRequests: reload.readerRequests, seenAfterMs: [] }]);

    const direct = await run(origin, publicPath(slug, "live"), poll, publishNext, version + 1);
    results.push(["poll live.json, no shared cache", { ...direct, originRequests: direct.readerRequests }]);

    const cache = await startSharedCache(origin);
    const cached = await run(`http://127.0.0.1:${cache.port}`, publicPath(slug, "live"), poll, publishNext, version + 1);
    results.push(["poll live.json through one CDN location", { ...cached, originRequests: cache.originRequests() }]);
    await cache.close();

    const perMinute = (count: number) => (count / SECONDS) * 60;
    const baseline = perMinute(results[0]![1].originRequests);
    console.log("| scenario | reader requests/min | origin requests/min | × reload | new version seen: median / p99 / last |");
    console.log("| --- | ---: | ---: | ---: | --- |");
    for (const [name, outcome] of results) {
      const origin = perMinute(outcome.originRequests);
      const seen = outcome.seenAfterMs;
      const latency = seen.length === 0 ? "—" : `${seconds(percentile(seen, 0.5))} / ${seconds(percentile(seen, 0.99))} / ${seconds(seen.at(-1)!)} (${seen.length} readers)`;
      console.log(`| ${name} | ${Math.round(perMinute(outcome.readerRequests)).toLocaleString("en")} | ${Math.round(origin).toLocaleString("en")} | ${(origin / baseline).toPrecision(2)} | ${latency} |`);
      if (outcome.errors > 0) console.log(`  (${outcome.errors} failed requests)`);
    }
  } finally {
    await app.stop();
  }
}

await main();
