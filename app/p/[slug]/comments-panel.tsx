"use client";

// The viewer's comments: the thread and the form. The page is cached and the same for everyone, so
// nothing here depends on who is looking; the form posts as a plain form (the route redirects back
// with a notice) and, once this script runs, as JSON, adding the new comment without a reload.
import { useState, type FormEvent, type ReactNode } from "react";
import { COMMENT_FORM_ERRORS, COMMENT_POSTED_NOTICE, commentFormOutcome, type CommentFormError } from "@/lib/comments/form-messages";
import { publicPath } from "@/lib/drops/public-urls";
import type { CommentJson } from "@/lib/schemas/comments";
import type { ViewerComments } from "@/lib/serving/viewer";
import styles from "./viewer.module.css";

/** What the page says above the form: a plain form post's outcome from the query, or the script's. */
export type CommentNotice = { kind: "posted" } | { kind: "error"; error: CommentFormError };

type Props = {
  slug: string;
  /** The version shown: its comments come first, and a new comment is made on it. */
  version: number;
  comments: ViewerComments;
  notice: CommentNotice | null;
};

const BODY_MAX = 4000;

/** A UTC date-time the server and the browser write alike (no locale, no time zone of the viewer). */
function formatUtc(at: number): string {
  const iso = new Date(at).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

type Node = { comment: CommentJson; replies: Node[] };

/** Replies under the comment they answer when it is on this page; otherwise in the server's order (lib/comments). */
function threadOf(comments: CommentJson[]): Node[] {
  const nodes = new Map(comments.map((comment) => [comment.id, { comment, replies: [] as Node[] }]));
  const top: Node[] = [];
  for (const node of nodes.values()) {
    const parent = node.comment.reply_to ? nodes.get(node.comment.reply_to) : undefined;
    if (parent && parent !== node) parent.replies.push(node);
    else top.push(node);
  }
  return top;
}

function CommentItem({ node, version, depth }: { node: Node; version: number; depth: number }) {
  const { comment } = node;
  // Its parent is on an earlier page (a deleted parent clears reply_to).
  const answersEarlier = depth === 0 && comment.reply_to !== undefined;
  return (
    <li className={styles.comment} data-comment-id={comment.id} data-resolved={comment.resolved_at !== undefined ? "true" : undefined}>
      <article>
        <p className={styles.commentMeta}>
          <span className={styles.author}>{comment.author.name}</span>
          {comment.author.kind === "owner" ? (
            <span className={styles.ownerBadge} title="The drop's owner">
              Owner
            </span>
          ) : comment.author.kind === "account" ? (
            <span className={styles.accountMark}>signed in</span>
          ) : null}
          <time dateTime={new Date(comment.created_at).toISOString()}>{formatUtc(comment.created_at)}</time>
          {comment.version !== version ? <span className={styles.versionMark}>on version {comment.version}</span> : null}
          {answersEarlier ? <span className={styles.versionMark}>reply to a comment on an earlier page</span> : null}
          {comment.resolved_at !== undefined ? <span className={styles.resolvedMark}>Resolved</span> : null}
        </p>
        {comment.quote !== undefined ? <blockquote className={styles.quote}>{comment.quote}</blockquote> : null}
        <p className={styles.commentBody}>{comment.body}</p>
      </article>
      {node.replies.length > 0 ? (
        <ol className={depth < 3 ? styles.replies : styles.repliesFlat} aria-label="Replies">
          {node.replies.map((reply) => (
            <CommentItem key={reply.comment.id} node={reply} version={version} depth={depth + 1} />
          ))}
        </ol>
      ) : null}
    </li>
  );
}

function NoticeLine({ notice }: { notice: CommentNotice | null }): ReactNode {
  if (!notice) return null;
  if (notice.kind === "posted") {
    return (
      <p role="status" className={styles.notice}>
        {COMMENT_POSTED_NOTICE}
      </p>
    );
  }
  return (
    <p role="alert" className={styles.error}>
      {COMMENT_FORM_ERRORS[notice.error]}
    </p>
  );
}

async function postComment(slug: string, fields: Record<string, string>): Promise<{ comment: CommentJson } | { status: number; error: CommentFormError }> {
  try {
    const response = await fetch(publicPath(slug, "comments"), {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(fields),
    });
    const body = (await response.json().catch(() => null)) as { error?: { code?: unknown; details?: Record<string, unknown> } } | CommentJson | null;
    if (response.status === 201 && body && "id" in body) return { comment: body };
    const error = body && "error" in body && typeof body.error?.code === "string" ? { code: body.error.code, details: body.error.details } : { code: "service_unavailable" };
    return { status: response.status, error: commentFormOutcome(error) };
  } catch {
    return { status: 0, error: "unavailable" };
  }
}

/** Links to the thread's other pages, plain links so they work without JavaScript. */
function PageLinks({ slug, version, comments }: { slug: string; version: number; comments: ViewerComments }) {
  const { page, pages, total, first } = comments;
  if (pages === 1) return null;
  // The first page is the viewer's own URL, the one the page cache keeps.
  const href = (n: number) => `${publicPath(slug, "viewer", { v: version, comments_page: n > 1 ? n : null })}#comments`;
  return (
    <nav className={styles.commentPages} aria-label="Comment pages">
      {page > 1 ? (
        <a href={href(page - 1)} rel="prev">
          Previous comments
        </a>
      ) : null}
      <span>
        Comments {first}–{first + comments.comments.length - 1} of {total}
      </span>
      {page < pages ? (
        <a href={href(page + 1)} rel="next">
          More comments
        </a>
      ) : null}
    </nav>
  );
}

export function CommentsPanel({ slug, version, comments, notice: initialNotice }: Props) {
  const [thread, setThread] = useState(comments.comments);
  const [posted, setPosted] = useState(0);
  const [notice, setNotice] = useState(initialNotice);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const form = event.currentTarget;
    const fields: Record<string, string> = {};
    for (const [name, value] of new FormData(form)) if (typeof value === "string") fields[name] = value;
    setPending(true);
    const result = await postComment(slug, fields);
    setPending(false);
    if ("comment" in result) {
      setThread((current) => [...current, result.comment]);
      setPosted((count) => count + 1);
      setNotice({ kind: "posted" });
      // The name stays for the next comment; the text is posted.
      for (const name of ["body", "quote"]) {
        const field = form.elements.namedItem(name);
        if (field instanceof HTMLTextAreaElement) field.value = "";
      }
      return;
    }
    // Signed-in accounts only: the plain post redirects to sign-in and back to the thread.
    if (result.status === 401) {
      form.submit();
      return;
    }
    setNotice({ kind: "error", error: result.error });
  }

  const nodes = threadOf(thread);
  return (
    // Open as rendered; the script after it folds it on a phone (see DropView). React leaves `open` alone.
    <details id="comments" open className={styles.comments} suppressHydrationWarning>
      <summary className={styles.commentsSummary}>
        Comments <span className={styles.count}>({comments.total + posted})</span>
      </summary>
      <div className={styles.commentsBody}>
        {nodes.length === 0 ? (
          <p className={styles.empty}>No comments yet.</p>
        ) : (
          <ol className={styles.thread} aria-label="Comments">
            {nodes.map((node) => (
              <CommentItem key={node.comment.id} node={node} version={version} depth={0} />
            ))}
          </ol>
        )}
        <PageLinks slug={slug} version={version} comments={comments} />
        <form method="post" action={publicPath(slug, "comments")} className={styles.commentForm} onSubmit={onSubmit} aria-label="Add a comment">
          <input type="hidden" name="v" value={version} />
          <label>
            Comment on version {version}
            <textarea name="body" required maxLength={BODY_MAX} rows={4} />
          </label>
          <label>
            Quote the passage you mean (optional)
            <textarea name="quote" maxLength={BODY_MAX} rows={2} />
          </label>
          {comments.policy === "anyone" ? (
            <label>
              Your name (shown with your comment; leave empty if signed in)
              <input type="text" name="name" maxLength={60} autoComplete="nickname" />
            </label>
          ) : (
            <p className={styles.note}>Sign in to comment — posting asks you to sign in.</p>
          )}
          <NoticeLine notice={notice} />
          <button type="submit" disabled={pending}>
            {pending ? "Posting…" : "Post comment"}
          </button>
        </form>
      </div>
    </details>
  );
}
