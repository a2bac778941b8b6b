// The addresses a notification email links to, in one place: the unsubscribe page (a confirmation with a
// button), its one-click endpoint (RFC 8058's List-Unsubscribe), and the dashboard's pages.
import { getConfig } from "@/lib/config";
import { dashboardDropPath } from "@/lib/dashboard/paths";
import { signUnsubscribeToken } from "./unsubscribe-token";

export const UNSUBSCRIBE_PATH = "/unsubscribe";
export const ONE_CLICK_UNSUBSCRIBE_PATH = "/unsubscribe/one-click";
export const NOTIFICATION_SETTINGS_PATH = "/dashboard/account#notifications-heading";

export function unsubscribeUrls(userId: string): { page: string; oneClick: string } {
  const { publicUrl, authSecret } = getConfig();
  const query = `?token=${encodeURIComponent(signUnsubscribeToken(authSecret, userId))}`;
  return { page: `${publicUrl}${UNSUBSCRIBE_PATH}${query}`, oneClick: `${publicUrl}${ONE_CLICK_UNSUBSCRIBE_PATH}${query}` };
}

export function dropCommentsUrl(slug: string): string {
  return `${getConfig().publicUrl}${dashboardDropPath(slug, "comments")}`;
}

export function settingsUrl(): string {
  return `${getConfig().publicUrl}${NOTIFICATION_SETTINGS_PATH}`;
}
