// The one error converter answers a database that cannot be used with 503 service_unavailable and
// Retry-After, and every other database fault with 500 internal_error. Every error here is produced
// by a real failing connection, not built by hand.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { errorResponse, toApiError } from "@/lib/api/responses";
import { PrismaClient as PostgresClient } from "@/lib/db/generated/postgres/client";
import { PrismaClient as SqliteClient } from "@/lib/db/generated/sqlite/client";
import { freePort, POSTGRES_URL } from "../helpers/app";

async function thrown(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error("expected the work to fail");
}

function expectUnavailable(error: unknown) {
  const apiError = toApiError(error);
  expect(apiError.code).toBe("service_unavailable");
  expect(apiError.status).toBe(503);
  expect(apiError.retryAfterSeconds).toBeGreaterThan(0);
  const response = errorResponse(error);
  expect(response.status).toBe(503);
  expect(response.headers.get("retry-after")).toBe(String(apiError.retryAfterSeconds));
}

beforeAll(() => {
  // The converter logs each failure; the failures here are expected.
  vi.spyOn(console, "error").mockImplementation(() => undefined);
});

describe("PostgreSQL", () => {
  it("maps an unreachable server, through Prisma and through node-postgres, to 503", async () => {
    const closed = `postgresql://postgres@127.0.0.1:${await freePort()}/test`;
    const prisma = new PostgresClient({ adapter: new PrismaPg({ connectionString: closed }) });
    expectUnavailable(await thrown(() => prisma.user.findFirst()));
    expectUnavailable(await thrown(() => prisma.$queryRaw`SELECT 1`));
    expectUnavailable(await thrown(() => prisma.$transaction(async (tx) => tx.user.findFirst())));
    await prisma.$disconnect();
    const client = new pg.Client({ connectionString: closed });
    expectUnavailable(await thrown(() => client.connect()));
  });

  it("maps a connection the server drops to 503", async () => {
    // A server that accepts and hangs up at once, as a database restarting would.
    const server = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    try {
      const client = new pg.Client({ connectionString: `postgresql://postgres@127.0.0.1:${port}/test` });
      expectUnavailable(await thrown(() => client.connect()));
      const prisma = new PostgresClient({ adapter: new PrismaPg({ connectionString: `postgresql://postgres@127.0.0.1:${port}/test` }) });
      expectUnavailable(await thrown(() => prisma.user.findFirst()));
      await prisma.$disconnect();
    } finally {
      server.close();
    }
  });

  it("maps a terminated session to 503", async () => {
    const prisma = new PostgresClient({ adapter: new PrismaPg({ connectionString: POSTGRES_URL, application_name: "htmldrop-outage-test" }) });
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    try {
      const sleeping = thrown(() => prisma.$queryRaw`SELECT pg_sleep(5)`);
      while ((await admin.query(`SELECT 1 FROM pg_stat_activity WHERE application_name = 'htmldrop-outage-test' AND state = 'active'`)).rowCount === 0) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'htmldrop-outage-test'`);
      expectUnavailable(await sleeping);
    } finally {
      await admin.end();
      await prisma.$disconnect();
    }
  });

  it("maps a transaction that waited out its time, to begin or to finish, to 503", async () => {
    const prisma = new PostgresClient({ adapter: new PrismaPg({ connectionString: POSTGRES_URL, max: 1 }) });
    try {
      // The pool's one connection is held, so the next transaction cannot begin within its maxWait.
      const holding = prisma.$transaction(async (tx) => tx.$executeRaw`SELECT pg_sleep(0.5)`, { timeout: 5_000 });
      expectUnavailable(await thrown(() => prisma.$transaction(async (tx) => tx.user.findFirst(), { maxWait: 50 })));
      await holding;
      expectUnavailable(
        await thrown(() =>
          prisma.$transaction(
            async (tx) => {
              await tx.$executeRaw`SELECT pg_sleep(0.3)`;
              return tx.user.findFirst();
            },
            { timeout: 100 },
          ),
        ),
      );
    } finally {
      await prisma.$disconnect();
    }
  });

  it("keeps other database faults at 500 internal_error", async () => {
    const prisma = new PostgresClient({ adapter: new PrismaPg({ connectionString: POSTGRES_URL }) });
    try {
      expect(toApiError(await thrown(() => prisma.$queryRawUnsafe("SELEC 1"))).code).toBe("internal_error");
      expect(toApiError(await thrown(() => prisma.$queryRawUnsafe("SELECT 1/0"))).code).toBe("internal_error");
    } finally {
      await prisma.$disconnect();
    }
  });
});

describe("SQLite", () => {
  let dir: string;
  let file: string;
  let holder: Database.Database;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "htmldrop-busy-"));
    file = join(dir, "busy.db");
    holder = new Database(file);
    holder.pragma("journal_mode = WAL");
    holder.exec("CREATE TABLE t (x INTEGER PRIMARY KEY)");
  });
  afterAll(() => {
    holder.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("maps a write lock held past the busy timeout to 503, through Prisma and through better-sqlite3", async () => {
    holder.exec("BEGIN IMMEDIATE");
    try {
      const prisma = new SqliteClient({ adapter: new PrismaBetterSqlite3({ url: file, timeout: 0 }) });
      expectUnavailable(await thrown(() => prisma.$executeRaw`INSERT INTO t VALUES (1)`));
      await prisma.$disconnect();
      const direct = new Database(file, { timeout: 0 });
      expectUnavailable(await thrown(async () => direct.exec("INSERT INTO t VALUES (1)")));
      direct.close();
    } finally {
      holder.exec("ROLLBACK");
    }
  });

  it("keeps other database faults at 500 internal_error", async () => {
    const prisma = new SqliteClient({ adapter: new PrismaBetterSqlite3({ url: file }) });
    await prisma.$executeRaw`INSERT INTO t VALUES (2)`;
    expect(toApiError(await thrown(() => prisma.$executeRaw`INSERT INTO t VALUES (2)`)).code).toBe("internal_error");
    expect(toApiError(await thrown(() => prisma.$queryRawUnsafe("SELEC 1"))).code).toBe("internal_error");
    await prisma.$disconnect();
  });
});
