export type RateLimitResult = {
  success: boolean;
  limit: number;
  remaining: number;
  /** Unix milliseconds at which the current window ends. */
  resetAt: number;
};

/** A fixed-window counter store; the database, Redis and Upstash each implement it. */
export interface RateLimitBackend {
  /** Counts one hit against `key` and says whether it stayed within `limit`. */
  hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult>;
  /** Hits counted so far in the current window, without counting one. */
  used(key: string, windowMs: number): Promise<number>;
  /** Resolves when a store outside the database (Redis, Upstash) answers in time; absent for the database. */
  ping?(): Promise<void>;
}

export function windowOf(nowMs: number, windowMs: number): { index: number; resetAt: number } {
  const index = Math.floor(nowMs / windowMs);
  return { index, resetAt: (index + 1) * windowMs };
}
