// The public pages' lookups on PostgreSQL (lib/serving/lookup.ts) find each drop and version by an index
// probe, whatever the size of the tables: joined to the batch's slugs, the generic plan read and hashed
// every row of a table of a few hundred. The batches run, through the batched reads' pool, on a schema of
// 600 drops with fresh statistics; each statement they sent is EXPLAIN ANALYZEd as that pool plans it.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { batchedReadsPoolConfig } from "@/lib/db/reads";
import { type PlanNode, planNodes, recordedPostgres, type RecordedPostgres } from "../helpers/recorded-postgres";

const DROPS = 600;

let database: RecordedPostgres;
let explainer: pg.Client;
let lookup: typeof import("@/lib/serving/lookup");

beforeAll(async () => {
  database = await recordedPostgres("lookup_plan");
  explainer = new pg.Client(batchedReadsPoolConfig(database.url));
  await explainer.connect();
  lookup = await import("@/lib/serving/lookup");
  const { prisma } = database;
  const at = new Date();
  await prisma.user.create({ data: { id: "owner", createdAt: at } });
  await prisma.blob.createMany({ data: ["first", "second"].map((sha256) => ({ sha256, bytes: Buffer.from(sha256), sizeBytes: sha256.length, createdAt: at })) });
  const ids = Array.from({ length: DROPS }, (_, n) => `drop${n}`);
  await prisma.drop.createMany({ data: ids.map((id) => ({ id, slug: id, ownerId: "owner", title: id, latestVersion: id === "drop0" ? 2 : 1, versionSeq: 2, versionCount: 2, createdAt: at, updatedAt: at })) });
  const versions = ids.flatMap((dropId) => [1, 2].map((number) => ({ id: `${dropId}v${number}`, dropId, number, blobSha: number === 1 ? "first" : "second", sizeBytes: 5, createdAt: at })));
  await prisma.version.createMany({ data: versions });
  await explainer.query(`ANALYZE "Drop", "Version"`);
}, 60_000);

afterAll(async () => {
  await explainer?.end();
  await database?.close();
});

/** PostgreSQL's text form of an array of strings, numbers and nulls. */
function arrayLiteral(values: unknown[]): string {
  return `{${values.map((value) => (value === null ? "NULL" : `"${String(value).replace(/["\\]/g, "\\$&")}"`)).join(",")}}`;
}

/** The generic plan of each batched statement sent since `statements` was emptied, run with its values. */
async function explainBatches(): Promise<PlanNode[]> {
  const plans: PlanNode[] = [];
  expect(database.statements.length, "the batches sent").toBeGreaterThan(0);
  for (const { query, params } of database.statements) {
    await explainer.query(`PREPARE probe AS ${query}`);
    try {
      // EXECUTE takes its values as literals, not as the protocol's parameters.
      const literals = params.map((values) => explainer.escapeLiteral(arrayLiteral(values as unknown[]))).join(", ");
      const { rows } = await explainer.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE probe(${literals})`);
      plans.push(rows[0]!["QUERY PLAN"][0].Plan);
    } finally {
      await explainer.query("DEALLOCATE probe");
    }
  }
  return plans;
}

/** No table read whole, and at most a row of each table for each of a batch's `lookups`: what an index probe by a unique key reads. */
function expectIndexProbes(plan: PlanNode, lookups: number): void {
  const tableReads = [...planNodes(plan)].filter((node) => node["Relation Name"] === "Drop" || node["Relation Name"] === "Version");
  expect(tableReads.map((node) => node["Node Type"])).not.toContain("Seq Scan");
  const rowsRead = tableReads.reduce((sum, node) => sum + (node["Actual Rows"] + (node["Rows Removed by Filter"] ?? 0)) * node["Actual Loops"], 0);
  expect(rowsRead).toBeLessThanOrEqual(2 * lookups);
}

describe("the public pages' lookups on PostgreSQL", () => {
  it("find a batch's drops and versions by index probes, not by reading the tables", async () => {
    database.statements.length = 0;
    const [latest, pinned, missingVersion, missingDrop] = await Promise.all([
      lookup.findServedVersion("drop0", null),
      lookup.findServedVersion("drop0", 1),
      lookup.findServedVersion("drop1", 7),
      lookup.findServedVersion("nothing-here", null),
    ]);
    expect([latest?.blobSha, pinned?.blobSha, missingVersion?.blobSha, missingDrop]).toEqual(["second", "first", null, null]);
    expect(missingVersion?.dropId).toBe("drop1");
    for (const plan of await explainBatches()) expectIndexProbes(plan, 4);
  });

  it("read a batch of viewers' drop states by index probes", async () => {
    database.statements.length = 0;
    const [first, other, missing] = await Promise.all(["drop0", "drop5", "nothing-here"].map((slug) => lookup.findViewerState(slug)));
    expect([first?.latestVersion, other?.latestVersion, missing]).toEqual([2, 1, null]);
    for (const plan of await explainBatches()) expectIndexProbes(plan, 3);
  });
});
