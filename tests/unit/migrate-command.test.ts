import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const run = (env: Record<string, string>) =>
  promisify(execFile)(join(ROOT, "node_modules", ".bin", "tsx"), ["scripts/migrate.ts"], { cwd: ROOT, env: { ...process.env, ...env } });

describe("npm run db:migrate", () => {
  it("applies pending migrations once, then reports the database up to date", async () => {
    const env = { DATA_DIR: mkdtempSync(join(tmpdir(), "htmldrop-migrate-")) };
    expect((await run(env)).stdout).toMatch(/^htmldrop: applied migrations \d+_init(, \d+_\w+)+\n$/);
    expect((await run(env)).stdout).toBe("htmldrop: database is up to date\n");
  });

  it("applies each migration once when instances start together on a new SQLite file", async () => {
    const env = { DATA_DIR: mkdtempSync(join(tmpdir(), "htmldrop-migrate-")) };
    const outputs = await Promise.all([run(env), run(env), run(env)]);
    const applied = outputs.flatMap(({ stdout }) => stdout.match(/^htmldrop: applied migrations (.*)\n$/)?.[1]?.split(", ") ?? []);
    expect(applied.toSorted()).toEqual(readdirSync(join(ROOT, "prisma", "migrations", "sqlite")).toSorted());
  });

  it("exits non-zero with the configuration problem named", async () => {
    const failure = await run({ DATABASE_URL: "mysql://nowhere" }).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 1, stderr: expect.stringContaining("DATABASE_URL") });
  });
});
