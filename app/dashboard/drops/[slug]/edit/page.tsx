import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getSessionUser, requireSessionUser } from "@/lib/auth/session";
import { dropTitleFor } from "@/lib/dashboard/drop-detail";
import { loadEditorDocument } from "@/lib/dashboard/drop-editor";
import { dashboardDropPath, dashboardEditPath } from "@/lib/dashboard/paths";
import { PUBLISH_LIMITS } from "@/lib/dashboard/publish-form";
import { viewerPath } from "@/lib/drops/public-urls";
import { DEFENSIVE_BLOCK } from "@/lib/html/inject";
import { DROP_SANDBOX } from "@/lib/serving/raw";
import styles from "../../../dashboard.module.css";
import { DropEditorForm } from "../../../ui/drop-editor-form";
import css from "../../../ui/drop-editor.module.css";

export const dynamic = "force-dynamic";
type Props = { params: Promise<{ slug: string }> };

/** The drop's title in the tab, for its owner only: anyone else's tab says "Drop", as for a missing one. */
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const user = await getSessionUser();
  const title = user ? await dropTitleFor(user.userId, (await params).slug) : null;
  return { title: title ? `Edit ${title}` : "Drop" };
}

/** The latest version's HTML, to change and publish as the next version; the drop's link stays the same. */
export default async function EditDropPage({ params }: Props) {
  const { slug } = await params;
  const user = await requireSessionUser(dashboardEditPath(slug));
  const document = await loadEditorDocument(user.userId, slug);
  if (!document) notFound();
  return (
    <main className={css.main}>
      <p className={styles.breadcrumb}>
        <a href={dashboardDropPath(slug)}>← {document.title}</a>
      </p>
      <h1>Edit “{document.title}”</h1>
      <p className={styles.muted}>Change the HTML and publish it as a new version: the link stays the same, viewers see it at once, and earlier versions stay listed on the drop&apos;s page.</p>
      <DropEditorForm
        slug={document.slug}
        baseVersion={document.version}
        html={document.html}
        htmlMaxBytes={PUBLISH_LIMITS.htmlMaxBytes}
        sandbox={DROP_SANDBOX}
        servedTail={DEFENSIVE_BLOCK}
        viewerHref={viewerPath(document.slug)}
      />
    </main>
  );
}
