import { now } from "@/lib/clock";
import { db } from "@/lib/db";
import { assertWriteAllowed } from "@/lib/ratelimit";
import type { DropJson } from "@/lib/schemas/drops";
import { hashPasscode } from "@/lib/security/passcodes";
import { assertSlug, getOwnedDrop } from "./access";
import { toDropJson } from "./serialize";
import { expireDropPages } from "@/lib/serving/shared-pages";

/** Sets, changes or (with "") removes the gate. A new hash voids every unlock cookie bound to the old one. */
export async function setPasscode(userId: string, slug: string, passcode: string): Promise<DropJson> {
  assertSlug(slug);
  await assertWriteAllowed(userId);
  const passcodeHash = passcode === "" ? null : await hashPasscode(passcode);
  const updated = await db().$transaction(async (tx) => {
    const drop = await getOwnedDrop(userId, slug, tx);
    return tx.drop.update({ where: { id: drop.id }, data: { passcodeHash, updatedAt: new Date(now()), revision: { increment: 1 } }, include: { tags: true } });
  });
  expireDropPages(slug);
  return toDropJson(updated);
}
