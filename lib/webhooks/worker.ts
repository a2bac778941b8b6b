// Delivers pending webhooks, at least once, on every instance at once without sending one twice: each
// instance claims due deliveries with a lease (lib/db/lease.ts). A claim whose instance died runs out and
// is taken again, so nothing is lost; the receiver may then see that delivery twice, with the same webhook-id.
import { after } from "next/server";
import { now } from "@/lib/clock";
import { db, Prisma, transaction } from "@/lib/db";
import { drainDue, oneRunAtATime, type Claim, type LeasedTable, type WorkRun } from "@/lib/db/lease";
import { newId } from "@/lib/security/random";
import { retryDelayMs, DELIVERY_SCHEDULE_MS } from "./schedule";
import { SEND_TIMEOUT_MS, sendWebhook, type AttemptResult } from "./send";

const POLL_EVERY_MS = 2_000;

export const DELIVERIES: LeasedTable = {
  table: "WebhookDelivery",
  key: "id",
  join: Prisma.sql`JOIN "WebhookEndpoint" endpoint ON endpoint."id" = leased."endpointId"`,
  due: (at) => Prisma.sql`leased."status" = 'pending' AND leased."nextAttemptAt" <= ${at} AND endpoint."disabledAt" IS NULL`,
  orderBy: "nextAttemptAt",
  // Longer than an attempt can take: its deadline, redirects included.
  leaseMs: SEND_TIMEOUT_MS * 6,
};

/** Keeps the attempt and moves the delivery on, if this instance still holds the claim. */
async function settle(claim: Claim, attempt: number, result: AttemptResult, delivery: { retriesLeft: number; manual: boolean; endpointId: string }): Promise<void> {
  const at = now();
  await transaction(async (tx) => {
    const settled = { id: claim.key, claimToken: claim.claimToken };
    const released = { lockedUntil: null, claimToken: null, attempts: attempt };
    let update;
    if (result.ok) update = { ...released, status: "succeeded" };
    else if (delivery.retriesLeft > 0) update = { ...released, retriesLeft: delivery.retriesLeft - 1, nextAttemptAt: new Date(at + retryDelayMs(delivery.retriesLeft)) };
    else update = { ...released, status: "failed" };
    const { count } = await tx.webhookDelivery.updateMany({ where: settled, data: update });
    await tx.webhookAttempt.create({
      data: { id: newId(), deliveryId: claim.key, attempt, at: new Date(at), statusCode: result.statusCode, durationMs: result.durationMs, error: result.error },
    });
    // Persistent failure: every retry of an automatic delivery, about a day of them, failed.
    if (count === 1 && !result.ok && delivery.retriesLeft === 0 && !delivery.manual) {
      await tx.webhookEndpoint.updateMany({
        where: { id: delivery.endpointId, disabledAt: null },
        data: { disabledAt: new Date(at), disabledReason: `Every attempt of delivery ${claim.key} failed over ${DELIVERY_SCHEDULE_MS.length + 1} tries (last: ${result.error ?? "no answer"}).` },
      });
    }
  });
}

/** Sends one claimed delivery and settles it; true when the endpoint accepted it. */
export async function deliverClaimed(claim: Claim): Promise<boolean> {
  const delivery = await db().webhookDelivery.findUnique({
    where: { id: claim.key },
    select: { id: true, body: true, attempts: true, retriesLeft: true, manual: true, endpointId: true, endpoint: { select: { url: true, secret: true } } },
  });
  if (!delivery) return false;
  const result = await sendWebhook(delivery.endpoint.url, { id: delivery.id, body: delivery.body, secret: delivery.endpoint.secret });
  await settle(claim, delivery.attempts + 1, result, delivery);
  return result.ok;
}

/** Delivers what is due until nothing is, or `budgetMs` has passed (a cron invocation's time). */
export function deliverDue(budgetMs = Number.POSITIVE_INFINITY): Promise<WorkRun> {
  return drainDue(DELIVERIES, deliverClaimed, budgetMs);
}

const runNow = oneRunAtATime("htmldrop.webhookWorker", deliverDue, "htmldrop: delivering webhooks failed; trying again shortly");

/**
 * After a commit that queued deliveries: deliver them now, without holding up the response. On Vercel
 * the function is kept alive for it (after()); the cron route picks up whatever that misses.
 */
export function requestDelivery(): void {
  if (process.env.VERCEL === "1") {
    try {
      return after(runNow);
    } catch {
      // Outside a request (a script): run as under npm start.
    }
  }
  setImmediate(() => void runNow());
}

/** Under `npm start`: looks for due deliveries (retries, a dead instance's claims) every few seconds. */
export function startWebhookDelivery(): () => void {
  const timer = setInterval(() => void runNow(), POLL_EVERY_MS).unref();
  return () => clearInterval(timer);
}
