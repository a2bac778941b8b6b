"use client";

import { useState } from "react";
import styles from "./copy-button.module.css";

/** Copies `value` to the clipboard and says so to screen readers; `label` names what it copies. */
export function CopyButton({ value, label, className }: { value: string; label: string; className?: string }) {
  const [said, setSaid] = useState("");
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setSaid("Copied");
    } catch {
      setSaid(`Copy failed: select the ${label} and copy it by hand`);
    }
  }
  return (
    <span className={styles.copy}>
      <button type="button" className={className} onClick={copy} aria-label={`Copy ${label}`}>
        Copy
      </button>
      <span role="status" aria-live="polite" className={styles.status}>
        {said}
      </span>
    </span>
  );
}
