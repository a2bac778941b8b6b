import { viewerPath } from "@/lib/drops/public-urls";
import type { DropJson } from "@/lib/schemas/drops";
import styles from "../dashboard.module.css";
import { AccessBadge } from "./access-badge";
import { RelativeTime } from "./relative-time";

/** Drops shared with the account: each opens in the viewer, which admits the account by its list. */
export function SharedTable({ drops, renderedAt }: { drops: DropJson[]; renderedAt: number }) {
  if (drops.length === 0) {
    return (
      <p className={styles.card} data-testid="no-shared">
        Nothing is shared with you yet. When someone adds you (or a team you are in) to a drop, it shows here.
      </p>
    );
  }
  return (
    <table className={styles.table} data-testid="shared-table">
      <caption className={styles.visuallyHidden}>Drops shared with you</caption>
      <thead>
        <tr>
          <th scope="col">Title</th>
          <th scope="col">Link</th>
          <th scope="col">Latest</th>
          <th scope="col">Updated</th>
        </tr>
      </thead>
      <tbody>
        {drops.map((drop) => (
          <tr key={drop.slug} data-slug={drop.slug}>
            <th scope="row" data-label="Title" className={styles.titleCell}>
              <span>
                {drop.title}
                <AccessBadge access={drop.access} />
              </span>
            </th>
            <td data-label="Link">
              <a href={viewerPath(drop.slug)} className={styles.mono}>
                {viewerPath(drop.slug)}
              </a>
            </td>
            <td data-label="Latest">v{drop.latest_version}</td>
            <td data-label="Updated">
              <RelativeTime at={drop.updated_at} now={renderedAt} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
