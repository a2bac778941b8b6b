import { createHash } from "node:crypto";
import { Ratelimit } from "@upstash/ratelimit";
import { Redis as UpstashRedis } from "@upstash/redis";
import IORedis from "ioredis";
import { withDeadline } from "@/lib/deadline";
import { serviceUnavailable } from "@/lib/errors";
import { type RateLimitBackend, windowOf } from "./types";

/**
 * How long a limit check may wait for Redis before the request is refused (fail closed): a self-hosted
 * Redis answers in about a millisecond; Upstash's REST API over HTTPS may need a new TLS connection.
 */
const REDIS_DEADLINE_MS = { redis: 300, upstash: 500 } as const;
/** When ioredis gives up on a command by itself; the requests waiting on it were refused long before. */
const COMMAND_BACKSTOP_MS = 5_000;
/** What a refused request is told to wait: ioredis reconnects within about 2 s of Redis coming back. */
const RETRY_AFTER_SECONDS = 5;

/**
 * The subset of a Redis client @upstash/ratelimit calls. Upstash's REST client has it natively;
 * a self-hosted Redis gets it through ioredis below, so both run the same limiter scripts.
 */
type ScriptingClient = {
  evalsha(sha: string, keys: string[], args: unknown[]): Promise<unknown>;
  eval(script: string, keys: string[], args: unknown[]): Promise<unknown>;
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<unknown>;
  ping(): Promise<unknown>;
};

/**
 * Upstash's scripts open with `#!lua flags=allow-key-locking`, a flag only Upstash understands;
 * open-source Redis rejects it, so the shebang is dropped and the script cached under its own sha.
 */
function ioredisClient(url: string): ScriptingClient {
  const redis = new IORedis(url, {
    enableAutoPipelining: true,
    // A paused or stalled Redis: a command without an answer fails in the end instead of waiting for
    // ever. The request's own deadline (withDeadline) is the short one: this timer, unlike that one,
    // also fires when only this process stalled (a SQLite write waiting for another instance's lock
    // blocks the event loop) with Redis's answer already waiting to be read.
    commandTimeout: COMMAND_BACKSTOP_MS,
    connectTimeout: 1000,
    // A dropped connection fails the commands waiting on it at once (they would be retried
    // later, long after the request was refused). Commands sent while a connection is being
    // made still wait for it, within commandTimeout.
    maxRetriesPerRequest: 0,
  });
  // ioredis emits an error per failed reconnect; log the outage once, and its end.
  let down = false;
  redis.on("error", (error: Error) => {
    if (!down) console.error(`htmldrop: Redis unavailable, refusing rate-limited requests: ${error.message}`);
    down = true;
  });
  redis.on("ready", () => {
    if (down) console.log("htmldrop: Redis is back");
    down = false;
  });
  const scriptsBySha = new Map<string, string>();
  const argv = (args: unknown[]) => args.map((arg) => (typeof arg === "string" ? arg : JSON.stringify(arg)));
  const run = async (script: string, keys: string[], args: unknown[]) => {
    const body = script.replace(/^#!lua[^\n]*\n/, "");
    const sha = createHash("sha1").update(body).digest("hex");
    try {
      return await redis.evalsha(sha, keys.length, ...keys, ...argv(args));
    } catch (error) {
      if (!String(error).includes("NOSCRIPT")) throw error;
      return redis.eval(body, keys.length, ...keys, ...argv(args));
    }
  };
  return {
    async evalsha(sha, keys, args) {
      const script = scriptsBySha.get(sha);
      if (!script) throw new Error("NOSCRIPT No matching script");
      return run(script, keys, args);
    },
    async eval(script, keys, args) {
      scriptsBySha.set(createHash("sha1").update(script).digest("hex"), script);
      return run(script, keys, args);
    },
    get: (key) => redis.get(key),
    set: (key, value) => redis.set(key, typeof value === "string" ? value : JSON.stringify(value)),
    ping: () => redis.ping(),
  };
}

/**
 * Fail closed: when Redis does not answer within the deadline, or refuses the connection, the limit
 * cannot be checked, and the request is refused with 503 rather than let through or answered 500.
 */
async function failClosed<T>(work: () => Promise<T>, ms: number): Promise<T> {
  try {
    return await withDeadline(work(), ms);
  } catch (error) {
    console.error(`htmldrop: rate-limit check failed: ${error instanceof Error ? error.message : String(error)}`);
    throw serviceUnavailable(`The rate-limit store is not answering, so this request cannot be counted; retry in ${RETRY_AFTER_SECONDS} seconds.`, RETRY_AFTER_SECONDS);
  }
}

export function createRedisBackend(options: { kind: "redis"; url: string } | { kind: "upstash"; url: string; token: string }): RateLimitBackend {
  const client: ScriptingClient =
    options.kind === "upstash" ? (new UpstashRedis({ url: options.url, token: options.token }) as unknown as ScriptingClient) : ioredisClient(options.url);
  const deadline = REDIS_DEADLINE_MS[options.kind];
  const limiters = new Map<string, Ratelimit>();
  const limiterFor = (limit: number, windowMs: number) => {
    const id = `${limit}/${windowMs}`;
    let limiter = limiters.get(id);
    if (!limiter) {
      limiter = new Ratelimit({
        redis: client as never,
        limiter: Ratelimit.fixedWindow(limit, `${windowMs} ms`),
        prefix: "htmldrop:rl",
        ephemeralCache: false,
        analytics: false,
        // 0 turns off the library's own timeout, which lets a request through (success: true) when Redis is slow.
        timeout: 0,
      });
      limiters.set(id, limiter);
    }
    return limiter;
  };

  return {
    async hit(key, limit, windowMs) {
      const result = await failClosed(() => limiterFor(limit, windowMs).limit(key), deadline);
      return { success: result.success, limit, remaining: result.remaining, resetAt: result.reset };
    },
    async ping() {
      await withDeadline(client.ping(), deadline);
    },
    async used(key, windowMs) {
      // Same key layout as Ratelimit.fixedWindow: <prefix>:<identifier>:<window index>.
      const value = await failClosed(() => client.get(`htmldrop:rl:${key}:${windowOf(Date.now(), windowMs).index}`), deadline);
      return Number(value ?? 0);
    },
  };
}
