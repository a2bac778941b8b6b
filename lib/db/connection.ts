import type pg from "pg";

/**
 * Prisma's `?schema=` URL parameter is not understood by node-postgres, so it is split off here and
 * applied both as the connection's search_path and as the schema Prisma qualifies its queries with.
 */
export function postgresConnection(url: string): { poolConfig: pg.PoolConfig; schema: string } {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get("schema") ?? "public";
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) throw new Error(`DATABASE_URL: schema "${schema}" is not a plain identifier`);
  parsed.searchParams.delete("schema");
  return { poolConfig: { connectionString: parsed.toString(), options: `-c search_path="${schema}"` }, schema };
}
