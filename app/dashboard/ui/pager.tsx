import { dropListHref, type DropListFilters } from "@/lib/dashboard/drop-list";
import type { DropListJson } from "@/lib/schemas/drops";
import styles from "../dashboard.module.css";

export function Pager({ filters, pagination }: { filters: DropListFilters; pagination: DropListJson["pagination"] }) {
  const { page, total_pages: pages, total_items: total } = pagination;
  return (
    <nav aria-label="Pages" className={styles.pager}>
      {page > 1 ? <a href={dropListHref(filters, page - 1)} rel="prev">← Previous</a> : <span />}
      <span data-testid="page-info">
        Page {Math.min(page, Math.max(pages, 1))} of {Math.max(pages, 1)} · {total} {total === 1 ? "drop" : "drops"}
      </span>
      {page < pages ? <a href={dropListHref(filters, page + 1)} rel="next">Next →</a> : <span />}
    </nav>
  );
}
