import type { Metadata } from "next";
import { getDefaultCommentPolicy } from "@/lib/accounts/comment-default";
import { loadAccount } from "@/lib/dashboard/account";
import { formatTime } from "@/lib/dashboard/format";
import { requireSessionUser } from "@/lib/auth/session";
import { getNotificationSettings } from "@/lib/notifications/settings";
import { setDefaultCommentPolicyAction } from "../actions";
import styles from "../dashboard.module.css";
import { ActionForm } from "../ui/action-form";
import { CommentPolicyChoices } from "../ui/comment-policy-choices";
import { NotificationsSection } from "../ui/notifications-section";
import { UsageMeter } from "../ui/usage-meter";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Account" };

export default async function AccountPage() {
  const user = await requireSessionUser("/dashboard/account");
  const [account, commentsDefault, notifications] = await Promise.all([loadAccount(user), getDefaultCommentPolicy(user.userId), getNotificationSettings(user.userId)]);
  return (
    <main>
      <h1>Account</h1>
      <section className={styles.card} aria-labelledby="who-heading">
        <h2 id="who-heading">Who you are</h2>
        <dl className={styles.facts}>
          <dt>User id</dt>
          <dd className={styles.mono} data-testid="user-id">{account.userId}</dd>
          <dt>Signed in with</dt>
          <dd data-testid="identity">
            {account.identity.login ?? "(no username)"} ({account.identity.provider})
          </dd>
          <dt>Account created</dt>
          <dd>{formatTime(account.createdAt)}</dd>
          <dt>Drops</dt>
          <dd data-testid="drop-count">{account.dropCount}</dd>
        </dl>
      </section>
      <section className={styles.card} aria-labelledby="usage-heading">
        <h2 id="usage-heading">Usage and limits</h2>
        <p className={styles.muted}>Every write counts: from agents over the API or MCP, and from this dashboard.</p>
        <ul className={styles.usage}>
          {account.usage.map((row) => (
            <UsageMeter key={row.label} {...row} />
          ))}
        </ul>
      </section>
      <section className={styles.card} aria-labelledby="comments-default-heading">
        <h2 id="comments-default-heading">Comments on new drops</h2>
        <p className={styles.muted}>
          Who may comment on a drop you create without choosing: the New drop form starts with it, and an agent that leaves out <code>comments</code> gets it. Off, unless you pick
          another here. Each drop’s own setting is on its page.
        </p>
        <ActionForm action={setDefaultCommentPolicyAction} label="Comments on new drops" submitLabel="Save default">
          <CommentPolicyChoices key={commentsDefault} legend="Who may comment on new drops" checked={commentsDefault} />
        </ActionForm>
      </section>
      <NotificationsSection settings={notifications} />
    </main>
  );
}
