import type { ReactNode } from "react";
import styles from "./auth.module.css";

/** The frame of the sign-in, sign-out and sign-in error pages: the brand (a link home) and one column. */
export function AuthShell({ title, children }: { title: string; children: ReactNode }) {
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
