import type { CommentJson, CommentPolicy } from "@/lib/schemas/comments";
import { setCommentPolicyAction } from "../actions";
import styles from "../dashboard.module.css";
import { ActionForm } from "./action-form";
import { CommentItem } from "./comment-item";

const POLICY_CHOICES: { value: CommentPolicy; label: string }[] = [
  { value: "off", label: "Off: nobody can comment" },
  { value: "signed_in", label: "Signed-in accounts" },
  { value: "anyone", label: "Anyone, guests included (under a name they type)" },
];

type Props = { slug: string; policy: CommentPolicy; comments: CommentJson[]; total: number };

/** Who may comment on the viewer page, then the drop's whole thread, oldest first, with the owner's actions. */
export function CommentsSection({ slug, policy, comments, total }: Props) {
  return (
    <section className={styles.card} aria-labelledby="comments-heading">
      <h2 id="comments-heading">Comments</h2>
      <ActionForm action={setCommentPolicyAction} label="Who may comment" submitLabel="Save comment setting">
        <input type="hidden" name="slug" value={slug} />
        <fieldset className={styles.choices}>
          <legend>Who may comment</legend>
          {POLICY_CHOICES.map((choice) => (
            <label key={choice.value} className={styles.choice}>
              <input type="radio" name="comments" value={choice.value} defaultChecked={choice.value === policy} required />
              <span>{choice.label}</span>
            </label>
          ))}
        </fieldset>
      </ActionForm>
      {comments.length === 0 ? (
        <p className={styles.muted} data-testid="no-comments">No comments yet.</p>
      ) : (
        <>
          {total > comments.length ? <p className={styles.muted}>Showing the first {comments.length} of {total} comments.</p> : null}
          <ul className={styles.commentList} aria-label="Comments on this drop">
            {comments.map((comment) => (
              <CommentItem key={comment.id} slug={slug} comment={comment} />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
