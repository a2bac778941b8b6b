import styles from "../dashboard.module.css";

/** A message carried over a redirect (or a page-level error), announced once on load. */
export function Notice({ message, tone = "ok" }: { message: string | null; tone?: "ok" | "error" }) {
  if (!message) return null;
  return (
    <p className={tone === "ok" ? styles.noticeOk : styles.noticeError} role={tone === "ok" ? "status" : "alert"} data-testid="notice">
      {message}
    </p>
  );
}
