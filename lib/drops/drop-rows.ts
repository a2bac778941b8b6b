// A drop with its tags as one row, read on a prepared statement (lib/db/reads.ts) rather than through
// Prisma: the single get and the list select the same columns, and toDropJson answers the row as it is.
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

/** A row of DROP_ROW_COLUMNS as either driver returns it, which toDropJson takes as it is. */
export type StoredDropRow = DropRow & {
  id: string;
  ownerId: string;
  expiresAt: number | null;
  createdAt: number;
  updatedAt: number;
};
