import type { Metadata } from "next";
import { listOpenCommentsOfAccount } from "@/lib/comments/comments";
import { requireSessionUser } from "@/lib/auth/session";
import { pathWithQuery } from "@/lib/dashboard/paths";
import styles from "../dashboard.module.css";
import { CommentItem } from "../ui/comment-item";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Comments" };

const PAGE_SIZE = 25;

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** A hand-typed ?page= that is not a positive number shows the first page rather than an error. */
function pageFrom(value: unknown): number {
  const page = typeof value === "string" && /^[0-9]{1,6}$/.test(value) ? Number(value) : 1;
  return Math.max(page, 1);
}

function pageHref(page: number): string {
  return page === 1 ? "/dashboard/comments" : `/dashboard/comments?page=${page}`;
}

/** The inbox: comments by others on every drop of the account that are still open, newest first. */
export default async function CommentsInboxPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const user = await requireSessionUser(pathWithQuery("/dashboard/comments", params));
  const page = pageFrom(params.page);
  const { data, totalItems } = await listOpenCommentsOfAccount(user.userId, { page, pageSize: PAGE_SIZE });
  const pages = Math.max(Math.ceil(totalItems / PAGE_SIZE), 1);
  return (
    <main>
      <h1>Open comments</h1>
      <p className={styles.muted}>Comments by viewers on all your drops that are not resolved yet, newest first. Turn comments on or off on each drop’s page.</p>
      {data.length === 0 ? (
        <p className={styles.card} data-testid="inbox-empty">
          {totalItems === 0 ? "No open comments." : "No comments on this page."}
        </p>
      ) : (
        <ul className={styles.commentList} aria-label="Open comments">
          {data.map(({ slug, title, ...comment }) => (
            <CommentItem key={comment.id} slug={slug} comment={comment} dropTitle={title} />
          ))}
        </ul>
      )}
      <nav aria-label="Pages" className={styles.pager}>
        {page > 1 ? <a href={pageHref(page - 1)} rel="prev">← Previous</a> : <span />}
        <span data-testid="page-info">
          Page {Math.min(page, pages)} of {pages} · {totalItems} open {totalItems === 1 ? "comment" : "comments"}
        </span>
        {page < pages ? <a href={pageHref(page + 1)} rel="next">Next →</a> : <span />}
      </nav>
    </main>
  );
}
