import type { UsageRow } from "@/lib/dashboard/account";
import styles from "../dashboard.module.css";

export function UsageMeter({ label, used, limit }: UsageRow) {
  const id = `usage-${label.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
  return (
    <li className={styles.usageRow} data-testid={id}>
      <span id={id}>{label}</span>
      <meter aria-labelledby={id} min={0} max={limit} value={Math.min(used, limit)} high={limit * 0.8} optimum={0}>
        {used} of {limit}
      </meter>
      <span className={styles.mono}>
        {used} / {limit}
      </span>
    </li>
  );
}
