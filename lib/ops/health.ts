// GET /api/health: whether this instance can serve, for load balancers (which ask every second or so)
// and monitors. One database round trip and, with Redis or Upstash, one PING, each with a deadline;
// concurrent checks share one run.
import { db } from "@/lib/db";
import { withDeadline } from "@/lib/deadline";
import { ApiError } from "@/lib/errors";
import { rateLimitBackend } from "@/lib/ratelimit";
import type { Health } from "@/lib/schemas/discovery";

// The first check of an instance also pays for the database client's start (engine load, first
// connection), which takes seconds on a busy machine: a cold instance is slow, not down.
const DATABASE_DEADLINE_MS = { cold: 5_000, warm: 1_000 };
let databaseAnswered = false;
const RETRY_AFTER_SECONDS = 5;

type DependencyState = "ok" | "unavailable";

async function probe(check: () => Promise<unknown>): Promise<DependencyState> {
  try {
    await check();
    return "ok";
  } catch {
    return "unavailable";
  }
}

async function runChecks(): Promise<Health> {
  const backend = rateLimitBackend();
  const [database, redis] = await Promise.all([
    probe(async () => {
      await withDeadline(db().$queryRaw`SELECT 1`, databaseAnswered ? DATABASE_DEADLINE_MS.warm : DATABASE_DEADLINE_MS.cold);
      databaseAnswered = true;
    }),
    // The store's own deadline applies: 300 ms of silence for Redis, 500 ms for Upstash.
    backend.ping ? probe(() => backend.ping!()) : Promise.resolve(undefined),
  ]);
  if (database === "ok" && redis !== "unavailable") return { status: "ok", database, ...(redis ? { redis } : {}) };
  throw new ApiError("service_unavailable", `This instance cannot serve: ${[database === "ok" ? null : "the database", redis === "unavailable" ? "the rate-limit store" : null].filter(Boolean).join(" and ")} did not answer in time.`, {
    retry_after_seconds: RETRY_AFTER_SECONDS,
    database,
    ...(redis ? { redis } : {}),
  });
}

let running: Promise<Health> | null = null;

/** The instance's health, or a service_unavailable ApiError naming what did not answer. */
export function checkHealth(): Promise<Health> {
  running ??= runChecks().finally(() => (running = null));
  return running;
}
