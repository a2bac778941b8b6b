// View counts are gathered in memory and written in batches after the response, so a page view never
// waits on a write. At most one flush runs at a time; views recorded meanwhile go into the next batch.
import { db } from "@/lib/db";

type ViewState = { pending: Map<string, number>; flushing: Promise<void> | null; retry: NodeJS.Timeout | null };
const VIEWS_KEY = Symbol.for("htmldrop.views");
type ViewHolder = { [VIEWS_KEY]?: ViewState };

function state(): ViewState {
  const holder = globalThis as ViewHolder;
  return (holder[VIEWS_KEY] ??= { pending: new Map(), flushing: null, retry: null });
}

export function recordView(dropId: string): void {
  const views = state();
  views.pending.set(dropId, (views.pending.get(dropId) ?? 0) + 1);
}

async function drain(views: ViewState): Promise<void> {
  while (views.pending.size > 0) {
    const batch = views.pending;
    views.pending = new Map();
    try {
      // updateMany: a drop deleted since its view is simply skipped.
      await db().$transaction([...batch].map(([id, count]) => db().drop.updateMany({ where: { id }, data: { viewCount: { increment: count } } })));
    } catch (error) {
      for (const [id, count] of batch) views.pending.set(id, (views.pending.get(id) ?? 0) + count);
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
