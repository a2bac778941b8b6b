import { now } from "@/lib/clock";
import { db, type Tx } from "@/lib/db";
import { ApiError } from "@/lib/errors";
import { idempotencyKeySchema, type CreateDropInput } from "@/lib/schemas/drops";
import { hashSecret } from "@/lib/security/tokens";

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

export type Replay = { status: number; body: unknown };

export function assertIdempotencyKey(key: string): void {
  if (!idempotencyKeySchema.safeParse(key).success) {
    throw new ApiError("invalid_arg", "Idempotency-Key must be 1 to 255 visible ASCII characters.", {
      fields: [{ field: "Idempotency-Key", message: "1 to 255 visible ASCII characters" }],
    });
  }
}

/**
 * What makes two creates the same request. Keyed (like tokens), because it covers the passcode;
 * metadata sorted, because key order carries no meaning.
 */
export function requestFingerprint(input: CreateDropInput): string {
  const metadata = Object.entries(input.metadata ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return hashSecret(JSON.stringify([input.title, input.description ?? null, input.html, input.passcode ?? null, input.context ?? null, metadata]));
}

/**
 * The response of an earlier request with this key, if it was made within the window. The same key
 * with a different request is refused: replaying would silently drop the new content.
 */
export async function findReplay(userId: string, key: string, fingerprint: string): Promise<Replay | null> {
  const row = await db().idempotencyKey.findUnique({ where: { userId_key: { userId, key } } });
  if (!row || row.createdAt.getTime() <= now() - IDEMPOTENCY_WINDOW_MS) return null;
  if (row.requestHash !== fingerprint) {
    const message = "This Idempotency-Key was used in the last 24 hours for a different request; send a new key for new content.";
    throw new ApiError("invalid_arg", message, { fields: [{ field: "Idempotency-Key", message: "already used for a different request" }] });
  }
  return { status: row.status, body: JSON.parse(row.body) };
}

/** Whether a response was recorded under this key within the window, whatever request it answered. */
export async function hasRecordedResponse(userId: string, key: string): Promise<boolean> {
  const row = await db().idempotencyKey.findUnique({ where: { userId_key: { userId, key } }, select: { createdAt: true } });
  return row !== null && row.createdAt.getTime() > now() - IDEMPOTENCY_WINDOW_MS;
}

/** Records a response in the transaction that produced it; a concurrent twin fails on the primary key. */
export async function recordResponse(tx: Tx, userId: string, key: string, fingerprint: string, replay: Replay): Promise<void> {
  const at = now();
  await tx.idempotencyKey.deleteMany({ where: { createdAt: { lte: new Date(at - IDEMPOTENCY_WINDOW_MS) }, userId } });
  await tx.idempotencyKey.create({
    data: { userId, key, requestHash: fingerprint, status: replay.status, body: JSON.stringify(replay.body), createdAt: new Date(at) },
  });
}
