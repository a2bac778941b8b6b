// When a failed delivery is tried again: Standard Webhooks' example schedule, about 27 hours in all.
// After the last retry fails, the delivery is failed and its endpoint disabled (lib/webhooks/worker.ts).
export const DELIVERY_SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000] as const;

/** The wait before the retry that follows a failure, when `retriesLeft` retries remain. */
export function retryDelayMs(retriesLeft: number): number {
  return DELIVERY_SCHEDULE_MS[DELIVERY_SCHEDULE_MS.length - retriesLeft]!;
}
