// Comments on drops: what viewers post under the drop's policy, and what the owner (REST, MCP and the
// dashboard) reads, answers, resolves and deletes. Every comment write bumps the drop's revision, so
// the viewer page cached for it (lib/serving/cached-pages.ts) is rendered again with the thread.
import { now } from "@/lib/clock";
import { db, type Tx } from "@/lib/db";
import { getOwnedDrop } from "@/lib/drops/access";
import { isExpired } from "@/lib/drops/expiry";
import { ApiError } from "@/lib/errors";
import { assertRateLimit } from "@/lib/ratelimit";
import type { CommentJson, CommentListJson, CommentPolicy, CreateCommentInput, ListCommentsQuery, ViewerCommentForm } from "@/lib/schemas/comments";
import { SLUG_PATTERN } from "@/lib/schemas/common";
import { newId } from "@/lib/security/random";
import { expireDropPages } from "@/lib/serving/shared-pages";

/** Beyond this a drop takes no more comments: the owner deletes some, or turns comments off. */
export const COMMENTS_PER_DROP_MAX = 1000;

type CommentRow = {
  id: string;
  version: number;
  body: string;
  quote: string | null;
  authorKind: string;
  authorName: string;
  replyToId: string | null;
  createdAt: Date;
  resolvedAt: Date | null;
};

export function toCommentJson(row: CommentRow): CommentJson {
  return {
    id: row.id,
    version: row.version,
    body: row.body,
    ...(row.quote !== null ? { quote: row.quote } : {}),
    author: { name: row.authorName, kind: row.authorKind as CommentJson["author"]["kind"] },
    created_at: row.createdAt.getTime(),
    ...(row.resolvedAt !== null ? { resolved_at: row.resolvedAt.getTime() } : {}),
    ...(row.replyToId !== null ? { reply_to: row.replyToId } : {}),
  };
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

function commentsChanged(tx: Tx, dropId: string) {
  return tx.drop.update({ where: { id: dropId }, data: { revision: { increment: 1 } } });
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
  const drop = await getOwnedDrop(userId, slug);
  const where = {
    dropId: drop.id,
    // Open means waiting for the owner: the owner's own comments and replies never are.
    ...(query.status === "open" ? { resolvedAt: null, NOT: { authorKind: "owner" } } : query.status === "resolved" ? { resolvedAt: { not: null } } : {}),
    ...(query.since !== undefined ? { createdAt: { gt: new Date(query.since) } } : {}),
    ...(query.version !== undefined ? { version: query.version } : {}),
  };
  const [totalItems, rows] = await Promise.all([
    db().comment.count({ where }),
    db().comment.findMany({ where, orderBy: [{ createdAt: "asc" }, { id: "asc" }], skip: (query.page - 1) * query.pageSize, take: query.pageSize }),
  ]);
  return {
    data: rows.map(toCommentJson),
    pagination: { page: query.page, page_size: query.pageSize, total_items: totalItems, total_pages: Math.ceil(totalItems / query.pageSize) },
  };
}

/** The owner's own comment or reply (REST POST, MCP reply_to_comment, the dashboard), signed as the owner. */
export async function postOwnerComment(userId: string, slug: string, input: CreateCommentInput): Promise<CommentJson> {
  const drop = await getOwnedDrop(userId, slug);
  // Not the write quota: answering comments must not cost the budget for publishing.
  await assertRateLimit("commentsPerAccount", userId);
  const authorName = await ownerName(userId);
  return insertComment(drop, slug, { ...input, author: { kind: "owner", name: authorName, userId } });
}

type NewComment = {
  body: string;
  quote?: string;
  reply_to?: string;
  /** Default: the version of the comment answered, else the latest. */
  version?: number;
  author: { kind: CommentJson["author"]["kind"]; name: string; userId: string | null };
};

/** Writes one comment, within the drop's cap, on a version the drop has, answering one of its comments. */
async function insertComment(drop: { id: string; latestVersion: number }, slug: string, comment: NewComment): Promise<CommentJson> {
  const created = await db().$transaction(async (tx) => {
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
        authorKind: comment.author.kind,
        authorName: comment.author.name,
        authorUserId: comment.author.userId,
        replyToId: answered?.id ?? null,
        createdAt: new Date(now()),
      },
    });
    await commentsChanged(tx, drop.id);
    return row;
  });
  expireDropPages(slug);
  return toCommentJson(created);
}

export async function setCommentResolved(userId: string, slug: string, id: string, resolved: boolean): Promise<CommentJson> {
  const drop = await getOwnedDrop(userId, slug);
  const updated = await db().$transaction(async (tx) => {
    const comment = await findComment(drop.id, slug, id, tx);
    // Resolving twice keeps the first moment.
    const resolvedAt = resolved ? (comment.resolvedAt ?? new Date(now())) : null;
    const row = await tx.comment.update({ where: { id: comment.id }, data: { resolvedAt } });
    await commentsChanged(tx, drop.id);
    return row;
  });
  expireDropPages(slug);
  return toCommentJson(updated);
}

/** Moderation: the owner deletes any comment; replies to it stay, no longer answering anything shown. */
export async function deleteComment(userId: string, slug: string, id: string): Promise<void> {
  const drop = await getOwnedDrop(userId, slug);
  await db().$transaction(async (tx) => {
    const comment = await findComment(drop.id, slug, id, tx);
    await tx.comment.delete({ where: { id: comment.id } });
    await tx.comment.updateMany({ where: { dropId: drop.id, replyToId: comment.id }, data: { replyToId: null } });
    await commentsChanged(tx, drop.id);
  });
  expireDropPages(slug);
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
  await tx.comment.createMany({
    data: unique.map((id) => ({
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
    })),
  });
}

export type CommentAuthor = { kind: "owner" | "account"; userId: string; name: string } | { kind: "guest" };

export type ViewerComment = {
  slug: string;
  form: ViewerCommentForm;
  /** The signed-in account posting, if any (the viewer page's session). */
  sessionUserId: string | null;
  /** Whether the browser holds a valid unlock for the drop (ignored for a drop without a passcode). */
  unlocked: (passcodeHash: string) => boolean;
  /** The client's address, for the per-client limit. */
  client: string;
};

/** What the viewer page's form posts: checked against the drop's policy, lock, expiry and limits. */
export async function postViewerComment({ slug, form, sessionUserId, unlocked, client }: ViewerComment): Promise<CommentJson> {
  if (!SLUG_PATTERN.test(slug)) throw new ApiError("not_found", "There is no drop at this address.");
  const drop = await db().drop.findUnique({
    where: { slug },
    select: { id: true, ownerId: true, latestVersion: true, passcodeHash: true, expiresAt: true, commentPolicy: true, owner: { select: { login: true } } },
  });
  if (!drop || isExpired(drop.expiresAt, now())) throw new ApiError("not_found", "There is no drop at this address.");
  if (drop.passcodeHash !== null && !unlocked(drop.passcodeHash)) throw new ApiError("forbidden", "This drop is locked: unlock it to read and post comments.");
  const policy = drop.commentPolicy as CommentPolicy;
  if (policy === "off") throw new ApiError("forbidden", "Comments are off for this drop.");
  const author = await viewerAuthor(drop, policy, sessionUserId, form.name);
  if (author.kind === "guest") await assertRateLimit("commentsPerGuest", client);
  else if (author.kind === "account") await assertRateLimit("commentsPerAccount", author.userId);
  if (author.kind !== "owner") await assertRateLimit("commentsPerDrop", slug);

  return insertComment(drop, slug, {
    body: form.body,
    quote: form.quote,
    reply_to: form.reply_to,
    version: form.v,
    author: author.kind === "guest" ? { kind: "guest", name: form.name!, userId: null } : author,
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
  if (guestName === undefined) throw new ApiError("invalid_arg", "Give a name to comment as a guest.", { field: "name" });
  // The owner's badge already tells them apart; their name is not free to take either.
  const ownerLogin = drop.owner.login?.trim().toLowerCase();
  if (ownerLogin && guestName.trim().toLowerCase() === ownerLogin) {
    throw new ApiError("invalid_arg", "That name is the drop owner's; choose another.", { field: "name", reason: "owner_name" });
  }
  return { kind: "guest" };
}

/** A drop's thread as the viewer shows it: every comment, oldest first. */
export async function viewerThread(dropId: string): Promise<CommentJson[]> {
  const rows = await db().comment.findMany({ where: { dropId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], take: COMMENTS_PER_DROP_MAX });
  return rows.map(toCommentJson);
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
