// Issue 27: after a bulk load, before PostgreSQL's statistics catch up, the metadata filter must still
// read only the listing account's tags, through the index that leads with the owner. Drops go in
// through Prisma (many accounts sharing the filtered pairs) with autovacuum off, then the statements
// listDrops sends to PostgreSQL's pool are EXPLAIN ANALYZEd, with stale statistics and again with fresh
// ones: on its own, and as GET /api/drops sends it, with the caller's token (its owner read from the token row).
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { batchedReadsPoolConfig } from "@/lib/db/reads";
import { type PlanNode, planNodes, recordedPostgres, type RecordedPostgres } from "../helpers/recorded-postgres";

const ACCOUNTS = 4;
const DROPS_PER_ACCOUNT = 150;
const BATCHES = 30;
const FILTER: [string, string][] = [["project", "bench"], ["kind", "weekly-report"], ["batch", "0"]];
const MATCHES = DROPS_PER_ACCOUNT / BATCHES;
/** The listing account's tag rows that carry any filtered pair. */
const OWNER_ROWS_WITH_A_PAIR = 2 * DROPS_PER_ACCOUNT + MATCHES;

let database: RecordedPostgres;
let explainer: pg.Client;
let listDrops: typeof import("@/lib/drops/list-drops").listDrops;
let readDropList: typeof import("@/lib/api/drop-routes").readDropList;
let token = "";

beforeAll(async () => {
  database = await recordedPostgres("plan");
  // Planned as the batched reads' pool plans them.
  explainer = new pg.Client(batchedReadsPoolConfig(database.url));
  await explainer.connect();
  for (const table of ["User", "Drop", "DropTag"]) await explainer.query(`ALTER TABLE "${table}" SET (autovacuum_enabled = false)`);
  ({ listDrops } = await import("@/lib/drops/list-drops"));
  ({ readDropList } = await import("@/lib/api/drop-routes"));
  const { issueToken } = await import("@/lib/accounts/tokens");
  const { FULL_GRANT } = await import("@/lib/accounts/credentials");
  const { prisma } = database;

  const at = new Date();
  await prisma.user.createMany({ data: Array.from({ length: ACCOUNTS }, (_, account) => ({ id: `user${account}`, createdAt: at })) });
  const drops = Array.from({ length: ACCOUNTS * DROPS_PER_ACCOUNT }, (_, n) => ({ account: n % ACCOUNTS, index: Math.floor(n / ACCOUNTS) }));
  const create = async ({ account, index }: (typeof drops)[number]) => {
    const id = `drop${account}x${index}`;
    const ownerId = `user${account}`;
    const tags = [{ key: "project", value: "bench" }, { key: "kind", value: "weekly-report" }, { key: "batch", value: String(index % BATCHES) }].map((tag) => ({ ownerId, ...tag }));
    await prisma.drop.create({ data: { id, slug: id, ownerId, title: id, latestVersion: 1, versionSeq: 1, versionCount: 1, createdAt: at, updatedAt: at, tags: { create: tags } } });
  };
  for (let start = 0; start < drops.length; start += 10) await Promise.all(drops.slice(start, start + 10).map(create));
  token = (await issueToken("user0", { label: null, grant: FULL_GRANT })).token;
}, 60_000);

afterAll(async () => {
  await explainer?.end();
  await database?.close();
});

const LISTINGS = {
  "on its own": () => listDrops("user0", { page: 1, pageSize: 50, sortBy: "created_at", sortOrder: "desc", metadata: FILTER }),
  "with the token": () => readDropList.call(`Bearer ${token}`, { search: `?${FILTER.map(([key, value]) => `metadata.${key}=${value}`).join("&")}` }),
};

/** Lists user0's drops with the three filters and EXPLAIN ANALYZEs the statement that filtered by them. */
async function explainListing(listing: keyof typeof LISTINGS): Promise<PlanNode[]> {
  const { statements } = database;
  statements.length = 0;
  const list = await LISTINGS[listing]();
  expect(list.pagination.total_items).toBe(DROPS_PER_ACCOUNT / BATCHES);
  expect(list.data.map((drop) => drop.slug).sort()).toEqual(Array.from({ length: DROPS_PER_ACCOUNT / BATCHES }, (_, n) => `drop0x${n * BATCHES}`).sort());
  const plans: PlanNode[] = [];
  for (const { query, params } of statements.filter((statement) => JSON.stringify(statement.params).includes("weekly-report"))) {
    const { rows } = await explainer.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${query}`, params);
    plans.push(rows[0]!["QUERY PLAN"][0].Plan);
  }
  return plans;
}

/** A plan node's "Actual Rows" is its mean per loop, rounded: up to half a row per loop more. */
const ROUNDING_SLACK = 2 * FILTER.length;

function expectIndexDriven(plans: PlanNode[]): void {
  expect(plans, "one statement: the page with its total").toHaveLength(1);
  const tagScans = plans.flatMap((plan) => [...planNodes(plan)]).filter((node) => node["Relation Name"] === "DropTag");
  expect(tagScans.map((node) => node["Node Type"])).not.toContain("Seq Scan");
  for (const plan of plans) {
    const tagRowsRead = [...planNodes(plan)]
      // A bitmap heap scan's rows are counted in the index scan under it.
      .filter((node) => (node["Relation Name"] === "DropTag" && node["Node Type"] !== "Bitmap Heap Scan") || node["Index Name"]?.startsWith("DropTag_"))
      .reduce((sum, node) => sum + (node["Actual Rows"] + (node["Rows Removed by Filter"] ?? 0)) * node["Actual Loops"], 0);
    // Each pair's range once to tell the rarest (up to a cap, when the planner walks the index rather
    // than gathering the range in a bitmap), the rarest range, each of its drops checked for every pair,
    // and the page's own tags; nothing read again for every drop of the account.
    const mostRead = OWNER_ROWS_WITH_A_PAIR + MATCHES + 2 * MATCHES * FILTER.length;
    expect(tagRowsRead, "tag rows the statement read").toBeLessThanOrEqual(mostRead + ROUNDING_SLACK);
  }
  const indexes = plans.flatMap((plan) => [...planNodes(plan)]).map((node) => node["Index Name"]);
  expect(indexes).toContain("DropTag_ownerId_key_value_dropId_idx");
}

describe("the metadata filter on PostgreSQL", () => {
  it("reads only the owner's tags through the owner's index with stale statistics", async () => {
    for (const listing of Object.keys(LISTINGS) as (keyof typeof LISTINGS)[]) expectIndexDriven(await explainListing(listing));
  });

  it("and with fresh ones", async () => {
    await explainer.query(`ANALYZE "User", "Drop", "DropTag"`);
    for (const listing of Object.keys(LISTINGS) as (keyof typeof LISTINGS)[]) expectIndexDriven(await explainListing(listing));
  });
});
