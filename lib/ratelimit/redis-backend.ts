import { subscribe } from "node:diagnostics_channel";
import { Redis as UpstashRedis } from "@upstash/redis";
import IORedis, { ReplyError } from "ioredis";
import { now } from "@/lib/clock";
import { Liveness, untilSilent } from "@/lib/deadline";
import { serviceUnavailable } from "@/lib/errors";
import { type RateLimitBackend, windowOf } from "./types";

/**
 * How long Redis may owe a limit check an answer and say nothing before the request is refused (fail
 * closed): a self-hosted Redis answers in about a millisecond; Upstash's REST API over HTTPS may need
 * a new TLS connection.
 */
const REDIS_SILENCE_MS = { redis: 300, upstash: 500 } as const;
/** The longest a limit check may wait however much Redis says meanwhile (a Redis answering others but not it). */
const CHECK_BACKSTOP_MS = 2_000;
/** When ioredis gives up on a command by itself; the requests waiting on it were refused long before. */
const COMMAND_BACKSTOP_MS = 5_000;
/** What a refused request is told to wait: ioredis reconnects within about 2 s of Redis coming back. */
const RETRY_AFTER_SECONDS = 5;

/**
 * One hit on a fixed window's counter, atomically: the key names the window (from lib/clock, as the
 * database backend does), so it only needs to outlive it.
 */
const COUNT_HIT_SCRIPT = `local count = redis.call("INCR", KEYS[1])
if count == 1 then redis.call("PEXPIRE", KEYS[1], ARGV[1]) end
return count`;

/** What the limiter asks of Redis, over ioredis (self-hosted) or Upstash's REST client. */
type CounterClient = {
  /** What the connection to Redis has heard, for the silence deadline. */
  liveness: Liveness;
  /** Counts one hit on `key`, which expires `ttlMs` after its first, and answers the count. */
  countHit(key: string, ttlMs: number): Promise<number>;
  get(key: string): Promise<unknown>;
  ping(): Promise<unknown>;
};

function ioredisClient(url: string): CounterClient {
  const redis = new IORedis(url, {
    // Each command is written when it is called. Auto-pipelining held commands back for a later turn of
    // the event loop, and behind the batch in flight, so a busy process kept them from Redis for
    // longer than the deadline and blamed Redis for it.
    enableAutoPipelining: false,
    // A paused or stalled Redis: a command without an answer fails in the end instead of waiting for
    // ever. The request's own deadline (untilSilent) is the short one: this timer, unlike that one,
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
  // A command is owed an answer from the moment it is written (or queued while the connection is being
  // made: a Redis that does not accept the connection is not answering either); an error reply is an answer.
  const liveness = new Liveness();
  const tracked = async <T>(command: Promise<T>): Promise<T> => {
    liveness.sent();
    try {
      const reply = await command;
      liveness.answered();
      return reply;
    } catch (error) {
      if (error instanceof ReplyError) liveness.answered();
      else liveness.failed();
      throw error;
    }
  };
  return {
    liveness,
    countHit: async (key, ttlMs) => Number(await tracked(redis.eval(COUNT_HIT_SCRIPT, 1, key, ttlMs))),
    get: (key) => tracked(redis.get(key)),
    ping: () => tracked(redis.ping()),
  };
}

/**
 * What Upstash's REST API has said, from the fetch implementation's own diagnostics (undici, Node's
 * fetch): a request counts once its headers are written and is answered once the response's headers
 * are read, and a connection being made is owed its handshake. Counted at the commands instead, a
 * request still waiting in fetch's queue for a busy process would count as Upstash's silence.
 */
function upstashLiveness(url: string): Liveness {
  const origin = new URL(url).origin;
  const liveness = new Liveness();
  const written = new WeakSet<object>();
  type RequestMessage = { request: { origin?: unknown } };
  type ConnectMessage = { connectParams: { protocol: string; host: string } };
  const isUpstash = ({ request }: RequestMessage) => String(request.origin) === origin;
  const connectsToUpstash = ({ connectParams }: ConnectMessage) => `${connectParams.protocol}//${connectParams.host}` === origin;
  subscribe("undici:client:sendHeaders", (message) => {
    if (!isUpstash(message as RequestMessage)) return;
    written.add((message as RequestMessage).request);
    liveness.sent();
  });
  subscribe("undici:request:headers", (message) => {
    if (written.delete((message as RequestMessage).request)) liveness.answered();
  });
  subscribe("undici:request:error", (message) => {
    if (written.delete((message as RequestMessage).request)) liveness.failed();
  });
  subscribe("undici:client:beforeConnect", (message) => {
    if (connectsToUpstash(message as ConnectMessage)) liveness.sent();
  });
  subscribe("undici:client:connected", (message) => {
    if (connectsToUpstash(message as ConnectMessage)) liveness.answered();
  });
  subscribe("undici:client:connectError", (message) => {
    if (connectsToUpstash(message as ConnectMessage)) liveness.failed();
  });
  return liveness;
}

function upstashClient(url: string, token: string): CounterClient {
  // Few and quick retries: the default (five, backing off up to 2.7 s) would hold a request that is
  // refused anyway once the check's backstop passes, where a refused connection should answer 503 at once.
  const redis = new UpstashRedis({ url, token, retry: { retries: 2, backoff: () => 50 } });
  return {
    liveness: upstashLiveness(url),
    countHit: async (key, ttlMs) => Number(await redis.eval(COUNT_HIT_SCRIPT, [key], [ttlMs])),
    get: (key) => redis.get(key),
    ping: () => redis.ping(),
  };
}

/**
 * Fail closed: when Redis owes an answer and says nothing for `silenceMs`, or refuses the connection,
 * the limit cannot be checked, and the request is refused with 503 rather than let through or answered 500.
 */
async function failClosed<T>(work: () => Promise<T>, liveness: Liveness, silenceMs: number): Promise<T> {
  try {
    return await untilSilent(work(), liveness, silenceMs, CHECK_BACKSTOP_MS);
  } catch (error) {
    console.error(`htmldrop: rate-limit check failed: ${error instanceof Error ? error.message : String(error)}`);
    throw serviceUnavailable(`The rate-limit store is not answering, so this request cannot be counted; retry in ${RETRY_AFTER_SECONDS} seconds.`, RETRY_AFTER_SECONDS);
  }
}

export type RedisBackendOptions = { kind: "redis"; url: string } | { kind: "upstash"; url: string; token: string };

export function createRedisBackend(options: RedisBackendOptions): RateLimitBackend {
  const client = options.kind === "upstash" ? upstashClient(options.url, options.token) : ioredisClient(options.url);
  const silenceMs = REDIS_SILENCE_MS[options.kind];
  const windowKey = (key: string, index: number) => `htmldrop:rl:${key}:${index}`;

  return {
    async hit(key, limit, windowMs) {
      const window = windowOf(now(), windowMs);
      const count = await failClosed(() => client.countHit(windowKey(key, window.index), windowMs), client.liveness, silenceMs);
      return { success: count <= limit, limit, remaining: Math.max(0, limit - count), resetAt: window.resetAt };
    },
    async ping() {
      await untilSilent(client.ping(), client.liveness, silenceMs, CHECK_BACKSTOP_MS);
    },
    async used(key, windowMs) {
      const value = await failClosed(() => client.get(windowKey(key, windowOf(now(), windowMs).index)), client.liveness, silenceMs);
      return Number(value ?? 0);
    },
  };
}
