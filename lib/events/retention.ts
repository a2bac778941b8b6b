// Events and finished webhook deliveries are history: kept for the delivery log, the dashboard's
// notices and pollers that fell behind, then deleted, so neither table grows for the life of the
// service. Run with the expiry purge (lib/drops/purge-expired.ts): at start and hourly under `npm
// start`, by the daily cron on Vercel.
import { db, transaction } from "@/lib/db";

export const HISTORY_RETENTION_DAYS = 30;

// Each batch in its own short transaction, as the expiry purge does, so a large backlog never holds
// SQLite's write lock for long.
const PRUNE_BATCH = 500;

/** Deletes events, and finished deliveries with their attempts, recorded before the retention; answers how many rows of each. */
export async function pruneHistory(at: number): Promise<{ events: number; deliveries: number }> {
  const before = new Date(at - HISTORY_RETENTION_DAYS * 86_400_000);
  let deliveries = 0;
  for (;;) {
    const finished = await db().webhookDelivery.findMany({
      where: { status: { in: ["succeeded", "failed"] }, createdAt: { lt: before } },
      select: { id: true },
      take: PRUNE_BATCH,
    });
    const ids = finished.map((delivery) => delivery.id);
    if (ids.length > 0) {
      await transaction(async (tx) => {
        await tx.webhookAttempt.deleteMany({ where: { deliveryId: { in: ids } } });
        deliveries += (await tx.webhookDelivery.deleteMany({ where: { id: { in: ids }, status: { in: ["succeeded", "failed"] } } })).count;
      });
    }
    if (ids.length < PRUNE_BATCH) break;
  }
  let events = 0;
  for (;;) {
    const old = await db().event.findMany({ where: { createdAt: { lt: before } }, select: { id: true }, take: PRUNE_BATCH });
    if (old.length > 0) events += (await db().event.deleteMany({ where: { id: { in: old.map((event) => event.id) } } })).count;
    if (old.length < PRUNE_BATCH) return { events, deliveries };
  }
}
