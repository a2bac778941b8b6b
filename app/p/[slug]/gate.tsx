import { publicPath } from "@/lib/drops/public-urls";
import { GATE_MESSAGES } from "@/lib/serving/viewer";
import styles from "./viewer.module.css";

/** The passcode form a locked drop's pages show instead of anything of the drop. */
export function Gate({ slug, version, error }: { slug: string; version: string | null; error: keyof typeof GATE_MESSAGES | null }) {
  return (
    <main className={styles.gate}>
      <h1>This drop is locked</h1>
      <p>Enter the passcode that came with the link.</p>
      {error ? (
        <p role="alert" className={styles.error}>
          {GATE_MESSAGES[error]}
        </p>
      ) : null}
      <form method="post" action={publicPath(slug, "unlock")} className={styles.gateForm}>
        {version ? <input type="hidden" name="v" value={version} /> : null}
        <label>
          Passcode
          <input type="password" name="passcode" required autoComplete="off" autoFocus />
        </label>
        <button type="submit">Unlock</button>
      </form>
    </main>
  );
}
