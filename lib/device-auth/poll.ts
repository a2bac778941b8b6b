import { parseStoredScopes } from "@/lib/accounts/scopes";
import { FULL_GRANT } from "@/lib/accounts/credentials";
import { issueToken } from "@/lib/accounts/tokens";
import { now } from "@/lib/clock";
import { db, transaction } from "@/lib/db";
import { ApiError } from "@/lib/errors";
import { assertRateLimit } from "@/lib/ratelimit";
import type { PollDeviceAuthJson } from "@/lib/schemas/device-auth";
import { hashSecret } from "@/lib/security/tokens";
import { expireDeviceAuth, isPastDeadline } from "./flow-state";

/**
 * pending → verified (a human approved) → claimed (this read took the token), or → expired, or
 * pending → denied (a human refused; an addition to the spec, RFC 8628's access_denied).
 * The token is minted inside the transaction that flips verified to claimed, so it never rests in
 * the database in plaintext and concurrent polls of one flow yield it exactly once.
 */
export async function pollDeviceAuth(input: { pollToken: string; clientKey: string }): Promise<PollDeviceAuthJson> {
  await assertRateLimit("deviceAuthPolls", input.clientKey);
  const flow = await db().deviceAuth.findUnique({
    where: { pollTokenHash: hashSecret(input.pollToken) },
    select: { id: true, status: true, expiresAt: true, userId: true, label: true, scopes: true },
  });
  if (!flow) throw new ApiError("not_found", "No sign-in has this poll token; start a new one with POST /api/auth/start.");
  const at = now();
  if (flow.status === "claimed") return { status: "claimed" };
  if (flow.status === "denied") return { status: "denied" };
  if (isPastDeadline(flow, at)) {
    await expireDeviceAuth(flow.id, at);
    return { status: "expired" };
  }
  if (flow.status !== "verified" || !flow.userId) return { status: "pending" };

  const userId = flow.userId;
  const minted = await transaction(async (tx) => {
    const claim = await tx.deviceAuth.updateMany({
      where: { id: flow.id, status: "verified", expiresAt: { gt: new Date(at) } },
      data: { status: "claimed", claimedAt: new Date(at) },
    });
    if (claim.count !== 1) return null;
    // Exactly the scopes the human saw on /verify; every drop and no expiry, as before scopes existed.
    const grant = { ...FULL_GRANT, scopes: parseStoredScopes(flow.scopes) };
    const issued = await issueToken(userId, { label: flow.label, grant }, tx);
    await tx.deviceAuth.update({ where: { id: flow.id }, data: { apiTokenId: issued.summary.id } });
    return issued;
  });
  if (minted) return { status: "verified", api_token: minted.token, user_id: userId };

  // Another poll claimed it first, or the deadline passed in between.
  const after = await db().deviceAuth.findUniqueOrThrow({ where: { id: flow.id }, select: { status: true } });
  return { status: after.status === "claimed" ? "claimed" : "expired" };
}
