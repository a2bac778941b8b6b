import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { dashboardNotice } from "@/lib/dashboard/messages";
import { loadDropList } from "@/lib/dashboard/drop-list";
import { requireSessionUser } from "@/lib/auth/session";
import { pathWithQuery } from "@/lib/dashboard/paths";
import { listNotices } from "@/lib/notifications/notices";
import { ConnectAgent } from "./ui/connect-agent";
import { DropFilters } from "./ui/drop-filters";
import { DropTable } from "./ui/drop-table";
import { Notice } from "./ui/notice";
import { NoticesList } from "./ui/notices-list";
import { Pager } from "./ui/pager";
import styles from "./dashboard.module.css";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Drops" };

const NOTICES_ON_DROPS_PAGE = 5;

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function DropsPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const user = await requireSessionUser(pathWithQuery("/dashboard", params));
  const [view, notices] = await Promise.all([loadDropList(user.userId, params), listNotices(user.userId, NOTICES_ON_DROPS_PAGE)]);
  if (view.lastPageHref) redirect(view.lastPageHref);
  return (
    <main className={styles.wideMain}>
      <div className={styles.pageHeading}>
        <h1>Your drops</h1>
        <a href="/dashboard/new" className={styles.primary}>
          New drop
        </a>
      </div>
      <Notice message={dashboardNotice(params.notice)} />
      {view.accountEmpty ? (
        <ConnectAgent mcpUrl={view.mcpUrl} />
      ) : (
        <>
          <DropFilters filters={view.filters} />
          {view.error ? <Notice message={view.error} tone="error" /> : null}
          {view.list ? (
            <>
              <DropTable drops={view.list.data} filters={view.filters} renderedAt={view.renderedAt} />
              <Pager filters={view.filters} pagination={view.list.pagination} />
            </>
          ) : null}
          <NoticesList notices={notices} renderedAt={view.renderedAt} />
        </>
      )}
    </main>
  );
}
