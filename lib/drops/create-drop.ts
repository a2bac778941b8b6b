import { getDefaultCommentPolicy } from "@/lib/accounts/comment-default";
import { getConfig } from "@/lib/config";
import { now } from "@/lib/clock";
import { isUniqueViolation, transaction } from "@/lib/db";
import { prepareBlob, storeBlob } from "@/lib/blobs";
import { ApiError } from "@/lib/errors";
import { assertWriteAllowed, assertWriteBudgetLeft } from "@/lib/ratelimit";
import type { CreateDropInput, DropJson } from "@/lib/schemas/drops";
import { hashPasscode } from "@/lib/security/passcodes";
import { newId, newSlug } from "@/lib/security/random";
import { assertAccessAllowed, normalizeDescription, tagRows } from "./access";
import { resolveExpiry } from "./expiry";
import { findReplay, hasRecordedResponse, recordResponse, requestFingerprint, type Replay } from "./idempotency";
import { toDropJson } from "./serialize";
import { recordEvent } from "@/lib/events/record";

export type CreateDropResult = { status: number; body: DropJson; replayed: boolean };

/**
 * Before the body is read: a spent write budget refuses a create at once, except a repeat under an
 * idempotency key that may replay its first response (replays are not writes).
 */
export async function assertCreateBudgetLeft(userId: string, idempotencyKey?: string): Promise<void> {
  if (idempotencyKey && (await hasRecordedResponse(userId, idempotencyKey))) return;
  await assertWriteBudgetLeft(userId);
}

/**
 * Creates a drop with version 1. With an idempotency key, a repeat of the same request within 24 hours
 * returns the first response instead of creating a second drop.
 */
export async function createDrop(userId: string, input: CreateDropInput, idempotencyKey?: string): Promise<CreateDropResult> {
  const fingerprint = idempotencyKey ? requestFingerprint(input) : "";
  if (idempotencyKey) {
    const replay = await findReplay(userId, idempotencyKey, fingerprint);
    if (replay) return asResult(replay, true);
  }
  const expiresAt = resolveExpiry(input, now()) ?? null;
  assertAccessAllowed(input.access);
  await assertWriteAllowed(userId);
  const { limits, sharing } = getConfig();
  // Hashing and planning are slow: do them before the transaction holds any lock.
  const passcodeHash = input.passcode ? await hashPasscode(input.passcode) : null;
  const prepared = await prepareBlob(input.html, userId);
  const commentPolicy = input.comments ?? (await getDefaultCommentPolicy(userId));
  try {
    const body = await transaction(async (tx) => {
      const reserved = await tx.user.updateMany({ where: { id: userId, dropCount: { lt: limits.dropsPerAccount } }, data: { dropCount: { increment: 1 } } });
      if (reserved.count === 0) {
        throw new ApiError("quota_exceeded", `This account has reached its limit of ${limits.dropsPerAccount} drops; delete some to make room.`, {
          limit: limits.dropsPerAccount,
          retry_after_seconds: 3600,
        });
      }
      const blob = await storeBlob(tx, prepared);
      const createdAt = new Date(now());
      const drop = await tx.drop.create({
        data: {
          id: newId(),
          slug: newSlug(),
          ownerId: userId,
          title: input.title,
          description: normalizeDescription(input.description) ?? null,
          passcodeHash,
          latestVersion: 1,
          versionSeq: 1,
          versionCount: 1,
          expiresAt,
          indexable: input.indexable ?? false,
          commentPolicy,
          access: input.access ?? sharing.defaultAccess,
          createdAt,
          updatedAt: createdAt,
          versions: { create: { id: newId(), number: 1, blobSha: blob.sha256, sizeBytes: blob.sizeBytes, context: input.context || null, createdAt } },
          tags: { create: tagRows(userId, input.metadata ?? {}) },
        },
        include: { tags: true },
      });
      const json = toDropJson(drop);
      // The new row is the drop as this transaction leaves it: no need to read it again at the end.
      recordEvent(tx, { type: "drop.created", ownerId: userId, dropId: drop.id, data: { drop: json } });
      if (idempotencyKey) await recordResponse(tx, userId, idempotencyKey, fingerprint, { status: 201, body: json });
      return json;
    });
    return { status: 201, body, replayed: false };
  } catch (error) {
    if (idempotencyKey && isUniqueViolation(error)) {
      const replay = await findReplay(userId, idempotencyKey, fingerprint);
      if (replay) return asResult(replay, true);
    }
    throw error;
  }
}

function asResult(replay: Replay, replayed: boolean): CreateDropResult {
  return { status: replay.status, body: replay.body as DropJson, replayed };
}
