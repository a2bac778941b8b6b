// Deletes drops whose expiry passed more than EXPIRED_RETENTION_DAYS ago. Until then the owner still
// sees an expired drop in the API and can extend or clear its expiry; the public saw 410 all along.
// The same run prunes the event history (lib/events/retention.ts).
// Run by a timer under `npm start` (lib/serving/front-door.ts) and by Vercel's cron (app/api/cron).
import { now } from "@/lib/clock";
import { getConfig } from "@/lib/config";
import { db, transaction } from "@/lib/db";
import { pruneHistory } from "@/lib/events/retention";
import type { PurgeResultJson } from "@/lib/schemas/drops";
import { removeDropRows } from "./delete-drop";

// Each drop goes in its own short transaction, so a large purge never holds the write lock for long.
const PURGE_BATCH = 100;

export async function purgeExpiredDrops(at: number = now()): Promise<PurgeResultJson> {
  const cutoff = at - getConfig().expiredRetentionDays * 86_400_000;
  let purged = 0;
  for (;;) {
    const due = await db().drop.findMany({
      where: { expiresAt: { lte: new Date(cutoff) } },
      select: { id: true, slug: true, ownerId: true },
      orderBy: { expiresAt: "asc" },
      take: PURGE_BATCH,
    });
    for (const candidate of due) {
      // The condition is checked again as the row is deleted: the owner may have extended the expiry
      // since, or another instance's purge taken the drop first.
      const removed = await transaction((tx) => removeDropRows(tx, candidate, { expiresAt: { lte: new Date(cutoff) } }, "drop.expired"));
      if (removed) purged += 1;
    }
    if (due.length < PURGE_BATCH) break;
  }
  if (purged > 0) console.log(`htmldrop: purged ${purged} expired drop${purged === 1 ? "" : "s"}`);
  const pruned = await pruneHistory(at);
  if (pruned.events + pruned.deliveries > 0) console.log(`htmldrop: pruned ${pruned.events} events and ${pruned.deliveries} webhook deliveries older than their retention`);
  return { purged, cutoff };
}

const PURGE_EVERY_MS = 3_600_000;

/**
 * Under `npm start`: purges once at start, then hourly. Every instance runs it; each drop's delete
 * re-checks the condition, so two instances never purge one drop twice. Returns a stop function.
 */
export function startExpiryPurge(): () => void {
  const run = () =>
    void purgeExpiredDrops().catch((error: unknown) => console.error("htmldrop: purging expired drops failed; retrying within the hour", error));
  run();
  const timer = setInterval(run, PURGE_EVERY_MS).unref();
  return () => clearInterval(timer);
}
