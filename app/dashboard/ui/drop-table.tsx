import { dropListHref, type DropListFilters } from "@/lib/dashboard/drop-list";
import { describeExpiryBriefly } from "@/lib/dashboard/expiry-wording";
import { formatTime } from "@/lib/dashboard/format";
import { viewerPath } from "@/lib/drops/public-urls";
import type { DropJson } from "@/lib/schemas/drops";
import styles from "../dashboard.module.css";
import { CopyButton } from "@/app/_components/copy-button";
import { AccessBadge } from "./access-badge";
import { RelativeTime } from "./relative-time";
import { dashboardDropPath } from "@/lib/dashboard/paths";

function Tags({ metadata, filters }: { metadata: Record<string, string>; filters: DropListFilters }) {
  const entries = Object.entries(metadata);
  if (entries.length === 0) return <span className={styles.muted}>none</span>;
  return (
    <ul className={styles.tags}>
      {entries.map(([key, value]) => (
        <li key={key}>
          <a href={dropListHref(filters, 1, { tags: `${key}=${value}` })} className={styles.tag} title={`Show drops tagged ${key}=${value}`}>
            {key}={value}
          </a>
        </li>
      ))}
    </ul>
  );
}

/** "in 3 days" or an "Expired" badge, with the exact time on hover; "never" without an expiry. */
function Expiry({ drop, renderedAt }: { drop: DropJson; renderedAt: number }) {
  if (drop.expires_at === undefined) return <span className={styles.muted}>never</span>;
  const time = (
    <time dateTime={new Date(drop.expires_at).toISOString()} title={formatTime(drop.expires_at)}>
      {describeExpiryBriefly(drop.expires_at, renderedAt)}
    </time>
  );
  return drop.expired ? <span className={styles.badge}>{time}</span> : time;
}

/**
 * The drop list: a table on wide screens; on a phone one compact row per drop (title, then version, views
 * and a lock or expiry when there is one), the same markup with CSS deciding.
 */
export function DropTable({ drops, filters, renderedAt }: { drops: DropJson[]; filters: DropListFilters; renderedAt: number }) {
  if (drops.length === 0) {
    return (
      <p role="status" className={styles.card} data-testid="no-matches">
        No drop matches these filters. <a href="/dashboard">Show all drops</a>
      </p>
    );
  }
  return (
    <table className={`${styles.table} ${styles.compactRows} ${styles.dropTable}`} data-testid="drop-table">
      <caption className={styles.visuallyHidden}>Your drops</caption>
      <thead>
        <tr>
          <th scope="col">Title</th>
          <th scope="col">Link</th>
          <th scope="col">Latest</th>
          <th scope="col">Views</th>
          <th scope="col">Locked</th>
          <th scope="col">Expires</th>
          <th scope="col">Tags</th>
          <th scope="col">Updated</th>
        </tr>
      </thead>
      <tbody>
        {drops.map((drop) => (
          <tr key={drop.slug} data-slug={drop.slug}>
            <th scope="row" data-label="Title" className={styles.titleCell}>
              <span>
                <a href={dashboardDropPath(drop.slug)}>{drop.title}</a>
                <AccessBadge access={drop.access} />
              </span>
            </th>
            <td data-label="Link" className={styles.phoneHidden}>
              <span className={styles.linkCell}>
                <a href={drop.url} className={styles.mono}>
                  {viewerPath(drop.slug)}
                </a>
                <CopyButton value={drop.url} label={`link of ${drop.title}`} className={styles.secondary} />
              </span>
            </td>
            <td data-label="Latest">v{drop.latest_version}</td>
            <td data-label="Views">{drop.view_count}</td>
            <td data-label="Locked" className={drop.locked ? undefined : styles.phoneHidden}>{drop.locked ? <span className={styles.badge}>Locked</span> : <span className={styles.muted}>No</span>}</td>
            <td data-label="Expires" data-testid="drop-expiry" className={drop.expires_at === undefined ? styles.phoneHidden : undefined}>
              <Expiry drop={drop} renderedAt={renderedAt} />
            </td>
            <td data-label="Tags" className={styles.phoneHidden}>
              <Tags metadata={drop.metadata} filters={filters} />
            </td>
            <td data-label="Updated" className={styles.phoneHidden}>
              <RelativeTime at={drop.updated_at} now={renderedAt} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
