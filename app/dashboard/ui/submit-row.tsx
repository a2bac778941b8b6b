import styles from "../dashboard.module.css";

const TONES = { primary: styles.primary, secondary: styles.secondary, danger: styles.danger };

/** A dashboard form's submit button, in its own row; while the action runs it says so and takes no second click. */
export function SubmitRow({ pending, label, pendingLabel = "Working…", tone = "primary" }: { pending: boolean; label: string; pendingLabel?: string; tone?: keyof typeof TONES }) {
  return (
    <div className={styles.actions}>
      <button type="submit" className={TONES[tone]} disabled={pending} aria-disabled={pending}>
        {pending ? pendingLabel : label}
      </button>
    </div>
  );
}
