"use client";

import { useState } from "react";
import styles from "../dashboard.module.css";

/** Copies `value` to the clipboard and says so to screen readers. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [said, setSaid] = useState("");
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setSaid("Copied");
    } catch {
      setSaid("Copy failed: select the address and copy it by hand");
    }
  }
  return (
    <span className={styles.copy}>
      <button type="button" className={styles.secondary} onClick={copy} aria-label={`Copy ${label}`}>
        Copy
      </button>
      <span role="status" aria-live="polite" className={styles.muted}>
        {said}
      </span>
    </span>
  );
}
