import { now } from "@/lib/clock";
import { transaction } from "@/lib/db";
import { assertWriteAllowed } from "@/lib/ratelimit";
import type { DropJson } from "@/lib/schemas/drops";
import { hashPasscode } from "@/lib/security/passcodes";
import { assertSlug, getDropFor } from "./access";
import { dropChanged } from "./changed";
import { toDropJson } from "./serialize";
import { recordDropEvent } from "@/lib/events/record";

/** Sets, changes or (with "") removes the gate. A new hash voids every unlock cookie bound to the old one. */
export async function setPasscode(userId: string, slug: string, passcode: string): Promise<DropJson> {
  assertSlug(slug);
  await assertWriteAllowed(userId);
  const passcodeHash = passcode === "" ? null : await hashPasscode(passcode);
  const updated = await transaction(async (tx) => {
    const drop = await getDropFor(userId, slug, "editor", tx);
    await dropChanged(tx, drop);
    recordDropEvent(tx, "drop.updated", drop.id);
    return tx.drop.update({ where: { id: drop.id }, data: { passcodeHash, updatedAt: new Date(now()) }, include: { tags: true } });
  });
  return toDropJson(updated);
}
