import { COMMENT_LIMITS, type CommentJson } from "@/lib/schemas/comments";
import { deleteCommentAction, replyToCommentAction, resolveCommentAction } from "../actions";
import styles from "../dashboard.module.css";
import { ActionForm } from "./action-form";
import { PostedTextarea } from "./posted-fields";
import { dashboardDropPath } from "@/lib/dashboard/paths";

const KIND_LABELS = { owner: "Owner", account: "Signed-in account", guest: "Guest" } as const;

function when(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/**
 * What each of a comment's forms is named after. A named form is a landmark, and landmarks must differ,
 * so it says who wrote the comment, when and how it starts, not only who (one guest writes several).
 */
function describeComment(comment: CommentJson): string {
  const start = comment.body.length > 40 ? `${comment.body.slice(0, 40)}…` : comment.body;
  return `comment by ${comment.author.name} at ${when(comment.created_at)}: “${start}”`;
}

type Props = { slug: string; comment: CommentJson; /** The drop's title, linked to its page (the inbox). */ dropTitle?: string };

/**
 * One comment with the owner's actions. Every part of it is viewer-written plain text, so it is only
 * ever rendered as React text nodes: markup in a comment shows as the characters typed.
 */
export function CommentItem({ slug, comment, dropTitle }: Props) {
  const resolved = comment.resolved_at !== undefined;
  const labelFor = describeComment(comment);
  return (
    <li className={styles.comment} data-testid="comment" data-comment-id={comment.id}>
      {dropTitle !== undefined ? (
        <p className={styles.commentDrop}>
          On <a href={dashboardDropPath(slug, "comments")}>{dropTitle}</a>
        </p>
      ) : null}
      <p className={styles.commentMeta}>
        <strong>{comment.author.name}</strong>
        {comment.author.kind === "owner" ? <span className={styles.badge}>Owner</span> : <span className={styles.muted}> · {KIND_LABELS[comment.author.kind]}</span>}
        <span className={styles.muted}>
          {" "}
          · version {comment.version} · <time dateTime={new Date(comment.created_at).toISOString()}>{when(comment.created_at)}</time>
          {comment.reply_to ? " · reply" : ""}
        </span>
        {resolved ? <span className={styles.badge} data-testid="comment-resolved">Resolved</span> : null}
      </p>
      {comment.anchor ? (
        <figure className={styles.commentPassage}>
          <figcaption className={styles.muted}>On the passage selected in version {comment.version}:</figcaption>
          <blockquote className={styles.commentQuote} data-testid="comment-anchor">
            {comment.anchor.exact}
          </blockquote>
        </figure>
      ) : null}
      {comment.quote ? <blockquote className={styles.commentQuote}>{comment.quote}</blockquote> : null}
      <p className={styles.commentBody} data-testid="comment-body">{comment.body}</p>
      <div className={styles.commentActions}>
        <ActionForm action={resolveCommentAction} label={`${resolved ? "Reopen" : "Resolve"} ${labelFor}`} submitLabel={resolved ? "Reopen" : "Resolve"} tone="secondary">
          <input type="hidden" name="slug" value={slug} />
          <input type="hidden" name="id" value={comment.id} />
          <input type="hidden" name="intent" value={resolved ? "reopen" : "resolve"} />
        </ActionForm>
        <ActionForm action={replyToCommentAction} label={`Reply to ${labelFor}`} submitLabel="Post reply" resetOnSuccess fold={{ summary: "Reply", className: styles.commentReply }}>
          <input type="hidden" name="slug" value={slug} />
          <input type="hidden" name="id" value={comment.id} />
          <label>
            Your reply
            <PostedTextarea name="body" rows={3} required maxLength={COMMENT_LIMITS.bodyMaxChars} className={styles.commentTextarea} />
          </label>
        </ActionForm>
        <ActionForm action={deleteCommentAction} label={`Delete ${labelFor}`} submitLabel="Yes, delete this comment" tone="danger" fold={{ summary: "Delete…", className: styles.confirm }}>
          <input type="hidden" name="slug" value={slug} />
          <input type="hidden" name="id" value={comment.id} />
          <p>The comment disappears from the viewer page too. This cannot be undone.</p>
        </ActionForm>
      </div>
    </li>
  );
}
