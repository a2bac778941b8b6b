// The hot reads' answers on SQLite are kept until the database changes (lib/db/reads.ts sqliteRow, and
// readAll for a timeless read): the next read after a commit on another connection, in this process or another, sees it;
// a read of an unchanged database answers what was read already, frozen; a scan of more rows than the
// cache's budget holds empties it and still answers right; a list whose page depends on the clock is
// never kept; requests handed over in one turn of the event loop share one look at the database, made after them.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reloadConfig } from "@/lib/config";
import { runInTurn, answerBytes, readAll, sqliteRow } from "@/lib/db/reads";
import { dropListPage } from "@/lib/drops/list-drops";
import { listDropsQuerySchema, listQueryInput } from "@/lib/schemas/drops";
import { DATABASE_ROWS_BYTES } from "@/lib/serving/cache-budget";

const SELECT = `SELECT "slug", "title" FROM "Drop" WHERE "slug" = ?`;
let dir: string;
let file: string;
let writer: Database.Database;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "htmldrop-row-cache-"));
  // The configured database's file, which readAll reads.
  Object.assign(process.env, { AUTH_SECRET: "a".repeat(32), TOKEN_PEPPER: "b".repeat(32), DATA_DIR: dir });
  reloadConfig();
  file = join(dir, "htmldrop.db");
  writer = new Database(file);
  writer.pragma("journal_mode = WAL");
  writer.exec(`CREATE TABLE "Drop" ("slug" TEXT PRIMARY KEY, "title" TEXT NOT NULL)`);
  writer.prepare(`INSERT INTO "Drop" VALUES (?, ?)`).run("first", "one");
});

afterAll(() => {
  writer?.close();
  rmSync(dir, { recursive: true, force: true });
});

const title = (slug: string) => sqliteRow<{ title: string }>(file, SELECT, [slug])?.title;

describe("SQLite's cached rows", () => {
  it("answer the row already read while nothing changed, frozen, since every request shares it", () => {
    const row = sqliteRow<{ title: string }>(file, SELECT, ["first"]);
    expect(row).toEqual({ slug: "first", title: "one" });
    expect(sqliteRow(file, SELECT, ["first"])).toBe(row);
    expect(Object.isFrozen(row)).toBe(true);
  });

  it("show a commit on another connection of this process on the next read, a row that was missing included", () => {
    expect(title("second")).toBeUndefined();
    writer.prepare(`UPDATE "Drop" SET "title" = ? WHERE "slug" = ?`).run("two", "first");
    writer.prepare(`INSERT INTO "Drop" VALUES (?, ?)`).run("second", "new");
    expect(title("first")).toBe("two");
    expect(title("second")).toBe("new");
  });

  it("keep every row of a read that no clock decides the same way, a list's page", async () => {
    const text = `SELECT "slug", "title" FROM "Drop" WHERE "slug" >= ? ORDER BY "slug"`;
    const slugs = async (timeless: boolean) => (await readAll<{ slug: string }>({ name: "page", text, timeless }, ["first"])).map((row) => row.slug);
    const page = await readAll<{ slug: string }>({ name: "page", text, timeless: true }, ["first"]);
    expect(page.map((row) => row.slug)).toEqual(["first", "second"]);
    expect(await readAll({ name: "page", text, timeless: true }, ["first"])).toBe(page);
    expect(Object.isFrozen(page) && page.every((row) => Object.isFrozen(row))).toBe(true);
    expect(await readAll({ name: "page", text, timeless: false }, ["first"])).not.toBe(page);
    writer.prepare(`INSERT INTO "Drop" VALUES (?, ?)`).run("fourth", "listed");
    expect(await slugs(true)).toEqual(["first", "fourth", "second"]);
    expect(await slugs(false)).toEqual(["first", "fourth", "second"]);
    writer.prepare(`DELETE FROM "Drop" WHERE "slug" = ?`).run("fourth");
  });

  it("show a commit made after a checkpoint emptied the write-ahead log", () => {
    expect(title("second")).toBe("new");
    writer.pragma("wal_checkpoint(TRUNCATE)");
    expect(title("second")).toBe("new");
    writer.prepare(`UPDATE "Drop" SET "title" = ? WHERE "slug" = ?`).run("renewed", "second");
    expect(title("second")).toBe("renewed");
  });

  it("show a commit made by another process on the next read", () => {
    expect(title("first")).toBe("two");
    const script = `const db = new (require("better-sqlite3"))(process.argv[1]); db.prepare('UPDATE "Drop" SET "title" = ? WHERE "slug" = ?').run("three", "first"); db.close();`;
    execFileSync(process.execPath, ["-e", script, file], { cwd: process.cwd() });
    expect(title("first")).toBe("three");
  });

  it("are let go past the bytes their budget holds, and keep answering right", () => {
    const long = "x".repeat(1000);
    const rows = Math.ceil(DATABASE_ROWS_BYTES / answerBytes("scan0", { slug: "scan0", title: long })) + 10;
    const insert = writer.prepare(`INSERT INTO "Drop" VALUES (?, ?)`);
    writer.transaction(() => {
      for (let n = 0; n < rows; n++) insert.run(`scan${n}`, `${long}${n}`);
    })();
    const firstRead = sqliteRow(file, SELECT, ["scan0"]);
    for (let n = 0; n < rows; n++) expect(title(`scan${n}`)).toBe(`${long}${n}`);
    expect(sqliteRow(file, SELECT, ["scan0"]), "read again: the budget emptied the cache").not.toBe(firstRead);
    expect(title("first")).toBe("three");
    expect(title("missing")).toBeUndefined();
  });
});

describe("requests handed over together (runInTurn)", () => {
  it("see every commit made before their turn's one look, which they share", async () => {
    writer.prepare(`INSERT INTO "Drop" VALUES (?, ?)`).run("shared", "before");
    expect(title("shared")).toBe("before");
    const rename = (to: string) => writer.prepare(`UPDATE "Drop" SET "title" = ? WHERE "slug" = ?`).run(to, "shared");
    const seen: (string | undefined)[] = [];
    const answered = new Promise<void>((resolve) => {
      runInTurn(() => {
        seen.push(title("shared"));
        rename("during");
      });
      runInTurn(() => {
        seen.push(title("shared"));
        resolve();
      });
    });
    // After both were handed over, before the look.
    rename("after");
    await answered;
    expect(seen).toEqual(["after", "after"]);
    expect(title("shared")).toBe("during");
  });
});

describe("a list's page", () => {
  const page = (search: string) => dropListPage("owner", listDropsQuerySchema.parse(listQueryInput(new URLSearchParams(search)))).all;

  it("is kept only when the clock has no part in it: an expiry filter compares with the time of the request", () => {
    expect(page("metadata.project=bench&metadata.kind=weekly-report").timeless).toBe(true);
    expect(page("shared=true&page=2").timeless).toBe(true);
    expect(page("metadata.project=bench&expired=true").timeless).toBe(false);
    expect(page("expired=false").timeless).toBe(false);
  });
});
