// Pure parsing of what people type: tags, lifetimes, titles. The server checks every value again (key
// pattern, lengths, limits) and its message is the one shown; these only split what was typed.
import { usageError } from "./errors";

/** `key=value`; the value may hold further `=` signs and may be empty. */
export function parseTag(text: string, option = "--tag"): [string, string] {
  const at = text.indexOf("=");
  if (at <= 0) throw usageError(`${option} takes key=value, like ${option} pr=42; got "${text}".`);
  return [text.slice(0, at).trim(), text.slice(at + 1)];
}

/** Repeated `key=value` options as one map; a key given twice is a mistake, not an override. */
export function parseTags(texts: readonly string[], option = "--tag"): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const text of texts) {
    const [key, value] = parseTag(text, option);
    const lower = key.toLowerCase();
    if (Object.keys(tags).some((existing) => existing.toLowerCase() === lower)) throw usageError(`${option} names the key "${key}" twice.`);
    tags[key] = value;
  }
  return tags;
}

const UNIT_SECONDS = { m: 60, h: 3600, d: 86_400, w: 604_800 } as const;

/** `45m`, `12h`, `7d` or `2w` in seconds, or null when `text` is no lifetime. */
export function parseLifetimeSeconds(text: string): number | null {
  const match = /^([1-9][0-9]{0,6})([mhdw])$/.exec(text.trim());
  return match ? Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS] : null;
}

/** An ISO 8601 date (UTC midnight) or date-time, in Unix milliseconds, or null. */
function parseIsoDate(text: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(text.trim())) return null;
  const ms = Date.parse(text.trim());
  return Number.isFinite(ms) ? ms : null;
}

export type Expiry = { ttl_seconds: number } | { expires_at: number | null };

/**
 * `--expires` of a drop: a lifetime (`7d`) counted by the server's clock, a date, or `never` to remove
 * the expiry.
 */
export function parseExpiry(text: string): Expiry {
  if (["never", "none"].includes(text.trim().toLowerCase())) return { expires_at: null };
  const seconds = parseLifetimeSeconds(text);
  if (seconds !== null) return { ttl_seconds: seconds };
  const at = parseIsoDate(text);
  if (at !== null) return { expires_at: at };
  throw usageError(`--expires takes a lifetime like 45m, 12h, 7d or 2w, a date like 2027-01-31, or never; got "${text}".`);
}

/** `--expires` of a token, which the server takes only as a moment: Unix milliseconds from `now`. */
export function parseTokenExpiry(text: string, now: number): number {
  const seconds = parseLifetimeSeconds(text);
  if (seconds !== null) return now + seconds * 1000;
  const at = parseIsoDate(text);
  if (at !== null) return at;
  throw usageError(`--expires takes a lifetime like 12h, 30d or 2w, or a date like 2027-01-31; got "${text}".`);
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** The document's `<title>`, as a browser would show it, or null when it has none. */
export function htmlTitle(html: string): string | null {
  const match = /<title[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html);
  if (!match) return null;
  const text = match[1]!
    .replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]+);/gi, (entity: string, name: string) => {
      if (!name.startsWith("#")) return ENTITIES[name.toLowerCase()] ?? entity;
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    })
    .replace(/\s+/g, " ")
    .trim();
  return text || null;
}
