import { getConfig } from "@/lib/config";
import { now } from "@/lib/clock";
import { ApiError, type ErrorCode } from "@/lib/errors";
import { postgresCounters } from "./postgres-counters";
import type { RedisBackendOptions } from "./redis-backend";
import { createSqliteCounters } from "./sqlite-counters";
import { type RateLimitBackend, windowOf } from "./types";

export type RateLimitPolicy = { limit: number; windowMs: number; code: ErrorCode; message: string };

const MINUTE = 60_000;
const DAY = 86_400_000;
export const PASSCODE_ATTEMPTS_PER_WINDOW = 10;
export const PASSCODE_ATTEMPTS_PER_DROP_PER_HOUR = 100;
export const VIEW_WINDOW_MINUTES = 30;

/** Every rate limit of the service, by name. Identifiers say whose budget a hit spends. */
export function rateLimitPolicies() {
  const { limits } = getConfig();
  return {
    writesPerMinute: {
      limit: limits.writesPerMinute,
      windowMs: MINUTE,
      code: "rate_limited",
      message: `Too many writes: at most ${limits.writesPerMinute} per minute per account.`,
    },
    writesPerDay: {
      limit: limits.writesPerDay,
      windowMs: DAY,
      code: "daily_quota_exceeded",
      message: `Daily write quota reached: at most ${limits.writesPerDay} writes per day per account.`,
    },
    // Device-code sign-in, per client address: agents start rarely and poll every 2 s; humans approve once.
    deviceAuthStarts: {
      limit: 20,
      windowMs: MINUTE,
      code: "rate_limited",
      message: "Too many sign-ins started from this address: at most 20 per minute.",
    },
    deviceAuthPolls: {
      limit: 120,
      windowMs: MINUTE,
      code: "rate_limited",
      message: "Too many polls from this address: at most 120 per minute; poll every poll_interval seconds.",
    },
    deviceAuthApprovals: {
      limit: 10,
      windowMs: MINUTE,
      code: "rate_limited",
      message: "Too many approvals from this address: at most 10 per minute.",
    },
    deviceAuthLookups: {
      limit: 60,
      windowMs: MINUTE,
      code: "rate_limited",
      message: "Too many codes looked up from this address: at most 60 per minute.",
    },
    // OAuth, per client address: an app registers once and refreshes about hourly; these stop floods.
    oauthRegistrations: {
      limit: 20,
      windowMs: MINUTE,
      code: "rate_limited",
      message: "Too many client registrations from this address: at most 20 per minute.",
    },
    // Each anonymous authorization request stores an interaction (lib/oauth/bridge.ts caps its size).
    oauthAuthorizations: {
      limit: 60,
      windowMs: MINUTE,
      code: "rate_limited",
      message: "Too many authorization requests from this address: at most 60 per minute.",
    },
    oauthTokenRequests: {
      limit: 120,
      windowMs: MINUTE,
      code: "rate_limited",
      message: "Too many token requests from this address: at most 120 per minute.",
    },
    // Counted before the passcode is verified, per client and drop (identifier `<slug>:<client>`).
    passcodeAttempts: {
      limit: PASSCODE_ATTEMPTS_PER_WINDOW,
      windowMs: 15 * MINUTE,
      code: "rate_limited",
      message: `Too many passcode attempts: at most ${PASSCODE_ATTEMPTS_PER_WINDOW} per 15 minutes for this drop. Try again later.`,
    },
    // Per drop across all clients, so that guessing from many addresses stays slow too. Viewers who
    // already unlocked keep their cookie; a flood can only delay new unlocks.
    passcodeAttemptsPerDrop: {
      limit: PASSCODE_ATTEMPTS_PER_DROP_PER_HOUR,
      windowMs: 60 * MINUTE,
      code: "rate_limited",
      message: `Too many passcode attempts on this drop from everyone: at most ${PASSCODE_ATTEMPTS_PER_DROP_PER_HOUR} per hour. Try again later.`,
    },
    // Comments on the viewer page: guests per client address, accounts (the owner's replies included) per
    // account, and everyone but the owner per drop, so a flood cannot bury a thread.
    commentsPerGuest: {
      limit: 5,
      windowMs: 10 * MINUTE,
      code: "rate_limited",
      message: "Too many comments from this address: at most 5 per 10 minutes without signing in.",
    },
    commentsPerAccount: {
      limit: 30,
      windowMs: 10 * MINUTE,
      code: "rate_limited",
      message: "Too many comments from this account: at most 30 per 10 minutes.",
    },
    commentsPerDrop: {
      limit: 100,
      windowMs: 60 * MINUTE,
      code: "rate_limited",
      message: "Too many comments on this drop: at most 100 per hour from everyone. Try again later.",
    },
    // View beacons, per client, drop and version (identifier: a keyed hash of the three): a client's
    // repeated beacons within the window count as one view. Never answered with a 429.
    viewsPerClient: {
      limit: 1,
      windowMs: VIEW_WINDOW_MINUTES * MINUTE,
      code: "rate_limited",
      message: `A view from this address was counted in the last ${VIEW_WINDOW_MINUTES} minutes.`,
    },
    // Drawing a drop's preview image (a cache miss) costs CPU; cached images and 304s are never counted.
    previewRenders: {
      limit: 60,
      windowMs: MINUTE,
      code: "rate_limited",
      message: "Too many preview images drawn for this address: at most 60 per minute. Try again shortly.",
    },
  } satisfies Record<string, RateLimitPolicy>;
}

export type RateLimitPolicyName = keyof ReturnType<typeof rateLimitPolicies>;

const BACKEND_KEY = Symbol.for("htmldrop.ratelimit");
type BackendHolder = { [BACKEND_KEY]?: RateLimitBackend };

/** Redis's clients (ioredis, Upstash's) are loaded by the first count, and only where the configuration names one. */
function loadRedisBackend(options: RedisBackendOptions): RateLimitBackend {
  const loaded = import("./redis-backend").then(({ createRedisBackend }) => createRedisBackend(options));
  return {
    hit: async (key, limit, windowMs) => (await loaded).hit(key, limit, windowMs),
    used: async (key, windowMs) => (await loaded).used(key, windowMs),
    ping: async () => (await loaded).ping?.(),
  };
}

export function rateLimitBackend(): RateLimitBackend {
  const holder = globalThis as BackendHolder;
  if (!holder[BACKEND_KEY]) {
    const { rateLimitBackend: backend, database, dataDir } = getConfig();
    if (backend.kind !== "database") holder[BACKEND_KEY] = loadRedisBackend(backend);
    else holder[BACKEND_KEY] = database.provider === "sqlite" ? createSqliteCounters(dataDir, now) : postgresCounters;
  }
  return holder[BACKEND_KEY];
}

export function retryAfterSeconds(resetAt: number): number {
  return Math.max(1, Math.ceil((resetAt - now()) / 1000));
}

const REFUSALS_KEY = Symbol.for("htmldrop.ratelimit-refusals");
type RefusalHolder = { [REFUSALS_KEY]?: Map<string, number> };

function refusals(): Map<string, number> {
  return ((globalThis as RefusalHolder)[REFUSALS_KEY] ??= new Map());
}

function countRefusal(policy: string): void {
  refusals().set(policy, (refusals().get(policy) ?? 0) + 1);
}

/** For /metrics: requests each policy refused (429) since the process started. */
export function rateLimitRefusals(): ReadonlyMap<string, number> {
  return refusals();
}

/** The policy's 429, counted for /metrics. */
function limitReached(name: RateLimitPolicyName, resetAt: number): ApiError {
  const policy: RateLimitPolicy = rateLimitPolicies()[name];
  countRefusal(name);
  return new ApiError(policy.code, policy.message, { limit: policy.limit, retry_after_seconds: retryAfterSeconds(resetAt) });
}

const SPENT_KEY = Symbol.for("htmldrop.ratelimit-spent");
type SpentHolder = { [SPENT_KEY]?: Map<string, number> };
const SPENT_REMEMBERED = 10_000;

/**
 * Budgets this instance has seen spent, each until its window resets (Unix ms). A window's count only
 * grows, so a spent budget stays spent until then on every instance: a flood of refused calls is
 * answered from memory instead of costing database round trips that everyone else waits behind.
 */
function spentBudgets(): Map<string, number> {
  return ((globalThis as SpentHolder)[SPENT_KEY] ??= new Map());
}

function spentUntil(key: string): number | null {
  const resetAt = spentBudgets().get(key);
  if (resetAt === undefined) return null;
  if (resetAt > now()) return resetAt;
  spentBudgets().delete(key);
  return null;
}

function rememberSpent(key: string, resetAt: number): void {
  const spent = spentBudgets();
  if (spent.size >= SPENT_REMEMBERED) {
    const at = now();
    for (const [other, until] of spent) if (until <= at) spent.delete(other);
    // Still full: forget the oldest, which costs a later refusal one round trip.
    if (spent.size >= SPENT_REMEMBERED) spent.delete(spent.keys().next().value!);
  }
  spent.set(key, resetAt);
}

/**
 * Counts one hit and throws the policy's 429 when the budget is spent. When the counters cannot be
 * reached, it throws 503 service_unavailable (fail closed): every policy here guards a write, a
 * sign-in or a passcode guess, none of which may go uncounted.
 */
export async function assertRateLimit(name: RateLimitPolicyName, identifier: string): Promise<void> {
  const policy: RateLimitPolicy = rateLimitPolicies()[name];
  const key = `${name}:${identifier}`;
  const knownSpentUntil = spentUntil(key);
  if (knownSpentUntil !== null) throw limitReached(name, knownSpentUntil);
  const result = await rateLimitBackend().hit(key, policy.limit, policy.windowMs);
  if (result.success) return;
  rememberSpent(key, result.resetAt);
  throw limitReached(name, result.resetAt);
}

/** Every mutating call of an account, on REST, MCP and the dashboard, goes through here. */
export async function assertWriteAllowed(userId: string): Promise<void> {
  await assertRateLimit("writesPerMinute", userId);
  await assertRateLimit("writesPerDay", userId);
}

export async function writeUsage(userId: string): Promise<{ thisMinute: number; today: number }> {
  const policies = rateLimitPolicies();
  const backend = rateLimitBackend();
  const [thisMinute, today] = await Promise.all([
    backend.used(`writesPerMinute:${userId}`, policies.writesPerMinute.windowMs),
    backend.used(`writesPerDay:${userId}`, policies.writesPerDay.windowMs),
  ]);
  return { thisMinute, today };
}

/**
 * Refuses a write of an account whose budget is already spent, without counting a hit. Write routes
 * call it right after authentication, before reading the body, so a spent token gets its 429 at
 * once instead of making the server receive (or wait for) an upload it will refuse.
 */
export async function assertWriteBudgetLeft(userId: string): Promise<void> {
  const policies = rateLimitPolicies();
  for (const name of ["writesPerMinute", "writesPerDay"] as const) {
    const knownSpentUntil = spentUntil(`${name}:${userId}`);
    if (knownSpentUntil !== null) throw limitReached(name, knownSpentUntil);
  }
  const usage = await writeUsage(userId);
  const at = now();
  for (const [name, used] of [["writesPerMinute", usage.thisMinute], ["writesPerDay", usage.today]] as const) {
    if (used < policies[name].limit) continue;
    const { resetAt } = windowOf(at, policies[name].windowMs);
    rememberSpent(`${name}:${userId}`, resetAt);
    throw limitReached(name, resetAt);
  }
}
