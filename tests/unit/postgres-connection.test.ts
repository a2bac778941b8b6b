import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { postgresConnection } from "@/lib/db/connection";
import { POSTGRES_URL } from "../helpers/app";

const schema = `conn_${Date.now().toString(36)}`;

async function session(url: string): Promise<{ schema: string; timeout: string; applicationName: string }> {
  const client = new pg.Client(postgresConnection(url).poolConfig);
  await client.connect();
  try {
    const { rows } = await client.query(`SELECT current_schema() AS schema, current_setting('statement_timeout') AS timeout, current_setting('application_name') AS "applicationName"`);
    return rows[0];
  } finally {
    await client.end();
  }
}

/** Runs one statement on the test database as it is, outside any schema of the URL's. */
async function administer(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  await client.query(statement).finally(() => client.end());
}

describe("a DATABASE_URL's session on PostgreSQL", () => {
  beforeAll(() => administer(`CREATE SCHEMA "${schema}"`));
  afterAll(() => administer(`DROP SCHEMA "${schema}"`));

  test("uses the schema that ?schema= names", async () => {
    expect((await session(`${POSTGRES_URL}?schema=${schema}`)).schema).toBe(schema);
  });

  test("keeps the URL's own session options and other parameters beside the schema", async () => {
    const url = `${POSTGRES_URL}?schema=${schema}&options=${encodeURIComponent("-c statement_timeout=4321")}&application_name=htmldrop-check`;
    expect(await session(url)).toEqual({ schema, timeout: "4321ms", applicationName: "htmldrop-check" });
  });
});
