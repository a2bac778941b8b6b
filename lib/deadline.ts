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
