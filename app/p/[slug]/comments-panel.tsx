"use client";

// The viewer's comments: the thread, a reply form under each comment, and the panel's form. The page is
// cached and the same for everyone, so nothing here depends on who is looking; every form works as a
// plain form post, and once this script runs, as JSON, adding the new comment without a reload. With
// the script, selecting text in the drop offers "Comment on this", and the passages of the shown
// version's comments are highlighted in the drop (./use-drop-frame.ts).
import { useRef, useState } from "react";
import { publicPath } from "@/lib/drops/public-urls";
import type { CommentAnchor } from "@/lib/schemas/comment-anchor";
import type { CommentJson } from "@/lib/schemas/comments";
import type { ViewerComments } from "@/lib/serving/viewer";
import { CommentForm, type CommentNotice } from "./comment-form";
import { useDropFrame, type AnchoredPassage, type DropFrame } from "./use-drop-frame";
import styles from "./viewer.module.css";

export type { CommentNotice };

type Props = {
  slug: string;
  /** The version shown: its comments come first, and a new comment is made on it. */
  version: number;
  comments: ViewerComments;
  notice: CommentNotice | null;
};

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

/** What every comment of the thread shares: the forms' settings and the drop's frame. */
type Thread = {
  slug: string;
  version: number;
  policy: ViewerComments["policy"];
  guestName: string;
  onGuestName: (name: string) => void;
  onPosted: (comment: CommentJson) => void;
  frame: DropFrame;
};

/** The passage a comment is anchored to, and, on its own version, whether the drop shows it highlighted. */
function Passage({ comment, thread }: { comment: CommentJson & { anchor: CommentAnchor }; thread: Thread }) {
  const { found, reveal } = thread.frame;
  const here = comment.version === thread.version && found !== null;
  return (
    <div className={styles.passage}>
      <blockquote className={styles.quote}>{comment.anchor.exact}</blockquote>
      {here && found.has(comment.id) ? (
        <button type="button" className={styles.showPassage} onClick={() => reveal(comment.id)}>
          Show the passage
        </button>
      ) : here ? (
        <span className={styles.versionMark}>passage not found on the page</span>
      ) : null}
    </div>
  );
}

function CommentItem({ node, thread, depth }: { node: Node; thread: Thread; depth: number }) {
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
          {comment.version !== thread.version ? <span className={styles.versionMark}>on version {comment.version}</span> : null}
          {answersEarlier ? <span className={styles.versionMark}>reply to a comment on an earlier page</span> : null}
          {comment.resolved_at !== undefined ? <span className={styles.resolvedMark}>Resolved</span> : null}
        </p>
        {comment.anchor !== undefined ? <Passage comment={{ ...comment, anchor: comment.anchor }} thread={thread} /> : null}
        {comment.quote !== undefined ? <blockquote className={styles.quote}>{comment.quote}</blockquote> : null}
        <p className={styles.commentBody}>{comment.body}</p>
        <details className={styles.reply}>
          <summary className={styles.replySummary}>Reply</summary>
          <CommentForm
            slug={thread.slug}
            version={thread.version}
            policy={thread.policy}
            replyTo={comment.id}
            guestName={thread.guestName}
            onGuestName={thread.onGuestName}
            onPosted={thread.onPosted}
          />
        </details>
      </article>
      {node.replies.length > 0 ? (
        <ol className={depth < 3 ? styles.replies : styles.repliesFlat} aria-label="Replies">
          {node.replies.map((reply) => (
            <CommentItem key={reply.comment.id} node={reply} thread={thread} depth={depth + 1} />
          ))}
        </ol>
      ) : null}
    </li>
  );
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

/** Room the floating button keeps inside the frame's box, in CSS px. */
const FLOAT_WIDTH = 180;
const FLOAT_HEIGHT = 40;

/** "Comment on this" under what is selected in the drop, kept inside the frame's box; or why it cannot be. */
function SelectionOffer({ frame, onChoose }: { frame: DropFrame; onChoose: (anchor: CommentAnchor) => void }) {
  const { selection } = frame;
  const element = frame.frame();
  if (selection === null || element === null) return null;
  const box = element.getBoundingClientRect();
  const { x, y, height } = selection.box;
  const top = box.top + window.scrollY + Math.min(Math.max(y + height + 6, 0), Math.max(box.height - FLOAT_HEIGHT, 0));
  const left = box.left + window.scrollX + Math.min(Math.max(x, 0), Math.max(box.width - FLOAT_WIDTH, 0));
  if ("tooLong" in selection) {
    return (
      <p role="status" className={styles.selectionNote} style={{ top, left }}>
        {selection.tooLong}
      </p>
    );
  }
  return (
    <button type="button" className={styles.commentOnThis} style={{ top, left }} onClick={() => onChoose(selection.anchor)}>
      Comment on this
    </button>
  );
}

export function CommentsPanel({ slug, version, comments, notice }: Props) {
  const [thread, setThread] = useState(comments.comments);
  const [posted, setPosted] = useState(0);
  const [guestName, setGuestName] = useState("");
  const [anchor, setAnchor] = useState<CommentAnchor | null>(null);
  // The selection last turned into a form's passage: its offer goes until something else is selected.
  const [taken, setTaken] = useState<unknown>(null);
  const panel = useRef<HTMLDetailsElement>(null);
  const body = useRef<HTMLTextAreaElement>(null);

  const passages: AnchoredPassage[] = thread.flatMap((comment) => (comment.anchor && comment.version === version ? [{ id: comment.id, ...comment.anchor }] : []));
  const frame = useDropFrame(passages);

  function onPosted(comment: CommentJson) {
    setThread((current) => [...current, comment]);
    setPosted((count) => count + 1);
  }

  function choose(chosen: CommentAnchor) {
    setAnchor(chosen);
    setTaken(frame.selection);
    if (panel.current) panel.current.open = true;
    body.current?.focus();
  }

  const context: Thread = { slug, version, policy: comments.policy, guestName, onGuestName: setGuestName, onPosted, frame };
  const nodes = threadOf(thread);
  return (
    <>
      {frame.selection !== taken ? <SelectionOffer frame={frame} onChoose={choose} /> : null}
      {/* Open as rendered; the script after it folds it on a phone (see DropView). React leaves `open` alone. */}
      <details id="comments" ref={panel} open className={styles.comments} suppressHydrationWarning>
        <summary className={styles.commentsSummary}>
          Comments <span className={styles.count}>({comments.total + posted})</span>
        </summary>
        <div className={styles.commentsBody}>
          {nodes.length === 0 ? (
            <p className={styles.empty}>No comments yet.</p>
          ) : (
            <ol className={styles.thread} aria-label="Comments">
              {nodes.map((node) => (
                <CommentItem key={node.comment.id} node={node} thread={context} depth={0} />
              ))}
            </ol>
          )}
          <PageLinks slug={slug} version={version} comments={comments} />
          <CommentForm
            slug={slug}
            version={version}
            policy={comments.policy}
            anchor={anchor}
            onClearAnchor={() => setAnchor(null)}
            initialNotice={notice}
            guestName={guestName}
            onGuestName={setGuestName}
            onPosted={onPosted}
            bodyRef={body}
          />
        </div>
      </details>
    </>
  );
}
