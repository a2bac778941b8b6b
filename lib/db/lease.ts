// Work that every instance picks from at once (webhook deliveries, notification emails), each item done
// by one: an instance claims due rows for a lease, stamping them with a claim token of its own, and
// settles a row only while the token is still there. A claim whose instance died runs out and is taken
// again, so nothing is lost; that item may then be done twice.
import { randomUUID } from "node:crypto";
import { now } from "@/lib/clock";
import { getConfig } from "@/lib/config";
import { db, Prisma } from "@/lib/db";

/** A table of leased work: it has the columns "lockedUntil" and "claimToken". */
export type LeasedTable = {
  table: "WebhookDelivery" | "NotificationDigest";
  key: "id" | "userId";
  /** The rows that are due at `at`, as a condition on the alias `leased` (and on what `join` adds). */
  due: (at: Date) => Prisma.Sql;
  join?: Prisma.Sql;
  /** Due rows are claimed in this column's order, oldest first. */
  orderBy: string;
  /** Longer than handling a row can take, so a live claim never runs out. */
  leaseMs: number;
};

export type Claim = { key: string; claimToken: string };

/** What a drain did: rows handled, and how many of them succeeded. */
export type WorkRun = { attempted: number; succeeded: number };

/** Rows claimed at once: each batch is handled concurrently. */
const CLAIM_BATCH = 10;

/** Claims a batch of due rows that no live lease holds. */
async function claimDue(leased: LeasedTable): Promise<Claim[]> {
  const at = new Date(now());
  const claimToken = randomUUID();
  const table = Prisma.raw(`"${leased.table}"`);
  const key = Prisma.raw(`"${leased.key}"`);
  // PostgreSQL's concurrent transactions each skip the rows another has locked; SQLite runs one write at
  // a time, so its single UPDATE grants each row once without row locks.
  const lock = getConfig().database.provider === "postgres" ? Prisma.sql`FOR UPDATE OF leased SKIP LOCKED` : Prisma.empty;
  const rows = await db().$queryRaw<{ key: string }[]>`
    UPDATE ${table} SET "lockedUntil" = ${new Date(at.getTime() + leased.leaseMs)}, "claimToken" = ${claimToken}
    WHERE ${key} IN (
      SELECT leased.${key} FROM ${table} leased ${leased.join ?? Prisma.empty}
      WHERE ${leased.due(at)} AND (leased."lockedUntil" IS NULL OR leased."lockedUntil" <= ${at})
      ORDER BY leased.${Prisma.raw(`"${leased.orderBy}"`)} LIMIT ${CLAIM_BATCH}
      ${lock})
    RETURNING ${key} AS "key"`;
  return rows.map((row) => ({ key: row.key, claimToken }));
}

/** The rows no live lease holds at `at`, as a Prisma condition: claimDue's, for taking one row by hand. */
export function unleasedAt(at: Date) {
  return { OR: [{ lockedUntil: null }, { lockedUntil: { lte: at } }] };
}

/** A lease on one row that a request makes or takes itself: its claim, and the columns that hold it. */
export function leaseRow(leased: LeasedTable, key: string, at: Date): { claim: Claim; columns: { lockedUntil: Date; claimToken: string } } {
  const claimToken = randomUUID();
  return { claim: { key, claimToken }, columns: { lockedUntil: new Date(at.getTime() + leased.leaseMs), claimToken } };
}

/** Claims due rows and handles them, a batch at a time, until none is due or `budgetMs` has passed (a cron invocation's time). */
export async function drainDue(leased: LeasedTable, handle: (claim: Claim) => Promise<boolean>, budgetMs: number): Promise<WorkRun> {
  const deadline = Date.now() + budgetMs;
  const run: WorkRun = { attempted: 0, succeeded: 0 };
  while (Date.now() < deadline) {
    const claims = await claimDue(leased);
    if (claims.length === 0) break;
    const outcomes = await Promise.all(claims.map(handle));
    run.attempted += claims.length;
    run.succeeded += outcomes.filter(Boolean).length;
  }
  return run;
}

type RunState = { running: boolean; again: boolean };

/**
 * `drain`, one run at a time in this process: a call during a run makes it drain again when done.
 * Its state is kept on globalThis under `name`: Next's bundle and the front door's each load the worker.
 */
export function oneRunAtATime(name: string, drain: () => Promise<unknown>, failure: string): () => Promise<void> {
  const key = Symbol.for(name);
  return async () => {
    const holder = globalThis as { [key: symbol]: RunState | undefined };
    const state = (holder[key] ??= { running: false, again: false });
    if (state.running) {
      state.again = true;
      return;
    }
    state.running = true;
    try {
      do {
        state.again = false;
        await drain();
      } while (state.again);
    } catch (error) {
      console.error(failure, error);
    } finally {
      state.running = false;
    }
  };
}
