// `npm run bench`: what each kind of request costs the service, next to floors: a bare node:http
// server sending each read's own bytes (measured just before that read in every round, issue 35), and
// the cheapest dynamic page Next.js renders (built here from scripts/bench/minimal-next). On SQLite,
// then PostgreSQL (TEST_DB=sqlite or postgres runs one), it starts the real service (`npm start`'s
// script, tests/helpers/app.ts), publishes what the targets need, times the first preview card, runs
// autocannon on loopback against every read (the edge) in interleaved rounds, then the writes, and
// prints a Markdown table of medians (with the server's event-loop delay and highest RSS during each
// target, from scripts/event-loop-monitor.mjs), and the server's peak RSS over the edge and over the
// whole run. BENCH_SECONDS (default 5 per target and round), BENCH_ROUNDS (3) and BENCH_CONNECTIONS
// (50, for reads) tune it; BENCH_ONLY (a regular expression over the labels) keeps only some targets,
// to iterate on them.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { startApp, testDb, type TestApp, type TestDb } from "../tests/helpers/app";
import { type Fixtures, LIST_FILTER, seed, twoMegabytes, writeHtml } from "./bench/fixtures";
import { CACHE_BUDGET_BYTES, DATABASE_ROWS_BYTES, PAGE_CACHE_BYTES, SERVED_DOCUMENTS_BYTES } from "../lib/serving/cache-budget";
import { RETIRE_IDLE_MS } from "../lib/workers/worker-pool";
import { type BareBody, type Floor, startBareServer, startMinimalNext } from "./bench/floors";
import { type Answer, interleavedRounds, medianCpuRatio, medianRatio, monitorReports, peakRss, preflight, resetPeakRss, type Sample, serverPid, type Target, warmUp } from "./bench/measure";
import { machine, ratio, type Row, size, table } from "./bench/report";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
// Each write waits for its commit (an fsync on SQLite) and writes serialize on the account's
// counters: more connections would only queue, and lengthen every write's latency by as much.
const WRITE_CONNECTIONS = 4;
const DATABASES: TestDb[] = process.env.TEST_DB ? [testDb()] : ["sqlite", "postgres"];
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;

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

const RAW_LATEST = "raw, latest";
const GET_DROP = "GET /api/drops/<slug>";

/** The reads: what every edge of the service answers, each held against bare node:http where the issue sets a ratio. */
function readTargets(origin: string, fixtures: Fixtures): Target[] {
  const { slug, token } = fixtures;
  const read = { connections: CONNECTIONS };
  const getDropCall = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_drop", arguments: { slug } } });
  const list = `${origin}/api/drops?${new URLSearchParams(Object.entries(LIST_FILTER).map(([key, value]) => [`metadata.${key}`, value]))}`;
  return [
    { label: RAW_LATEST, url: `${origin}${fixtures.rawPath}`, sameBytes: true, ...read },
    { label: "raw, pinned ?v=1", url: `${origin}${fixtures.rawPath}?v=1`, sameBytes: true, ...read },
    { label: "raw, 304 (If-None-Match)", url: `${origin}${fixtures.rawPath}`, headers: { "if-none-match": fixtures.etag }, status: 304, ...read },
    { label: "viewer, from cache", url: `${origin}/p/${slug}`, verify: cacheHit, sameBytes: true, ...read },
    // Rendered by Next on every request: a locked drop, for a viewer who entered its passcode.
    { label: "viewer, rendered", url: `${origin}/p/${fixtures.lockedSlug}`, headers: { cookie: fixtures.unlockCookie }, verify: unlocked, ...read },
    // Drawn by firstCards before the edge: what unfurlers and CDNs revalidating a shared link ask for.
    { label: "preview card, drawn already", url: `${origin}/p/${slug}/og.png`, verify: cacheHit, ...read },
    { label: "/", url: `${origin}/`, verify: cacheHit, sameBytes: true, ...read },
    { label: "/docs", url: `${origin}/docs`, verify: cacheHit, sameBytes: true, ...read },
    { label: "/llms.txt", url: `${origin}/llms.txt`, verify: cacheHit, sameBytes: true, ...read },
    { label: "/api/onboard", url: `${origin}/api/onboard`, verify: cacheHit, sameBytes: true, ...read },
    { label: GET_DROP, url: `${origin}/api/drops/${slug}`, headers: bearer(token), sameBytes: true, ...read },
    { label: listLabel(500), url: list, headers: bearer(fixtures.manyDropsToken), verify: listsFiveDrops, ...read },
    { label: listLabel(5), url: list, headers: bearer(fixtures.fewDropsToken), verify: listsFiveDrops, ...read },
    {
      label: "MCP tools/call get_drop",
      method: "POST",
      url: `${origin}/mcp`,
      // Stateless Streamable HTTP (lib/mcp/http.ts): no initialize or session first, but the transport
      // refuses a client that does not accept both JSON and an event stream.
      headers: { ...bearer(token), ...JSON_BODY, accept: "application/json, text/event-stream" },
      body: () => getDropCall,
      verify: mcpReturnedDrop(slug),
      sameBytes: true,
      ...read,
    },
  ];
}

function writeTargets(origin: string, fixtures: Fixtures): Target[] {
  const write = { connections: WRITE_CONNECTIONS, headers: { ...bearer(fixtures.token), ...JSON_BODY } };
  return [
    { label: "POST /api/drops, new 4 KB", method: "POST", url: `${origin}/api/drops`, body: () => JSON.stringify({ title: "write", html: writeHtml() }), status: 201, ...write },
    { label: "PUT /api/drops/<slug>, new 4 KB", method: "PUT", url: `${origin}/api/drops/${fixtures.putSlug}`, body: () => JSON.stringify({ html: writeHtml() }), ...write },
  ];
}

/**
 * The bare twins of the reads that have one, each placed just before the first read it is the floor
 * of; reads answering the same bytes share one. Returns the ordered targets and, per read, its twin.
 */
async function withBareTwins(reads: Target[], answers: Answer[]): Promise<{ ordered: Target[]; twinOf: Map<Target, Target>; twinBytes: Map<Target, number>; bare: Floor & { urls: string[] } }> {
  const bodies: BareBody[] = [];
  const bodyIndex = new Map<string, number>();
  const indexOf = reads.map((target, index) => {
    if (!target.sameBytes) return -1;
    const { bytes, contentType } = answers[index]!;
    const key = `${contentType}\n${bytes.toString("base64")}`;
    if (!bodyIndex.has(key)) bodyIndex.set(key, bodies.push({ bytes, contentType }) - 1);
    return bodyIndex.get(key)!;
  });
  const bare = await startBareServer(bodies);
  const twins = bodies.map((body, index): Target => ({ label: `bare node:http, same ${size(body.bytes.length)} (${body.contentType.split(";")[0]})`, url: bare.urls[index]!, floor: true, connections: CONNECTIONS, pid: bare.pid }));
  const ordered: Target[] = [];
  const twinOf = new Map<Target, Target>();
  reads.forEach((target, index) => {
    const twin = twins[indexOf[index]!];
    if (twin && !ordered.includes(twin)) ordered.push(twin);
    if (twin) twinOf.set(target, twin);
    ordered.push(target);
  });
  return { ordered, twinOf, twinBytes: new Map(twins.map((twin, index) => [twin, bodies[index]!.bytes.length])), bare };
}

/** The first Open Graph card after the start: the card worker starts and loads its renderer on first use. */
async function firstCards(origin: string, slugs: string[]): Promise<string> {
  const times: string[] = [];
  for (const slug of slugs) {
    const started = performance.now();
    const response = await fetch(`${origin}/p/${slug}/og.png`);
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`the preview card of ${slug} answered ${response.status}`);
    times.push(`${(performance.now() - started).toFixed(0)} ms`);
  }
  return `- Preview cards (\`/p/<slug>/og.png\`), the first after the start, then another drop's: ${times.join(", ")}`;
}

/**
 * A new drop's link as an unfurler opens it, once the card worker has stopped: the viewer page, then at
 * once the card its og:image names, which began to be drawn as the page cache rendered the page.
 */
async function unfurledCard(app: TestApp, token: string, origin: string): Promise<string> {
  const created = await app.api("/api/drops", { method: "POST", token, body: { title: "unfurled", html: writeHtml() } });
  if (created.status !== 201) throw new Error(`could not create the unfurled drop: ${created.text}`);
  await new Promise((resolve) => setTimeout(resolve, RETIRE_IDLE_MS + 1000));
  const started = performance.now();
  const page = await fetch(`${origin}/p/${created.body.slug}`);
  const image = /<meta property="og:image" content="([^"]+)"/.exec(await page.text())?.[1]?.replaceAll("&amp;", "&");
  if (page.status !== 200 || !image) throw new Error(`the viewer page answered ${page.status} without og:image`);
  const pageDone = performance.now();
  const card = await fetch(`${origin}${new URL(image).pathname}${new URL(image).search}`);
  await card.arrayBuffer();
  if (card.status !== 200) throw new Error(`the unfurled card answered ${card.status}`);
  const cardDone = performance.now();
  return `- A new drop's link unfurled after the card worker stopped: its viewer page ${(pageDone - started).toFixed(0)} ms, then its card ${(cardDone - pageDone).toFixed(0)} ms (begun with the page)`;
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

function summary(rows: Row[], edgeRounds: Map<Target, Sample[]>, logs: string, edgePeak: number): string[] {
  const byLabel = (label: string) => rows.find((row) => row.target.label === label);
  const reports = monitorReports(logs);
  const lines: string[] = [];
  const [many, few, get] = [byLabel(listLabel(500)), byLabel(listLabel(5)), byLabel(GET_DROP)];
  if (many && few) lines.push(`- Listing with 3 metadata filters (5 matches either way), 500-drop account against 5-drop account: p50 ${ratio(many.sample.p50 / few.sample.p50)}×, p99 ${ratio(many.sample.p99 / few.sample.p99)}×, req/s ${ratio(many.sample.rps / few.sample.rps)}×`);
  if (many && get) lines.push(`- A single get against the list over 500 drops (req/s, median of rounds): ${ratio(medianRatio(edgeRounds.get(get.target)!, edgeRounds.get(many.target)!))}× (the issue's bound: within 2×)`);
  lines.push(
    `- Server peak RSS (VmHWM) over the edge (warm-up and rounds of every read, from ${(RETIRE_IDLE_MS + 1000) / 1000} s after seeding): ${(edgePeak / 2 ** 20).toFixed(0)} MB; over the whole run, seeding and writes included: ${(peakRss(serverPid(logs)) / 2 ** 20).toFixed(0)} MB. Cache budget: ${CACHE_BUDGET_BYTES / 2 ** 20} MB, ${SERVED_DOCUMENTS_BYTES / 2 ** 20} MB of raw documents, ${DATABASE_ROWS_BYTES / 2 ** 20} MB of the database's rows and ${PAGE_CACHE_BYTES / 2 ** 20} MB of pages`,
    `- Server event-loop delay over warm-up and rounds: worst p99 of a second ${Math.max(...reports.map((r) => r.p99)).toFixed(1)} ms, max ${Math.max(...reports.map((r) => r.max)).toFixed(1)} ms`,
  );
  return lines;
}

const pick = (targets: Target[]) => (ONLY ? targets.filter((target) => ONLY.test(target.label)) : targets);

async function benchDatabase(database: TestDb, nextPage: Floor): Promise<void> {
  console.error(`${database}: starting the service and publishing the fixtures`);
  // startApp reads TEST_DB to pick the database.
  process.env.TEST_DB = database;
  const app = await startApp({ env: APP_ENV });
  let bare: Floor | undefined;
  try {
    const fixtures = await seed(app);
    const origin = `http://127.0.0.1:${new URL(app.baseUrl).port}`;
    const cards = [await firstCards(origin, [fixtures.slug, fixtures.putSlug]), await unfurledCard(app, fixtures.token, origin)];
    const logStart = app.logs().length;
    const pid = serverPid(app.logs());
    const nextFloor: Target = { label: "minimal dynamic Next.js page", url: nextPage.url, floor: true, connections: CONNECTIONS };

    // The edge: every read, each next to its bare twin, with the peak RSS over them alone, from a server
    // whose upload workers, busy while seeding, have retired as they do when idle.
    const reads = pick(readTargets(origin, fixtures)).map((target) => ({ ...target, pid }));
    await new Promise((resolve) => setTimeout(resolve, RETIRE_IDLE_MS + 1000));
    resetPeakRss(pid);
    console.error(`${database}: warm-up`);
    await warmUp(reads, app.logs);
    const answers = await Promise.all(reads.map(preflight));
    const twins = await withBareTwins(reads, answers);
    bare = twins.bare;
    const edge = [nextFloor, ...twins.ordered];
    await warmUp(edge.filter((target) => target.floor), app.logs);
    const edgeRun = await interleavedRounds(edge, ROUNDS, SECONDS, app.logs);
    const edgePeak = peakRss(pid);

    // The writes, next to the Next floor.
    const writes = [nextFloor, ...pick(writeTargets(origin, fixtures)).map((target) => ({ ...target, pid }))];
    console.error(`${database}: writes`);
    const writeRun = await interleavedRounds(writes, ROUNDS, SECONDS, app.logs);
    const logs = app.logs().slice(logStart);

    const roundsOf = new Map<Target, Sample[]>(edge.map((target, index) => [target, edgeRun.rounds[index]!]));
    const bytesOf = new Map<Target, number>([...reads.map((target, index) => [target, answers[index]!.bytes.length] as const), ...twins.twinBytes]);
    const rows: Row[] = [
      ...edge.map((target, index) => {
        const twin = twins.twinOf.get(target);
        const [own, floor] = [roundsOf.get(target)!, twin && roundsOf.get(twin)!];
        return { target, bytes: bytesOf.get(target) ?? 0, sample: edgeRun.medians[index]!, sameBytes: floor ? medianRatio(own, floor) : undefined, sameBytesCpu: floor ? medianCpuRatio(own, floor) : undefined };
      }),
      ...writes.slice(1).map((target, index) => ({ target, bytes: 0, sample: writeRun.medians[index + 1]! })),
    ];
    const bareRaw = twins.twinOf.get(reads.find((target) => target.label === RAW_LATEST)!) ?? twins.ordered.find((target) => target.floor);
    const bareSample = bareRaw ? edgeRun.medians[edge.indexOf(bareRaw)]! : edgeRun.medians[0]!;

    console.log(`### ${database === "sqlite" ? "SQLite" : "PostgreSQL"}\n`);
    console.log(table(rows, bareSample, edgeRun.medians[0]!));
    console.log(`\n${[...cards, ...summary(rows, roundsOf, logs, edgePeak), ...(await largeDropTimings(app, fixtures.token, origin))].join("\n")}\n`);
  } finally {
    bare?.stop();
    await app.stop();
  }
}

async function main(): Promise<void> {
  console.error("building the minimal Next.js page");
  const nextPage = await startMinimalNext();
  try {
    console.log(`Machine: ${machine()}. Loopback, autocannon in the same machine; ${CONNECTIONS} connections for reads, ${WRITE_CONNECTIONS} for writes; medians of ${ROUNDS} interleaved rounds of ${SECONDS} s per target. "× bare, same bytes" is the median over rounds of the target's req/s over that of bare node:http sending the target's own answer, measured just before it; "CPU µs/req" is the answering process's CPU time per request, and "× bare's CPU/req" the bare twin's over the target's (median over rounds), which the neighbours' load on a shared machine moves far less than req/s; loop delay is the server's worst per-second event-loop delay p99 during the target's run.\n`);
    for (const database of DATABASES) await benchDatabase(database, nextPage);
  } finally {
    nextPage.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
