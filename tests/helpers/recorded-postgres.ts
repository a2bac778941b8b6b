// A PostgreSQL schema of a unit test's own, migrated and installed as the app's database: db() with its
// pool, and the batched reads' pool (lib/db/index.ts and lib/db/reads.ts keep them under these keys, and
// disconnectDb closes them), with every statement sent through the pools' query() recorded, so a test can
// count a read's statements or EXPLAIN them.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { disconnectDb } from "@/lib/db";
import { postgresConnection } from "@/lib/db/connection";
import { BATCHED_READS_POOL_KEY, batchedReadsPoolConfig } from "@/lib/db/reads";
import { PrismaClient as PostgresClient } from "@/lib/db/generated/postgres/client";
import { migrate } from "@/lib/db/migrate";
import { POSTGRES_URL } from "./app";

const DB_KEY = Symbol.for("htmldrop.db");
const POOL_KEY = Symbol.for("htmldrop.db-pool");

export type RecordedStatement = { query: string; params: unknown[] };

export type RecordedPostgres = {
  /** The schema's URL, for a client of the test's own (EXPLAIN, DDL). */
  url: string;
  prisma: PostgresClient;
  /** Every statement sent through the pool's query(), in order; a test empties it before the calls it counts. */
  statements: RecordedStatement[];
  close(): Promise<void>;
};

export async function recordedPostgres(prefix: string): Promise<RecordedPostgres> {
  const schema = `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
  const url = `${POSTGRES_URL}?schema=${schema}`;
  const dataDir = mkdtempSync(join(tmpdir(), `htmldrop-${prefix}-`));
  Object.assign(process.env, { DATA_DIR: dataDir, DATABASE_URL: url });
  await migrate({ provider: "postgres", url });
  const statements: RecordedStatement[] = [];
  const recorded = (config: pg.PoolConfig) => {
    const pool = new pg.Pool(config);
    const query = pool.query.bind(pool) as (config: pg.QueryConfig) => Promise<pg.QueryResult>;
    pool.query = ((config: pg.QueryConfig) => {
      statements.push({ query: config.text, params: config.values ?? [] });
      return query(config);
    }) as typeof pool.query;
    return pool;
  };
  const pool = recorded(postgresConnection(url).poolConfig);
  const prisma = new PostgresClient({ adapter: new PrismaPg(pool, { schema }) });
  Object.assign(globalThis, { [DB_KEY]: prisma, [POOL_KEY]: pool, [BATCHED_READS_POOL_KEY]: recorded(batchedReadsPoolConfig(url)) });
  return {
    url,
    prisma,
    statements,
    async close() {
      await disconnectDb();
      const dropper = new pg.Client({ connectionString: POSTGRES_URL });
      await dropper.connect();
      await dropper.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => dropper.end());
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A node of a plan as `EXPLAIN (ANALYZE, FORMAT JSON)` gives it, with the fields the plan tests read. */
export type PlanNode = {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows": number;
  "Actual Loops": number;
  "Rows Removed by Filter"?: number;
  Plans?: PlanNode[];
};

/** Every node of a plan, the root first. */
export function* planNodes(plan: PlanNode): Generator<PlanNode> {
  yield plan;
  for (const child of plan.Plans ?? []) yield* planNodes(child);
}
