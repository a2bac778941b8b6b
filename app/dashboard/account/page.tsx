import type { Metadata } from "next";
import { loadAccount } from "@/lib/dashboard/account";
import { formatTime } from "@/lib/dashboard/format";
import { requireSessionUser } from "@/lib/auth/session";
import styles from "../dashboard.module.css";
import { UsageMeter } from "../ui/usage-meter";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Account" };

export default async function AccountPage() {
  const user = await requireSessionUser("/dashboard/account");
  const account = await loadAccount(user);
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
    </main>
  );
}
