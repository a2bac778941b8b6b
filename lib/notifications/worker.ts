// Sends the notification emails that are due, at least once, with several instances sending each once:
// an instance claims an account's digest with a lease (lib/db/lease.ts). A claim whose instance died runs
// out and is taken again, so nothing is lost; that email may then arrive twice.
import { now } from "@/lib/clock";
import { getConfig } from "@/lib/config";
import { db, Prisma, transaction } from "@/lib/db";
import { drainDue, oneRunAtATime, type Claim, type LeasedTable, type WorkRun } from "@/lib/db/lease";
import { buildDigestEmail } from "./message";
import { sendEmail, SEND_TIMEOUT_MS } from "./mailer";
import { NOTICE_EVENT_TYPES, noticeFromEvent } from "./notices";
import { DIGEST_WINDOW_MS } from "./schedule";
import { getNotificationSettings } from "./settings";
import { dropCommentsUrl, settingsUrl, unsubscribeUrls } from "./urls";

/** After a failed send (the SMTP server down or refusing), the account's email is tried again this much later. */
export const RETRY_AFTER_MS = 300_000;
/** The most events one email covers; more make the next email, due at once. */
const EVENTS_PER_EMAIL = 500;
const POLL_EVERY_MS = 5_000;

const DIGESTS: LeasedTable = {
  table: "NotificationDigest",
  key: "userId",
  due: (at) => Prisma.sql`leased."dueAt" <= ${at}`,
  orderBy: "dueAt",
  // Longer than a send can take: each SMTP step has SEND_TIMEOUT_MS.
  leaseMs: SEND_TIMEOUT_MS * 6,
};

/** The digest row while this instance still holds its claim. */
function held(claim: Claim) {
  return { userId: claim.key, claimToken: claim.claimToken };
}

/**
 * Moves the digest past what was mailed (or skipped), if this instance still holds the claim; due again
 * at once when more than one email's worth was waiting, a window on when notices arrived meanwhile.
 */
async function settle(claim: Claim, throughEventId: number, full: boolean): Promise<void> {
  await transaction(async (tx) => {
    const { count } = await tx.notificationDigest.updateMany({ where: held(claim), data: { throughEventId, dueAt: null, lockedUntil: null, claimToken: null } });
    if (count === 0) return;
    const waiting = await tx.event.count({ where: { ownerId: claim.key, id: { gt: throughEventId }, type: { in: [...NOTICE_EVENT_TYPES] } } });
    if (waiting > 0) {
      await tx.notificationDigest.update({ where: { userId: claim.key }, data: { dueAt: new Date(now() + (full ? 0 : DIGEST_WINDOW_MS)) } });
    }
  });
}

/** Sends one claimed account's email and settles it; true when an email went out. */
export async function sendClaimed(claim: Claim): Promise<boolean> {
  const userId = claim.key;
  const digest = await db().notificationDigest.findUnique({ where: { userId }, select: { throughEventId: true } });
  if (!digest) return false;
  const events = await db().event.findMany({
    where: { ownerId: userId, id: { gt: digest.throughEventId }, type: { in: [...NOTICE_EVENT_TYPES] } },
    orderBy: { id: "asc" },
    take: EVENTS_PER_EMAIL,
    select: { id: true, type: true, data: true, createdAt: true },
  });
  const through = events.at(-1)?.id ?? digest.throughEventId;
  const full = events.length === EVENTS_PER_EMAIL;
  const notices = events.flatMap((event) => noticeFromEvent(event) ?? []);
  const settings = await getNotificationSettings(userId);
  // Turned off, or no address any more, since the email was scheduled: what was waiting is skipped.
  if (notices.length === 0 || !settings.comments || settings.email === null) {
    await settle(claim, through, full);
    return false;
  }
  const links = unsubscribeUrls(userId);
  const content = buildDigestEmail({ notices, dropPageUrl: dropCommentsUrl, unsubscribeUrl: links.page, settingsUrl: settingsUrl() });
  try {
    await sendEmail({
      to: settings.email,
      ...content,
      // RFC 8058: a mail client may offer "Unsubscribe" and POST to this URL itself.
      headers: { "List-Unsubscribe": `<${links.oneClick}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
    });
  } catch (error) {
    console.error(`htmldrop: sending a notification email failed; trying again in ${RETRY_AFTER_MS / 60_000} minutes`, error);
    await db().notificationDigest.updateMany({ where: held(claim), data: { dueAt: new Date(now() + RETRY_AFTER_MS), lockedUntil: null, claimToken: null } });
    return false;
  }
  await settle(claim, through, full);
  return true;
}

/** Sends what is due until nothing is, or `budgetMs` has passed (a cron invocation's time). */
export async function sendDueNotifications(budgetMs = Number.POSITIVE_INFINITY): Promise<WorkRun> {
  if (getConfig().mail === null) return { attempted: 0, succeeded: 0 };
  return drainDue(DIGESTS, sendClaimed, budgetMs);
}

const runNow = oneRunAtATime("htmldrop.notificationWorker", sendDueNotifications, "htmldrop: sending notification emails failed; trying again shortly");

/** Under `npm start` with SMTP configured: sends the emails that came due every few seconds. */
export function startNotificationDelivery(): () => void {
  if (getConfig().mail === null) return () => {};
  const timer = setInterval(() => void runNow(), POLL_EVERY_MS).unref();
  return () => clearInterval(timer);
}
