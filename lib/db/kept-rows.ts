// The serving lookups' rows kept in memory between requests on PostgreSQL, where asking the database on
// every request costs a round trip that capped raw drops well below a bare server (issue 35). A kept row
// never outlives a write that has returned, on any instance:
// - Triggers on "Drop" and "Version" notify every listening instance of each change as it commits
//   (prisma/migrations/postgres/20270101000000_kept_rows), and an instance drops everything it keeps.
// - A write then sends a fence on the same channel: notifications reach each listener in commit order,
//   so an instance that acknowledges the fence has dropped what the write changed. The write returns once
//   every registered instance has acknowledged it, or its lease has ended (settleKeptRows).
// - An instance registers once a notification of its own has come back on its listening connection, and
//   answers from memory only while its lease runs, as its own clock measures it with a margin; after a
//   lapse, only once another of its notifications has come back. Until then it asks the database, as it
//   does whenever its listening connection is down.
// - A read is kept only if nothing was dropped between its start and its answer.
// On SQLite the read-only connection keeps rows until the database changes (lib/db/reads.ts); serverless
// functions never register, and ask the database on every request.
import { createHash, randomUUID } from "node:crypto";
import pg from "pg";
import { getConfig } from "@/lib/config";
import { DATABASE_ROWS_BYTES } from "@/lib/serving/cache-budget";
import { postgresConnection } from "./connection";
import { answerBytes, batchedReadsPool } from "./reads";

/** An instance's registration lasts this long unrenewed: the longest a write waits on an instance that died without a word. */
export const LEASE_MS = 3_000;
const RENEW_EVERY_MS = 750;
/** The instance stops answering from memory this long before its lease ends for writers, for clocks that drift apart. */
const LEASE_MARGIN_MS = 500;
const RECONNECT_AFTER_MS = 1_000;
const ACK_POLL_MS = 1;
const SILENCE_WARNING_MS = 10_000;
/** A fence still unacknowledged by a live instance this long after it was sent is given up on, and said so. */
export const FENCE_GIVE_UP_MS = 3 * LEASE_MS;
/**
 * A writer deletes its fence's acknowledgements, but not one that came after it stopped waiting, nor one
 * from an instance it did not wait for: the renewals sweep those once no writer can still be reading them.
 */
export const ACK_SWEPT_AFTER_MS = 60_000;
const READY = "ready:";
const FENCE = "fence:";

/** The channel of one schema's changes, as the trigger names it: channel names stop at 63 bytes. */
export function keptRowsChannel(schema: string): string {
  return `htmldrop_kept_${createHash("md5").update(schema).digest("hex").slice(0, 16)}`;
}

/** What an instance's listening connection calls itself in pg_stat_activity. */
export function keptRowsApplicationName(instanceId: string): string {
  return `htmldrop kept rows ${instanceId}`;
}

type Keeper = {
  /** Bumped whenever kept rows are dropped: a read begun under an earlier epoch is not kept. */
  epoch: number;
  /** performance.now() until which rows may be answered from memory; 0 while they may not. */
  usableUntil: number;
  stores: Map<string, Map<string, object>>;
  keptBytes: number;
  /** Ends the listening connection and unregisters; set while this process keeps rows. */
  stop: (() => Promise<void>) | null;
};
const KEEPER_KEY = Symbol.for("htmldrop.kept-rows");
type KeeperHolder = { [KEEPER_KEY]?: Keeper };

// Shared through globalThis: Next bundles this module into several chunks, and the custom server's
// front door starts the listener that the route handlers' lookups read.
function keeper(): Keeper {
  const holder = globalThis as KeeperHolder;
  return (holder[KEEPER_KEY] ??= { epoch: 0, usableUntil: 0, stores: new Map(), keptBytes: 0, stop: null });
}

function dropAll(state: Keeper): void {
  state.epoch++;
  state.keptBytes = 0;
  for (const rows of state.stores.values()) rows.clear();
}

function keeping(state: Keeper): boolean {
  if (state.usableUntil === 0) return false;
  if (performance.now() < state.usableUntil) return true;
  // The lease may have ended for writers, who then stopped waiting for this instance: nothing kept holds.
  state.usableUntil = 0;
  dropAll(state);
  return false;
}

/** One lookup's rows, by its key; a row is kept frozen, as requests share it. */
export type KeptRows<V extends object> = {
  /** The row kept for `key`, when the instance may answer from memory. */
  get(key: string): V | undefined;
  /** Taken before the database is asked: the answer is kept only if nothing was dropped since. */
  mark(): number | null;
  keep(key: string, row: V, mark: number | null): void;
};

export function keptRows<V extends object>(name: string): KeptRows<V> {
  const state = keeper();
  let rows = state.stores.get(name);
  if (!rows) state.stores.set(name, (rows = new Map()));
  const store = rows as Map<string, V>;
  return {
    get: (key) => (keeping(state) ? store.get(key) : undefined),
    mark: () => (keeping(state) ? state.epoch : null),
    keep(key, row, mark) {
      if (mark === null || mark !== state.epoch || !keeping(state)) return;
      if (state.keptBytes >= DATABASE_ROWS_BYTES) dropAll(state);
      store.set(key, Object.freeze(row));
      state.keptBytes += answerBytes(key, row);
    },
  };
}

/**
 * Makes this process an instance that keeps rows: it listens on its schema's channel and holds a lease,
 * renewed while it runs. Answers the way to stop, which unregisters, so writes never wait for it.
 */
export function startKeepingRows(): () => Promise<void> {
  const state = keeper();
  const { database } = getConfig();
  if (database.provider !== "postgres" || state.stop) return async () => {};
  const { poolConfig, schema } = postgresConnection(database.url);
  const channel = keptRowsChannel(schema);
  let stopped = false;
  let client: pg.Client | null = null;
  let instanceId = "";
  let previousId = "";
  /** Whether this session's registration is in the table: made once its first readiness notification came back. */
  let registered = false;
  let leaseEnds = 0;
  let renewing = false;
  // Counts this instance's readiness notifications: only the latest arms it, not one sent before a lapse.
  let armings = 0;
  let renewTimer: NodeJS.Timeout | undefined;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let silenceTimer: NodeJS.Timeout | undefined;
  // Said once when the connection goes, not again on every failed reconnection while the database is down.
  let lossReported = false;

  const disarm = () => {
    state.usableUntil = 0;
    dropAll(state);
  };

  /** Ends `listener`'s session if it is still the current one: a late failure of an earlier one changes nothing. */
  const lose = (listener: pg.Client, error?: unknown) => {
    if (listener !== client) return;
    if (error && !stopped && !lossReported) {
      lossReported = true;
      console.error("htmldrop: kept rows' connection to PostgreSQL lost; every lookup asks the database until it is back:", error instanceof Error ? error.message : error);
    }
    client = null;
    disarm();
    clearInterval(renewTimer);
    clearTimeout(silenceTimer);
    void listener.end().catch(() => undefined);
    if (!stopped) reconnectTimer = setTimeout(() => void connect(), RECONNECT_AFTER_MS).unref();
  };

  // Rows are answered from memory again only once this notification, sent after a (re)registration or a
  // lapse, has come back: every change committed before it has been heard, and dropped.
  const readiness = () => `${READY}${instanceId}:${armings}`;
  const arm = (listener: pg.Client) => {
    armings++;
    return listener.query("SELECT pg_notify($1, $2)", [channel, readiness()]).catch((error: unknown) => lose(listener, error));
  };

  // Registered only once a notification has come back, so that a connection that hears none (a pooler
  // in transaction mode in between) never makes writes wait for it.
  const register = async (listener: pg.Client) => {
    try {
      const sent = performance.now();
      await listener.query(`DELETE FROM "KeptRowsInstance" WHERE "id" = $1 OR "leaseUntil" < now() - interval '1 minute'`, [previousId]);
      await listener.query(`INSERT INTO "KeptRowsInstance" ("id", "registeredAt", "leaseUntil") VALUES ($1, now(), now() + $2 * interval '1 millisecond')`, [instanceId, LEASE_MS]);
      if (listener !== client) return;
      registered = true;
      lossReported = false;
      clearTimeout(silenceTimer);
      leaseEnds = sent + LEASE_MS - LEASE_MARGIN_MS;
      renewTimer = setInterval(() => void renew(), RENEW_EVERY_MS).unref();
      // Nothing is kept yet, so nothing heard late could be stale: every read from here on began after it.
      if (performance.now() < leaseEnds) state.usableUntil = leaseEnds;
    } catch (error) {
      lose(listener, error);
    }
  };

  const onNotification = (listener: pg.Client, message: pg.Notification) => {
    if (listener !== client || message.channel !== channel) return;
    const payload = message.payload ?? "";
    if (payload.startsWith(READY)) {
      if (payload !== readiness()) return;
      if (!registered) void register(listener);
      else if (performance.now() < leaseEnds) state.usableUntil = leaseEnds;
      return;
    }
    dropAll(state);
    if (payload.startsWith(FENCE)) {
      listener.query(`INSERT INTO "KeptRowsAck" ("fence", "instanceId") VALUES ($1, $2) ON CONFLICT DO NOTHING`, [payload.slice(FENCE.length), instanceId]).catch((error: unknown) => lose(listener, error));
    }
  };

  const renew = async () => {
    const listener = client;
    if (!listener || renewing) return;
    renewing = true;
    try {
      const sent = performance.now();
      const { rowCount } = await listener.query(
        `WITH "swept" AS (DELETE FROM "KeptRowsAck" WHERE "ackedAt" < now() - $3 * interval '1 millisecond')
        UPDATE "KeptRowsInstance" SET "leaseUntil" = now() + $2 * interval '1 millisecond' WHERE "id" = $1`,
        [instanceId, LEASE_MS, ACK_SWEPT_AFTER_MS],
      );
      if (listener !== client) return;
      // Unregistered by another instance's clean-up after a long stall: register afresh.
      if (rowCount !== 1) return lose(listener, new Error("this instance's registration is gone"));
      const lapsed = performance.now() >= leaseEnds;
      leaseEnds = sent + LEASE_MS - LEASE_MARGIN_MS;
      if (lapsed) {
        disarm();
        await arm(listener);
      } else if (state.usableUntil !== 0) {
        state.usableUntil = leaseEnds;
      }
    } catch (error) {
      lose(listener, error);
    } finally {
      renewing = false;
    }
  };

  const connect = async () => {
    previousId = instanceId;
    instanceId = randomUUID();
    registered = false;
    // Named for operators (pg_stat_activity), and for the tests that cut this connection.
    const listener = new pg.Client({ ...poolConfig, application_name: keptRowsApplicationName(instanceId) });
    client = listener;
    listener.on("error", (error) => lose(listener, error));
    listener.on("end", () => lose(listener, new Error("connection ended")));
    listener.on("notification", (message) => onNotification(listener, message));
    try {
      await listener.connect();
      await listener.query(`LISTEN "${channel}"`);
      silenceTimer = setTimeout(() => {
        if (listener === client && !registered) console.error(`htmldrop: no notification came back from PostgreSQL within ${SILENCE_WARNING_MS / 1000} s, so this instance asks the database on every request; a pooler in transaction mode does not pass LISTEN through`);
      }, SILENCE_WARNING_MS).unref();
      await arm(listener);
    } catch (error) {
      lose(listener, error);
    }
  };

  void connect();
  state.stop = async () => {
    stopped = true;
    clearTimeout(reconnectTimer);
    const listener = client;
    if (listener) {
      await listener.query(`DELETE FROM "KeptRowsInstance" WHERE "id" = $1`, [instanceId]).catch(() => undefined);
      lose(listener);
    }
    state.stop = null;
  };
  return state.stop;
}

/**
 * Called once a write that changes what the serving lookups read has committed: returns when every
 * instance registered before it has dropped what it kept, or its lease has ended. The write has happened
 * either way, so a database error here is logged, not thrown.
 */
export async function settleKeptRows(): Promise<void> {
  const { database } = getConfig();
  if (database.provider !== "postgres") return;
  const channel = keptRowsChannel(postgresConnection(database.url).schema);
  const fence = randomUUID();
  const pool = batchedReadsPool();
  try {
    // An instance that registered after this statement began may have started listening after the fence
    // and would never acknowledge it; it kept nothing from before the write, as it registers before it keeps.
    const sent = await pool.query<{ waitFor: string[] }>({
      text: `SELECT pg_notify($1, $2), ARRAY(SELECT "id" FROM "KeptRowsInstance" WHERE "leaseUntil" > now() AND "registeredAt" <= now()) AS "waitFor"`,
      values: [channel, `${FENCE}${fence}`],
    });
    let waitFor = sent.rows[0]!.waitFor;
    if (waitFor.length === 0) return;
    const giveUpAt = performance.now() + FENCE_GIVE_UP_MS;
    while (waitFor.length > 0) {
      if (performance.now() > giveUpAt) {
        console.error(`htmldrop: ${waitFor.length} instance(s) did not confirm dropping their kept rows within ${FENCE_GIVE_UP_MS} ms; a write may show there late`);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, ACK_POLL_MS));
      const pending = await pool.query<{ id: string }>({
        text: `SELECT i."id" FROM "KeptRowsInstance" i WHERE i."id" = ANY($1) AND i."leaseUntil" > now()
          AND NOT EXISTS (SELECT 1 FROM "KeptRowsAck" a WHERE a."fence" = $2 AND a."instanceId" = i."id")`,
        values: [waitFor, fence],
      });
      waitFor = pending.rows.map((row) => row.id);
    }
    await pool.query({ text: `DELETE FROM "KeptRowsAck" WHERE "fence" = $1`, values: [fence] });
  } catch (error) {
    console.error("htmldrop: could not confirm that every instance dropped its kept rows; a write may show late elsewhere:", error instanceof Error ? error.message : error);
  }
}
