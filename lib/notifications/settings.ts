// An account's notification settings (issue 33): comment emails, on unless the owner turned them off
// (on the dashboard or with an email's unsubscribe link); sent only to an address an identity vouched for.
import { getConfig } from "@/lib/config";
import { db, type Tx } from "@/lib/db";
import { assertWriteAllowed } from "@/lib/ratelimit";
import type { NotificationSettingsJson } from "@/lib/schemas/notifications";
import { verifyUnsubscribeToken } from "./unsubscribe-token";

export type NotificationSettings = {
  comments: boolean;
  /** Where the emails go: the verified email of the newest identity of the account's identities; null: none. */
  email: string | null;
  /** Whether this instance sends email at all (SMTP_URL and MAIL_FROM). */
  mailConfigured: boolean;
};

export async function getNotificationSettings(userId: string, client: Tx = db()): Promise<NotificationSettings> {
  const user = await client.user.findUnique({
    where: { id: userId },
    select: { notifyComments: true, identities: { where: { email: { not: null } }, select: { email: true }, orderBy: { createdAt: "desc" }, take: 1 } },
  });
  return { comments: user?.notifyComments ?? false, email: user?.identities[0]?.email ?? null, mailConfigured: getConfig().mail !== null };
}

export function toNotificationSettingsJson(settings: NotificationSettings): NotificationSettingsJson {
  return { comments: settings.comments, email: settings.email, email_configured: settings.mailConfigured };
}

/** A change to the account is a write like any other. */
export async function setCommentNotifications(userId: string, on: boolean): Promise<void> {
  await assertWriteAllowed(userId);
  await db().user.update({ where: { id: userId }, data: { notifyComments: on } });
}

/** An email's unsubscribe link, followed without signing in; false when the link is not one of ours. */
export async function unsubscribeWithToken(token: string): Promise<boolean> {
  const userId = verifyUnsubscribeToken(getConfig().authSecret, token);
  if (userId === null) return false;
  const { count } = await db().user.updateMany({ where: { id: userId }, data: { notifyComments: false } });
  return count === 1;
}

/** The account an unsubscribe link names, for its confirmation page; null when the link is not valid. */
export async function unsubscribeTarget(token: string): Promise<{ login: string | null; comments: boolean } | null> {
  const userId = verifyUnsubscribeToken(getConfig().authSecret, token);
  if (userId === null) return null;
  const user = await db().user.findUnique({ where: { id: userId }, select: { login: true, notifyComments: true } });
  return user && { login: user.login, comments: user.notifyComments };
}
