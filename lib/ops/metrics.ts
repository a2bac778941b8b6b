// GET /metrics: Prometheus text for the people who run htmldrop on their own box. Requests are
// counted by the front door (npm start); the caches, rate limits, pools and view counts report their
// state when scraped. On Vercel every function instance has its own registry, so scrape `npm start`.
import type pg from "pg";
import { collectDefaultMetrics, Counter, Gauge, Registry } from "prom-client";
import { getConfig } from "@/lib/config";
import { databasePool } from "@/lib/db";
import { openedBatchedReadsPool } from "@/lib/db/reads";
import { OPERATIONS, operationLabel, type Operation } from "@/lib/api/operations";
import { ApiError } from "@/lib/errors";
import { rateLimitRefusals } from "@/lib/ratelimit";
import { LOCAL_CLIENT_HEADER } from "@/lib/ratelimit/client-key";
import { bearerCredential, constantTimeEqual } from "@/lib/security/tokens";
import { pageCacheStats } from "@/lib/serving/page-cache";
import { renderQueue } from "@/lib/serving/render-queue";
import { servedDocumentsStats } from "@/lib/serving/served-documents";
import { pendingViewStats } from "@/lib/serving/views";

const METRICS_KEY = Symbol.for("htmldrop.metrics");
const REQUESTS_KEY = Symbol.for("htmldrop.request-metrics");
/** Request series by route, then by status: a lookup a request, where one key of both was a new string to hash. */
type RequestSeriesByRoute = Map<string, Map<number, RequestSeries>>;
type MetricsHolder = { [METRICS_KEY]?: Registry; [REQUESTS_KEY]?: RequestSeriesByRoute };

/** Requests answered with one route and status: their count, and their durations as a histogram's. */
type RequestSeries = { route: string; status: string; count: number; seconds: number; inBucket: number[] };
const DURATION = "htmldrop_http_request_duration_seconds";
const DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Counted here rather than through prom-client's Counter and Histogram, which validate and hash the labels
 * on every call: about 2 µs of a cached page's 65. The counter is rendered by the registry, the
 * histogram by requestDurationText.
 */
function requestSeries(): RequestSeriesByRoute {
  return ((globalThis as MetricsHolder)[REQUESTS_KEY] ??= new Map());
}

function allRequestSeries(): RequestSeries[] {
  return [...requestSeries().values()].flatMap((byStatus) => [...byStatus.values()]);
}

/** A counter or gauge whose values live elsewhere: each scrape sets it to them. */
function mirrored(Metric: typeof Counter | typeof Gauge, registry: Registry, name: string, help: string, labelNames: string[], read: () => [Record<string, string>, number][]): void {
  new Metric({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      for (const [labels, value] of read()) this.inc(labels, value);
    },
  });
}

function pools(): [string, pg.Pool][] {
  const open: [string, pg.Pool | undefined][] = [
    ["prisma", databasePool()],
    ["batched", openedBatchedReadsPool()],
  ];
  return open.filter((entry): entry is [string, pg.Pool] => entry[1] !== undefined);
}

function createRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "htmldrop_" });
  mirrored(Counter, registry, "htmldrop_http_requests_total", "Requests answered, by route and status.", ["route", "status"], () =>
    allRequestSeries().map(({ route, status, count }) => [{ route, status }, count]),
  );
  for (const [cache, stats] of [["raw", servedDocumentsStats], ["page", pageCacheStats]] as const) {
    mirrored(Counter, registry, `htmldrop_${cache}_cache_lookups_total`, `Lookups in the ${cache} cache, by outcome.`, ["outcome"], () => [
      [{ outcome: "hit" }, stats().hits],
      [{ outcome: "miss" }, stats().misses],
    ]);
    mirrored(Gauge, registry, `htmldrop_${cache}_cache_bytes`, `Bytes the ${cache} cache holds.`, [], () => [[{}, stats().bytes]]);
    mirrored(Gauge, registry, `htmldrop_${cache}_cache_entries`, `Entries the ${cache} cache holds.`, [], () => [[{}, stats().entries]]);
  }
  mirrored(Counter, registry, "htmldrop_rate_limit_refusals_total", "Requests refused with 429, by policy.", ["policy"], () => [...rateLimitRefusals()].map(([policy, count]) => [{ policy }, count]));
  mirrored(Gauge, registry, "htmldrop_db_pool_connections", "PostgreSQL connections, by pool and state.", ["pool", "state"], () =>
    pools().flatMap(([pool, { totalCount, idleCount, waitingCount }]) => [
      [{ pool, state: "open" }, totalCount],
      [{ pool, state: "idle" }, idleCount],
      [{ pool, state: "waiting_clients" }, waitingCount],
    ]),
  );
  mirrored(Gauge, registry, "htmldrop_page_renders", "Requests handed to Next, by state: rendering, or waiting for a slot.", ["state"], () => {
    const { running, waiting } = renderQueue().load;
    return [
      [{ state: "running" }, running],
      [{ state: "waiting" }, waiting],
    ];
  });
  mirrored(Gauge, registry, "htmldrop_view_counts_pending", "Views recorded in memory and not yet written.", [], () => [[{}, pendingViewStats().views]]);
  mirrored(Gauge, registry, "htmldrop_view_counts_lag_seconds", "How long the oldest unwritten view has waited.", [], () => [[{}, pendingViewStats().lagSeconds]]);
  return registry;
}

function registry(): Registry {
  return ((globalThis as MetricsHolder)[METRICS_KEY] ??= createRegistry());
}

/** A label value in Prometheus's text format. */
function labelValue(value: string): string {
  return value.replace(/[\\"\n]/g, (character) => (character === "\n" ? "\\n" : `\\${character}`));
}

/** The request durations in Prometheus's text format, as prom-client writes a histogram. */
function requestDurationText(): string {
  const lines = [`# HELP ${DURATION} Time from request to the end of the response, by route and status.`, `# TYPE ${DURATION} histogram`];
  for (const { route, status, count, seconds, inBucket } of allRequestSeries()) {
    const labels = `route="${labelValue(route)}",status="${status}"`;
    let cumulative = 0;
    DURATION_BUCKETS.forEach((bound, index) => {
      cumulative += inBucket[index]!;
      lines.push(`${DURATION}_bucket{le="${bound}",${labels}} ${cumulative}`);
    });
    lines.push(`${DURATION}_bucket{le="+Inf",${labels}} ${count}`, `${DURATION}_sum{${labels}} ${seconds}`, `${DURATION}_count{${labels}} ${count}`);
  }
  return `${lines.join("\n")}\n`;
}

/** An operation's path template as a regular expression, with an empty group after it that says it matched. */
function templatePattern(operation: Operation): string {
  return `${operation.path.replace(/[.]/g, "\\.").replace(/\{[^}]+\}/g, "[^/]+")}()`;
}

/** A path's first segment: what the registry's templates are grouped by. */
function firstSegment(path: string): string {
  const end = path.indexOf("/", 1);
  return end === -1 ? path : path.slice(0, end);
}

type RouteGroup = { labels: string[]; pattern: RegExp };

/**
 * Each method's templates, grouped by their first segment, as one expression a group, an alternative per
 * operation in the registry's order: one match per request, where a test per template cost a public page
 * about forty, and a path no template's first segment names (most of the app's pages) needs no match.
 */
const ROUTES = new Map<string, Map<string, RouteGroup>>();
for (const method of new Set(OPERATIONS.map((operation) => operation.method.toUpperCase()))) {
  const bySegment = new Map<string, Operation[]>();
  for (const operation of OPERATIONS.filter((candidate) => candidate.method.toUpperCase() === method)) {
    const segment = firstSegment(operation.path);
    // A parameter there would match paths of every group.
    if (segment.includes("{")) throw new Error(`${operation.path}: the first segment of an operation's path must be literal`);
    bySegment.set(segment, [...(bySegment.get(segment) ?? []), operation]);
  }
  const groups = [...bySegment].map(([segment, operations]): [string, RouteGroup] => [
    segment,
    { labels: operations.map(operationLabel), pattern: new RegExp(`^(?:${operations.map(templatePattern).join("|")})$`) },
  ]);
  ROUTES.set(method, new Map(groups));
}

/** The route a request's label names: an API operation's template, so labels stay few; anything else is "other". */
export function routeLabel(method: string, url: string): string {
  const query = url.indexOf("?");
  const path = query === -1 ? url : url.slice(0, query);
  const group = ROUTES.get(method)?.get(firstSegment(path));
  const match = group?.pattern.exec(path);
  return match ? group!.labels[match.indexOf("", 1) - 1]! : "other";
}

export function recordRequest(route: string, status: number, seconds: number): void {
  const all = requestSeries();
  let byStatus = all.get(route);
  if (!byStatus) all.set(route, (byStatus = new Map()));
  let series = byStatus.get(status);
  if (!series) byStatus.set(status, (series = { route, status: String(status), count: 0, seconds: 0, inBucket: DURATION_BUCKETS.map(() => 0) }));
  series.count++;
  series.seconds += seconds;
  const bucket = DURATION_BUCKETS.findIndex((bound) => seconds <= bound);
  if (bucket !== -1) series.inBucket[bucket]!++;
}

export async function metricsText(): Promise<string> {
  return `${await registry().metrics()}\n${requestDurationText()}`;
}

export const METRICS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

/**
 * Who may scrape: with METRICS_TOKEN, a bearer of it; without, only a client on this machine, as the
 * front door recorded it (never on Vercel, where no front door runs and the header could be forged).
 */
export function assertMayReadMetrics(headers: Headers): void {
  const { metricsToken } = getConfig();
  if (metricsToken !== null) {
    const presented = bearerCredential(headers.get("authorization"));
    if (!presented) throw new ApiError("token_required", "Send `Authorization: Bearer <METRICS_TOKEN>` to read the metrics.");
    if (!constantTimeEqual(presented, metricsToken)) throw new ApiError("unauthorized", "That is not this server's METRICS_TOKEN.");
    return;
  }
  if (process.env.VERCEL || headers.get(LOCAL_CLIENT_HEADER) !== "1") {
    throw new ApiError("forbidden", "Metrics are served to this machine only; set METRICS_TOKEN to let a scraper elsewhere read them with it.");
  }
}

