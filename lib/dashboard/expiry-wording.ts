// How the dashboard words a drop's expiry. Pure functions of the expiry and a time, so the server's
// render and the browser's countdown (app/dashboard/ui/expiry-countdown.tsx) say exactly the same.
import { formatTime } from "./format";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

function count(amount: number, unit: string): string {
  return `${amount} ${unit}${amount === 1 ? "" : "s"}`;
}

/**
 * A span as people say it: "42 seconds", "5 minutes", "3 hours", "7 days". Rounded to the nearest
 * unit, and the unit chosen after rounding, so 59 min 40 s reads "1 hour", never "60 minutes".
 */
export function describeSpan(ms: number): string {
  // Never "0 seconds": a link in its last half second still expires "in 1 second".
  const seconds = Math.max(1, Math.round(Math.abs(ms) / SECOND));
  if (seconds < 60) return count(seconds, "second");
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return count(minutes, "minute");
  const hours = Math.round(seconds / 3600);
  if (hours < 24) return count(hours, "hour");
  return count(Math.round(seconds / 86_400), "day");
}

export type ExpiryWording = {
  /** "Expires in 3 days" or "Expired 2 hours ago". */
  relative: string;
  /** The expiry itself, in the dashboard's UTC format. */
  absolute: string;
  /** What an expired link does now and when the drop goes; empty while it still works. */
  consequence: string;
};

/** What happens at the expiry; `retentionDays` is the operator's EXPIRED_RETENTION_DAYS. */
export function describeAftermath(retentionDays: number): string {
  const when = retentionDays === 0 ? "soon after" : `${count(retentionDays, "day")} later`;
  return `After it, viewers get “410 Gone”, and the drop is deleted ${when} unless you set a new expiry.`;
}

/** `retentionDays`: how long the purge keeps an expired drop (the operator's EXPIRED_RETENTION_DAYS). */
export function describeExpiry(expiresAt: number, retentionDays: number, at: number): ExpiryWording {
  const expired = expiresAt <= at;
  const deleteAfter = expiresAt + retentionDays * DAY;
  const span = describeSpan(expiresAt - at);
  return {
    relative: expired ? (at - expiresAt < SECOND ? "Expired just now" : `Expired ${span} ago`) : `Expires in ${span}`,
    absolute: formatTime(expiresAt),
    consequence: expired
      ? `The link answers “410 Gone”; the drop will be deleted after ${formatTime(deleteAfter)} unless you set a new expiry.`
      : "",
  };
}

/** The drop list's compact form: "in 3 days" or "Expired". */
export function describeExpiryBriefly(expiresAt: number, at: number): string {
  return expiresAt <= at ? "Expired" : `in ${describeSpan(expiresAt - at)}`;
}

/** How soon the countdown's wording can next change: every second within the hour, else every minute. */
export function countdownStepMs(expiresAt: number, at: number): number {
  return Math.abs(expiresAt - at) < HOUR ? SECOND : MINUTE;
}
