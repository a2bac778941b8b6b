// `npm run bench:hostile`: what one account's (or one anonymous client's) hostile requests cost
// everybody else. Each kind runs for HOSTILE_SECONDS (default 20) while a bystander calls
// GET /api/health every 50 ms; the script reports that call's latency (worst first: the target is under
// 300 ms), the server's event-loop delay (scripts/event-loop-monitor.mjs) and its RSS. Before each
// flood, the health check and each of the attack's code paths run once alone (see warmUp).
// HOSTILE_KINDS (default all, comma-separated) picks kinds; TEST_DB=postgres runs on PostgreSQL.
//  raw       two clients cycle through HOSTILE_DROPS (default 70) distinct 2 MB drops, more than the
//            served-document cache holds (and first: the uploader's cost of a 2 MB head of nested templates)
//  patterns  16 clients PUT patterns whose front matter is 64 KiB of nested brackets, or 16 KB (issue 28, item 8)
//  compare   8 clients cycle through the compare pages of 8 versions of 2 MB one-line documents (item 9)
//  comments  2 clients view a drop holding 1,000 comments at their limits, and each page of its thread (item 10)
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import autocannon, { type Request } from "autocannon";
import { startApp, testDb, type TestApp } from "../tests/helpers/app";

const SECONDS = Number(process.env.HOSTILE_SECONDS ?? 20);
const DROPS = Number(process.env.HOSTILE_DROPS ?? 70);
const KINDS = (process.env.HOSTILE_KINDS ?? "raw,patterns,compare,comments").split(",");
const TWO_MB = 2_097_152;

/** `warmUp`: one request of each code path the attack takes, run once before it (default: its first request). */
type Attack = { connections: number; requests: Request[]; warmUp?: Request[] };

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** A distinct 2 MB page per index: nested templates in the body, where they parse fast. */
function bulkyPage(index: number): string {
  const shell = `<!DOCTYPE html><html><head><title>bulk ${index}</title></head><body></body></html>`;
  return shell.replace("<body>", `<body>${"<template>".repeat(Math.floor((TWO_MB - shell.length) / 10))}`);
}

async function rawAttack(app: TestApp, mallory: string): Promise<Attack> {
  const hostileHead = `<!DOCTYPE html><html><head><title>t</title>${"<template>".repeat(200_000)}</head><body>x</body></html>`;
  const started = performance.now();
  const hostile = await app.api("/api/drops", { method: "POST", token: mallory, body: { title: "hostile", html: hostileHead } });
  if (hostile.status !== 201) throw new Error(`hostile upload refused: ${hostile.text}`);
  console.log(`uploader's cost: POST of a 2 MB head of nested templates answered in ${(performance.now() - started).toFixed(0)} ms`);
  const paths: string[] = [];
  for (let index = 0; index < DROPS; index++) {
    const created = await app.api("/api/drops", { method: "POST", token: mallory, body: { title: `bulk ${index}`, html: bulkyPage(index) } });
    if (created.status !== 201) throw new Error(`could not create drop ${index}: ${created.text}`);
    paths.push(new URL(created.body.raw_url).pathname);
  }
  return { connections: 2, requests: paths.map((path) => ({ method: "GET", path, headers: { "accept-encoding": "br" } })) };
}

function patternsAttack(mallory: string): Attack {
  const headers = { authorization: `Bearer ${mallory}`, "content-type": "application/json" };
  // The reviewer's 64 KiB of nesting, and what still fits under the front matter's size limit.
  const bodies = [`---\nx: ${"[".repeat(65_000)}\n---\n# G\n`, `---\nx: ${"[".repeat(16_000)}\n---\n# G\n`].map((markdown) => JSON.stringify({ markdown }));
  const requests = bodies.map((body): Request => ({ method: "PUT", path: "/api/patterns/hostile", headers, body }));
  // Each body fails a different check.
  return { connections: 16, requests, warmUp: requests };
}

async function compareAttack(app: TestApp, mallory: string): Promise<Attack> {
  const VERSIONS = 8;
  const created = await app.api("/api/drops", { method: "POST", token: mallory, body: { title: "long lines", html: "a".repeat(TWO_MB) } });
  if (created.status !== 201) throw new Error(`could not create the compared drop: ${created.text}`);
  const slug: string = created.body.slug;
  for (let version = 2; version <= VERSIONS; version++) {
    const html = String.fromCharCode(96 + version).repeat(TWO_MB);
    const put = await app.api(`/api/drops/${slug}`, { method: "PUT", token: mallory, body: { html } });
    if (put.status !== 200) throw new Error(`could not add version ${version}: ${put.text}`);
  }
  // Every ordered pair, so a cache of a few diffs keeps missing.
  const requests: Request[] = [];
  for (let from = 1; from <= VERSIONS; from++) {
    for (let to = 1; to <= VERSIONS; to++) if (from !== to) requests.push({ method: "GET", path: `/p/${slug}/compare?from=${from}&to=${to}` });
  }
  return { connections: 8, requests };
}

async function commentsAttack(app: TestApp, mallory: string): Promise<Attack> {
  const created = await app.api("/api/drops", { method: "POST", token: mallory, body: { title: "busy thread", html: "<p>discuss</p>" } });
  const slug: string = created.body.slug;
  await app.api(`/api/drops/${slug}`, { method: "PATCH", token: mallory, body: { comments: "anyone" } });
  // At its limits, and characters that HTML and the page's payload both escape.
  const comment = { v: 1, name: "G".repeat(60), body: "<&\"".repeat(1333), quote: Array.from({ length: 20 }, () => "<&\"".repeat(66)).join("\n") };
  const posted = await fetch(`${app.baseUrl}/p/${slug}/comments`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: new URL(app.baseUrl).origin },
    body: JSON.stringify(comment),
  });
  if (posted.status !== 201) throw new Error(`could not comment: ${await posted.text()}`);
  const { id } = (await posted.json()) as { id: string };
  // The rate limits would take days to reach 1,000 comments: copy the first in the database.
  const columns = ["dropId", "version", "body", "quote", "authorKind", "authorName", "authorUserId", "replyToId", "createdAt", "resolvedAt"].map((column) => `"${column}"`);
  await app.sql(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 999) ` +
      `INSERT INTO "Comment" (id, ${columns.join(", ")}) SELECT c.id || '-' || CAST(n.i AS TEXT), ${columns.map((column) => `c.${column}`).join(", ")} FROM "Comment" c, n WHERE c.id = '${id}'`,
  );
  const paths = [`/p/${slug}`, ...Array.from({ length: 50 }, (_, page) => `/p/${slug}?v=1&comments_page=${page + 1}`)];
  return { connections: 2, requests: paths.map((path) => ({ method: "GET", path, headers: { "accept-encoding": "gzip" } })) };
}

/**
 * The health check and each code path of the attack once, alone, before the flood: a server that has
 * just started loads each route's code and starts its database client on first use, a one-off cost
 * that is not what a hostile request costs the others.
 */
async function warmUp(app: TestApp, attack: Attack): Promise<void> {
  await (await fetch(`${app.baseUrl}/api/health`)).arrayBuffer();
  for (const request of attack.warmUp ?? attack.requests.slice(0, 1)) {
    const headers = Object.fromEntries(Object.entries(request.headers ?? {}).map(([name, value]) => [name, String(value)]));
    await (await fetch(`${app.baseUrl}${request.path}`, { method: request.method, headers, body: request.body as string | undefined })).arrayBuffer();
  }
}

async function underAttack(app: TestApp, kind: string, attack: Attack): Promise<void> {
  await warmUp(app, attack);
  const logStart = app.logs().length;
  const latencies: number[] = [];
  // A call that failed (the connection reset, the server gone) counts with the time it took, and is reported.
  const failures: string[] = [];
  let probing = true;
  const probe = (async () => {
    while (probing) {
      const begun = performance.now();
      try {
        const health = await fetch(`${app.baseUrl}/api/health`);
        await health.arrayBuffer();
        if (health.status !== 200) failures.push(`${health.status}`);
      } catch (error) {
        failures.push(String((error as Error).cause ?? error));
      }
      latencies.push(performance.now() - begun);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const result = await autocannon({ url: `http://127.0.0.1:${new URL(app.baseUrl).port}`, connections: attack.connections, duration: SECONDS, timeout: 60, requests: attack.requests });
  probing = false;
  await probe;
  const reports = app
    .logs()
    .slice(logStart)
    .split("\n")
    .filter((line) => line.startsWith("event-loop-monitor "))
    .map((line) => JSON.parse(line.slice("event-loop-monitor ".length)) as { p99: number; max: number; rss: number });
  const statuses = Object.entries(result.statusCodeStats ?? {})
    .map(([status, { count }]) => `${count}× ${status}`)
    .join(", ");
  console.log(`\n${kind}: ${attack.connections} clients, ${result.requests.total} requests (${statuses}; ${result.errors} errors, ${result.timeouts} timeouts), ${(result.throughput.average / 2 ** 20).toFixed(1)} MB/s`);
  console.log(`  GET /api/health: worst ${Math.max(...latencies).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms, p50 ${percentile(latencies, 50).toFixed(0)} ms (${latencies.length} calls${failures.length > 0 ? `, ${failures.length} failed: ${[...new Set(failures)].join("; ")}` : ""})`);
  if (failures.length > 0) console.log(`  the server's last words:\n${app.logs().slice(logStart).split("\n").filter((line) => !line.startsWith("event-loop-monitor ")).slice(-12).join("\n")}`);
  if (reports.length > 0) {
    console.log(`  event-loop delay per second: worst p99 ${Math.max(...reports.map((r) => r.p99)).toFixed(0)} ms, worst max ${Math.max(...reports.map((r) => r.max)).toFixed(0)} ms; server RSS peak ${(Math.max(...reports.map((r) => r.rss)) / 2 ** 20).toFixed(0)} MB`);
  }
}

async function main(): Promise<void> {
  const monitor = pathToFileURL(join(import.meta.dirname, "event-loop-monitor.mjs")).href;
  // The default write limits, unless the raw kind must upload its drops.
  const limits: Record<string, string> = KINDS.includes("raw") ? { LIMIT_WRITES_PER_MINUTE: "1000", LIMIT_WRITES_PER_DAY: "10000" } : {};
  const app = await startApp({ env: { NODE_OPTIONS: `--import=${monitor}`, ...limits } });
  try {
    console.log(`${testDb()} database, ${SECONDS} s per kind: ${KINDS.join(", ")}`);
    for (const kind of KINDS) {
      // An account per kind: one kind's writes must not spend the next one's budget.
      const mallory = await app.createToken(`mallory-${kind}`);
      if (kind === "raw") await underAttack(app, kind, await rawAttack(app, mallory));
      else if (kind === "patterns") await underAttack(app, kind, patternsAttack(mallory));
      else if (kind === "compare") await underAttack(app, kind, await compareAttack(app, mallory));
      else if (kind === "comments") await underAttack(app, kind, await commentsAttack(app, mallory));
      else throw new Error(`unknown kind ${kind}: raw, patterns, compare or comments`);
    }
  } finally {
    await app.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
