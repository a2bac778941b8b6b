import { dashboardEditPath } from "@/lib/dashboard/paths";
import { PUBLISH_LIMITS } from "@/lib/dashboard/publish-form";
import { publishVersionAction } from "../actions";
import styles from "../dashboard.module.css";
import { PublishForm } from "./publish-form";

/** The next version of the drop: edited in the browser, or a whole document uploaded (folded until asked for). */
export function NewVersionSection({ slug }: { slug: string }) {
  return (
    <section className={styles.card} aria-labelledby="new-version-heading">
      <h2 id="new-version-heading">New version</h2>
      <p className={styles.muted}>The link stays the same; viewers see the new version, and older ones stay listed above.</p>
      <p>
        <a href={dashboardEditPath(slug)} className={styles.linkButton}>
          Edit the current HTML
        </a>{" "}
        in the browser, with a live preview.
      </p>
      <PublishForm action={publishVersionAction} mode="version" slug={slug} limits={PUBLISH_LIMITS} foldedUnder="Or upload a whole new document" />
    </section>
  );
}
