import { dashboardEditPath } from "@/lib/dashboard/paths";
import { PUBLISH_LIMITS } from "@/lib/dashboard/publish-form";
import { publishVersionAction } from "../actions";
import styles from "../dashboard.module.css";
import { PublishForm } from "./publish-form";

/**
 * The next version of the drop: edited in the browser, or a whole document uploaded (folded until asked
 * for). One row at the foot of the version list, so the drop's first tab fits a desktop screen.
 */
export function NewVersionSection({ slug }: { slug: string }) {
  return (
    <section className={styles.newVersion} aria-labelledby="new-version-heading">
      <h2 id="new-version-heading">New version</h2>
      <a href={dashboardEditPath(slug)} className={styles.linkButton}>
        Edit the current HTML
      </a>
      <p className={styles.muted}>in the browser, with a live preview. The link stays the same; older versions stay listed above.</p>
      <PublishForm action={publishVersionAction} mode="version" slug={slug} limits={PUBLISH_LIMITS} foldedUnder="Or upload a whole new document" />
    </section>
  );
}
