// A drop with its tags as one row, read on a prepared statement (lib/db/reads.ts) rather than through
// Prisma: the single get and the list select the same columns and turn them into the same DropRow.
import { epochMs } from "@/lib/db/reads";
import type { DropRow } from "./serialize";

const COLUMNS = ["id", "slug", "ownerId", "title", "description", "passcodeHash", "latestVersion", "viewCount", "commentPolicy", "indexable", "access"].map((column) => `d."${column}"`).join(", ");
const DATES = (["expiresAt", "createdAt", "updatedAt"] as const).map((column) => epochMs(`d."${column}"`, column));
const TAG_OBJECT = `'key', t."key", 'value', t."value"`;

/** The select list of a drop `d` with its tags, in each dialect. */
export const DROP_ROW_COLUMNS = {
  sqlite: `${COLUMNS}, ${DATES.map((date) => date.sqlite).join(", ")},
    (SELECT json_group_array(json_object(${TAG_OBJECT})) FROM "DropTag" t WHERE t."dropId" = d."id") AS "tags"`,
  postgres: `${COLUMNS}, ${DATES.map((date) => date.postgres).join(", ")},
    COALESCE((SELECT json_agg(json_build_object(${TAG_OBJECT})) FROM "DropTag" t WHERE t."dropId" = d."id"), '[]'::json) AS "tags"`,
};

/** A row of DROP_ROW_COLUMNS as either driver returns it. */
export type StoredDropRow = Omit<DropRow, "expiresAt" | "createdAt" | "updatedAt" | "indexable" | "tags"> & {
  id: string;
  ownerId: string;
  indexable: boolean | number;
  expiresAt: number | null;
  createdAt: number;
  updatedAt: number;
  /** JSON text on SQLite, parsed by node-pg on PostgreSQL. */
  tags: string | DropRow["tags"];
};

export function toDropRow(row: StoredDropRow): DropRow & { id: string; ownerId: string } {
  return {
    ...row,
    indexable: Boolean(row.indexable),
    expiresAt: row.expiresAt === null ? null : new Date(row.expiresAt),
    createdAt: new Date(row.createdAt),
    updatedAt: new Date(row.updatedAt),
    tags: typeof row.tags === "string" ? (JSON.parse(row.tags) as DropRow["tags"]) : row.tags,
  };
}
