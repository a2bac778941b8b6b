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

import { readDropFor } from "./access";
import { toDropJson } from "./serialize";

export async function getDrop(userId: string, slug: string) {
  return toDropJson(await readDropFor(userId, slug, "editor"));
}
