import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { commentPageFrom, dropTitleFor, loadDropDetail } from "@/lib/dashboard/drop-detail";
import { dashboardNotice } from "@/lib/dashboard/messages";
import { loadShareCard } from "@/lib/dashboard/sharing";
import { getSessionUser, requireSessionUser } from "@/lib/auth/session";
import styles from "../../dashboard.module.css";
import { CommentsSection } from "../../ui/comments-section";
import { DeleteDropForm } from "../../ui/delete-drop-form";
import { DropLinks } from "../../ui/drop-links";
import { EditDropForm } from "../../ui/edit-drop-form";
import { ExpirySection } from "../../ui/expiry-section";
import { IndexingSection } from "../../ui/indexing-section";
import { NewVersionSection } from "../../ui/new-version-section";
import { Notice } from "../../ui/notice";
import { PasscodeForms } from "../../ui/passcode-forms";
import { ShareSection } from "../../ui/share-section";
import { VersionList } from "../../ui/version-list";
import { ViewsSection } from "../../ui/views-section";
import { dashboardDropPath } from "@/lib/dashboard/paths";

export const dynamic = "force-dynamic";
type Props = { params: Promise<{ slug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The drop's title in the tab, for its owner only: anyone else's tab says "Drop", as for a missing one. */
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const user = await getSessionUser();
  const title = user ? await dropTitleFor(user.userId, (await params).slug) : null;
  return { title: title ?? "Drop" };
}

export default async function DropPage({ params, searchParams }: Props) {
  const { slug } = await params;
  const user = await requireSessionUser(dashboardDropPath(slug));
  const query = await searchParams;
  const detail = await loadDropDetail(user.userId, slug, commentPageFrom(query.comments_page));
  if (!detail) notFound();
  const share = await loadShareCard(user.userId, slug);
  const { drop, versions, stats, comments, renderedAt, retentionDays } = detail;
  return (
    <main>
      <p className={styles.breadcrumb}>
        <a href="/dashboard">← All drops</a>
      </p>
      <h1 data-testid="drop-title">{drop.title}</h1>
      {drop.description ? <p className={styles.muted}>{drop.description}</p> : null}
      <Notice message={dashboardNotice(query.notice)} />
      <DropLinks drop={drop} />
      <ViewsSection stats={stats} />
      <VersionList slug={drop.slug} versions={versions} latest={drop.latest_version} renderedAt={renderedAt} />
      <NewVersionSection slug={drop.slug} />
      {share ? <ShareSection slug={drop.slug} access={drop.access} card={share} /> : null}
      <EditDropForm drop={drop} />
      <ExpirySection slug={drop.slug} expiresAt={drop.expires_at} retentionDays={retentionDays} renderedAt={renderedAt} />
      <PasscodeForms slug={drop.slug} locked={drop.locked} />
      <IndexingSection slug={drop.slug} indexable={drop.indexable === true} locked={drop.locked} />
      <CommentsSection slug={drop.slug} policy={drop.comments ?? "off"} comments={comments} />
      <DeleteDropForm slug={drop.slug} title={drop.title} />
    </main>
  );
}
