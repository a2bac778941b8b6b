// The hot paths (raw documents, cached pages) answer without a promise when nothing waits: on SQLite
// the lookups are synchronous and a cached document is at hand. Every promise made while Next's
// AsyncLocalStorage is on runs its init hooks, and each await is a microtask: together they were a
// tenth of the raw endpoint's CPU (issue 35). PostgreSQL's lookups and first builds still return promises.
export type MaybePromise<T> = T | Promise<T>;

/** `next(value)`, at once when `value` is there, after it settles when it is a promise. */
export function andThen<T, U>(value: MaybePromise<T>, next: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/** `run()`, its synchronous throw or its rejection handed to `recover`. */
export function recovering<T>(run: () => MaybePromise<T>, recover: (error: unknown) => T): MaybePromise<T> {
  try {
    const result = run();
    return result instanceof Promise ? result.catch(recover) : result;
  } catch (error) {
    return recover(error);
  }
}
