// A bound on the pages Next renders at once on `npm start`. Each render holds its React tree, its RSC
// payload and its HTML in memory until written; fifty at once set the process's peak RSS (issue 35),
// and on one event loop they finish no sooner together than in turn. Requests beyond the bound wait, in
// order, for a free slot. Next's static files (`/_next/`) and requests with a body (a form's action,
// whose upload a slow client could stretch) are not renders and pass at once.
import { AsyncResource } from "node:async_hooks";
import type { ServerResponse } from "node:http";

/**
 * Renders Next runs at once: CPU-bound on one thread, more in flight only add memory and latency. Four
 * rather than one keep the thread busy while renders wait on the database (on PostgreSQL a viewer page
 * waits on four round trips in turn); eight held up to 45 MB more at the same throughput (issue 35).
 */
export const RENDERS_AT_ONCE = 4;
/**
 * How long a render may hold its slot. Next waits for the client to take a large page, so without a
 * limit a client that never reads would keep its slot for as long as it keeps the connection.
 */
export const RENDER_HOLD_LIMIT_MS = 3_000;

export class RenderQueue {
  private running = 0;
  // A Set keeps insertion order: the first waiting is the next to run; a client gone drops its entry.
  private readonly waiting = new Set<() => void>();

  constructor(
    private readonly slots = RENDERS_AT_ONCE,
    private readonly holdLimitMs = RENDER_HOLD_LIMIT_MS,
  ) {}

  /**
   * Runs `render` now if a slot is free, else when one frees. The slot is released when `render`
   * settles, `response` closes or the hold limit passes, whichever comes first.
   */
  admit(response: ServerResponse, render: () => Promise<unknown>): void {
    if (this.running < this.slots) return this.start(response, render);
    // Bound to this request's async context: called bare, the render would run in the context of the
    // render that released the slot, and Next's stores snapshot the context they start in, so each
    // waiting render would keep the one before it (and its request) alive while the queue stays full.
    const run = AsyncResource.bind(() => {
      response.off("close", leave);
      this.start(response, render);
    });
    const leave = () => this.waiting.delete(run);
    response.once("close", leave);
    this.waiting.add(run);
  }

  /** Renders in flight and waiting, for /metrics. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.size };
  }

  private start(response: ServerResponse, render: () => Promise<unknown>): void {
    this.running++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      clearTimeout(holdLimit);
      response.off("close", release);
      this.running--;
      const next = this.waiting.values().next();
      if (!next.done) {
        this.waiting.delete(next.value);
        next.value();
      }
    };
    const holdLimit = setTimeout(release, this.holdLimitMs);
    response.once("close", release);
    render().then(release, release);
  }
}

/** Whether a request Next answers is a render the queue bounds. */
export function isRender(method: string, url: string): boolean {
  return (method === "GET" || method === "HEAD") && !url.startsWith("/_next/");
}

const QUEUE_KEY = Symbol.for("htmldrop.render-queue");
type QueueHolder = { [QUEUE_KEY]?: RenderQueue };

/** The process's queue, shared through globalThis with /metrics, which Next bundles apart. */
export function renderQueue(): RenderQueue {
  return ((globalThis as QueueHolder)[QUEUE_KEY] ??= new RenderQueue());
}
