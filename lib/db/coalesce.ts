type Waiter<V> = { resolve: (value: V) => void; reject: (error: unknown) => void };
type Pending<K, V> = { key: K; waiters: Waiter<V>[] };

/**
 * Shares database round trips between concurrent lookups without ever answering from the past: a lookup
 * joins only a batch that has not started yet, so each answer comes from a query that began after the
 * lookup was asked. While fewer than `maxInFlight` batches run, a lookup starts its own at once; beyond
 * that, lookups wait together for the next free slot and go out as one query, equal keys asked once.
 */
export class LookupCoalescer<K, V> {
  private waiting = new Map<string, Pending<K, V>>();
  private inFlight = 0;

  constructor(
    private readonly runBatch: (keys: K[]) => Promise<Map<string, V>>,
    private readonly keyId: (key: K) => string,
    private readonly missing: V,
    private readonly maxInFlight: number,
  ) {}

  load(key: K): Promise<V> {
    return new Promise((resolve, reject) => {
      const id = this.keyId(key);
      let pending = this.waiting.get(id);
      if (!pending) this.waiting.set(id, (pending = { key, waiters: [] }));
      pending.waiters.push({ resolve, reject });
      if (this.inFlight < this.maxInFlight) this.dispatch();
    });
  }

  private dispatch(): void {
    if (this.waiting.size === 0) return;
    const batch = this.waiting;
    this.waiting = new Map();
    this.inFlight++;
    let run: Promise<Map<string, V>>;
    try {
      run = this.runBatch([...batch.values()].map((pending) => pending.key));
    } catch (error) {
      run = Promise.reject(error);
    }
    run
      .then(
        (results) => {
          for (const [id, pending] of batch) for (const waiter of pending.waiters) waiter.resolve(results.get(id) ?? this.missing);
        },
        (error: unknown) => {
          for (const pending of batch.values()) for (const waiter of pending.waiters) waiter.reject(error);
        },
      )
      .finally(() => {
        this.inFlight--;
        this.dispatch();
      });
  }
}
