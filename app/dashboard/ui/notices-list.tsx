import { dashboardDropPath } from "@/lib/dashboard/paths";
import type { Notice } from "@/lib/notifications/notices";
import styles from "../dashboard.module.css";
import { RelativeTime } from "./relative-time";

const EXCERPT_CHARS = 160;

function excerpt(text: string): string {
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS - 1)}…` : text;
}

/** What the notification emails tell, whether or not this instance sends them: the newest comments by others. */
export function NoticesList({ notices, renderedAt }: { notices: Notice[]; renderedAt: number }) {
  if (notices.length === 0) return null;
  return (
    <section className={styles.card} aria-labelledby="notices-heading" data-testid="notices">
      <h2 id="notices-heading">Notices</h2>
      <ul className={styles.notices}>
        {notices.map(({ eventId, at, drop, comment }) => (
          <li key={eventId} data-testid="notice-item">
            <a href={dashboardDropPath(drop.slug, "comments")}>{drop.title || drop.slug}</a>: {comment.author} {comment.replyTo ? "replied" : "commented"}{" "}
            <RelativeTime at={at} now={renderedAt} />
            <span className={styles.muted}> “{excerpt(comment.body)}”</span>
          </li>
        ))}
      </ul>
      <p className={styles.muted}>
        All open comments are in the <a href="/dashboard/comments">inbox</a>; email notifications are set on the <a href="/dashboard/account#notifications-heading">account page</a>.
      </p>
    </section>
  );
}
