import type { Metadata } from "next";
import { PageFrame } from "@/app/_components/page-frame";
import styles from "@/app/_components/auth.module.css";
import { unsubscribeTarget } from "@/lib/notifications/settings";
import { NOTIFICATION_SETTINGS_PATH, ONE_CLICK_UNSUBSCRIBE_PATH } from "@/lib/notifications/urls";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Unsubscribe", robots: { index: false } };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

// An email's unsubscribe link lands here, signed in or not. Opening it changes nothing (mail scanners
// follow links); the button posts to the one-click endpoint, which a mail client may also call itself.
export default async function UnsubscribePage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const token = typeof params.token === "string" ? params.token : "";
  const target = await unsubscribeTarget(token);
  if (target === null) {
    return (
      <PageFrame title="Unsubscribe">
        <p role="alert">This unsubscribe link is not valid. Copy the whole link from the email, or change your notifications on the dashboard&apos;s account page.</p>
        <div className={styles.actions}>
          <a className={styles.button} href={NOTIFICATION_SETTINGS_PATH}>
            Notification settings
          </a>
        </div>
      </PageFrame>
    );
  }
  const account = target.login ?? "your account";
  if (!target.comments) {
    return (
      <PageFrame title="Unsubscribed">
        <p role="status" data-testid="unsubscribed">
          No more comment emails for <strong>{account}</strong>. New comments still appear on your dashboard; you can turn the emails back on from its account page.
        </p>
        <div className={styles.actions}>
          <a className={styles.secondary} href={NOTIFICATION_SETTINGS_PATH}>
            Notification settings
          </a>
        </div>
      </PageFrame>
    );
  }
  return (
    <PageFrame title="Unsubscribe">
      <p>
        Stop the emails about new comments on the drops of <strong data-testid="unsubscribe-account">{account}</strong>? New comments still appear on your dashboard.
      </p>
      <form method="post" action={`${ONE_CLICK_UNSUBSCRIBE_PATH}?token=${encodeURIComponent(token)}`} className={styles.actions}>
        <button type="submit" className={styles.button}>
          Unsubscribe
        </button>
      </form>
    </PageFrame>
  );
}
