import type { ReactNode } from "react";
import styles from "./auth.module.css";

/**
 * The frame of the one-column pages: sign-in, sign-out, the sign-in error, every not-found page and the
 * passcode gate. The brand is the way home, and the heading names the situation.
 */
export function PageFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className={styles.shell}>
      <a href="/" className={styles.brand}>
        htmldrop
      </a>
      <h1>{title}</h1>
      {children}
    </main>
  );
}
