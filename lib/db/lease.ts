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
};

export type Claim = { key: string; claimToken: string };

/** Claims up to `limit` due rows that no live lease holds, for `leaseMs`. */
export async function claimDue(leased: LeasedTable, limit: number, leaseMs: number): Promise<Claim[]> {
  const at = new Date(now());
  const claimToken = randomUUID();
  const table = Prisma.raw(`"${leased.table}"`);
  const key = Prisma.raw(`"${leased.key}"`);
  // PostgreSQL's concurrent transactions each skip the rows another has locked; SQLite runs one write at
  // a time, so its single UPDATE grants each row once without row locks.
  const lock = getConfig().database.provider === "postgres" ? Prisma.sql`FOR UPDATE OF leased SKIP LOCKED` : Prisma.empty;
  const rows = await db().$queryRaw<{ key: string }[]>`
    UPDATE ${table} SET "lockedUntil" = ${new Date(at.getTime() + leaseMs)}, "claimToken" = ${claimToken}
    WHERE ${key} IN (
      SELECT leased.${key} FROM ${table} leased ${leased.join ?? Prisma.empty}
      WHERE ${leased.due(at)} AND (leased."lockedUntil" IS NULL OR leased."lockedUntil" <= ${at})
      ORDER BY leased.${Prisma.raw(`"${leased.orderBy}"`)} LIMIT ${limit}
      ${lock})
    RETURNING ${key} AS "key"`;
  return rows.map((row) => ({ key: row.key, claimToken }));
}
