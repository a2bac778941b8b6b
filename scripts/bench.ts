// `npm run bench`: what each kind of request costs the service, next to two floors: a bare node:http
// server sending the same 50 KB, and the cheapest dynamic page Next.js renders (built here from
// scripts/bench/minimal-next). On SQLite, then PostgreSQL (TEST_DB=sqlite or postgres runs one), it
// starts the real service (`npm start`'s script, tests/helpers/app.ts), publishes what the targets need,
// runs autocannon on loopback against every target in interleaved rounds, and prints a Markdown table
// of medians, the server's peak RSS and its event-loop delay (scripts/event-loop-monitor.mjs).
// BENCH_SECONDS (default 5 per target and round), BENCH_ROUNDS (3) and BENCH_CONNECTIONS (50, for
// reads) tune it.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { startApp, testDb, type TestApp, type TestDb } from "../tests/helpers/app";
import { type Fixtures, LIST_FILTER, seed, twoMegabytes, writeHtml } from "./bench/fixtures";
import { type Floor, startBareServer, startMinimalNext } from "./bench/floors";
import { interleavedRounds, monitorReports, peakRss, preflight, type Sample, serverPid, type Target, warmUp } from "./bench/measure";
import { machine, ratio, table } from "./bench/report";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
// Each write waits for its commit (an fsync on SQLite) and writes serialize on the account's
// counters: more connections would only queue, and lengthen every write's latency by as much.
const WRITE_CONNECTIONS = 4;
const DATABASES: TestDb[] = process.env.TEST_DB ? [testDb()] : ["sqlite", "postgres"];

// The write targets make thousands of writes a minute, to one account and one drop.
const UNLIMITED = "1000000000";
const APP_ENV = {
  NODE_OPTIONS: `--import=${pathToFileURL(join(import.meta.dirname, "event-loop-monitor.mjs")).href}`,
  LIMIT_WRITES_PER_MINUTE: UNLIMITED,
  LIMIT_WRITES_PER_DAY: UNLIMITED,
  LIMIT_DROPS_PER_ACCOUNT: UNLIMITED,
  LIMIT_VERSIONS_PER_DROP: UNLIMITED,
};

const listLabel = (drops: number) => `GET /api/drops, 3 filters, ${drops} drops`;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const JSON_BODY = { "content-type": "application/json" };

const cacheHit = (_body: string, headers: Headers) => (headers.get("x-htmldrop-cache") === "hit" ? undefined : `X-HTMLDrop-Cache is ${headers.get("x-htmldrop-cache")}, not hit`);

const unlocked = (body: string) => (body.includes("<iframe") ? undefined : "the passcode gate, not the drop");

function listsFiveDrops(body: string): string | undefined {
  const { data } = JSON.parse(body) as { data: unknown[] };
  return data.length === 5 ? undefined : `listed ${data.length} drops, not the 5 that match`;
}

/** A tool error comes back as a 200 JSON-RPC result with isError, so the status alone proves nothing. */
function mcpReturnedDrop(slug: string) {
  return (body: string) => {
    const { result } = JSON.parse(body) as { result?: { isError?: boolean; structuredContent?: { slug?: string } } };
    return !result?.isError && result?.structuredContent?.slug === slug ? undefined : `not the drop: ${body.slice(0, 300)}`;
  };
}

function targets(origin: string, fixtures: Fixtures, bare: Floor, nextPage: Floor): Target[] {
  const { slug, token } = fixtures;
  const read = { connections: CONNECTIONS };
  const write = { connections: WRITE_CONNECTIONS, headers: { ...bearer(token), ...JSON_BODY } };
  const getDropCall = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_drop", arguments: { slug } } });
  const list = `${origin}/api/drops?${new URLSearchParams(Object.entries(LIST_FILTER).map(([key, value]) => [`metadata.${key}`, value]))}`;
  return [
    { label: "bare node:http, same 50 KB", url: bare.url, floor: true, ...read },
    { label: "minimal dynamic Next.js page", url: nextPage.url, floor: true, ...read },
    { label: "raw, latest", url: `${origin}${fixtures.rawPath}`, ...read },
    { label: "raw, pinned ?v=1", url: `${origin}${fixtures.rawPath}?v=1`, ...read },
    { label: "raw, 304 (If-None-Match)", url: `${origin}${fixtures.rawPath}`, headers: { "if-none-match": fixtures.etag }, status: 304, ...read },
    { label: "viewer, from cache", url: `${origin}/p/${slug}`, verify: cacheHit, ...read },
    // Rendered by Next on every request: a locked drop, for a viewer who entered its passcode.
    { label: "viewer, rendered", url: `${origin}/p/${fixtures.lockedSlug}`, headers: { cookie: fixtures.unlockCookie }, verify: unlocked, ...read },
    { label: "/", url: `${origin}/`, verify: cacheHit, ...read },
    { label: "/docs", url: `${origin}/docs`, verify: cacheHit, ...read },
    { label: "/llms.txt", url: `${origin}/llms.txt`, verify: cacheHit, ...read },
    { label: "/api/onboard", url: `${origin}/api/onboard`, verify: cacheHit, ...read },
    { label: "GET /api/drops/<slug>", url: `${origin}/api/drops/${slug}`, headers: bearer(token), ...read },
    { label: listLabel(500), url: list, headers: bearer(fixtures.manyDropsToken), verify: listsFiveDrops, ...read },
    { label: listLabel(5), url: list, headers: bearer(fixtures.fewDropsToken), verify: listsFiveDrops, ...read },
    { label: "POST /api/drops, new 4 KB", method: "POST", url: `${origin}/api/drops`, body: () => JSON.stringify({ title: "write", html: writeHtml() }), status: 201, ...write },
    { label: "PUT /api/drops/<slug>, new 4 KB", method: "PUT", url: `${origin}/api/drops/${fixtures.putSlug}`, body: () => JSON.stringify({ html: writeHtml() }), ...write },
    {
      label: "MCP tools/call get_drop",
      method: "POST",
      url: `${origin}/mcp`,
      // Stateless Streamable HTTP (lib/mcp/http.ts): no initialize or session first, but the transport
      // refuses a client that does not accept both JSON and an event stream.
      headers: { ...bearer(token), ...JSON_BODY, accept: "application/json, text/event-stream" },
      body: () => getDropCall,
      verify: mcpReturnedDrop(slug),
      ...read,
    },
  ];
}

/** The served bytes are built (parsed, injected) on a blob's first request, then kept in memory. */
async function largeDropTimings(app: TestApp, token: string, origin: string): Promise<string[]> {
  const lines: string[] = [];
  for (const viewport of [true, false]) {
    const large = await app.api("/api/drops", { method: "POST", token, body: { title: "large", html: twoMegabytes(viewport) } });
    if (large.status !== 201) throw new Error(`could not create the large drop: ${large.text}`);
    const url = `${origin}${new URL(large.body.raw_url).pathname}`;
    for (const request of ["first request (builds)", "second request (memory)"]) {
      const started = performance.now();
      const bytes = (await (await fetch(url)).arrayBuffer()).byteLength;
      lines.push(`- 2 MB drop, ${viewport ? "viewport in <head>" : "no viewport tag"}, ${request}: ${(performance.now() - started).toFixed(0)} ms, ${bytes} bytes`);
    }
  }
  return lines;
}

function summary(rows: { target: Target; sample: Sample }[], logs: string): string[] {
  const sample = (label: string) => rows.find((row) => row.target.label === label)!.sample;
  const [many, few] = [sample(listLabel(500)), sample(listLabel(5))];
  const reports = monitorReports(logs);
  return [
    `- Listing with 3 metadata filters (5 matches either way), 500-drop account against 5-drop account: p50 ${ratio(many.p50 / few.p50)}×, p99 ${ratio(many.p99 / few.p99)}×, req/s ${ratio(many.rps / few.rps)}×`,
    `- Server peak RSS (VmHWM) over the whole run, seeding included: ${(peakRss(serverPid(logs)) / 2 ** 20).toFixed(0)} MB`,
    `- Server event-loop delay over warm-up and rounds: worst p99 of a second ${Math.max(...reports.map((r) => r.p99)).toFixed(1)} ms, max ${Math.max(...reports.map((r) => r.max)).toFixed(1)} ms`,
  ];
}

async function benchDatabase(database: TestDb, nextPage: Floor): Promise<void> {
  console.error(`${database}: starting the service and publishing the fixtures`);
  // startApp reads TEST_DB to pick the database.
  process.env.TEST_DB = database;
  const app = await startApp({ env: APP_ENV });
  let bare: Floor | undefined;
  try {
    const fixtures = await seed(app);
    bare = await startBareServer(fixtures.rawBytes);
    const origin = `http://127.0.0.1:${new URL(app.baseUrl).port}`;
    const all = targets(origin, fixtures, bare, nextPage);
    const logStart = app.logs().length;
    console.error(`${database}: warm-up`);
    await warmUp(all, app.logs);
    const sizes = await Promise.all(all.map(preflight));
    const samples = await interleavedRounds(all, ROUNDS, SECONDS, app.logs);
    const logs = app.logs().slice(logStart);
    const rows = all.map((target, index) => ({ target, bytes: sizes[index]!, sample: samples[index]! }));

    console.log(`### ${database === "sqlite" ? "SQLite" : "PostgreSQL"}\n`);
    console.log(table(rows, samples[0]!, samples[1]!));
    console.log(`\n${[...summary(rows, logs), ...(await largeDropTimings(app, fixtures.token, origin))].join("\n")}\n`);
  } finally {
    bare?.stop();
    await app.stop();
  }
}

async function main(): Promise<void> {
  console.error("building the minimal Next.js page");
  const nextPage = await startMinimalNext();
  try {
    console.log(`Machine: ${machine()}. Loopback, autocannon in the same machine; ${CONNECTIONS} connections for reads, ${WRITE_CONNECTIONS} for writes; medians of ${ROUNDS} interleaved rounds of ${SECONDS} s per target. Ratios compare req/s; loop delay is the server's worst per-second event-loop delay p99 during the target's run.\n`);
    for (const database of DATABASES) await benchDatabase(database, nextPage);
  } finally {
    nextPage.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
