import { parseStoredScopes, type Scope } from "@/lib/accounts/scopes";
import { now } from "@/lib/clock";
import { db } from "@/lib/db";
import { assertRateLimit } from "@/lib/ratelimit";
import { normalizeUserCode } from "./codes";
import { expireDeviceAuth, isPastDeadline } from "./flow-state";

/** What the verification page shows about a code, from the human's side. */
export type DeviceAuthView = {
  code: string;
  label: string | null;
  /** What approving grants the device. */
  scopes: Scope[];
  state: "pending" | "approved" | "denied" | "expired";
  /** Unix ms when the code stops working (while pending). */
  expiresAt: number;
  approvedByUserId: string | null;
};

export async function describeDeviceAuth(input: { code: string; clientKey: string }): Promise<DeviceAuthView | null> {
  const code = normalizeUserCode(input.code);
  if (!code) return null;
  await assertRateLimit("deviceAuthLookups", input.clientKey);
  const flow = await db().deviceAuth.findUnique({ where: { code }, select: { id: true, code: true, label: true, scopes: true, status: true, expiresAt: true, userId: true } });
  if (!flow) return null;
  const at = now();
  const base = { code: flow.code, label: flow.label, scopes: parseStoredScopes(flow.scopes), approvedByUserId: flow.userId, expiresAt: flow.expiresAt.getTime() };
  if (flow.status === "claimed") return { ...base, state: "approved" };
  if (flow.status === "denied") return { ...base, state: "denied" };
  if (isPastDeadline(flow, at)) {
    await expireDeviceAuth(flow.id, at);
    return { ...base, state: "expired" };
  }
  return { ...base, state: flow.status === "verified" ? "approved" : "pending" };
}
