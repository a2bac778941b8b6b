// A listed drop's JSON on SQLite is kept with its row of a kept page (lib/drops/list-drops.ts), which lives
// until the database changes: a drop with an expiry still says it expired once the clock passes it, with
// no write between; a new public URL shows in the next list; so does a write.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getConfig, reloadConfig } from "@/lib/config";
import { db, disconnectDb } from "@/lib/db";
import { migrate } from "@/lib/db/migrate";
import { listDrops } from "@/lib/drops/list-drops";
import { listDropsQuerySchema, listQueryInput } from "@/lib/schemas/drops";
import { createTestClock, type TestClock } from "../helpers/clock";

const EXPIRES_AT = Date.UTC(2030, 0, 1);
let dir: string;
let clock: TestClock;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "htmldrop-kept-list-"));
  clock = createTestClock();
  Object.assign(process.env, { AUTH_SECRET: "a".repeat(32), TOKEN_PEPPER: "b".repeat(32), DATA_DIR: dir, PUBLIC_URL: "http://localhost:4001", HTMLDROP_TEST_CLOCK_FILE: clock.file });
  reloadConfig();
  await migrate(getConfig().database);
  const at = new Date(Date.UTC(2029, 0, 1));
  await db().user.create({ data: { id: "owner", createdAt: at } });
  for (const [slug, expiresAt] of [["lasting", null], ["expiring", new Date(EXPIRES_AT)]] as const) {
    await db().drop.create({
      data: { id: slug, slug, ownerId: "owner", title: slug, latestVersion: 1, versionSeq: 1, versionCount: 1, expiresAt, createdAt: at, updatedAt: at, tags: { create: [{ ownerId: "owner", key: "project", value: "kept" }] } },
    });
  }
});

afterAll(async () => {
  await disconnectDb();
  for (const name of ["PUBLIC_URL", "HTMLDROP_TEST_CLOCK_FILE"]) delete process.env[name];
  reloadConfig();
  rmSync(dir, { recursive: true, force: true });
});

async function listed() {
  const { data } = await listDrops("owner", listDropsQuerySchema.parse(listQueryInput(new URLSearchParams("metadata.project=kept"))));
  return Object.fromEntries(data.map((drop) => [drop.slug, drop]));
}

describe("a listed drop's JSON, kept with its row", () => {
  it("is answered again while nothing changed, and says a drop expired once the clock passes its expiry", async () => {
    clock.moveTo(EXPIRES_AT - 60_000);
    const before = await listed();
    expect(before.lasting).toMatchObject({ title: "lasting", url: "http://localhost:4001/p/lasting", metadata: { project: "kept" } });
    expect(before.expiring).toMatchObject({ expires_at: EXPIRES_AT, expired: false });
    const again = await listed();
    expect(again.lasting).toBe(before.lasting);
    clock.moveTo(EXPIRES_AT);
    expect((await listed()).expiring).toMatchObject({ expires_at: EXPIRES_AT, expired: true });
  });

  it("shows a new public URL, then a write, in the next list", async () => {
    process.env.PUBLIC_URL = "http://localhost:4002";
    reloadConfig();
    expect((await listed()).lasting?.url).toBe("http://localhost:4002/p/lasting");
    await db().drop.update({ where: { id: "lasting" }, data: { title: "renamed" } });
    expect((await listed()).lasting?.title).toBe("renamed");
  });
});
