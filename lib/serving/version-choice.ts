// The viewer's version picker: what each of its options says.
import { formatTime } from "@/lib/dashboard/format";

/** A version as the picker offers it: with the start of its context, so versions of one day differ. */
export type VersionChoice = { number: number; createdAt: number; contextHead: string | null };

/** How much of each version's context the picker shows. */
export const CONTEXT_HEAD_CHARS = 48;

/** "v3 latest · 2026-11-25 14:05 UTC · Fixed the totals in the…": the number first, so a narrow select still shows it. */
export function versionChoiceLabel(version: VersionChoice, latest: number): string {
  const parts = [`v${version.number}${version.number === latest ? " latest" : ""}`, formatTime(version.createdAt)];
  const head = version.contextHead?.replace(/\s+/g, " ").trim();
  if (head) parts.push(head.length > CONTEXT_HEAD_CHARS ? `${head.slice(0, CONTEXT_HEAD_CHARS - 1).trimEnd()}…` : head);
  return parts.join(" · ");
}
