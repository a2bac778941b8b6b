import { signInPath } from "@/lib/auth/session";
import styles from "./site-header.module.css";
import { SessionLink } from "./session-link";

/** The header of the public pages (landing, /docs): home, the API reference, and Sign in or Dashboard. */
export function SiteHeader() {
  return (
    <header className={styles.header}>
      <a href="/" className={styles.brand}>
        htmldrop
      </a>
      <nav aria-label="Site">
        <ul className={styles.nav}>
          <li>
            <a href="/docs">API reference</a>
          </li>
          <li>
            <SessionLink signInHref={signInPath("/dashboard")} className={styles.session} />
          </li>
        </ul>
      </nav>
    </header>
  );
}
