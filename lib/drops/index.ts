export { assertCreateBudgetLeft, createDrop } from "./create-drop";
export { replaceDrop } from "./replace-drop";
export { patchDrop } from "./patch-drop";
export { deleteDrop } from "./delete-drop";
export { setPasscode } from "./set-passcode";
export { listDrops } from "./list-drops";
export { listVersions, getVersion, getLatestSource, deleteVersion } from "./versions";
export { getDropStats } from "./stats";
export { getDropFor } from "./access";
export { toDropJson } from "./serialize";

import type { RowRead } from "@/lib/db/reads";
import { readDropFor } from "./access";
import type { StoredDropRow } from "./drop-rows";
import { toDropJson } from "./serialize";

/** A drop as GET /api/drops/{slug} answers it; `read` is its row when read with the token (readDropFor). */
export async function getDrop(userId: string, slug: string, read?: RowRead<StoredDropRow>) {
  return toDropJson(await readDropFor(userId, slug, "editor", read));
}
