import type { Metadata } from "next";
import { requireSessionUser } from "@/lib/auth/session";
import { pathWithQuery } from "@/lib/dashboard/paths";
import { loadSharedDrops } from "@/lib/dashboard/sharing";
import { now } from "@/lib/clock";
import styles from "../dashboard.module.css";
import { SharedTable } from "../ui/shared-table";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Shared with me" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function SharedPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const user = await requireSessionUser(pathWithQuery("/dashboard/shared", params));
  const list = await loadSharedDrops(user.userId, params);
  const { page, total_pages: totalPages } = list.pagination;
  return (
    <main className={styles.wideMain}>
      <h1>Shared with me</h1>
      <p className={styles.muted}>Drops other people shared with you, or with a team you are in.</p>
      <SharedTable drops={list.data} renderedAt={now()} />
      {totalPages > 1 ? (
        <nav className={styles.pager} aria-label="Pages">
          {page > 1 ? <a href={`/dashboard/shared?page=${page - 1}`} rel="prev">← Previous</a> : <span />}
          <span>
            Page {Math.min(page, totalPages)} of {totalPages}
          </span>
          {page < totalPages ? <a href={`/dashboard/shared?page=${page + 1}`} rel="next">Next →</a> : <span />}
        </nav>
      ) : null}
    </main>
  );
}
