import { getConfig } from "@/lib/config";
import { db } from "@/lib/db";
import { writeUsage } from "@/lib/ratelimit";
import type { SessionUser } from "@/lib/auth/session";

export type UsageRow = { label: string; used: number; limit: number };

export type AccountView = {
  userId: string;
  identity: { provider: string; login: string | null };
  createdAt: number;
  dropCount: number;
  usage: UsageRow[];
};

/** The account page: who is signed in, and how much of every limit the account has spent. */
export async function loadAccount(user: SessionUser): Promise<AccountView> {
  const { limits } = getConfig();
  const [account, fullest, writes] = await Promise.all([
    db().user.findUniqueOrThrow({ where: { id: user.userId }, select: { id: true, createdAt: true, dropCount: true } }),
    db().drop.findFirst({ where: { ownerId: user.userId }, orderBy: { versionCount: "desc" }, select: { versionCount: true } }),
    writeUsage(user.userId),
  ]);
  return {
    userId: account.id,
    identity: { provider: user.provider, login: user.login },
    createdAt: account.createdAt.getTime(),
    dropCount: account.dropCount,
    usage: [
      { label: "Drops in this account", used: account.dropCount, limit: limits.dropsPerAccount },
      { label: "Versions of your fullest drop", used: fullest?.versionCount ?? 0, limit: limits.versionsPerDrop },
      { label: "Writes today (UTC day)", used: writes.today, limit: limits.writesPerDay },
      { label: "Writes this minute", used: writes.thisMinute, limit: limits.writesPerMinute },
    ],
  };
}
