// GET /api/drops/{slug}, and MCP's get_drop in a small tools/call, read the caller's token and the drop in
// one statement on PostgreSQL (each row as JSON, lib/db/reads.ts readRowWith); GET /api/drops reads the
// token and the page of its owner's drops so. The statements a read sends to the pool are recorded, and
// its answers are held to the stored values and to the drop or list read on its own, refusals included.
// Every hot read on PostgreSQL is batched, each row as JSON.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PG_BATCHES_IN_FLIGHT } from "@/lib/db/reads";
import { recordedPostgres, type RecordedPostgres } from "../helpers/recorded-postgres";

let database: RecordedPostgres;
let readDrop: typeof import("@/lib/api/drop-routes").readDrop;
let readDropList: typeof import("@/lib/api/drop-routes").readDropList;
let listDrops: typeof import("@/lib/drops").listDrops;
let answerMcpPost: typeof import("@/lib/mcp/http").answerMcpPost;
let getDrop: typeof import("@/lib/drops").getDrop;
let token = "";
let otherToken = "";
let revokedToken = "";
let limitedToken = "";

beforeAll(async () => {
  database = await recordedPostgres("pair");
  const client = database.prisma;
  ({ readDrop, readDropList } = await import("@/lib/api/drop-routes"));
  ({ getDrop, listDrops } = await import("@/lib/drops"));
  ({ answerMcpPost } = await import("@/lib/mcp/http"));
  const { issueToken, revokeToken } = await import("@/lib/accounts/tokens");
  const { FULL_GRANT } = await import("@/lib/accounts/credentials");

  const at = new Date("2026-11-20T10:11:12.345Z");
  await client.user.createMany({ data: [{ id: "owner", createdAt: at }, { id: "other", createdAt: at }] });
  // Every column type the read returns: text and null text, integers, a boolean, dates with milliseconds, tags.
  await client.drop.create({
    data: {
      id: "drop1", slug: "pairread1", ownerId: "owner", title: "Ünïcode \"quoted\" title", description: null, passcodeHash: "scrypt$x",
      latestVersion: 3, versionSeq: 3, versionCount: 3, viewCount: 41, indexable: true, createdAt: at, updatedAt: new Date(at.getTime() + 1),
      expiresAt: new Date("2027-01-02T03:04:05.678Z"), tags: { create: [{ ownerId: "owner", key: "project", value: "a/b" }, { ownerId: "owner", key: "kind", value: "" }] },
    },
  });
  for (const [n, title] of [[2, "second"], [3, "third"]] as const) {
    const created = new Date(at.getTime() + n * 1000);
    await client.drop.create({
      data: { id: `drop${n}`, slug: `pairread${n}`, ownerId: "owner", title, latestVersion: 1, versionSeq: 1, versionCount: 1, createdAt: created, updatedAt: created, tags: { create: [{ ownerId: "owner", key: "project", value: "a/b" }] } },
    });
  }
  token = (await issueToken("owner", { label: null, grant: FULL_GRANT })).token;
  limitedToken = (await issueToken("owner", { label: null, grant: { ...FULL_GRANT, drops: ["pairread2"] } })).token;
  otherToken = (await issueToken("other", { label: null, grant: FULL_GRANT })).token;
  const revoked = await issueToken("owner", { label: null, grant: FULL_GRANT });
  await revokeToken("owner", revoked.summary.id, FULL_GRANT);
  revokedToken = revoked.token;
  // Each token's first use records it (a write, refused read or not); the reads below are of used tokens.
  for (const used of [token, otherToken, limitedToken]) await readDrop.call(`Bearer ${used}`, { slug: "pairread1" }).catch(() => undefined);
}, 60_000);

afterAll(async () => {
  await database?.close();
});

async function refusal(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => "answered",
    (error: { code?: string }) => error.code ?? String(error),
  );
}

describe("the token and the drop in one round trip on PostgreSQL", () => {
  it("sends one statement and answers what the drop read on its own answers", async () => {
    database.statements.length = 0;
    const answer = await readDrop.call(`Bearer ${token}`, { slug: "pairread1" });
    expect(database.statements).toHaveLength(1);
    expect(answer).toEqual(await getDrop("owner", "pairread1"));
    // Every column as stored: JSON rows must give what node-pg's typed columns gave.
    expect(answer).toEqual({
      slug: "pairread1",
      title: "Ünïcode \"quoted\" title",
      url: expect.stringMatching(/\/p\/pairread1$/),
      raw_url: expect.stringMatching(/\/p\/pairread1\/raw$/),
      locked: true,
      latest_version: 3,
      view_count: 41,
      metadata: { project: "a/b", kind: "" },
      created_at: Date.parse("2026-11-20T10:11:12.345Z"),
      updated_at: Date.parse("2026-11-20T10:11:12.346Z"),
      expires_at: Date.parse("2027-01-02T03:04:05.678Z"),
      expired: false,
      indexable: true,
    });
  });

  it("refuses as before: a missing drop, another account's, and a revoked token whatever the drop", async () => {
    expect(await refusal(readDrop.call(`Bearer ${token}`, { slug: "missing1" }))).toBe("not_found");
    expect(await refusal(readDrop.call(`Bearer ${otherToken}`, { slug: "pairread1" }))).toBe(await refusal(getDrop("other", "pairread1")));
    expect(await refusal(readDrop.call(`Bearer ${revokedToken}`, { slug: "pairread1" }))).toBe("unauthorized");
    expect(await refusal(readDrop.call(`Bearer ${token}`, { slug: "NOT-a-slug" }))).toBe("invalid_slug");
  });

  it("shares a statement among concurrent reads, and answers each its own token and drop", async () => {
    const reads: [string, string][] = [
      [token, "pairread1"],
      [otherToken, "pairread1"],
      [revokedToken, "pairread1"],
      [token, "missing1"],
      [token, "pairread1"],
      [otherToken, "pairread1"],
    ];
    database.statements.length = 0;
    const answers = await Promise.all(reads.map(([bearer, slug]) => refusal(readDrop.call(`Bearer ${bearer}`, { slug }))));
    // PG_BATCHES_IN_FLIGHT batches start at once; the reads asked while they ran share one more. (Another
    // account's reads then look up its standing on the drop, in statements of their own.)
    expect(database.statements.filter((statement) => statement.query.includes("row_to_json"))).toHaveLength(PG_BATCHES_IN_FLIGHT + 1);
    const otherRefusal = await refusal(getDrop("other", "pairread1"));
    expect(answers).toEqual(["answered", otherRefusal, "unauthorized", "not_found", "answered", otherRefusal]);
  });
});

describe("MCP's get_drop", () => {
  /** A tools/call of get_drop as an agent posts it; `sized` says whether it names its Content-Length. */
  async function callGetDrop(slug: string, sized: boolean) {
    const body = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_drop", arguments: { slug } } };
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream", host: "127.0.0.1" };
    if (sized) headers["content-length"] = String(Buffer.byteLength(JSON.stringify(body)));
    const answer = await answerMcpPost({
      header: (name) => headers[name] ?? null,
      readBody: async () => body,
      webRequest: () => {
        throw new Error("a lone tools/call is answered without the SDK");
      },
    });
    if (answer instanceof Response) throw new Error(`answered ${answer.status}: ${await answer.text()}`);
    if (!("result" in answer.toolAnswer)) throw new Error(`answered a JSON-RPC error: ${JSON.stringify(answer.toolAnswer)}`);
    return answer.toolAnswer.result.structuredContent;
  }

  it("reads the token and the drop in one statement when the call says its small size, two otherwise, with the same answer", async () => {
    database.statements.length = 0;
    const paired = await callGetDrop("pairread1", true);
    expect(database.statements).toHaveLength(1);
    database.statements.length = 0;
    const apart = await callGetDrop("pairread1", false);
    expect(database.statements).toHaveLength(2);
    expect(paired).toEqual(await getDrop("owner", "pairread1"));
    expect(apart).toEqual(paired);
    expect(await callGetDrop("missing1", true)).toMatchObject({ error: { code: "not_found" } });
  });
});

describe("the token and a page of its owner's drops in one round trip on PostgreSQL", () => {
  const search = "?metadata.project=a/b&sortOrder=asc";
  const slugs = (list: { data: { slug: string }[] }) => list.data.map((drop) => drop.slug);

  it("sends one statement and answers what the list read on its own answers, in its order", async () => {
    database.statements.length = 0;
    const answer = await readDropList.call(`Bearer ${token}`, { search });
    expect(database.statements).toHaveLength(1);
    expect(slugs(answer)).toEqual(["pairread1", "pairread2", "pairread3"]);
    const { listDropsQuerySchema, listQueryInput } = await import("@/lib/schemas/drops");
    expect(answer).toEqual(await listDrops("owner", listDropsQuerySchema.parse(listQueryInput(new URLSearchParams(search)))));
    expect(answer.data[0]).toEqual(await getDrop("owner", "pairread1"));
    const newestFirst = await readDropList.call(`Bearer ${token}`, { search: "?metadata.project=a/b" });
    expect(slugs(newestFirst)).toEqual(["pairread3", "pairread2", "pairread1"]);
  });

  it("lists only the token's owner's drops, refuses a revoked token, and reads a drop-limited token's page again", async () => {
    const reads = [token, otherToken, revokedToken, limitedToken, token].map((bearer) => readDropList.call(`Bearer ${bearer}`, { search }).then(slugs, (error: { code?: string }) => error.code));
    expect(await Promise.all(reads)).toEqual([["pairread1", "pairread2", "pairread3"], [], "unauthorized", ["pairread2"], ["pairread1", "pairread2", "pairread3"]]);
    database.statements.length = 0;
    expect(slugs(await readDropList.call(`Bearer ${limitedToken}`, { search }))).toEqual(["pairread2"]);
    expect(database.statements).toHaveLength(2);
  });

  it("refuses a malformed query after the token, as a read on its own does", async () => {
    expect(await refusal(readDropList.call(`Bearer ${revokedToken}`, { search: "?sortBy=nothing" }))).toBe("unauthorized");
    expect(await refusal(readDropList.call(`Bearer ${token}`, { search: "?sortBy=nothing" }))).toBe("invalid_arg");
  });
});
