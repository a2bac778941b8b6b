import type { DropListFilters } from "@/lib/dashboard/drop-list";
import styles from "../dashboard.module.css";

const SORTS = [
  ["updated_at", "Last updated"],
  ["created_at", "Created"],
  ["view_count", "Views"],
] as const;

/**
 * A plain GET form: filters live in the address, so a filtered list can be bookmarked and shared. On a
 * phone it folds behind a "Filters" button (a <details>, no JavaScript needed), open while a filter is set;
 * on wider screens the CSS shows it always.
 */
export function DropFilters({ filters }: { filters: DropListFilters }) {
  const filtered = Boolean(filters.q || filters.tags);
  return (
    <details className={styles.filtersFold} open={filtered} data-testid="filters-fold">
      <summary className={styles.secondary}>{filtered ? "Filters (on)" : "Filters and sorting"}</summary>
      <form method="get" action="/dashboard" className={styles.filters} role="search" aria-label="Find drops">
        <div className={styles.control}>
          <label htmlFor="q">Title contains</label>
          <input id="q" name="q" type="search" defaultValue={filters.q} maxLength={200} />
        </div>
        <div className={styles.control}>
          <label htmlFor="tags">Tags</label>
          <input id="tags" name="tags" defaultValue={filters.tags} placeholder="project=alpha, team=web" aria-describedby="tags-help" />
          <small id="tags-help" className={styles.muted}>
            key=value pairs, comma separated; a drop must carry all of them.
          </small>
        </div>
        <div className={styles.control}>
          <label htmlFor="sortBy">Sort by</label>
          <select id="sortBy" name="sortBy" defaultValue={filters.sortBy}>
            {SORTS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className={styles.control}>
          <label htmlFor="sortOrder">Order</label>
          <select id="sortOrder" name="sortOrder" defaultValue={filters.sortOrder}>
            <option value="desc">Descending</option>
            <option value="asc">Ascending</option>
          </select>
        </div>
        <div className={styles.actions}>
          <button type="submit" className={styles.primary}>
            Apply
          </button>
          <a href="/dashboard" className={styles.linkButton}>
            Clear
          </a>
        </div>
      </form>
    </details>
  );
}
