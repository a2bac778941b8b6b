// `npm run bench`: requests/s of the raw endpoint against a bare node:http server sending the same bytes.
// Starts the real service (tsx server.ts) on a disposable SQLite folder, or a fresh PostgreSQL schema
// with TEST_DB=postgres, publishes a 50 KB drop (and a locked one), then runs autocannon on loopback
// against raw and the viewer page. BENCH_SECONDS (default 12 per target) and BENCH_CONNECTIONS (default 50) tune it.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { freePort, startApp, testDb } from "../tests/helpers/app";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 12);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUNDS = 3;

function fiftyKilobytes(): string {
  const rows: string[] = [];
  for (let i = 0; rows.join("").length < 50_000; i++) rows.push(`<tr><td>${i}</td><td>row ${i} of the benchmark table</td><td>${(i * 7919) % 1000}</td></tr>\n`);
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>bench</title></head><body><table>${rows.join("")}</table></body></html>`;
}

/** A 2 MB page; with a viewport tag in its head (as agents write them) or without (the costlier case). */
function twoMegabytes(viewport: boolean): string {
  const row = "<tr><td>cell &amp; more</td><td><!-- </head> --></td><td><script>let x = '</head>';</script></td></tr>\n";
  const meta = viewport ? '<meta name="viewport" content="width=device-width">' : "";
  const shell = `<!DOCTYPE html><html><head>${meta}<title>large</title></head><body><table></table></body></html>`;
  return shell.replace("<table>", `<table>${row.repeat(Math.floor((2_097_152 - shell.length) / row.length))}`);
}

// The baseline runs in its own process, like the app, so neither shares an event loop with autocannon.
const BARE_SERVER = `
const { readFileSync } = require("node:fs");
const body = readFileSync(process.argv[1]);
require("node:http").createServer((request, response) => {
  response.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": body.length }).end(body);
}).listen(Number(process.argv[2]), "127.0.0.1", () => console.log("listening"));`;

function startBareServer(file: string, port: number): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-e", BARE_SERVER, file, String(port)], { stdio: ["ignore", "pipe", "inherit"] });
    child.stdout!.once("data", () => resolve(child));
    child.once("exit", (code) => reject(new Error(`bare server exited with ${code}`)));
  });
}

/** One autocannon run; fails loudly if anything but 2xx came back. */
async function run(label: string, url: string, seconds: number, headers: Record<string, string> = {}): Promise<{ rps: number; p50: number; p99: number }> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${label}: ${result.non2xx} non-2xx responses, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function main(): Promise<void> {
  const app = await startApp();
  const scratch = mkdtempSync(join(tmpdir(), "htmldrop-bench-"));
  let bare: ChildProcess | undefined;
  try {
    const token = await app.createToken("bench");
    const created = await app.api("/api/drops", { method: "POST", token, body: { title: "bench", html: fiftyKilobytes() } });
    if (created.status !== 201) throw new Error(`could not create the drop: ${created.text}`);
    const rawPath = new URL(created.body.raw_url).pathname;
    const appUrl = new URL(app.baseUrl);
    const rawUrl = `http://127.0.0.1:${appUrl.port}${rawPath}`;
    const served = Buffer.from(await (await fetch(rawUrl)).arrayBuffer());

    const locked = await app.api("/api/drops", { method: "POST", token, body: { title: "bench, locked", html: fiftyKilobytes(), passcode: "bench-passcode" } });
    if (locked.status !== 201) throw new Error(`could not create the locked drop: ${locked.text}`);
    const unlocked = await fetch(`${app.baseUrl}/p/${locked.body.slug}/unlock`, { method: "POST", body: new URLSearchParams({ passcode: "bench-passcode" }), redirect: "manual" });
    const unlockCookie = unlocked.headers.get("set-cookie")!.split(";")[0]!;

    const port = await freePort();
    writeFileSync(join(scratch, "drop.html"), served);
    bare = await startBareServer(join(scratch, "drop.html"), port);

    // Interleaved rounds, reported as medians: on a shared machine, neighbours' load then hits all three alike.
    const targets: { label: string; url: string; headers: Record<string, string> }[] = [
      { label: "bare node:http", url: `http://127.0.0.1:${port}/`, headers: {} },
      { label: "raw, latest (DB lookup each time)", url: rawUrl, headers: {} },
      { label: "raw, pinned ?v=1", url: `${rawUrl}?v=1`, headers: {} },
      { label: "viewer page, from cache", url: `http://127.0.0.1:${appUrl.port}/p/${created.body.slug}`, headers: {} },
      // The same page rendered by Next on every request: a locked drop's unlocked view (cookie below).
      { label: "viewer page, rendered (locked)", url: `http://127.0.0.1:${appUrl.port}/p/${locked.body.slug}`, headers: { cookie: unlockCookie } },
    ];
    const seconds = Math.max(1, Math.round(SECONDS / ROUNDS));
    console.log(`${testDb()} database, ${served.length} bytes per response, ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${seconds} s per target, loopback\n`);
    // Warm-up (JIT, caches, connection pools), not counted.
    for (const target of targets) await run(target.label, target.url, 2, target.headers);
    const results = targets.map(() => [] as { rps: number; p50: number; p99: number }[]);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [index, target] of targets.entries()) results[index]!.push(await run(target.label, target.url, seconds, target.headers));
    }
    const medians = results.map((runs) => ({ rps: median(runs.map((r) => r.rps)), p50: median(runs.map((r) => r.p50)), p99: median(runs.map((r) => r.p99)) }));
    for (const [index, target] of targets.entries()) {
      const { rps, p50, p99 } = medians[index]!;
      console.log(`${target.label.padEnd(34)} ${rps.toFixed(0).padStart(7)} req/s   p50 ${p50} ms   p99 ${p99} ms`);
    }
    const share = (index: number) => ((medians[index]!.rps / medians[0]!.rps) * 100).toFixed(0);
    console.log(`\nlatest: ${share(1)}% of bare node:http; pinned: ${share(2)}%; viewer from cache: ${share(3)}%, rendered: ${share(4)}%`);

    // The served bytes are built (parsed, injected) on a blob's first request, then kept in memory.
    for (const viewport of [true, false]) {
      const large = await app.api("/api/drops", { method: "POST", token, body: { title: "large", html: twoMegabytes(viewport) } });
      if (large.status !== 201) throw new Error(`could not create the large drop: ${large.text}`);
      const largeUrl = `http://127.0.0.1:${appUrl.port}${new URL(large.body.raw_url).pathname}`;
      for (const request of ["first request (builds)", "second request (memory)"]) {
        const started = performance.now();
        const bytes = (await (await fetch(largeUrl)).arrayBuffer()).byteLength;
        const label = `2 MB drop, ${viewport ? "viewport in <head>" : "no viewport tag"}, ${request}`;
        console.log(`${label.padEnd(62)} ${(performance.now() - started).toFixed(0).padStart(5)} ms, ${bytes} bytes`);
      }
    }
  } finally {
    bare?.removeAllListeners("exit").kill();
    await app.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
