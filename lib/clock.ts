// Every rule that depends on time reads it here, so tests can move the clock of a running server.
// HTMLDROP_TEST_CLOCK_FILE is honoured only outside production (see lib/config.ts).
import { readFileSync } from "node:fs";
import { getConfig } from "./config";

// Read on every call: a cache keyed by the file's mtime missed a second move within the same
// timestamp tick (file times are coarser than a millisecond), so the server kept the old time.
function readOffset(file: string): number {
  try {
    return Number(readFileSync(file, "utf8").trim()) || 0;
  } catch {
    return 0;
  }
}

export function now(): number {
  const file = getConfig().testClockFile;
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
