// Planner statistics after a bulk write (a restore, a migration that rewrites a table). PostgreSQL's
// autovacuum refreshes them only after its next round (a minute or more), and until then it plans from
// what it last sampled, or from guesses: after a restore, a metadata filter ran nested loops over every
// account's tags (issue 27). Sampling is cheap: ANALYZE reads at most 30,000 rows a table.
import type Database from "better-sqlite3";
import type pg from "pg";

/** ANALYZE every table of htmldrop's schema: not the whole database, which may hold other schemas. */
export async function analyzePostgresSchema(client: pg.Client, schema: string): Promise<void> {
  const { rows } = await client.query<{ name: string }>(`SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables WHERE schemaname = $1`, [schema]);
  if (rows.length > 0) await client.query(`ANALYZE ${rows.map((row) => row.name).join(", ")}`);
}

/** ANALYZE every table, reading at most about 1,000 rows of each index, so a large file costs no more. */
export function analyzeSqlite(db: Database.Database): void {
  db.pragma("analysis_limit = 1000");
  db.exec("ANALYZE");
}
