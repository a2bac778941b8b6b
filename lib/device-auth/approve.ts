import { getConfig } from "@/lib/config";
import { now } from "@/lib/clock";
import { db } from "@/lib/db";
import { assertRateLimit } from "@/lib/ratelimit";
import { normalizeUserCode } from "./codes";
import { expireDeviceAuth, isPastDeadline } from "./flow-state";

export type ApproveOutcome = "approved" | "invalidCode" | "expired" | "alreadyUsed" | "denied" | "signedOut";

/**
 * A signed-in human approves the flow behind `code` for their account. Only a pending, unexpired flow
 * can be approved, once (a conditional update decides between concurrent approvals); the agent then has
 * deviceCodeTtlSeconds from this moment to claim its token.
 */
export async function approveDeviceAuth(input: { code: string; userId: string; clientKey: string }): Promise<ApproveOutcome> {
  await assertRateLimit("deviceAuthApprovals", input.clientKey);
  const code = normalizeUserCode(input.code);
  if (!code) return "invalidCode";
  if (!(await db().user.findUnique({ where: { id: input.userId }, select: { id: true } }))) return "signedOut";
  const at = now();
  const approved = await db().deviceAuth.updateMany({
    where: { code, status: "pending", expiresAt: { gt: new Date(at) } },
    data: { status: "verified", userId: input.userId, approvedAt: new Date(at), expiresAt: new Date(at + getConfig().limits.deviceCodeTtlSeconds * 1000) },
  });
  if (approved.count === 1) return "approved";

  const flow = await db().deviceAuth.findUnique({ where: { code }, select: { id: true, status: true, expiresAt: true, userId: true } });
  if (!flow) return "invalidCode";
  if (flow.status === "denied") return "denied";
  if (isPastDeadline(flow, at)) {
    await expireDeviceAuth(flow.id, at);
    return "expired";
  }
  // A repeated submit by the same person is not an error: the device is approved.
  if (flow.userId === input.userId && (flow.status === "verified" || flow.status === "claimed")) return "approved";
  return "alreadyUsed";
}
