/**
 * Rejects when `work` has not settled within `ms`; the work itself is abandoned, not cancelled.
 * When the timer fires, an answer that arrived while this process was busy may still be waiting to be
 * read (timers run before I/O in each turn of the event loop), so the rejection waits for that I/O:
 * the deadline measures the other side's silence, not this process's own stalls.
 */
export async function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => setImmediate(() => reject(new Error(`no answer within ${ms} ms`))), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * What one connection (or one HTTP origin) has heard from the other side: whether it owes an answer,
 * and since when it has owed one without saying anything. A request counts once written and an
 * answer once read, so time this process spends before writing (a queue, a busy event loop) or
 * before reading is never taken for the other side's silence; answers to other requests count too,
 * since a server that keeps answering is alive, only slow.
 */
export class Liveness {
  private owed = 0;
  private quietSince = 0;

  sent(): void {
    if (this.owed++ === 0) this.quietSince = performance.now();
  }

  answered(): void {
    this.owed = Math.max(0, this.owed - 1);
    this.quietSince = performance.now();
  }

  /** A request that ended without an answer (a connection error): no longer owed, and not a sign of life. */
  failed(): void {
    this.owed = Math.max(0, this.owed - 1);
  }

  /** How long, at `at`, the other side had owed an answer and said nothing; 0 while it owes none. */
  silenceAt(at: number): number {
    return this.owed > 0 ? at - this.quietSince : 0;
  }
}

/**
 * Rejects when the other side of `liveness` has been silent for `silenceMs` while `work` waited, or
 * when `work` has not settled within `backstopMs` however much was heard. Each look happens in a
 * timer and is judged after the I/O then pending has been read (a timer's setImmediate runs after the
 * loop's next poll), so an answer that arrived while this process was busy is never missed.
 */
export async function untilSilent<T>(work: Promise<T>, liveness: Liveness, silenceMs: number, backstopMs: number): Promise<T> {
  const startedAt = performance.now();
  let cancel = () => {};
  const silent = new Promise<never>((_, reject) => {
    const judge = (lookedAt: number) => {
      const silence = liveness.silenceAt(lookedAt);
      const waited = lookedAt - startedAt;
      if (silence >= silenceMs) reject(new Error(`no answer for ${Math.round(silence)} ms`));
      else if (waited >= backstopMs) reject(new Error(`no answer within ${backstopMs} ms`));
      else lookIn(Math.min(silenceMs - silence, backstopMs - waited));
    };
    const lookIn = (ms: number) => {
      const timer = setTimeout(() => {
        const lookedAt = performance.now();
        const immediate = setImmediate(() => judge(lookedAt));
        cancel = () => clearImmediate(immediate);
      }, ms);
      cancel = () => clearTimeout(timer);
    };
    lookIn(silenceMs);
  });
  try {
    return await Promise.race([work, silent]);
  } finally {
    cancel();
  }
}
