// An account's default for who may comment on the drops it creates without saying (issue 31). It starts
// "off", the spec's and README's behaviour, so a client written against the spec sees no comments unless
// the account's owner chose otherwise on the dashboard's account page.
import { db } from "@/lib/db";
import { assertWriteAllowed } from "@/lib/ratelimit";
import type { CommentPolicy } from "@/lib/schemas/comments";

export async function getDefaultCommentPolicy(userId: string): Promise<CommentPolicy> {
  const user = await db().user.findUnique({ where: { id: userId }, select: { defaultCommentPolicy: true } });
  return (user?.defaultCommentPolicy ?? "off") as CommentPolicy;
}

/** A change to the account is a write like any other. */
export async function setDefaultCommentPolicy(userId: string, policy: CommentPolicy): Promise<void> {
  await assertWriteAllowed(userId);
  await db().user.update({ where: { id: userId }, data: { defaultCommentPolicy: policy } });
}
