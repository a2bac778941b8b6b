// The hot reads' rows on SQLite are kept until the database changes (lib/db/reads.ts sqliteRow): the
// next read after a commit on another connection, in this process or another, sees it; a read of an
// unchanged database answers the row already read, frozen; a scan of more rows than the cache's budget
// holds empties it and still answers right.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowBytes, sqliteRow } from "@/lib/db/reads";
import { DATABASE_ROWS_BYTES } from "@/lib/serving/cache-budget";

const SELECT = `SELECT "slug", "title" FROM "Drop" WHERE "slug" = ?`;
let dir: string;
let file: string;
let writer: Database.Database;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "htmldrop-row-cache-"));
  file = join(dir, "rows.db");
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
    const rows = Math.ceil(DATABASE_ROWS_BYTES / rowBytes("scan0", { slug: "scan0", title: long })) + 10;
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
