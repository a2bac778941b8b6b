// `npm run bench:writes`: what synchronous=FULL costs on the embedded database. Runs the app's own write
// services (rate-limit counters, transaction and all) in this process on db(), the connection every
// request uses, over a fresh SQLite database under BENCH_DIR (default: the system's temporary
// directory; point it at the disk DATA_DIR lives on), at FULL (what the app runs) and at NORMAL
// (better-sqlite3's WAL default), in interleaved rounds. BENCH_SECONDS (default 3) per round and case.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = 3;
const dataDir = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), "htmldrop-bench-writes-"));

// Before any module reads the configuration: a fresh database, and limits no benchmark reaches.
Object.assign(process.env, {
  DATA_DIR: dataDir,
  LIMIT_WRITES_PER_MINUTE: "1000000000",
  LIMIT_WRITES_PER_DAY: "1000000000",
  LIMIT_DROPS_PER_ACCOUNT: "1000000000",
});
delete process.env.DATABASE_URL;
delete process.env.REDIS_URL;
delete process.env.UPSTASH_REDIS_REST_URL;

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

async function main(): Promise<void> {
  const { findOrCreateUserForIdentity } = await import("@/lib/accounts/users");
  const { getConfig } = await import("@/lib/config");
  const { db, disconnectDb } = await import("@/lib/db");
  const { migrate } = await import("@/lib/db/migrate");
  const { createDrop, patchDrop } = await import("@/lib/drops");
  try {
    await migrate(getConfig().database);
    const user = await findOrCreateUserForIdentity({ provider: "local", providerAccountId: "bench", login: "bench" });
    const html = `<!DOCTYPE html><title>bench</title>${"<p>a paragraph of the benchmark drop</p>\n".repeat(100)}`;
    const { slug } = (await createDrop(user.id, { title: "bench", html })).body;
    let serial = 0;
    const operations = {
      "PATCH (title)": () => patchDrop(user.id, slug, { title: `t${serial++}` }),
      "POST (4 KB drop)": () => createDrop(user.id, { title: "b", html: `${html}<!-- ${serial++} -->` }),
    };

    /** Writes per second of `writers` concurrent callers repeating `write` for SECONDS. */
    const measure = async (write: () => Promise<unknown>, writers: number) => {
      const until = performance.now() + SECONDS * 1000;
      let done = 0;
      await Promise.all(
        Array.from({ length: writers }, async () => {
          while (performance.now() < until) {
            await write();
            done++;
          }
        }),
      );
      return done / SECONDS;
    };

    const levels = ["FULL", "NORMAL"] as const;
    const cases = Object.entries(operations).flatMap(([name, write]) => [1, 8].map((writers) => ({ name, write, writers })));
    const results = new Map<string, number[]>();
    console.log(`SQLite in ${dataDir}, ${ROUNDS} interleaved rounds of ${SECONDS} s per case; each write also counts two rate-limit hits\n`);
    for (let round = 0; round < ROUNDS; round++) {
      for (const level of levels) {
        // db() is one connection, so the pragma holds for every write that follows.
        await db().$executeRawUnsafe(`PRAGMA synchronous = ${level}`);
        const [{ synchronous }] = await db().$queryRawUnsafe<[{ synchronous: bigint }]>("PRAGMA synchronous");
        if (Number(synchronous) !== (level === "FULL" ? 2 : 1)) throw new Error(`synchronous is ${synchronous}, not ${level}`);
        for (const { name, write, writers } of cases) {
          const key = `${name}|${writers}|${level}`;
          results.set(key, [...(results.get(key) ?? []), await measure(write, writers)]);
        }
      }
    }
    for (const { name, writers } of cases) {
      const [full, normal] = levels.map((level) => median(results.get(`${name}|${writers}|${level}`)!));
      const label = `${name}, ${writers} writer${writers > 1 ? "s" : ""}`;
      console.log(`${label.padEnd(28)} FULL ${full!.toFixed(0).padStart(6)}/s   NORMAL ${normal!.toFixed(0).padStart(6)}/s   FULL = ${((full! / normal!) * 100).toFixed(0)}% of NORMAL`);
    }
  } finally {
    await disconnectDb();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
