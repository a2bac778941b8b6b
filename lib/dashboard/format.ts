/** Times as the dashboard prints them: unambiguous UTC, the same on the server for every viewer. */
export function formatTime(ms: number | null): string {
  if (ms === null) return "never";
  return `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 86_400_000],
  ["month", 30 * 86_400_000],
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
];

const RELATIVE = new Intl.RelativeTimeFormat("en", { numeric: "always" });

/** "3 days ago", "in 2 hours", or "just now" within a minute, counted from the server's time of the render. */
export function formatRelative(ms: number, now: number): string {
  const delta = ms - now;
  for (const [unit, size] of UNITS) {
    if (Math.abs(delta) >= size) return RELATIVE.format(Math.trunc(delta / size), unit);
  }
  return "just now";
}
