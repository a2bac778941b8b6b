import { DASHBOARD_COMMENTS_PER_PAGE } from "@/lib/dashboard/drop-detail";
import { dashboardDropPath } from "@/lib/dashboard/paths";
import type { CommentListJson, CommentPolicy } from "@/lib/schemas/comments";
import { setCommentPolicyAction } from "../actions";
import styles from "../dashboard.module.css";
import { ActionForm } from "./action-form";
import { CommentItem } from "./comment-item";
import { COMMENT_POLICY_CHOICES, CommentPolicyChoices } from "./comment-policy-choices";

type Props = { slug: string; policy: CommentPolicy; /** One page of the thread, oldest first. */ comments: CommentListJson };

/** Whether the drop takes comments, said where the thread is, with the switch next to it. */
function CommentsSwitch({ slug, policy }: { slug: string; policy: CommentPolicy }) {
  const off = policy === "off";
  const who = COMMENT_POLICY_CHOICES.find((choice) => choice.value === policy)?.label ?? policy;
  return (
    // One form in both states, so its result is still announced once the setting flips.
    <ActionForm action={setCommentPolicyAction} label="Turn comments on or off" submitLabel={off ? "Turn comments on" : "Turn comments off"} tone={off ? "primary" : "secondary"}>
      <input type="hidden" name="slug" value={slug} />
      <input type="hidden" name="comments" value={off ? "signed_in" : "off"} />
      <p data-testid="comments-state">
        {off ? (
          <>
            <strong>Comments are off.</strong> The viewer page shows no comment panel, so nobody can comment. Turning them on lets signed-in accounts comment; choose below to let guests comment too.
          </>
        ) : (
          <>
            <strong>Comments are on</strong> for {who.charAt(0).toLowerCase() + who.slice(1)}.
          </>
        )}
      </p>
    </ActionForm>
  );
}

/** Links to the thread's other pages, plain links that bring the reader back to this section. */
function CommentPager({ slug, comments }: { slug: string; comments: CommentListJson }) {
  const { page, total_pages: pages, total_items: total } = comments.pagination;
  if (pages <= 1) return null;
  const href = (n: number) => `${dashboardDropPath(slug, "comments")}${n > 1 ? `&comments_page=${n}` : ""}#comments-heading`;
  const first = (page - 1) * DASHBOARD_COMMENTS_PER_PAGE + 1;
  return (
    <nav aria-label="Comment pages" className={styles.pager}>
      {page > 1 ? (
        <a href={href(page - 1)} rel="prev">
          ← Earlier comments
        </a>
      ) : (
        <span />
      )}
      <span data-testid="comment-page-info">
        Comments {first}–{first + comments.data.length - 1} of {total}
      </span>
      {page < pages ? (
        <a href={href(page + 1)} rel="next">
          Later comments →
        </a>
      ) : (
        <span />
      )}
    </nav>
  );
}

/** Whether and who may comment on the viewer page, then the drop's thread a page at a time, oldest first, with the owner's actions. */
export function CommentsSection({ slug, policy, comments }: Props) {
  return (
    <section className={styles.card} aria-labelledby="comments-heading">
      <h2 id="comments-heading">Comments</h2>
      <CommentsSwitch slug={slug} policy={policy} />
      <ActionForm action={setCommentPolicyAction} label="Who may comment" submitLabel="Save comment setting">
        <input type="hidden" name="slug" value={slug} />
        {/* Keyed by the setting, so the choice shown follows it when the switch above changes it. */}
        <CommentPolicyChoices key={policy} legend="Who may comment" checked={policy} />
      </ActionForm>
      {comments.data.length === 0 ? (
        <p className={styles.muted} data-testid="no-comments">
          No comments yet.
        </p>
      ) : (
        <>
          <ul className={styles.commentList} aria-label="Comments on this drop">
            {comments.data.map((comment) => (
              <CommentItem key={comment.id} slug={slug} comment={comment} />
            ))}
          </ul>
          <CommentPager slug={slug} comments={comments} />
        </>
      )}
    </section>
  );
}
