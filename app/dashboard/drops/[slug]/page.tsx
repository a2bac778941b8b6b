import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { commentPageFrom, dropTitleFor, loadDropDetail, STATS_DAYS, type DropDetail } from "@/lib/dashboard/drop-detail";
import { dashboardNotice } from "@/lib/dashboard/messages";
import { loadShareCard, type ShareCard } from "@/lib/dashboard/sharing";
import { getSessionUser, requireSessionUser } from "@/lib/auth/session";
import { frameSrc } from "@/lib/serving/viewer";
import styles from "../../dashboard.module.css";
import { AccessBadge } from "../../ui/access-badge";
import { CommentsSection } from "../../ui/comments-section";
import { DeleteDropForm } from "../../ui/delete-drop-form";
import { DropOverview, DropTabs } from "../../ui/drop-overview";
import { EditDropForm } from "../../ui/edit-drop-form";
import { ExpirySection } from "../../ui/expiry-section";
import { IndexingSection } from "../../ui/indexing-section";
import { NewVersionSection } from "../../ui/new-version-section";
import { Notice } from "../../ui/notice";
import { PasscodeForms } from "../../ui/passcode-forms";
import { ShareSection } from "../../ui/share-section";
import { VersionList } from "../../ui/version-list";
import { ViewsSection } from "../../ui/views-section";
import { DROP_TABS, dashboardDropPath, dropTabFrom, type DropTab } from "@/lib/dashboard/paths";

export const dynamic = "force-dynamic";
type Props = { params: Promise<{ slug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The drop's title in the tab, for its owner and editors only: anyone else's tab says "Drop", as for a missing one. */
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const user = await getSessionUser();
  const title = user ? await dropTitleFor(user.userId, (await params).slug) : null;
  return { title: title ?? "Drop" };
}

/** The group a tab shows; the owner's groups hold what only the owner may change (lib/drops/access.ts). */
function TabContent({ tab, detail, share }: { tab: DropTab; detail: DropDetail; share: ShareCard | null }) {
  const { drop, versions, stats, comments, renderedAt, retentionDays, isOwner } = detail;
  switch (tab) {
    case "versions":
      return (
        <VersionList slug={drop.slug} versions={versions} latest={drop.latest_version} renderedAt={renderedAt} canDelete={isOwner}>
          <NewVersionSection slug={drop.slug} />
        </VersionList>
      );
    case "share":
      return (
        <div className={styles.groupGrid}>
          <PasscodeForms slug={drop.slug} locked={drop.locked} />
          <ExpirySection slug={drop.slug} expiresAt={drop.expires_at} retentionDays={retentionDays} renderedAt={renderedAt} />
          {share ? <ShareSection slug={drop.slug} access={drop.access} card={share} /> : null}
        </div>
      );
    case "comments":
      return comments ? <CommentsSection slug={drop.slug} policy={drop.comments ?? "off"} comments={comments} /> : null;
    case "views":
      return <ViewsSection stats={stats} />;
    case "settings":
      return (
        <div className={styles.groupGrid}>
          <EditDropForm drop={drop} />
          {isOwner ? (
            <div>
              <IndexingSection slug={drop.slug} indexable={drop.indexable === true} locked={drop.locked} />
              <DeleteDropForm slug={drop.slug} title={drop.title} />
            </div>
          ) : null}
        </div>
      );
  }
}

/**
 * A drop's page, for its owner and its editors: the overview (preview, links, actions, state) on the
 * first screen, then one group at a time behind tabs that are plain links.
 */
export default async function DropPage({ params, searchParams }: Props) {
  const { slug } = await params;
  const query = await searchParams;
  const tab = dropTabFrom(query.tab);
  const user = await requireSessionUser(dashboardDropPath(slug, tab));
  const detail = await loadDropDetail(user.userId, slug, commentPageFrom(query.comments_page));
  if (!detail) notFound();
  const share = detail.isOwner ? await loadShareCard(user.userId, slug) : null;
  const { drop, versions, stats, renderedAt, isOwner } = detail;
  // Comments are the owner's: an editor's page has no such tab.
  const tabs = DROP_TABS.filter((entry) => isOwner || entry.id !== "comments");
  const shown = tabs.some((entry) => entry.id === tab) ? tab : "versions";
  return (
    <main className={styles.dropMain}>
      <p className={styles.breadcrumb}>
        <a href="/dashboard">← All drops</a>
      </p>
      <div className={styles.dropHeading}>
        <h1 data-testid="drop-title">{drop.title}</h1>
        <AccessBadge access={drop.access} />
        {isOwner ? null : <span className={styles.badge}>You can edit</span>}
      </div>
      {drop.description ? <p className={`${styles.muted} ${styles.dropDescription}`}>{drop.description}</p> : null}
      <Notice message={dashboardNotice(query.notice)} />
      <DropOverview
        drop={drop}
        previewSrc={drop.expired ? null : frameSrc(drop.slug, drop.latest_version, null, user.userId)}
        latestPublishedAt={versions[0]?.created_at ?? null}
        versionCount={versions.length}
        recentViews={stats.total_views}
        statsDays={STATS_DAYS}
        renderedAt={renderedAt}
        isOwner={isOwner}
      />
      <DropTabs slug={drop.slug} current={shown} tabs={tabs} />
      <TabContent tab={shown} detail={detail} share={share} />
    </main>
  );
}
