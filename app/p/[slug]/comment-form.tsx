"use client";

// One of the viewer's comment forms: the panel's own, or a reply under a comment. Without JavaScript it
// is a plain form post (the route redirects back with a notice); with it, the same fields go as JSON,
// with the passage the person chose in the drop, and the new comment joins the thread without a reload.
import { useState, type FormEvent, type ReactNode, type RefObject } from "react";
import { COMMENT_FORM_ERRORS, COMMENT_POSTED_NOTICE, commentFormOutcome, REPLY_POSTED_NOTICE, type CommentFormError } from "@/lib/comments/form-messages";
import { publicPath } from "@/lib/drops/public-urls";
import type { CommentAnchor } from "@/lib/schemas/comment-anchor";
import type { CommentJson, CommentPolicy } from "@/lib/schemas/comments";
import styles from "./viewer.module.css";

/** What a form says above its button: a plain form post's outcome from the query, or the script's. */
export type CommentNotice = { kind: "posted" } | { kind: "error"; error: CommentFormError };

const BODY_MAX = 4000;
const NAME_MAX = 60;

export const COMMENT_NAME_LABEL = "Your name (shown with your comment; leave empty if signed in)";
const REPLY_NAME_LABEL = "Your name (shown with your reply; leave empty if signed in)";

function NoticeLine({ notice, reply }: { notice: CommentNotice | null; reply: boolean }): ReactNode {
  if (!notice) return null;
  if (notice.kind === "posted") {
    return (
      <p role="status" className={styles.notice}>
        {reply ? REPLY_POSTED_NOTICE : COMMENT_POSTED_NOTICE}
      </p>
    );
  }
  return (
    <p role="alert" className={styles.error}>
      {COMMENT_FORM_ERRORS[notice.error]}
    </p>
  );
}

async function postComment(slug: string, fields: Record<string, unknown>): Promise<{ comment: CommentJson } | { status: number; error: CommentFormError }> {
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

type Props = {
  slug: string;
  /** The version shown: a new comment is made on it, and a plain post comes back to it. */
  version: number;
  policy: Exclude<CommentPolicy, "off">;
  /** Set for a reply: the comment it answers. */
  replyTo?: string;
  /** The passage chosen in the drop ("Comment on this"), sent with the comment; the main form only. */
  anchor?: CommentAnchor | null;
  onClearAnchor?: () => void;
  initialNotice?: CommentNotice | null;
  /** A guest's name, the same in every form of the panel. */
  guestName: string;
  onGuestName: (name: string) => void;
  onPosted: (comment: CommentJson) => void;
  bodyRef?: RefObject<HTMLTextAreaElement | null>;
};

export function CommentForm({ slug, version, policy, replyTo, anchor = null, onClearAnchor, initialNotice = null, guestName, onGuestName, onPosted, bodyRef }: Props) {
  const [notice, setNotice] = useState(initialNotice);
  const [pending, setPending] = useState(false);
  const reply = replyTo !== undefined;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const form = event.currentTarget;
    const fields: Record<string, unknown> = {};
    for (const [name, value] of new FormData(form)) if (typeof value === "string") fields[name] = value;
    if (anchor) fields.anchor = anchor;
    setPending(true);
    const result = await postComment(slug, fields);
    setPending(false);
    if ("comment" in result) {
      onPosted(result.comment);
      setNotice({ kind: "posted" });
      onClearAnchor?.();
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

  return (
    // Only the panel's own form is named: a named form is a landmark, and the replies' would all read alike.
    <form method="post" action={publicPath(slug, "comments")} className={styles.commentForm} onSubmit={onSubmit} aria-label={reply ? undefined : "Add a comment"}>
      <input type="hidden" name="v" value={version} />
      {reply ? <input type="hidden" name="reply_to" value={replyTo} /> : null}
      {anchor ? (
        <div className={styles.chosenPassage}>
          <p className={styles.note}>On the passage you selected:</p>
          <blockquote className={styles.quote} data-testid="chosen-passage">
            {anchor.exact}
          </blockquote>
          <button type="button" onClick={onClearAnchor}>
            Remove the passage
          </button>
        </div>
      ) : null}
      <label>
        {reply ? "Your reply" : `Comment on version ${version}`}
        <textarea ref={bodyRef} name="body" required maxLength={BODY_MAX} rows={reply ? 3 : 4} />
      </label>
      {reply || anchor ? null : (
        <label>
          Quote the passage you mean (optional)
          <textarea name="quote" maxLength={BODY_MAX} rows={2} />
        </label>
      )}
      {policy === "anyone" ? (
        <label>
          {reply ? REPLY_NAME_LABEL : COMMENT_NAME_LABEL}
          <input type="text" name="name" maxLength={NAME_MAX} autoComplete="nickname" value={guestName} onChange={(event) => onGuestName(event.target.value)} />
        </label>
      ) : reply ? null : (
        <p className={styles.note}>Sign in to comment — posting asks you to sign in.</p>
      )}
      <NoticeLine notice={notice} reply={reply} />
      <button type="submit" disabled={pending}>
        {pending ? "Posting…" : reply ? "Post reply" : "Post comment"}
      </button>
    </form>
  );
}
