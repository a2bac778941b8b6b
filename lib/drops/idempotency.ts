import { now } from "@/lib/clock";
import { db, type Tx } from "@/lib/db";
import { ApiError } from "@/lib/errors";
import { idempotencyKeySchema } from "@/lib/schemas/drops";

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

export type Replay = { status: number; body: unknown };

export function assertIdempotencyKey(key: string): void {
  if (!idempotencyKeySchema.safeParse(key).success) {
    throw new ApiError("invalid_arg", "Idempotency-Key must be 1 to 255 visible ASCII characters.", {
      fields: [{ field: "Idempotency-Key", message: "1 to 255 visible ASCII characters" }],
    });
  }
}

/** The response of an earlier request with this key, if it was made within the window. */
export async function findReplay(userId: string, key: string): Promise<Replay | null> {
  const row = await db().idempotencyKey.findUnique({ where: { userId_key: { userId, key } } });
  if (!row || row.createdAt.getTime() <= now() - IDEMPOTENCY_WINDOW_MS) return null;
  return { status: row.status, body: JSON.parse(row.body) };
}

/** Records a response in the transaction that produced it; a concurrent twin fails on the primary key. */
export async function recordResponse(tx: Tx, userId: string, key: string, replay: Replay): Promise<void> {
  const at = now();
  await tx.idempotencyKey.deleteMany({ where: { createdAt: { lte: new Date(at - IDEMPOTENCY_WINDOW_MS) }, userId } });
  await tx.idempotencyKey.create({ data: { userId, key, status: replay.status, body: JSON.stringify(replay.body), createdAt: new Date(at) } });
}
