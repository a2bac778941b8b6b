import { now, utcDate, utcDay } from "@/lib/clock";
import { db } from "@/lib/db";
import type { DropStatsJson } from "@/lib/schemas/drops";
import { getDropFor } from "./access";

/**
 * Views of a drop over the last `days` UTC days, today included: every day (zeros too) and each
 * version's total. Views reach the counters in batches right after each page view, so a view shows
 * here within moments, not in the same instant.
 */
export async function getDropStats(userId: string, slug: string, days: number): Promise<DropStatsJson> {
  const drop = await getDropFor(userId, slug, "editor");
  const today = utcDay(now());
  const first = today - days + 1;
  const rows = await db().dropViewDay.findMany({ where: { dropId: drop.id, day: { gte: first, lte: today } }, select: { version: true, day: true, count: true } });
  // Read after the day rows: a batch written in between then shows in view_count too, which thus
  // never falls below the days' sum (both are written in one transaction).
  const viewCount = (await db().drop.findUnique({ where: { id: drop.id }, select: { viewCount: true } }))?.viewCount ?? drop.viewCount;
  const perDay = new Map<number, number>();
  const perVersion = new Map<number, number>();
  for (const { version, day, count } of rows) {
    perDay.set(day, (perDay.get(day) ?? 0) + count);
    perVersion.set(version, (perVersion.get(version) ?? 0) + count);
  }
  const daily = Array.from({ length: days }, (_, index) => ({ date: utcDate(first + index), views: perDay.get(first + index) ?? 0 }));
  return {
    slug: drop.slug,
    days,
    from: utcDate(first),
    to: utcDate(today),
    total_views: daily.reduce((total, day) => total + day.views, 0),
    view_count: viewCount,
    daily,
    versions: [...perVersion].sort(([a], [b]) => a - b).map(([version, views]) => ({ version, views })),
  };
}
