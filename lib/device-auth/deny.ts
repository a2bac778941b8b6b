import { now } from "@/lib/clock";
import { db } from "@/lib/db";
import { assertRateLimit } from "@/lib/ratelimit";
import { normalizeUserCode } from "./codes";
import { expireDeviceAuth, isPastDeadline } from "./flow-state";

export type DenyOutcome = "denied" | "invalidCode" | "expired" | "alreadyUsed" | "signedOut";

/**
 * A signed-in human refuses the flow behind `code`: its poll then answers `denied` (RFC 8628's
 * access_denied) and it can never be approved. Only a pending, unexpired flow can be denied; one
 * that was approved already keeps its token (revoking it is the tokens page's job).
 */
export async function denyDeviceAuth(input: { code: string; userId: string; clientKey: string }): Promise<DenyOutcome> {
  await assertRateLimit("deviceAuthApprovals", input.clientKey);
  const code = normalizeUserCode(input.code);
  if (!code) return "invalidCode";
  if (!(await db().user.findUnique({ where: { id: input.userId }, select: { id: true } }))) return "signedOut";
  const at = now();
  const denied = await db().deviceAuth.updateMany({
    where: { code, status: "pending", expiresAt: { gt: new Date(at) } },
    data: { status: "denied", userId: input.userId },
  });
  if (denied.count === 1) return "denied";

  const flow = await db().deviceAuth.findUnique({ where: { code }, select: { id: true, status: true, expiresAt: true } });
  if (!flow) return "invalidCode";
  if (flow.status === "denied") return "denied";
  if (isPastDeadline(flow, at)) {
    await expireDeviceAuth(flow.id, at);
    return "expired";
  }
  return "alreadyUsed";
}
