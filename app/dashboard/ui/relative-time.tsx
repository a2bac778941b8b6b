import { formatRelative, formatTime } from "@/lib/dashboard/format";

/** "3 days ago", with the exact UTC time on hover and in the markup. */
export function RelativeTime({ at, now }: { at: number | null; now: number }) {
  if (at === null) return <>never</>;
  return (
    <time dateTime={new Date(at).toISOString()} title={formatTime(at)}>
      {formatRelative(at, now)}
    </time>
  );
}
