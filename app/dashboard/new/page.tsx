import type { Metadata } from "next";
import { getDefaultCommentPolicy } from "@/lib/accounts/comment-default";
import { requireSessionUser } from "@/lib/auth/session";
import { PUBLISH_LIMITS } from "@/lib/dashboard/publish-form";
import { createDropAction } from "../actions";
import styles from "../dashboard.module.css";
import { PublishForm } from "../ui/publish-form";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "New drop" };

export default async function NewDropPage() {
  const user = await requireSessionUser("/dashboard/new");
  const commentsDefault = await getDefaultCommentPolicy(user.userId);
  return (
    <main>
      <p className={styles.breadcrumb}>
        <a href="/dashboard">← All drops</a>
      </p>
      <h1>New drop</h1>
      <p className={styles.muted}>Publish an HTML page yourself: it gets a link to share, like a drop an agent made.</p>
      <section className={styles.card} aria-label="Publish">
        <PublishForm action={createDropAction} mode="create" limits={PUBLISH_LIMITS} commentsDefault={commentsDefault} />
      </section>
    </main>
  );
}
