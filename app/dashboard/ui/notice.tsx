"use client";

import styles from "../dashboard.module.css";
import { useShownUntilNextSubmit } from "./use-until-next-submit";

/** A message carried over a redirect (or a page-level error), announced once on load, gone once the next form is submitted. */
export function Notice({ message, tone = "ok" }: { message: string | null; tone?: "ok" | "error" }) {
  const shown = useShownUntilNextSubmit(message);
  if (!message || !shown) return null;
  return (
    <p className={tone === "ok" ? styles.noticeOk : styles.noticeError} role={tone === "ok" ? "status" : "alert"} data-testid="notice">
      {message}
    </p>
  );
}
