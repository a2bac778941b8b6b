// Comments on drops: what viewers post under the drop's policy, and what the owner (REST, MCP and the
// dashboard) reads, answers, resolves and deletes. Every comment write announces the drop's change
// (lib/drops/changed.ts), so the viewer page cached for it is rendered again with the thread.
import { now } from "@/lib/clock";
import { db, type Tx, transaction } from "@/lib/db";
import { getDropFor } from "@/lib/drops/access";
import { decideAccess, dropStateOf, type PasscodeUnlock, type Viewer } from "@/lib/drops/access-decision";
import { standingOn } from "@/lib/sharing/standing";
import { ApiError } from "@/lib/errors";
import { assertRateLimit } from "@/lib/ratelimit";
import { COMMENT_LIMITS, type CommentJson, type CommentListJson, type CommentPolicy, type CreateCommentInput, type ListCommentsQuery, type ViewerCommentForm } from "@/lib/schemas/comments";
import type { CommentAnchor } from "@/lib/schemas/comment-anchor";
import { charLength } from "@/lib/schemas/common";
import { newId } from "@/lib/security/random";
import { dropChanged } from "@/lib/drops/changed";
import { routeAt } from "@/lib/drops/public-urls";
import { recordDropEvent } from "@/lib/events/record";
import { looksLike, normalizeGuestName } from "./guest-names";

/** Beyond this a drop takes no more comments: the owner deletes some, or turns comments off. */
export const COMMENTS_PER_DROP_MAX = 1000;

type CommentRow = {
  id: string;
  version: number;
  body: string;
  quote: string | null;
  anchorExact: string | null;
  anchorPrefix: string | null;
  anchorSuffix: string | null;
  authorKind: string;
  authorName: string;
  replyToId: string | null;
  createdAt: Date;
  resolvedAt: Date | null;
  seq: number | null;
};

/** The anchor as it was sent: a prefix or suffix left out stays out, an empty one stays empty. */
function anchorJson(exact: string, prefix: string | null, suffix: string | null): CommentAnchor {
  return { exact, ...(prefix !== null ? { prefix } : {}), ...(suffix !== null ? { suffix } : {}) };
}

export function toCommentJson(row: CommentRow): CommentJson {
  return {
    id: row.id,
    version: row.version,
    body: row.body,
    ...(row.quote !== null ? { quote: row.quote } : {}),
    ...(row.anchorExact !== null ? { anchor: anchorJson(row.anchorExact, row.anchorPrefix, row.anchorSuffix) } : {}),
    author: { name: row.authorName, kind: row.authorKind as CommentJson["author"]["kind"] },
    created_at: row.createdAt.getTime(),
    ...(row.resolvedAt !== null ? { resolved_at: row.resolvedAt.getTime() } : {}),
    ...(row.replyToId !== null ? { reply_to: row.replyToId } : {}),
    ...(row.seq !== null ? { cursor: row.seq } : {}),
  };
}

/**
 * A new comment's event; its id becomes the comment's cursor, in the row, the event's payload and `json`
 * (what the caller answers with).
 */
function recordCommentCreated(tx: Tx, dropId: string, json: CommentJson): void {
  recordDropEvent(tx, "comment.created", dropId, { comment: json }, async (tx, cursor) => {
    json.cursor = cursor;
    await tx.comment.update({ where: { id: json.id }, data: { seq: cursor } });
  });
}

/** What the owner's own comments are signed with: their login, as every page shows it. */
async function ownerName(userId: string, client: Tx = db()): Promise<string> {
  const user = await client.user.findUnique({ where: { id: userId }, select: { login: true } });
  return user?.login ?? "owner";
}

async function findComment(dropId: string, slug: string, id: string, client: Tx = db()) {
  const comment = await client.comment.findFirst({ where: { id, dropId } });
  if (!comment) throw new ApiError("not_found", `Drop ${slug} has no comment ${id}.`);
  return comment;
}

async function assertRoomForComment(tx: Tx, dropId: string, slug: string): Promise<void> {
  if ((await tx.comment.count({ where: { dropId } })) >= COMMENTS_PER_DROP_MAX) {
    throw new ApiError("quota_exceeded", `Drop ${slug} has reached its limit of ${COMMENTS_PER_DROP_MAX} comments; its owner can delete some.`, {
      limit: COMMENTS_PER_DROP_MAX,
      retry_after_seconds: 3600,
    });
  }
}

/** The owner's comments, oldest first, filtered as GET /api/drops/{slug}/comments asks. */
export async function listComments(userId: string, slug: string, query: ListCommentsQuery): Promise<CommentListJson> {
  const drop = await getDropFor(userId, slug, "owner");
  const where = {
    dropId: drop.id,
    // Open means waiting for the owner: the owner's own comments and replies never are.
    ...(query.status === "open" ? { resolvedAt: null, NOT: { authorKind: "owner" } } : query.status === "resolved" ? { resolvedAt: { not: null } } : {}),
    ...(query.since !== undefined ? { createdAt: { gt: new Date(query.since) } } : {}),
    ...(query.after !== undefined ? { seq: { gt: query.after } } : {}),
    ...(query.version !== undefined ? { version: query.version } : {}),
  };
  const [totalItems, rows] = await Promise.all([
    db().comment.count({ where }),
    db().comment.findMany({
      where,
      orderBy: query.after !== undefined ? [{ seq: "asc" }] : [{ createdAt: "asc" }, { id: "asc" }],
      skip: (query.page - 1) * query.pageSize, take: query.pageSize }),
  ]);
  return {
    data: rows.map(toCommentJson),
    pagination: { page: query.page, page_size: query.pageSize, total_items: totalItems, total_pages: Math.ceil(totalItems / query.pageSize) },
  };
}

/** The owner's own comment or reply (REST POST, MCP reply_to_comment, the dashboard), signed as the owner. */
export async function postOwnerComment(userId: string, slug: string, input: CreateCommentInput): Promise<CommentJson> {
  const drop = await getDropFor(userId, slug, "owner");
  // Not the write quota: answering comments must not cost the budget for publishing.
  await assertRateLimit("commentsPerAccount", userId);
  const authorName = await ownerName(userId);
  return insertComment(drop, slug, { ...input, author: { kind: "owner", name: authorName, userId } });
}

type NewComment = {
  body: string;
  quote?: string;
  anchor?: CommentAnchor;
  reply_to?: string;
  /** Default: the version of the comment answered, else the latest. */
  version?: number;
  author: { kind: CommentJson["author"]["kind"]; name: string; userId: string | null };
};

/** Writes one comment, within the drop's cap, on a version the drop has, answering one of its comments. */
async function insertComment(drop: { id: string; latestVersion: number }, slug: string, comment: NewComment): Promise<CommentJson> {
  const created = await transaction(async (tx) => {
    await assertRoomForComment(tx, drop.id, slug);
    const answered = comment.reply_to ? await findComment(drop.id, slug, comment.reply_to, tx) : null;
    const version = comment.version ?? answered?.version ?? drop.latestVersion;
    if (!(await tx.version.findUnique({ where: { dropId_number: { dropId: drop.id, number: version } }, select: { id: true } }))) {
      throw new ApiError("version_not_found", `Drop ${slug} has no version ${version}.`);
    }
    const row = await tx.comment.create({
      data: {
        id: newId(),
        dropId: drop.id,
        version,
        body: comment.body,
        quote: comment.quote ?? null,
        anchorExact: comment.anchor?.exact ?? null,
        anchorPrefix: comment.anchor?.prefix ?? null,
        anchorSuffix: comment.anchor?.suffix ?? null,
        authorKind: comment.author.kind,
        authorName: comment.author.name,
        authorUserId: comment.author.userId,
        replyToId: answered?.id ?? null,
        createdAt: new Date(now()),
      },
    });
    await dropChanged(tx, { id: drop.id, slug });
    const json = toCommentJson(row);
    recordCommentCreated(tx, drop.id, json);
    return json;
  });
  return created;
}

export async function setCommentResolved(userId: string, slug: string, id: string, resolved: boolean): Promise<CommentJson> {
  const drop = await getDropFor(userId, slug, "owner");
  const updated = await transaction(async (tx) => {
    const comment = await findComment(drop.id, slug, id, tx);
    // Resolving twice keeps the first moment.
    const resolvedAt = resolved ? (comment.resolvedAt ?? new Date(now())) : null;
    const row = await tx.comment.update({ where: { id: comment.id }, data: { resolvedAt } });
    await dropChanged(tx, drop);
    if (resolved && comment.resolvedAt === null) recordDropEvent(tx, "comment.resolved", drop.id, { comment: toCommentJson(row) });
    return row;
  });
  return toCommentJson(updated);
}

/** Moderation: the owner deletes any comment; replies to it stay, no longer answering anything shown. */
export async function deleteComment(userId: string, slug: string, id: string): Promise<void> {
  const drop = await getDropFor(userId, slug, "owner");
  await transaction(async (tx) => {
    const comment = await findComment(drop.id, slug, id, tx);
    await tx.comment.delete({ where: { id: comment.id } });
    await tx.comment.updateMany({ where: { dropId: drop.id, replyToId: comment.id }, data: { replyToId: null } });
    await dropChanged(tx, drop);
  });
}

/**
 * Inside a PUT's transaction: resolves each listed comment with the owner's reply naming the new
 * version. Every id must be one of this drop's comments, or the PUT fails and nothing is written.
 */
export async function resolveWithVersion(tx: Tx, drop: { id: string; ownerId: string; slug: string }, ids: readonly string[], version: number, at: Date): Promise<void> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return;
  const found = await tx.comment.findMany({ where: { dropId: drop.id, id: { in: unique } }, select: { id: true, resolvedAt: true } });
  const missing = unique.filter((id) => !found.some((comment) => comment.id === id));
  if (missing.length > 0) throw new ApiError("invalid_arg", `resolves names comments drop ${drop.slug} does not have: ${missing.join(", ")}.`, { field: "resolves", unknown: missing });
  if ((await tx.comment.count({ where: { dropId: drop.id } })) + unique.length > COMMENTS_PER_DROP_MAX) {
    throw new ApiError("quota_exceeded", `Drop ${drop.slug} has no room for ${unique.length} more comments (at most ${COMMENTS_PER_DROP_MAX}); delete some first.`, {
      limit: COMMENTS_PER_DROP_MAX,
      retry_after_seconds: 3600,
    });
  }
  const name = await ownerName(drop.ownerId, tx);
  await tx.comment.updateMany({ where: { id: { in: unique }, resolvedAt: null }, data: { resolvedAt: at } });
  const nowResolved = await tx.comment.findMany({ where: { id: { in: found.filter((comment) => comment.resolvedAt === null).map((comment) => comment.id) } } });
  for (const comment of nowResolved) recordDropEvent(tx, "comment.resolved", drop.id, { comment: toCommentJson(comment) });
  const replies = unique.map((id) => ({
      id: newId(),
      dropId: drop.id,
      version,
      body: `Resolved in version ${version}.`,
      quote: null,
      authorKind: "owner",
      authorName: name,
      authorUserId: drop.ownerId,
      replyToId: id,
      createdAt: at,
      resolvedAt: null,
    }));
  await tx.comment.createMany({ data: replies });
  for (const reply of replies) recordCommentCreated(tx, drop.id, toCommentJson({ ...reply, anchorExact: null, anchorPrefix: null, anchorSuffix: null, seq: null }));
}

export type CommentAuthor = { kind: "owner" | "account"; userId: string; name: string } | { kind: "guest"; name: string };

export type ViewerComment = {
  slug: string;
  form: ViewerCommentForm;
  /** The signed-in account posting, if any (the viewer page's session). */
  sessionUserId: string | null;
  /** The browser's proof that it knows the drop's passcode, if it holds one (null for a drop without a passcode). */
  unlockOf: (passcodeHash: string | null) => PasscodeUnlock | null;
  /** The client's address, for the per-client limit. */
  client: string;
};

/** What the viewer page's form posts: checked against the drop's policy, lock, expiry and limits. */
export async function postViewerComment({ slug, form, sessionUserId, unlockOf, client }: ViewerComment): Promise<CommentJson> {
  const path = routeAt("comments", slug);
  const drop =
    path.slug === null
      ? null
      : await db().drop.findUnique({
          where: { slug },
          select: { id: true, ownerId: true, access: true, latestVersion: true, passcodeHash: true, expiresAt: true, indexable: true, commentPolicy: true, owner: { select: { login: true } } },
        });
  const unlock = unlockOf(drop?.passcodeHash ?? null);
  const viewer: Viewer =
    drop !== null && sessionUserId !== null ? { kind: "account", accountId: sessionUserId, standing: await standingOn(drop, sessionUserId), unlock } : { kind: "anonymous", unlock };
  const state = drop && dropStateOf(drop);
  const decision = decideAccess(path, state, viewer, now());
  if (decision.answer === "gate") throw new ApiError("forbidden", "This drop is locked: unlock it to read and post comments.");
  if (decision.answer !== "serve" || drop === null) throw new ApiError("not_found", "There is no drop at this address.");
  const policy = drop.commentPolicy as CommentPolicy;
  if (policy === "off") throw new ApiError("forbidden", "Comments are off for this drop.");
  const author = await viewerAuthor(drop, policy, sessionUserId, form.name);
  if (author.kind === "guest") await assertRateLimit("commentsPerGuest", client);
  else if (author.kind === "account") await assertRateLimit("commentsPerAccount", author.userId);
  if (author.kind !== "owner") await assertRateLimit("commentsPerDrop", slug);

  return insertComment(drop, slug, {
    body: form.body,
    quote: form.quote,
    anchor: form.anchor,
    reply_to: form.reply_to,
    // A reply joins the version of the comment it answers, whichever version the page shows.
    version: form.reply_to === undefined ? form.v : undefined,
    author: author.kind === "guest" ? { kind: "guest", name: author.name, userId: null } : author,
  });
}

async function viewerAuthor(
  drop: { ownerId: string; owner: { login: string | null } },
  policy: CommentPolicy,
  sessionUserId: string | null,
  guestName: string | undefined,
): Promise<CommentAuthor> {
  if (sessionUserId !== null) {
    const user = await db().user.findUnique({ where: { id: sessionUserId }, select: { login: true } });
    if (user) return { kind: sessionUserId === drop.ownerId ? "owner" : "account", userId: sessionUserId, name: user.login ?? "account" };
  }
  if (policy === "signed_in") throw new ApiError("unauthorized", "Sign in to comment on this drop.");
  const name = guestName === undefined ? "" : normalizeGuestName(guestName);
  if (name === "") throw new ApiError("invalid_arg", "Give a name to comment as a guest.", { field: "name" });
  // NFKC can lengthen a name (one ligature becomes several letters): the limit holds for what is shown.
  if (charLength(name) > COMMENT_LIMITS.nameMaxChars) {
    throw new ApiError("invalid_arg", `Invalid arguments: name: name is at most ${COMMENT_LIMITS.nameMaxChars} characters`, { field: "name" });
  }
  // The owner's badge already tells them apart; their name, or one that reads like it, is not free to take either.
  if (drop.owner.login && looksLike(name, drop.owner.login)) {
    throw new ApiError("invalid_arg", "That name is, or looks like, the drop owner's; choose another.", { field: "name", reason: "owner_name" });
  }
  return { kind: "guest", name };
}

/**
 * Comments the viewer page shows at once; the rest are pages away (`?comments_page=N`). A full thread
 * at its limits made a 64 MB page that every view rendered again: a view's cost must not grow with it.
 */
export const VIEWER_COMMENTS_PER_PAGE = 20;

/** `first`: the position in the thread (from 1) of the page's first comment. */
export type ViewerThreadPage = { comments: CommentJson[]; total: number; page: number; pages: number; first: number };

/**
 * The thread's comment ids in the viewer's order: the shown version's comments first, then other
 * versions' (newest version first), each followed by its replies, oldest first. Reads no text.
 */
async function viewerOrder(dropId: string, version: number): Promise<string[]> {
  const rows = await db().comment.findMany({
    where: { dropId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, replyToId: true, version: true },
    take: COMMENTS_PER_DROP_MAX,
  });
  const ids = new Set(rows.map((row) => row.id));
  const replies = new Map<string, typeof rows>();
  const top: typeof rows = [];
  for (const row of rows) {
    // A reply always answers an older comment, so parents never loop; a deleted parent leaves it on top.
    if (row.replyToId !== null && ids.has(row.replyToId)) replies.set(row.replyToId, [...(replies.get(row.replyToId) ?? []), row]);
    else top.push(row);
  }
  const roots = [...top.filter((row) => row.version === version), ...top.filter((row) => row.version !== version).sort((a, b) => b.version - a.version)];
  // Depth first without recursion: a chain of replies may be as long as the thread.
  const order: string[] = [];
  const stack = roots.reverse();
  for (let row = stack.pop(); row; row = stack.pop()) {
    order.push(row.id);
    stack.push(...[...(replies.get(row.id) ?? [])].reverse());
  }
  return order;
}

/** One page of a drop's thread as the viewer shows it with `version`; a page past the last is the last. */
export async function viewerThreadPage(dropId: string, version: number, page: number): Promise<ViewerThreadPage> {
  const order = await viewerOrder(dropId, version);
  const pages = Math.max(1, Math.ceil(order.length / VIEWER_COMMENTS_PER_PAGE));
  const current = Math.min(page, pages);
  const ids = order.slice((current - 1) * VIEWER_COMMENTS_PER_PAGE, current * VIEWER_COMMENTS_PER_PAGE);
  const rows = new Map((await db().comment.findMany({ where: { id: { in: ids } } })).map((row) => [row.id, toCommentJson(row)]));
  return { comments: ids.flatMap((id) => rows.get(id) ?? []), total: order.length, page: current, pages, first: (current - 1) * VIEWER_COMMENTS_PER_PAGE + 1 };
}

/** The page of the thread, as the viewer shows it with version `shown`, where a plain form post sends its author back. */
export async function viewerPageOfComment(slug: string, comment: CommentJson, shown: number): Promise<number> {
  const drop = await db().drop.findUnique({ where: { slug }, select: { id: true } });
  const index = drop ? (await viewerOrder(drop.id, shown)).indexOf(comment.id) : -1;
  return index < 0 ? 1 : Math.floor(index / VIEWER_COMMENTS_PER_PAGE) + 1;
}

export type OpenComment = CommentJson & { slug: string; title: string };

/** The dashboard's inbox: open comments on every drop of the account, newest first. */
export async function listOpenCommentsOfAccount(userId: string, page: { page: number; pageSize: number }): Promise<{ data: OpenComment[]; totalItems: number }> {
  const where = { resolvedAt: null, drop: { ownerId: userId }, NOT: { authorKind: "owner" } };
  const [totalItems, rows] = await Promise.all([
    db().comment.count({ where }),
    db().comment.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (page.page - 1) * page.pageSize,
      take: page.pageSize,
      include: { drop: { select: { slug: true, title: true } } },
    }),
  ]);
  return { data: rows.map((row) => ({ ...toCommentJson(row), slug: row.drop.slug, title: row.drop.title })), totalItems };
}
