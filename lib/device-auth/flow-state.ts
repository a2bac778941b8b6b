import { db } from "@/lib/db";

/** Pending and verified flows past their deadline become expired; a conditional update, so it never undoes a claim. */
export async function expireDeviceAuth(id: string, at: number): Promise<void> {
  await db().deviceAuth.updateMany({
    where: { id, status: { in: ["pending", "verified"] }, expiresAt: { lte: new Date(at) } },
    data: { status: "expired" },
  });
}

export function isPastDeadline(flow: { status: string; expiresAt: Date }, at: number): boolean {
  return flow.status === "expired" || ((flow.status === "pending" || flow.status === "verified") && flow.expiresAt.getTime() <= at);
}
