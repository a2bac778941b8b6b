import { db } from "@/lib/db";

/** Finished flows stay readable (as claimed or expired) for a day, then their rows go. */
const KEEP_FINISHED_MS = 86_400_000;
const PURGE_EVERY_MS = 600_000;

const PURGE_KEY = Symbol.for("htmldrop.deviceAuthPurge");
type PurgeHolder = { [PURGE_KEY]?: number };

export async function purgeStaleDeviceAuths(at: number): Promise<void> {
  const holder = globalThis as PurgeHolder;
  if (at - (holder[PURGE_KEY] ?? 0) < PURGE_EVERY_MS) return;
  holder[PURGE_KEY] = at;
  await db().deviceAuth.deleteMany({ where: { expiresAt: { lt: new Date(at - KEEP_FINISHED_MS) } } });
}
