// Two writers that lock the same rows in opposite orders deadlock; PostgreSQL ends one of them (fuzz
// seed 116 met it as a 500 on concurrent DELETEs). transaction() runs the one ended again, so both
// writes land. Real PostgreSQL, real deadlock: each writer holds its first row before taking the second.
import { PrismaPg } from "@prisma/adapter-pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresConnection } from "@/lib/db/connection";
import { PrismaClient as PostgresClient } from "@/lib/db/generated/postgres/client";
import { migrate } from "@/lib/db/migrate";
import type { Tx } from "@/lib/db";
import { POSTGRES_URL } from "../helpers/app";

const schema = `deadlock_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
const url = `${POSTGRES_URL}?schema=${schema}`;
let client: PostgresClient;
let lib: typeof import("@/lib/db");

beforeAll(async () => {
  await migrate({ provider: "postgres", url });
  client = new PostgresClient({ adapter: new PrismaPg(postgresConnection(url).poolConfig, { schema }) });
  // The client db() hands out (lib/db/index.ts keeps it under this key).
  (globalThis as Record<symbol, unknown>)[Symbol.for("htmldrop.db")] = client;
  lib = await import("@/lib/db");
  const at = new Date();
  await client.user.createMany({ data: [{ id: "first", createdAt: at }, { id: "second", createdAt: at }] });
});
afterAll(async () => {
  await client?.$executeRawUnsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client?.$disconnect();
});

/** Two writers, each bumping both accounts' counters in its own order, meeting once both hold their first row. */
function crossedWriters(run: (work: (tx: Tx) => Promise<void>) => Promise<void>) {
  let attempts = 0;
  let holding = 0;
  let bothHolding: () => void = () => {};
  const met = new Promise<void>((resolve) => (bothHolding = resolve));
  const writer = (order: string[]) =>
    run(async (tx) => {
      attempts++;
      await tx.user.update({ where: { id: order[0] }, data: { dropCount: { increment: 1 } } });
      if (++holding === 2) bothHolding();
      await met;
      await tx.user.update({ where: { id: order[1] }, data: { dropCount: { increment: 1 } } });
    });
  return { settled: Promise.allSettled([writer(["first", "second"]), writer(["second", "first"])]), attempts: () => attempts };
}

describe("transaction()", () => {
  it("fails one of two crossed writers when run once, as Prisma's $transaction does", async () => {
    const { settled } = crossedWriters((work) => lib.db().$transaction(work));
    const failures = (await settled).filter((outcome) => outcome.status === "rejected").map((outcome) => (outcome as PromiseRejectedResult).reason);
    expect(failures).toHaveLength(1);
    expect(lib.isWriteConflict(failures[0])).toBe(true);
  });

  it("runs the writer PostgreSQL ended again, so both land", async () => {
    const before = await client.user.findMany({ orderBy: { id: "asc" }, select: { dropCount: true } });
    const { settled, attempts } = crossedWriters((work) => lib.transaction(work));
    expect((await settled).map((outcome) => outcome.status)).toEqual(["fulfilled", "fulfilled"]);
    expect(attempts()).toBe(3);
    const after = await client.user.findMany({ orderBy: { id: "asc" }, select: { dropCount: true } });
    expect(after.map((row, i) => row.dropCount - before[i]!.dropCount)).toEqual([2, 2]);
  });
});
