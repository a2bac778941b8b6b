import type { NotificationSettings } from "@/lib/notifications/settings";
import { setCommentEmailsAction } from "../actions";
import styles from "../dashboard.module.css";
import { ActionForm } from "./action-form";

/** The account's email notifications: what this instance can send, where it goes, and the switch. */
export function NotificationsSection({ settings }: { settings: NotificationSettings }) {
  const where = !settings.mailConfigured
    ? "This instance sends no email (its operator has not set SMTP_URL and MAIL_FROM), so new comments appear only under Notices on your drops page."
    : settings.email === null
      ? "Your sign-in gave no verified email address, so there is nowhere to send them; new comments appear under Notices on your drops page."
      : `Sent to ${settings.email}. Comments within about a minute come as one email; each has a one-click unsubscribe link.`;
  return (
    <section className={styles.card} aria-labelledby="notifications-heading">
      <h2 id="notifications-heading">Email notifications</h2>
      <p className={styles.muted} id="notifications-help">
        {where}
      </p>
      <ActionForm action={setCommentEmailsAction} label="Email notifications" submitLabel="Save notifications" tone="secondary">
        <label className={styles.choice}>
          <input type="checkbox" name="comment_emails" defaultChecked={settings.comments} aria-describedby="notifications-help" />
          <span>Email me when someone comments on one of my drops</span>
        </label>
      </ActionForm>
    </section>
  );
}
