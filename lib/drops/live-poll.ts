// How an open viewer polls its drop's live version document (/p/<slug>/live.json): the page's script,
// the benchmark's simulated readers and the README use these figures. Imports nothing, as the viewer's
// client component reads it.

export const LIVE_POLL = {
  /** The mean delay between two polls of one reader. */
  intervalMs: 3_000,
  /** Each delay is drawn from the mean ± this, so readers who opened the page together do not poll together. */
  jitterMs: 1_000,
  /** After a failed poll the delay doubles, up to this. */
  maxBackoffMs: 60_000,
} as const;

/** The delay before the next poll, after `failures` failed polls in a row; `random` in [0, 1). */
export function nextPollDelay(failures: number, random: number): number {
  const base = LIVE_POLL.intervalMs + (random * 2 - 1) * LIVE_POLL.jitterMs;
  return Math.min(base * 2 ** Math.min(failures, 10), LIVE_POLL.maxBackoffMs);
}
