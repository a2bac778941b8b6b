// The serving lookups' rows kept in memory on PostgreSQL (lib/db/kept-rows.ts), on a schema of this
// file's own: kept once the instance has armed, dropped by every change the triggers announce, and a
// write through dropChanged returns only once every registered instance has acknowledged its fence, its
// lease has ended or the writer gave up on it. Other instances are played by this file's own connections,
// and a pooler in transaction mode by a relay that drops PostgreSQL's notifications.
import { Transform } from "node:stream";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { reloadConfig } from "@/lib/config";
import { postgresConnection } from "@/lib/db/connection";
import { POSTGRES_URL } from "../helpers/app";
import { type RecordedPostgres, recordedPostgres } from "../helpers/recorded-postgres";
import { startTcpProxy } from "../helpers/tcp-proxy";

let database: RecordedPostgres;
let sql: pg.Client;
let kept: typeof import("@/lib/db/kept-rows");
let lookup: typeof import("@/lib/serving/lookup");
let stopKeeping: () => Promise<void>;
let channel: string;

const at = new Date();

beforeAll(async () => {
  database = await recordedPostgres("kept_rows");
  sql = new pg.Client(postgresConnection(database.url).poolConfig);
  await sql.connect();
  kept = await import("@/lib/db/kept-rows");
  lookup = await import("@/lib/serving/lookup");
  channel = kept.keptRowsChannel(postgresConnection(database.url).schema);
  const { prisma } = database;
  await prisma.user.create({ data: { id: "owner", createdAt: at } });
  await prisma.blob.createMany({ data: ["first", "second"].map((sha256) => ({ sha256, bytes: Buffer.from(sha256), sizeBytes: sha256.length, createdAt: at })) });
  stopKeeping = kept.startKeepingRows();
  await armed();
}, 60_000);

afterAll(async () => {
  await stopKeeping?.();
  await sql?.end();
  await database?.close();
});

const probe = () => kept.keptRows<{ value: number }>("probe");

/** Until this process answers from memory. */
async function armed(): Promise<void> {
  const until = Date.now() + 15_000;
  while (probe().mark() === null) {
    if (Date.now() > until) throw new Error("the kept rows never armed");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let drops = 0;
async function newDrop(): Promise<string> {
  const slug = `kept${++drops}`;
  await database.prisma.drop.create({ data: { id: slug, slug, ownerId: "owner", title: slug, latestVersion: 1, versionSeq: 1, versionCount: 1, createdAt: at, updatedAt: at } });
  await database.prisma.version.create({ data: { id: `${slug}v1`, dropId: slug, number: 1, blobSha: "first", sizeBytes: 5, createdAt: at } });
  await heard();
  return slug;
}

/** Until this process has heard every change committed so far: what a write's fence waits for. */
const heard = () => kept.settleKeptRows();

/** Points the drop's head at the blob "second", as a write does: in a transaction that announces it. */
async function writeSecondVersion(slug: string): Promise<number> {
  const { transaction } = await import("@/lib/db");
  const { dropChanged } = await import("@/lib/drops/changed");
  const started = performance.now();
  await transaction(async (tx) => {
    await tx.version.create({ data: { id: `${slug}v2`, dropId: slug, number: 2, blobSha: "second", sizeBytes: 6, createdAt: at } });
    await tx.drop.update({ where: { id: slug }, data: { latestVersion: 2, versionSeq: 2 } });
    await dropChanged(tx, { id: slug, slug });
  });
  return performance.now() - started;
}

/**
 * What a pooler in transaction mode does to LISTEN: the statement succeeds, but no notification comes
 * back. Drops every NotificationResponse ('A') from PostgreSQL's messages, each a type byte and a length.
 */
function withoutNotifications(): Transform {
  let pending = Buffer.alloc(0);
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 5 && pending.length >= 1 + pending.readUInt32BE(1)) {
        const end = 1 + pending.readUInt32BE(1);
        if (pending[0] !== "A".charCodeAt(0)) this.push(pending.subarray(0, end));
        pending = pending.subarray(end);
      }
      done();
    },
  });
}

async function registered(): Promise<string[]> {
  const { rows } = await sql.query<{ id: string }>(`SELECT "id" FROM "KeptRowsInstance" ORDER BY "registeredAt"`);
  return rows.map((row) => row.id);
}

describe("rows kept on PostgreSQL", () => {
  it("answer a lookup from memory, without a statement, until a write, which they show the moment it returns", async () => {
    const slug = await newDrop();
    expect((await lookup.findServedVersion(slug, null))?.blobSha).toBe("first");
    database.statements.length = 0;
    const again = lookup.findServedVersion(slug, null);
    expect(again, "answered synchronously, from memory").not.toBeInstanceOf(Promise);
    expect((again as { blobSha: string }).blobSha).toBe("first");
    expect(database.statements).toEqual([]);
    await writeSecondVersion(slug);
    const after = lookup.findServedVersion(slug, null);
    expect(after, "asked the database again").toBeInstanceOf(Promise);
    expect((await after)?.blobSha).toBe("second");
  });

  it("keep nothing of a missing drop, so its creation needs no fence", async () => {
    expect(await lookup.findServedVersion("not-yet", null)).toBeNull();
    const pending = lookup.findServedVersion("not-yet", null);
    expect(pending).toBeInstanceOf(Promise);
    await pending;
  });

  it("drop what they keep on a change to what the lookups read, and not on a view count", async () => {
    const slug = await newDrop();
    const row = { value: 1 };
    probe().keep(slug, row, probe().mark());
    expect(probe().get(slug)).toBe(row);
    await sql.query(`UPDATE "Drop" SET "viewCount" = "viewCount" + 1 WHERE "id" = $1`, [slug]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(probe().get(slug), "a view count changes nothing kept").toBe(row);
    await sql.query(`UPDATE "Drop" SET "access" = 'signed_in' WHERE "id" = $1`, [slug]);
    const until = Date.now() + 5_000;
    while (probe().get(slug) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(probe().get(slug)).toBeUndefined();
  });

  it("keep no answer read before a change was heard", async () => {
    const mark = probe().mark();
    expect(mark).not.toBeNull();
    await sql.query(`NOTIFY "${channel}"`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    probe().keep("read-before", { value: 2 }, mark);
    expect(probe().get("read-before")).toBeUndefined();
    probe().keep("read-after", { value: 3 }, probe().mark());
    expect(probe().get("read-after")).toEqual({ value: 3 });
  });

  it("make a write wait for another instance's acknowledgement of its fence", async () => {
    const slug = await newDrop();
    const other = new pg.Client(postgresConnection(database.url).poolConfig);
    await other.connect();
    const ACK_DELAY_MS = 400;
    try {
      await other.query(`LISTEN "${channel}"`);
      other.on("notification", ({ payload }) => {
        if (!payload?.startsWith("fence:")) return;
        setTimeout(() => void other.query(`INSERT INTO "KeptRowsAck" VALUES ($1, 'slow')`, [payload.slice("fence:".length)]), ACK_DELAY_MS);
      });
      await other.query(`INSERT INTO "KeptRowsInstance" VALUES ('slow', now() - interval '1 second', now() + interval '1 minute')`);
      const took = await writeSecondVersion(slug);
      expect(took).toBeGreaterThanOrEqual(ACK_DELAY_MS);
      // Not given up on after a timeout: acknowledged.
      expect(took).toBeLessThan(ACK_DELAY_MS + kept.LEASE_MS);
      console.log(`kept rows: a write waited ${Math.round(took)} ms for an instance that acknowledged after ${ACK_DELAY_MS} ms`);
    } finally {
      await other.query(`DELETE FROM "KeptRowsInstance" WHERE "id" = 'slow'`);
      await other.end();
    }
  });

  it("make a write wait for a silent instance until its lease ends, and no longer", async () => {
    const slug = await newDrop();
    const LEASE_LEFT_MS = 1_000;
    await sql.query(`INSERT INTO "KeptRowsInstance" VALUES ('silent', now() - interval '1 second', now() + $1 * interval '1 millisecond')`, [LEASE_LEFT_MS]);
    try {
      const took = await writeSecondVersion(slug);
      expect(took).toBeGreaterThanOrEqual(LEASE_LEFT_MS - 50);
      expect(took).toBeLessThan(LEASE_LEFT_MS + kept.LEASE_MS);
      console.log(`kept rows: a write waited ${Math.round(took)} ms for a silent instance whose lease had ${LEASE_LEFT_MS} ms left`);
    } finally {
      await sql.query(`DELETE FROM "KeptRowsInstance" WHERE "id" = 'silent'`);
    }
  });

  it("stop answering from memory when the lease lapses, and arm again after a renewal", async () => {
    probe().keep("before-stall", { value: 4 }, probe().mark());
    // The event loop held past the lease, as a long pause would: renewals could not run.
    const until = performance.now() + kept.LEASE_MS;
    while (performance.now() < until);
    expect(probe().get("before-stall")).toBeUndefined();
    expect(probe().mark()).toBeNull();
    await armed();
    expect(probe().get("before-stall"), "dropped, not kept through the lapse").toBeUndefined();
  });

  it("stop answering from memory when the listening connection is cut, and register afresh", async () => {
    const [before] = await registered();
    expect(before).toBeDefined();
    probe().keep("before-cut", { value: 5 }, probe().mark());
    const { rows } = await sql.query<{ terminated: boolean }>(`SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity WHERE application_name = $1`, [kept.keptRowsApplicationName(before!)]);
    expect(rows).toEqual([{ terminated: true }]);
    const cutOff = Date.now() + 5_000;
    while (probe().mark() !== null && Date.now() < cutOff) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(probe().mark()).toBeNull();
    expect(probe().get("before-cut")).toBeUndefined();
    await armed();
    const after = await registered();
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(before);
  });

  it("give a write up on an instance that never acknowledges, and say so", async () => {
    const slug = await newDrop();
    await sql.query(`INSERT INTO "KeptRowsInstance" VALUES ('deaf', now() - interval '1 second', now() + interval '1 minute')`);
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const took = await writeSecondVersion(slug);
      expect(took).toBeGreaterThanOrEqual(kept.FENCE_GIVE_UP_MS);
      expect(took).toBeLessThan(kept.FENCE_GIVE_UP_MS + kept.LEASE_MS);
      expect(errors).toHaveBeenCalledWith(`htmldrop: 1 instance(s) did not confirm dropping their kept rows within ${kept.FENCE_GIVE_UP_MS} ms; a write may show there late`);
      expect((await lookup.findServedVersion(slug, null))?.blobSha, "shown here, which acknowledged").toBe("second");
    } finally {
      errors.mockRestore();
      await sql.query(`DELETE FROM "KeptRowsInstance" WHERE "id" = 'deaf'`);
    }
  }, 30_000);

  it("sweep acknowledgements no writer deleted once no writer can be waiting for them", async () => {
    await sql.query(
      `INSERT INTO "KeptRowsAck" ("fence", "instanceId", "ackedAt") VALUES ('late', 'gone', now() - $1 * interval '1 millisecond' - interval '1 second'), ('recent', 'gone', now())`,
      [kept.ACK_SWEPT_AFTER_MS],
    );
    const fences = async () => (await sql.query<{ fence: string }>(`SELECT "fence" FROM "KeptRowsAck" WHERE "instanceId" = 'gone' ORDER BY "fence"`)).rows.map((row) => row.fence);
    try {
      const until = Date.now() + 4 * kept.LEASE_MS;
      while ((await fences()).includes("late") && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await fences()).toEqual(["recent"]);
    } finally {
      await sql.query(`DELETE FROM "KeptRowsAck" WHERE "instanceId" = 'gone'`);
    }
  });

  it("never register nor answer from memory when no notification comes back, as behind a pooler in transaction mode, and say so", async () => {
    await stopKeeping();
    const direct = new URL(POSTGRES_URL);
    const pooler = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) }, withoutNotifications);
    const url = process.env.DATABASE_URL!;
    const throughPooler = new URL(url);
    throughPooler.host = `127.0.0.1:${pooler.port}`;
    process.env.DATABASE_URL = throughPooler.toString();
    reloadConfig();
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const stopDeaf = kept.startKeepingRows();
    try {
      const slug = await newDrop();
      const warned = () => errors.mock.calls.some(([message]) => String(message).startsWith("htmldrop: no notification came back from PostgreSQL within"));
      const until = Date.now() + 15_000;
      while (!warned() && Date.now() < until) {
        expect(probe().mark(), "never answers from memory").toBeNull();
        const lookedUp = lookup.findServedVersion(slug, null);
        expect(lookedUp, "asks the database every time").toBeInstanceOf(Promise);
        await lookedUp;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(warned()).toBe(true);
      expect(await registered(), "writes never wait for it").toEqual([]);
      expect(await writeSecondVersion(slug)).toBeLessThan(kept.LEASE_MS);
    } finally {
      await stopDeaf();
      errors.mockRestore();
      await pooler.close();
      process.env.DATABASE_URL = url;
      reloadConfig();
      stopKeeping = kept.startKeepingRows();
    }
    await armed();
  }, 30_000);

  it("unregister when stopped, so writes stop waiting for this instance", async () => {
    await stopKeeping();
    expect(await registered()).toEqual([]);
    expect(probe().mark()).toBeNull();
    stopKeeping = kept.startKeepingRows();
    await armed();
  });
});
