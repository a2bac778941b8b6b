// Proves the hand-written migrations and prisma/schema.prisma agree: on a freshly migrated database of
// each provider, Prisma Client writes and reads back every scalar field of every model.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { postgresConnection } from "@/lib/db/connection";
import { PrismaClient as PostgresClient } from "@/lib/db/generated/postgres/client";
import { PrismaClient as SqliteClient } from "@/lib/db/generated/sqlite/client";
import { migrate } from "@/lib/db/migrate";
import { POSTGRES_URL } from "../helpers/app";

type Field = { name: string; kind: string; type: string };
type DataModel = { models: Record<string, { fields: Field[] }> };

/** Foreign-key columns and the model each points at; a new relation must be added here. */
const FOREIGN_KEYS: Record<string, { model: string; field: string }> = {
  userId: { model: "User", field: "id" },
  ownerId: { model: "User", field: "id" },
  dropId: { model: "Drop", field: "id" },
  blobSha: { model: "Blob", field: "sha256" },
  teamId: { model: "Team", field: "id" },
  endpointId: { model: "WebhookEndpoint", field: "id" },
  deliveryId: { model: "WebhookDelivery", field: "id" },
};

function sampleValue(model: string, field: Field, index: number): unknown {
  switch (field.type) {
    case "String":
      return `${model}.${field.name}.é✓`;
    case "Int":
      return 1_000_003 + index;
    case "DateTime":
      return new Date(1_795_000_000_123 + index * 1_001);
    case "Bytes":
      return new Uint8Array([0, 1, 127, 128, 255]);
    case "Boolean":
      return true;
    default:
      throw new Error(`${model}.${field.name}: no sample for type ${field.type}`);
  }
}

function creationOrder(dataModel: DataModel): string[] {
  const order: string[] = [];
  const pending = new Set(Object.keys(dataModel.models));
  while (pending.size > 0) {
    const ready = [...pending].find((model) =>
      dataModel.models[model]!.fields.every((field) => field.kind !== "scalar" || !FOREIGN_KEYS[field.name] || order.includes(FOREIGN_KEYS[field.name]!.model) || FOREIGN_KEYS[field.name]!.model === model),
    );
    if (!ready) throw new Error(`cyclic foreign keys among ${[...pending].join(", ")}`);
    order.push(ready);
    pending.delete(ready);
  }
  return order;
}

async function roundTripEveryModel(client: SqliteClient): Promise<void> {
  const dataModel = (client as unknown as { _runtimeDataModel: DataModel })._runtimeDataModel;
  const rows = new Map<string, Record<string, unknown>>();
  for (const model of creationOrder(dataModel)) {
    const data: Record<string, unknown> = {};
    dataModel.models[model]!.fields
      .filter((field) => field.kind === "scalar")
      .forEach((field, index) => {
        const target = FOREIGN_KEYS[field.name];
        data[field.name] = target && rows.has(target.model) ? rows.get(target.model)![target.field] : sampleValue(model, field, index);
      });
    const delegate = (client as unknown as Record<string, { create(args: unknown): Promise<unknown>; findMany(): Promise<unknown[]> }>)[model[0]!.toLowerCase() + model.slice(1)]!;
    await delegate.create({ data });
    const stored = await delegate.findMany();
    expect(stored, model).toHaveLength(1);
    expect(stored[0], model).toEqual(data);
    rows.set(model, data);
  }
  expect(rows.size).toBe(Object.keys(dataModel.models).length);
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

describe("migrations match schema.prisma", () => {
  it("on SQLite", async () => {
    const dir = mkdtempSync(join(tmpdir(), "htmldrop-schema-"));
    const file = join(dir, "check.db");
    expect((await migrate({ provider: "sqlite", file })).length).toBeGreaterThan(0);
    expect(await migrate({ provider: "sqlite", file })).toEqual([]);
    const client = new SqliteClient({ adapter: new PrismaBetterSqlite3({ url: file }, { timestampFormat: "unixepoch-ms" }) });
    cleanups.push(async () => {
      await client.$disconnect();
      rmSync(dir, { recursive: true, force: true });
    });
    await roundTripEveryModel(client);
  });

  it("on PostgreSQL", async () => {
    const schema = `schema_check_${Date.now().toString(36)}`;
    const url = `${POSTGRES_URL}?schema=${schema}`;
    expect((await migrate({ provider: "postgres", url })).length).toBeGreaterThan(0);
    expect(await migrate({ provider: "postgres", url })).toEqual([]);
    const { poolConfig } = postgresConnection(url);
    const client = new PostgresClient({ adapter: new PrismaPg(poolConfig, { schema }) });
    cleanups.push(async () => {
      await client.$disconnect();
      const admin = new pg.Client({ connectionString: POSTGRES_URL });
      await admin.connect();
      await admin.query(`DROP SCHEMA "${schema}" CASCADE`);
      await admin.end();
    });
    await roundTripEveryModel(client as unknown as SqliteClient);
  });
});
