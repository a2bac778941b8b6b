import type pg from "pg";

/**
 * Prisma's `?schema=` URL parameter is not understood by node-postgres, so it is split off here and
 * applied both as the connection's search_path and as the schema Prisma qualifies its queries with.
 * The URL's own `options` (libpq's, `-c name=value` settings for the session) are kept beside it.
 */
export function postgresConnection(url: string): { poolConfig: pg.PoolConfig; schema: string } {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get("schema") ?? "public";
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) throw new Error(`DATABASE_URL: schema "${schema}" is not a plain identifier`);
  parsed.searchParams.delete("schema");
  // node-postgres lets the URL's parameters override the configuration's, so they move out of the URL.
  const options = [`-c search_path="${schema}"`, parsed.searchParams.get("options")].filter(Boolean).join(" ");
  parsed.searchParams.delete("options");
  return { poolConfig: { connectionString: parsed.toString(), options }, schema };
}
