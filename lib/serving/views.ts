// View counts are gathered in memory and written in batches after the response, so a page view never
// waits on a write. At most one flush runs at a time; views recorded meanwhile go into the next batch.
import { db } from "@/lib/db";

type ViewState = { pending: Map<string, number>; flushing: Promise<void> | null; retry: NodeJS.Timeout | null; oldestPendingAt: number | null };
const VIEWS_KEY = Symbol.for("htmldrop.views");
type ViewHolder = { [VIEWS_KEY]?: ViewState };

function state(): ViewState {
  const holder = globalThis as ViewHolder;
  return (holder[VIEWS_KEY] ??= { pending: new Map(), flushing: null, retry: null, oldestPendingAt: null });
}

/** For /metrics: views not yet written, and how long the oldest of them has waited (the flush lag). */
export function pendingViewStats(): { drops: number; views: number; lagSeconds: number } {
  const { pending, oldestPendingAt } = state();
  const views = [...pending.values()].reduce((total, count) => total + count, 0);
  return { drops: pending.size, views, lagSeconds: oldestPendingAt === null ? 0 : (Date.now() - oldestPendingAt) / 1000 };
}

export function recordView(dropId: string): void {
  const views = state();
  views.oldestPendingAt ??= Date.now();
  views.pending.set(dropId, (views.pending.get(dropId) ?? 0) + 1);
}

async function drain(views: ViewState): Promise<void> {
  while (views.pending.size > 0) {
    const batch = views.pending;
    const batchSince = views.oldestPendingAt;
    views.pending = new Map();
    views.oldestPendingAt = null;
    try {
      // updateMany: a drop deleted since its view is simply skipped.
      await db().$transaction([...batch].map(([id, count]) => db().drop.updateMany({ where: { id }, data: { viewCount: { increment: count } } })));
    } catch (error) {
      for (const [id, count] of batch) views.pending.set(id, (views.pending.get(id) ?? 0) + count);
      views.oldestPendingAt = batchSince;
      console.error("htmldrop: could not record view counts, retrying", error);
      views.retry ??= setTimeout(() => {
        views.retry = null;
        void flushViewCounts();
      }, 5_000).unref();
      return;
    }
  }
}

/** Writes every recorded view; called after each viewer response and on shutdown. Never throws. */
export function flushViewCounts(): Promise<void> {
  const views = state();
  views.flushing ??= drain(views).finally(() => {
    views.flushing = null;
  });
  return views.flushing;
}
