// Every rule that depends on time reads it here, so tests can move the clock of a running server.
// HTMLDROP_TEST_CLOCK_FILE is honoured only outside production (see lib/config.ts).
import { readFileSync, statSync } from "node:fs";

let cached = { mtimeMs: -1, offsetMs: 0 };

function readOffset(file: string): number {
  try {
    const { mtimeMs } = statSync(file);
    if (mtimeMs !== cached.mtimeMs) {
      cached = { mtimeMs, offsetMs: Number(readFileSync(file, "utf8").trim()) || 0 };
    }
    return cached.offsetMs;
  } catch {
    return 0;
  }
}

export function now(): number {
  const file = process.env.HTMLDROP_TEST_CLOCK_FILE;
  return Date.now() + (file ? readOffset(file) : 0);
}

export const DAY_MS = 86_400_000;

/** A UTC day as the view counters store it: whole days since 1970-01-01. */
export function utcDay(at: number): number {
  return Math.floor(at / DAY_MS);
}

/** A UTC day as YYYY-MM-DD. */
export function utcDate(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}
