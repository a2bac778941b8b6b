// `npm run backup` while the server writes, then `npm run restore` onto a machine that lost everything
// (data folder and database gone): drops, versions, passcodes and tokens come back as they were at the
// backup, and what was written after it is gone.
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POSTGRES_URL, startApp, testDb, type TestApp } from "../helpers/app";

let app: TestApp;
const backups = mkdtempSync(join(tmpdir(), "htmldrop-backups-"));

beforeAll(async () => {
  app = await startApp();
}, 120_000);
afterAll(async () => {
  await app?.stop();
  rmSync(backups, { recursive: true, force: true });
});

/** What a lost machine leaves: an empty data folder and, on PostgreSQL, no schema. */
async function loseEverything(): Promise<void> {
  rmSync(app.env.DATA_DIR!, { recursive: true, force: true });
  if (testDb() !== "postgres") return;
  const schema = new URL(app.env.DATABASE_URL!).searchParams.get("schema")!;
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  await client.query(`DROP SCHEMA "${schema}" CASCADE`);
  await client.end();
}

/**
 * The planner's statistics describe the restored rows: without them PostgreSQL planned the metadata
 * filter from guesses until autovacuum came round (issue 27).
 */
async function expectFreshStatistics(): Promise<void> {
  const tags = Number((await app.sql<{ tags: number | string }>(`SELECT COUNT(*) AS "tags" FROM "DropTag"`))[0]!.tags);
  expect(tags).toBeGreaterThan(0);
  if (testDb() === "postgres") {
    const tables = await app.sql<{ name: string; analyzed: boolean }>(`SELECT relname AS "name", last_analyze IS NOT NULL AS "analyzed" FROM pg_stat_user_tables WHERE schemaname = current_schema()`);
    expect(tables.filter((table) => !table.analyzed).map((table) => table.name)).toEqual([]);
    const [estimate] = await app.sql<{ rows: number }>(`SELECT reltuples::int AS "rows" FROM pg_class WHERE oid = '"DropTag"'::regclass`);
    expect(estimate!.rows).toBe(tags);
  } else {
    const [index] = await app.sql<{ stat: string }>(`SELECT stat FROM sqlite_stat1 WHERE idx = 'DropTag_ownerId_key_value_dropId_idx'`);
    expect(Number(index!.stat.split(" ")[0]), "rows sqlite_stat1 counts in the owner's tag index").toBe(tags);
  }
}

describe("backup and restore", () => {
  it("brings back every drop, version, passcode and token as at the backup", async () => {
    const token = await app.createToken("keeper");
    const kept = await app.api("/api/drops", { method: "POST", token, body: { title: "kept", html: "<h1>one</h1>", metadata: { team: "ops" } } });
    expect(kept.status).toBe(201);
    const slug = kept.body.slug as string;
    expect((await app.api(`/api/drops/${slug}`, { method: "PUT", token, body: { html: "<h1>two</h1>" } })).status).toBe(200);
    expect((await app.api(`/api/drops/${slug}/passcode`, { method: "POST", token, body: { passcode: "open sesame" } })).status).toBe(200);

    // The backup runs while writes keep arriving.
    const dir = join(backups, "one");
    const writing = Promise.all(Array.from({ length: 10 }, (_, index) => app.api("/api/drops", { method: "POST", token, body: { title: `during ${index}`, html: "<p/>" } })));
    const { stdout } = await app.command("backup", [dir]);
    expect(stdout).toContain(`backed up the ${testDb()} database and secrets.json`);
    await writing;
    expect(readdirSync(dir).sort()).toEqual(["backup.json", testDb() === "postgres" ? "htmldrop.pgdump" : "htmldrop.db", "secrets.json"].sort());
    for (const file of readdirSync(dir)) expect(statSync(join(dir, file)).mode & 0o777).toBe(0o600);
    const atBackup = (await app.api("/api/drops?pageSize=100", { token })).body.pagination.total_items as number;

    const later = await app.api("/api/drops", { method: "POST", token, body: { title: "after the backup", html: "<p/>" } });
    expect(later.status).toBe(201);

    await app.restart({}, async () => {
      await loseEverything();
      const restored = await app.command("restore", [dir]);
      expect(restored.stdout).toContain("secrets");
      await expectFreshStatistics();
    });

    const drop = await app.api(`/api/drops/${slug}`, { token });
    expect(drop.status, "the token still works: its pepper came back with the database").toBe(200);
    expect(drop.body).toMatchObject({ title: "kept", latest_version: 2, metadata: { team: "ops" }, locked: true });
    const versions = (await app.api(`/api/drops/${slug}/versions`, { token })).body as { version: number }[];
    expect(versions.map((item) => item.version).sort()).toEqual([1, 2]);
    expect((await app.api(`/api/drops/${later.body.slug}`, { token })).status).toBe(404);
    expect((await app.api("/api/drops?pageSize=100", { token })).body.pagination.total_items).toBe(atBackup);
    const gate = await fetch(`${app.baseUrl.replace("localhost", "127.0.0.1")}/p/${slug}/raw`);
    expect(gate.status, "the passcode came back too").toBe(403);
  });

  it("refuses a directory that is not a backup, and one that is not empty, with the reason", async () => {
    const empty = join(backups, "not-a-backup");
    await expect(app.command("restore", [empty])).rejects.toMatchObject({ stderr: expect.stringContaining("holds no backup.json") });
    await expect(app.command("backup", [join(backups, "one")])).rejects.toMatchObject({ stderr: expect.stringContaining("is not empty") });
    await expect(app.command("backup", [])).rejects.toMatchObject({ stderr: expect.stringContaining("usage: npm run backup") });
  });
});
