import type { Metadata } from "next";
import type { ReactNode } from "react";
import { getSessionUser, signOutPath } from "@/lib/auth/session";
import styles from "./dashboard.module.css";

export const metadata: Metadata = { title: { default: "Dashboard", template: "%s · htmldrop dashboard" }, robots: { index: false } };

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const user = await getSessionUser();
  return (
    <div className={styles.shell}>
      <a href="#content" className={styles.skipLink}>
        Skip to content
      </a>
      <header className={styles.header}>
        <a href="/dashboard" className={styles.brand}>
          htmldrop
        </a>
        <nav aria-label="Dashboard">
          <ul className={styles.nav}>
            <li><a href="/dashboard">Drops</a></li>
            <li><a href="/dashboard/new">New drop</a></li>
            <li><a href="/dashboard/shared">Shared with me</a></li>
            <li><a href="/dashboard/teams">Teams</a></li>
            <li><a href="/dashboard/comments">Comments</a></li>
            <li><a href="/dashboard/patterns">Patterns</a></li>
            <li><a href="/dashboard/tokens">Tokens</a></li>
            <li><a href="/dashboard/webhooks">Webhooks</a></li>
            <li><a href="/dashboard/account">Account</a></li>
          </ul>
        </nav>
        {user ? (
          <p className={styles.who}>
            <span data-testid="signed-in-as">{user.login ?? user.userId}</span> · <a href={signOutPath("/")}>Sign out</a>
          </p>
        ) : null}
      </header>
      <div id="content" tabIndex={-1} className={styles.content}>
        {children}
      </div>
    </div>
  );
}
