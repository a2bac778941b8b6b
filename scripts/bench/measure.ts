// Load generation and what the server reports about itself (scripts/event-loop-monitor.mjs).
import { readFileSync, writeFileSync } from "node:fs";
import autocannon from "autocannon";

export type Target = {
  label: string;
  url: string;
  method?: "GET" | "POST" | "PUT";
  headers?: Record<string, string>;
  /** Called for every request, so that each write can send new HTML. */
  body?: () => string;
  connections: number;
  /** The only status the target may answer; anything else fails the bench. */
  status?: number;
  /** A floor the service is compared with, not the service: its event-loop column stays empty. */
  floor?: boolean;
  /** Held against bare node:http sending its own bytes, measured just before it in every round. */
  sameBytes?: boolean;
  /** The process that answers it, whose CPU time per request is measured. */
  pid?: number;
  /** What is wrong with an answer of the right status (a cache miss, a tool error inside a 200), if anything. */
  verify?: (body: string, headers: Headers) => string | undefined;
};

/**
 * cpuUs: the answering process's CPU time (user and system) per request, in µs; NaN when its pid is not
 * known. rss: the server's highest once-a-second RSS during the run, in bytes (where the edge's peak builds).
 */
export type Sample = { rps: number; p50: number; p99: number; loopP99: number; cpuUs: number; rss: number };

/** A process's CPU time so far (utime and stime of /proc/<pid>/stat), in seconds. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  // utime and stime are the stat file's 14th and 15th fields, in clock ticks (100 a second on Linux).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export type MonitorReport = { pid: number; p99: number; max: number; rss: number };

const MONITOR_PREFIX = "event-loop-monitor ";

/** The server's per-second reports within a slice of its output. */
export function monitorReports(logs: string): MonitorReport[] {
  return logs
    .split("\n")
    .filter((line) => line.startsWith(MONITOR_PREFIX))
    .map((line) => JSON.parse(line.slice(MONITOR_PREFIX.length)) as MonitorReport);
}

/** The serving process's pid, as the monitor preloaded into it reports it (a launcher may run the server as its child). */
export function serverPid(logs: string): number {
  const [first] = monitorReports(logs);
  if (!first) throw new Error("the event-loop monitor reported nothing: was it preloaded into the server?");
  return first.pid;
}

/** Restarts the process's peak RSS (VmHWM) from its current RSS (Linux's clear_refs), so a later peakRss covers only what follows. */
export function resetPeakRss(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, "5");
}

/** The highest RSS the process ever had (VmHWM), in bytes: unlike once-a-second samples, it misses no spike. */
export function peakRss(pid: number): number {
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!match) throw new Error(`no VmHWM in /proc/${pid}/status`);
  return Number(match[1]) * 1024;
}

export type Answer = { bytes: Buffer; contentType: string };

/** One request outside autocannon, to check the answer's status and content (after the warm-up, so caches are warm); returns its body. */
export async function preflight(target: Target): Promise<Answer> {
  const response = await fetch(target.url, {
    method: target.method ?? "GET",
    // Autocannon asks for no encoding; fetch would ask for gzip and report the compressed size.
    headers: { "accept-encoding": "identity", ...target.headers },
    body: target.body?.(),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  const body = bytes.toString();
  const problem = response.status !== (target.status ?? 200) ? `answered ${response.status}: ${body.slice(0, 500)}` : target.verify?.(body, response.headers);
  if (problem) throw new Error(`${target.label}: ${problem}`);
  return { bytes, contentType: response.headers.get("content-type") ?? "application/octet-stream" };
}

/** One autocannon run; fails loudly on any status but the expected one, on errors or timeouts, and on no answer at all. */
export async function measure(target: Target, seconds: number, serverLogs: () => string): Promise<Sample> {
  const { body } = target;
  const logStart = serverLogs().length;
  const cpuStart = target.pid ? cpuSeconds(target.pid) : NaN;
  const result = await autocannon({
    url: target.url,
    // Autocannon lays these over its defaults, so none may be undefined.
    method: target.method ?? "GET",
    headers: target.headers ?? {},
    // Rebuilt for every request. (Autocannon's own idReplacement sends a Content-Length 27 bytes per
    // id, which its ids do not always have, and the server then waits for the rest of the body.)
    ...(body ? { requests: [{ setupRequest: (request) => ({ ...request, body: body() }) }] } : {}),
    connections: target.connections,
    duration: seconds,
  });
  const expected = String(target.status ?? 200);
  const unexpected = Object.entries(result.statusCodeStats).filter(([status]) => status !== expected);
  if (unexpected.length > 0 || result.errors > 0 || result.requests.total === 0) {
    const statuses = unexpected.map(([status, { count }]) => `${count} × ${status}`).join(", ");
    throw new Error(`${target.label}: ${statuses || "no unexpected status"}; ${result.errors} errors (${result.timeouts} timeouts)`);
  }
  const loop = monitorReports(serverLogs().slice(logStart));
  const cpuUs = target.pid ? ((cpuSeconds(target.pid) - cpuStart) * 1e6) / result.requests.total : NaN;
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, loopP99: Math.max(0, ...loop.map((report) => report.p99)), cpuUs, rss: Math.max(0, ...loop.map((report) => report.rss)) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function medianSample(samples: Sample[]): Sample {
  const of = (key: keyof Sample) => median(samples.map((sample) => sample[key]));
  return { rps: of("rps"), p50: of("p50"), p99: of("p99"), loopP99: of("loopP99"), cpuUs: of("cpuUs"), rss: of("rss") };
}

/** A short run per target, not counted: JIT, caches and connection pools warm up. */
export async function warmUp(targets: Target[], serverLogs: () => string): Promise<void> {
  for (const target of targets) {
    // One request alone first: a page's first render (the page cache's miss) took longer than the
    // short run on a loaded machine, which then counted no answer at all.
    await (await fetch(target.url, { method: target.method ?? "GET", headers: target.headers, body: target.body?.() })).arrayBuffer();
    await measure(target, 2, serverLogs);
  }
}

/** The median over rounds of one target's req/s divided by another's in the same round. */
export function medianRatio(samples: Sample[], floor: Sample[]): number {
  return median(samples.map((sample, round) => sample.rps / floor[round]!.rps));
}

/** The same for CPU time per request, inverted: the floor's cost over the target's (1 = as cheap as the floor). */
export function medianCpuRatio(samples: Sample[], floor: Sample[]): number {
  return median(samples.map((sample, round) => floor[round]!.cpuUs / sample.cpuUs));
}

/**
 * Interleaved rounds, reported as medians (and every round's samples, per target): on a shared
 * machine, neighbours' load then hits every target alike.
 */
export async function interleavedRounds(targets: Target[], rounds: number, seconds: number, serverLogs: () => string): Promise<{ medians: Sample[]; rounds: Sample[][] }> {
  const samples = targets.map(() => [] as Sample[]);
  for (let round = 1; round <= rounds; round++) {
    console.error(`  round ${round} of ${rounds}`);
    for (const [index, target] of targets.entries()) samples[index]!.push(await measure(target, seconds, serverLogs));
  }
  return { medians: samples.map(medianSample), rounds: samples };
}
