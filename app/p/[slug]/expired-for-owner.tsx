import { ExpirySection } from "@/app/dashboard/ui/expiry-section";
import type { ViewerPage } from "@/lib/serving/viewer";
import styles from "./viewer.module.css";

type ExpiredPage = Extract<ViewerPage, { kind: "expired" }>;

/**
 * An expired drop's viewer, to whoever may change its expiry: everyone else gets the 410 page. When it
 * expired, when the purge deletes it, and the expiry form, which opens the drop again once changed.
 */
export function ExpiredForOwner({ page }: { page: ExpiredPage }) {
  return (
    <main className={styles.expired}>
      <h1>“{page.title}” has expired</h1>
      <p>Anyone else who opens this link is told it has expired. Extend it, or remove the expiry, to share it again.</p>
      {page.manageHref ? (
        <p>
          <a href={page.manageHref}>Manage this drop</a>
        </p>
      ) : null}
      <ExpirySection slug={page.slug} expiresAt={page.expiresAt} retentionDays={page.retentionDays} renderedAt={page.renderedAt} thenOpenViewer />
    </main>
  );
}
