import { accessBadge } from "@/lib/dashboard/sharing-wording";
import type { DropAccess } from "@/lib/sharing/levels";
import styles from "../dashboard.module.css";

/** "Signed-in" or "Restricted" next to a drop in a list; nothing for a public drop. */
export function AccessBadge({ access }: { access: DropAccess | undefined }) {
  const badge = accessBadge(access);
  return badge ? (
    <span className={styles.badge} data-testid="access-badge">
      {badge}
    </span>
  ) : null;
}
