import { createHash } from "node:crypto";
import { Ratelimit } from "@upstash/ratelimit";
import { Redis as UpstashRedis } from "@upstash/redis";
import IORedis from "ioredis";
import { type RateLimitBackend, windowOf } from "./types";

/**
 * The subset of a Redis client @upstash/ratelimit calls. Upstash's REST client has it natively;
 * a self-hosted Redis gets it through ioredis below, so both run the same limiter scripts.
 */
type ScriptingClient = {
  evalsha(sha: string, keys: string[], args: unknown[]): Promise<unknown>;
  eval(script: string, keys: string[], args: unknown[]): Promise<unknown>;
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<unknown>;
};

/**
 * Upstash's scripts open with `#!lua flags=allow-key-locking`, a flag only Upstash understands;
 * open-source Redis rejects it, so the shebang is dropped and the script cached under its own sha.
 */
function ioredisClient(url: string): ScriptingClient {
  const redis = new IORedis(url, { maxRetriesPerRequest: 2, enableAutoPipelining: true });
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
  };
}

export function createRedisBackend(options: { kind: "redis"; url: string } | { kind: "upstash"; url: string; token: string }): RateLimitBackend {
  const client: ScriptingClient =
    options.kind === "upstash" ? (new UpstashRedis({ url: options.url, token: options.token }) as unknown as ScriptingClient) : ioredisClient(options.url);
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
      });
      limiters.set(id, limiter);
    }
    return limiter;
  };

  return {
    async hit(key, limit, windowMs) {
      const result = await limiterFor(limit, windowMs).limit(key);
      return { success: result.success, limit, remaining: result.remaining, resetAt: result.reset };
    },
    async used(key, windowMs) {
      // Same key layout as Ratelimit.fixedWindow: <prefix>:<identifier>:<window index>.
      const value = await client.get(`htmldrop:rl:${key}:${windowOf(Date.now(), windowMs).index}`);
      return Number(value ?? 0);
    },
  };
}
